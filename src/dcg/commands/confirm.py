"""``dcg confirm CODE``: a human lets one soft-blocked command through, once."""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING

from dcg import paths, render
from dcg.errors import DcgError
from dcg.state import codes
from dcg.state.clock import format_duration

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import TextIO


def require_terminal(
    action: str, response: Mapping[str, object] | None, stdin: TextIO | None = None
) -> None:
    """Refuse approvals that do not come from a person at a terminal (decisions.md section 4)."""
    if response is not None and response.get("confirm_requires_tty") is False:
        return
    stream = stdin if stdin is not None else sys.stdin
    try:
        tty = stream is not None and stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    if not tty:
        raise DcgError(
            f"dcg {action} must be run by a person in a terminal (stdin is not a terminal)"
        )


def main(
    code: str,
    *,
    response: Mapping[str, object] | None = None,
    stdin: TextIO | None = None,
    now: float | None = None,
) -> int:
    require_terminal("confirm", response, stdin)
    t = time.time() if now is None else now
    want = code.strip().lower()
    if any(r.get("short_code") == want for r in codes.live_codes(paths.allow_once_file(), t)):
        raise DcgError(f"{want} is an allow-once code for a hard block: use dcg allow-once {want}")
    try:
        rec = codes.approve(paths.pending_file(), want, now=t, ttl=codes.CONFIRM_TTL)
    except codes.CodeError as exc:
        raise DcgError(str(exc)) from None
    except OSError as exc:
        raise DcgError(f"cannot update {paths.pending_file()}: {exc}") from None
    out = render.console()
    out.print(f"Confirmed {want}: [bold]{_esc(rec.get('command'))}[/bold]")
    out.print(f"  in {_esc(rec.get('cwd'))}  ({rec.get('rule_id')})")
    out.print(
        "The agent may now re-run exactly this command in that directory, once, "
        f"within {format_duration(codes.CONFIRM_TTL)}."
    )
    return 0


def _esc(value: object) -> str:
    from rich.markup import escape

    return escape(str(value))
