"""Google Cloud Storage: removing buckets and objects with gsutil and gcloud storage."""

from dcg.model import Pack, Rule

PACK = Pack(
    "storage.gcs",
    description="GCS: gsutil rm -r / rb, rsync -d, gcloud storage rm -r / buckets delete",
    # rsync -n is a dry run that only lists the changes.
    safe=(r"^gsutil\s(?=(?:.*\s)?-[a-zA-Z]*n[a-zA-Z]*(?:\s|$))(?:.*\s)?rsync\s",),
    rules=(
        Rule(
            "rm-recursive",
            severity="critical",
            pattern=r"^(?:gsutil\s(?=(?:.*\s)?-[a-zA-Z]*[rRa][a-zA-Z]*(?:\s|$))(?:.*\s)?rm\s|"
            r"gcloud\s(?=(?:.*\s)?(?:-r|-R|--recursive)(?:\s|$))(?:.*\s)?storage\s+rm\s)",
            reason="Recursive rm deletes every object under the bucket or prefix",
            explanation="gsutil rm -r (or gcloud storage rm -r) deletes all objects, and for a "
            "bucket URL the bucket too; -a also deletes every noncurrent version, so even "
            "object versioning cannot bring them back.",
            alternative="gsutil ls -r the URL first, copy what matters, and rely on soft "
            "delete or versioning for a way back.",
            blocks=(
                "gsutil -m rm -r gs://prod-assets",
                "gcloud storage rm --recursive gs://b/logs/",
            ),
            allows=("gsutil ls -r gs://prod-assets", "gsutil rm gs://b/tmp/one.txt"),
        ),
        Rule(
            "rsync-delete",
            severity="high",
            pattern=r"^(?:gsutil\s(?=(?:.*\s)?-[a-zA-Z]*d[a-zA-Z]*(?:\s|$))(?:.*\s)?rsync\s|"
            r"gcloud\s(?=(?:.*\s)?--delete-unmatched-destination-objects(?:\s|$))(?:.*\s)?storage\s+"
            r"rsync\s)",
            reason="rsync -d deletes destination objects missing from the source",
            explanation="The destination becomes a mirror; an empty or wrong source deletes "
            "the whole destination.",
            alternative="Run gsutil rsync -n (dry run) first and read the deletions.",
            blocks=(
                "gsutil -m rsync -r -d ./dist gs://www",
                "gcloud storage rsync ./dist gs://www --delete-unmatched-destination-objects",
            ),
            allows=("gsutil rsync -r ./dist gs://www", "gsutil rsync -n -d -r ./dist gs://www"),
        ),
        Rule(
            "bucket-delete",
            severity="high",
            pattern=r"^(?:gsutil\s(?:.*\s)?rb\s|gcloud\s(?:.*\s)?storage\s+buckets\s+delete\s)",
            reason="Deletes a bucket and gives up its name",
            explanation="The (empty) bucket and its configuration are removed and the globally "
            "unique name can be taken by someone else.",
            alternative="Keep the bucket, or save its configuration first.",
            blocks=("gsutil rb gs://old-bucket", "gcloud storage buckets delete gs://old-bucket"),
            allows=("gsutil ls", "gcloud storage buckets describe gs://old-bucket"),
        ),
        Rule(
            "rm",
            severity="medium",
            pattern=r"^(?:gsutil\s(?:.*\s)?rm\s|gcloud\s(?:.*\s)?storage\s+rm\s)",
            reason="Deletes GCS objects",
            explanation="Objects are deleted at once; only versioning or soft delete lets you "
            "restore them, and wildcards can match more than expected.",
            alternative="List the same URL with ls first.",
            blocks=("gsutil rm gs://b/config.yaml", "gcloud storage rm gs://b/*.log"),
            allows=("gsutil cat gs://b/config.yaml", "gcloud storage ls gs://b/"),
        ),
    ),
)
