"""The graduated response to a command line: every match judged on its own, state around it.

The hook calls :func:`respond_line` once per matched command line, with every match the
engine found (one per simple command and pack). :func:`judge_line` decides, in order:

1. **Approvals, per match** (decisions.md 11.5). An allowlist entry excuses the match of
   its rule, pack or exact simple command (:mod:`dcg.state.allowlist`); an approved
   confirm or allow-once code for this exact line and cwd excuses the matches of the
   rules it names, as long as each rule's level now is not above the level the code
   was offered at (:mod:`dcg.state.codes`). Nothing excuses the rest of the line.
2. **The rest is judged**: each rule counted once per line in the session and the
   history window (:func:`_count`), then the pure decision (:func:`dcg.decision.judge`).
   The line gets the strictest level; every judged rule is recorded.

**The line's outcome is final right after** :func:`judge_line` **returns**: ``line.level``
(None when every match was excused, else the strictest judged level) and
``line.let_through()`` (the items that run: the judged warnings and the matches an
approval excused, or nothing when the line is blocked) are known there, before anything is
written. A step that acts on what is let through belongs at that point of
:func:`respond_line`: the safety net's keep step (:mod:`dcg.safety.step`) is called
there, once, and may raise the line's judged warnings to soft blocks where what they
destroy cannot be kept (decisions.md 11.2). (The one change after it: a single-use code
that another hook call used up first; its matches are then judged, see
:func:`_use_codes`.)

Then :func:`_use_codes` consumes the single-use codes (only when the line runs) and
:func:`_record` writes: one history record per judged rule and per rule an approval let
through (``via``), an
approval code for a blocked line naming every judged rule and its level, and
rate-limited pruning (:func:`_maintain`). With ``write=False`` (``dcg test``,
``dcg explain``) the same decision is made from what state says now and nothing is
written, consumed or offered. State problems never escape: the decision is made from
whatever could be read, and a one-line note goes to stderr.
"""

from __future__ import annotations

import time

from dcg import approvals, paths
from dcg import oslite as os
from dcg.decision import Counts, Verdict, int_setting, judge
from dcg.hookio import SOFT_BLOCK, WARNING
from dcg.response import ResponseConfig
from dcg.state import codes, deferred, files, session
from dcg.state import history as hist
from dcg.verdicts import Item, Line

TYPE_CHECKING = False  # typing costs ms at start-up; type checkers treat this as True

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from dcg.decision import Response
    from dcg.hookio import HookRequest, Outcome
    from dcg.model import Match
    from dcg.safety.step import Result, Step

DEFAULT_HISTORY: dict[str, object] = {
    "max_age": 30 * 86400,
    "max_entries": 10000,
    "prune_on_startup": True,
}


class _Seen:
    """What the reads found: the counts for the decision, and what the writes need."""

    __slots__ = ("counts", "ident", "total_lines")

    def __init__(
        self, counts: Counts, ident: session.Identity | None, total_lines: int | None
    ) -> None:
        self.counts = counts
        self.ident = ident
        self.total_lines = total_lines


def _scope(request: HookRequest, response: ResponseConfig) -> str | None:
    if response.history_scope != "project":
        return None
    return paths.project_root(request.cwd or os.getcwd())


def _count(
    match: Match,
    request: HookRequest,
    response: ResponseConfig,
    now: float,
    *,
    write: bool,
) -> _Seen:
    """Session and history counts including this occurrence (bumping the session if ``write``).

    A count that could not be read is None in the :class:`~dcg.decision.Counts`.
    """
    rule_id = match.rule_id
    window = float(response.history_window)
    history: int | None = None
    sess: int | None = None
    acknowledged = False
    total_lines: int | None = None
    ident: session.Identity | None = None
    try:
        prev, total_lines = hist.count(
            paths.history_file(),
            rule_id,
            since=now - window,
            scope=_scope(request, response),
            pack_id=match.pack.id,
            severity=match.severity,
        )
        history = prev + 1
    except OSError as exc:
        files.note(f"dcg: cannot read history ({exc}); deciding as if this were a repeat")
    if write and history is not None:
        # A count that cannot be kept counts as repeated (decisions.md 10.4): history
        # that can be read but not appended to (read-only, full, a lock held by a stuck
        # process) must not keep every occurrence at its first.
        try:
            files.probe_append(paths.history_file())
        except OSError as exc:
            history = None
            files.note(f"dcg: cannot write history ({exc}); deciding as if this were a repeat")
    try:
        ident = session.identify(request.agent, request.session_id)
        if write:
            sess, acknowledged = session.bump(paths.session_dir(), ident, rule_id, now)
        else:
            prev_s, acknowledged = session.peek(paths.session_dir(), ident, rule_id, now)
            sess = None if prev_s is None else prev_s + 1
    except OSError as exc:
        files.note(f"dcg: session state unavailable ({exc}); deciding as if this were a repeat")
    return _Seen(Counts(sess, history, acknowledged), ident, total_lines)


def _flush(notes: list[str] | None) -> None:
    pending = files.take_notes()
    if notes is not None:
        notes.extend(pending)
    elif pending:
        import sys

        sys.stderr.write("".join(n + "\n" for n in pending))


def respond_line(
    matches: Sequence[Match],
    request: HookRequest,
    response: Response,
    history: Mapping[str, object],
    *,
    write: bool = True,
    now: float | None = None,
    notes: list[str] | None = None,
    keep: Step | None = None,
) -> Line:
    """Decide a matched command line; ``line.outcome`` is the reply (None: it passes silently).

    ``write=False`` decides the same way from what state says now and writes nothing
    (``dcg test``, ``dcg explain``). ``notes`` collects one-line notices about unusable
    state; when None they are written to stderr (with ``write``) or dropped. ``keep`` is
    the safety net's keep step (without ``write`` it only says whether it would stop).
    """
    t = time.time() if now is None else now
    response = ResponseConfig.of(response)
    try:
        line = judge_line(matches, request, response, t, write=write)
        # The line's outcome is final here (see the module docstring).
        kept = _keep(line, keep, write=write)
        if write:
            _use_codes(line, request, response, t)
            snapshot = kept.snapshot if kept is not None else None
            line.code = _record(line, request, response, history, t, snapshot)
        else:
            line.waiting = approvals.waiting(request.command, line.cwd, t)
        line.outcome = _reply(line, request, response, write=write, kept=kept)
        return line
    finally:
        if write or notes is not None:
            _flush(notes)
        else:
            files.take_notes()


def _keep(line: Line, keep: Step | None, *, write: bool) -> Result | None:
    """The safety net on a line that runs: keep what its warnings and approved matches
    destroy; an unkeepable warning becomes a soft block (an approval runs regardless)."""
    if keep is None or not line.runs:
        return None
    warned = [it.match for it in line.judged()]
    approved = [it.match for it in line.excused() if it.via in ("confirm", "allow-once")]
    if not warned and not approved:
        return None  # only the allowlist let it through: the person's standing yes
    via = "warning" if warned else str(line.excused()[0].via)
    result = keep(via, warned, approved) if write else keep.dry(warned)
    if result.unkept and warned:
        for it in line.judged():
            if it.verdict is not None and it.verdict.level == WARNING:
                it.verdict = unkept_verdict(it.verdict)
        line.settle()
    return result


def unkept_verdict(v: Verdict) -> Verdict:
    """``v`` raised to a soft block because what the command destroys could not be kept."""
    return Verdict(
        SOFT_BLOCK,
        "unkept",
        v.mode,
        session=v.session,
        history=v.history,
        session_threshold=v.session_threshold,
        history_threshold=v.history_threshold,
        window=v.window,
    )


def respond(
    match: Match,
    request: HookRequest,
    response: Response,
    history: Mapping[str, object],
    *,
    now: float | None = None,
    notes: list[str] | None = None,
    keep: Step | None = None,
) -> Outcome | None:
    """:func:`respond_line` for a line with one match; None means it passes."""
    line = respond_line([match], request, response, history, now=now, notes=notes, keep=keep)
    return line.outcome


def judge_line(
    matches: Sequence[Match],
    request: HookRequest,
    response: Response,
    now: float,
    *,
    write: bool,
) -> Line:
    """Approvals per match, then every other match judged; nothing but the session
    counts is written (and those only with ``write``)."""
    response = ResponseConfig.of(response)
    line = Line([Item(m) for m in matches], request.cwd or os.getcwd())
    approvals.allowlisted(line.items, response, now, write=write)
    if any(it.via is None for it in line.items):

        def level_now(match: Match) -> str:
            return _level_now(match, request, response, now)

        approvals.approved(line, request.command, now, level_now)
    _judge(line.items, request, response, now, write=write)
    line.settle()
    return line


def _level_now(match: Match, request: HookRequest, response: ResponseConfig, now: float) -> str:
    """The level of the occurrence a re-run completes: the counts as they stand, not one
    more (decisions.md section 1)."""
    c = _count(match, request, response, now, write=False).counts
    prev = Counts(
        None if c.session is None else max(c.session - 1, 1),
        None if c.history is None else max(c.history - 1, 1),
        c.acknowledged,
    )
    return judge(match.rule_id, match.severity, prev, response).level


def _judge(
    items: list[Item],
    request: HookRequest,
    response: ResponseConfig,
    now: float,
    *,
    write: bool,
) -> None:
    """Count and judge every item not excused; a rule is one occurrence per line."""
    first = {it.match.rule_id: it for it in items if it.verdict is not None}
    for it in items:
        if it.via is not None or it.verdict is not None:
            continue
        done = first.get(it.match.rule_id)
        if done is None:
            seen = _count(it.match, request, response, now, write=write)
            it.verdict = judge(it.match.rule_id, it.match.severity, seen.counts, response)
            it.counts, it.total_lines = seen.counts, seen.total_lines
            it.session_id = seen.ident.session_id if seen.ident else ""
            first[it.match.rule_id] = it
        else:
            it.verdict, it.counts = done.verdict, done.counts
            it.total_lines, it.session_id = done.total_lines, done.session_id


def _use_codes(line: Line, request: HookRequest, response: ResponseConfig, now: float) -> None:
    """Consume the single-use codes a line that runs was let through by; a code another
    hook call used first no longer excuses its matches, which are then judged."""
    if not line.runs:
        return
    lost = approvals.use(line, now)
    if not lost:
        return
    for it in line.items:
        if it.approval is not None and str(it.approval.get("full_hash")) in lost:
            it.via, it.approval = None, None
    _judge(line.items, request, response, now, write=True)
    line.settle()


def _record(
    line: Line,
    request: HookRequest,
    response: ResponseConfig,
    history: Mapping[str, object],
    now: float,
    snapshot: str | None = None,
) -> str | None:
    """Write what the decision needs kept: history records (with the safety net's
    ``snapshot``), an approval code (returned) for a blocked line, lenient
    acknowledgements, pruning."""
    cwd, command = line.cwd, request.command
    chash = codes.command_hash(command)
    shown = command_text(command, history)
    project = paths.project_root(cwd)
    sid = ""
    total: int | None = None
    done: set[tuple[str, str]] = set()
    # The judged matches, then (when the line runs) those an approval let through.
    todo: list[tuple[Item, str | None]] = [(it, None) for it in line.judged()]
    todo += [(it, it.via) for it in line.excused()] if line.runs else []
    for it, via in todo:
        key = (it.match.rule_id, "" if via is None else str(via))
        if key in done:
            continue
        done.add(key)
        if via is None:
            assert it.verdict is not None
            sid = it.session_id or sid
            total = it.total_lines if total is None else total
            if it.verdict.level == WARNING and not response.log_warnings:
                continue
            level = it.verdict.level
        else:
            sid = _completed(it, request, now) or sid
            level = "allow"
        where = (sid, cwd, chash, shown, project)
        _history(it.match, request, level, where, now, line.runs, via, snapshot)
    code = None if line.runs else approvals.offer(line, command, sid, now)
    _maintain(history, now, total)
    return code


def _history(
    match: Match,
    request: HookRequest,
    level: str,
    where: tuple[str, str, str, str | None, str],
    now: float,
    allowed: bool,
    via: str | None,
    snapshot: str | None,
) -> None:
    """One history record; ``where`` is (session id, cwd, command hash, command text,
    project)."""
    sid, cwd, chash, shown, project = where
    try:
        hist.record(
            paths.history_file(),
            now=now,
            rule_id=match.rule_id,
            pack_id=match.pack.id,
            severity=match.severity,
            response_level=level,
            session_id=sid,
            cwd=cwd,
            command_hash=chash,
            allowed=allowed,
            via=via,
            command=shown,
            agent=request.agent,
            project=project,
            snapshot=snapshot,
        )
    except OSError as exc:
        files.note(f"dcg: cannot write history ({exc}); decided anyway")


def _completed(it: Item, request: HookRequest, now: float) -> str:
    """A re-run an approval let through completes an earlier occurrence; after a
    confirmation lenient mode warns again for the rest of the session. The session id."""
    try:
        ident = session.identify(request.agent, request.session_id)
        if it.via == "confirm":
            session.acknowledge(paths.session_dir(), ident, it.match.rule_id, now)
        return ident.session_id
    except OSError as exc:
        files.note(f"dcg: session state unavailable ({exc})")
        return ""


def command_text(command: str, history: Mapping[str, object]) -> str | None:
    """The command as a history record keeps it (redacted, one line, cut), or None when
    ``[history] record_commands = false``."""
    if history.get("record_commands") is False:
        return None
    from dcg import redact

    return redact.for_record(command)


def _reply(
    line: Line,
    request: HookRequest,
    response: ResponseConfig,
    *,
    write: bool,
    kept: Result | None = None,
) -> Outcome | None:
    """The reply to the line, led by its strictest judged match; None when all passed."""
    lead = line.lead()
    if lead is None or lead.verdict is None:
        return None
    from dcg.verdicts import Other, outcome

    others = [
        Other(it.match, it.verdict.level if it.verdict else f"allowed ({it.via})")
        for it in line.items
        if it is not lead
    ]
    acknowledged = lead.counts.acknowledged if lead.counts else False
    return outcome(
        lead.match,
        lead.verdict,
        request,
        response,
        acknowledged=acknowledged,
        cwd=line.cwd,
        code=line.code,
        others=others,
        at_risk=write,
        kept=(kept.kept.id, kept.kept.what()) if kept is not None and kept.kept else None,
        unkept=kept.unkept if kept is not None and lead.verdict.cause == "unkept" else "",
    )


def _maintain(history: Mapping[str, object], now: float, total_lines: int | None) -> None:
    """Rate-limited pruning of history, codes and sessions (matches only, never no-match)."""
    if not history.get("prune_on_startup", True):
        return
    max_age = float(str(history.get("max_age") or DEFAULT_HISTORY["max_age"]))
    max_entries = int_setting(history, "max_entries", DEFAULT_HISTORY)
    stamp, path = os.path.join(paths.config_dir(), ".prune-stamp"), paths.history_file()

    def prune() -> None:
        try:
            before = files.mtime(stamp)
            hist.maybe_prune(
                path,
                stamp,
                now=now,
                max_age=max_age,
                max_entries=max_entries,
                total_lines=total_lines,
            )
            if files.mtime(stamp) != before:
                codes.prune(paths.pending_file(), now)
                codes.prune(paths.allow_once_file(), now)
        except OSError as exc:
            files.note(f"dcg: state maintenance failed ({exc})")

    # After the reply, in a detached child, and only when due (a stat spares the fork).
    if hist.prune_due(path, stamp, now=now, max_entries=max_entries, total_lines=total_lines):
        deferred.defer(prune)
    # contextlib.suppress would cost an import on the hook path.
    try:  # noqa: SIM105
        session.maybe_prune(paths.session_dir(), now)
    except OSError:
        pass  # an unusable session directory was already reported by _count
