"""``dcg allowlist add|remove|list``: rules, packs or exact commands that bypass graduation."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from dcg import paths, render
from dcg.commands.confirm import _esc, require_terminal
from dcg.errors import DcgError
from dcg.state import allowlist, clock

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TextIO

    from dcg.decision import Response


def main(
    action: str,
    target: str | None = None,
    *,
    command: str | None = None,
    system: bool = False,
    reason: str | None = None,
    expires: str | None = None,
    json_out: bool = False,
    response: Response | None = None,
    stdin: TextIO | None = None,
    now: float | None = None,
) -> int:
    t = time.time() if now is None else now
    path = paths.system_allowlist_file() if system else paths.allowlist_file()
    if action == "list":
        return _list(t, json_out)
    if (target is None) == (command is None):
        raise DcgError("give either a rule id (or pack.id:*) or --command CMD")
    if action == "add":
        require_terminal("allowlist add", response, stdin)
        entry = _entry(target, command, reason, expires, t)
        try:
            allowlist.add(path, entry)
        except OSError as exc:
            raise DcgError(f"cannot write {path}: {exc}") from None
        what = entry.get("rule") or f"command `{entry['command']}`"
        until = f" until {entry['expires_at']}" if "expires_at" in entry else ""
        render.console().print(f"Allowlisted {_esc(what)} in {path}{until}.")
        return 0
    if action == "remove":
        # The same normal form as add, so that the spelling used to add it removes it.
        what = str(target).strip() if target is not None else _segment(str(command))
        try:
            n = allowlist.remove(path, what, command=command is not None, same=_same(what))
        except OSError as exc:
            raise DcgError(f"cannot write {path}: {exc}") from None
        if not n:
            raise DcgError(f"no allowlist entry for {what} in {path}")
        render.console().print(f"Removed {n} entr{'y' if n == 1 else 'ies'} from {path}.")
        return 0
    raise DcgError(f"unknown allowlist action {action!r} (add, remove, list)")


def _entry(
    target: str | None, command: str | None, reason: str | None, expires: str | None, now: float
) -> dict[str, str]:
    entry: dict[str, str] = {}
    if target is not None:
        entry["rule"] = _check_selector(target.strip())
    else:
        entry["command"] = _segment(str(command))
    if reason:
        entry["reason"] = reason
    entry["added_at"] = clock.iso(now)
    if expires:
        try:
            entry["expires_at"] = clock.iso(now + clock.parse_duration(expires))
        except ValueError as exc:
            raise DcgError(str(exc)) from None
    return entry


def _check_selector(selector: str) -> str:
    from dcg.packs import KEYWORDS, load

    pack_id, sep, name = selector.partition(":")
    if not sep or not name:
        raise DcgError(f"{selector!r} is not a rule id: use pack.id:rule-name or pack.id:*")
    if pack_id not in KEYWORDS:
        raise DcgError(f"unknown pack {pack_id!r} (see dcg packs)")
    if name != "*":
        try:
            names = {rule.name for rule in load(pack_id).rules}
        except ImportError:
            return selector
        if name not in names:
            raise DcgError(f"pack {pack_id} has no rule {name!r} (see dcg explain / dcg packs)")
    return selector


def _segment(command: str) -> str:
    """The command an entry keeps: as typed (outer blanks trimmed), once it is known to be
    one simple command the hook can compare (:func:`dcg.state.allowlist.entry_form`)."""
    text = command.strip()
    try:
        from dcg.engine import parse_line

        parsed = parse_line(text, "bash", None)
    except Exception as exc:  # the parser's own errors: tell the user, do not guess
        raise DcgError(f"cannot parse the command: {exc}") from None
    if len(parsed) != 1:
        raise DcgError(
            "an allowlisted command must be one simple command (no ;, &&, | or $(…)); "
            "add each part separately"
        )
    from dcg.approvals import entry_form

    if entry_form(text) is None:
        raise DcgError(
            "an allowlisted command cannot run through a wrapper that changes who runs it, "
            "where or with what environment (sudo, ssh, env, xargs, …): allowlist the "
            "command without it, or the rule"
        )
    return text


def _same(command: str) -> Callable[[str], bool]:
    """Whether an entry's text is the same simple command as ``command``."""
    from dcg.approvals import entry_form

    form = entry_form(command)
    return lambda text: form is not None and entry_form(text) == form


def _list(now: float, json_out: bool) -> int:
    now_iso = clock.iso(now)
    rows: list[dict[str, object]] = []
    sources = (("user", paths.allowlist_file()), ("system", paths.system_allowlist_file()))
    for source, path in sources:
        entries, invalid = allowlist.load((path,), write_cache=False)
        for entry in entries:
            exp = entry.get("expires_at", "")
            rows.append(
                {
                    "scope": source,
                    "rule": entry.get("rule"),
                    "command": entry.get("command"),
                    "reason": entry.get("reason"),
                    "added_at": entry.get("added_at"),
                    "expires_at": exp or None,
                    "active": not exp or exp >= now_iso,
                    "valid": True,
                }
            )
        for bad in invalid:
            # Ignored by the hook: shown with why, never as active.
            rows.append(
                {
                    "scope": source,
                    "rule": bad.get("rule"),
                    "command": bad.get("command"),
                    "reason": None,
                    "added_at": None,
                    "expires_at": None,
                    "active": False,
                    "valid": False,
                    "entry": int(bad.get("index", "0")),
                    "problem": allowlist.describe(bad),
                }
            )
    if json_out:
        import json

        print(json.dumps({"schema_version": 1, "entries": rows}, indent=2))
        return 0
    out = render.console()
    if not rows:
        out.print("The allowlist is empty.")
        return 0
    from rich.table import Table

    table = Table(title="dcg allowlist")
    for col in ("scope", "allows", "reason", "expires", "status"):
        table.add_column(col)
    for r in rows:
        if not r["valid"]:
            status = "[red]invalid, ignored[/red]"
            table.add_row(str(r["scope"]), _esc(str(r["problem"])), "", "", status)
            continue
        allows = str(r["rule"]) if r["rule"] else f"command: {r['command']}"
        status = "[green]active[/green]" if r["active"] else "[dim]expired[/dim]"
        expires = str(r["expires_at"] or "never")
        table.add_row(str(r["scope"]), _esc(allows), _esc(r["reason"] or ""), expires, status)
    out.print(table)
    return 0
