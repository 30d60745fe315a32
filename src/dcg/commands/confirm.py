"""``dcg confirm CODE``: a person lets one soft-blocked command line through, once.

Only the code shown in the person's own channel approves (decisions.md 10.2, 11.6): with no
code, ``dcg confirm`` (and ``dcg allow-once``) list what is waiting (command, directory,
rules, age) and approve nothing, so a process that gives itself a terminal and types an
answer gets nowhere. Wrong codes are counted (:func:`dcg.state.codes.wrong_attempt`):
after :data:`~dcg.state.codes.MAX_WRONG` within 15 minutes every pending code is withdrawn
and both commands refuse to approve for 15 minutes.
"""

from __future__ import annotations

import contextlib
import sys
import time
from typing import TYPE_CHECKING

from dcg import paths, render
from dcg.errors import DcgError
from dcg.state import codes
from dcg.state.clock import format_duration

if TYPE_CHECKING:
    from typing import TextIO

    from dcg.decision import Response

_FILES = {"confirm": paths.pending_file, "allow-once": paths.allow_once_file}
_OTHER = {"confirm": "allow-once", "allow-once": "confirm"}
_WHAT = {"confirm": "a confirmation code for a soft block", "allow-once": "an allow-once code"}


def require_terminal(action: str, response: Response | None, stdin: TextIO | None = None) -> None:
    """Refuse approvals that do not come from a person at a terminal (decisions.md section 4).

    A second layer only: ``script -c`` gives any process a terminal, so the barrier is the
    code, which only the person saw."""
    from dcg.response import ResponseConfig

    if not ResponseConfig.of(response).confirm_requires_tty:
        return
    stream = stdin if stdin is not None else sys.stdin
    try:
        tty = stream is not None and stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    if not tty:
        raise DcgError(
            f"dcg {action} must be run by a person in a terminal (stdin is not a terminal)"
        )


def listing(
    kind: str, now: float, response: Response | None = None, out: TextIO | None = None
) -> int:
    """Show what waits for ``dcg <kind>``: command, directory, rules and age, never a code,
    and never a code that could no longer approve its command."""
    t_out = out if out is not None else sys.stdout
    pending = [r for r in codes.live_codes(_FILES[kind](), now) if not codes.approved(r)]
    stale = [r for r in pending if outgrown(r, response or {}, now)]
    pending = [r for r in pending if r not in stale]
    left = codes.locked_for(paths.approval_attempts_file(), now)
    if not pending:
        t_out.write(f"Nothing is waiting for dcg {kind}.\n")
    else:
        pending.sort(key=lambda r: str(r.get("created_at", "")))
        t_out.write(f"Waiting for dcg {kind}:\n")
        for rec in pending:
            age = format_duration(max(now - _epoch(rec.get("created_at")), 0.0))
            rules = ", ".join(codes.rules_of(rec))
            t_out.write(f"  {one_line(rec.get('command'))}\n")
            t_out.write(f"    in {render.printable(str(rec.get('cwd')))}  ({rules}, {age} ago)\n")
        t_out.write(
            f"Approve one with the code dcg showed you for it: dcg {kind} CODE\n"
            "(the code is only in your agent's message to you; dcg never lists it)\n"
        )
    for rec in stale:
        t_out.write(
            f"No longer approvable with dcg {kind} (it would now be hard-blocked; re-run it "
            f"for an allow-once code): {one_line(rec.get('command'))}\n"
        )
    if left:
        t_out.write(f"Approvals are locked for {format_duration(left)} after wrong codes.\n")
    return 0


def approve_code(
    kind: str,
    code: str,
    now: float,
    *,
    single_use: bool = True,
    response: Response | None = None,
) -> codes.Record:
    """Approve the code of ``kind`` a person typed, counting wrong codes; a code whose
    command has outgrown its level is retired instead (decisions.md 11.5)."""
    attempts = paths.approval_attempts_file()
    try:
        left = codes.locked_for(attempts, now)
    except OSError as exc:
        raise DcgError(f"cannot read {attempts}: {exc}") from None
    if left:
        raise DcgError(
            f"too many wrong codes: approvals are locked for {format_duration(left)}; "
            "the pending codes were withdrawn, re-run the command afterwards for a new one"
        )
    want = code.strip().lower()
    other = _OTHER[kind]
    if len(want) == 4 and any(
        r.get("short_code") == want for r in codes.live_codes(_FILES[other](), now)
    ):
        raise DcgError(f"{want} is {_WHAT[other]}: use dcg {other} {want}")
    ttl = codes.CONFIRM_TTL if kind == "confirm" else codes.ALLOW_ONCE_TTL
    _refuse_outgrown(kind, want, now, response or {})
    try:
        rec = codes.approve(_FILES[kind](), want, now=now, ttl=ttl, single_use=single_use)
    except codes.CodeError as exc:
        raise DcgError(_wrong(str(exc), now)) from None
    except OSError as exc:
        raise DcgError(f"cannot update {_FILES[kind]()}: {exc}") from None
    # A count that cannot be reset only ever makes approval stricter.
    with contextlib.suppress(OSError):
        codes.reset_attempts(attempts)
    return rec


def _refuse_outgrown(kind: str, want: str, now: float, response: Response) -> None:
    """Retire and refuse a pending code that a re-run could no longer use."""
    path = _FILES[kind]()
    for rec in codes.live_codes(path, now):
        if rec.get("short_code") != want or codes.approved(rec) or not outgrown(rec, response, now):
            continue
        hard = {rule: "hard_block" for rule in codes.rules_of(rec)}
        command, cwd = str(rec.get("command")), str(rec.get("cwd"))
        with contextlib.suppress(OSError):
            codes.retire(path, command=command, cwd=cwd, rules=hard, now=now)
        raise DcgError(
            f"code {want} no longer applies: the command would now be hard-blocked; re-run "
            "it and approve it with dcg allow-once and the code shown with that block"
        )


def outgrown(rec: dict[str, object], response: Response, now: float) -> bool:
    """A code a re-run of its line could no longer use: a rule it names would now be judged
    above the level it was offered at (its session's count, the history window, the mode).
    ``dcg confirm`` neither lists nor approves such a code; the hook refuses it anyway."""
    from dcg.decision import RANK, Counts, judge
    from dcg.packs import load
    from dcg.paths import project_root
    from dcg.response import ResponseConfig
    from dcg.state import history as hist
    from dcg.state import session

    top = RANK[codes.level_of(rec)]
    cwd = str(rec.get("cwd") or "/")
    response = ResponseConfig.of(response)
    scope = project_root(cwd) if response.history_scope == "project" else None
    window = float(response.history_window)
    sid = str(rec.get("session_id") or "")
    doc = session.load(paths.session_dir(), sid, now) if sid else None
    occ = doc.get("occurrences") if doc else None
    ack = doc.get("acknowledged") if doc else None
    for rule_id in codes.rules_of(rec):
        pack_id, _, name = rule_id.partition(":")
        try:
            rule = next(r for r in load(pack_id).rules if r.name == name)
            seen, _ = hist.count(
                paths.history_file(),
                rule_id,
                since=now - window,
                scope=scope,
                pack_id=pack_id,
                severity=rule.severity,
            )
        except (ImportError, KeyError, StopIteration, OSError):
            continue  # a rule dcg no longer has, or state it cannot read: the hook decides
        sess = occ.get(rule_id) if isinstance(occ, dict) else None
        counts = Counts(
            max(sess if isinstance(sess, int) else 0, 1),
            max(seen, 1),
            isinstance(ack, list) and rule_id in ack,
        )
        if RANK[judge(rule_id, rule.severity, counts, response).level] > top:
            return True
    return False


def _wrong(problem: str, now: float) -> str:
    """Count a wrong code; at the limit withdraw every pending code and lock approvals."""
    try:
        locked = codes.wrong_attempt(paths.approval_attempts_file(), now)
    except OSError as exc:
        return f"{problem} (and the wrong code could not be counted: {exc})"
    if not locked:
        return problem
    for where in _FILES.values():
        try:
            codes.withdraw_pending(where(), now)
        except OSError:
            continue
    return (
        f"{problem}; {codes.MAX_WRONG} wrong codes in "
        f"{format_duration(codes.ATTEMPT_WINDOW)}: every pending code is withdrawn and "
        f"approvals are locked for {format_duration(codes.LOCKOUT)}"
    )


def _epoch(iso: object) -> float:
    from dcg.state.clock import parse_iso

    try:
        return parse_iso(str(iso))
    except ValueError:
        return 0.0


def one_line(command: object, limit: int = 160) -> str:
    """A stored command as a person reads it in a list: control characters escaped, cut."""
    one = render.printable(str(command))
    return one if len(one) <= limit else one[: limit - 1] + "…"


def main(
    code: str | None,
    *,
    response: Response | None = None,
    stdin: TextIO | None = None,
    now: float | None = None,
) -> int:
    require_terminal("confirm", response, stdin)
    t = time.time() if now is None else now
    if code is None:
        return listing("confirm", t, response)
    rec = approve_code("confirm", code, t, response=response)
    out = render.console()
    out.print(
        f"Confirmed {_esc(code.strip().lower())}: [bold]{_esc(one_line(rec.get('command')))}[/bold]"
    )
    covered = ", ".join(codes.rules_of(rec))
    out.print(f"  in {_esc(render.printable(str(rec.get('cwd'))))}  ({_esc(covered)})")
    out.print(
        "The agent may now re-run exactly this command in that directory, once, "
        f"within {format_duration(codes.CONFIRM_TTL)}; anything else on the line is "
        "judged as usual."
    )
    return 0


def _esc(value: object) -> str:
    from rich.markup import escape

    return escape(str(value))
