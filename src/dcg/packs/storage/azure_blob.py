"""Azure Blob Storage: deleting containers and blobs with az storage and azcopy."""

from dcg.model import Pack, Rule

PACK = Pack(
    "storage.azure_blob",
    description="Azure Blob: az storage container delete, blob delete-batch/delete, azcopy "
    "remove and sync --delete-destination",
    safe=(
        r"^az\s(?=(?:.*\s)?--dryrun(?:\s|$))(?:.*\s)?storage\s",
        r"^azcopy\s(?:.*\s)?--dry-run(?:\s|=true|$)",
    ),
    rules=(
        Rule(
            "container-delete",
            severity="critical",
            pattern=r"^az\s(?:.*\s)?storage\s+(?:container|share|fs)\s+delete\s",
            reason="Deletes a blob container (or file share) with every blob in it",
            explanation="All blobs of the container go with it; unless container soft delete "
            "is enabled on the account the data cannot be recovered.",
            alternative="Copy the container with azcopy first and enable container soft "
            "delete on the account.",
            blocks=(
                "az storage container delete --name backups --account-name prodsa",
                "az storage share delete -n files --account-name sa",
            ),
            allows=(
                "az storage container list --account-name prodsa",
                "az storage container create -n backups",
            ),
        ),
        Rule(
            "delete-batch",
            severity="high",
            pattern=r"^(?:az\s(?:.*\s)?storage\s+(?:blob|file)\s+delete-batch\s|azcopy\s(?:.*\s)?"
            r"(?:remove|rm)\s|azcopy\s(?=(?:.*\s)?--delete-destination(?:=|\s+)(?:true|prompt))"
            r"(?:.*\s)?sync\s)",
            reason="Deletes many blobs at once (delete-batch, azcopy remove, sync "
            "--delete-destination)",
            explanation="Every blob matching the pattern or missing from the sync source is "
            "deleted; a broad pattern or wrong source empties the container.",
            alternative="Run with --dryrun (az) or --dry-run (azcopy) and read the list first.",
            blocks=(
                "az storage blob delete-batch --source backups --account-name sa",
                "azcopy remove 'https://sa.blob.core.windows.net/c?sv=x' --recursive",
                "azcopy sync ./site 'https://sa.blob.core.windows.net/w' --delete-destination=true",
            ),
            allows=(
                "az storage blob delete-batch --source backups --account-name sa --dryrun",
                "azcopy sync ./site 'https://sa.blob.core.windows.net/$web'",
            ),
        ),
        Rule(
            "blob-delete",
            severity="medium",
            pattern=r"^az\s(?:.*\s)?storage\s+(?:blob|file)\s+delete\s",
            reason="Deletes a blob",
            explanation="The blob and, with --delete-snapshots include, its snapshots are "
            "deleted; only blob soft delete or versioning can restore it.",
            alternative="Download or copy the blob first.",
            blocks=(
                "az storage blob delete -c backups -n db.bak --account-name sa",
                "az storage file delete -s files -p a.txt",
            ),
            allows=(
                "az storage blob show -c backups -n db.bak",
                "az storage blob download -c backups -n db.bak -f db.bak",
            ),
        ),
    ),
)
