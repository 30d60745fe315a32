"""The graduated decision, pure: (rule, severity, mode, counts) to a response level and why.

Nothing here reads or writes state: :mod:`dcg.graduation` reads the counts once before
(:class:`Counts`) and records the outcome once after. :func:`judge` applies
decisions.md section 1 to one occurrence; :func:`decide` is the level curve itself.
Config arrives as a :class:`~dcg.response.ResponseConfig` (``config.response``); a
plain table of ``[response]`` keys is read with its defaults (:meth:`ResponseConfig.of`).
"""

from __future__ import annotations

from dcg.frozen import Frozen
from dcg.hookio import HARD_BLOCK, SOFT_BLOCK, WARNING
from dcg.response import ResponseConfig

TYPE_CHECKING = False  # typing costs ms at start-up; type checkers treat this as True

if TYPE_CHECKING:
    from collections.abc import Mapping

    # What the deciding functions take: the typed value, or a table of [response] keys.
    Response = ResponseConfig | Mapping[str, object]

RANK = {WARNING: 0, SOFT_BLOCK: 1, HARD_BLOCK: 2}
# dcg's own pack: its approval commands, state, program and the agents' hook settings.
SELF_PROTECTION = "core.dcg"


def self_protected(rule_id: str) -> bool:
    """A self-protection rule: a hard block at the first try in every mode, whatever
    ``critical_always_hard`` or any other layer says (decisions.md 10.3, 11.5)."""
    return rule_id.startswith(SELF_PROTECTION + ":")


def int_setting(table: Mapping[str, object], key: str, defaults: Mapping[str, object]) -> int:
    value = table.get(key)
    return int(str(defaults[key] if value is None else value))


def mode_for(rule_id: str, response: Response) -> str:
    """The mode for a rule (:meth:`ResponseConfig.mode_for`)."""
    return ResponseConfig.of(response).mode_for(rule_id)


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
    if severity == "high" and RANK.get(high_minimum_level, 0) > RANK[level]:
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


def judge(rule_id: str, severity: str, counts: Counts, response: Response) -> Verdict:
    """The level for one occurrence of ``rule_id``; the mode is :func:`mode_for` the rule."""
    r = ResponseConfig.of(response)
    mode = r.mode_for(rule_id)
    s_t, h_t = r.session_threshold, r.history_threshold
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
        critical_always_hard=r.critical_always_hard,
        high_minimum_level=r.high_minimum_level,
        acknowledged=counts.acknowledged,
    )
    if self_protected(rule_id):
        level, cause = HARD_BLOCK, "self-protection"
    return Verdict(
        level,
        cause,
        mode,
        session=session,
        history=history,
        session_threshold=s_t,
        history_threshold=h_t,
        window=float(r.history_window),
    )


def next_level(
    severity: str,
    v: Verdict,
    response: Response,
    acknowledged: bool,
    rule_id: str = "",
) -> str:
    """The level the next occurrence of the same rule in this session would get."""
    if self_protected(rule_id):
        return HARD_BLOCK
    r = ResponseConfig.of(response)
    return decide(
        v.mode,
        v.session + 1,
        v.history + 1,
        v.session_threshold,
        v.history_threshold,
        severity,
        critical_always_hard=r.critical_always_hard,
        high_minimum_level=r.high_minimum_level,
        acknowledged=acknowledged,
    )[0]
