"""Velero: deleting Kubernetes backups, restores, schedules and storage locations."""

from dcg.model import Pack, Rule

# `velero [global flags] ` (-n NAMESPACE, --kubecontext C, …); both `velero backup delete`
# and the verb-first `velero delete backup` forms exist.
_VELERO = r"^velero\s(?:-[^\s]*\s(?:[^\s-][^\s]*\s)?)*"


def _delete(kinds: str) -> str:
    return _VELERO + rf"(?:(?:{kinds})\sdelete|delete\s(?:{kinds})s?)\b"


PACK = Pack(
    "backup.velero",
    description="Velero: backup, restore, schedule, snapshot and location deletion, uninstall",
    rules=(
        Rule(
            "backup-delete-all",
            severity="critical",
            pattern=_delete("backup") + r"(?=.*\s--all\b)",
            reason="velero backup delete --all deletes every backup of the cluster",
            explanation="All Backup objects are deleted together with their data in object "
            "storage and their volume snapshots. The cluster is left without any backup.",
            alternative="Delete backups by name, and let schedules expire them with --ttl.",
            blocks=("velero backup delete --all --confirm", "velero delete backups --all"),
            allows=("velero backup get", "velero backup delete nightly-1 --confirm"),
        ),
        Rule(
            "backup-delete",
            severity="high",
            pattern=_delete("backup"),
            reason="velero backup delete removes backups with their stored data and snapshots",
            explanation="The backup's tarball in object storage and its volume snapshots are "
            "deleted, so the cluster state it captured can no longer be restored.",
            alternative="Describe it first (velero backup describe --details) and rely on the "
            "backup's TTL for expiry.",
            blocks=(
                "velero backup delete daily-backup --confirm",
                "velero backup delete --selector env=prod",
            ),
            allows=("velero backup describe daily-backup", "velero backup logs daily-backup"),
        ),
        Rule(
            "uninstall",
            severity="high",
            pattern=_VELERO + r"uninstall\b",
            reason="velero uninstall removes Velero and its custom resources from the cluster",
            explanation="The namespace, CRDs and all Backup, Restore and Schedule objects are "
            "removed; scheduled backups stop, and the cluster loses track of existing backups "
            "until a location is re-synced.",
            alternative="Scale the deployment down or pause schedules (velero schedule pause).",
            blocks=("velero uninstall", "velero uninstall --force"),
            allows=("velero version", "velero install --help"),
        ),
        Rule(
            "snapshot-delete",
            severity="high",
            pattern=_delete("snapshot"),
            reason="Deleting a Velero volume snapshot removes the copy of a persistent volume",
            explanation="Volume data captured in the snapshot cannot be restored afterwards.",
            alternative="Delete whole backups by TTL instead of individual snapshots.",
            blocks=(
                "velero snapshot delete --name snap-01",
                "velero snapshot delete --name snap-01 --confirm",
            ),
            allows=("velero snapshot get", "velero backup describe daily --details"),
        ),
        Rule(
            "location-delete",
            severity="medium",
            pattern=_delete("backup-location|snapshot-location"),
            reason="Deleting a backup or snapshot location hides its backups from Velero",
            explanation="The backups stored there are no longer synced into the cluster, so "
            "they cannot be restored until the location is recreated with the same settings.",
            alternative="velero backup-location get -o yaml > bsl.yaml first.",
            blocks=(
                "velero backup-location delete default --confirm",
                "velero snapshot-location delete aws",
            ),
            allows=("velero backup-location get", "velero snapshot-location get"),
        ),
        Rule(
            "schedule-delete",
            severity="medium",
            pattern=_delete("schedule"),
            reason="velero schedule delete stops future backups",
            explanation="No more backups are taken for that schedule, which is usually noticed "
            "only when a restore is needed.",
            alternative="velero schedule pause, and keep the schedule definition (-o yaml).",
            blocks=("velero schedule delete nightly", "velero schedule delete nightly --confirm"),
            allows=("velero schedule get", "velero schedule pause nightly"),
        ),
        Rule(
            "restore-delete",
            severity="low",
            pattern=_delete("restore"),
            reason="velero restore delete removes a restore's record and logs",
            explanation="The restored resources stay, but the record of what was restored and "
            "its logs and results are deleted.",
            alternative="Keep velero restore describe/logs output before deleting.",
            blocks=(
                "velero restore delete restore-2025-01-01",
                "velero restore delete r1 --confirm",
            ),
            allows=("velero restore get", "velero restore describe restore-2025-01-01"),
        ),
    ),
)
