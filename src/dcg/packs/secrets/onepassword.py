"""1Password CLI (op): deleting vaults, items, documents, users and groups."""

from dcg.model import Pack, Rule

# `op [global flags] `; both v2 (`op item delete`) and v1 (`op delete item`) word orders.
_OP = r"^op\s(?:-[^\s]*\s(?:[^\s-][^\s]*\s)?)*"

PACK = Pack(
    "secrets.onepassword",
    description="1Password CLI: vault, item, document, user, group and Connect deletion",
    rules=(
        Rule(
            "vault-delete",
            severity="critical",
            pattern=_OP + r"(?:vault\s(?:delete|rm|remove)|delete\svault)\b",
            reason="op vault delete removes a vault with every item in it",
            explanation="Deleting a vault deletes all items and documents it contains for "
            "every member. Items deleted with their vault do not go to Recently Deleted.",
            alternative="Export or move the items to another vault first (op item move), then "
            "delete the empty vault.",
            blocks=('op vault delete "Engineering"', "op vault delete vlt_abc123"),
            allows=("op vault list", "op vault get Engineering"),
        ),
        Rule(
            "item-archive",
            severity="medium",
            pattern=_OP + r"(?:(?:item|document)\s(?:delete|rm|remove)|delete\s(?:item|document))\b"
            r"(?=.*\s--archive\b)",
            reason="op item/document delete --archive moves it to the vault's archive",
            explanation="Archived items disappear from apps and integrations that read them, "
            "but can be restored from the archive in the 1Password apps.",
            alternative="Rename or tag the item as deprecated first and check who uses it.",
            blocks=(
                'op item delete --archive "Legacy Token"',
                'op document delete --archive "Old Cert"',
            ),
            allows=('op item get "Legacy Token"', "op item list --vault Engineering"),
        ),
        Rule(
            "item-delete",
            severity="high",
            pattern=_OP
            + r"(?:(?:item|document)\s(?:delete|rm|remove)|delete\s(?:item|document))\b",
            reason="op item/document delete removes a secret or file from its vault",
            explanation="Without --archive the item is deleted; passwords, keys and files it "
            "held are lost for every user and integration that relied on them.",
            alternative="Use --archive so the item can be restored, or export it first with "
            "op item get --format json.",
            blocks=(
                'op item delete "Database Password"',
                'op document delete "Prod Cert" --vault Ops',
            ),
            allows=('op item get "Database Password"', 'op document get "Prod Cert"'),
        ),
        Rule(
            "user-delete",
            severity="high",
            pattern=_OP + r"(?:user\s(?:delete|rm|remove)|delete\suser)\b",
            reason="op user delete removes a member and their private vault",
            explanation="The user loses access and their Private/Employee vault with its items "
            "is deleted; shared vaults they alone managed may be left without a manager.",
            alternative="op user suspend (reversible with op user reactivate), then transfer "
            "their items before deleting.",
            blocks=('op user delete "user@example.com"', "op user delete WHQ3XVZ"),
            allows=("op user list", "op user reactivate user@example.com"),
        ),
        Rule(
            "group-delete",
            severity="medium",
            pattern=_OP + r"(?:group\s(?:delete|rm|remove)|delete\sgroup)\b",
            reason="op group delete removes a group and the vault access it grants",
            explanation="Every member loses the vault permissions granted through the group; "
            "the group, its membership and grants have to be rebuilt by hand.",
            alternative="op group user list and op vault group list first, and keep the output.",
            blocks=('op group delete "Contractors"', "op group delete grp_12345"),
            allows=("op group list", 'op group get "Contractors"'),
        ),
        Rule(
            "revoke-access",
            severity="medium",
            pattern=_OP
            + r"(?:user\ssuspend|(?:vault\s(?:user|group)|group\suser)\s(?:revoke|delete))\b",
            reason="Suspending a user or revoking vault/group access",
            explanation="People and service accounts lose access to secrets immediately, which "
            "can stop deployments that read them; access must be granted again by hand.",
            alternative="Check with op vault user list / op group user list first.",
            blocks=(
                "op user suspend bob@example.com",
                "op vault user revoke --vault Ops --user bob@example.com",
            ),
            allows=(
                "op vault user list Ops",
                "op vault user grant --vault Ops --user bob@example.com",
            ),
        ),
        Rule(
            "connect-delete",
            severity="high",
            pattern=_OP + r"connect\s(?:server|token)\s(?:delete|rm|remove)\b",
            reason="Deleting a 1Password Connect server or token cuts off integrations",
            explanation="Kubernetes operators, CI jobs and services that fetch secrets through "
            "Connect fail once their server or token is deleted; new credentials must be "
            "issued and deployed everywhere.",
            alternative="Issue the replacement token (op connect token create) and roll it out "
            "before deleting the old one.",
            blocks=(
                "op connect server delete prod-connect",
                "op connect token delete ci-token --server prod",
            ),
            allows=("op connect server list", "op connect token list"),
        ),
    ),
)
