"""Pulumi: destroying stacks, removing stacks and editing state."""

from dcg.model import Pack, Rule

_P = r"^pulumi\s"

PACK = Pack(
    "infrastructure.pulumi",
    description="Pulumi: destroy, stack rm, state delete, up --yes with replacements",
    safe=(_P + r"(?:.*\s)?(?:--help|-h|--preview-only)(?:\s|$)",),
    rules=(
        Rule(
            "destroy",
            severity="critical",
            pattern=_P + r"(?:.*\s)?(?:destroy|down)(?:\s|$)",
            reason="pulumi destroy deletes every resource of the stack",
            explanation="All cloud resources the stack manages are deleted; databases and "
            "volumes lose their data unless protected or backed up.",
            alternative="Preview first (pulumi destroy --preview-only) and mark stateful "
            "resources protect: true.",
            blocks=("pulumi destroy --yes", "pulumi -s prod destroy"),
            allows=("pulumi preview", "pulumi destroy --preview-only"),
        ),
        Rule(
            "stack-rm",
            severity="high",
            pattern=_P + r"(?:.*\s)?stack\s+rm(?:\s|$)",
            reason="pulumi stack rm deletes the stack and its state",
            explanation="The stack's state, history and configuration are deleted; with "
            "--force even when resources still exist, which are then left unmanaged.",
            alternative="Export the state first (pulumi stack export > stack.json) and destroy "
            "resources before removing the stack.",
            blocks=("pulumi stack rm prod", "pulumi stack rm dev --force --yes"),
            allows=("pulumi stack ls", "pulumi stack export --file stack.json"),
        ),
        Rule(
            "state-delete",
            severity="high",
            pattern=_P + r"(?:.*\s)?state\s+(?:delete|unprotect|edit)(?:\s|$)",
            reason="pulumi state delete/unprotect edits what Pulumi manages",
            explanation="Deleting a resource from state leaves it running unmanaged; "
            "unprotecting removes the guard that prevents it from being destroyed.",
            alternative="pulumi stack export first, and prefer changes in code that show up in "
            "preview.",
            blocks=(
                "pulumi state delete urn:pulumi:prod::app::aws:rds/instance:Instance::db",
                "pulumi state unprotect --all",
            ),
            allows=("pulumi stack export", "pulumi stack --show-urns"),
        ),
    ),
)
