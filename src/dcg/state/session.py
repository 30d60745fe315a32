"""Per-session occurrence counters in a private per-user directory (decisions.md section 2).

A session is the agent's own session id when the payload has one (hashed for the file
name); otherwise the parent shell: its PID, its terminal and its start time from
``/proc``, so a recycled PID is a new session. A session expires after 24 hours without
activity; a shell session also ends when its shell is gone.
"""

from __future__ import annotations

from dcg import jsonfast
from dcg import oslite as os
from dcg.state import clock, files

TYPE_CHECKING = False  # typing costs ms at start-up; type checkers treat this as True

if TYPE_CHECKING:
    from collections.abc import Callable

SCHEMA_VERSION = 1
EXPIRY = 86400.0
PRUNE_EVERY = 3600.0
_STAMP = ".prune-stamp"


class Identity:
    """Who a session is: its hashed id and what it was derived from."""

    __slots__ = ("agent", "ppid", "proc_start", "session_id", "source", "tty")

    def __init__(
        self,
        session_id: str,
        source: str,
        agent: str | None = None,
        ppid: int | None = None,
        tty: str | None = None,
        proc_start: int | None = None,
    ) -> None:
        self.session_id = session_id
        self.source = source
        self.agent = agent
        self.ppid = ppid
        self.tty = tty
        self.proc_start = proc_start


def _proc_stat(pid: int) -> tuple[int, int] | None:
    """``(tty_nr, starttime)`` of a process from /proc, or None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            raw = fh.read()
    except OSError:
        return None
    fields = raw[raw.rfind(b")") + 2 :].split()
    try:
        return int(fields[4]), int(fields[19])
    except (IndexError, ValueError):
        return None


def _tty() -> str | None:
    for fd in (0, 1, 2):
        try:
            return os.ttyname(fd)
        except OSError:
            continue
    return None


def identify(agent: str, payload_session_id: str | None) -> Identity:
    """The session of this hook call (payload id first, else the parent shell)."""
    if payload_session_id:
        digest = files.sha256_hex(f"agent\0{agent}\0{payload_session_id}".encode())
        return Identity(digest[:32], "agent", agent=agent)
    ppid = os.getppid()
    info = _proc_stat(ppid)
    tty = _tty()
    start = info[1] if info else None
    key = f"shell\0{ppid}\0{tty}\0{start}"
    digest = files.sha256_hex(key.encode())
    return Identity(digest[:32], "shell", ppid=ppid, tty=tty, proc_start=start)


def _path(directory: str, session_id: str) -> str:
    return os.path.join(directory, f"{session_id}.json")


def _fresh(ident: Identity, now: float) -> dict[str, object]:
    return {
        "schema_version": SCHEMA_VERSION,
        "session_id": ident.session_id,
        "source": ident.source,
        "agent": ident.agent,
        "ppid": ident.ppid,
        "tty": ident.tty,
        "proc_start": ident.proc_start,
        "start_ts": clock.iso(now),
        "last_active": clock.iso(now),
        "occurrences": {},
        "acknowledged": [],
    }


# A session file is a few hundred bytes; anything far larger is not one of ours.
MAX_BYTES = 1 << 20


def _parse(data: bytes) -> dict[str, object] | None:
    if len(data) > MAX_BYTES:
        return None
    try:
        doc = jsonfast.loads(data.decode())
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    if not isinstance(doc, dict) or not isinstance(doc.get("occurrences"), dict):
        return None
    occ = doc["occurrences"]
    assert isinstance(occ, dict)
    if any(type(v) is not int or v < 0 for v in occ.values()):
        return None
    if not isinstance(doc.get("acknowledged"), list):
        doc["acknowledged"] = []
    return doc


def _damaged(doc: dict[str, object]) -> bool:
    """The session's counts were lost to a damaged file: they count as repeated for
    the rest of the session (decisions.md 10.4), never as a fresh start."""
    return doc.get("damaged_at") is not None


def _expired(doc: dict[str, object], now: float) -> bool:
    """No activity for :data:`EXPIRY`: by the clock since boot when the session was last
    active in this boot (a wall clock days behind, then corrected, does not end it), by
    the boot when that was earlier and this one began more than :data:`EXPIRY` ago, else
    by the wall clock (see :class:`dcg.state.history.Cut`)."""
    boot, up = doc.get("boot"), doc.get("up")
    if isinstance(boot, str) and type(up) in (int, float):
        mono = clock.since_boot(now - EXPIRY)
        if mono is not None and boot == mono[0]:
            return float(up) < mono[1]  # type: ignore[arg-type]
        if mono is not None and mono[1] >= 0:
            return True
    last = doc.get("last_active")
    try:
        return not isinstance(last, str) or now - clock.parse_iso(last) > EXPIRY
    except ValueError:
        return True


def _update(
    directory: str,
    ident: Identity,
    now: float,
    change: Callable[[dict[str, object]], None],
) -> dict[str, object]:
    files.ensure_dir(directory)
    result: dict[str, object] = {}

    def rewrite(data: bytes) -> bytes:
        doc = _parse(data) if data else None
        if doc is None and data:
            # Replaced atomically below; what it counted is lost, so the session
            # counts as repeated from here on (see _damaged).
            doc = _fresh(ident, now)
            doc["damaged_at"] = clock.iso(now)
            files.note(
                "dcg: the session file was damaged and has been replaced; "
                "deciding as if this were a repeat"
            )
        elif doc is None or _expired(doc, now):
            doc = _fresh(ident, now)
        change(doc)
        doc["last_active"] = clock.iso(now)
        mono = clock.since_boot(now)
        if mono is not None:
            doc["boot"], doc["up"] = mono
        result.update(doc)
        return jsonfast.dumps(doc).encode()

    files.rewrite(_path(directory, ident.session_id), rewrite)
    return result


def bump(directory: str, ident: Identity, rule_id: str, now: float) -> tuple[int | None, bool]:
    """Count one occurrence of ``rule_id``; return ``(session count, acknowledged)``.

    The count is None when the session's counts were lost to a damaged file."""

    def change(doc: dict[str, object]) -> None:
        occ = doc["occurrences"]
        assert isinstance(occ, dict)
        prev = occ.get(rule_id)
        occ[rule_id] = (prev if isinstance(prev, int) else 0) + 1

    doc = _update(directory, ident, now, change)
    occ = doc["occurrences"]
    ack = doc["acknowledged"]
    assert isinstance(occ, dict) and isinstance(ack, list)
    return (None if _damaged(doc) else int(occ[rule_id])), rule_id in ack


def acknowledge(directory: str, ident: Identity, rule_id: str, now: float) -> None:
    """A human confirmed ``rule_id`` in this session (lenient mode warns again after it)."""

    def change(doc: dict[str, object]) -> None:
        ack = doc["acknowledged"]
        assert isinstance(ack, list)
        if rule_id not in ack:
            ack.append(rule_id)

    _update(directory, ident, now, change)


def load(directory: str, session_id: str, now: float) -> dict[str, object] | None:
    """A live session's document, or None (missing, corrupt or expired)."""
    try:
        data = files.read_bytes(_path(directory, session_id))
    except OSError:
        return None
    doc = _parse(data) if data else None
    if doc is None or _expired(doc, now):
        return None
    return doc


def peek(directory: str, ident: Identity, rule_id: str, now: float) -> tuple[int | None, bool]:
    """``(occurrences so far, acknowledged)`` without writing anything; None when the
    session file is damaged (or was, earlier in this session)."""
    try:
        data = files.read_bytes(_path(directory, ident.session_id))
    except OSError:
        data = b""
    if data and _parse(data) is None:
        return None, False
    doc = load(directory, ident.session_id, now)
    if doc is None:
        return 0, False
    if _damaged(doc):
        return None, bool(rule_id in doc["acknowledged"])  # type: ignore[operator]
    occ = doc["occurrences"]
    ack = doc["acknowledged"]
    assert isinstance(occ, dict) and isinstance(ack, list)
    n = occ.get(rule_id, 0)
    return (n if isinstance(n, int) else 0), rule_id in ack


def _alive(doc: dict[str, object]) -> bool:
    if doc.get("source") != "shell":
        return True
    ppid, start = doc.get("ppid"), doc.get("proc_start")
    if not isinstance(ppid, int):
        return True
    info = _proc_stat(ppid)
    return info is not None and (start is None or info[1] == start)


def all_sessions(directory: str, now: float) -> list[dict[str, object]]:
    """Every live session (newest activity first)."""
    out: list[dict[str, object]] = []
    if not os.path.lexists(directory):
        return out
    files.ensure_dir(directory)
    try:
        names = os.listdir(directory)
    except OSError:
        return out
    for name in names:
        if name.endswith(".json"):
            doc = load(directory, name[:-5], now)
            if doc is not None and _alive(doc):
                out.append(doc)
    out.sort(key=lambda d: str(d.get("last_active")), reverse=True)
    return out


def clear(directory: str, session_id: str | None = None) -> int:
    """Delete one session (by id or id prefix) or all; return how many were removed."""
    if not os.path.lexists(directory):
        return 0
    files.ensure_dir(directory)
    removed = 0
    try:
        names = os.listdir(directory)
    except OSError:
        return 0
    for name in names:
        if not name.endswith(".json"):
            continue
        if session_id is not None and not name.startswith(session_id):
            continue
        try:
            os.unlink(os.path.join(directory, name))
            removed += 1
        except OSError:
            pass
    return removed


def prune(directory: str, now: float) -> int:
    """Remove expired sessions and shell sessions whose shell is gone."""
    removed = 0
    try:
        names = os.listdir(directory)
    except OSError:
        return 0
    for name in names:
        path = os.path.join(directory, name)
        if name.endswith(".json"):
            doc = load(directory, name[:-5], now)
            if doc is not None and _alive(doc):
                continue
        elif ".json.tmp." not in name or now - (files.mtime(path) or now) < PRUNE_EVERY:
            # Only leftovers of crashed writers; a fresh temp file may be mid-rename.
            continue
        try:
            os.unlink(path)
            removed += 1
        except OSError:
            pass
    return removed


def maybe_prune(directory: str, now: float) -> None:
    """Prune at most once per :data:`PRUNE_EVERY` (the hook calls this on matches only)."""
    files.ensure_dir(directory)
    stamp = os.path.join(directory, _STAMP)
    last = files.mtime(stamp)
    if last is not None and now - last < PRUNE_EVERY:
        return
    files.touch(stamp)
    prune(directory, now)
