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


def pick(
    path: str, action: str, now: float, stdin: TextIO | None = None, out: TextIO | None = None
) -> str:
    """List the pending items of a codes file and return the code the person picks.

    The agent never reads the code (decisions.md 10.2): the person runs ``dcg confirm``
    (or ``dcg allow-once``) with no code in their own terminal and chooses here.
    """
    t_in = stdin if stdin is not None else sys.stdin
    t_out = out if out is not None else sys.stdout
    pending = [r for r in codes.live_codes(path, now) if not _approved(r)]
    if not pending:
        raise DcgError(f"nothing is waiting for dcg {action}")
    pending.sort(key=lambda r: str(r.get("created_at", "")))
    t_out.write(f"Waiting for dcg {action}:\n")
    for i, rec in enumerate(pending, 1):
        age = format_duration(max(now - _epoch(rec.get("created_at")), 0.0))
        t_out.write(f"  {i}. {_one_line(rec.get('command'))}\n")
        t_out.write(f"     in {rec.get('cwd')}  ({rec.get('rule_id')}, {age} ago)\n")
    t_out.write(f"Which one? [1-{len(pending)}, Enter to cancel]: ")
    t_out.flush()
    answer = t_in.readline().strip()
    if not answer:
        raise DcgError("cancelled: nothing approved")
    if not answer.isdigit() or not 1 <= int(answer) <= len(pending):
        raise DcgError(f"no item {answer!r}: nothing approved")
    return str(pending[int(answer) - 1]["short_code"])


def _approved(rec: Mapping[str, object]) -> bool:
    return rec.get("confirmed_at") is not None or rec.get("activated_at") is not None


def _epoch(iso: object) -> float:
    from dcg.state.clock import parse_iso

    try:
        return parse_iso(str(iso))
    except ValueError:
        return 0.0


def _one_line(command: object, limit: int = 160) -> str:
    one = " ".join(str(command).split())
    return one if len(one) <= limit else one[: limit - 1] + "…"


def main(
    code: str | None,
    *,
    response: Mapping[str, object] | None = None,
    stdin: TextIO | None = None,
    now: float | None = None,
) -> int:
    require_terminal("confirm", response, stdin)
    t = time.time() if now is None else now
    if code is None:
        code = pick(paths.pending_file(), "confirm", t, stdin)
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
