"""Amazon S3: deleting buckets and objects through aws s3, aws s3api and s3cmd."""

from dcg.model import Pack, Rule

PACK = Pack(
    "storage.s3",
    description="Amazon S3: removing buckets, deleting objects recursively or by batch, "
    "mirror syncs with --delete, and bucket policies",
    safe=(
        # --dryrun only prints the operations; "help" prints the manual page.
        r"^aws\s(?:.*\s)?--dryrun(?:\s|$)",
        r"^aws\s(?:.*\s)?help$",
        r"^s3cmd\s(?:.*\s)?(?:--dry-run|-n)(?:\s|$)",
    ),
    rules=(
        Rule(
            "rb-force",
            severity="critical",
            pattern=r"^aws\s(?=(?:.*\s)?--force(?:\s|$))(?:.*\s)?s3\s+rb\s",
            keywords=("s3",),
            reason="aws s3 rb --force deletes every object in the bucket and then the bucket",
            explanation="--force first deletes all objects (every current version) and then "
            "removes the bucket itself. Nothing is kept unless versioning or replication "
            "happens to be configured, and the bucket name can be claimed by anyone afterwards.",
            alternative="Sync the bucket to a backup location first, empty it with a lifecycle "
            "rule you can review, and remove the empty bucket with plain aws s3 rb.",
            blocks=(
                "aws s3 rb s3://prod-assets --force",
                "aws --profile prod s3 rb --force s3://logs-2023",
            ),
            allows=(
                "aws s3 rb s3://prod-assets",
                "aws s3 ls s3://prod-assets --recursive",
                "aws s3 rb s3://prod-assets --force --dryrun",
            ),
        ),
        Rule(
            "rm-bucket-recursive",
            severity="critical",
            pattern=r"^aws\s(?=(?:.*\s)?--recursive(?:\s|$))(?=(?:.*\s)?s3://[^/\s]+/?(?:\s|$))"
            r"(?:.*\s)?s3\s+rm\s",
            keywords=("s3",),
            reason="aws s3 rm --recursive on a bucket root deletes every object in the bucket",
            explanation="A recursive rm of s3://bucket or s3://bucket/ enumerates and deletes "
            "all objects. Without versioning they are gone for good, and even with versioning "
            "restoring millions of delete markers is slow and costly.",
            alternative="List what would go with --dryrun, restrict the prefix and use "
            "--exclude/--include, or configure a lifecycle rule you can review.",
            blocks=(
                "aws s3 rm s3://my-bucket --recursive",
                "aws s3 rm --recursive s3://prod-data/",
                "aws --region eu-west-1 s3 rm s3://prod-data --recursive --quiet",
            ),
            allows=(
                "aws s3 rm s3://my-bucket --recursive --dryrun",
                "aws s3 ls s3://my-bucket --recursive",
                "aws s3 rm s3://my-bucket/tmp/build.log",
            ),
        ),
        Rule(
            "rm-recursive",
            severity="high",
            pattern=r"^aws\s(?=(?:.*\s)?--recursive(?:\s|$))(?:.*\s)?s3\s+rm\s",
            keywords=("s3",),
            reason="aws s3 rm --recursive deletes every object under the prefix",
            explanation="The command deletes all objects whose keys start with the given "
            "prefix, which can be far more than intended (s3://b/data also matches "
            "s3://b/data-old/…). Deleted objects are only recoverable if versioning is on.",
            alternative="Run it with --dryrun first, narrow the prefix with a trailing slash, "
            "or copy the prefix elsewhere before deleting.",
            blocks=(
                "aws s3 rm s3://my-bucket/path --recursive",
                "aws s3 rm --recursive s3://assets/releases/1.2/",
            ),
            allows=(
                "aws s3 rm s3://assets/releases/1.2/ --recursive --dryrun",
                "aws s3 cp s3://assets/releases/1.2/ ./local --recursive",
            ),
        ),
        Rule(
            "sync-delete",
            severity="high",
            pattern=r"^aws\s(?=(?:.*\s)?--delete(?:\s|$))(?:.*\s)?s3\s+sync\s",
            keywords=("s3",),
            reason="aws s3 sync --delete removes destination files that are not in the source",
            explanation="With --delete the destination becomes a mirror of the source: objects "
            "(or local files) missing from the source are deleted. Swapping source and "
            "destination, or syncing from an empty directory, wipes the destination.",
            alternative="Run the sync with --dryrun and review the delete lines, or sync "
            "without --delete and clean up explicitly.",
            blocks=(
                "aws s3 sync /empty s3://my-bucket --delete",
                "aws s3 sync --delete s3://my-bucket ./restore",
            ),
            allows=(
                "aws s3 sync ./dist s3://my-bucket",
                "aws s3 sync ./dist s3://my-bucket --delete --dryrun",
            ),
        ),
        Rule(
            "rb",
            severity="medium",
            pattern=r"^aws\s(?:.*\s)?(?:s3\s+rb|s3api\s+delete-bucket)(?:\s|$)",
            keywords=("s3",),
            reason="Deleting a bucket gives up its name and configuration",
            explanation="S3 only removes empty buckets this way, but the bucket's policy, "
            "lifecycle, replication and notification settings go with it, and the globally "
            "unique name may be taken by someone else before you can recreate it.",
            alternative="Keep the empty bucket, or export its configuration (get-bucket-*) "
            "before deleting it.",
            blocks=(
                "aws s3api delete-bucket --bucket my-bucket",
                "aws s3 rb s3://old-logs",
            ),
            allows=(
                "aws s3api list-buckets",
                "aws s3 mb s3://new-logs",
                "aws s3api delete-bucket help",
            ),
        ),
        Rule(
            "delete-objects",
            severity="high",
            pattern=r"^aws\s(?:(?=(?:.*\s)?--version-id\b)(?:.*\s)?s3api\s+delete-object\s"
            r"|(?:.*\s)?s3api\s+delete-objects\s)",
            keywords=("s3",),
            reason="s3api delete-objects deletes up to 1000 keys at once; --version-id deletes "
            "a version permanently",
            explanation="delete-objects removes every key listed in the request in one call, "
            "and deleting a specific version (--version-id) bypasses versioning: that version "
            "cannot be restored.",
            alternative="Check the key list with list-objects-v2 first and delete without "
            "--version-id so that versioning keeps a delete marker you can remove.",
            blocks=(
                "aws s3api delete-objects --bucket my-bucket --delete file://delete.json",
                "aws s3api delete-object --bucket b --key a.txt --version-id 3HL4kqtJ",
            ),
            allows=(
                "aws s3api list-object-versions --bucket b",
                "aws s3api get-object --bucket b --key a.txt --version-id 3HL4kqtJ out.txt",
            ),
        ),
        Rule(
            "rm-object",
            severity="medium",
            pattern=r"^aws\s(?:.*\s)?(?:s3\s+rm|s3api\s+delete-object)\s",
            keywords=("s3",),
            reason="Deletes an S3 object",
            explanation="A single object is deleted; it can only be brought back when the "
            "bucket has versioning enabled (by removing the delete marker).",
            alternative="Copy the object aside (aws s3 cp) or confirm versioning is enabled "
            "before deleting.",
            blocks=(
                "aws s3 rm s3://my-bucket/config/app.yaml",
                "aws s3api delete-object --bucket my-bucket --key path/file.txt",
            ),
            allows=(
                "aws s3 cp s3://my-bucket/config/app.yaml .",
                "aws s3api head-object --bucket my-bucket --key path/file.txt",
            ),
        ),
        Rule(
            "delete-bucket-config",
            severity="medium",
            pattern=r"^aws\s(?:.*\s)?s3api\s+delete-(?:bucket-[a-z-]+|public-access-block)\s",
            keywords=("s3",),
            reason="Removes a bucket's policy, lifecycle, encryption, replication or other "
            "configuration",
            explanation="The delete-bucket-* calls drop a piece of bucket configuration at "
            "once. Removing a policy or public-access block can expose data or break access, "
            "and removing replication or encryption settings silently changes how new data "
            "is protected.",
            alternative="Save the current setting with the matching get-bucket-* call first so "
            "it can be put back.",
            blocks=(
                "aws s3api delete-bucket-policy --bucket my-bucket",
                "aws s3api delete-bucket-lifecycle --bucket logs",
                "aws s3api delete-public-access-block --bucket site",
            ),
            allows=(
                "aws s3api get-bucket-policy --bucket my-bucket",
                "aws s3api get-bucket-versioning --bucket my-bucket",
            ),
        ),
        Rule(
            "s3cmd-delete",
            severity="high",
            pattern=r"^s3cmd\s(?:(?:.*\s)?(?:rb|del|rm|deleteall)\s|(?=(?:.*\s)?--delete-removed(?:\s|$)))",
            keywords=("s3cmd",),
            reason="s3cmd removes buckets or objects, or mirrors deletions with --delete-removed",
            explanation="s3cmd rb/del/rm delete buckets and objects (recursively with -r or "
            "--recursive), and sync --delete-removed deletes every destination object missing "
            "from the source. Without bucket versioning none of it can be undone.",
            alternative="Run with --dry-run first and copy what matters elsewhere.",
            blocks=(
                "s3cmd del --recursive s3://my-bucket/logs/",
                "s3cmd rb --force s3://old-bucket",
                "s3cmd sync --delete-removed ./site/ s3://www/",
            ),
            allows=(
                "s3cmd ls s3://my-bucket",
                "s3cmd sync ./site/ s3://www/",
                "s3cmd --dry-run del --recursive s3://my-bucket/logs/",
            ),
        ),
    ),
)
