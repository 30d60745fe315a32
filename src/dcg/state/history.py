"""The cross-session history: one JSONL record per matched command, counted by window.

Records are written by :func:`record` with a fixed key order, so the hook can count a
rule's occurrences in a window by byte search: the rule id appears as
``"rule_id":"<id>",`` and the fixed-width UTC timestamp sits right after
``{"schema_version":N,"timestamp":"``. Reading starts at the end of the file and stops
at the first block older than the window; 10,000 records never get JSON-parsed.

Schema 2 (``docs/json-schema/history-record.v2.json``) adds what an audit pipeline asks
for: a unique ``id`` (a ULID), ``agent``, ``project``, ``host``, ``user`` and ``uid``.
Records of schema 1 are still read and counted; their new fields are simply absent.
Host and user cost no import: ``os.uname()``, the environment and ``os.getuid()``.
"""

from __future__ import annotations

from dcg import jsonfast
from dcg import oslite as os
from dcg.state import clock, files

TYPE_CHECKING = False  # typing costs ms at start-up; type checkers treat this as True

if TYPE_CHECKING:
    from collections.abc import Iterator

SCHEMA_VERSION = 2
# Every schema version so far is one digit, so the timestamp sits at the same offset.
_HEAD = b'{"schema_version":'
_TS_AT = b',"timestamp":"'
_TS_KEY = b'"timestamp":"'
_PROBE = 4096
# Prune at most this often, unless the file has clearly outgrown max_entries.
PRUNE_EVERY = 3600.0


def record(
    path: str,
    *,
    now: float,
    rule_id: str,
    pack_id: str,
    severity: str,
    response_level: str,
    session_id: str,
    cwd: str,
    command_hash: str,
    allowed: bool,
    via: str | None = None,
    command: str | None = None,
    agent: str | None = None,
    project: str | None = None,
) -> None:
    """Append one history record (one write; safe against concurrent hooks).

    ``command`` is the command text as people read it (already redacted and truncated,
    see :mod:`dcg.redact`); it goes last, after every field the counting searches for.
    ``project`` is the repository root the command ran in (see
    :func:`dcg.graduation.project_root`).
    """
    rec: dict[str, object] = {
        "schema_version": SCHEMA_VERSION,
        "timestamp": clock.iso(now),
        "rule_id": rule_id,
        "pack_id": pack_id,
        "severity": severity,
        "response_level": response_level,
        "session_id": session_id,
        "cwd": cwd,
        "command_hash": command_hash,
        "allowed": allowed,
    }
    if via is not None:
        rec["via"] = via
    rec["id"] = new_id(now)
    if agent:
        rec["agent"] = agent
    if project:
        rec["project"] = project
    rec.update(_origin())
    if command is not None:
        rec["command"] = command
    files.append_line(path, jsonfast.dumps(rec))


_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def new_id(now: float) -> str:
    """A ULID: 48 bits of milliseconds and 80 random bits, 26 characters, sortable.

    OpenTelemetry's ``log.record.uid``: a pipeline drops a record it has seen before.
    """
    n = (int(now * 1000) << 80) | int.from_bytes(os.urandom(10), "big")
    return "".join(_CROCKFORD[(n >> (5 * k)) & 31] for k in range(25, -1, -1))


_origins: list[dict[str, object]] = []


def _origin() -> dict[str, object]:
    """``host``, ``user`` and ``uid`` of this process, computed once, with no import.

    ``user`` is ``$USER`` or ``$LOGNAME``; without either it is left out (looking the
    uid up would import ``pwd``): ``dcg audit`` names the account from ``uid`` then.
    """
    if not _origins:
        try:
            host = os.uname().nodename
        except AttributeError:  # pragma: no cover - Windows has no uname
            host = os.environ.get("COMPUTERNAME", "")
        found: dict[str, object] = {"host": host}
        user = os.environ.get("USER") or os.environ.get("LOGNAME")
        if user:
            found["user"] = user
        found["uid"] = os.getuid()
        _origins.append(found)
    return _origins[0]


def _timestamp(line: bytes) -> bytes:
    if line.startswith(_HEAD) and line[19:33] == _TS_AT:
        return line[33:53]
    i = line.find(_TS_KEY)
    return line[i + 13 : i + 33] if i >= 0 else b""


def _cwd_needles(scope: str) -> tuple[bytes, bytes]:
    # The JSON-encoded directory without its closing quote, followed by either the
    # closing quote (the directory itself) or a slash (anything below it).
    enc = jsonfast.dumps(scope.rstrip("/") or "/")[:-1].encode()
    return b'"cwd":' + enc + b'"', b'"cwd":' + enc + b"/"


def _window_start(fd: int, size: int, cutoff: bytes) -> int:
    """Offset of a line start at or shortly before the first line newer than ``cutoff``.

    Binary search over line starts: records are appended in time order (concurrent
    hooks may swap neighbours by a second, which the caller's per-line check absorbs).
    """
    lo, hi = 0, size
    while hi - lo > _PROBE:
        mid = (lo + hi) // 2
        chunk = os.pread(fd, _PROBE, mid)
        nl = chunk.find(b"\n")
        if nl < 0 or mid + nl + 1 >= hi:
            hi = mid
            continue
        start = mid + nl + 1
        head = chunk[nl + 1 :] if len(chunk) - nl > 64 else os.pread(fd, 64, start)
        ts = _timestamp(head)
        if ts and ts < cutoff:
            lo = start
        else:
            hi = mid
    return lo


def window(path: str, since: str) -> tuple[bytes, bool]:
    """The complete lines of the file from about ``since`` to the end.

    Returns the bytes (a few lines older than ``since`` may lead) and whether they
    start at the beginning of the file. A final line still being written is left out.
    """
    try:
        fd = files.open_private(path, os.O_RDONLY)
    except FileNotFoundError:
        return b"", True
    try:
        size = os.fstat(fd).st_size
        start = _window_start(fd, size, since.encode())
        data = os.pread(fd, size - start, start)
    finally:
        os.close(fd)
    return data[: data.rfind(b"\n") + 1], start == 0


def _line_at(data: bytes, i: int) -> bytes:
    return data[data.rfind(b"\n", 0, i) + 1 : data.find(b"\n", i)]


def count(
    path: str,
    rule_id: str,
    *,
    since: float,
    scope: str | None = None,
    pack_id: str | None = None,
    severity: str | None = None,
) -> tuple[int, int | None]:
    """Occurrences of ``rule_id`` since ``since`` (records with ``via`` are not occurrences).

    ``scope`` limits the count to records made in that directory or below it. Returns
    ``(count, estimated_total_lines)``; the estimate is None unless the whole file was
    read. Counting is byte search over the window, never a JSON parse per record;
    ``pack_id`` and ``severity`` (the rule's) make it faster by letting one long needle
    find the completions (``via``) records of this rule.
    """
    cutoff = clock.iso(since).encode()
    data, whole = window(path, clock.iso(since))
    needle = b'"rule_id":' + jsonfast.dumps(rule_id).encode() + b","
    total = None
    if whole and data:
        # Estimated from the first line's length: only to notice a file far over its cap.
        total = len(data) // max(data.find(b"\n") + 1, 1)
    # Skip the few leading lines the binary search left before the window.
    pos = 0
    while pos < len(data):
        end = data.find(b"\n", pos)
        ts = _timestamp(data[pos : end + 1])
        if ts and ts >= cutoff:
            break
        pos = end + 1
    if pos:
        data = data[pos:]
    if scope is None and pack_id is not None and severity is not None:
        tail = f'"pack_id":{jsonfast.dumps(pack_id)},"severity":{jsonfast.dumps(severity)},'
        completion = needle + tail.encode() + b'"response_level":"allow"'
        return data.count(needle) - data.count(completion), total
    in_dir, below = _cwd_needles(scope) if scope is not None else (b"", b"")
    n = 0
    i = data.find(needle)
    while i >= 0:
        line = _line_at(data, i)
        if b'"via":' not in line and (scope is None or in_dir in line or below in line):
            n += 1
        i = data.find(needle, data.find(b"\n", i) + 1)
    return n, total


def records(path: str) -> Iterator[dict[str, object]]:
    """Every well-formed record, oldest first (for the human commands; parses JSON)."""
    for raw in files.read_bytes(path).split(b"\n"):
        if not raw.strip():
            continue
        try:
            rec = jsonfast.loads(raw.decode())
        except (ValueError, UnicodeDecodeError):
            continue
        if isinstance(rec, dict) and isinstance(rec.get("rule_id"), str):
            yield rec


def prune(path: str, *, now: float, max_age: float, max_entries: int) -> int:
    """Drop records older than ``max_age`` and all but the newest ``max_entries``.

    Corrupt lines are dropped too. Returns the number of lines removed.
    """
    cutoff = clock.iso(now - max_age).encode()
    removed = 0

    def change(data: bytes) -> bytes | None:
        nonlocal removed
        lines = [ln for ln in data.split(b"\n") if ln]
        keep = [ln for ln in lines if ln.endswith(b"}") and _timestamp(ln) >= cutoff]
        if max_entries >= 0 and len(keep) > max_entries:
            keep = keep[len(keep) - max_entries :]
        removed = len(lines) - len(keep)
        if not removed:
            return None
        return b"".join(ln + b"\n" for ln in keep)

    files.rewrite(path, change)
    return removed


def maybe_prune(
    path: str,
    stamp: str,
    *,
    now: float,
    max_age: float,
    max_entries: int,
    total_lines: int | None,
) -> None:
    """Prune when the stamp is older than :data:`PRUNE_EVERY` or the file outgrew the cap."""
    last = files.mtime(stamp)
    oversize = total_lines is not None and total_lines > max_entries * 1.2
    if not oversize and last is not None and now - last < PRUNE_EVERY:
        return
    files.touch(stamp)
    prune(path, now=now, max_age=max_age, max_entries=max_entries)
