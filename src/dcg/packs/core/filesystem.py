"""Recursive deletion with rm and find, judged by what the targets could reach."""

from dcg.bulk_delete import rsync_delete_outside_temp, tar_remove_outside_temp
from dcg.keywords import MANY_WRITES
from dcg.manywrites import many_overwrites_outside_temp
from dcg.model import Pack, Rule
from dcg.safe_delete import (
    find_delete_outside_temp,
    recursive_outside_temp,
    rimraf_outside_temp,
    rm_files_outside_temp,
    shred_outside_temp,
    truncate_outside_temp,
)
from dcg.targets import find_delete_critical, recursive_critical

# rm with an option; whether it is recursive (-r, -R, -rf, -fr, --recursive, --recur…) and
# forced is read from its argv by the rule's check.
_RM_RECURSIVE = r"^rm .*-"
# Whether find deletes is read from its argv (the -exec command is parsed as a command of its own).
_FIND = r"^find\b"

PACK = Pack(
    "core.filesystem",
    description="Filesystem: recursive rm and find -delete outside temporary directories",
    rules=(
        Rule(
            "wipe-disk",
            keep="none",
            severity="critical",
            pattern=r"^(?:format-volume|clear-disk|initialize-disk|remove-partition)\b",
            reason="formatting or wiping a disk or partition from PowerShell",
            explanation=(
                "Format-Volume, Clear-Disk, Initialize-Disk and Remove-Partition erase every "
                "file on a volume or the partition table of a disk."
            ),
            alternative="do disk maintenance yourself, outside the agent",
            blocks=("Format-Volume -DriveLetter D", "Clear-Disk -Number 1 -RemoveData"),
            allows=("Get-Volume", "Get-Disk"),
        ),
        Rule(
            "clear-content",
            keep="contents",
            severity="high",
            pattern=r"^clear-content\b",
            reason="Clear-Content empties files in place",
            explanation="The content of every matched file is deleted; there is no undo.",
            alternative="keep a copy first (Copy-Item), or use git to restore tracked files",
            blocks=("Clear-Content src\\app.ps1", "Clear-Content -Path notes.txt"),
            allows=("Get-Content app.log", "Set-Location src"),
        ),
        Rule(
            "rm-rf-critical",
            keep="files",
            severity="critical",
            pattern=_RM_RECURSIVE,
            check=recursive_critical,
            reason="recursive rm of the root, home or a system directory",
            explanation=(
                "A target resolves (after ~, $HOME, .., globs and possibly-empty variables) to "
                "/, the home directory or an operating-system directory. Deleting it destroys "
                "the machine or every file of the user; nothing can be recovered."
            ),
            alternative="name the exact project subdirectory to delete, or move it to the trash",
            blocks=(
                "rm -rf /",
                "rm -rf ~",
                "rm -rf $HOME",
                "rm -rf ${HOME}/",
                'rm -rf "$BUILD_DIR/"',
                "sudo rm -rf /etc",
                "rm -rf /*",
                "rm -r --no-preserve-root /",
                "rm -rf /tmp/../etc",
                "rm -fr ~/.ssh",
            ),
            allows=(
                "rm -rf ./build",
                "rm -rf /tmp/cache",
                "rm -r ~/project/dist",
                "rm ~/notes.txt",
            ),
        ),
        Rule(
            "rm-rf",
            keep="files",
            severity="high",
            pattern=_RM_RECURSIVE,
            check=recursive_outside_temp,
            reason="recursive rm outside a temporary directory",
            explanation=(
                "rm -rf deletes a whole tree without asking and without a trash can; so does "
                "rm -r, because an agent's shell has no terminal for rm to ask on. Outside "
                "/tmp, well-known build output and what git ignores, that is usually source "
                "code or data that may not be recoverable."
            ),
            alternative="rm -ri to confirm each file, git clean -n to preview, or move it to /tmp",
            blocks=(
                "rm -rf src",
                "rm -fr lib/",
                "rm -Rf app",
                "rm -r -f ./data",
                "rm --recursive --force lib",
                "rm --recur --forc lib",
                "/bin/rm -rf docs",
                "\\rm -rf config",
                "rm -rf node_modules/../src",
                "rm -rf ~/build",
                "rm -r src",
                "rm -R --verbose lib",
            ),
            allows=(
                "rm -rf /tmp/build-123",
                "TMPDIR=/tmp/run; rm -rf $TMPDIR/cache",
                "rm file.txt",
                "rmdir empty-dir",
                "rm -r /tmp/empty-dir",
                "rm -f stale.lock",
                "rm -rf node_modules",
                "rm -rf build dist .venv __pycache__ target",
                "rm -rf ~/.cache/pip",
                'd=$(mktemp -d); rm -rf "$d"',
                'rm -rf "${TMPDIR:-/tmp}/run-1"',
            ),
        ),
        Rule(
            "rm-all-files",
            keep="files",
            severity="high",
            pattern=r"^rm(?: |$)",
            check=rm_files_outside_temp,
            reason="rm of every file in a directory (a whole-directory glob or xargs input)",
            explanation=(
                "rm * (or dir/*, .*) deletes every file of the directory, and rm fed by xargs "
                "or parallel deletes whatever names its input carries; outside /tmp and build "
                "output these are usually source files, and rm keeps no copy."
            ),
            alternative="name the files to delete, or list them first (ls, find -print)",
            blocks=(
                "rm -f *",
                "rm src/*",
                "rm -f .* *",
                "ls | xargs rm",
                "git ls-files | xargs rm -f",
            ),
            allows=(
                "rm -f *.o",
                "rm /tmp/run/*",
                "rm -f build/*",
                "echo a.o | xargs rm",
                "rm x.txt",
            ),
        ),
        Rule(
            "shred",
            keep="contents",
            severity="high",
            pattern=r"^(?:shred|srm)(?: |$)",
            keywords=("shred", "srm"),
            check=shred_outside_temp,
            reason="shred overwrites files so that nothing can be recovered",
            explanation=(
                "shred writes random data over a file's content (and with -u deletes it); "
                "neither git nor a backup of the disk blocks can bring the old content back."
            ),
            alternative="delete the file with rm (or move it to /tmp) if it only has to go",
            blocks=("shred -u notes.txt", "shred -n 3 -z src/main.c", "srm -r secrets"),
            allows=("shred -u /tmp/key.pem", "shred --help", "shred -u build/key"),
        ),
        Rule(
            "truncate",
            keep="contents",
            severity="high",
            pattern=r"^truncate(?: |$)",
            keywords=("truncate",),
            check=truncate_outside_temp,
            reason="truncate empties or shrinks files in place",
            explanation=(
                "truncate -s 0 (or a shrinking size such as -s -1K, or -r with a smaller "
                "reference file) cuts the end off a file; the lost bytes are not kept anywhere."
            ),
            alternative="keep a copy first (cp FILE /tmp/), or use git to restore a tracked file",
            blocks=("truncate -s 0 src/main.c", "truncate --size=0 data.db", "truncate -s -1K x"),
            allows=("truncate -s 1G disk.img", "truncate -s 0 /tmp/app.log", "truncate --help"),
        ),
        Rule(
            "truncate-many",
            keep="contents",
            severity="high",
            pattern=r">|^(?:tee|cp|mv|ln|dd|install|sponge)(?: |$)",
            keywords=(MANY_WRITES,),
            check=many_overwrites_outside_temp,
            reason="many files emptied or replaced at once (a glob or a loop over their names)",
            explanation=(
                "A redirection, tee, cp, mv, ln -f, dd or sponge whose target is each file "
                "of a glob, of a loop over a command's output or of find's and xargs' names "
                "empties or replaces each of them: like rm of the same files, their content "
                "is gone, and a glob of many files is a tree in effect."
            ),
            alternative='write to new names ("$f.new") and check them before moving them over',
            blocks=(
                'for f in src/*; do : > "$f"; done',
                "tee src/* </dev/null",
                'for f in $(git ls-files); do > "$f"; done',
                'git ls-files | while read f; do cp /dev/null "$f"; done',
                "git ls-files | xargs -n1 cp /dev/null",
            ),
            allows=(
                ": > src/main.py",
                'for f in src/*; do sed s/a/b/ "$f" > "$f.new"; done',
                'for f in /tmp/x/*; do : > "$f"; done',
                "ls *.py > files.txt",
                "make 2>&1 | tee build.log",
            ),
        ),
        Rule(
            "rimraf",
            keep="files",
            severity="high",
            pattern=r"(?:^| |/)(?:rimraf|del-cli|del|trash-cli|trash|premove)(?:@\S*)?(?: |$)",
            keywords=("rimraf", "del-cli", "del ", "del@", "trash", "premove"),
            check=rimraf_outside_temp,
            reason="rimraf (or del-cli, trash, premove) deletes directory trees like rm -rf",
            explanation=(
                "rimraf, del-cli (del), trash-cli (trash) and premove, often run through npx, "
                "pnpm dlx, yarn dlx or bunx, are the Node ecosystem's rm -rf: they delete "
                "whole trees (trash moves them out of the project) without asking."
            ),
            alternative="delete only the exact build output, or move it to /tmp",
            blocks=(
                "npx rimraf src",
                "rimraf lib dist",
                "pnpm dlx rimraf packages",
                "npx del-cli src",
                "yarn dlx del-cli lib",
                "npx trash src",
                "bunx premove src",
            ),
            allows=(
                "npx rimraf /tmp/out",
                "npm run build",
                "npx rimraf dist coverage",
                "npx del-cli dist",
                "npm run del",
                "npx del-cli --dry-run src",
            ),
        ),
        Rule(
            "rsync-delete",
            keep="files",
            severity="high",
            pattern=r"^rsync .*--del",
            keywords=("rsync",),
            check=rsync_delete_outside_temp,
            reason="rsync --delete deletes what the source lacks from the destination",
            explanation=(
                "With --delete (or --del, --delete-after, …) every file of the destination "
                "that the source does not hold is deleted; an empty or wrong source empties "
                "the local destination tree (a remote one is the opt-in remote pack's)."
            ),
            alternative="run it with --dry-run first, or sync into a new directory",
            blocks=("rsync -a --delete empty/ src/", "rsync -av --delete-after build/ src"),
            allows=("rsync -a src/ backup/", "rsync -a --delete src/ /tmp/mirror/"),
        ),
        Rule(
            "tar-remove-files",
            keep="files",
            severity="high",
            pattern=r"^tar .*--rem",
            keywords=("tar",),
            check=tar_remove_outside_temp,
            reason="tar --remove-files deletes the files it archives, into no archive",
            explanation=(
                "tar --remove-files deletes each file once it is written to the archive; "
                "with the archive sent to /dev/null or nowhere, the files are simply gone."
            ),
            alternative="write the archive to a file first, or delete with rm -ri",
            blocks=("tar --remove-files -cf /dev/null src", "tar cf - --remove-files src"),
            allows=("tar --remove-files -czf backup.tgz src", "tar -cf /dev/null src"),
        ),
        Rule(
            "find-delete-critical",
            keep="files",
            severity="critical",
            pattern=_FIND,
            check=find_delete_critical,
            reason="find deleting from the root, home or a system directory",
            explanation=(
                "find with -delete or -exec rm removes every match below its starting points; "
                "starting at /, the home directory or a system directory it can wipe them."
            ),
            alternative="run the same find with -print first and narrow the starting directory",
            blocks=("find / -name '*.log' -delete", "find ~ -type f -exec rm -f {} +"),
            allows=("find / -name '*.log'", "find /tmp/x -delete", "find ~ -exec grep -l x {} +"),
        ),
        Rule(
            "find-delete",
            keep="files",
            severity="high",
            pattern=_FIND,
            check=find_delete_outside_temp,
            reason="find -delete / -exec rm removes matching files outside a temporary directory",
            explanation=(
                "Every file the expression matches is deleted with no confirmation; a loose "
                "expression deletes far more than intended."
            ),
            alternative="run the find with -print (or -ls) first, then delete the reviewed list",
            blocks=(
                "find . -name '*.py' -delete",
                "find . -name '*.pyc' -o -name '*.py' -delete",
                "find src -type f -exec rm {} \\;",
                "find . -execdir rm -rf {} +",
            ),
            allows=(
                "find . -name '*.pyc'",
                "find /tmp/x -delete",
                "find . -type f -print",
                "find /tmp/cache -exec rm -rf {} +",
                "find . -name '*.pyc' -delete",
                "find . -type d -name __pycache__ -delete",
            ),
        ),
    ),
)
