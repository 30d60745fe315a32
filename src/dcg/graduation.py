"""The graduated response: state read once, the pure decision, state written once, an Outcome.

The hook calls :func:`respond` once per matched command line. Reads first: the
allowlist and approved allow-once and confirmation codes (either lets the command
pass), then the occurrence is counted in the session and the history window
(:func:`_count`). Then the decision, a pure function of the rule, its severity, the
mode and those counts (:func:`dcg.decision.judge`). Then writes: the history record,
an approval code for a block, rate-limited pruning (:func:`_record`). State problems
never escape: the decision is made from whatever could be read, and a one-line note
goes to stderr. Config arrives as plain dicts (``config.response``,
``config.history``); missing keys take the defaults of the draft's Appendix A.
"""

from __future__ import annotations

import time

from dcg import oslite as os
from dcg import paths, render
from dcg.decision import Counts, Verdict, int_setting, judge, next_level, setting
from dcg.hookio import SOFT_BLOCK, WARNING, Outcome
from dcg.state import allowlist, codes, files, session
from dcg.state import history as hist

TYPE_CHECKING = False  # typing costs ms at start-up; type checkers treat this as True

if TYPE_CHECKING:
    from collections.abc import Mapping

    from dcg.hookio import HookRequest
    from dcg.model import Match

DEFAULT_HISTORY: dict[str, object] = {
    "max_age": 30 * 86400,
    "max_entries": 10000,
    "prune_on_startup": True,
}


def project_root(cwd: str) -> str:
    """The nearest directory at or above ``cwd`` holding ``.git`` or ``.dcg.toml``, else cwd."""
    here = os.path.abspath(cwd)
    while True:
        if os.path.exists(os.path.join(here, ".git")) or os.path.exists(
            os.path.join(here, ".dcg.toml")
        ):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return os.path.abspath(cwd)
        here = parent


class _Seen:
    """What the reads found: the counts for the decision, and what the writes need."""

    __slots__ = ("counts", "ident", "total_lines")

    def __init__(
        self, counts: Counts, ident: session.Identity | None, total_lines: int | None
    ) -> None:
        self.counts = counts
        self.ident = ident
        self.total_lines = total_lines


def _scope(request: HookRequest, response: Mapping[str, object]) -> str | None:
    if setting(response, "history_scope") != "project":
        return None
    return project_root(request.cwd or os.getcwd())


def _count(
    match: Match,
    request: HookRequest,
    response: Mapping[str, object],
    now: float,
    *,
    write: bool,
) -> _Seen:
    """Session and history counts including this occurrence (bumping the session if ``write``).

    A count that could not be read is None in the :class:`~dcg.decision.Counts`.
    """
    rule_id = match.rule_id
    window = float(str(setting(response, "history_window")))
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
    try:
        ident = session.identify(request.agent, request.session_id)
        if write:
            sess, acknowledged = session.bump(paths.session_dir(), ident, rule_id, now)
        else:
            prev_s, acknowledged = session.peek(paths.session_dir(), ident, rule_id, now)
            sess = prev_s + 1
    except OSError as exc:
        files.note(f"dcg: session state unavailable ({exc}); deciding as if this were a repeat")
    return _Seen(Counts(sess, history, acknowledged), ident, total_lines)


def _facts(match: Match, request: HookRequest, v: Verdict) -> render.Facts:
    rule = match.rule
    return render.Facts(
        v.level,
        v.cause,
        v.mode,
        rule_id=match.rule_id,
        pack_id=match.pack.id,
        severity=match.severity,
        command=request.command,
        reason=match.reason,
        explanation=rule.explanation,
        alternative=rule.alternative,
        session_count=v.session,
        session_threshold=v.session_threshold,
        history_count=v.history,
        history_threshold=v.history_threshold,
        window=v.window,
    )


def _outcome(
    match: Match, f: render.Facts, response: Mapping[str, object], *, silent: bool
) -> Outcome:
    ask = f.level == SOFT_BLOCK and setting(response, "soft_block_action") == "ask"
    return Outcome(
        f.level,
        match=match,
        command=f.command,
        fields=render.fields(f),
        model_text=render.model_text(f),
        human_text="" if silent else render.human_text(f),
        summary="" if silent else render.summary(f),
        ask=ask,
    )


def _silent(f: render.Facts, response: Mapping[str, object]) -> bool:
    if f.level != WARNING:
        return False
    if not setting(response, "show_warnings"):
        return True
    # The draft's "suppress repeated warnings": every warning for a rule in a session
    # after its first reaches the model only.
    return bool(setting(response, "quiet_after_threshold")) and f.session_count > 1


def _flush(notes: list[str] | None) -> None:
    pending = files.take_notes()
    if notes is not None:
        notes.extend(pending)
    elif pending:
        import sys

        sys.stderr.write("".join(n + "\n" for n in pending))


def respond(
    match: Match,
    request: HookRequest,
    response: Mapping[str, object],
    history: Mapping[str, object],
    *,
    now: float | None = None,
    notes: list[str] | None = None,
) -> Outcome | None:
    """Decide a matched command; None means it passes (allowlist, allow-once, confirmation).

    ``notes`` collects one-line notices about unusable state; when None they are
    written to stderr.
    """
    try:
        return _respond(match, request, response, history, time.time() if now is None else now)
    finally:
        _flush(notes)


def _respond(
    match: Match,
    request: HookRequest,
    response: Mapping[str, object],
    history: Mapping[str, object],
    now: float,
) -> Outcome | None:
    cwd = request.cwd or os.getcwd()
    # Reads: what lets the command pass, then the counts.
    passed = _passes(match, request, cwd, now, response.get("allowlist_user") is not False)
    if passed is not None:
        via, rule_id = passed
        if via != "allowlist":
            _log_pass(match, request, history, cwd, now, via, rule_id)
        return None
    seen = _count(match, request, response, now, write=True)
    # The decision: pure.
    verdict = judge(match.rule_id, match.severity, seen.counts, response)
    f = _facts(match, request, verdict)
    f.at_risk = _at_risk(match, cwd)
    f.next_level = next_level(match.severity, verdict, response, seen.counts.acknowledged)
    # Writes.
    f.code = _record(match, request, response, history, verdict, seen, cwd, now)
    return _outcome(match, f, response, silent=_silent(f, response))


def _at_risk(match: Match, cwd: str) -> str:
    """What uncommitted work the command reaches, asked of git (bounded; decisions.md 10.7)."""
    from dcg.gitinfo import at_risk

    try:
        return at_risk(match.rule_id, match.command.argv, cwd)
    except Exception:  # naming what is at risk must never cost the decision
        return ""


def _passes(
    match: Match, request: HookRequest, cwd: str, now: float, user_allowlist: bool
) -> tuple[str, str] | None:
    """``(via, rule id)`` when the allowlist or an approved code lets the command pass.

    ``user_allowlist`` is False under a managed policy's ``[allowlist] user = false``.
    """
    rule_id = match.rule_id
    segment = " ".join(match.command.argv)
    try:
        if allowlist.find(rule_id, segment, now, user=user_allowlist) is not None:
            return ("allowlist", rule_id)
    except OSError as exc:
        files.note(f"dcg: cannot read the allowlist ({exc})")
    for via, path in (("allow-once", paths.allow_once_file()), ("confirm", paths.pending_file())):
        try:
            rec = codes.redeem(path, command=request.command, cwd=cwd, now=now)
        except OSError as exc:
            files.note(f"dcg: cannot use approved codes ({exc})")
            rec = None
        if rec is not None:
            return (via, str(rec.get("rule_id") or rule_id))
    return None


def _record(
    match: Match,
    request: HookRequest,
    response: Mapping[str, object],
    history: Mapping[str, object],
    v: Verdict,
    seen: _Seen,
    cwd: str,
    now: float,
) -> str | None:
    """Write what the decision needs kept: history, an approval code (returned), pruning."""
    rule_id = match.rule_id
    sid = seen.ident.session_id if seen.ident else ""
    code: str | None = None
    if v.level != WARNING or setting(response, "log_warnings"):
        try:
            hist.record(
                paths.history_file(),
                now=now,
                rule_id=rule_id,
                pack_id=match.pack.id,
                severity=match.severity,
                response_level=v.level,
                session_id=sid,
                cwd=cwd,
                command_hash=codes.command_hash(request.command),
                allowed=v.level == WARNING,
                command=command_text(request.command, history),
                agent=request.agent,
                project=project_root(cwd),
            )
        except OSError as exc:
            files.note(f"dcg: cannot write history ({exc}); decided anyway")
    if v.level != WARNING:
        kind, path, other = (
            ("confirm", paths.pending_file(), paths.allow_once_file())
            if v.level == SOFT_BLOCK
            else ("allow-once", paths.allow_once_file(), paths.pending_file())
        )
        try:
            code = codes.offer(
                path,
                kind=kind,
                now=now,
                rule_id=rule_id,
                cwd=cwd,
                command=request.command,
                session_id=sid,
                others=(other,),
            )
        except OSError as exc:
            files.note(f"dcg: cannot store an approval code ({exc})")
    _maintain(history, now, seen.total_lines)
    return code


def command_text(command: str, history: Mapping[str, object]) -> str | None:
    """The command as a history record keeps it (redacted, one line, cut), or None when
    ``[history] record_commands = false``."""
    if history.get("record_commands") is False:
        return None
    from dcg import redact

    return redact.for_record(command)


def _log_pass(
    match: Match,
    request: HookRequest,
    history: Mapping[str, object],
    cwd: str,
    now: float,
    via: str,
    rule_id: str,
) -> None:
    """Log a command let through by an approved code; lenient mode remembers a confirmation."""
    sid = ""
    try:
        ident = session.identify(request.agent, request.session_id)
        sid = ident.session_id
        if via == "confirm":
            session.acknowledge(paths.session_dir(), ident, rule_id, now)
    except OSError as exc:
        files.note(f"dcg: session state unavailable ({exc})")
    try:
        hist.record(
            paths.history_file(),
            now=now,
            rule_id=rule_id,
            pack_id=match.pack.id,
            severity=match.severity,
            response_level="allow",
            session_id=sid,
            cwd=cwd,
            command_hash=codes.command_hash(request.command),
            allowed=True,
            via=via,
            command=command_text(request.command, history),
            agent=request.agent,
            project=project_root(cwd),
        )
    except OSError as exc:
        files.note(f"dcg: cannot write history ({exc})")


def _maintain(history: Mapping[str, object], now: float, total_lines: int | None) -> None:
    """Rate-limited pruning of history, codes and sessions (matches only, never no-match)."""
    if not history.get("prune_on_startup", True):
        return
    try:
        before = files.mtime(_stamp())
        hist.maybe_prune(
            paths.history_file(),
            _stamp(),
            now=now,
            max_age=float(str(history.get("max_age") or DEFAULT_HISTORY["max_age"])),
            max_entries=int_setting(history, "max_entries", DEFAULT_HISTORY),
            total_lines=total_lines,
        )
        if files.mtime(_stamp()) != before:
            codes.prune(paths.pending_file(), now)
            codes.prune(paths.allow_once_file(), now)
    except OSError as exc:
        files.note(f"dcg: state maintenance failed ({exc})")
    # contextlib.suppress would cost an import on the hook path.
    try:  # noqa: SIM105
        session.maybe_prune(paths.session_dir(), now)
    except OSError:
        pass  # an unusable session directory was already reported by _count


def _stamp() -> str:
    return os.path.join(paths.config_dir(), ".prune-stamp")


def preview(
    match: Match,
    request: HookRequest,
    response: Mapping[str, object],
    history: Mapping[str, object] | None = None,
    *,
    now: float | None = None,
) -> Outcome:
    """The outcome the next identical command would get; nothing is written, no code made.

    Texts show ``----`` where a real run would show the code.
    """
    t = time.time() if now is None else now
    seen = _count(match, request, response, t, write=False)
    verdict = judge(match.rule_id, match.severity, seen.counts, response)
    f = _facts(match, request, verdict)
    f.next_level = next_level(match.severity, verdict, response, seen.counts.acknowledged)
    files.take_notes()
    return _outcome(match, f, response, silent=False)


def graduation_status(
    match: Match,
    request: HookRequest,
    response: Mapping[str, object],
    history: Mapping[str, object] | None = None,
    *,
    now: float | None = None,
) -> dict[str, object]:
    """Data for the explain block (draft section 9.3); see :func:`dcg.render.status_text`.

    ``session_count`` and ``history_count`` are the occurrences recorded so far;
    ``level`` is what the next occurrence would get.
    """
    t = time.time() if now is None else now
    seen = _count(match, request, response, t, write=False)
    v = judge(match.rule_id, match.severity, seen.counts, response)
    try:
        entry = allowlist.find(match.rule_id, " ".join(match.command.argv), t, write_cache=False)
    except OSError:
        entry = None
    files.take_notes()
    return {
        "rule_id": match.rule_id,
        "pack_id": match.pack.id,
        "severity": match.severity,
        "level": v.level,
        "cause": v.cause,
        "mode": v.mode,
        "session_id": seen.ident.session_id if seen.ident else None,
        "session_count": v.session - 1,
        "session_threshold": v.session_threshold,
        "history_count": v.history - 1,
        "history_threshold": v.history_threshold,
        "history_window": int(v.window),
        "history_scope": str(setting(response, "history_scope")),
        "scope_dir": _scope(request, response),
        "acknowledged": seen.counts.acknowledged,
        "allowlisted": dict(entry) if entry else None,
    }
