"""Which files ``dcg scan`` reads: git's view of the tree when there is one, else a walk.

In a repository git is asked (``git ls-files -co --exclude-standard``), so ``.gitignore``
is respected exactly as git reads it. ``--staged`` reads the index's content and
``--git-diff REV`` the working tree's; both keep only findings on added lines.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator

from dcg.errors import DcgError

# Walked outside a repository: directories that are never anyone's source.
SKIP_DIRS = frozenset({".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__"})
MAX_BYTES = 2 * 1024 * 1024


class Source:
    """One file to scan: its path on disk, its repository-relative name, how to read it."""

    __slots__ = ("_text", "path", "rel", "staged")

    def __init__(self, path: str, rel: str, staged: bool = False) -> None:
        self.path = path
        self.rel = rel
        self.staged = staged
        self._text: str | None = None

    def read(self, root: str | None) -> str | None:
        """The text, or None for a binary, unreadable or oversized file."""
        if not self.staged:
            return self._read(root)
        # The index's copy comes from git: kept after the first read (head, then read).
        if self._text is None:
            self._text = self._read(root)
        return self._text

    def _read(self, root: str | None) -> str | None:
        try:
            if self.staged and root is not None:
                data = _git(root, "show", f":{self.rel}", binary=True)
            else:
                with open(self.path, "rb") as fh:
                    data = fh.read(MAX_BYTES + 1)
        except (OSError, DcgError):
            return None
        if len(data) > MAX_BYTES or b"\0" in data[:8192]:
            return None
        return data.decode("utf-8", "replace")

    def head(self, root: str | None) -> str:
        if self.staged:
            return (self.read(root) or "")[:256]
        try:
            with open(self.path, "rb") as fh:
                return fh.read(256).decode("utf-8", "replace")
        except OSError:
            return ""


def _git(cwd: str, *args: str, binary: bool = False) -> bytes:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except OSError as exc:
        raise DcgError(f"cannot run git: {exc}") from exc
    if done.returncode != 0:
        raise DcgError(f"git {args[0]}: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout


def git_root(path: str) -> str | None:
    """The top of the git work tree holding ``path``, or None."""
    where = path if os.path.isdir(path) else os.path.dirname(path) or "."
    try:
        out = _git(where, "rev-parse", "--show-toplevel")
    except DcgError:
        return None
    return os.path.realpath(out.decode().strip())


def _rel(path: str, root: str | None) -> str:
    base = root if root is not None else os.getcwd()
    rel = os.path.relpath(os.path.realpath(path), base)
    return rel.replace(os.sep, "/")


def listed(paths: list[str], root: str | None) -> Iterator[Source]:
    """Every file under ``paths`` (a file named explicitly is always scanned)."""
    seen: set[str] = set()
    for path in paths or ["."]:
        if not os.path.exists(path):
            raise DcgError(f"{path}: no such file or directory")
        for source in _under(path, root):
            if source.rel not in seen:
                seen.add(source.rel)
                yield source


def _under(path: str, root: str | None) -> Iterator[Source]:
    if os.path.isfile(path):
        yield Source(path, _rel(path, root))
        return
    if root is not None and git_root(path) == root:
        out = _git(path, "ls-files", "-co", "--exclude-standard", "-z", "--", ".")
        for name in sorted(set(out.decode("utf-8", "replace").split("\0"))):
            full = os.path.join(path, name)
            if name and os.path.isfile(full):
                yield Source(full, _rel(full, root))
        return
    for dirpath, dirnames, filenames in os.walk(path):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        for name in sorted(filenames):
            full = os.path.join(dirpath, name)
            if os.path.isfile(full):
                yield Source(full, _rel(full, root))


def changed(
    root: str, rev: str | None, paths: list[str]
) -> tuple[list[Source], dict[str, set[int]]]:
    """Files changed in the index (``rev`` None) or since ``rev``, and their added lines."""
    diff = ["diff", "--no-color", "--no-ext-diff", "-U0", "--diff-filter=ACMR"]
    diff += ["--cached"] if rev is None else [rev]
    scope = [os.path.relpath(os.path.abspath(p), root) for p in paths]
    out = _git(root, "-c", "core.quotepath=off", *diff, "--", *(scope or ["."]))
    text = out.decode("utf-8", "replace")
    added: dict[str, set[int]] = {}
    current: str | None = None
    for line in text.split("\n"):
        if line.startswith("+++ "):
            name = line[4:]
            current = name[2:] if name.startswith("b/") else None
            if current is not None:
                added.setdefault(current, set())
        elif line.startswith("@@") and current is not None:
            plus = line.split(" ")[2]  # "+start,count"
            start, _, count = plus[1:].partition(",")
            n = int(count) if count else 1
            added[current].update(range(int(start), int(start) + n))
    sources = [Source(os.path.join(root, name), name, staged=rev is None) for name in sorted(added)]
    return sources, added
