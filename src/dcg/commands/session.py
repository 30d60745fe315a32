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
    from typing import TextIO

    from dcg.decision import Response


def main(
    action: str | None = None,
    *,
    session_id: str | None = None,
    json_out: bool = False,
    response: Response | None = None,
    stdin: TextIO | None = None,
    now: float | None = None,
) -> int:
    t = time.time() if now is None else now
    directory = paths.session_dir()
    _check(directory)
    wanted = None if session_id is None else resolve(directory, session_id, t)
    if action == "clear":
        require_terminal("session clear", response, stdin)
        if wanted is None:
            n = sessions.clear(directory)
        else:
            if not wanted:
                raise DcgError(f"no session with id {session_id}")
            if len(wanted) > 1 and session_id not in wanted:
                raise DcgError(f"{session_id} matches {len(wanted)} sessions; give more of the id")
            n = sum(sessions.clear(directory, sid) for sid in wanted)
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
        if wanted is None or str(d.get("session_id", "")) in wanted
    ]
    if session_id is not None and not docs and not json_out:
        raise DcgError(f"no live session with id {session_id}")
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


def resolve(directory: str, given: str, now: float) -> list[str]:
    """dcg's ids of the sessions ``given`` names: an agent's own session id (as in its
    payload, whichever agent sent it), dcg's id, or a prefix of dcg's id."""
    from dcg.agents import AGENTS

    ids = [str(d.get("session_id", "")) for d in sessions.all_sessions(directory, now)]
    ids += [i for i in _all_ids(directory) if i not in ids]
    hashed = {sessions.identify(agent, given).session_id for agent in (*AGENTS, "cli")}
    exact = [i for i in ids if i in hashed or i == given]
    if exact:
        return exact
    return [i for i in ids if given and i.startswith(given.lower())]


def _all_ids(directory: str) -> list[str]:
    try:
        names = os.listdir(directory)
    except OSError:
        return []
    return [n[:-5] for n in names if n.endswith(".json") and n != "allowlist-cache.json"]


def _check(directory: str) -> None:
    try:
        if os.path.lexists(directory):
            files.ensure_dir(directory)
    except OSError as exc:
        raise DcgError(str(exc)) from None
