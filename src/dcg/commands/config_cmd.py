"""``dcg config response`` shows the graduation settings; ``dcg config migrate`` adds them.

The hook never rewrites configuration; only ``dcg config migrate`` does, on request.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from dcg import paths, render
from dcg.decision import DEFAULT_RESPONSE
from dcg.errors import DcgError
from dcg.graduation import DEFAULT_HISTORY
from dcg.state import files
from dcg.state.clock import format_duration

if TYPE_CHECKING:
    from collections.abc import Mapping

# The section `dcg config migrate` appends (draft section 11.2): everything commented
# out except the table header, so behaviour only changes when the user uncomments.
MIGRATION_SECTION = """
# Graduated response (added by `dcg config migrate`).
# The default mode is now "standard": a destructive command first gets a warning,
# then needs `dcg confirm <code>` from you, then is blocked. To keep the old
# behaviour of blocking every destructive command at once, uncomment:
[response]
# mode = "paranoid"          # paranoid | strict | standard | lenient
# session_threshold = 2      # warnings per session before a soft block
# history_threshold = 5      # occurrences in history_window before a hard block
# history_window = "24h"
# critical_always_hard = true
# high_minimum_level = "warning"
# show_warnings = true
# quiet_after_threshold = false
# log_warnings = true
"""

NOTICE = (
    "Your user config has no [response] section, so dcg uses the default mode "
    '"standard": warn, then ask for confirmation, then block. To keep blocking every '
    'destructive command at once, set mode = "paranoid" under [response] in {path} '
    "(dcg config migrate adds the section for you, commented out)."
)


def has_response_section(path: str) -> bool:
    """True when the user config exists and has a ``[response]`` table."""
    if not os.path.exists(path):
        return False
    import tomlkit

    try:
        with open(path, encoding="utf-8") as fh:
            doc = tomlkit.parse(fh.read())
    except (OSError, ValueError) as exc:
        raise DcgError(f"cannot read {path}: {exc}") from None
    return "response" in doc


def main(
    action: str,
    *,
    response: Mapping[str, object] | None = None,
    history: Mapping[str, object] | None = None,
    json_out: bool = False,
) -> int:
    if action == "migrate":
        return migrate()
    if action != "response":
        raise DcgError(f"unknown config action {action!r} (response, migrate)")
    resp = {**DEFAULT_RESPONSE, **(response or {})}
    hist = {**DEFAULT_HISTORY, **(history or {})}
    user = paths.user_config()
    notice = None if has_response_section(user) else NOTICE.format(path=user)
    if json_out:
        import json

        doc = {"response": resp, "history": hist, "migration_notice": notice}
        print(json.dumps(doc, indent=2, default=str))
        return 0
    out = render.console()
    from rich.table import Table

    table = Table(title="dcg response configuration (effective)")
    table.add_column("key")
    table.add_column("value")
    for section, values in (("response", resp), ("history", hist)):
        for key, value in values.items():
            if key == "packs":
                for sel, spec in dict(value).items():  # type: ignore[call-overload]
                    table.add_row(f"[{section}.packs.{sel!r}] mode", str(dict(spec).get("mode")))
                continue
            if key in ("history_window", "max_age"):
                value = format_duration(float(str(value)))
            table.add_row(f"{section}.{key}", _toml(value))
    out.print(table)
    if notice:
        out.print()
        out.print(notice, markup=False)
    return 0


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def migrate() -> int:
    """Append the commented ``[response]`` section to the user config (keeping its comments)."""
    import tomlkit

    path = paths.user_config()
    out = render.console()
    if has_response_section(path):
        out.print(f"{path} already has a [response] section; nothing to do.", markup=False)
        return 0
    text = ""
    if os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    new = text + ("\n" if text and not text.endswith("\n") else "") + MIGRATION_SECTION
    try:
        tomlkit.parse(new)
    except ValueError as exc:  # the existing file must already be broken
        raise DcgError(f"cannot migrate {path}: {exc}") from None
    try:
        files.ensure_dir(os.path.dirname(path))
        files.write_replace(path, new.encode())
    except OSError as exc:
        raise DcgError(f"cannot write {path}: {exc}") from None
    out.print(
        f"Added a commented [response] section to {path}. The default mode is standard; "
        'uncomment mode = "paranoid" there to keep blocking at once.',
        markup=False,
    )
    return 0
