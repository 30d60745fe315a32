"""What was decided for a command line (:class:`Line` of :class:`Item`) and the reply to it.

:mod:`dcg.graduation` decides, match by match; :func:`outcome` turns the decision of the
line's leading match (its strictest judged one) into the :class:`~dcg.hookio.Outcome` the
agent adapters render, naming the line's other matches and what became of each.
"""

from __future__ import annotations

from dcg import render
from dcg.decision import RANK, next_level
from dcg.hookio import SOFT_BLOCK, WARNING, Outcome

TYPE_CHECKING = False  # typing costs ms at start-up; type checkers treat this as True

if TYPE_CHECKING:
    from collections.abc import Sequence

    from dcg.decision import Counts, Verdict
    from dcg.hookio import HookRequest
    from dcg.model import Match
    from dcg.response import ResponseConfig


class Item:
    """One match of the line and what became of it.

    ``via`` is how an approval excused it (``allowlist``, ``confirm``, ``allow-once``) with
    ``approval`` the allowlist entry or code record; None when it was judged, and then
    ``verdict`` is its decision (shared by every match of the same rule on the line),
    made from ``counts``; ``session_id`` and ``total_lines`` are what counting found out
    for the writes (the session, and the history file's size when it was read whole).
    """

    __slots__ = ("approval", "counts", "match", "session_id", "total_lines", "verdict", "via")

    def __init__(self, match: Match) -> None:
        self.match = match
        self.via: str | None = None
        self.approval: dict[str, object] | None = None
        self.verdict: Verdict | None = None
        self.counts: Counts | None = None
        self.session_id = ""
        self.total_lines: int | None = None


class Line:
    """What was decided for one command line: its items, its level and the reply.

    ``level`` is the strictest judged level, None when every match was excused.
    ``outcome`` is the reply (the strictest judged match leads it; None when every match
    was excused); ``code`` the approval code offered for a blocked line. ``waiting``
    names the kinds of codes offered for this line and cwd that no person approved yet
    (filled by ``write=False`` only, for ``dcg test``/``explain``).
    """

    __slots__ = ("code", "cwd", "items", "level", "outcome", "waiting")

    def __init__(self, items: list[Item], cwd: str) -> None:
        self.items = items
        self.cwd = cwd
        self.code: str | None = None
        self.outcome: Outcome | None = None
        self.waiting: list[str] = []
        self.level: str | None = None
        self.settle()

    def settle(self) -> None:
        judged = [it.verdict.level for it in self.items if it.verdict is not None]
        self.level = max(judged, key=RANK.__getitem__) if judged else None

    @property
    def runs(self) -> bool:
        """The line is let through (a warning, or every match excused)."""
        return self.level in (None, WARNING)

    def judged(self) -> list[Item]:
        return [it for it in self.items if it.verdict is not None]

    def excused(self) -> list[Item]:
        return [it for it in self.items if it.via is not None]

    def let_through(self) -> list[Item]:
        """The items that run: every item when the line runs, none when it is blocked."""
        return list(self.items) if self.runs else []

    def lead(self) -> Item | None:
        """The judged item the reply leads with: the strictest level, then the most severe."""
        judged = self.judged()
        if not judged:
            return None
        # Items keep the engine's order (most severe first); max keeps the first of a tie.
        return max(judged, key=lambda it: RANK[it.verdict.level] if it.verdict else 0)


class Other:
    """Another match of the line: its rule and its state (a level, or how it passed)."""

    __slots__ = ("match", "state")

    def __init__(self, match: Match, state: str) -> None:
        self.match = match
        self.state = state


def facts(match: Match, request: HookRequest, v: Verdict) -> render.Facts:
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


def outcome(
    match: Match,
    verdict: Verdict,
    request: HookRequest,
    response: ResponseConfig,
    *,
    acknowledged: bool,
    cwd: str,
    code: str | None,
    others: Sequence[Other] = (),
    at_risk: bool = False,
    kept: tuple[str, str] | None = None,
    unkept: str = "",
) -> Outcome:
    """The reply for ``match``'s verdict; ``at_risk`` asks git what the command reaches.

    ``kept`` is the safety net's snapshot (id, what it holds) of what the line destroys;
    ``unkept`` why none could be made, when that made the line a soft block.
    """
    f = facts(match, request, verdict)
    f.kept, f.unkept = kept, unkept
    f.next_level = next_level(match.severity, verdict, response, acknowledged, match.rule_id)
    f.code = code
    if at_risk:
        f.at_risk = _at_risk(match, cwd)
    f.others = [
        (o.match.rule_id, o.match.severity, o.state, " ".join(o.match.command.argv)) for o in others
    ]
    silent = _silent(f, response)
    ask = f.level == SOFT_BLOCK and response.soft_block_action == "ask"
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


def _silent(f: render.Facts, response: ResponseConfig) -> bool:
    if f.level != WARNING:
        return False
    if not response.show_warnings:
        return True
    # The draft's "suppress repeated warnings": every warning for a rule in a session
    # after its first reaches the model only.
    return response.quiet_after_threshold and f.session_count > 1


def _at_risk(match: Match, cwd: str) -> str:
    """What uncommitted work the command reaches, asked of git (bounded; decisions.md 10.7)."""
    from dcg.gitinfo import at_risk

    try:
        return at_risk(match.rule_id, match.command.argv, cwd)
    except Exception:  # naming what is at risk must never cost the decision
        return ""
