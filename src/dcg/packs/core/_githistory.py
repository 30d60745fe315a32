"""Rules of core.git for work and history lost without the usual flags (see shell/gitforms.py)."""

from dcg.checks import git_ref_files
from dcg.model import Rule

_F = r"-[a-zA-Z]*f[a-zA-Z]*"

RULES = (
    Rule(
        "sequencer-abort",
        keep="worktree",
        severity="high",
        pattern=r"^git (?:merge|rebase|am|cherry-pick|revert)\b.* --(?:abort|skip)(?: |$)",
        keywords=("--abort", "--skip"),
        reason="git merge/rebase/am/cherry-pick/revert --abort or --skip resets the work tree",
        explanation=(
            "Aborting or skipping a step resets the index and work tree as git reset --merge "
            "(or --hard) does: conflict resolutions and edits made during the operation are "
            "lost and git keeps no copy of them."
        ),
        alternative="git stash first, or git merge --quit / git rebase --quit to keep the tree",
        blocks=(
            "git merge --abort",
            "git rebase --abort",
            "git rebase --skip",
            "git am --skip",
            "git cherry-pick --abort",
            "git revert --abort",
        ),
        allows=("git merge --continue", "git rebase --continue", "git merge --quit"),
    ),
    Rule(
        "patch-reverse",
        keep="worktree",
        severity="high",
        pattern=r"^patch\b.* --worktree-diff(?: |$)",
        keywords=("patch",),
        reason="patch -R of git diff's own output discards the uncommitted changes",
        explanation=(
            "Reversing the patch of the work tree's changes (git diff piped in, or a saved "
            "diff of the current uncommitted edits) puts every changed file back as it was: "
            "the same loss as git checkout -- . (dcg marks such a command --worktree-diff)."
        ),
        alternative="git stash, which keeps the changes, or keep a copy of the diff first",
        blocks=("git diff | patch -R -p1", "git diff > p.diff && patch -R -p1 < p.diff"),
        allows=("patch -p1 < fix.diff", "git diff | patch -p1 --dry-run", "patch -R < fix.diff"),
    ),
    Rule(
        "submodule-update-force",
        keep="files",
        severity="high",
        pattern=rf"^git submodule\b.* update\b.* (?:--force|{_F})(?: |$)",
        keywords=("submodule",),
        reason="git submodule update --force overwrites local changes inside submodules",
        explanation=(
            "With --force the submodules are checked out even when their work trees have "
            "uncommitted edits; those edits are discarded."
        ),
        alternative="commit or stash inside the submodule, then git submodule update",
        blocks=(
            "git submodule update --force",
            "git submodule update --init --force --recursive",
            "git submodule update -f vendor/lib",
        ),
        allows=("git submodule update --init", "git submodule update --init --recursive"),
    ),
    Rule(
        "tag-delete",
        keep="refs",
        severity="high",
        pattern=r"^git tag\b.* (?:--delete|-[a-zA-Z]*d[a-zA-Z]*|--overwrites-tag=[^ ]+)(?: |$)",
        keywords=("tag",),
        reason="git tag -d deletes a tag, and an annotated tag's object with it",
        explanation=(
            "Tags have no reflog: the deleted tag, and the tag object of an annotated tag "
            "(its message and signature), are left unreachable and go at the next gc. "
            "git tag -f over an existing tag drops the old one the same way (dcg marks it "
            "--overwrites-tag)."
        ),
        alternative="keep the tag, or note its id (git rev-parse TAG) before deleting it",
        blocks=("git tag -d v1", "git tag --delete v1.0 v1.1"),
        allows=("git tag v1", "git tag -l", "git tag -a v2 -m release"),
    ),
    Rule(
        "branch-overwrite",
        keep="refs",
        severity="medium",
        pattern=(
            r"^git (?:branch|checkout|switch|fetch|pull|update-ref|worktree|fast-import)\b"
            r".* --overwrites-branch="
        ),
        keywords=(
            "branch",
            "checkout",
            "switch",
            "fetch",
            "pull",
            "update-ref",
            "worktree",
            "fast-import",
        ),
        reason="points an existing branch at another commit, forcibly",
        explanation=(
            "git branch -f/-M/-C, git checkout -B, git switch -C, git worktree add -B, a "
            "forced fetch refspec (+src:branch), git fast-import --force (or a stream saying "
            "feature force) or git update-ref onto an existing branch moves it without "
            "checking that its commits are kept anywhere; they survive only in its reflog "
            "(git branch -M deletes even that). dcg marks the branch --overwrites-branch."
        ),
        alternative="create a new branch name, or check git log BRANCH first",
        blocks=("git fetch origin '+refs/heads/*:refs/heads/*'",),
        allows=(
            "git checkout -b new",
            "git branch -m old new",
            "git fetch origin main:main",
            "git branch -M main",
        ),
    ),
    Rule(
        "listed-overwrite",
        keep="worktree",
        severity="high",
        pattern=(
            r"^(?:git (?:show|cat-file)\b.* --|(?:tee|sponge)\b.* --git-)"
            r"overwrites-listed-files(?: |$)"
        ),
        keywords=("show", "cat-file", "overwrites-listed-files"),
        reason="overwrites each listed file with its committed version (git show REV:f > f)",
        explanation=(
            "A loop over a list of files (git diff --name-only, git ls-files, a glob, names "
            "read with read) that writes git's stored copy of each file over it puts every "
            "one back as committed: the uncommitted changes in all of them are lost, as with "
            "git checkout -- . (dcg marks such a command --overwrites-listed-files)."
        ),
        alternative="git stash, which keeps the changes, or write the copies elsewhere",
        blocks=(
            'for f in $(git diff --name-only); do git show HEAD:"$f" > "$f"; done',
            'git diff --name-only | while read f; do git show HEAD:"$f" > "$f"; done',
        ),
        allows=(
            "git show HEAD:src/app.py > src/app.py",
            'for f in $(git ls-files); do git show HEAD:"$f" > "/tmp/old/$f.orig"; done',
        ),
    ),
    Rule(
        "archive-extract",
        keep="worktree",
        severity="high",
        pattern=(
            r"^(?:g?tar|bsdtar|(?:bsd)?unzip|7z[a-z]*|p7zip|jar|unar|ark|cpio|pax|python[0-9.]*)"
            r"\b.* --git-archive-over-worktree(?: |$)"
        ),
        keywords=("archive",),
        reason="git archive | tar -x in the work tree puts back every file's committed copy",
        explanation=(
            "Extracting the repository's own archive where it came from writes each "
            "committed file over the work tree's copy: uncommitted changes in all of them "
            "are lost, as with git checkout -- . Piped, written to a file on the line (-o, "
            "--output, > FILE) or found on disk naming a commit of the repository, tar, bsdtar, "
            "unzip, 7z x, jar x, unar -D/-f, ark --batch, cpio -iu or pax -r extracting it "
            "there over the existing files is marked --git-archive-over-worktree."
        ),
        alternative="git stash, or extract elsewhere (tar -x -C /tmp/x, git archive --prefix)",
        blocks=("git archive HEAD | tar -x", "git archive HEAD | tar -xf -"),
        allows=("git archive HEAD | tar -x -C /tmp/out", "git archive HEAD | tar -t"),
    ),
    Rule(
        "rebase-drop",
        keep="refs",
        severity="medium",
        pattern=r"^git rebase\b.* --drops-commits(?: |$)",
        keywords=("rebase",),
        reason="git rebase drops commits from the branch (--onto past its own commits, or a "
        "todo list edited to drop them)",
        explanation=(
            "git rebase --onto NEW UPSTREAM with UPSTREAM the branch's tip, or with NEW below "
            "UPSTREAM on the branch (--onto HEAD~3 HEAD~1), or commits UPSTREAM holds that "
            "NEW and no other ref do (git is asked when the names alone do not say), or git "
            "rebase -i with a sequence editor that deletes todo lines, turns picks into drops "
            "or runs code dcg does not read (perl, awk, python, a script), leaves those "
            "commits on no branch: only the reflog still has them (dcg marks such a rebase "
            "--drops-commits)."
        ),
        alternative="git revert the commits, or keep them on a branch first (git branch keep)",
        blocks=("git rebase --onto HEAD~3 HEAD~1",),
        allows=(
            "git rebase main",
            "git rebase -i HEAD~3",
            "git rebase --onto main old feature",
            "git rebase --onto main HEAD~3",
        ),
    ),
    Rule(
        "ref-files",
        keep="refs",
        severity="high",
        pattern=r"^.",
        check=git_ref_files,
        reason="deletes or rewrites git's ref or reflog files directly",
        explanation=(
            "Removing .git/refs/…, .git/logs/… or .git/packed-refs drops branches, tags, "
            "the stash or the reflogs that are the only way back to lost commits, without "
            "any of git's own checks."
        ),
        alternative="git branch -d, git tag -d or git stash drop, which check and log",
        blocks=(
            "rm .git/refs/stash .git/logs/refs/stash",
            "rm -rf .git/logs",
            "rm .git/packed-refs",
            "rm -f .git/refs/heads/feature",
            "cd .git && rm -rf logs",
        ),
        allows=("cat .git/packed-refs", "ls .git/refs/heads", "rm -rf build", "rm -rf logs"),
    ),
)
