"""Label/value lines for human output: coloured and wrap-aligned on a terminal, plain elsewhere.

A line is ``(label, value)`` where the label includes its indentation and is padded to
the width of its block, and both are rich markup (callers escape what they quote). On
a terminal a long value wraps under itself, not under the label; piped or redirected
output (and ``NO_COLOR``) is the same text without colour, one line per line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dcg import render

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import TextIO

Line = tuple[str, str]

LEVEL_STYLES = {
    "warning": "yellow",
    "soft_block": "bold red",
    "hard_block": "bold red",
    "allow": "green",
}


def esc(value: object) -> str:
    from rich.markup import escape

    return escape(str(value))


def styled(text: str, style: str | None) -> str:
    return f"[{style}]{text}[/{style}]" if style else text


def level(name: str, text: str | None = None) -> str:
    """``text`` (default: the level's name) in the level's colour."""
    return styled(esc(text if text is not None else name), LEVEL_STYLES.get(name))


def block(
    rows: list[tuple[str, str]], indent: str = "", gap: int = 1, width: int = 0
) -> list[Line]:
    """Rows of one block, labels padded to the widest one plus ``gap`` (at least ``width``)."""
    width = max(width, max((len(label) for label, _ in rows), default=0) + gap)
    return [(f"[dim]{indent}{label.ljust(width)}[/dim]", value) for label, value in rows]


def show(lines: Sequence[Line | str], file: TextIO | None = None) -> None:
    """Print lines; a plain ``str`` is a line of its own (markup), ``""`` a blank one."""
    out = render.console(file)
    for line in lines:
        if isinstance(line, str):
            out.print(line)
            continue
        label, value = line
        if not out.is_terminal:
            out.print(label + value)
            continue
        from rich.table import Table
        from rich.text import Text

        grid = Table.grid()
        grid.add_column(width=Text.from_markup(label).cell_len, no_wrap=True)
        grid.add_column(overflow="fold")
        grid.add_row(label, value)
        out.print(grid)
