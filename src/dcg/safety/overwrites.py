"""Everyday file writes: which existing files a command deletes or overwrites, and how.

Built on :func:`dcg.writes.targets` (the one table of what a command writes), with the
finer kinds the safety net needs: an append (``>>``, ``tee -a``) destroys nothing; a
rename over a file (``mv``, ``sed -i``, ``git mv -f``) or an unlink (``rm``) leaves the old
content on its inode, so a hard link keeps it; a write in place (``>``, ``cp``, ``tee``,
``dd``, ``truncate``) needs a copy. Cheap first: the target is resolved and stat'ed, and
only a non-empty regular file outside temp directories and build output is taken to git,
which is asked once per repository whether the file holds work it cannot give back
(modified or untracked, and not ignored).
"""

from __future__ import annotations

import stat

from dcg import oslite as os
from dcg.safety import Unkept
from dcg.safety.argv import Task, where

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.shell.command import Command

# Programs whose targets are only unlinked or renamed over (the old inode survives).
_UNLINKERS = frozenset(("rm", "unlink", "mv", "ln", "srm", "trash", "gio", "sed", "gsed", "perl"))
# Programs whose operands are targets() entries but whose content they do not destroy.
_HARMLESS = frozenset(("touch", "chmod", "chown", "chgrp", "chattr", "setfacl", "rmdir"))


def _git_mv(argv: tuple[str, ...]) -> list[str]:
    """``git mv -f SRC… DEST``: the files it renames over, and the sources (so that undo
    puts both back where they were)."""
    ops = [a for a in argv[2:] if not a.startswith("-")]
    if len(ops) < 2 or not any(a in ("-f", "--force") for a in argv[2:]):
        return []
    dest = ops[-1]
    return [f"{dest}/{s.rpartition('/')[2]}" for s in ops[:-1]] + ops


def candidates(command: Command) -> list[tuple[str, bool]]:
    """``(word, link_ok)`` for what ``command`` may delete or overwrite (unresolved words)."""
    from dcg.safety.hint import overwrite_redirect
    from dcg.shell.command import Command as Cmd
    from dcg.writes import INTO, targets

    out = [(t, False) for op, t in command.redirects if overwrite_redirect(op, t)]
    argv = command.argv
    if not argv:
        return out
    name = argv[0]
    if name == "git" and argv[1:2] == ("mv",):
        return out + [(w, True) for w in _git_mv(argv)]
    if name in _HARMLESS or (name == "tee" and any(a in ("-a", "--append") for a in argv[1:])):
        return out
    for word, how in targets(Cmd(argv)):
        if how == INTO and name not in ("curl", "wget"):
            continue  # a directory written into: what is inside is not named
        out.append((word, name in _UNLINKERS))
    return out


def victims(command: Command, cwd: str) -> list[tuple[str, bool]]:
    """Existing non-empty regular files the command would delete or overwrite."""
    from dcg.selfpaths import normalise
    from dcg.targets import is_temp

    found = candidates(command)
    if not found:
        return []
    try:
        here = where(command, cwd)
    except Unkept:
        return []
    out: list[tuple[str, bool]] = []
    for word, link_ok in found:
        path = normalise(word, here)  # ~, $HOME and the other variables dcg knows
        if "$" in path or "`" in path:
            continue
        paths = [path]
        if any(c in path for c in "*?["):  # `rm -f src/old_*.py`: the files it matches
            from dcg.shell.expand import disk_matches

            paths = disk_matches(path)
        for path in paths:
            try:
                st = os.lstat(path)
            except OSError:
                continue
            if not stat.S_ISREG(st.st_mode) or st.st_size == 0 or is_temp(path):
                continue
            out.append((path, link_ok))
    return out


def _lost(paths: list[str]) -> list[str]:
    """The ``paths`` whose content git cannot give back (one git call per repository)."""
    from dcg.gitinfo import work_tree
    from dcg.regenerable import under_regenerable
    from dcg.safe_delete import in_system_cache, in_user_cache

    by_root: dict[str | None, list[str]] = {}
    for p in paths:
        if in_user_cache(p) or in_system_cache(p):  # ~/.cache, /var/lib/apt/lists
            continue
        by_root.setdefault(work_tree(os.path.dirname(p)), []).append(p)
    out: list[str] = []
    for root, group in by_root.items():
        if root is None:
            out += [p for p in group if not under_regenerable(p.lstrip("/"))]
            continue
        rel = [os.path.relpath(p, root) for p in group]
        out += [p for p, r in zip(group, rel, strict=True) if r in _unsafe(root, rel)]
        out = [p for p in out if not under_regenerable(os.path.relpath(p, root))]
    return out


def _unsafe(root: str, rel: list[str]) -> set[str]:
    """The ``rel`` paths git reports modified or untracked (not ignored, not clean)."""
    from dcg.safety.gitrun import Git, GitFailed

    args = ["status", "--porcelain=v1", "-z", "--ignored=matching", "--untracked-files=all",
            "--no-renames", "--", *(":(literal)" + r for r in rel)]  # fmt: skip
    try:
        out = Git(root).text(args)
    except GitFailed:
        return set(rel)  # no answer: keep it, as nothing says git has it
    # A path git does not mention is tracked and unchanged: git can give it back.
    found = {e[3:] for e in out.split("\0") if len(e) >= 4 and e[:2] != "!!"}
    return found.intersection(rel)


def tasks(command: Command, cwd: str) -> list[Task]:
    """File-store tasks for what ``command`` would destroy that git cannot give back."""
    found = victims(command, cwd)
    if not found:
        return []
    lost = set(_lost([p for p, _ in found]))
    linked = [p for p, ok in found if ok and p in lost]
    copied = [p for p, ok in found if not ok and p in lost and p not in linked]
    out = []
    if linked:
        out.append(Task("files", cwd, paths=linked, link_ok=True))
    if copied:
        out.append(Task("files", cwd, paths=copied, link_ok=False))
    return out
