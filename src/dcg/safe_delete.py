"""Whether deletion targets are safe to lose: temp, regenerable build output, or git-ignored.

Called by the core deletion rules' checks, that is only after a pattern matched. Names
are judged on normalised paths; symlinks are resolved first, so a link in /tmp that
points into the project is not temp. Git is asked (bounded, see :mod:`dcg.gitinfo`)
whether the rest is ignored and whether build output holds tracked files; no answer
keeps a target unsafe, and a target that does not exist is judged like one that does.
"""

from __future__ import annotations

import os
import posixpath

from dcg import gitinfo, regenerable
from dcg.targets import home, is_critical, is_temp, project_of

TYPE_CHECKING = False  # typing costs ms at start-up; type checkers treat this as True
if TYPE_CHECKING:
    from collections.abc import Sequence


def _inside(path: str, base: str) -> bool:
    return path.startswith(base.rstrip("/") + "/")


def in_user_cache(path: str) -> bool:
    """Strictly inside one of the user's tool cache directories."""
    h = posixpath.normpath(home())
    for cache in regenerable.HOME_CACHES:
        base = posixpath.join(h, cache)
        if _inside(path, base) or (path == base and cache not in regenerable.SHARED_CACHE_ROOTS):
            return True
    xdg = posixpath.normpath(os.environ.get("XDG_CACHE_HOME") or "/")
    # XDG_CACHE_HOME=/ or =$HOME must not make everything a cache.
    return xdg.startswith("/") and not is_critical(xdg) and _inside(path, xdg)


def _lexically_safe(path: str, cwd: str) -> tuple[bool, str | None]:
    """``(safe, project root)``: temp, user cache, or build output inside the project."""
    if is_temp(path) or in_user_cache(path):
        return True, None
    root = project_of(path, cwd)
    if (
        root is not None
        and path != root
        and regenerable.under_regenerable(posixpath.relpath(path, root))
    ):
        return True, root
    return False, None


def all_safe(paths: Sequence[str], cwd: str) -> bool:
    """Every path may be deleted without losing work (see the module docstring)."""
    regen: dict[str, list[str]] = {}
    rest: list[str] = []
    for path in paths:
        safe, root = _lexically_safe(path, cwd)
        real = os.path.realpath(path)
        if safe and real != path and not _lexically_safe(real, cwd)[0]:
            safe = False  # a symlink out of temp or build output
        if safe:
            if root is not None:
                regen.setdefault(root, []).append(path)
        else:
            rest.append(path)
    ignored_by_root: dict[str, list[str]] = {}
    for path in rest:
        root = gitinfo.work_tree(_existing_parent(path))
        if root is None or is_critical(root) or not _inside(path, root):
            return False
        if os.path.exists(os.path.join(path, ".git")):
            return False  # a repository of its own, with its own uncommitted work
        ignored_by_root.setdefault(root, []).append(path)
    for root, group in ignored_by_root.items():
        hits = gitinfo.ignored(root, group)
        if hits is None or len(hits) != len(group):
            return False
        regen.setdefault(root, []).extend(group)
    # Build output or ignored paths that hold tracked files are not only output.
    for root, group in regen.items():
        in_tree = [p for p in group if _inside(p, root) and gitinfo.work_tree(root) == root]
        if in_tree and gitinfo.tracked_under(root, in_tree):
            return False
    return True


def _existing_parent(path: str) -> str:
    while not os.path.exists(path) and posixpath.dirname(path) != path:
        path = posixpath.dirname(path)
    return path


# find expressions that select only regenerable files or directories.
_TESTS = ("-name", "-iname")
_COMBINE = ("-o", "-or", "!", "-not", ",", "-path", "-wholename", "-regex", "-iregex")


def selects_only_regenerable(argv: Sequence[str]) -> bool:
    """``find … -name '*.pyc' -delete``: every name test is build output, nothing else selects."""
    names = [argv[i + 1] for i, a in enumerate(argv[:-1]) if a in _TESTS]
    if not names or any(a in _COMBINE for a in argv):
        return False
    return all(n in regenerable.FIND_NAMES or regenerable.is_regenerable_name(n) for n in names)
