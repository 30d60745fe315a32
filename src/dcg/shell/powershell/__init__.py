"""PowerShell command lines: the simple commands they run, with destructive forms mapped to POSIX.

Claude Code's and Copilot's PowerShell tools send PowerShell, not POSIX shell. ``parse``
splits a line the way PowerShell would (statements, pipelines, script blocks,
subexpressions, quoting and backtick escapes, comments; :mod:`._lexer`) and turns each
command into a :class:`~dcg.shell.command.Command` whose argv the core rules already
understand (:mod:`._map`): ``Remove-Item -Recurse -Force X`` becomes ``rm -r -f X``,
``git …`` stays ``git …``, and ``cmd /c "…"``, ``pwsh -Command "…"`` and ``bash -c "…"``
are analysed recursively. Variables such as ``$env:USERPROFILE``, ``$HOME`` or ``~`` stay
literally in the paths.

The POSIX shell parser is passed in (``posix``) rather than imported: the POSIX walker
reaches PowerShell through ``pwsh -c``, so importing it back would be a circle.
:func:`dcg.shell.parse_powershell` is the entry point with the POSIX parser wired in.
"""

from __future__ import annotations

from dcg.shell.powershell._map import parse as _parse

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path
if TYPE_CHECKING:
    from dcg.shell.command import Command
    from dcg.shell.powershell._map import Posix

__all__ = ["parse"]


def parse(line: str, *, posix: Posix, deadline: float | None = None) -> list[Command]:
    """The simple commands ``line`` would run in PowerShell; ``posix`` parses ``bash -c``."""
    return _parse(line, deadline, 0, ("powershell",), posix)
