"""``dcg allow-once CODE``: a person allows one hard-blocked command line for 24 hours."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from dcg import render
from dcg.commands.confirm import _esc, approve_code, listing, one_line, require_terminal
from dcg.state import codes
from dcg.state.clock import format_duration

if TYPE_CHECKING:
    from typing import TextIO

    from dcg.decision import Response


def main(
    code: str | None,
    *,
    single_use: bool = False,
    response: Response | None = None,
    stdin: TextIO | None = None,
    now: float | None = None,
) -> int:
    require_terminal("allow-once", response, stdin)
    t = time.time() if now is None else now
    if code is None:
        return listing("allow-once", t, response)
    rec = approve_code("allow-once", code, t, single_use=single_use, response=response)
    out = render.console()
    out.print(
        f"Allowed {_esc(code.strip().lower())}: [bold]{_esc(one_line(rec.get('command')))}[/bold]"
    )
    covered = ", ".join(codes.rules_of(rec))
    out.print(f"  in {_esc(render.printable(str(rec.get('cwd'))))}  ({_esc(covered)})")
    how = "once" if single_use else "any number of times"
    out.print(
        f"This exact command may run in that directory {how} "
        f"within {format_duration(codes.ALLOW_ONCE_TTL)}; anything else on the line is "
        "judged as usual."
    )
    return 0
