"""``dcg session [--json]`` shows live sessions and their counters; ``dcg session clear`` resets."""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING

from dcg import paths, render
from dcg.commands.confirm import _esc, require_terminal
from dcg.errors import DcgError
from dcg.state import files
from dcg.state import session as sessions

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import TextIO


def main(
    action: str | None = None,
    *,
    session_id: str | None = None,
    json_out: bool = False,
    response: Mapping[str, object] | None = None,
    stdin: TextIO | None = None,
    now: float | None = None,
) -> int:
    t = time.time() if now is None else now
    directory = paths.session_dir()
    _check(directory)
    if action == "clear":
        require_terminal("session clear", response, stdin)
        n = sessions.clear(directory, session_id)
        if session_id and not n:
            raise DcgError(f"no session with id {session_id}")
        render.console().print(
            f"Cleared {n} session{'s' if n != 1 else ''}: graduation starts again from the first "
            "occurrence (history is kept; see dcg history)."
        )
        return 0
    if action is not None:
        raise DcgError(f"unknown session action {action!r} (clear)")
    current = sessions.identify("shell", None).session_id
    docs = [
        d
        for d in sessions.all_sessions(directory, t)
        if session_id is None or str(d.get("session_id", "")).startswith(session_id)
    ]
    if json_out:
        import json

        for d in docs:
            d["current"] = d.get("session_id") == current
        print(json.dumps({"schema_version": 1, "directory": directory, "sessions": docs}, indent=2))
        return 0
    out = render.console()
    if not docs:
        out.print(f"No live sessions in {directory}.")
        return 0
    from rich.table import Table

    table = Table(title=f"dcg sessions ({directory})")
    for col in ("session", "source", "started", "last active", "rule", "count", "confirmed"):
        table.add_column(col)
    for d in docs:
        sid = str(d.get("session_id", ""))[:12] + (" *" if d.get("session_id") == current else "")
        source = str(d.get("agent") or d.get("source") or "")
        occ = d.get("occurrences")
        ack = d.get("acknowledged") or []
        items = sorted(occ.items()) if isinstance(occ, dict) else []
        first = (sid, source, str(d.get("start_ts")), str(d.get("last_active")))
        if not items:
            table.add_row(*first, "", "", "")
        for i, (rule, count) in enumerate(items):
            head = first if i == 0 else ("",) * 4
            yes = "yes" if isinstance(ack, list) and rule in ack else ""
            table.add_row(*head, _esc(rule), str(count), yes)
    out.print(table)
    return 0


def _check(directory: str) -> None:
    try:
        if os.path.lexists(directory):
            files.ensure_dir(directory)
    except OSError as exc:
        raise DcgError(str(exc)) from None
