"""The keep step's bounds: bytes kept (``max_size``) and wall-clock time (``max_time``).

The hook's evaluation budget (decisions.md §6) is CPU time; keeping a copy mostly waits
on git and the disk, which the hook's CPU time does not see, so the keep step has a
wall-clock budget of its own. Running out of either never lets a command through
unkept: :class:`~dcg.safety.Unkept` is raised and the command is stopped instead
(decisions.md 11.2, 11.7).
"""

from __future__ import annotations

import time

from dcg.safety import Unkept
from dcg.safety.settings import format_size, format_time

# Whatever the config says, the keep step ends well before the shortest hook timeout
# `dcg install` registers (Gemini's 5 s): an agent that times a hook out runs the command.
MAX_TIME_CAP = 4.0


class Budget:
    """Bytes and time left for one keep step (one command line)."""

    __slots__ = ("deadline", "max_size", "max_time", "used")

    def __init__(self, max_size: int, max_time: float, *, cap: bool = True) -> None:
        self.max_size = max_size
        self.max_time = min(max_time, MAX_TIME_CAP) if cap else max_time
        self.deadline = time.monotonic() + self.max_time
        self.used = 0

    def left(self) -> float:
        """Seconds left; raises :class:`Unkept` when none are."""
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise self.timed_out()
        return left

    def timed_out(self) -> Unkept:
        return Unkept(
            f"keeping it took longer than the {format_time(self.max_time)} time budget "
            "([safety_net] max_time)"
        )

    def charge(self, nbytes: int) -> None:
        """Count ``nbytes`` more to keep; raises :class:`Unkept` past ``max_size``."""
        self.used += nbytes
        if self.used > self.max_size:
            raise Unkept(
                f"{format_size(self.used)} is over the {format_size(self.max_size)} budget "
                "([safety_net] max_size)"
            )

    def fits(self, nbytes: int) -> bool:
        """Whether ``nbytes`` more would fit (nothing is charged)."""
        return self.used + nbytes <= self.max_size
