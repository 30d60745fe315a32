"""Patches named by a pattern: ``git apply -R *.patch``, ``find … -exec git apply -R {} +``.

A patch file ``git apply -R`` or ``patch -R`` takes is judged by what it holds
(:mod:`dcg.shell.gitstream`); when the file is named by a glob, by find's ``{}`` or by
the words a find or ``ls`` feeds xargs, every file the pattern can name is judged: the
files written earlier on the line and those on disk (bounded), so a patch of the work
saved in one step and reversed through a pattern in the next is still seen.
"""

from __future__ import annotations

from dcg import oslite as os
from dcg.findexpr import NAME_TESTS, PATH_TESTS
from dcg.shell import expand
from dcg.shell.state import BASE, CWD

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.shell.state import Vars

MAX_FILES = 64
MAX_ENTRIES = 4000
_SKIP = frozenset((".git", "node_modules", ".venv", "__pycache__"))
# find's tests naming a file (its base name, or its whole path).


def here(env: Vars) -> str | None:
    """The directory the command runs in: a ``cd`` on the line, else the payload's cwd."""
    base, moved = env.get(BASE), env.get(CWD)
    if moved and os.path.isabs(moved):
        return moved
    if moved and base:
        return os.path.join(base, moved)
    return base


def files(names: list[str], env: Vars, cwd: str | None) -> list[str]:
    """``names`` with each glob replaced by the files it matches (on the line, on disk)."""
    out: list[str] = []
    for name in names:
        if not expand.has_glob(name) or cwd is None:
            out.append(name)
            continue
        pattern = os.path.normpath(os.path.join(cwd, name))
        for path in env.state.files:
            full = os.path.normpath(os.path.join(cwd, path))
            if expand.path_match(pattern, full):
                out.append(path)
        out += expand.disk_matches(pattern)[:MAX_FILES]
    return out[:MAX_FILES]


def matches(find: list[str], env: Vars, cwd: str) -> list[str]:
    """Files (relative to ``cwd`` or absolute) find's starting points and -name/-path
    tests can name: written earlier on the line, or on disk (bounded walk)."""
    starts: list[str] = []
    k = 1
    while k < len(find) and find[k][:1] not in ("-", "(", "!"):
        starts.append(find[k])
        k += 1
    names = [find[j + 1] for j in range(k, len(find) - 1) if find[j] in NAME_TESTS]
    paths = [find[j + 1] for j in range(k, len(find) - 1) if find[j] in PATH_TESTS]

    def wanted(path: str) -> bool:
        base = path.rpartition("/")[2]
        return all(expand.match(p.lower(), base.lower()) for p in names) and all(
            expand.match(p, path) for p in paths
        )

    found = [k for k in env.state.files if wanted(k)]
    budget = MAX_ENTRIES
    for start in starts or ["."]:
        stack = [(os.path.join(cwd, start), start)]
        while stack and budget > 0 and len(found) < MAX_FILES:
            real, shown = stack.pop()
            try:
                entries = list(os.scandir(real))
            except OSError:
                continue
            for entry in entries:
                budget -= 1
                name = shown.rstrip("/") + "/" + entry.name
                try:
                    is_dir = entry.is_dir(follow_symlinks=False)
                except OSError:
                    continue
                if is_dir:
                    if entry.name not in _SKIP:
                        stack.append((entry.path, name))
                elif wanted(name):
                    found.append(name)
    return found[:MAX_FILES]
