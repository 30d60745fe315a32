"""Bounds on the work one parse may do, and the error raised past them."""

from __future__ import annotations

import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

# Levels of $( … ), backticks, bash -c, eval, ssh payloads, subshells and braces together.
MAX_DEPTH = 16
# Characters of one command line handed to ``parse``.
MAX_SIZE = 256 * 1024
# Simple commands found in one parse, payloads included.
MAX_COMMANDS = 1000
# Tokens lexed in one parse, payloads re-lexed included.
MAX_TOKENS = 50_000
# The deadline is checked once per this many tokens: time.process_time() is cheap, not free.
CLOCK_EVERY = 64


class TooComplex(Exception):
    """The command line exceeds a parsing bound (depth, size, tokens, commands or time)."""


class Budget:
    """Work counters shared by one ``parse`` call and every payload it parses."""

    __slots__ = ("commands", "deadline", "tokens")

    def __init__(self, deadline: float | None) -> None:
        self.tokens = 0
        self.commands = 0
        self.deadline = deadline

    def token(self) -> None:
        self.tokens += 1
        if self.tokens > MAX_TOKENS:
            raise TooComplex(f"more than {MAX_TOKENS} tokens")
        if self.deadline is not None and self.tokens % CLOCK_EVERY == 0:
            self.clock()

    def clock(self) -> None:
        if self.deadline is not None and time.process_time() > self.deadline:
            raise TooComplex("parse deadline exceeded")

    def command(self) -> None:
        self.commands += 1
        if self.commands > MAX_COMMANDS:
            raise TooComplex(f"more than {MAX_COMMANDS} simple commands")


class Files:
    """File access for one parse (dcg.shell.scripts reads through it): the payload cwd,
    the keyword test a script's text must pass, what was read, functions judged."""

    __slots__ = ("called", "cwd", "read_count", "seen", "wanted")

    def __init__(self, cwd: str | None, wanted: Callable[[str], bool]) -> None:
        self.cwd = cwd or ""
        self.wanted = wanted
        self.seen: dict[str, str | None] = {}
        self.read_count = 0
        self.called: set[str] = set()
