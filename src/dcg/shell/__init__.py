"""Shell analysis: turn a command line into the simple commands it would run.

``parse`` returns one :class:`Command` per simple command, in source order, including
those nested in substitutions, subshells, ``bash -c``/``eval`` strings, payloads run by
ssh/docker/find -exec/xargs and code run by interpreters. ``parse_powershell`` does the
same for a PowerShell line (:mod:`dcg.shell.powershell`). Both raise only
:class:`TooComplex`, when a bound of :mod:`dcg.shell.limits` is exceeded.
"""

from __future__ import annotations

from dcg.shell.command import Command
from dcg.shell.limits import TooComplex

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.shell.limits import Files

__all__ = ["Command", "TooComplex", "parse", "parse_powershell"]


def parse(
    line: str,
    *,
    deadline: float | None = None,
    cwd: str | None = None,
    files: Files | None = None,
) -> list[Command]:
    """``cwd``, where the line runs, is where git looks for its repository's config;
    ``files`` (None: nothing is read) lets the walker read the scripts the line runs."""
    from dcg.shell.walk import parse as posix

    return posix(line, deadline, cwd, files)


def parse_powershell(
    line: str, *, deadline: float | None = None, cwd: str | None = None
) -> list[Command]:
    from dcg.shell.powershell import parse as powershell
    from dcg.shell.walk import parse as walk

    def posix(script: str, deadline: float | None) -> list[Command]:
        return walk(script, deadline, cwd)

    return powershell(line, posix=posix, deadline=deadline)
