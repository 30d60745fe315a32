"""``dcg history [RULE] [--window 24h] [--cwd DIR] [--json]``: what dcg matched, and when."""

from __future__ import annotations

import os
import sys
import time
from typing import TYPE_CHECKING

from dcg import paths, render
from dcg.commands.confirm import _esc
from dcg.errors import DcgError
from dcg.state import clock, files
from dcg.state import history as hist

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import TextIO

    from rich.console import Console
    from rich.table import Table


class Selection:
    """The history records that match the filters, read from one view of the file.

    The file is opened once and read a block at a time, as often as needed (the
    summary's count, then the records), each time up to the size it had when opened:
    memory stays one block and one record whatever the history's size (issue 27).
    """

    def __init__(self, rule_id: str | None, window: str, cwd: str | None, now: float) -> None:
        try:
            self.seconds = clock.parse_duration(window)
        except ValueError as exc:
            raise DcgError(str(exc)) from None
        # The window the hook counts in: by the clock since boot for records of this
        # boot, so what the hook said it counted is what is listed (hist.Cut).
        self.cut = hist.Cut(now - self.seconds)
        self.since = clock.iso(now - self.seconds)
        self.rule_id = rule_id
        self.scope = os.path.abspath(cwd).rstrip("/") if cwd else None
        path = paths.history_file()
        try:
            self.fd = files.open_private(path, os.O_RDONLY)
            self.size = os.fstat(self.fd).st_size
        except FileNotFoundError:
            self.fd, self.size = -1, 0
        except OSError as exc:
            raise DcgError(f"cannot read {path}: {exc}") from None

    def __enter__(self) -> Selection:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __iter__(self) -> Iterator[dict[str, object]]:
        """The matching records, oldest first (in the order they were written)."""
        if self.fd < 0:
            return
        for raw, _ in files.read_lines(self.fd, 0, self.size, partial=True):
            inside = self.cut.holds(raw)
            if inside is False:
                continue  # most of a long history: skipped without parsing it
            rec = hist.parse_line(raw)
            if rec is None or (inside is None and str(rec.get("timestamp", "")) < self.since):
                continue  # a record written by hand, its timestamp found by parsing it
            if self._wanted(rec):
                yield rec

    def _wanted(self, rec: dict[str, object]) -> bool:
        if self.rule_id and not _rule_matches(self.rule_id, str(rec.get("rule_id"))):
            return False
        if self.scope is not None:
            rc = str(rec.get("cwd", ""))
            if rc != self.scope and not rc.startswith(self.scope + "/"):
                return False
        return True


def selected(
    rule_id: str | None, window: str, cwd: str | None, now: float
) -> tuple[list[dict[str, object]], int]:
    """History records matching the filters, oldest first, and the window in seconds."""
    with Selection(rule_id, window, cwd, now) as sel:
        return list(sel), sel.seconds


def _rule_matches(selector: str, rule_id: str) -> bool:
    if selector.endswith(":*"):
        return rule_id.startswith(selector[:-1])
    return (
        rule_id == selector
        or rule_id.startswith(selector + ":")
        or rule_id.startswith(selector + ".")
    )


def main(
    rule_id: str | None = None,
    *,
    window: str = "24h",
    cwd: str | None = None,
    json_out: bool = False,
    now: float | None = None,
) -> int:
    t = time.time() if now is None else now
    with Selection(rule_id, window, cwd, t) as sel:
        rows = occurrences = 0
        widths = [0] * len(_COLUMNS)
        for rec in sel:  # the first read: the summary comes before the records
            rows += 1
            occurrences += "via" not in rec
            if not json_out:
                widths = [max(w, n) for w, n in zip(widths, _lengths(rec), strict=True)]
        if json_out:
            _json(sel, rule_id, cwd, occurrences, sys.stdout)
        else:
            _table(sel, rule_id, cwd, occurrences, rows, widths)
    return 0


def _json(sel: Selection, rule_id: str | None, cwd: str | None, n: int, out: TextIO) -> None:
    """The document ``json.dumps(doc, indent=2)`` would print, one record at a time."""
    import json

    head = {
        "schema_version": 1,
        "rule_id": rule_id,
        "window_seconds": sel.seconds,
        "cwd": os.path.abspath(cwd) if cwd else None,
        "occurrences": n,
    }
    out.write(json.dumps(head, indent=2)[:-2] + ',\n  "records": [')
    sep = "\n    "
    for rec in sel:
        out.write(sep + json.dumps(rec, indent=2).replace("\n", "\n    "))
        sep = ",\n    "
    out.write("]\n}\n" if sep == "\n    " else "\n  ]\n}\n")


# Rows in one rich table (the output of every selection up to this size is unchanged);
# a longer selection is written line by line (:class:`_Columns`).
BATCH = 1000


def _table(
    sel: Selection, rule_id: str | None, cwd: str | None, n: int, rows: int, widths: list[int]
) -> None:
    out = render.console()
    label = f" for {rule_id}" if rule_id else ""
    head = f"{n} occurrence{'s' if n != 1 else ''}{label} in the last "
    out.print(head + clock.format_duration(sel.seconds) + (f" under {cwd}" if cwd else "") + ".")
    if not rows:
        return
    if rows <= BATCH:
        out.print(_new_table([_row(rec) for rec in sel]))
        return
    _Columns(out, widths).write(sel)


def _new_table(rows: list[tuple[str, ...]]) -> Table:
    from rich.table import Table

    table = Table(show_lines=False)
    for name, wrap in _COLUMNS:
        if wrap:
            table.add_column(name, overflow="fold")
        else:
            table.add_column(name, no_wrap=True)
    for row in rows:
        table.add_row(*row)
    return table


class _Columns:
    """A long selection as the table's columns, written line by line as records are read.

    One rich table holds every row until it is printed (and takes a millisecond a row):
    past :data:`BATCH` rows the same columns are written directly, the short ones as
    wide as their longest cell (measured on the first read), command and cwd sharing
    the rest of the width 3:1 and folded, every cell made printable.
    """

    def __init__(self, out: Console, widths: list[int]) -> None:
        self.file = out.file
        self.colour = out.color_system is not None
        fixed = [max(w, len(name)) for w, (name, _) in zip(widths, _COLUMNS, strict=True)]
        free = max(out.width - sum(w + 3 for w, (_, wrap) in zip(fixed, _COLUMNS, strict=True)
                                   if not wrap) - 6, 20)  # fmt: skip
        fixed[3], fixed[4] = max(free * 3 // 4, 10), max(free - free * 3 // 4, 10)
        self.widths = fixed

    def write(self, sel: Selection) -> None:
        names = [name for name, _ in _COLUMNS]
        self._line(names, "", " ┃ ")
        self.file.write("━" + "━╇━".join("━" * w for w in self.widths) + "━\n")
        widths = self.widths
        write = self.file.write
        for rec in sel:
            cells = _plain(rec)
            level = str(rec.get("response_level", ""))
            style = _ANSI.get(level, "") if self.colour else ""
            if all(len(c) <= w for c, w in zip(cells, widths, strict=True)) and all(
                c.isascii() for c in cells
            ):  # one screen line, one cell per character: no folding, no measuring
                row = [c.ljust(w) for c, w in zip(cells, widths, strict=True)]
                if style:
                    row[1] = f"\x1b[{style}m{cells[1]}\x1b[0m" + row[1][len(cells[1]) :]
                write(" " + " │ ".join(row) + " \n")
            else:
                self._line(list(cells), style, " │ ")

    def _line(self, cells: list[str], style: str, sep: str) -> None:
        from rich.cells import cell_len

        parts = [_fold(c, w) if wrap else [c] for c, w, (_, wrap)
                 in zip(cells, self.widths, _COLUMNS, strict=True)]  # fmt: skip
        for k in range(max(len(p) for p in parts)):
            row = []
            for i, (part, w) in enumerate(zip(parts, self.widths, strict=True)):
                text = part[k] if k < len(part) else ""
                pad = " " * max(w - cell_len(text), 0)
                row.append(f"\x1b[{style}m{text}\x1b[0m{pad}" if i == 1 and style and text
                           else text + pad)  # fmt: skip
            self.file.write(" " + sep.join(row) + " \n")


_ANSI = {"warning": "33", "soft_block": "31", "hard_block": "1;31", "allow": "32"}


def _fold(text: str, width: int) -> list[str]:
    return [text[i : i + width] for i in range(0, len(text), width)] or [""]


def _plain(r: dict[str, object]) -> tuple[str, ...]:
    """The cells of :func:`_row` as plain printable text."""
    via = r.get("via")
    level = str(r.get("response_level", "")) + (f" (via {via})" if via else "")
    command = r.get("command")
    return tuple(
        render.printable(str(c))
        for c in (
            str(r.get("timestamp", "")).replace("T", " ").rstrip("Z"),
            level,
            r.get("rule_id", ""),
            command if isinstance(command, str) else "(not recorded)",
            r.get("cwd", ""),
            str(r.get("session_id", ""))[:8],
            r.get("snapshot") or "",
        )
    )


def _lengths(r: dict[str, object]) -> tuple[int, ...]:
    """How wide each short column's cell of ``r`` is on screen (0 for command and cwd)."""
    via = r.get("via")
    level = len(str(r.get("response_level", ""))) + (len(f" (via {via})") if via else 0)
    return (
        len(str(r.get("timestamp", "")).replace("T", " ").rstrip("Z")),
        level,
        len(str(r.get("rule_id", ""))),
        0,
        0,
        len(str(r.get("session_id", ""))[:8]),
        len(str(r.get("snapshot") or "")),
    )


_COLUMNS = (
    ("time (UTC)", False),
    ("level", False),
    ("rule", False),
    ("command", True),
    ("cwd", True),
    ("session", False),
    ("snapshot", False),
)


def _row(r: dict[str, object]) -> tuple[str, ...]:
    level = str(r.get("response_level", ""))
    style = _STYLES.get(level)
    shown = f"[{style}]{level}[/{style}]" if style else _esc(level)
    if r.get("via"):
        shown += f" [dim](via {_esc(r['via'])})[/dim]"
    command = r.get("command")
    return (
        str(r.get("timestamp", "")).replace("T", " ").rstrip("Z"),
        shown,
        _esc(r.get("rule_id", "")),
        _esc(render.printable(command))
        if isinstance(command, str)
        else "[dim](not recorded)[/dim]",
        _esc(r.get("cwd", "")),
        str(r.get("session_id", ""))[:8],
        _esc(str(r.get("snapshot") or "")),
    )


_STYLES = {"warning": "yellow", "soft_block": "red", "hard_block": "bold red", "allow": "green"}
