"""Where each agent keeps its hook settings, and how dcg's entry looks in them.

Shared by ``dcg install``, ``dcg uninstall`` and ``dcg doctor``. JSON settings files are
edited structurally (key order and the file's indentation kept); files dcg owns outright
(Copilot's ``dcg.json``, OpenCode's ``dcg.js``) are written and removed whole.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
from typing import NamedTuple

# The one list of agents is dcg.agents.AGENTS; install, uninstall and doctor use it from here.
from dcg.agents import AGENTS as AGENTS
from dcg.commands import _hookcmd
from dcg.errors import DcgError

# The registered command's two forms (install, uninstall and doctor use them from here).
ENTRY_NAME = _hookcmd.ENTRY_NAME
Parsed = _hookcmd.Parsed
dcg_executable = _hookcmd.dcg_executable
entry_file = _hookcmd.entry_file
fast_command = _hookcmd.fast_command
hook_command = _hookcmd.hook_command
interpreter = _hookcmd.interpreter
is_dcg_command = _hookcmd.is_dcg_command
package_of = _hookcmd.package_of
parse_command = _hookcmd.parse_command
registered_entry = _hookcmd.registered_entry


class Spec(NamedTuple):
    """One agent's hook settings: files, the event list dcg goes in, how it is found."""

    user_path: str  # relative to HOME
    project_path: str  # relative to the project directory
    home_dirs: tuple[str, ...]  # any of these under HOME means the agent is installed
    binaries: tuple[str, ...]
    event: str  # key under "hooks"; empty for owned files
    owned: bool  # dcg writes the whole file


_C, _P, _G = "PreToolUse", ".claude/settings.json", ".gemini/settings.json"
SPECS: dict[str, Spec] = {
    "claude": Spec(_P, _P, (".claude",), ("claude",), _C, False),
    "codex": Spec(".codex/hooks.json", ".codex/hooks.json", (".codex",), ("codex",), _C, False),
    "gemini": Spec(
        ".gemini/settings.json",
        ".gemini/settings.json",
        (".gemini",),
        ("gemini",),
        "BeforeTool",
        False,
    ),
    "copilot": Spec(
        ".copilot/hooks/dcg.json", ".github/hooks/dcg.json", (".copilot",), ("copilot",), "", True
    ),
    "cursor": Spec(
        ".cursor/hooks.json",
        ".cursor/hooks.json",
        (".cursor",),
        ("cursor", "cursor-agent"),
        "beforeShellExecution",
        False,
    ),
    "windsurf": Spec(
        ".codeium/windsurf/hooks.json",
        ".windsurf/hooks.json",
        (".codeium/windsurf",),
        ("windsurf",),
        "pre_run_command",
        False,
    ),
    # plugins/ (plural) is the directory OpenCode's v1 docs name; v2 scans it too.
    "opencode": Spec(
        ".config/opencode/plugins/dcg.js",
        ".opencode/plugins/dcg.js",
        (".config/opencode",),
        ("opencode",),
        "",
        True,
    ),
    # Factory Droid: Claude Code's hooks.json layout; its shell tool is `Execute`.
    "factory": Spec(
        ".factory/hooks.json", ".factory/hooks.json", (".factory",), ("droid",), _C, False
    ),
    # Qwen Code: Gemini CLI's settings layout with Claude Code's PreToolUse event.
    "qwen": Spec(".qwen/settings.json", ".qwen/settings.json", (".qwen",), ("qwen",), _C, False),
    # Auggie (Augment's CLI): Claude Code's layout in settings.json; runs only `.sh` files.
    "auggie": Spec(
        ".augment/settings.json", ".augment/settings.json", (".augment",), ("auggie",), _C, False
    ),
}

# The tool names each agent's matcher must cover for dcg to see every shell command and
# every file-writing tool (a file tool can unhook dcg as well as a shell can).
SHELL_TOOLS: dict[str, tuple[str, ...]] = {
    "claude": ("Bash", "PowerShell", "Write", "Edit", "MultiEdit", "NotebookEdit"),
    "codex": ("Bash", "apply_patch"),
    "gemini": ("run_shell_command", "write_file", "replace"),
    "factory": ("Execute", "Create", "Edit", "MultiEdit", "ApplyPatch"),
    "qwen": ("run_shell_command", "write_file", "edit", "replace"),
    "auggie": ("launch-process", "save-file", "str-replace-editor", "remove-files"),
}
MATCHERS = {
    "claude": "Bash|PowerShell|Write|Edit|MultiEdit|NotebookEdit",
    "codex": "^(Bash|apply_patch)$",
    "gemini": "run_shell_command|write_file|replace",
    "factory": "Execute|Create|Edit|MultiEdit|ApplyPatch",
    "qwen": "^(run_shell_command|write_file|edit|replace)$",
    "auggie": "^(launch-process|save-file|str-replace-editor|remove-files)$",
}

# Agents whose hook command must be a script file: Auggie's docs say the command is the
# path of a `.sh` file. dcg owns a small script there (relative to the settings file's
# directory) that runs `dcg hook`, and registers the script's path.
WRAPPERS = {"auggie": "hooks/dcg-hook.sh"}
_WRAPPER_MARK = "# dcg-hook-wrapper: written by `dcg install`; `dcg uninstall` removes it."


def wrapper_path(agent: str, settings: str) -> str | None:
    """Where dcg's hook script for ``agent`` goes, beside its ``settings``; None: no script."""
    rel = WRAPPERS.get(agent)
    return os.path.join(os.path.dirname(settings), rel) if rel else None


def wrapper_text(command: str) -> str:
    return f'#!/bin/sh\n{_WRAPPER_MARK}\nexec {command} "$@"\n'


def wrapper_command(text: str) -> str | None:
    """The dcg command a script dcg wrote runs; None when it is not dcg's script."""
    if _WRAPPER_MARK not in text:
        return None
    match = re.search(r'^exec (.*) "\$@"$', text, re.M)
    return match.group(1) if match and is_dcg_command(match.group(1)) else None


# Where an older dcg wrote a file it owns: install moves it, uninstall removes it too.
LEGACY: dict[str, Spec] = {
    "opencode": SPECS["opencode"]._replace(
        user_path=".config/opencode/plugin/dcg.js", project_path=".opencode/plugin/dcg.js"
    ),
}


def legacy_path(agent: str, *, home: str, cwd: str, project: bool) -> str | None:
    """The older location of a dcg-owned file for ``agent``, None when it has none."""
    spec = LEGACY.get(agent)
    if spec is None:
        return None
    return os.path.join(cwd, spec.project_path) if project else os.path.join(home, spec.user_path)


def settings_path(agent: str, *, home: str, cwd: str, project: bool) -> str:
    spec = SPECS[agent]
    return os.path.join(cwd, spec.project_path) if project else os.path.join(home, spec.user_path)


def is_present(agent: str, home: str) -> bool:
    spec = SPECS[agent]
    if any(os.path.isdir(os.path.join(home, d)) for d in spec.home_dirs):
        return True
    return any(shutil.which(b) for b in spec.binaries)


# --- JSON settings files ---------------------------------------------------------------


class JsonFile(NamedTuple):
    data: dict[str, object]
    indent: str
    newline: bool


def read_json(path: str) -> JsonFile | None:
    """The settings in ``path``; None when it does not exist."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        return None
    if not text.strip():
        return JsonFile({}, "  ", True)
    try:
        data = json.loads(text)
    except ValueError as exc:
        if _has_comments(text):
            raise DcgError(
                f"{path} has comments, and dcg edits only plain JSON so as not to lose them"
            ) from None
        raise DcgError(f"{path} is not valid JSON ({exc}); fix it first") from None
    if not isinstance(data, dict):
        raise DcgError(f"{path} does not hold a JSON object; fix it first")
    return JsonFile(data, _indent(text), text.endswith("\n"))


def _has_comments(text: str) -> bool:
    return bool(re.search(r"^\s*//|/\*", re.sub(r'"(?:\\.|[^"\\])*"', '""', text), re.M))


def _indent(text: str) -> str:
    match = re.search(r"\n([ \t]+)\S", text)
    return match.group(1) if match else "  "


def dump_json(file: JsonFile) -> str:
    text = json.dumps(file.data, indent=file.indent, ensure_ascii=False)
    return text + "\n" if file.newline else text


def entry(agent: str, command: str) -> dict[str, object]:
    """The hook group dcg adds to the agent's event list."""
    if agent == "claude":
        return {
            "matcher": MATCHERS[agent],
            "hooks": [{"type": "command", "command": command, "timeout": 10}],
        }
    if agent == "auggie":
        # Auggie's timeout is in milliseconds.
        return {
            "matcher": MATCHERS[agent],
            "hooks": [{"type": "command", "command": command, "timeout": 10000}],
        }
    if agent in ("codex", "factory"):
        return {
            "matcher": MATCHERS[agent],
            "hooks": [{"type": "command", "command": command, "timeout": 10}],
        }
    if agent == "gemini":
        hook = {"name": "dcg", "type": "command", "command": command, "timeout": 5000}
        return {"matcher": MATCHERS[agent], "hooks": [hook]}
    if agent == "qwen":
        # Qwen's timeout is in milliseconds.
        hook = {"type": "command", "command": command, "name": "dcg", "timeout": 10000}
        return {"matcher": MATCHERS[agent], "hooks": [hook]}
    if agent == "cursor":
        # No failClosed: by two third-party descriptions, with failClosed a permission hook
        # that prints nothing blocks — and dcg prints nothing for every command it does not
        # match. Without it, an empty answer is no opinion under either reading; dcg's own
        # failures still answer `permission: deny` (render_error), so nothing relies on it.
        return {"command": command, "timeout": 30}
    if agent == "windsurf":
        return {"command": command, "show_output": True}
    raise ValueError(agent)


def new_file(agent: str) -> dict[str, object]:
    """What a settings file dcg creates holds besides dcg's entry."""
    return {"version": 1, "hooks": {}} if agent == "cursor" else {"hooks": {}}


def registered(agent: str, data: dict[str, object]) -> list[tuple[str | None, str]]:
    """``(matcher, command)`` of every dcg hook in ``data`` (matcher None: no matcher)."""
    found: list[tuple[str | None, str]] = []
    for group in _event_list(agent, data):
        if not isinstance(group, dict):
            continue
        if agent in MATCHERS:
            matcher = group.get("matcher")
            for hook in group.get("hooks") or ():
                if isinstance(hook, dict) and is_dcg_command(hook.get("command")):
                    found.append((matcher if isinstance(matcher, str) else "", hook["command"]))
        elif is_dcg_command(group.get("command")):
            found.append((None, str(group["command"])))
    return found


def _event_list(agent: str, data: dict[str, object]) -> list[object]:
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return []
    events = hooks.get(SPECS[agent].event)
    return events if isinstance(events, list) else []


# Events with no matcher that an agent sends before a file-writing tool runs; dcg is
# registered there too, because a file tool can unhook dcg as well as a shell can.
FILE_EVENTS: dict[str, tuple[str, ...]] = {"windsurf": ("pre_write_code",)}


def events_of(agent: str) -> tuple[str, ...]:
    return (SPECS[agent].event, *FILE_EVENTS.get(agent, ()))


def add(agent: str, data: dict[str, object], command: str) -> list[str]:
    """Merge dcg's entries into ``data`` in place; the changes made, empty when none."""
    hooks = data.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise DcgError(f'"hooks" is not an object in the {agent} settings; fix it first')
    changes: list[str] = []
    for event in events_of(agent):
        changes += _add_event(agent, hooks, event, command)
    return changes


def _add_event(agent: str, hooks: dict[str, object], event: str, command: str) -> list[str]:
    events = hooks.setdefault(event, [])
    if not isinstance(events, list):
        raise DcgError(f'"hooks.{event}" is not a list; fix it first')
    changes: list[str] = []
    for group in events:
        if not isinstance(group, dict):
            continue
        if agent in MATCHERS:
            hooks_of = [h for h in group.get("hooks") or () if isinstance(h, dict)]
            mine = [h for h in hooks_of if is_dcg_command(h.get("command"))]
            if not mine:
                continue
            for hook in mine:
                if hook.get("command") != command:
                    changes.append(f"hook command {hook.get('command')!r} -> {command!r}")
                    hook["command"] = command
            if not covers(agent, group.get("matcher")):
                changes.append(f"matcher {group.get('matcher')!r} -> {MATCHERS[agent]!r}")
                group["matcher"] = MATCHERS[agent]
            return changes
        if is_dcg_command(group.get("command")):
            if group["command"] != command:
                changes.append(f"hook command {group['command']!r} -> {command!r}")
                group["command"] = command
            if agent == "cursor" and "failClosed" in group:
                # See entry(): under one reading failClosed blocks every unmatched command.
                del group["failClosed"]
                changes.append("removed failClosed (empty output must stay no opinion)")
            return changes
    events.append(entry(agent, command))
    return [f"added {event} hook: {command}"]


def remove(agent: str, data: dict[str, object]) -> bool:
    """Remove dcg's entries (and containers left empty by that) from ``data`` in place."""
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return False
    changed = False
    for event in events_of(agent):
        changed = _remove_event(agent, hooks, event) or changed
    return changed


def _remove_event(agent: str, hooks: dict[str, object], event: str) -> bool:
    events = hooks.get(event)
    if not isinstance(events, list) or not events:
        return False
    changed = False
    kept: list[object] = []
    for group in events:
        if isinstance(group, dict) and agent in MATCHERS and isinstance(group.get("hooks"), list):
            others = [
                h
                for h in group["hooks"]
                if not (isinstance(h, dict) and is_dcg_command(h.get("command")))
            ]
            if len(others) != len(group["hooks"]):
                changed = True
                if not others:
                    continue
                group["hooks"] = others
        elif isinstance(group, dict) and is_dcg_command(group.get("command")):
            changed = True
            continue
        kept.append(group)
    if not changed:
        return False
    if kept:
        hooks[event] = kept
    else:
        del hooks[event]
    return True


def _is_dcg_hook(hook: object) -> bool:
    return isinstance(hook, dict) and is_dcg_command(hook.get("command"))


def covers(agent: str, matcher: object) -> bool:
    """Whether a hook ``matcher`` makes the agent run dcg for all of its shell tools."""
    if agent not in SHELL_TOOLS:
        return True
    if matcher in (None, "", "*"):
        return True
    if not isinstance(matcher, str):
        return False
    try:
        pattern = re.compile(matcher)
    except re.error:
        return False
    return all(pattern.fullmatch(tool) or pattern.search(tool) for tool in SHELL_TOOLS[agent])


def snippet(agent: str, command: str) -> str:
    """What to add to the agent's settings by hand when dcg cannot edit them."""
    if SPECS[agent].owned:
        return owned_text(agent, command)
    data = new_file(agent)
    hooks = data["hooks"]
    assert isinstance(hooks, dict)
    for event in (SPECS[agent].event, *FILE_EVENTS.get(agent, ())):
        hooks[event] = [entry(agent, command)]
    return json.dumps(data, indent=2) + "\n"


# --- files dcg owns ----------------------------------------------------------------------


def owned_text(agent: str, command: str) -> str:
    if agent == "copilot":
        hook = {"type": "command", "bash": command, "powershell": command, "timeoutSec": 10}
        return json.dumps({"version": 1, "hooks": {"preToolUse": [hook]}}, indent=2) + "\n"
    if agent == "opencode":
        # The plugin API of the OpenCode installed here (both when it cannot be told).
        from dcg.commands import _opencode

        return _opencode.plugin(shlex.split(command), _opencode.api(_opencode.version()))
    raise ValueError(agent)


def owned_command(agent: str, text: str) -> str | None:
    """The dcg command a file dcg wrote runs; None when it is not dcg's file."""
    if agent == "copilot":
        try:
            data = json.loads(text)
            command = data["hooks"]["preToolUse"][0]["bash"]
        except (ValueError, KeyError, IndexError, TypeError):
            return None
        return command if is_dcg_command(command) else None
    match = re.search(r"^const DCG = (\[.*\]);$", text, re.M)
    if match is None or "dcg-plugin-shim" not in text:
        return None
    try:
        argv = json.loads(match.group(1))
    except ValueError:
        return None
    return shlex.join(argv) if isinstance(argv, list) and argv else None


def owned_covers(agent: str, text: str) -> bool:
    if agent == "copilot":
        try:
            hook = json.loads(text)["hooks"]["preToolUse"][0]
        except (ValueError, KeyError, IndexError, TypeError):
            return False
        return is_dcg_command(hook.get("bash")) and is_dcg_command(hook.get("powershell"))
    return True
