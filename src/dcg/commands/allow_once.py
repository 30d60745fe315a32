"""``dcg allow-once CODE``: a human allows one hard-blocked command for 24 hours."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from dcg import paths, render
from dcg.commands.confirm import _esc, pick, require_terminal
from dcg.errors import DcgError
from dcg.state import codes
from dcg.state.clock import format_duration

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import TextIO


def main(
    code: str | None,
    *,
    single_use: bool = False,
    response: Mapping[str, object] | None = None,
    stdin: TextIO | None = None,
    now: float | None = None,
) -> int:
    require_terminal("allow-once", response, stdin)
    t = time.time() if now is None else now
    if code is None:
        code = pick(paths.allow_once_file(), "allow-once", t, stdin)
    want = code.strip().lower()
    if any(r.get("short_code") == want for r in codes.live_codes(paths.pending_file(), t)):
        raise DcgError(f"{want} is a confirmation code for a soft block: use dcg confirm {want}")
    try:
        rec = codes.approve(
            paths.allow_once_file(),
            want,
            now=t,
            ttl=codes.ALLOW_ONCE_TTL,
            single_use=single_use,
        )
    except codes.CodeError as exc:
        raise DcgError(str(exc)) from None
    except OSError as exc:
        raise DcgError(f"cannot update {paths.allow_once_file()}: {exc}") from None
    out = render.console()
    out.print(f"Allowed {want}: [bold]{_esc(rec.get('command'))}[/bold]")
    out.print(f"  in {_esc(rec.get('cwd'))}  ({rec.get('rule_id')})")
    how = "once" if single_use else "any number of times"
    out.print(
        f"This exact command may run in that directory {how} "
        f"within {format_duration(codes.ALLOW_ONCE_TTL)}."
    )
    return 0
