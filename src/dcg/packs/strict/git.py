"""Stricter git rules: history rewrites, reflog and object pruning, remote ref deletion."""

from dcg.model import Pack, Rule

# `git [global options] ` (-C DIR, -c key=value, --git-dir=D, --no-pager, …).
_GIT = r"^git\s(?:-[^\s]*\s(?:[^\s-][^\s]*\s)?)*"

PACK = Pack(
    "strict.git",
    description="Git (strict): rebase, filter-branch/filter-repo, reflog expire, gc --prune=now, "
    "remote branch and tag deletion",
    rules=(
        Rule(
            "filter-branch",
            severity="high",
            pattern=r"(?:" + _GIT + r"filter-(?:branch|repo)\b|^git-filter-repo\b)",
            reason="filter-branch / filter-repo rewrite the whole history of the repository",
            explanation="Every rewritten commit gets a new id; filter-repo also removes the "
            "origin remote and expires the reflog, so the old history is gone locally. "
            "Pushing the result forces every collaborator to re-clone or rebase.",
            alternative="Run it on a fresh mirror clone (git clone --mirror) and coordinate "
            "the forced push with the team.",
            blocks=(
                "git filter-branch --tree-filter 'rm -f secrets.txt' HEAD",
                "git filter-repo --path secrets/ --invert-paths",
                "git -C repo filter-repo --replace-text expressions.txt",
            ),
            allows=("git log --all -- secrets.txt", "git clone --mirror git@github.com:o/r.git"),
        ),
        Rule(
            "reflog-expire",
            keep="refs",
            severity="high",
            pattern=_GIT + r"reflog\s(?:expire|delete)\b",
            reason="git reflog expire / delete removes the record of where branches were",
            explanation="The reflog is what recovers commits lost by a reset, rebase or "
            "branch deletion; expiring it (especially --expire=now --all) makes those commits "
            "unreachable and the next gc deletes them.",
            alternative="Leave the reflog to expire on its own (90 days by default).",
            blocks=("git reflog expire --expire=now --all", "git reflog delete HEAD@{2}"),
            allows=("git reflog", "git reflog show main"),
        ),
        Rule(
            "prune-now",
            severity="high",
            pattern=_GIT + r"(?:gc\s(?:.*\s)?--prune(?:=|\s)(?:now|all)\b"
            r"|prune\b(?!.*\s(?:-n|--dry-run)(?:\s|$)))",
            reason="git gc --prune=now / git prune delete unreachable objects immediately",
            explanation="Commits only reachable from the reflog, a dropped stash or a deleted "
            "branch are removed at once instead of after the two-week grace period.",
            alternative="Run plain git gc (it keeps recent unreachable objects), or git prune "
            "--dry-run to see what would go.",
            blocks=("git gc --prune=now", "git gc --aggressive --prune=all", "git prune"),
            allows=("git gc", "git prune --dry-run"),
        ),
        Rule(
            "push-delete",
            severity="high",
            pattern=_GIT
            + r"push\s(?:.*\s)?(?:--delete|-d|--prune|-[a-zA-Z]*d[a-zA-Z]*)(?:\s|$)|"
            + _GIT
            + r"push\s(?:.*\s)?\+?:[^\s]",
            reason="git push --delete / push origin :branch deletes a branch or tag on the remote",
            explanation="The remote ref disappears for everyone; open pull requests on the "
            "branch are closed and CI or deployments that track it stop. With --prune every "
            "remote branch missing locally is deleted.",
            alternative="Delete merged branches through the hosting UI, where they can be "
            "restored, and check git ls-remote first.",
            blocks=(
                "git push origin --delete feature/x",
                "git push origin :old-branch",
                "git push origin -d v1.0",
            ),
            allows=("git push origin feature/x", "git ls-remote --heads origin"),
        ),
        Rule(
            "rebase",
            keep="refs",
            severity="medium",
            pattern=_GIT
            + r"rebase\b(?!\s(?:--(?:abort|continue|skip|quit|edit-todo|show-current-patch))\b)",
            reason="git rebase rewrites commits, which breaks branches others have pulled",
            explanation="Rebased commits get new ids; if the branch was pushed, collaborators "
            "have diverged histories and a force push is needed to publish it.",
            alternative="Merge instead, or rebase only commits that were never pushed.",
            blocks=(
                "git rebase main",
                "git rebase -i HEAD~5",
                "git -C app rebase --onto main old feature",
            ),
            allows=("git rebase --abort", "git rebase --continue"),
        ),
        Rule(
            "tag-delete",
            keep="refs",
            severity="medium",
            pattern=_GIT + r"tag\s(?:.*\s)?(?:-d|--delete)(?:\s|$)",
            reason="git tag -d deletes a tag that may mark a published release",
            explanation="Deleting a tag that was pushed makes local and remote disagree; "
            "builds and changelogs that reference it break once it is removed remotely too.",
            alternative="Keep release tags; create a new tag for a corrected release.",
            blocks=("git tag -d v1.0.0", "git tag --delete v2.0.0-rc1"),
            allows=("git tag -l", "git tag v1.0.1"),
        ),
        Rule(
            "push-force-with-lease",
            severity="medium",
            pattern=_GIT + r"push\s(?:.*\s)?--force-(?:with-lease|if-includes)\b",
            reason="git push --force-with-lease still replaces the remote history",
            explanation="The lease only protects against commits you have not fetched; "
            "collaborators who pulled the old history must still rebase or reset.",
            alternative="Push a new branch, or merge instead of rewriting.",
            blocks=(
                "git push --force-with-lease",
                "git push origin main --force-with-lease=main:abc123",
            ),
            allows=("git push origin main", "git fetch origin"),
        ),
        Rule(
            "update-ref-delete",
            keep="refs",
            severity="medium",
            pattern=_GIT + r"update-ref\s(?:.*\s)?-d(?:\s|$)",
            reason="git update-ref -d deletes a ref without safety checks",
            explanation="Branches, tags or other refs removed this way bypass the checks of "
            "git branch -d; commits only they referenced survive only in the reflog.",
            alternative="Use git branch -d / git tag -d, which check for unmerged work.",
            blocks=(
                "git update-ref -d refs/heads/old",
                "git update-ref -d refs/original/refs/heads/main",
            ),
            allows=("git update-ref refs/heads/new HEAD", "git show-ref"),
        ),
    ),
)
