"""The hook's CPU alarm: a step that outlasts its budget ends in a stop, never a time-out.

The engine checks its deadline between commands; work that does not (a rule's check over
ten thousand arguments, redaction, recording, rendering) is bounded by this alarm instead
(decisions.md 11.7). :func:`arm` sets a one-shot ``ITIMER_PROF`` timer (CPU time of the
process; the engine's deadline counts its own thread); when it fires, :class:`Overrun` is
raised wherever the hook is. It derives from ``BaseException`` so that no ``except
Exception`` on the way turns it into something milder; the hook answers it with
``core.dcg:too-complex``.

``_signal`` is used rather than ``signal``, which imports ``enum`` (milliseconds).

While the alarm is set there is no cyclic garbage collection: the hook allocates little
and exits, and in a long-lived embedding process (a test session holding millions of
objects) one full collection can cost more CPU time than a line's whole budget, turning a
plain ``git checkout --force`` into ``core.dcg:too-complex``.

The keep step has a wall-clock budget of its own (dcg.safety.budget) and runs with the
alarm paused. Where signals cannot be used (not the main thread, no ``setitimer``), the
alarm is simply not set: the engine's own deadline still holds.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import FrameType, TracebackType

    from dcg.hookio import Reply

# The alarm never waits longer than this, whatever the config: the shortest hook timeout
# `dcg install` registers is Gemini's 5 s of wall-clock time.
CEILING = 3.0


# A long line gets more time to be judged than a short one, up to a cap: a pipeline of
# 10,000 harmless commands is judged, not stopped as too complex (decisions.md 10.1: what
# cannot be judged within the cap is still stopped).
BUDGET_PER_KB_MS = 20
BUDGET_CAP_MS = 1500


def line_budget(budget_ms: object, size: int) -> float:
    """Seconds of CPU time for judging a command line of ``size`` characters."""
    assert isinstance(budget_ms, int)
    grown = min(budget_ms + size // 1024 * BUDGET_PER_KB_MS, BUDGET_CAP_MS)
    return max(budget_ms, grown) / 1000


class Overrun(BaseException):
    """The hook's work went past its CPU budget."""


_state: dict[str, object] = {}


def _fire(signum: int, frame: FrameType | None) -> None:
    if _state.get("live"):
        _state["live"] = False
        raise Overrun("the hook's time budget was exceeded")


def arm(seconds: float) -> bool:
    """Raise :class:`Overrun` after ``seconds`` (at most :data:`CEILING`) of CPU time;
    re-arming replaces the previous alarm. False when no alarm could be set."""
    if "collecting" not in _state:
        import gc

        _state["collecting"] = gc.isenabled()
        gc.disable()
    try:
        import _signal as signal  # type: ignore[import-not-found]

        if "previous" not in _state:
            _state["previous"] = signal.signal(signal.SIGPROF, _fire)
        signal.setitimer(signal.ITIMER_PROF, max(min(seconds, CEILING), 0.001))
        _state["live"] = True
    except (ValueError, OSError, AttributeError):
        return False
    return True


def extend(seconds: float) -> None:
    """Give a live alarm ``seconds`` more (never past :data:`CEILING` from now)."""
    if not _state.get("live"):
        return
    import _signal as signal

    left = signal.getitimer(signal.ITIMER_PROF)[0]
    if left > 0:
        signal.setitimer(signal.ITIMER_PROF, min(left + seconds, CEILING))


def disarm() -> None:
    """Cancel the alarm, give SIGPROF back its previous handler and collection back."""
    _state["live"] = False
    if _state.pop("collecting", False):
        import gc

        gc.enable()
    if "previous" not in _state:
        return
    import _signal as signal

    signal.setitimer(signal.ITIMER_PROF, 0)
    previous = _state.pop("previous")
    signal.signal(signal.SIGPROF, signal.SIG_DFL if previous is None else previous)


class paused:
    """The alarm stopped for a block with a budget of its own, then set again for the
    CPU time that was left."""

    __slots__ = ("left",)

    def __init__(self) -> None:
        self.left = 0.0

    def __enter__(self) -> None:
        if "previous" in _state:
            import _signal as signal

            self.left = signal.setitimer(signal.ITIMER_PROF, 0)[0]

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self.left > 0 and "previous" in _state:
            import _signal as signal

            signal.setitimer(signal.ITIMER_PROF, self.left)


def overrun_reply(agent: object, dialect: str | None) -> Reply:
    """The stop for a hook call that went past its time budget (dcg.watchdog)."""
    from dcg import agents

    return agents.render_error(
        agent if isinstance(agent, str) else None,
        "core.dcg:too-complex: judging this command took longer than dcg's time budget; "
        "split the command into simpler steps",
        dialect,
    )
