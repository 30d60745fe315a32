"""``dcg history [RULE] [--window 24h] [--cwd DIR] [--json]``: what dcg matched, and when."""

from __future__ import annotations

import os
import time

from dcg import paths, render
from dcg.commands.confirm import _esc
from dcg.errors import DcgError
from dcg.state import clock
from dcg.state import history as hist


def selected(
    rule_id: str | None, window: str, cwd: str | None, now: float
) -> tuple[list[dict[str, object]], int]:
    """History records matching the filters, oldest first, and the window in seconds."""
    try:
        seconds = clock.parse_duration(window)
    except ValueError as exc:
        raise DcgError(str(exc)) from None
    since = clock.iso(now - seconds)
    scope = os.path.abspath(cwd).rstrip("/") if cwd else None
    out = []
    try:
        recs = list(hist.records(paths.history_file()))
    except OSError as exc:
        raise DcgError(f"cannot read {paths.history_file()}: {exc}") from None
    for rec in recs:
        if str(rec.get("timestamp", "")) < since:
            continue
        if rule_id and not _rule_matches(rule_id, str(rec.get("rule_id"))):
            continue
        if scope is not None:
            rc = str(rec.get("cwd", ""))
            if rc != scope and not rc.startswith(scope + "/"):
                continue
        out.append(rec)
    return out, seconds


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
    recs, seconds = selected(rule_id, window, cwd, t)
    occurrences = sum(1 for r in recs if "via" not in r)
    if json_out:
        import json

        doc = {
            "schema_version": 1,
            "rule_id": rule_id,
            "window_seconds": seconds,
            "cwd": os.path.abspath(cwd) if cwd else None,
            "occurrences": occurrences,
            "records": recs,
        }
        print(json.dumps(doc, indent=2))
        return 0
    out = render.console()
    label = f" for {rule_id}" if rule_id else ""
    head = f"{occurrences} occurrence{'s' if occurrences != 1 else ''}{label} in the last "
    out.print(head + clock.format_duration(seconds) + (f" under {cwd}" if cwd else "") + ".")
    if not recs:
        return 0
    from rich.table import Table

    table = Table(show_lines=False)
    table.add_column("time (UTC)", no_wrap=True)
    table.add_column("level", no_wrap=True)
    table.add_column("rule", no_wrap=True)
    table.add_column("command", overflow="fold")
    table.add_column("cwd", overflow="fold")
    table.add_column("session", no_wrap=True)
    for r in recs:
        level = str(r.get("response_level", ""))
        style = _STYLES.get(level)
        shown = f"[{style}]{level}[/{style}]" if style else _esc(level)
        if r.get("via"):
            shown += f" [dim](via {_esc(r['via'])})[/dim]"
        command = r.get("command")
        table.add_row(
            str(r.get("timestamp", "")).replace("T", " ").rstrip("Z"),
            shown,
            _esc(r.get("rule_id", "")),
            _esc(command) if isinstance(command, str) else "[dim](not recorded)[/dim]",
            _esc(r.get("cwd", "")),
            str(r.get("session_id", ""))[:8],
        )
    out.print(table)
    return 0


_STYLES = {"warning": "yellow", "soft_block": "red", "hard_block": "bold red", "allow": "green"}
