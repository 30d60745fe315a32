"""Whether applying a patch (reversed, or ``git diff -R`` forward) takes back unkept work.

``git diff > p.diff`` in one call and ``git apply -R p.diff`` or ``patch -R < p.diff`` in
the next discard the uncommitted changes as surely as ``git checkout -- .``. Reversing a
patch loses work when a file it changes holds something git does not: its content differs
from the index entry (an unstaged edit), or it is not in the index at all (an untracked
file the reversal deletes). The index is read as git writes it (versions 2 and 3; a
version 4 index or one dcg cannot read counts as "holds nothing": stricter, never
milder). Read only for ``apply -R`` and ``patch -R`` of a file.
"""

from __future__ import annotations

from dcg import oslite as os

MAX_BYTES = 8 * 1024 * 1024
MAX_PATHS = 256


def _bytes(path: str) -> bytes | None:
    """A regular file's bytes, bounded (None: missing, not a file, or too large)."""
    from _stat import S_ISREG

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except (OSError, ValueError):
        return None
    try:
        if not S_ISREG(os.fstat(fd).st_mode):
            return None
        data = os.read(fd, MAX_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return None if len(data) > MAX_BYTES else data


def index_blobs(git_dir: str) -> dict[str, str] | None:
    """``{path: blob id}`` of the index (None: no index dcg can read)."""
    data = _bytes(os.path.join(git_dir, "index"))
    if data is None or len(data) < 12 or data[:4] != b"DIRC":
        return None
    version = int.from_bytes(data[4:8], "big")
    if version not in (2, 3):
        return None
    count = int.from_bytes(data[8:12], "big")
    out: dict[str, str] = {}
    at = 12
    for _ in range(count):
        if at + 62 > len(data):
            return None
        sha = data[at + 40 : at + 60].hex()
        flags = int.from_bytes(data[at + 60 : at + 62], "big")
        start = at + 62 + (2 if flags & 0x4000 else 0)
        end = data.find(b"\x00", start)
        if end < 0:
            return None
        out[data[start:end].decode("utf-8", "surrogateescape")] = sha
        at += ((end - at) // 8 + 1) * 8  # entries are NUL-padded to a multiple of 8
    return out


def _paths(patch: str) -> list[str]:
    """The work-tree paths a patch names (``diff --git a/x b/x``, ``+++ b/x``, ``+++ x``)."""
    found: list[str] = []
    for line in patch.split("\n")[:50000]:
        if line.startswith("diff --git "):
            found.append(line.rpartition(" b/")[2])
        elif line.startswith("+++ ") and not line.startswith("+++ /dev/null"):
            name = line[4:].split("\t")[0].strip()
            found.append(name[2:] if name.startswith(("a/", "b/")) else name)
    return list(dict.fromkeys(p for p in found if p))[:MAX_PATHS]


def loses_work(patch: str, top: str, git_dir: str) -> bool:
    """Whether reversing ``patch`` in the work tree ``top`` changes a file with uncommitted
    content (an unstaged edit, or a file the index does not have)."""
    if "\n+++ " not in "\n" + patch:
        return False
    import hashlib

    blobs = index_blobs(git_dir)
    for path in _paths(patch):
        data = _bytes(os.path.join(top, path))
        if data is None:
            continue
        if blobs is None or path not in blobs:
            return True  # untracked (or no readable index): the reversal has the only copy
        digest = hashlib.sha1(b"blob %d\x00" % len(data) + data).hexdigest()
        if digest != blobs[path]:
            return True
    return False


def restores_index(patch: str, top: str, git_dir: str) -> bool:
    """Whether applying ``patch`` forward in the work tree ``top`` gives a file with
    unstaged changes its index content back: the patch's ``index OLD..NEW`` line names the
    index's blob as NEW while the file holds something else (``git diff -R``'s output)."""
    import hashlib

    blobs = index_blobs(git_dir)
    if blobs is None:
        return False
    path = ""
    for line in patch.split("\n")[:50000]:
        if line.startswith("diff --git "):
            both = line[11:]  # "a/PATH b/PATH" (b/ first with -R, no prefix with --no-prefix)
            path = both[(len(both) - 1) // 2 + 1 :]
            path = path[2:] if path[:2] in ("a/", "b/") and both[:2] in ("a/", "b/") else path
        elif line.startswith("index ") and ".." in line and path in blobs:
            new = line[6:].split()[0].partition("..")[2]
            if len(new) < 7 or not blobs[path].startswith(new):
                continue
            data = _bytes(os.path.join(top, path))
            if data is None:
                continue
            if hashlib.sha1(b"blob %d\x00" % len(data) + data).hexdigest() != blobs[path]:
                return True
    return False
