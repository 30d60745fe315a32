"""rclone: purge, delete, sync and move against local paths and cloud remotes."""

from dcg.model import Pack, Rule

# `rclone [global flags] ` (--config F, -v, --transfers N, …).
_RCLONE = r"^rclone\s(?:-[^\s]*\s(?:[^\s-][^\s]*\s)?)*"

PACK = Pack(
    "backup.rclone",
    description="rclone: purge, delete, sync, move, cleanup and dedupe on remotes",
    # -n / --dry-run only lists what would change.
    safe=(r"^rclone\s(?:.*\s)?(?:--dry-run|-n)(?:\s|$)",),
    rules=(
        Rule(
            "purge",
            severity="high",
            pattern=_RCLONE + r"purge\b",
            reason="rclone purge deletes a path and everything under it",
            explanation="Purge removes the directory with all of its contents, ignoring "
            "filters; on most cloud remotes nothing goes to a trash, so a bucket or backup "
            "path is gone at once.",
            alternative="rclone purge --dry-run first, or rclone move the data to an archive "
            "path and delete it later.",
            blocks=("rclone purge remote:important-bucket", "rclone -v purge b2:backups/2023"),
            allows=("rclone purge --dry-run remote:old", "rclone size remote:important-bucket"),
        ),
        Rule(
            "sync",
            severity="high",
            pattern=_RCLONE + r"(?:sync|bisync)\b",
            reason="rclone sync deletes destination files that are not in the source",
            explanation="sync makes the destination identical to the source: files only in "
            "the destination are deleted (--delete-before/-during/-after only change when). "
            "An empty or wrong source wipes the destination; bisync propagates deletions "
            "both ways.",
            alternative="rclone sync --dry-run first, or use rclone copy, or add "
            "--backup-dir remote:old to keep what would be deleted.",
            blocks=(
                "rclone sync /empty remote:important-bucket",
                "rclone sync /src remote:bkt --delete-after",
            ),
            allows=(
                "rclone copy /src remote:important-bucket",
                "rclone sync /src remote:bkt --dry-run",
            ),
        ),
        Rule(
            "delete",
            severity="high",
            pattern=_RCLONE + r"delete\b",
            reason="rclone delete removes every file under a path",
            explanation="delete removes all files under the path, recursively unless "
            "--max-depth is given, honouring filters; a missing filter deletes everything.",
            alternative="rclone ls the same path and filters first, or run with --dry-run.",
            blocks=(
                "rclone delete remote:important-bucket/path",
                "rclone delete --min-age 30d s3:logs",
            ),
            allows=("rclone ls remote:important-bucket/path", "rclone delete --dry-run remote:tmp"),
        ),
        Rule(
            "cleanup",
            severity="high",
            pattern=_RCLONE + r"cleanup\b",
            reason="rclone cleanup empties the remote's trash and removes old file versions",
            explanation="On remotes that keep deleted files or old versions (Drive trash, B2 "
            "versions, S3 versioning), cleanup deletes them permanently, which removes the "
            "last way to recover files deleted earlier.",
            alternative="Check what is in the trash or versions first (rclone ls --b2-versions).",
            blocks=("rclone cleanup remote:", "rclone cleanup b2:bucket"),
            allows=("rclone about remote:", "rclone ls --b2-versions b2:bucket"),
        ),
        Rule(
            "deletefile",
            severity="medium",
            pattern=_RCLONE + r"(?:deletefile|dedupe)\b",
            reason="rclone deletefile / dedupe deletes files on a remote",
            explanation="deletefile removes one file; dedupe deletes or renames duplicates, "
            "and with a non-interactive --dedupe-mode it picks which copy survives.",
            alternative="rclone cat/copy the file elsewhere first; dedupe with --dry-run.",
            blocks=(
                "rclone deletefile remote:important-bucket/file.txt",
                "rclone dedupe --dedupe-mode newest drive:",
            ),
            allows=("rclone cat remote:important-bucket/file.txt", "rclone lsjson drive:"),
        ),
        Rule(
            "move",
            severity="medium",
            pattern=_RCLONE + r"move(?:to)?\b",
            reason="rclone move deletes the source files after copying them",
            explanation="move is a copy followed by deleting the source; if the destination "
            "is wrong or later cleaned, the only copy is gone. With --delete-empty-src-dirs "
            "the source tree is removed as well.",
            alternative="rclone copy, verify with rclone check, then delete the source.",
            blocks=(
                "rclone move /src remote:important-bucket",
                "rclone moveto remote:a.txt remote:b.txt",
            ),
            allows=(
                "rclone copy /src remote:important-bucket",
                "rclone check /src remote:important-bucket",
            ),
        ),
        Rule(
            "rmdir",
            severity="low",
            pattern=_RCLONE + r"rmdirs?\b",
            reason="rclone rmdir / rmdirs removes empty directories",
            explanation="Only empty directories are removed, but on bucket-based remotes an "
            "empty bucket or a directory that a job expects may go with them.",
            alternative="rclone lsd the path first.",
            blocks=(
                "rclone rmdir remote:important-bucket/old",
                "rclone rmdirs remote:data --leave-root",
            ),
            allows=("rclone lsd remote:", "rclone mkdir remote:new"),
        ),
    ),
)
