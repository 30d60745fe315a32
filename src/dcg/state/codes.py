"""Confirmation and allow-once codes: offered for a line, approved by a person, naming its rules.

A code is four hex characters for the human; what is stored is the full sha256 it was
cut from, with the exact command line's hash, the cwd, an expiry, the **rules** it was
offered for and the **level** it was offered at (``rules`` maps each rule id judged on
the line to its level then; ``level`` is the line's: ``soft_block`` for a confirm code,
``hard_block`` for an allow-once code). The hook excuses a match with an approved code
only when the code names the match's rule and the rule's level now is not above the
code's level (decisions.md 11.5); every other match on the line is judged as usual.

The same record shape serves both files: ``pending_confirmations.jsonl`` (soft blocks,
approved by ``dcg confirm``) and ``allow_once.jsonl`` (hard blocks, approved by
``dcg allow-once``). The hook appends offers, reads approved codes without a lock, and
consumes a single-use code under the file lock only when the line it covers is let
through. A confirm code whose rules reach a hard block is **retired** (it can no longer
be approved or redeemed). Expired, consumed and retired records are dropped whenever the
file is rewritten.

Wrong codes given to ``dcg confirm``/``dcg allow-once`` are counted in
``approval_attempts.json`` (:func:`wrong_attempt`): :data:`MAX_WRONG` within
:data:`ATTEMPT_WINDOW` withdraw every pending code and lock approvals for
:data:`LOCKOUT` seconds, so a four-character code cannot be guessed.
"""

from __future__ import annotations

from dcg import jsonfast
from dcg import oslite as os
from dcg.state import clock, files

SCHEMA_VERSION = 2
CONFIRM_TTL = 300.0
ALLOW_ONCE_TTL = 86400.0
OFFER_TTL = {"confirm": CONFIRM_TTL, "allow-once": ALLOW_ONCE_TTL}
# The level a code of each kind is offered at, and so the highest it can approve.
KIND_LEVEL = {"confirm": "soft_block", "allow-once": "hard_block"}
_RANK = {"warning": 0, "soft_block": 1, "hard_block": 2}
# Wrong codes allowed within the window before approvals lock.
MAX_WRONG = 3
ATTEMPT_WINDOW = 900.0
LOCKOUT = 900.0

Record = dict[str, object]
# A codes file past this size is pruned (expired, used and retired codes dropped, then
# only the newest MAX_LIVE kept) when the next code is offered.
MAX_BYTES = 256 * 1024
MAX_LIVE = 500


class CodeError(LookupError):
    """A code that cannot be approved (unknown, expired, already used, retired)."""


def command_hash(command: str) -> str:
    return "sha256:" + files.sha256_hex(command.encode())


def _parse_lines(data: bytes) -> list[Record]:
    return [r for raw in data.split(b"\n") if (r := jsonfast.record(raw, "short_code"))]


# How far ahead of now a code's own times may be (clocks of processes on one machine).
CLOCK_SLACK = 60.0


def _live(rec: Record, now_iso: str) -> bool:
    exp = rec.get("expires_at")
    return (
        isinstance(exp, str)
        and exp >= now_iso
        and rec.get("consumed_at") is None
        and rec.get("retired_at") is None
        and not _from_the_future(rec, now_iso)
    )


def _from_the_future(rec: Record, now_iso: str) -> bool:
    """A code made or approved under a clock ahead of now: once the clock is corrected
    its expiry would be days away, so it is not live at all (it is never valid longer
    than its TTL from a time that has really passed)."""
    try:
        ahead = clock.iso(clock.parse_iso(now_iso) + CLOCK_SLACK)
    except ValueError:
        return True
    for key in ("created_at", "confirmed_at", "activated_at"):
        value = rec.get(key)
        if isinstance(value, str) and value > ahead:
            return True
    return False


def approved(rec: Record) -> bool:
    return rec.get("confirmed_at") is not None or rec.get("activated_at") is not None


def level_of(rec: Record) -> str:
    """The level a code was offered at: the most it can approve."""
    return KIND_LEVEL.get(str(rec.get("kind")), "soft_block")


def rules_of(rec: Record) -> dict[str, str]:
    """Rule id -> level at the offer; a record of schema 1 names its one ``rule_id``."""
    rules = rec.get("rules")
    if isinstance(rules, dict):
        return {str(k): str(v) for k, v in rules.items()}
    rule = rec.get("rule_id")
    return {str(rule): level_of(rec)} if isinstance(rule, str) else {}


def covers(rec: Record, rule_id: str, level_now: str) -> bool:
    """The code names ``rule_id`` and was offered at ``level_now`` or above."""
    return rule_id in rules_of(rec) and _RANK.get(level_now, 2) <= _RANK[level_of(rec)]


def single_use(rec: Record) -> bool:
    return rec.get("kind") == "confirm" or rec.get("single_use") is True


_EXPIRES = b'"expires_at"'


def _maybe_live(raw: bytes, now: bytes) -> bool:
    """False for a line whose expiry is plainly past (no JSON parse: a file of 50,000
    stale codes costs a byte scan, not 50,000 parses), however the JSON is spaced."""
    i = raw.find(_EXPIRES)
    if i < 0:
        return True
    j = i + len(_EXPIRES)
    while raw[j : j + 1] in (b" ", b":", b"\t"):
        j += 1
    return raw[j : j + 1] != b'"' or raw[j + 1 : j + 21] >= now


def live_codes(path: str, now: float) -> list[Record]:
    """Unexpired, unconsumed, unretired records of a codes file."""
    now_iso = clock.iso(now)
    try:
        data = files.read_bytes(path)
    except OSError:
        return []
    now_b = now_iso.encode()
    kept = b"\n".join(ln for ln in data.split(b"\n") if _maybe_live(ln, now_b))
    return [r for r in _parse_lines(kept) if _live(r, now_iso)]


def offer(
    path: str,
    *,
    kind: str,
    now: float,
    rules: dict[str, str],
    rule_id: str,
    cwd: str,
    command: str,
    session_id: str,
    others: tuple[str, ...] = (),
) -> str:
    """Store a new code for this line (or reuse the live unapproved one) and return it.

    ``rules`` are every rule judged on the line with its level, ``rule_id`` the one the
    texts lead with. ``others`` are the other codes files whose live codes must not
    collide with this one.
    """
    chash = command_hash(command)
    taken: set[str] = set()
    for p in (path, *others):
        for rec in live_codes(p, now):
            if (
                p == path
                and rec.get("command_hash") == chash
                and rec.get("cwd") == cwd
                and rules_of(rec) == rules
                and not approved(rec)
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
        "rules": dict(rules),
        "level": KIND_LEVEL[kind],
        "session_id": session_id,
    }
    if kind == "confirm":
        new["confirmed_at"] = None
    else:
        new["activated_at"] = None
        new["single_use"] = False
    new["consumed_at"] = None
    files.append_line(path, jsonfast.dumps(new))
    try:
        if os.stat(path).st_size > MAX_BYTES:
            prune(path, now)  # stale codes never pile up past the cap
    except OSError:
        pass
    return short


def time_ns(now: float) -> int:
    return int(now * 1e9)


def _dump(records: list[Record]) -> bytes:
    return b"".join((jsonfast.dumps(r) + "\n").encode() for r in records)


def approved_for(path: str, *, command: str, cwd: str, now: float) -> list[Record]:
    """The approved, live codes for exactly this command line in this cwd (read only).

    The file is only parsed when the line's hash occurs in it.
    """
    chash = command_hash(command)
    try:
        data = files.read_bytes(path)
    except OSError:
        return []
    if chash.encode() not in data:
        return []
    now_iso = clock.iso(now)
    return [
        r
        for r in _parse_lines(data)
        if r.get("command_hash") == chash and r.get("cwd") == cwd and approved(r)
        if _live(r, now_iso)
    ]


def consume(path: str, full_hash: str, now: float) -> bool:
    """Use up a single-use approved code under the lock; False when it is no longer live
    (another hook call used it first, or it expired)."""
    now_iso = clock.iso(now)
    used: list[bool] = []

    def change(current: bytes) -> bytes | None:
        recs = _parse_lines(current)
        hit = next((r for r in recs if r.get("full_hash") == full_hash and _live(r, now_iso)), None)
        if hit is None or not approved(hit):
            return None
        used.append(True)
        hit["consumed_at"] = now_iso
        return _dump([r for r in recs if _live(r, now_iso)])

    files.rewrite(path, change)
    return bool(used)


def retire(path: str, *, command: str, cwd: str, rules: dict[str, str], now: float) -> int:
    """Retire the live codes of this line and cwd that name a rule now at a higher level
    than they were offered at; returns how many. A retired code can no longer be
    approved or redeemed (decisions.md 11.5: a code is bound to its level)."""
    chash = command_hash(command)
    now_iso = clock.iso(now)
    count: list[int] = [0]

    def stale(rec: Record) -> bool:
        if rec.get("command_hash") != chash or rec.get("cwd") != cwd or not _live(rec, now_iso):
            return False
        top = _RANK[level_of(rec)]
        return any(_RANK.get(rules.get(r, ""), -1) > top for r in rules_of(rec))

    def change(current: bytes) -> bytes | None:
        recs = _parse_lines(current)
        hits = [r for r in recs if stale(r)]
        if not hits:
            return None
        for rec in hits:
            rec["retired_at"] = now_iso
        count[0] = len(hits)
        return _dump([r for r in recs if _live(r, now_iso) or r in hits])

    try:
        data = files.read_bytes(path)
    except OSError:
        return 0
    if chash.encode() in data:
        files.rewrite(path, change)
    return count[0]


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
            if any(r.get("retired_at") is not None for r in matches):
                problem.append(
                    f"code {want} no longer applies: the command has since been hard-blocked; "
                    "approve it with dcg allow-once and the code shown with that block"
                )
            elif any(r.get("consumed_at") is not None for r in matches):
                problem.append(f"code {want} was already used")
            elif matches:
                problem.append(f"code {want} has expired; re-run the command for a new one")
            else:
                problem.append(f"no pending code {want} (codes expire; re-run the command)")
            return None
        rec = live[-1]
        if approved(rec):
            problem.append(f"code {want} is already approved")
            return None
        if rec.get("kind") == "confirm":
            rec["confirmed_at"] = now_iso
        else:
            rec["activated_at"] = now_iso
            rec["single_use"] = single_use
        rec["expires_at"] = clock.iso(now + ttl)
        result.append(dict(rec))
        return _dump([r for r in recs if _live(r, now_iso) or r.get("retired_at")])

    files.rewrite(path, change)
    if problem:
        raise CodeError(problem[0])
    return result[0]


def withdraw_pending(path: str, now: float) -> int:
    """Retire every live code not yet approved (after too many wrong codes)."""
    now_iso = clock.iso(now)
    count: list[int] = [0]

    def change(current: bytes) -> bytes | None:
        recs = _parse_lines(current)
        hits = [r for r in recs if _live(r, now_iso) and not approved(r)]
        for rec in hits:
            rec["retired_at"] = now_iso
        count[0] = len(hits)
        return _dump([r for r in recs if _live(r, now_iso)]) if hits else None

    if os.path.exists(path):
        files.rewrite(path, change)
    return count[0]


def locked_for(path: str, now: float) -> float:
    """Seconds left before approvals unlock after too many wrong codes (0 when open)."""
    doc = _attempts(files.read_bytes(path) if os.path.exists(path) else b"")
    until = doc.get("locked_until")
    if not isinstance(until, str):
        return 0.0
    try:
        return max(clock.parse_iso(until) - now, 0.0)
    except ValueError:
        return LOCKOUT  # a damaged lock record is read the strict way


def wrong_attempt(path: str, now: float) -> bool:
    """Count a wrong code; True when this one reached :data:`MAX_WRONG` and approvals lock."""
    locked: list[bool] = []

    def change(current: bytes) -> bytes:
        doc = _attempts(current)
        since = clock.iso(now - ATTEMPT_WINDOW)
        seen = doc.get("wrong")
        wrong = (
            [t for t in seen if isinstance(t, str) and t >= since] if isinstance(seen, list) else []
        )
        wrong.append(clock.iso(now))
        out: dict[str, object] = {"schema_version": 1, "wrong": wrong}
        if len(wrong) >= MAX_WRONG:
            out = {"schema_version": 1, "wrong": [], "locked_until": clock.iso(now + LOCKOUT)}
            locked.append(True)
        return jsonfast.dumps(out).encode()

    files.rewrite(path, change)
    return bool(locked)


def reset_attempts(path: str) -> None:
    """Forget the wrong codes counted so far (a person gave the right one)."""
    if os.path.exists(path) and _attempts(files.read_bytes(path)).get("wrong"):
        files.rewrite(path, lambda _: jsonfast.dumps({"schema_version": 1, "wrong": []}).encode())


def _attempts(data: bytes) -> dict[str, object]:
    try:
        doc = jsonfast.loads(data.decode() or "{}")
    except (ValueError, UnicodeDecodeError):
        return {}
    return doc if isinstance(doc, dict) else {}


def prune(path: str, now: float) -> None:
    """Drop expired, consumed and retired records."""
    now_iso = clock.iso(now)

    def change(current: bytes) -> bytes | None:
        recs = _parse_lines(current)
        keep = [r for r in recs if _live(r, now_iso)][-MAX_LIVE:]
        if len(keep) == len([ln for ln in current.split(b"\n") if ln.strip()]):
            return None
        return _dump(keep)

    if os.path.exists(path):
        files.rewrite(path, change)
