"""``dcg config [response]`` shows the effective settings; ``dcg config migrate`` adds them.

Each value is shown with the layer it came from (default, system config, user config,
``DCG_CONFIG`` file, repository ``.dcg.toml``, environment, flag, managed policy) and,
where the organisation's ``managed.toml`` bounds it, how (``at least strict``). The hook
never rewrites configuration; only ``dcg config migrate`` does, on request.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from dcg import paths, render
from dcg.commands.confirm import require_terminal
from dcg.errors import DcgError
from dcg.state import files
from dcg.state.clock import format_duration

if TYPE_CHECKING:
    from typing import TextIO

    from dcg.config import Config

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
    action: str | None,
    *,
    cfg: Config | None = None,
    json_out: bool = False,
    stdin: TextIO | None = None,
) -> int:
    from dcg import config

    cfg = cfg if cfg is not None else config.load(os.getcwd())
    if action == "migrate":
        require_terminal("config migrate", cfg.response, stdin)
        return migrate()
    if action not in (None, "response"):
        raise DcgError(f"unknown config action {action!r} (response, migrate)")
    user = paths.user_config()
    notice = None if has_response_section(user) else NOTICE.format(path=user)
    rows = settings_rows(cfg)
    if json_out:
        import json

        doc = {
            "response": cfg.response.as_dict(),
            "history": dict(cfg.history),
            "hook": dict(cfg.hook),
            "audit": {**cfg.audit, "headers": _header_names(cfg.audit.get("headers"))},
            "safety_net": dict(cfg.safety_net),
            "fixed": dict(cfg.fixed),
            "settings": rows,
            "files": list(cfg.sources),
            "migration_notice": notice,
        }
        print(json.dumps(doc, indent=2, default=str))
        return 0
    out = render.console()
    from rich.table import Table

    table = Table(title="dcg configuration (effective)")
    table.add_column("key")
    table.add_column("value")
    table.add_column("layer")
    table.add_column("from")
    table.add_column("managed policy")
    for row in rows:
        source = str(row["source"])
        layer = str(row["layer"])
        fixed = row.get("fixed")
        table.add_row(
            _esc(str(row["key"])),
            _esc(str(row["value"])),
            "[dim]default[/dim]" if layer == "default" else _esc(layer),
            "" if source == "default" else _esc(source),
            f"[bold]fixed: {_esc(str(fixed))}[/bold]" if fixed else "",
        )
    out.print(table)
    if notice:
        out.print()
        out.print(notice, markup=False)
    return 0


# Fields of the response that are not [response] keys: listed as their own rows.
_INTERNAL = ("packs", "mode_floor", "allowlist_user")


def layer(source: str) -> str:
    """The configuration layer a value's source (file, variable or flag) belongs to."""
    if source == "default":
        return "default"
    if source == paths.managed_file():
        return "managed policy"
    if source == paths.system_config():
        return "system config"
    if source == paths.user_config():
        return "user config"
    if source == os.environ.get("DCG_CONFIG"):
        return "DCG_CONFIG file"
    if source.endswith(".dcg.toml"):
        return "repository"
    if source.startswith("--"):
        return "flag"
    if source.startswith("DCG_"):
        return "environment"
    return "config"


def settings_rows(cfg: Config) -> list[dict[str, object]]:
    """Every setting with its value (as TOML), its source, its layer and what fixed it."""
    rows: list[dict[str, object]] = []
    for section in ("response", "history", "hook", "audit", "safety_net"):
        values = cfg.response.as_dict() if section == "response" else getattr(cfg, section)
        for key, value in values.items():
            if key in _INTERNAL:
                continue
            if key in ("history_window", "max_age") or (section, key) == ("safety_net", "keep"):
                value = format_duration(float(str(value)))
            if key == "headers":
                value = _header_names(value)
            dotted = f"{section}.{key}"
            rows.append(_row(cfg, dotted, _toml(value), cfg.origins.get(dotted, "default")))
        if section == "response":
            rows += mode_rows(cfg)
    rows.append(_packs_row(cfg))
    if "allowlist.user" in cfg.fixed:
        rows.append(_row(cfg, "allowlist.user", "false", paths.managed_file()))
    return rows


def _packs_row(cfg: Config) -> dict[str, object]:
    """The packs on beyond the core and default ones, and the last layer that enabled some."""
    from dcg.packs import CORE, all_ids
    from dcg.packs._defaults import default_packs

    usual = {*CORE, *default_packs(all_ids())}
    extra = [p for p in cfg.packs if p not in usual]
    source = cfg.origins.get("packs.enabled", "default")
    if "packs.enabled" in cfg.fixed and source == "default":
        source = paths.managed_file()
    return _row(cfg, "packs.enabled", _toml(extra), source)


def _row(cfg: Config, dotted: str, value: str, source: str) -> dict[str, object]:
    return {
        "key": dotted,
        "value": value,
        "source": source,
        "layer": layer(source),
        "fixed": cfg.fixed.get(dotted),
    }


def _header_names(value: object) -> list[str]:
    """Header names only: their values are credentials."""
    return sorted(str(k) for k in value) if isinstance(value, dict) else []


def mode_rows(cfg: Config) -> list[dict[str, object]]:
    """The per-pack and per-rule modes (``[response.packs."SEL"] mode``), longest first."""
    table = cfg.response.packs
    out: list[dict[str, object]] = []
    for selector in sorted(table, key=lambda s: (-len(str(s)), str(s))):
        spec = table[selector]
        mode, source = spec.get("mode"), str(spec.get("source", ""))
        kind = "rules" if ":" in str(selector) and not str(selector).endswith(":*") else "packs"
        row = _row(cfg, f'response.{kind}."{selector}".mode', _toml(mode), source or "config")
        if cfg.response.mode_floor is not None:
            row["fixed"] = f"at least {cfg.response.mode_floor}"
        out.append(row)
    return out


def _esc(text: str) -> str:
    from rich.markup import escape

    return escape(text)


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
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
