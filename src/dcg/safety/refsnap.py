"""Snapshots of refs a command drops: branch and tag tips, stash entries, reflogs.

What the refs point to is kept alive under ``refs/dcg/<id>/``: commits as parents of
one keeper commit (``refs/dcg/<id>/keep``, an empty tree, chained by a hundred), other
objects (an annotated tag) by a ref each. Reflogs are files rewritten in place, so they
are copied into the store (:mod:`dcg.safety.filestore`).

The item: ``{"kind": "refs", "root", "git_dir", "refs": [{"name", "value"}], "stash":
[{"commit", "message"}] (the entries dropped, newest first), "stash_all" (the whole
stash as it was, so that undo puts entries back where they were), "config": [[key,
value]], "logs": files item or None, "keep": [ref names]}``.
"""

from __future__ import annotations

import os

from dcg.safety import filestore
from dcg.safety.gitrun import Git, GitFailed
from dcg.safety.gitsnap import repo_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from dcg.safety.budget import Budget

_CHUNK = 100


class RefScope:
    """The refs a command drops: full ref names, stash entries (``"all"`` or indexes),
    whether reflogs go, and branches whose config (upstream) goes with them."""

    __slots__ = ("branches", "reflogs", "refs", "stash")

    def __init__(
        self,
        refs: Sequence[str] = (),
        *,
        stash: str | list[int] | None = None,
        reflogs: bool = False,
        branches: Sequence[str] = (),
    ) -> None:
        self.refs = list(refs)
        self.stash = stash
        self.reflogs = reflogs
        self.branches = list(branches)


def current_branch(cwd: str, budget: Budget | None) -> str:
    """The ref HEAD names (``refs/heads/x``), or ``HEAD`` when detached."""
    try:
        return Git(cwd, budget).text(["symbolic-ref", "-q", "HEAD"], ok=(0, 1)).strip() or "HEAD"
    except GitFailed:
        return "HEAD"


def _values(git: Git, names: Sequence[str]) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for name in dict.fromkeys(names):
        try:
            value = git.text(["rev-parse", "-q", "--verify", "--end-of-options", name]).strip()
        except GitFailed:
            continue
        if value:
            out.append({"name": name, "value": value})
    return out


def stash_entries(git: Git) -> list[dict[str, object]]:
    """The stash, newest first: ``{"commit", "message"}``."""
    try:
        out = git.text(["log", "-g", "-z", "--format=%H %gs", "refs/stash", "--"], ok=(0, 128))
    except GitFailed:
        return []
    entries: list[dict[str, object]] = []
    for rec in out.split("\0"):
        sha, _, message = rec.strip("\n").partition(" ")
        if len(sha) >= 40:
            entries.append({"commit": sha, "message": message})
    return entries


def _reflog_shas(logs_dir: str) -> set[str]:
    shas: set[str] = set()
    for here, _, names in os.walk(logs_dir):
        for name in names:
            try:
                with open(os.path.join(here, name), "rb") as f:
                    for line in f:
                        parts = line.split(b" ", 2)
                        if len(parts) >= 2:
                            shas.update(p.decode("ascii", "replace") for p in parts[:2])
            except OSError:
                continue
    return {s for s in shas if len(s) >= 40 and s.strip("0")}


def keep_alive(git: Git, sid: str, shas: Sequence[str]) -> list[str]:
    """Refs under ``refs/dcg/<sid>/`` that keep ``shas`` reachable; missing objects skipped."""
    if not shas:
        return []
    check = git.text(["cat-file", "--batch-check"], data="".join(s + "\n" for s in shas).encode())
    commits, others = [], []
    for line in check.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[1] == "commit":
            commits.append(parts[0])
        elif len(parts) >= 2 and parts[1] != "missing":
            others.append(parts[0])
    refs: list[tuple[str, str]] = [(f"refs/dcg/{sid}/obj-{k}", s) for k, s in enumerate(others)]
    if commits:
        empty = git.text(["mktree"], data=b"").strip()
        keeper = ""
        for i in range(0, len(commits), _CHUNK):
            parents = [*commits[i : i + _CHUNK], *([keeper] if keeper else [])]
            args = ["commit-tree", empty, "-m", f"dcg keeps these commits ({sid})"]
            for p in dict.fromkeys(parents):
                args += ["-p", p]
            keeper = git.text(args).strip()
        refs.append((f"refs/dcg/{sid}/keep", keeper))
    git.run(
        ["update-ref", "--stdin", "-z"],
        data="".join(f"update {name}\0{value}\0\0" for name, value in refs).encode(),
    )
    return [name for name, _ in refs]


def snapshot(
    cwd: str, scope: RefScope, snapdir: str, sid: str, budget: Budget
) -> dict[str, object] | None:
    """Record and keep alive what ``scope`` names; None outside a repository."""
    found = repo_of(cwd, budget)
    if found is None:
        return None
    top, git_dir, _ = found
    git = Git(top, budget)
    refs = _values(Git(cwd, budget), scope.refs)
    stash: list[dict[str, object]] = []
    entries: list[dict[str, object]] = []
    if scope.stash is not None:
        entries = stash_entries(git)
        if isinstance(scope.stash, list):
            stash = [entries[i] for i in scope.stash if 0 <= i < len(entries)]
        else:
            stash = entries
    config = _branch_config(git, scope.branches)
    logs = None
    shas = [str(r["value"]) for r in refs] + [str(s["commit"]) for s in stash]
    logs_dir = os.path.join(git_dir, "logs")
    if scope.reflogs and os.path.isdir(logs_dir):
        logs = filestore.keep(snapdir, [logs_dir], budget, link_ok=False)
        shas += sorted(_reflog_shas(logs_dir))
    if not (refs or stash or config or logs):
        return None
    keep = keep_alive(git, sid, list(dict.fromkeys(shas)))
    return {
        "kind": "refs",
        "root": top,
        "git_dir": git_dir,
        "refs": refs,
        "stash": stash,
        "stash_all": entries if stash else [],
        "config": config,
        "logs": logs,
        "keep": keep,
    }


def _branch_config(git: Git, branches: Sequence[str]) -> list[list[str]]:
    if not branches:
        return []
    try:
        out = git.text(["config", "-z", "--get-regexp", r"^branch\."], ok=(0, 1))
    except GitFailed:
        return []
    prefixes = tuple(f"branch.{b}." for b in branches)
    pairs = []
    for rec in out.split("\0"):
        key, _, value = rec.partition("\n")
        if key.startswith(prefixes):
            pairs.append([key, value])
    return pairs
