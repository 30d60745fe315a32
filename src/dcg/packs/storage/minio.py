"""MinIO client: removing buckets and objects with mc."""

from dcg.model import Pack, Rule

PACK = Pack(
    "storage.minio",
    description="MinIO client mc: rb --force, rm --recursive, mirror --remove, admin "
    "bucket/user removal",
    safe=(r"^mc\s(?:.*\s)?(?:--dry-run|--help|-h)(?:\s|$)",),
    rules=(
        Rule(
            "rb",
            severity="critical",
            pattern=r"^mc\s(?:.*\s)?rb\s",
            reason="mc rb removes a bucket (with --force, including all its objects)",
            explanation="With --force every object is deleted before the bucket; without it "
            "only empty buckets go. Either way the bucket configuration is lost.",
            alternative="mc mirror the bucket to a backup first and check the alias (mc alias "
            "list).",
            blocks=("mc rb --force prod/assets", "mc rb local/tmp-bucket"),
            allows=("mc ls prod/assets", "mc mb prod/assets"),
        ),
        Rule(
            "rm-recursive",
            severity="high",
            pattern=r"^mc\s(?=(?:.*\s)?(?:--recursive|-r|--versions|--purge)(?:\s|$))(?:.*\s)?rm\s",
            reason="mc rm --recursive deletes every object under the prefix",
            explanation="All objects under the path are deleted; with --versions all their "
            "versions too, so nothing can be restored.",
            alternative="mc ls --recursive the path first, and try mc rm --dry-run.",
            blocks=("mc rm --recursive --force prod/assets/", "mc rm -r --versions prod/logs/2023"),
            allows=("mc ls --recursive prod/assets/", "mc rm --recursive --dry-run prod/assets/"),
        ),
        Rule(
            "mirror-remove",
            severity="high",
            pattern=r"^mc\s(?=(?:.*\s)?--remove(?:\s|$))(?:.*\s)?mirror\s",
            reason="mc mirror --remove deletes destination objects missing from the source",
            explanation="The destination becomes an exact mirror; a wrong or empty source "
            "deletes the destination's contents.",
            alternative="Run mc mirror --dry-run first, or mirror without --remove.",
            blocks=(
                "mc mirror --remove ./site prod/www",
                "mc mirror --overwrite --remove prod/a backup/a",
            ),
            allows=("mc mirror ./site prod/www", "mc diff ./site prod/www"),
        ),
        Rule(
            "rm",
            severity="medium",
            pattern=r"^mc\s(?:.*\s)?(?:rm|admin\s+(?:user|policy|bucket\s+remote)\s+(?:rm|remove))\s",
            reason="Deletes objects, or MinIO users and policies",
            explanation="Objects are deleted at once unless the bucket is versioned; removing "
            "users or policies breaks every client using them.",
            alternative="mc cp the object aside, or disable the user (mc admin user disable).",
            blocks=("mc rm prod/assets/logo.png", "mc admin user rm prod ci-bot"),
            allows=("mc cat prod/assets/logo.png", "mc admin user disable prod ci-bot"),
        ),
    ),
)
