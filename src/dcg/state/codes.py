"""Confirmation and allow-once codes: offered by the hook, approved by a human, redeemed once.

A code is four hex characters for the human; what is stored is the full sha256 it was
cut from, with the exact command's hash, the cwd, the rule and an expiry. The same
record shape serves both files: ``pending_confirmations.jsonl`` (soft blocks,
approved by ``dcg confirm``) and ``allow_once.jsonl`` (hard blocks, approved by
``dcg allow-once``). The hook only appends offers and, when an approved code matches,
marks it consumed under the file lock; expired and consumed records are dropped
whenever the file is rewritten.
"""

from __future__ import annotations

from dcg import jsonfast
from dcg import oslite as os
from dcg.state import clock, files

SCHEMA_VERSION = 1
CONFIRM_TTL = 300.0
ALLOW_ONCE_TTL = 86400.0
OFFER_TTL = {"confirm": CONFIRM_TTL, "allow-once": ALLOW_ONCE_TTL}

Record = dict[str, object]


class CodeError(LookupError):
    """A code that cannot be approved (unknown, expired, already used)."""


def command_hash(command: str) -> str:
    return "sha256:" + files.sha256_hex(command.encode())


def _parse_lines(data: bytes) -> list[Record]:
    out: list[Record] = []
    for raw in data.split(b"\n"):
        if not raw.strip():
            continue
        try:
            rec = jsonfast.loads(raw.decode())
        except (ValueError, UnicodeDecodeError):
            continue
        if isinstance(rec, dict) and isinstance(rec.get("short_code"), str):
            out.append(rec)
    return out


def _live(rec: Record, now_iso: str) -> bool:
    exp = rec.get("expires_at")
    return isinstance(exp, str) and exp >= now_iso and rec.get("consumed_at") is None


def _approved(rec: Record) -> bool:
    return rec.get("confirmed_at") is not None or rec.get("activated_at") is not None


def live_codes(path: str, now: float) -> list[Record]:
    """Unexpired, unconsumed records of a codes file."""
    now_iso = clock.iso(now)
    try:
        data = files.read_bytes(path)
    except OSError:
        return []
    return [r for r in _parse_lines(data) if _live(r, now_iso)]


def offer(
    path: str,
    *,
    kind: str,
    now: float,
    rule_id: str,
    cwd: str,
    command: str,
    session_id: str,
    others: tuple[str, ...] = (),
) -> str:
    """Store a new code for this command (or reuse the live unapproved one) and return it.

    ``others`` are the other codes files whose live codes must not collide with this one.
    """
    chash = command_hash(command)
    taken: set[str] = set()
    for p in (path, *others):
        for rec in live_codes(p, now):
            if (
                p == path
                and rec.get("command_hash") == chash
                and rec.get("cwd") == cwd
                and rec.get("rule_id") == rule_id
                and not _approved(rec)
            ):
                return str(rec["short_code"])
            taken.add(str(rec["short_code"]))
    stamp = str(time_ns(now))
    while True:
        # The draft's "<timestamp> | <cwd> | <command>" plus random bytes, so that a
        # code cannot be predicted from what the agent can see.
        digest = files.sha256_hex(f"{stamp} | {cwd} | {command} | {os.urandom(8).hex()}".encode())
        short = digest[-4:]
        if short not in taken:
            break
    new: Record = {
        "schema_version": SCHEMA_VERSION,
        "kind": kind,
        "short_code": short,
        "full_hash": "sha256:" + digest,
        "created_at": clock.iso(now),
        "expires_at": clock.iso(now + OFFER_TTL[kind]),
        "cwd": cwd,
        "command_hash": chash,
        "command": command,
        "rule_id": rule_id,
        "session_id": session_id,
    }
    if kind == "confirm":
        new["confirmed_at"] = None
    else:
        new["activated_at"] = None
        new["single_use"] = False
    new["consumed_at"] = None
    files.append_line(path, jsonfast.dumps(new))
    return short


def time_ns(now: float) -> int:
    return int(now * 1e9)


def _dump(records: list[Record]) -> bytes:
    return b"".join((jsonfast.dumps(r) + "\n").encode() for r in records)


def redeem(path: str, *, command: str, cwd: str, now: float) -> Record | None:
    """An approved, live code for exactly this command in this cwd, consumed if single use.

    The file is only parsed when the command's hash occurs in it, and only locked when
    an approved record matches.
    """
    chash = command_hash(command)
    try:
        data = files.read_bytes(path)
    except OSError:
        return None
    if chash.encode() not in data:
        return None
    now_iso = clock.iso(now)

    def fits(rec: Record) -> bool:
        return (
            rec.get("command_hash") == chash
            and rec.get("cwd") == cwd
            and _approved(rec)
            and _live(rec, now_iso)
        )

    if not any(fits(r) for r in _parse_lines(data)):
        return None
    found: list[Record] = []

    def change(current: bytes) -> bytes | None:
        recs = _parse_lines(current)
        hit = next((r for r in recs if fits(r)), None)
        if hit is None:
            return None
        found.append(dict(hit))
        if hit.get("kind") == "confirm" or hit.get("single_use"):
            hit["consumed_at"] = now_iso
            return _dump([r for r in recs if _live(r, now_iso)])
        return None

    files.rewrite(path, change)
    return found[0] if found else None


def approve(path: str, code: str, *, now: float, ttl: float, single_use: bool = True) -> Record:
    """Mark a live code approved by a human; it stays valid for ``ttl`` seconds from now."""
    want = code.strip().lower()
    now_iso = clock.iso(now)
    result: list[Record] = []
    problem: list[str] = []

    def change(current: bytes) -> bytes | None:
        recs = _parse_lines(current)
        matches = [r for r in recs if r.get("short_code") == want]
        live = [r for r in matches if _live(r, now_iso)]
        if not live:
            if any(r.get("consumed_at") is not None for r in matches):
                problem.append(f"code {want} was already used")
            elif matches:
                problem.append(f"code {want} has expired; re-run the command for a new one")
            else:
                problem.append(f"no pending code {want} (codes expire; re-run the command)")
            return None
        rec = live[-1]
        if _approved(rec):
            problem.append(f"code {want} is already approved")
            return None
        if rec.get("kind") == "confirm":
            rec["confirmed_at"] = now_iso
        else:
            rec["activated_at"] = now_iso
            rec["single_use"] = single_use
        rec["expires_at"] = clock.iso(now + ttl)
        result.append(dict(rec))
        return _dump([r for r in recs if _live(r, now_iso)])

    files.rewrite(path, change)
    if problem:
        raise CodeError(problem[0])
    return result[0]


def prune(path: str, now: float) -> None:
    """Drop expired and consumed records."""
    now_iso = clock.iso(now)

    def change(current: bytes) -> bytes | None:
        recs = _parse_lines(current)
        keep = [r for r in recs if _live(r, now_iso)]
        if len(keep) == len([ln for ln in current.split(b"\n") if ln.strip()]):
            return None
        return _dump(keep)

    if os.path.exists(path):
        files.rewrite(path, change)
