"""The graduated decision, pure: (rule, severity, mode, counts) to a response level and why.

Nothing here reads or writes state: :mod:`dcg.graduation` reads the counts once before
(:class:`Counts`) and records the outcome once after. :func:`judge` applies
decisions.md section 1 to one occurrence; :func:`decide` is the level curve itself.
Config arrives as a plain dict (``config.response``); missing keys take the defaults of
the draft's Appendix A (:data:`DEFAULT_RESPONSE`).
"""

from __future__ import annotations

from dcg.frozen import Frozen
from dcg.hookio import HARD_BLOCK, SOFT_BLOCK, WARNING

TYPE_CHECKING = False  # typing costs ms at start-up; type checkers treat this as True

if TYPE_CHECKING:
    from collections.abc import Mapping

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
_RANK = {WARNING: 0, SOFT_BLOCK: 1, HARD_BLOCK: 2}
MODES = ("paranoid", "strict", "standard", "lenient")


def setting(response: Mapping[str, object], key: str) -> object:
    value = response.get(key)
    return DEFAULT_RESPONSE[key] if value is None else value


def int_setting(table: Mapping[str, object], key: str, defaults: Mapping[str, object]) -> int:
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
    floor = response.get("mode_floor")
    if not floor:
        return best
    from dcg.managed import stricter_mode  # only where an organisation set a floor

    return stricter_mode(best, str(floor))


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


class Counts(Frozen):
    """What the state says about this rule, this occurrence included.

    ``session`` and ``history`` are None when that state could not be read (or, for the
    session, kept); :func:`judge` decides what an unknown count stands for.
    ``acknowledged`` is whether a confirmation was given this session (lenient mode).
    """

    __slots__ = ("acknowledged", "history", "session")

    session: int | None
    history: int | None
    acknowledged: bool

    def __init__(self, session: int | None, history: int | None, acknowledged: bool) -> None:
        self._set("session", session)
        self._set("history", history)
        self._set("acknowledged", acknowledged)


class Verdict(Frozen):
    """A decision: the level, its cause, and the counts and settings it was made from."""

    __slots__ = (
        "cause",
        "history",
        "history_threshold",
        "level",
        "mode",
        "session",
        "session_threshold",
        "window",
    )

    level: str
    cause: str
    mode: str
    session: int
    history: int
    session_threshold: int
    history_threshold: int
    window: float

    def __init__(
        self,
        level: str,
        cause: str,
        mode: str,
        *,
        session: int,
        history: int,
        session_threshold: int,
        history_threshold: int,
        window: float,
    ) -> None:
        self._set("level", level)
        self._set("cause", cause)
        self._set("mode", mode)
        self._set("session", session)
        self._set("history", history)
        self._set("session_threshold", session_threshold)
        self._set("history_threshold", history_threshold)
        self._set("window", window)


def judge(rule_id: str, severity: str, counts: Counts, response: Mapping[str, object]) -> Verdict:
    """The level for one occurrence of ``rule_id``; the mode is :func:`mode_for` the rule."""
    mode = mode_for(rule_id, response)
    s_t = int_setting(response, "session_threshold", DEFAULT_RESPONSE)
    h_t = int_setting(response, "history_threshold", DEFAULT_RESPONSE)
    history = 1 if counts.history is None else counts.history
    session = history if counts.session is None else counts.session
    if counts.session is None or counts.history is None:
        # A count that cannot be kept counts as repeated (decisions.md 10.4): making
        # state unreadable or unwritable must never be a way to stay at a warning.
        session = max(session, s_t + 1)
    level, cause = decide(
        mode,
        session,
        history,
        s_t,
        h_t,
        severity,
        critical_always_hard=bool(setting(response, "critical_always_hard")),
        high_minimum_level=str(setting(response, "high_minimum_level")),
        acknowledged=counts.acknowledged,
    )
    return Verdict(
        level,
        cause,
        mode,
        session=session,
        history=history,
        session_threshold=s_t,
        history_threshold=h_t,
        window=float(str(setting(response, "history_window"))),
    )
