"""Extraction into a directory as wide as HOME: what the archive holds decides.

``cd ~ && tar xf evil.tar`` writes ``~/.claude/settings.json`` when the archive holds it.
A write into HOME or ``/`` is not taken for a write of dcg's files (``cp -r dist ~/``), so
for an extraction there the archive is read (its member names only, bounded); one that
cannot be read, or that the same line creates, counts as reaching them.
"""

from __future__ import annotations

from dcg import oslite as os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from io import BufferedIOBase
    from typing import BinaryIO

MAX_BYTES = 16 << 20  # the archive file
MAX_UNPACKED = 16 << 20  # what a compressed tar is read through, decompressed
MAX_MEMBERS = 20_000


def members(path: str) -> list[str] | None:
    """The member names of a tar or zip archive; None when it cannot be read whole
    (too large, too many members, not an archive dcg reads, unreadable)."""
    from _stat import S_ISREG

    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    if not S_ISREG(st.st_mode) or st.st_size > MAX_BYTES:
        return None
    try:
        import zipfile

        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as z:
                names = z.namelist()
            return names if len(names) <= MAX_MEMBERS else None
        return _tar_names(path)
    except Exception:  # a damaged or foreign archive, or past a bound: not read
        return None


class _Capped:
    """A file read through (decompressed) at most ``limit`` bytes: a compression bomb is
    not unpacked to find out what it holds."""

    def __init__(self, f: BufferedIOBase, limit: int) -> None:
        self.f = f
        self.left = limit

    def read(self, n: int = -1) -> bytes:
        data = self.f.read(n if n >= 0 else self.left + 1)
        self.left -= len(data)
        if self.left < 0:
            raise OSError("archive larger than dcg reads")
        return data


def _tar_names(path: str) -> list[str] | None:
    import tarfile

    with open(path, "rb") as raw:
        magic = raw.read(6)
    opener = _opener(magic)
    if opener is None:
        return None
    found: list[str] = []
    with opener(path) as f:
        capped: BinaryIO = _Capped(f, MAX_UNPACKED)  # type: ignore[assignment]
        with tarfile.open(fileobj=capped, mode="r|") as t:
            for member in t:
                found.append(member.name)
                if len(found) > MAX_MEMBERS:
                    return None
    return found


def _opener(magic: bytes) -> Callable[[str], BufferedIOBase] | None:
    """How to read a tar by its first bytes: plain, gzip, bzip2 or xz (others: not read)."""
    if magic.startswith(b"\x1f\x8b"):
        import gzip

        return lambda p: gzip.open(p, "rb")
    if magic.startswith(b"BZh"):
        import bz2

        return lambda p: bz2.open(p, "rb")
    if magic.startswith(b"\xfd7zXZ"):
        import lzma

        return lambda p: lzma.open(p, "rb")
    return lambda p: open(p, "rb")


def reach(archive: str, into: str, created: bool, judge: Callable[[str], str | None]) -> str | None:
    """What extracting ``archive`` (absolute) into ``into`` reaches, as ``judge`` sees each
    member's path; "state" when the archive is made on the line or cannot be read."""
    names = members(archive)
    if names is None:
        exists = os.path.exists(archive)
        return "state" if created or exists else None
    for name in names:
        kind = judge(os.path.join(into, name))
        if kind is not None:
            return kind
    return None
