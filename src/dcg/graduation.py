"""The graduated response: from a match and the session/history counts to an Outcome.

The hook calls :func:`respond` once per matched command line. It checks the
allowlist, then approved allow-once and confirmation codes, then counts the
occurrence in the session and the history window, selects the level (decisions.md
section 1), records it and returns the :class:`~dcg.hookio.Outcome`. State problems
never escape: the decision is made from whatever could be read, and a one-line note
goes to stderr. Config arrives as plain dicts (``config.response``,
``config.history``); missing keys take the defaults of the draft's Appendix A.
"""

from __future__ import annotations

import os
import time

from dcg import paths, render
from dcg.hookio import HARD_BLOCK, SOFT_BLOCK, WARNING, Outcome
from dcg.state import allowlist, codes, files, session
from dcg.state import history as hist

TYPE_CHECKING = False  # typing costs ms at start-up; type checkers treat this as True

if TYPE_CHECKING:
    from collections.abc import Mapping

    from dcg.hookio import HookRequest
    from dcg.model import Match

DEFAULT_RESPONSE: dict[str, object] = {
    "mode": "standard",
    "session_threshold": 2,
    "history_threshold": 5,
    "history_window": 86400,
    "critical_always_hard": True,
    "high_minimum_level": "warning",
    "show_warnings": True,
    "quiet_after_threshold": False,
    "log_warnings": True,
    "soft_block_action": "confirm",
    "confirm_requires_tty": True,
    "history_scope": "global",
    "fail_open": False,
    "packs": {},
}
DEFAULT_HISTORY: dict[str, object] = {
    "max_age": 30 * 86400,
    "max_entries": 10000,
    "prune_on_startup": True,
}
_RANK = {WARNING: 0, SOFT_BLOCK: 1, HARD_BLOCK: 2}
MODES = ("paranoid", "strict", "standard", "lenient")


def setting(response: Mapping[str, object], key: str) -> object:
    value = response.get(key)
    return DEFAULT_RESPONSE[key] if value is None else value


def _int(table: Mapping[str, object], key: str, defaults: Mapping[str, object]) -> int:
    value = table.get(key)
    return int(str(defaults[key] if value is None else value))


def mode_for(rule_id: str, response: Mapping[str, object]) -> str:
    """The mode for a rule: the longest matching ``[response.packs]`` selector, else ``mode``.

    A selector matches the rule id itself, its pack (``core.git``) or any id prefix
    ending at a ``.`` (``core``, ``database``).
    """
    best, best_len = str(setting(response, "mode")), -1
    selectors = response.get("packs") or {}
    assert isinstance(selectors, dict)
    for selector, table in selectors.items():
        sel = str(selector)
        if len(sel) <= best_len or not isinstance(table, dict) or "mode" not in table:
            continue
        if rule_id == sel or rule_id.startswith(sel + ":") or rule_id.startswith(sel + "."):
            best, best_len = str(table["mode"]), len(sel)
    return best


def decide(
    mode: str,
    session_count: int,
    history_count: int,
    session_threshold: int,
    history_threshold: int,
    severity: str,
    *,
    critical_always_hard: bool = True,
    high_minimum_level: str = WARNING,
    acknowledged: bool = False,
) -> tuple[str, str]:
    """``(level, cause)`` per decisions.md section 1; counts include the current occurrence.

    ``cause`` says why, for the texts: ``paranoid``, ``history``, ``session``,
    ``warning``, ``acknowledged``, ``critical`` or ``floor``.
    """
    t, h = session_threshold, history_threshold
    if mode == "paranoid":
        level, cause = HARD_BLOCK, "paranoid"
    elif mode == "strict":
        if history_count >= h:
            level, cause = HARD_BLOCK, "history"
        elif session_count > t:
            level, cause = HARD_BLOCK, "session"
        elif session_count == t:
            level, cause = SOFT_BLOCK, "session"
        else:
            level, cause = WARNING, "warning"
    elif mode == "standard":
        if history_count >= h:
            level, cause = HARD_BLOCK, "history"
        elif session_count > t:
            level, cause = SOFT_BLOCK, "session"
        else:
            level, cause = WARNING, "warning"
    elif mode == "lenient":
        if acknowledged:
            level, cause = WARNING, "acknowledged"
        elif session_count <= t + 1:
            level, cause = WARNING, "warning"
        else:
            level, cause = SOFT_BLOCK, "session"
    else:
        raise ValueError(f"unknown graduation mode {mode!r}")
    if severity == "critical" and critical_always_hard and level != HARD_BLOCK:
        level, cause = HARD_BLOCK, "critical"
    elif severity == "critical" and critical_always_hard:
        cause = "critical"
    if severity == "high" and _RANK.get(high_minimum_level, 0) > _RANK[level]:
        level, cause = high_minimum_level, "floor"
    return level, cause


def select_level(
    mode: str,
    session_count: int,
    history_count: int,
    session_threshold: int,
    history_threshold: int,
    severity: str,
    *,
    critical_always_hard: bool = True,
    high_minimum_level: str = WARNING,
    acknowledged: bool = False,
) -> str:
    """Just the level of :func:`decide`."""
    return decide(
        mode,
        session_count,
        history_count,
        session_threshold,
        history_threshold,
        severity,
        critical_always_hard=critical_always_hard,
        high_minimum_level=high_minimum_level,
        acknowledged=acknowledged,
    )[0]


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


class _Counts:
    __slots__ = ("acknowledged", "history", "ident", "session", "total_lines")

    def __init__(self) -> None:
        self.session = 1
        self.history = 1
        self.acknowledged = False
        self.total_lines: int | None = None
        self.ident: session.Identity | None = None


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
) -> _Counts:
    """Session and history counts including this occurrence (bumping the session if ``write``)."""
    out = _Counts()
    rule_id = match.rule_id
    window = float(str(setting(response, "history_window")))
    try:
        prev, out.total_lines = hist.count(
            paths.history_file(),
            rule_id,
            since=now - window,
            scope=_scope(request, response),
            pack_id=match.pack.id,
            severity=match.severity,
        )
        out.history = prev + 1
    except OSError as exc:
        files.note(f"dcg: cannot read history ({exc}); counting without it")
    try:
        out.ident = ident = session.identify(request.agent, request.session_id)
        if write:
            out.session, out.acknowledged = session.bump(paths.session_dir(), ident, rule_id, now)
        else:
            prev_s, out.acknowledged = session.peek(paths.session_dir(), ident, rule_id, now)
            out.session = prev_s + 1
    except OSError as exc:
        # Without a session the history count is the safe stand-in: a session can
        # never have seen more occurrences than the whole history window.
        out.session = out.history
        files.note(f"dcg: session state unavailable ({exc}); deciding without it")
    return out


def _facts(
    match: Match,
    request: HookRequest,
    response: Mapping[str, object],
    counts: _Counts,
) -> render.Facts:
    mode = mode_for(match.rule_id, response)
    s_t = _int(response, "session_threshold", DEFAULT_RESPONSE)
    h_t = _int(response, "history_threshold", DEFAULT_RESPONSE)
    level, cause = decide(
        mode,
        counts.session,
        counts.history,
        s_t,
        h_t,
        match.severity,
        critical_always_hard=bool(setting(response, "critical_always_hard")),
        high_minimum_level=str(setting(response, "high_minimum_level")),
        acknowledged=counts.acknowledged,
    )
    rule = match.rule
    return render.Facts(
        level,
        cause,
        mode,
        rule_id=match.rule_id,
        pack_id=match.pack.id,
        severity=match.severity,
        command=request.command,
        reason=match.reason,
        explanation=rule.explanation,
        alternative=rule.alternative,
        session_count=counts.session,
        session_threshold=s_t,
        history_count=counts.history,
        history_threshold=h_t,
        window=float(str(setting(response, "history_window"))),
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
    return bool(setting(response, "quiet_after_threshold")) and (
        f.session_count > f.session_threshold
    )


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
    rule_id = match.rule_id
    try:
        if allowlist.find(rule_id, " ".join(match.command.argv), now) is not None:
            return None
    except OSError as exc:
        files.note(f"dcg: cannot read the allowlist ({exc})")
    for via, path in (("allow-once", paths.allow_once_file()), ("confirm", paths.pending_file())):
        try:
            rec = codes.redeem(path, command=request.command, cwd=cwd, now=now)
        except OSError as exc:
            files.note(f"dcg: cannot use approved codes ({exc})")
            rec = None
        if rec is not None:
            _log_pass(match, request, cwd, now, via, str(rec.get("rule_id") or rule_id))
            return None
    counts = _count(match, request, response, now, write=True)
    f = _facts(match, request, response, counts)
    sid = counts.ident.session_id if counts.ident else ""
    if f.level != WARNING or setting(response, "log_warnings"):
        try:
            hist.record(
                paths.history_file(),
                now=now,
                rule_id=rule_id,
                pack_id=match.pack.id,
                severity=match.severity,
                response_level=f.level,
                session_id=sid,
                cwd=cwd,
                command_hash=codes.command_hash(request.command),
                allowed=f.level == WARNING,
            )
        except OSError as exc:
            files.note(f"dcg: cannot write history ({exc}); decided anyway")
    if f.level != WARNING:
        kind, path, other = (
            ("confirm", paths.pending_file(), paths.allow_once_file())
            if f.level == SOFT_BLOCK
            else ("allow-once", paths.allow_once_file(), paths.pending_file())
        )
        try:
            f.code = codes.offer(
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
    _maintain(history, now, counts.total_lines)
    return _outcome(match, f, response, silent=_silent(f, response))


def _log_pass(
    match: Match, request: HookRequest, cwd: str, now: float, via: str, rule_id: str
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
            max_entries=_int(history, "max_entries", DEFAULT_HISTORY),
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
    counts = _count(match, request, response, t, write=False)
    f = _facts(match, request, response, counts)
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
    counts = _count(match, request, response, t, write=False)
    f = _facts(match, request, response, counts)
    try:
        entry = allowlist.find(match.rule_id, " ".join(match.command.argv), t, write_cache=False)
    except OSError:
        entry = None
    files.take_notes()
    return {
        "rule_id": match.rule_id,
        "pack_id": match.pack.id,
        "severity": match.severity,
        "level": f.level,
        "cause": f.cause,
        "mode": f.mode,
        "session_id": counts.ident.session_id if counts.ident else None,
        "session_count": counts.session - 1,
        "session_threshold": f.session_threshold,
        "history_count": counts.history - 1,
        "history_threshold": f.history_threshold,
        "history_window": int(f.window),
        "history_scope": str(setting(response, "history_scope")),
        "scope_dir": _scope(request, response),
        "acknowledged": counts.acknowledged,
        "allowlisted": dict(entry) if entry else None,
    }
