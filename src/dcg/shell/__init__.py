"""Shell analysis: turn a command line into the simple commands it would run.

``parse`` returns one :class:`Command` per simple command, in source order, including
those nested in substitutions, subshells, ``bash -c``/``eval`` strings, payloads run by
ssh/docker/find -exec/xargs and code run by interpreters. It raises only
:class:`TooComplex`, when a bound of :mod:`dcg.shell.limits` is exceeded.
"""

from __future__ import annotations

from dcg.shell.command import Command
from dcg.shell.limits import MAX_SIZE, Budget, TooComplex

__all__ = ["Command", "TooComplex", "parse"]


def parse(line: str, *, deadline: float | None = None) -> list[Command]:
    if len(line) > MAX_SIZE:
        raise TooComplex(f"command line longer than {MAX_SIZE} characters")
    from dcg.shell.walk import Ctx, run_text

    out: list[Command] = []
    try:
        run_text(line, Ctx((), 0, {}, Budget(deadline)), out)
    except RecursionError:
        raise TooComplex("nesting too deep") from None
    return out
