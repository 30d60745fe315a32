"""Where ``dcg audit ship`` got to in the history: a cursor that survives crashes and pruning.

The cursor is the byte offset just past the last record the collector acknowledged,
with a fingerprint of that record (its ``id``, and the SHA-256 of its line) and of the
file (device and inode). It is written atomically (temp file, fsync, rename; 0600) only
after an acknowledgement, so a crash or an outage sends a batch again at worst, never
skips one; the records' ``log.record.uid`` lets the pipeline drop what it saw twice.
When the history was pruned (rewritten without its oldest records) or truncated, the
offset no longer points past that record: :func:`resume` finds the record again by its
id, and when it is gone, everything left is newer and is sent.
"""

from __future__ import annotations

import hashlib
import json
import os

from dcg.state import files

VERSION = 1


class Line:
    """One complete record line of the history and where it ends in the file."""

    __slots__ = ("end", "raw", "record")

    def __init__(self, raw: bytes, end: int, record: dict[str, object] | None) -> None:
        self.raw = raw
        self.end = end
        self.record = record


def lines(data: bytes, start: int = 0) -> list[Line]:
    """The complete lines of ``data`` from ``start``; a final line still being written is left."""
    from dcg.state.history import parse_line

    out: list[Line] = []
    pos = start
    while True:
        nl = data.find(b"\n", pos)
        if nl < 0:
            return out
        raw = data[pos:nl]
        out.append(Line(raw, nl + 1, parse_line(raw)))
        pos = nl + 1


def line_sha(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def record_uid(line: Line) -> str:
    """The record's ``id``; a schema-1 record (which has none) is named by its line's hash."""
    rec = line.record or {}
    found = rec.get("id")
    return str(found) if isinstance(found, str) and found else "sha256:" + line_sha(line.raw)[:32]


def load(path: str) -> dict[str, object] | None:
    """The saved cursor, or None when there is none (or it cannot be read: start over)."""
    raw = files.read_bytes(path)
    if not raw:
        return None
    try:
        doc = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return None
    return doc if isinstance(doc, dict) and doc.get("v") == VERSION else None


def save(path: str, history: str, line: Line, shipped: int, now: float) -> None:
    """Record that everything up to and including ``line`` was acknowledged."""
    try:
        st = os.stat(history)
        dev, ino = st.st_dev, st.st_ino
    except OSError:
        dev = ino = 0
    doc = {
        "v": VERSION,
        "history": history,
        "offset": line.end,
        "dev": dev,
        "inode": ino,
        "last_uid": record_uid(line),
        "last_sha256": line_sha(line.raw),
        "shipped": shipped,
        "updated": now,
    }
    write_atomic(path, (json.dumps(doc, sort_keys=True) + "\n").encode())


def write_atomic(path: str, data: bytes) -> None:
    """Temp file beside ``path`` (0600), fsync, rename over it, fsync the directory."""
    files.ensure_dir(os.path.dirname(path))
    tmp = f"{path}.tmp.{os.getpid()}"
    fd = files.open_private(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        os.unlink(tmp)
        raise
    os.close(fd)
    os.replace(tmp, path)
    dfd = os.open(os.path.dirname(path) or ".", os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def resume(data: bytes, cursor: dict[str, object] | None) -> tuple[int, str | None]:
    """Where to start reading ``data`` (the history now) and, if it moved, a note why."""
    if cursor is None:
        return 0, None
    offset = cursor.get("offset")
    want_sha = cursor.get("last_sha256")
    if isinstance(offset, int) and 0 < offset <= len(data) and data[offset - 1 : offset] == b"\n":
        begin = data.rfind(b"\n", 0, offset - 1) + 1
        if line_sha(data[begin : offset - 1]) == want_sha:
            return offset, None
    uid = str(cursor.get("last_uid") or "")
    for line in lines(data):
        if record_uid(line) == uid:
            return line.end, REWRITTEN
    return 0, GONE


REWRITTEN = "the history was rewritten (pruned); resuming after the last record shipped"
GONE = "the last record shipped is no longer in the history (pruned or truncated); sending all"


class Lock:
    """An exclusive lock beside the cursor: one shipper at a time."""

    def __init__(self, path: str) -> None:
        self.path = path + ".lock"
        self.fd = -1

    def acquire(self) -> bool:
        import fcntl

        files.ensure_dir(os.path.dirname(self.path))
        self.fd = files.open_private(self.path, os.O_WRONLY | os.O_CREAT)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self.fd)
            self.fd = -1
            return False
        return True

    def release(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
