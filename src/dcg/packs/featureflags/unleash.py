"""Unleash: deleting projects and toggles, imports that drop data, switching toggles off."""

from dcg.model import Pack, Rule
from dcg.packs._http import ANY, END, SEG, sends

# The admin API lives under /api/admin/ on any host.
_DELETE = sends("DELETE") + r"/api/admin/"
_ANY = ANY + r"/api/admin/"

PACK = Pack(
    "featureflags.unleash",
    description="Unleash admin API: project, toggle, strategy and token deletion, drop imports",
    rules=(
        Rule(
            "import-drop",
            severity="critical",
            pattern=_ANY + r"(?:state/import|features-batch/import)\?(?:[^\s]*&)?drop=true\b",
            reason="A state import with drop=true deletes all existing toggles first",
            explanation="Unleash drops every feature toggle, strategy and project before "
            "importing, so anything missing from the import file is gone.",
            alternative="Export the current state (GET /api/admin/state/export) and import "
            "without drop=true.",
            blocks=(
                "curl -X POST 'http://unleash:4242/api/admin/state/import?drop=true' -d "
                "@state.json",
                "curl -X POST "
                "'https://flags.example.com/api/admin/state/import?keep=false&drop=true'",
            ),
            allows=(
                "curl http://unleash:4242/api/admin/state/export",
                "curl -X POST 'http://unleash:4242/api/admin/state/import?keep=true'",
            ),
        ),
        Rule(
            "project-delete",
            severity="high",
            pattern=_DELETE + r"projects/" + SEG + END,
            reason="Deleting an Unleash project",
            explanation="The project's configuration, environments settings and access are "
            "removed; its toggles must have been archived or moved first.",
            alternative="Export the project's toggles first.",
            blocks=(
                "curl -X DELETE http://unleash:4242/api/admin/projects/checkout",
                "curl -X DELETE https://flags.example.com/api/admin/projects/mobile/",
            ),
            allows=(
                "curl http://unleash:4242/api/admin/projects/checkout",
                "curl -X POST http://unleash:4242/api/admin/projects",
            ),
        ),
        Rule(
            "toggle-delete",
            severity="high",
            pattern=_DELETE
            + r"(?:archive/"
            + SEG
            + r"|projects/"
            + SEG
            + r"/features/"
            + SEG
            + r"|features/"
            + SEG
            + ")"
            + END,
            reason="Archiving or permanently deleting an Unleash feature toggle",
            explanation="An archived toggle evaluates as disabled in every SDK at once; "
            "deleting it from the archive removes it and its history for good.",
            alternative="Turn the toggle off in one environment first and remove code "
            "references before archiving.",
            blocks=(
                "curl -X DELETE http://unleash:4242/api/admin/archive/new-checkout",
                "curl -X DELETE "
                "http://unleash:4242/api/admin/projects/default/features/new-checkout",
            ),
            allows=(
                "curl http://unleash:4242/api/admin/projects/default/features/new-checkout",
                "curl -X POST http://unleash:4242/api/admin/archive/revive/new-checkout",
            ),
        ),
        Rule(
            "admin-delete",
            severity="medium",
            pattern=r"(?:"
            + _DELETE
            + "|"
            + _ANY
            + r"projects/"
            + SEG
            + r"/features/"
            + SEG
            + r"/environments/"
            + SEG
            + r"/off"
            + END
            + ")",
            reason="Deleting Unleash strategies, segments or API tokens, or switching a toggle off",
            explanation="Removing a strategy or segment changes who gets a feature; a deleted "
            "API token cuts off the SDKs that use it; switching a toggle off affects every user "
            "of that environment at once.",
            alternative="GET the object first and keep it; change rollouts gradually.",
            blocks=(
                "curl -X DELETE http://unleash:4242/api/admin/api-tokens/abc",
                "curl -X POST "
                "http://unleash:4242/api/admin/projects/default/features/f1/environments/production/off",
            ),
            allows=(
                "curl http://unleash:4242/api/admin/api-tokens",
                "curl -X POST "
                "http://unleash:4242/api/admin/projects/default/features/f1/environments/production/on",
            ),
        ),
    ),
)
