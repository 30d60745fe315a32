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

from dcg import jsonfast, paths
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
    snapshot: str | None = None,
) -> None:
    """Append one history record (one write; safe against concurrent hooks).

    ``command`` is the command text as people read it (already redacted and truncated,
    see :mod:`dcg.redact`); it goes last, after every field the counting searches for.
    ``project`` is the repository root the command ran in (see
    :func:`dcg.paths.project_root`). ``snapshot`` is the id of what the safety net
    kept before the command ran (``dcg undo ID``).
    """
    rec: dict[str, object] = {"schema_version": SCHEMA_VERSION, "timestamp": clock.iso(now)}
    mono = clock.since_boot(now)
    if mono is not None:
        rec["boot"], rec["up"] = mono
    rec.update({
        "rule_id": rule_id,
        "pack_id": pack_id,
        "severity": severity,
        "response_level": response_level,
        "session_id": session_id,
        "cwd": cwd,
        "command_hash": command_hash,
        "allowed": allowed,
    })  # fmt: skip
    if via is not None:
        rec["via"] = via
    rec["id"] = new_id(now)
    if agent:
        rec["agent"] = agent
    if project:
        rec["project"] = project
    rec.update(_origin())
    if snapshot:
        rec["snapshot"] = snapshot
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


_BOOT_KEY = b',"boot":"'
_UP_KEY = b',"up":'
# Enough of a record's start to hold its timestamp, boot id and clock since boot.
HEAD_LEN = 160


class Cut:
    """Where a window starts, by the wall clock and, for records that carry it, by the
    clock since boot (which no change of the wall clock moves).

    A record written in this boot is in the window when its clock since boot is at or
    past the window's start on that clock, whatever its timestamp says: records written
    under a clock days behind (then corrected) still count, and records written under
    a clock ahead stop counting when their real age says so. A record of an earlier boot
    was written before this boot began: outside the window when that was before the
    window's start; otherwise (and for records without the fields) the timestamp decides.
    """

    __slots__ = ("boot", "ts", "up")

    def __init__(self, since: float) -> None:
        self.ts = clock.iso(since).encode()
        mono = clock.since_boot(since)
        self.boot = mono[0].encode() if mono else b""
        self.up = mono[1] if mono else 0.0

    def inside(self, head: bytes) -> bool | None:
        """Whether the record starting ``head`` is in the window (None: cannot tell)."""
        if self.boot:
            i = head.find(_BOOT_KEY)
            end = head.find(b'"', i + 9) if i >= 0 else -1
            if end > 0:
                boot = head[i + 9 : end]
                if boot == self.boot:
                    j = head.find(_UP_KEY, i)
                    k = head.find(b",", j + 6) if j >= 0 else -1
                    try:
                        if k > 0:  # the whole number, never one cut off by the head's end
                            return float(head[j + 6 : k]) >= self.up
                    except ValueError:
                        pass
                elif self.up >= 0:
                    return False  # an earlier boot, and this one began before the window
        ts = _timestamp(head)
        return ts >= self.ts if ts else None

    def holds(self, line: bytes) -> bool | None:
        """Whether a whole record line is in the window (None: it cannot tell)."""
        found = self.inside(line[:HEAD_LEN])
        if found is None and len(line) > HEAD_LEN:
            found = self.inside(line)  # a record whose fields are in another order
        return found


def _cwd_needles(scope: str) -> tuple[bytes, bytes]:
    # The JSON-encoded directory without its closing quote, followed by either the
    # closing quote (the directory itself) or a slash (anything below it).
    enc = jsonfast.dumps(scope.rstrip("/") or "/")[:-1].encode()
    return b'"cwd":' + enc + b'"', b'"cwd":' + enc + b"/"


def _window_start(fd: int, size: int, cut: Cut) -> int:
    """Offset of a line start at or shortly before the first line in the window.

    Binary search over line starts: records are appended in the order they are made
    (concurrent hooks may swap neighbours by a second, which the caller's per-line
    check absorbs), so the file's order is the true order even when timestamps jump.
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
        head = chunk[nl + 1 :] if len(chunk) - nl > HEAD_LEN else os.pread(fd, HEAD_LEN, start)
        if cut.inside(head[:HEAD_LEN]) is False:
            lo = start
        else:
            hi = mid
    return lo


def window(path: str, since: Cut) -> tuple[bytes, bool]:
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
        start = _window_start(fd, size, since)
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
    cut = Cut(since)
    data, whole = window(path, cut)
    needle = b'"rule_id":' + jsonfast.dumps(rule_id).encode() + b","
    total = None
    if whole and data:
        # Estimated from the first line's length: only to notice a file far over its cap.
        total = len(data) // max(data.find(b"\n") + 1, 1)
    # Skip the few leading lines the binary search left before the window; every record
    # after the first one in it was written later, so it is in the window too.
    pos = 0
    while pos < len(data):
        end = data.find(b"\n", pos)
        if cut.holds(data[pos : end + 1]):
            break
        pos = end + 1
    if pos:
        data = data[pos:]
    # A torn line (a record cut short, or garbage) does not end in "}": only when there is
    # one does each match need its line looked at; the fast path below counts needles.
    torn = data.count(b"\n") != data.count(b"}\n")
    if scope is None and pack_id is not None and severity is not None and not torn:
        tail = f'"pack_id":{jsonfast.dumps(pack_id)},"severity":{jsonfast.dumps(severity)},'
        completion = needle + tail.encode() + b'"response_level":"allow"'
        return data.count(needle) - data.count(completion), total
    in_dir, below = _cwd_needles(scope) if scope is not None else (b"", b"")
    n = 0
    i = data.find(needle)
    while i >= 0:
        line = _line_at(data, i)
        if (
            b'"via":' not in line
            and line.endswith(b"}")
            and (scope is None or in_dir in line or below in line)
        ):
            n += 1
        i = data.find(needle, data.find(b"\n", i) + 1)
    return n, total


def salvage(raw: bytes) -> bytes:
    """The record in a line that a torn fragment was glued onto (before appends repaired
    a torn tail, a record written after a cut write was appended to the fragment).

    A record's text cannot hold ``{"schema_version":`` unescaped, so the last one in the
    line starts the record written last. A line without a fragment comes back as it is.
    """
    i = raw.rfind(_HEAD)
    return raw[i:] if i > 0 else raw


def parse_line(raw: bytes) -> dict[str, object] | None:
    """One history line as a record; None for a torn fragment, garbage or a blank line."""
    rec = jsonfast.record(raw, "rule_id")
    glued = salvage(raw) if rec is None else raw
    return jsonfast.record(glued, "rule_id") if glued is not raw else rec


def records(path: str) -> Iterator[dict[str, object]]:
    """Every well-formed record, oldest first (for the human commands; parses JSON).

    A torn fragment is skipped; a record glued onto one is read on its own.
    """
    for raw in files.read_bytes(path).split(b"\n"):
        rec = parse_line(raw)
        if rec is not None:
            yield rec


def prune(path: str, *, now: float, max_age: float, max_entries: int) -> int:
    """Drop records older than ``max_age`` and all but the newest ``max_entries``.

    Torn fragments are dropped too; a record glued onto one is kept on its own line.
    While ``dcg audit ship`` is in use (its cursor names this history; before its first
    run, an ``[audit]`` endpoint in the system config or managed policy), records it has
    not sent yet are kept whatever their age and number, up to :data:`HOLD` times
    ``max_entries`` (the oldest beyond that are dropped, counted in :data:`UNSENT_NAME`
    and said in a note), and so is the last record it sent, which it resumes after.
    Returns the number of lines removed.
    """
    cutoff = clock.iso(now - max_age).encode()
    removed = 0
    anchor = _shipping_anchor(path)
    dropped = 0

    def change(data: bytes) -> bytes | None:
        nonlocal removed, dropped
        lines = [ln for ln in data.split(b"\n") if ln]
        whole = [rec for rec in (salvage(ln) for ln in lines) if rec.endswith(b"}")]
        keep = {i for i, ln in enumerate(whole) if _timestamp(ln) >= cutoff}
        if max_entries >= 0 and len(keep) > max_entries:
            keep = set(sorted(keep)[len(keep) - max_entries :])
        if anchor is not None:
            at = _find_anchor(whole, anchor)
            unsent = len(whole) - at - 1
            bound = HOLD * max(max_entries, 1) if max_entries >= 0 else unsent
            first = len(whole) - min(unsent, bound)
            keep.update(range(first, len(whole)))
            if at >= 0:
                keep.add(at)
            dropped = sum(1 for i in range(at + 1, first) if i not in keep)
        removed = len(lines) - len(keep)
        if (
            not removed
            and len(whole) == len(lines)
            and all(a is b for a, b in zip(whole, lines, strict=True))
        ):
            return None
        return b"".join(whole[i] + b"\n" for i in sorted(keep))

    files.rewrite_appended(path, change)  # no hook waits while a long history is read
    if dropped:
        bound = HOLD * max(max_entries, 1)
        files.note(
            f"dcg: pruned {dropped} history record{'s' if dropped != 1 else ''} dcg audit ship "
            f"had not sent (it keeps at most {bound} unsent); run dcg audit ship more often"
        )
        files.append_line(
            os.path.join(os.path.dirname(path), UNSENT_NAME),
            jsonfast.dumps({"timestamp": clock.iso(now), "dropped": dropped, "bound": bound}),
        )
    return removed


# While shipping is behind, pruning keeps up to HOLD x max_entries records not sent yet.
HOLD = 5
# `dcg audit ship`'s cursor, beside the history (see dcg.commands._audit_cursor).
CURSOR_NAME = "audit-cursor.json"
# Where pruning counts unsent records it had to drop; `dcg audit ship` reports them.
UNSENT_NAME = "audit-unsent-dropped.jsonl"


def _shipping_anchor(path: str) -> str | None:
    """The id of the last record ``dcg audit ship`` sent from ``path``; "" when it ships
    this history but that record cannot be named (everything counts as unsent); None
    when nothing ships it."""
    cursor = os.path.join(os.path.dirname(path), CURSOR_NAME)
    try:
        raw = files.read_bytes(cursor)
    except OSError:
        return ""  # a cursor that is there but unreadable: keep records, do not guess
    if not raw:  # never shipped: hold everything when shipping is set up all the same
        return "" if path == paths.history_file() and shipping_configured() else None
    try:
        doc = jsonfast.loads(raw.decode())
    except (ValueError, UnicodeDecodeError):
        return ""
    if not isinstance(doc, dict):
        return ""
    if doc.get("history") not in (None, path):
        return None  # the cursor of another history file
    return str(doc.get("last_uid") or "")


def shipping_configured() -> bool:
    """Whether the managed policy or the system config names an ``[audit]`` endpoint:
    shipping is set up before its first run has left a cursor."""
    for where in (paths.managed_file(), paths.system_config()):
        try:
            with open(where, "rb") as fh:
                import tomllib  # only when there is a file: the hook may ask this

                doc = tomllib.load(fh)
        except (OSError, ValueError):
            continue
        audit = doc.get("audit")
        if isinstance(audit, dict) and audit.get("endpoint"):
            return True
    return False


def _find_anchor(lines: list[bytes], uid: str) -> int:
    """Index of the line holding the record ``uid`` names, or -1 (all lines unsent)."""
    if not uid:
        return -1
    if uid.startswith("sha256:"):  # a schema-1 record, named by its line's hash
        for i in range(len(lines) - 1, -1, -1):
            if files.sha256_hex(lines[i])[:32] == uid[7:]:
                return i
        return -1
    needle = b'"id":' + jsonfast.dumps(uid).encode()
    for i in range(len(lines) - 1, -1, -1):
        if needle in lines[i]:
            return i
    return -1


def prune_due(
    path: str, stamp: str, *, now: float, max_entries: int, total_lines: int | None
) -> bool:
    """Whether pruning is due: the stamp is older than :data:`PRUNE_EVERY` or the file
    outgrew the cap (a stat or two, so the hook forks its deferred work only when due)."""
    last = files.mtime(stamp)
    oversize = total_lines is not None and total_lines > max_entries * 1.2
    if not oversize and last is not None and now - last < PRUNE_EVERY:
        return False
    if oversize and last is not None and now - last < PRUNE_EVERY and total_lines is not None:
        # Records dcg audit ship has not sent yet are held (see prune): until it ships
        # again or the file passes the hold, pruning again would only re-read the file.
        sent = files.mtime(os.path.join(os.path.dirname(path), CURSOR_NAME))
        held = sent <= last if sent is not None else shipping_configured()
        if held and total_lines <= HOLD * max_entries * 1.2:
            return False
    return True


def maybe_prune(
    path: str,
    stamp: str,
    *,
    now: float,
    max_age: float,
    max_entries: int,
    total_lines: int | None,
) -> None:
    """Prune when :func:`prune_due` says so."""
    if not prune_due(path, stamp, now=now, max_entries=max_entries, total_lines=total_lines):
        return
    files.touch(stamp)
    prune(path, now=now, max_age=max_age, max_entries=max_entries)
