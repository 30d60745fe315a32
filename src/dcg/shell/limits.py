"""Bounds on the work one parse may do, and the error raised past them."""

from __future__ import annotations

import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

# Levels of $( … ), backticks, bash -c, eval, ssh payloads, subshells and braces together.
MAX_DEPTH = 16
# Characters of one command line handed to ``parse``.
MAX_SIZE = 256 * 1024
# Simple commands found in one parse, payloads included (a harmless pipeline of 10,000
# commands is judged, decisions.md 10.1; the time budget bounds what they cost).
MAX_COMMANDS = 25_000
# Tokens lexed in one parse, payloads re-lexed included.
MAX_TOKENS = 50_000
# The deadline is checked once per this many tokens: time.thread_time() is cheap, not free.
CLOCK_EVERY = 64


class TooComplex(Exception):
    """The command line exceeds a parsing bound (depth, size, tokens, commands or time)."""


class Unjudged(TooComplex):
    """A bound left part of a project script unread, and that part names a guarded tool."""


# Memos of what the disk and the hook's environment say (git config files, hook
# directories, variables): valid while one line is judged, emptied for the next.
CACHES: list[dict[Any, Any]] = []


def cache() -> dict[Any, Any]:
    """A memo that lives for one parse (see :data:`CACHES`)."""
    memo: dict[Any, Any] = {}
    CACHES.append(memo)
    return memo


class Budget:
    """Work counters shared by one ``parse`` call and every payload it parses."""

    __slots__ = ("commands", "deadline", "tokens")

    def __init__(self, deadline: float | None, files: Files | None = None) -> None:
        self.tokens = 0
        self.commands = 0
        self.deadline = deadline
        for memo in CACHES:
            memo.clear()
        if files is not None:
            files.budget = self  # what project files read earn goes to this deadline

    def token(self) -> None:
        self.tokens += 1
        if self.tokens > MAX_TOKENS:
            raise TooComplex(f"more than {MAX_TOKENS} tokens")
        if self.deadline is not None and self.tokens % CLOCK_EVERY == 0:
            self.clock()

    def clock(self) -> None:
        if self.deadline is not None and time.thread_time() > self.deadline:
            raise TooComplex("parse deadline exceeded")

    def command(self) -> None:
        self.commands += 1
        if self.commands > MAX_COMMANDS:
            raise TooComplex(f"more than {MAX_COMMANDS} simple commands")


class Files:
    """File access for one parse (dcg.shell.scripts reads through it): the payload cwd,
    the keyword test a script's text must pass, the words that name a guarded tool (for
    code dcg does not read, :func:`dcg.shell.opaque.acts`), what was read, functions judged."""

    __slots__ = ("budget", "called", "cwd", "earned", "entered", "memo", "read_count",
                 "reading", "seen", "tools", "unread", "wanted")  # fmt: skip

    def __init__(
        self,
        cwd: str | None,
        wanted: Callable[[str], bool],
        tools: frozenset[str] | None = None,
    ) -> None:
        self.cwd = cwd or ""
        self.wanted = wanted
        self.tools = tools
        self.seen: dict[str, str | None] = {}
        self.read_count = 0
        self.called: set[str] = set()
        self.memo: dict[str, int] = {}  # readings of a function call (dcg.shell.cases)
        # The positional parameters each function being judged was entered with: a call
        # of itself with "$@" unchanged is the same call (dcg.shell.cases.judged).
        self.entered: dict[str, tuple[Any, ...]] = {}
        # The project scripts and recipes being read, innermost last: one already on this
        # stack is a cycle (a root `build` running `pnpm -r run build`), not more work.
        self.reading: list[tuple[str, str]] = []
        # Project scripts a bound stopped reading: what was read is judged, these are said.
        self.unread: list[str] = []
        # The parse's budget (set by dcg.shell.walk) and the CPU seconds the project files
        # read so far added to it (:func:`earn`).
        self.budget: Budget | None = None
        self.earned = 0.0


# A project file read for the line earns the line more time to be judged, like the line's
# own length does (dcg.watchdog.line_budget), up to the same cap: a 20 KiB build script is
# judged whole, never cut short by the clock and waved through (decisions.md 6, 10.7).
EARN_PER_KB = 0.010
EARN_CAP = 1.0


def earn(files: Files, size: int) -> None:
    """Give the line's deadline (and the hook's CPU alarm) time for ``size`` bytes read."""
    budget = files.budget
    extra = min(size / 1024 * EARN_PER_KB, EARN_CAP - files.earned)
    if budget is None or budget.deadline is None or extra <= 0:
        return
    files.earned += extra
    budget.deadline += extra
    from dcg import watchdog

    watchdog.extend(extra)


def bounded(budget: Budget, files: Files | None, shown: str, read: Callable[[], None]) -> None:
    """Read a project script (``read()``) within the line's token and command bounds: past
    one, what was read stays judged, the rest is recorded in ``files.unread`` and the line
    goes on with the counts it had: a long build script or a sourced library is not a
    reason to stop a build (issue 24). The line's own text past a bound still is (the
    caller raises ``TooComplex``), and so is running out of time: a budget overrun stops
    the line (decisions.md 6, 10.7), the files read having earned it time (:func:`earn`)."""
    if files is None:
        read()
        return
    tokens, commands = budget.tokens, budget.commands
    try:
        read()
    except TooComplex as exc:
        if isinstance(exc, Unjudged) or (
            budget.deadline is not None and time.thread_time() > budget.deadline
        ):
            raise
        files.unread.append(f"{shown}: {exc}")
        budget.tokens, budget.commands = tokens, commands
