"""Which packs are on with no configuration, and why (decisions.md 10.6).

On by default: the core packs, and every pack whose rules fire only on operations that
cannot be undone (disks, databases, container volumes, Kubernetes, clouds,
infrastructure as code, storage, code platforms, backups, secrets). A default pack that
also has rules for routine, recoverable operations keeps those rules opt-in: they fire
only when the pack is enabled explicitly (``[packs] enabled``, ``DCG_PACKS``, a hook
flag or a repository's ``.dcg.toml``). Every other pack is opinionated or concerns a
service whose everyday administration looks like its mistakes; it stays opt-in, and
:data:`OPT_IN` says why.
"""

from __future__ import annotations

# pack id (or category) -> why it is on by default.
DEFAULT_ON: dict[str, str] = {
    "system.disk": "dd, mkfs and wipes overwrite a whole device",
    "database": "dropped databases, tables and flushed keys are gone",
    "containers": "deleted volumes take their data with them",
    "kubernetes": "deleted namespaces, CRDs and volumes take their data with them",
    "cloud": "deleted cloud resources and managed databases are gone",
    "infrastructure": "destroy and state edits remove real infrastructure",
    "storage": "bucket and object deletions are permanent",
    "platform": "deleted repositories, releases and secrets cannot be restored",
    "backup": "pruned or deleted backups are the last copy",
    "secrets": "deleted secret engines, vaults and secrets are gone",
}

# Rules of default packs that fire on routine, recoverable operations: active only when
# the pack is enabled explicitly. pack id -> (rule names, why).
OPT_IN_RULES: dict[str, tuple[tuple[str, ...], str]] = {
    "containers.docker": (
        ("prune", "rm-force"),
        "pruning stopped containers and images, and rm -f, are routine and re-creatable",
    ),
    "containers.compose": (
        ("down-rmi", "rm-force"),
        "removing a project's images or containers is routine and re-creatable",
    ),
    "containers.podman": (
        ("prune", "rm-force"),
        "pruning stopped containers and images, and rm -f, are routine and re-creatable",
    ),
    "kubernetes.kubectl": (
        ("drain", "scale-zero"),
        "drain and scale to zero are undone by uncordon and scale",
    ),
    "kubernetes.helm": (("force",), "a forced upgrade or rollback recreates what it deletes"),
    "infrastructure.terraform": (
        ("apply-auto-approve", "taint"),
        "an auto-approved apply or a replacement is a workflow choice, not a deletion",
    ),
    "platform.github": (("repo-archive",), "archiving, renaming and transfers can be undone"),
    "backup.borg": (("delete-cache",), "the local cache is rebuilt from the repository"),
    "backup.rclone": (
        ("move", "rmdir"),
        "move keeps a copy at the destination; rmdir removes only empty directories",
    ),
    "backup.velero": (("restore-delete",), "a restore's record and logs, not its data"),
    "secrets.vault": (("operator-seal",), "a sealed Vault is unsealed again"),
    "secrets.aws_secrets": (
        ("put-secret-value", "update-secret", "policy-or-rotation"),
        "earlier secret versions and settings are kept and can be restored",
    ),
    "secrets.onepassword": (
        ("item-archive", "revoke-access"),
        "archived items and suspended access can be restored",
    ),
}

# Packs (or categories) that stay opt-in, and why.
OPT_IN: dict[str, str] = {
    "strict.git": "opinionated: rebase, tag deletion and history rewrites are everyday git",
    "package_managers": "publishing is what release work does; enable to review every publish",
    "remote": "rsync --delete and scp are everyday deploys; their targets are on another host",
    "system.permissions": "permission changes can be undone; enable on shared machines",
    "system.services": "restarting and stopping services is routine administration",
    "cicd": "disabling workflows, restarting Jenkins and clearing caches are routine",
    "dns": "record edits and cache purges are everyday DNS work",
    "monitoring": "silences, mutes and dashboard edits are everyday operations",
    "email": "template and suppression changes are everyday operations",
    "payment": "refunds and cancellations are business operations, not mistakes to catch",
    "featureflags": "toggling and cleaning up flags is what feature flags are for",
    "messaging": "purges, offset resets and ACL changes are routine queue administration",
    "search": "indices are usually rebuilt from the source of truth",
}


def _lookup(table: dict[str, str], pack_id: str) -> str | None:
    return table.get(pack_id) or table.get(pack_id.partition(".")[0])


def default_reason(pack_id: str) -> str | None:
    """Why ``pack_id`` is on by default; None when it is not."""
    return _lookup(DEFAULT_ON, pack_id)


def opt_in_reason(pack_id: str) -> str | None:
    """Why ``pack_id`` stays opt-in; None when it is on by default or core."""
    return _lookup(OPT_IN, pack_id)


def default_packs(all_ids: tuple[str, ...]) -> list[str]:
    """The non-core packs on by default, in registry order."""
    return [p for p in all_ids if default_reason(p) is not None]


def opt_in_rules(pack_id: str) -> tuple[str, ...]:
    """Rule ids of ``pack_id`` that a default-only pack leaves out."""
    names = OPT_IN_RULES.get(pack_id, ((), ""))[0]
    return tuple(f"{pack_id}:{n}" for n in names)
