"""Which commits a ``git rebase`` leaves on no branch, when the words alone cannot say.

``git rebase --onto 1a2b3c4 HEAD~3``, ``--onto main~3 main``: the commits of the branch
that UPSTREAM holds and NEW does not are not replayed; when no other branch, tag or
remote branch holds them either, only the reflog still does. git itself is asked
(:func:`dcg.gitinfo.git`, bounded and running nothing of the repository's); no answer
is no finding.
"""

from __future__ import annotations


def drops_by_graph(here: str, onto: str, upstream: str, branch: str, current: str) -> bool:
    """Whether ``git rebase --onto ONTO UPSTREAM [BRANCH]`` run in ``here`` (on the branch
    ``current``, "" when detached) drops commits that no other ref holds."""
    if not onto or any(r.startswith("-") for r in (onto, upstream, branch)):
        return False
    from dcg import gitinfo

    tip = branch or "HEAD"
    base = gitinfo.git(here, ["merge-base", upstream, tip])
    if not base or not base.strip():
        return False
    name = branch or current
    others = [f"--exclude={name}"] if name else []  # as --branches names it
    # A NEW computed at run time (``$(git rev-parse …)``) is taken to hold none of them.
    new = [] if "$(…)" in onto or onto.startswith("$") else [onto]
    lost = gitinfo.git(
        here,
        ["rev-list", "-n1", base.strip(), "--not", *new, *others, "--branches", "--tags",
         "--remotes"],
    )  # fmt: skip
    return bool(lost and lost.strip())
