"""Git operations that throw away uncommitted work, stashes or remote history."""

from dcg.model import Pack, Rule
from dcg.packs.core._githistory import RULES

# A short-option cluster containing a letter: `-f`, `-fd`, `-xfd`.
_F = r"-[a-zA-Z]*f[a-zA-Z]*"

PACK = Pack(
    "core.git",
    description=(
        "Git: reset, checkout, restore, clean, forced push, branch and stash deletion, "
        "remote branch deletion, reflog and object pruning, history rewrites and plumbing"
    ),
    rules=(
        Rule(
            "reset-hard",
            keep="worktree",
            severity="high",
            pattern=r"^git reset\b.* --hard(?: |$)",
            keywords=("--hard",),
            reason="git reset --hard discards all uncommitted changes in the working tree",
            explanation=(
                "Resets the index and the working tree to a commit. Every uncommitted change "
                "to tracked files is lost and git keeps no copy of it; commits moved away from "
                "are only reachable through the reflog."
            ),
            alternative="git stash (recover with git stash pop), or git reset --soft / --mixed",
            blocks=(
                "git reset --hard",
                "git reset --hard HEAD~1",
                "git -C repo --no-pager reset --hard origin/main",
                "cd app && git reset -q --hard",
            ),
            allows=("git reset --soft HEAD~1", "git reset HEAD file.txt", "git reset --mixed"),
        ),
        Rule(
            "reset-merge",
            keep="worktree",
            severity="high",
            pattern=r"^git reset\b.* --merge(?: |$)",
            keywords=("--merge",),
            reason="git reset --merge can discard uncommitted changes in files the reset touches",
            explanation=(
                "Like --hard for every file that differs between the commits, while keeping "
                "unrelated local changes; changes in those files are lost."
            ),
            alternative="git stash first, or git reset --keep, which refuses to lose changes",
            blocks=("git reset --merge", "git reset --merge ORIG_HEAD"),
            allows=("git merge --continue", "git reset --keep HEAD~1"),
        ),
        Rule(
            "checkout-discard",
            keep="worktree",
            severity="high",
            pattern=(
                r"^git checkout\b(?:.* --(?: |$)| \.$| \.{1,2}/"
                r"|.* --pathspec-from-file(?:[= ]|$)|.* --answered-patch(?: |$))"
            ),
            keywords=("checkout",),
            reason="git checkout -- <paths> overwrites local changes in those paths",
            explanation=(
                "Checking out paths (with `--`, optionally from a commit, or the whole tree "
                "with `.`) replaces the working-tree files with the index or commit version. "
                "Uncommitted edits to those files are gone."
            ),
            alternative="git stash push -- <paths>, or git diff > backup.patch first",
            blocks=(
                "git checkout -- src/app.py",
                "git checkout HEAD -- .",
                "git checkout main -- config.yml",
                "git checkout .",
                "git checkout ./src",
                "git checkout --pathspec-from-file=list",
                "echo src | git checkout --pathspec-from-file=-",
                "yes | git checkout -p",
                "git checkout --patch <<< y",
            ),
            allows=(
                "git checkout main",
                "git checkout -b feature",
                "git checkout -",
                "git checkout -p",
            ),
        ),
        Rule(
            "checkout-force",
            keep="worktree",
            severity="high",
            pattern=rf"^git checkout\b.* (?:--force|{_F})(?: |$)",
            keywords=("checkout",),
            reason="git checkout -f switches branches by throwing away local changes",
            explanation="Forced checkout discards uncommitted changes that would block the switch.",
            alternative="git stash, then git checkout <branch>",
            blocks=("git checkout -f main", "git checkout --force develop"),
            allows=("git checkout feature", "git checkout -b fix-1"),
        ),
        Rule(
            "restore-worktree",
            keep="worktree",
            severity="high",
            pattern=(
                r"^git restore\b(?:(?=.* (?:--worktree|-[a-zA-Z]*W[a-zA-Z]*)(?: |$))"
                r"|(?!.* (?:--staged|-[a-zA-Z]*S[a-zA-Z]*)(?: |$)))"
            ),
            keywords=("restore",),
            reason="git restore <paths> discards uncommitted changes in the working tree",
            explanation=(
                "Without --staged, git restore overwrites working-tree files from the index "
                "(or --source); local edits are lost. --staged alone only unstages."
            ),
            alternative="git stash push -- <paths>; git restore --staged only unstages",
            blocks=(
                "git restore src/main.py",
                "git restore .",
                "git restore --source=HEAD~2 app.js",
                "git restore --staged --worktree file",
                "git restore -SW file",
            ),
            allows=("git restore --staged file.txt", "git restore -S src/"),
        ),
        Rule(
            "apply-reverse",
            keep="worktree",
            severity="high",
            pattern=(
                r"^git apply\b(?=.* --worktree-diff(?: |$))"
                r"(?!.* (?:--check|--stat|--numstat|--summary|--cached)(?: |$))"
            ),
            keywords=("apply",),
            reason="git apply -R of git diff's own output discards the uncommitted changes",
            explanation=(
                "Reversing the patch of the work tree's changes (git diff, git stash show -p, "
                "piped or saved to a file on the same line) puts every changed file back as "
                "it was: the same loss as git checkout -- . (dcg marks such a command "
                "--worktree-diff for this rule)."
            ),
            alternative="git stash, which keeps the changes, or git diff > backup.patch first",
            blocks=(
                "git diff | git apply -R",
                "git diff HEAD | git apply --reverse",
                "git stash show -p | git apply -R",
                "git diff > p.diff; git apply -R p.diff",
            ),
            allows=(
                "git apply -R fix.patch",
                "git apply fix.patch",
                "git diff | git apply -R --check",
                "git diff main feature | git apply -R",
            ),
        ),
        Rule(
            "clean-force",
            keep="worktree",
            severity="high",
            pattern=(
                rf"^git clean\b(?!.* (?:--dry-run|-[a-zA-Z]*n[a-zA-Z]*)(?: |$))"
                rf"(?=.* (?:--force|{_F})(?: |$))"
            ),
            keywords=("clean",),
            reason="git clean -f permanently deletes untracked files",
            explanation=(
                "Untracked files were never committed, so git has no copy: what git clean "
                "removes (with -d whole directories, with -x ignored files too) is gone."
            ),
            alternative="git clean -n to preview, or git stash --include-untracked",
            blocks=("git clean -fd", "git clean -f", "git clean -xdf", "git clean --force -d"),
            allows=("git clean -n", "git clean -fdn", "git clean --dry-run -f"),
        ),
        Rule(
            "push-force",
            keep="none",
            severity="high",
            pattern=(rf"^git push\b.* (?:--force|--mirror|{_F}|\+[^ ]+)(?: |$)"),
            keywords=("push",),
            reason="git push --force overwrites remote history and can destroy others' commits",
            explanation=(
                "A forced push (--force, -f, or a +refspec) replaces the remote branch with the "
                "local one; commits that only existed on the remote are lost for everyone."
            ),
            alternative="git push --force-with-lease, which refuses if the remote moved",
            blocks=(
                "git push --force",
                "git push -f origin main",
                "git push origin +main",
                "git push --mirror backup",
            ),
            allows=(
                "git push origin main",
                "git push --force-with-lease",
                "git push --force-with-lease --force-if-includes origin feat",
            ),
        ),
        Rule(
            "branch-force-delete",
            keep="refs",
            severity="medium",
            pattern=(
                r"^git branch\b(?:(?=.* -[a-zA-Z]*D[a-zA-Z]*(?: |$))"
                r"|(?=.* (?:--delete|-[a-zA-Z]*d[a-zA-Z]*)(?: |$))"
                rf"(?=.* (?:--force|{_F})(?: |$)))"
            ),
            keywords=("branch",),
            reason="git branch -D deletes a branch even if it was never merged",
            explanation=(
                "Unmerged commits on the branch become unreachable; they survive only in the "
                "reflog until it expires."
            ),
            alternative="git branch -d (refuses to delete unmerged branches)",
            blocks=("git branch -D feature", "git branch --delete --force old", "git branch -df x"),
            allows=("git branch -d merged", "git branch -a", "git branch new-feature"),
        ),
        Rule(
            "read-tree-reset",
            keep="worktree",
            severity="high",
            pattern=r"^git read-tree\b(?=.* -u(?: |$))(?=.* --reset(?: |$))",
            keywords=("read-tree",),
            reason="git read-tree -u --reset overwrites the working tree with a tree's contents",
            explanation=(
                "The plumbing under git reset --hard: the index is replaced and, with -u, "
                "working-tree files are rewritten; uncommitted changes to them are lost."
            ),
            alternative="git stash first, or git read-tree without -u (index only)",
            blocks=("git read-tree -u --reset HEAD", "git read-tree --reset -u HEAD~1"),
            allows=("git read-tree HEAD", "git read-tree --reset HEAD"),
        ),
        Rule(
            "update-ref-delete",
            keep="refs",
            severity="high",
            pattern=r"^git update-ref\b.* -d(?: |$)",
            keywords=("update-ref",),
            reason="git update-ref -d deletes a ref (a branch or tag) without any safety check",
            explanation=(
                "Unlike git branch -d, update-ref does not check that the commits are merged; "
                "they survive only in the reflog until it expires."
            ),
            alternative="git branch -d <branch> (refuses unmerged branches)",
            blocks=(
                "git update-ref -d refs/heads/feature",
                "git update-ref --no-deref -d HEAD",
                "git update-ref refs/heads/feature " + "0" * 40,
                "printf 'delete refs/heads/x\\n' > ops && git update-ref --stdin < ops",
            ),
            allows=(
                "git update-ref refs/heads/x HEAD",
                "git show-ref",
                "git update-ref refs/heads/x HEAD " + "0" * 40,
            ),
        ),
        Rule(
            "reflog-expire",
            keep="refs",
            severity="high",
            pattern=(
                r"^git reflog (?:delete\b|expire\b.* --expire(?:-unreachable)?[= ](?:now|all)\b)"
            ),
            keywords=("reflog",),
            reason="git reflog expire --expire=now erases git's last record of lost commits",
            explanation=(
                "Commits dropped by a reset, rebase or branch deletion are only reachable "
                "through the reflog; expiring it now lets the next gc delete them for good."
            ),
            alternative="leave the reflog alone; git reflog show to find a lost commit",
            blocks=(
                "git reflog expire --expire=now --all",
                "git reflog expire --expire-unreachable=now --all",
                "git reflog delete HEAD@{1}",
                "git reflog expire --expire now --all",
            ),
            allows=("git reflog show", "git reflog", "git reflog expire --expire=90.days.ago"),
        ),
        Rule(
            "gc-prune-now",
            keep="none",
            severity="high",
            pattern=(
                r"^git (?:(?:gc|maintenance run)\b.* --prune=(?:now|all)\b"
                r"|prune\b(?!.* (?:--dry-run|-[a-zA-Z]*n[a-zA-Z]*)(?: |$)))"
            ),
            keywords=("gc", "prune", "maintenance"),
            reason="git gc --prune=now / git prune delete unreachable commits immediately",
            explanation=(
                "Lost commits stay recoverable until gc prunes them (two weeks by default); "
                "pruning now deletes every unreachable object, including just-lost work."
            ),
            alternative="git gc (default expiry), or git prune --dry-run to see what would go",
            blocks=(
                "git gc --prune=now",
                "git gc --aggressive --prune=all",
                "git prune",
                "git -c gc.pruneExpire=now maintenance run --task=gc",
                "git -c gc.reflogExpire=now maintenance run",
            ),
            allows=(
                "git gc",
                "git gc --auto",
                "git prune --dry-run",
                "git prune -n",
                "git maintenance run --task=gc",
                "git -c gc.pruneExpire=now maintenance run --task=commit-graph",
            ),
        ),
        Rule(
            "history-rewrite",
            keep="none",
            severity="high",
            pattern=r"^git (?:filter-branch|filter-repo)\b",
            keywords=("filter-branch", "filter-repo"),
            reason="git filter-branch / filter-repo rewrite every commit of the repository",
            explanation=(
                "History is rewritten in place; filter-repo also expires the reflog and "
                "repacks, so the original commits are gone unless a clone exists."
            ),
            alternative="run it in a fresh clone, or back up with git bundle create",
            blocks=(
                "git filter-branch --tree-filter 'rm -f secrets' HEAD",
                "git filter-repo --path secret --invert-paths",
            ),
            allows=("git log --all", "git branch -a"),
        ),
        Rule(
            "push-delete",
            keep="none",
            severity="high",
            pattern=(
                r"^git push\b(?!.* (?:--dry-run|-[a-zA-Z]*n[a-zA-Z]*)(?: |$))"
                r"(?=.* (?:--delete|--prune|-[a-zA-Z]*d[a-zA-Z]*|:[^ ]+)(?: |$))"
            ),
            keywords=("push",),
            reason="git push --delete / :branch / --prune deletes branches on the remote",
            explanation=(
                "The remote branch is removed for everyone; commits only it held are lost "
                "unless someone still has them."
            ),
            alternative="git push --dry-run first, or archive the branch under another name",
            blocks=(
                "git push origin --delete feature",
                "git push origin :feature",
                "git push -d origin old",
                "git push --prune origin refs/heads/*:refs/heads/*",
            ),
            allows=(
                "git push origin main",
                "git push --dry-run --delete origin x",
                "git push -n origin :x",
                "git push origin HEAD:main",
            ),
        ),
        Rule(
            "rm-force",
            keep="worktree",
            severity="high",
            pattern=(
                r"^git rm\b(?!.* (?:--cached|--dry-run|-[a-zA-Z]*n[a-zA-Z]*)(?: |$))"
                rf"(?=.* (?:--force|{_F})(?: |$))"
            ),
            keywords=("rm",),
            reason="git rm -f deletes files even when they have uncommitted changes",
            explanation=(
                "Without -f git rm refuses to remove a file whose working copy differs from "
                "the index; with -f those edits are deleted with the file."
            ),
            alternative="git rm --cached (keeps the file), or commit or stash first",
            blocks=("git rm -f src/app.py", "git rm -rf build", "git rm --force -r docs"),
            allows=("git rm --cached -f secret.env", "git rm file.txt", "git rm -rn build"),
        ),
        Rule(
            "submodule-deinit-force",
            keep="files",
            severity="high",
            pattern=rf"^git submodule deinit\b.* (?:--force|{_F})(?: |$)",
            keywords=("submodule",),
            reason="git submodule deinit -f removes a submodule's working tree with local changes",
            explanation="The submodule's checkout is deleted even when it has uncommitted edits.",
            alternative="commit or stash inside the submodule, then deinit without -f",
            blocks=("git submodule deinit -f lib", "git submodule deinit --force --all"),
            allows=("git submodule deinit lib", "git submodule update --init"),
        ),
        Rule(
            "stash-drop",
            keep="refs",
            severity="medium",
            pattern=r"^git stash drop\b",
            keywords=("stash",),
            reason="git stash drop deletes a stash entry",
            explanation="A dropped stash is only recoverable by hunting for dangling commits.",
            alternative="git stash list and git stash show -p first, or git stash pop",
            blocks=("git stash drop", "git stash drop stash@{1}"),
            allows=("git stash list", "git stash pop", "git stash"),
        ),
        Rule(
            "stash-clear",
            keep="refs",
            severity="high",
            pattern=r"^git stash clear\b",
            keywords=("stash",),
            reason="git stash clear deletes every stash entry",
            explanation="All stashed work is dropped at once and is very hard to recover.",
            alternative="git stash drop a single entry after reviewing git stash list",
            blocks=("git stash clear",),
            allows=("git stash show -p", "git stash apply"),
        ),
        Rule(
            "switch-discard",
            keep="worktree",
            severity="high",
            pattern=rf"^git switch\b.* (?:--discard-changes|--force|{_F})(?: |$)",
            keywords=("switch",),
            reason="git switch --discard-changes / -f throws away local changes",
            explanation="Forcing the switch discards uncommitted changes that would block it.",
            alternative="git stash, then git switch <branch>",
            blocks=("git switch --discard-changes main", "git switch -f develop"),
            allows=("git switch main", "git switch -c feature"),
        ),
        Rule(
            "worktree-remove-force",
            keep="files",
            severity="high",
            pattern=rf"^git worktree remove\b.* (?:--force|{_F})(?: |$)",
            keywords=("worktree",),
            reason="git worktree remove --force deletes a worktree with uncommitted changes",
            explanation="The worktree directory is deleted with its untracked and modified files.",
            alternative="commit or stash in the worktree, then git worktree remove without --force",
            blocks=("git worktree remove --force ../wt", "git worktree remove -f feature-wt"),
            allows=("git worktree list", "git worktree remove ../clean-wt"),
        ),
        *RULES,
    ),
)
