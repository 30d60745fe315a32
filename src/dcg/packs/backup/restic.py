"""restic: forgetting snapshots, pruning repository data and removing keys."""

from dcg.model import Pack, Rule

# `restic [global flags] ` (-r REPO, --password-file F, -v …).
_RESTIC = r"^restic\s(?:-[^\s]*\s(?:[^\s-][^\s]*\s)?)*"

PACK = Pack(
    "backup.restic",
    description="restic: forget and prune of snapshots, key removal",
    # --dry-run / -n only prints what forget or prune would remove.
    safe=(r"^restic\s(?:.*\s)?(?:--dry-run|-n)(?:\s|$)",),
    rules=(
        Rule(
            "forget-all",
            severity="critical",
            pattern=_RESTIC + r"forget\s(?:.*\s)?--unsafe-allow-remove-all\b",
            reason="restic forget --unsafe-allow-remove-all may remove every snapshot",
            explanation="The flag lifts restic's guard against a policy that keeps nothing; "
            "with --prune (or a later prune) the data of all matching snapshots is gone, "
            "which is the whole backup history of those hosts, tags or paths.",
            alternative="Use a keep policy (--keep-last 1 at least) and run with --dry-run first.",
            blocks=(
                "restic forget --tag prod --unsafe-allow-remove-all",
                "restic -r /srv/repo forget --host db01 --unsafe-allow-remove-all --prune",
            ),
            allows=(
                "restic forget --tag prod --unsafe-allow-remove-all --dry-run",
                "restic snapshots --tag prod",
            ),
        ),
        Rule(
            "forget-prune",
            severity="high",
            pattern=_RESTIC + r"forget\s(?:.*\s)?--prune\b",
            reason="restic forget --prune deletes old snapshots and their data",
            explanation="Snapshots outside the keep policy are removed and prune then deletes "
            "the data only they referenced. A too tight policy or a wrong --host/--tag/--path "
            "filter loses backups for good.",
            alternative="Run restic forget with --dry-run and the same policy first, and keep "
            "a copy of the repository (restic copy) before large clean-ups.",
            blocks=(
                "restic forget --keep-daily 7 --keep-weekly 4 --prune",
                "restic -r s3:s3.amazonaws.com/bkp forget --keep-last 1 --prune",
            ),
            allows=("restic forget --keep-last 1 --prune --dry-run", "restic snapshots"),
        ),
        Rule(
            "prune",
            severity="high",
            pattern=_RESTIC + r"prune\b",
            reason="restic prune permanently deletes data no snapshot references",
            explanation="Prune rewrites packs and deletes unreferenced data. Snapshots that "
            "were forgotten by mistake become unrecoverable once their data is pruned.",
            alternative="restic prune --dry-run first; check restic snapshots for what is kept.",
            blocks=("restic prune", "restic --repo /srv/repo prune --max-unused 0"),
            allows=("restic prune --dry-run", "restic check"),
        ),
        Rule(
            "forget",
            severity="medium",
            pattern=_RESTIC + r"forget\b",
            reason="restic forget removes snapshots from the repository index",
            explanation="The snapshots disappear from restic snapshots and restore; their data "
            "stays until the next prune, and recovering them needs restic repair/recover.",
            alternative="Run with --dry-run first, or tag snapshots instead of forgetting them.",
            blocks=("restic forget bdbd3439", "restic -r /srv/repo forget --keep-last 3"),
            allows=("restic forget --keep-last 3 --dry-run", "restic snapshots --json"),
        ),
        Rule(
            "key-remove",
            severity="high",
            pattern=_RESTIC + r"key\s(?:remove|rm)\b",
            reason="restic key remove deletes a key that can open the repository",
            explanation="Whoever used that password (a host, a CI job) can no longer read or "
            "write the repository; removing the last key you know locks you out of it.",
            alternative="restic key list, and add the replacement key (restic key add) first.",
            blocks=("restic key remove 5c657874", "restic -r /srv/repo key remove abc123"),
            allows=("restic key list", "restic key add"),
        ),
    ),
)
