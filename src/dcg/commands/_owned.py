"""Files dcg writes whole for an agent, and dcg's table in a TOML file: written, recognised.

The files are a hooks file, a plugin, a script or a manifest; the TOML table is Kimi
Code's ``[[hooks]]`` entry.

The formats are the agent specs' data (:mod:`dcg.agents._spec`): a JSON document with
the hook command in it, a shell script that runs the command, OpenCode's plugin, and a
``[[hooks]]``-style table appended to a TOML file and removed as exactly that text.
"""

from __future__ import annotations

import json
import re
import shlex
import tomllib

from dcg.agents import _spec
from dcg.commands._hookcmd import is_dcg_command
from dcg.errors import DcgError

_SCRIPT_MARK = "# dcg-hook-wrapper: written by `dcg install`; `dcg uninstall` removes it."


def script_text(command: str) -> str:
    return f'#!/bin/sh\n{_SCRIPT_MARK}\nexec {command} "$@"\n'


def script_command(text: str) -> str | None:
    """The dcg command a script dcg wrote runs; None when it is not dcg's script."""
    if _SCRIPT_MARK not in text:
        return None
    match = re.search(r'^exec (.*) "\$@"$', text, re.M)
    return match.group(1) if match and is_dcg_command(match.group(1)) else None


def _fill(value: object, command: str) -> object:
    if value == _spec.COMMAND:
        return command
    if isinstance(value, dict):
        return {k: _fill(v, command) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, command) for v in value]
    return value


def _slots(value: object, found: object, out: list[object]) -> None:
    """The values of ``found`` where ``value`` (the template) holds the command."""
    if value == _spec.COMMAND:
        out.append(found)
    elif isinstance(value, dict):
        for key, inner in value.items():
            _slots(inner, found.get(key) if isinstance(found, dict) else None, out)
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            ok = isinstance(found, list) and i < len(found)
            _slots(inner, found[i] if ok else None, out)  # type: ignore[index]


def text(file: _spec.Owned, command: str) -> str:
    """What dcg writes for a file of format ``file`` running ``command``."""
    if isinstance(file, _spec.OwnedScript):
        return script_text(command)
    if isinstance(file, _spec.OwnedText):
        return file.text(command)
    return json.dumps(_fill(dict(file.document), command), indent=2) + "\n"


def command_of(file: _spec.Owned, found: str) -> str | None:
    """The dcg command in a file of format ``file`` (its first slot); None when the file
    is not dcg's. A document with no command is dcg's when it is exactly dcg's text."""
    if isinstance(file, _spec.OwnedScript):
        return script_command(found)
    if isinstance(file, _spec.OwnedText):
        return file.command_of(found)
    slots = _json_slots(file, found)
    if slots is None:
        return None
    if not slots:
        return "" if found == text(file, "") else None
    first = slots[0]
    return first if isinstance(first, str) and is_dcg_command(first) else None


def is_mine(file: _spec.Owned, found: str) -> bool:
    return command_of(file, found) is not None


def covers(file: _spec.Owned, found: str) -> bool:
    """Every place of the file that should run dcg does (Copilot: bash and powershell)."""
    if isinstance(file, _spec.OwnedText) and file.covers is not None:
        return is_mine(file, found) and file.covers(found)
    if not isinstance(file, _spec.OwnedJson):
        return is_mine(file, found)
    slots = _json_slots(file, found) or []
    return all(isinstance(s, str) and is_dcg_command(s) for s in slots)


def _json_slots(file: _spec.OwnedJson, found: str) -> list[object] | None:
    try:
        data = json.loads(found)
    except ValueError:
        return None
    out: list[object] = []
    _slots(dict(file.document), data, out)
    return out


# --- dcg's table in a TOML file (Kimi Code's [[hooks]]) ----------------------------------

_TABLE_MARK = "# dcg: written by `dcg install`; `dcg uninstall` removes this table."


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    # A TOML basic string takes JSON's escapes.
    return json.dumps(str(value))


def table_text(layout: _spec.TomlTables, command: str) -> str:
    lines = [_TABLE_MARK, f"[[{layout.key}]]"]
    for key, value in layout.table.items():
        lines.append(f"{key} = {_toml_value(command if value is None else value)}")
    return "\n".join(lines) + "\n"


def _parse(found: str, path: str) -> dict[str, object]:
    try:
        return tomllib.loads(found)
    except tomllib.TOMLDecodeError as exc:
        raise DcgError(f"{path} is not valid TOML ({exc}); fix it first") from None


def toml_registered(
    layout: _spec.TomlTables, found: str, path: str
) -> list[tuple[str | None, str]]:
    """``(matcher, command)`` of every dcg table in the TOML text ``found``."""
    tables = _parse(found, path).get(layout.key)
    out: list[tuple[str | None, str]] = []
    for table in tables if isinstance(tables, list) else ():
        if isinstance(table, dict) and is_dcg_command(table.get("command")):
            matcher = table.get("matcher")
            out.append((matcher if isinstance(matcher, str) else "", str(table["command"])))
    return out


def toml_add(
    layout: _spec.TomlTables, found: str, command: str, path: str
) -> tuple[str, list[str]]:
    """``found`` with dcg's table in it (appended, or its command updated)."""
    data = _parse(found, path)
    if layout.key in data and not isinstance(data[layout.key], list):
        raise DcgError(f"{path}: {layout.key} is not an array of tables; fix it first")
    mine = toml_registered(layout, found, path)
    if mine:
        old = mine[0][1]
        if old == command:
            return found, []
        line = f"command = {_toml_value(old)}"
        if line not in found:
            raise DcgError(f"{path}: dcg's table was edited by hand; remove it and install again")
        new = found.replace(line, f"command = {_toml_value(command)}", 1)
        return new, [f"hook command {old!r} -> {command!r}"]
    sep = "" if not found else ("\n" if found.endswith("\n") else "\n\n")
    return found + sep + table_text(layout, command), [f"added [[{layout.key}]] hook: {command}"]


def toml_remove(layout: _spec.TomlTables, found: str, path: str) -> str | None:
    """``found`` without dcg's table (and the newline install put before it); None when it
    has none. (Uninstall restores the file's backup instead where that gives back exactly
    the file install changed.)"""
    mine = toml_registered(layout, found, path)
    if not mine:
        return None
    block = table_text(layout, mine[0][1])
    for sep in ("\n", ""):
        if sep + block in found:
            at = found.index(sep + block)
            return found[:at] + found[at + len(sep + block) :]
    raise DcgError(f"{path}: dcg's table was edited by hand; remove it by hand")


def quoted(path: str) -> str:
    return shlex.quote(path)
