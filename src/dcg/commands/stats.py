"""``dcg stats [--graduation] [--json]``: matches per rule, by level, escalations, confirmations."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from dcg import render
from dcg.commands.confirm import _esc
from dcg.commands.history import Selection
from dcg.state import clock

if TYPE_CHECKING:
    from collections.abc import Iterable

_LEVELS = ("warning", "soft_block", "hard_block")


def compute(records: Iterable[dict[str, object]]) -> list[dict[str, object]]:
    """Per-rule counters, most frequent rule first.

    ``escalations`` counts sessions in which the rule went past a warning;
    ``confirmed`` and ``allowed_once`` count commands let through by a human's code.
    """
    table: dict[str, dict[str, object]] = {}
    escalated: dict[str, set[str]] = {}
    for rec in records:
        rule = str(rec.get("rule_id"))
        row = table.setdefault(
            rule,
            {
                "rule_id": rule,
                "occurrences": 0,
                "warning": 0,
                "soft_block": 0,
                "hard_block": 0,
                "confirmed": 0,
                "allowed_once": 0,
                "escalations": 0,
                "last_seen": "",
            },
        )
        via = rec.get("via")
        if via == "confirm":
            row["confirmed"] = int(str(row["confirmed"])) + 1
        elif via == "allow-once":
            row["allowed_once"] = int(str(row["allowed_once"])) + 1
        else:
            row["occurrences"] = int(str(row["occurrences"])) + 1
            level = str(rec.get("response_level"))
            if level in _LEVELS:
                row[level] = int(str(row[level])) + 1
            if level in ("soft_block", "hard_block"):
                escalated.setdefault(rule, set()).add(str(rec.get("session_id")))
        row["last_seen"] = max(str(row["last_seen"]), str(rec.get("timestamp", "")))
    for rule, sessions in escalated.items():
        table[rule]["escalations"] = len(sessions)
    return sorted(table.values(), key=lambda r: (-int(str(r["occurrences"])), str(r["rule_id"])))


def main(
    *,
    graduation: bool = False,
    window: str = "30d",
    json_out: bool = False,
    now: float | None = None,
) -> int:
    t = time.time() if now is None else now
    with Selection(None, window, None, t) as sel:
        rows = compute(sel)  # one record at a time: memory grows with rules, not records
        seconds = sel.seconds
    if json_out:
        import json

        keys = ("occurrences", *_LEVELS, "confirmed", "allowed_once", "escalations")
        totals = {k: sum(int(str(r[k])) for r in rows) for k in keys}
        doc = {"schema_version": 1, "window_seconds": seconds, "totals": totals, "rules": rows}
        print(json.dumps(doc, indent=2))
        return 0
    out = render.console()
    if not rows:
        out.print(f"No matches in the last {clock.format_duration(seconds)}.")
        return 0
    from rich.table import Table

    table = Table(title=f"dcg matches, last {clock.format_duration(seconds)}")
    cols = ["rule", "matches"]
    if graduation:
        cols += ["warn", "soft", "hard", "escalations", "confirmed", "allow-once"]
    else:
        cols.append("blocked")
    cols.append("last seen (UTC)")
    for col in cols:
        table.add_column(col, justify="left" if col in ("rule", "last seen (UTC)") else "right")
    for r in rows:
        cells = [_esc(r["rule_id"]), str(r["occurrences"])]
        if graduation:
            cells += [str(r[k]) for k in (*_LEVELS, "escalations", "confirmed", "allowed_once")]
        else:
            cells.append(str(int(str(r["soft_block"])) + int(str(r["hard_block"]))))
        cells.append(str(r["last_seen"]))
        table.add_row(*cells)
    out.print(table)
    return 0
