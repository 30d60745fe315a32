"""BorgBackup: deleting archives or repositories, pruning, compacting and recreating."""

from dcg.model import Pack, Rule

# `borg [common options] ` (--remote-path P, -v, --lock-wait N, …).
_BORG = r"^borg\s(?:-[^\s]*\s(?:[^\s-][^\s]*\s)?)*"

PACK = Pack(
    "backup.borg",
    description="BorgBackup: archive and repository deletion, prune, compact, recreate",
    # -n / --dry-run makes delete, prune and recreate only report what they would do.
    safe=(r"^borg\s(?:.*\s)?(?:--dry-run|-n)(?:\s|$)",),
    rules=(
        Rule(
            "repo-delete",
            severity="critical",
            pattern=_BORG + r"(?:rdelete|repo-delete)\b",
            reason="borg repo-delete deletes the whole repository with every archive",
            explanation="All archives, the manifest and the repository itself are removed; "
            "nothing in the repository can be restored afterwards.",
            alternative="Delete individual archives or prune with a keep policy; take an "
            "offsite copy of the repository before removing it.",
            blocks=("borg repo-delete", "borg rdelete -r ssh://backup@nas/./repo"),
            allows=("borg rlist -r ssh://backup@nas/./repo", "borg repo-info"),
        ),
        Rule(
            "delete-cache",
            severity="low",
            pattern=_BORG + r"delete\s(?:.*\s)?--cache-only\b",
            reason="borg delete --cache-only drops the local cache of a repository",
            explanation="Only the client-side cache goes; the next create rebuilds it, which "
            "can take a long time on a large repository.",
            alternative="Leave the cache alone unless it is corrupt; borg check first.",
            blocks=("borg delete --cache-only", "borg delete --cache-only ssh://nas/./repo"),
            allows=("borg info repo", "borg check repo"),
        ),
        Rule(
            "delete",
            severity="high",
            pattern=_BORG + r"delete\b",
            reason=(
                "borg delete removes archives (in borg 1, the whole repository when none is named)"
            ),
            explanation="Deleting `repo::archive`, or every archive matching -a/--glob-archives, "
            "removes those backups; in borg 1.x `borg delete REPO` without an archive deletes "
            "the entire repository. Freed data is gone once the repository is compacted.",
            alternative=(
                "borg delete --dry-run --list first, or let borg prune apply a keep policy."
            ),
            blocks=(
                "borg delete repo::archive",
                "borg delete -a 'sh:host-*'",
                "borg delete ::archive-2024-01-01",
            ),
            allows=("borg delete --dry-run --list repo::archive", "borg list repo"),
        ),
        Rule(
            "prune",
            severity="high",
            pattern=_BORG + r"prune\b",
            reason="borg prune deletes every archive outside the keep policy",
            explanation="Archives not kept by --keep-* rules are deleted; a missing or mistyped "
            "--glob-archives prefix applies the policy to other hosts' archives as well.",
            alternative="borg prune --dry-run --list with the same options first.",
            blocks=(
                "borg prune --keep-last 1 --keep-daily 7",
                "borg prune -v --keep-weekly 4 repo",
            ),
            allows=("borg prune --dry-run --list --keep-daily 7 repo", "borg info repo"),
        ),
        Rule(
            "recreate",
            severity="high",
            pattern=_BORG + r"recreate\b",
            reason="borg recreate rewrites archives and can drop files from them",
            explanation="With --exclude patterns or other options, recreate removes the "
            "excluded files from existing archives; the original content is not kept.",
            alternative="borg recreate --dry-run --list first, on a single archive.",
            blocks=(
                "borg recreate --exclude '*.iso' repo",
                "borg recreate repo::archive --exclude tmp/",
            ),
            allows=("borg recreate --dry-run --list repo::archive", "borg diff repo::a repo::b"),
        ),
        Rule(
            "compact",
            severity="medium",
            pattern=_BORG + r"compact\b",
            reason="borg compact frees the space of deleted archives for good",
            explanation="After compaction the segments of deleted archives are gone; until "
            "then (and with borg 2 undelete) a mistaken delete may still be undone.",
            alternative="Compact only after checking that the deletions were intended.",
            blocks=("borg compact", "borg compact --threshold 5 repo"),
            allows=("borg check repo", "borg info repo"),
        ),
    ),
)
