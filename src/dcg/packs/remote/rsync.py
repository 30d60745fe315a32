"""rsync: the --delete family and --remove-source-files."""

from dcg.model import Pack, Rule

PACK = Pack(
    "remote.rsync",
    description="rsync: deleting destination files that are not in the source, or the source "
    "files themselves",
    # A dry run (-n / --dry-run) only lists what would change.
    safe=(r"^rsync\s(?:.*\s)?(?:--dry-run|-[a-zA-Z]*n[a-zA-Z]*)(?:\s|$)",),
    rules=(
        Rule(
            "delete",
            severity="high",
            pattern=r"^rsync\s(?!.*\s--backup)(?:.*\s)?"
            r"--(?:del|delete(?:-(?:before|during|delay|after|excluded|missing-args))?)(?:\s|$)",
            reason="rsync --delete removes every destination file that is not in the source",
            explanation="With --delete (or --delete-before/-during/-after/-excluded, --del) rsync "
            "makes the destination an exact mirror and deletes whatever the source lacks. A "
            "wrong source path, a missing trailing slash or an empty mount turns this into a "
            "wipe of the destination, and the deleted files are not kept anywhere.",
            alternative="Run the same command with --dry-run (-n) first and read the deletions, "
            "or add --backup --backup-dir=DIR so removed files are moved aside.",
            blocks=(
                "rsync -a --delete src/ backup/",
                "rsync -avz --delete-after ./site/ deploy@web1:/var/www/",
                "sudo rsync -a --del /data/ /mnt/mirror/",
                "rsync --archive --delete-excluded --exclude=*.log /home/ /backup/home/",
            ),
            allows=(
                "rsync -a src/ backup/",
                "rsync -an --delete src/ backup/",
                "rsync -a --delete --dry-run src/ backup/",
                "rsync -a --delete --backup --backup-dir=/backup/old src/ backup/",
                "rsync --help",
            ),
        ),
        Rule(
            "remove-source-files",
            severity="high",
            pattern=r"^rsync\s(?:.*\s)?--remove-source-files(?:\s|$)",
            reason="rsync --remove-source-files deletes the source files after sending them",
            explanation="The option turns a copy into a move: each source file is unlinked once "
            "rsync believes it was transferred. If the destination is the wrong place, is "
            "later cleaned, or the transfer silently skipped data, the only copy is gone.",
            alternative="Copy first, verify the destination (rsync -c --dry-run), then remove "
            "the source yourself.",
            blocks=(
                "rsync -a --remove-source-files /var/log/app/ archive@nas:/logs/",
                "rsync --remove-source-files -av incoming/ processed/",
            ),
            allows=(
                "rsync -av incoming/ processed/",
                "rsync -n --remove-source-files -av incoming/ processed/",
            ),
        ),
    ),
)
