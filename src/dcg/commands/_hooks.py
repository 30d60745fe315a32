"""Where each agent keeps its hook settings, and how dcg's entry looks in them.

Shared by ``dcg install``, ``dcg uninstall`` and ``dcg doctor``. JSON settings files are
edited structurally (key order and the file's indentation kept); files dcg owns outright
(Copilot's ``dcg.json``, OpenCode's ``dcg.js``) are written and removed whole.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from typing import TYPE_CHECKING, NamedTuple

# The one list of agents is dcg.agents.AGENTS; install, uninstall and doctor use it from here.
from dcg import agents as _agents
from dcg.agents import AGENTS as AGENTS
from dcg.agents import _spec
from dcg.commands import _hookcmd, _owned
from dcg.errors import DcgError

if TYPE_CHECKING:
    from dcg.agents._spec import Agent

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
old_entry = _hookcmd.old_entry
parse_command = _hookcmd.parse_command

# Every agent's spec (dcg.agents.<name>.spec()), by name.
SPECS: dict[str, Agent] = {name: _agents.spec(name) for name in AGENTS}
# The hook matcher dcg registers, per agent whose layout has one.
MATCHERS = {
    n: s.layout.matcher
    for n, s in SPECS.items()
    if isinstance(s.layout, _spec.Grouped) and s.layout.matcher is not None
}
# The script dcg registers instead of its command, per agent that runs only a script.
WRAPPERS = {n: c.path for n, s in SPECS.items() for c in s.companions if c.runs}


class Paths(NamedTuple):
    user_path: str
    project_path: str


# Where an older dcg wrote a file it owns: install moves it, uninstall removes it too.
LEGACY = {n: Paths(*s.legacy[0]) for n, s in SPECS.items() if s.legacy}

_Owned = (_spec.OwnedJson, _spec.OwnedScript, _spec.OwnedText)


def owned(agent: str) -> bool:
    """Whether dcg writes the agent's settings file whole."""
    return isinstance(SPECS[agent].layout, _Owned)


def wrapper_path(agent: str, settings: str) -> str | None:
    """Where dcg's hook script for ``agent`` goes, beside its ``settings``; None: no script."""
    rel = WRAPPERS.get(agent)
    return os.path.normpath(os.path.join(os.path.dirname(settings), rel)) if rel else None


def companions(agent: str, settings: str) -> list[tuple[str, _spec.Companion]]:
    """The files dcg writes beside ``settings`` for ``agent``: (path, companion)."""
    base = os.path.dirname(settings)
    return [(os.path.normpath(os.path.join(base, c.path)), c) for c in SPECS[agent].companions]


wrapper_text = _owned.script_text
wrapper_command = _owned.script_command


def legacy_path(agent: str, *, home: str, cwd: str, project: bool) -> str | None:
    """The older location of a dcg-owned file for ``agent``, None when it has none."""
    spec = LEGACY.get(agent)
    if spec is None:
        return None
    return os.path.join(cwd, spec.project_path) if project else os.path.join(home, spec.user_path)


def settings_path(agent: str, *, home: str, cwd: str, project: bool) -> str:
    """The agent's settings file in your home or the project; DcgError where it reads none."""
    spec = SPECS[agent]
    rel = spec.project_path if project else spec.user_path
    if rel is None:
        where = "a project's" if project else "your own"
        raise DcgError(f"{spec.title} reads no hooks from {where} settings")
    return os.path.join(cwd, rel) if project else os.path.join(home, rel)


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
    """The hook group (or flat hook object, or rule) dcg adds to the agent's event list."""
    layout = SPECS[agent].layout
    if isinstance(layout, _spec.Grouped):
        hook = {k: command if k == "command" else v for k, v in layout.hook.items()}
        group: dict[str, object] = {} if layout.matcher is None else {"matcher": layout.matcher}
        group["hooks"] = [hook]
        return group
    if isinstance(layout, _spec.Flat):
        return {k: command if k == "command" else v for k, v in layout.hook.items()}
    raise ValueError(agent)


def _rules(agent: str, command: str) -> list[dict[str, object]]:
    layout = SPECS[agent].layout
    assert isinstance(layout, _spec.Rules)
    return [{k: command if v == _spec.COMMAND else v for k, v in r.items()} for r in layout.rules]


def new_file(agent: str) -> dict[str, object]:
    """What a settings file dcg creates holds besides dcg's entry."""
    layout = SPECS[agent].layout
    if isinstance(layout, _spec.Flat):
        return json.loads(json.dumps(layout.new_file))  # type: ignore[no-any-return]
    return {} if isinstance(layout, _spec.Rules) else {"hooks": {}}


def registered(agent: str, data: dict[str, object]) -> list[tuple[str | None, str]]:
    """``(matcher, command)`` of every dcg hook in ``data`` (matcher None: no matcher field;
    for a rules layout, the rule's tool)."""
    layout = SPECS[agent].layout
    found: list[tuple[str | None, str]] = []
    if isinstance(layout, _spec.Rules):
        for rule in _rule_list(layout, data):
            if isinstance(rule, dict) and is_dcg_command(rule.get("to")):
                found.append((str(rule.get("tool", "")), str(rule["to"])))
        return found
    for event in events_of(agent)[:1]:  # the shell event: every layout has one
        for group in _event_list(data, event):
            if not isinstance(group, dict):
                continue
            if isinstance(layout, _spec.Grouped):
                matcher = group.get("matcher")
                for hook in group.get("hooks") or ():
                    if isinstance(hook, dict) and is_dcg_command(hook.get("command")):
                        found.append((matcher if isinstance(matcher, str) else "", hook["command"]))
            elif is_dcg_command(group.get("command")):
                matcher = group.get("matcher")
                found.append((matcher if isinstance(matcher, str) else None, group["command"]))
    return found


def _rule_list(layout: _spec.Rules, data: dict[str, object]) -> list[object]:
    rules = data.get(layout.key)
    return rules if isinstance(rules, list) else []


def _event_list(data: dict[str, object], event: str) -> list[object]:
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return []
    events = hooks.get(event)
    return events if isinstance(events, list) else []


def events_of(agent: str) -> tuple[str, ...]:
    layout = SPECS[agent].layout
    if isinstance(layout, _spec.Flat):
        return (layout.event, *layout.extra_events)
    if isinstance(layout, _spec.Grouped):
        return (layout.event,)
    return ()


def add(agent: str, data: dict[str, object], command: str) -> list[str]:
    """Merge dcg's entries into ``data`` in place; the changes made, empty when none."""
    layout = SPECS[agent].layout
    if isinstance(layout, _spec.Rules):
        return _add_rules(agent, layout, data, command)
    hooks = data.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise DcgError(f'"hooks" is not an object in the {agent} settings; fix it first')
    changes: list[str] = []
    for event in events_of(agent):
        changes += _add_event(agent, hooks, event, command)
    return changes


def _add_rules(agent: str, layout: _spec.Rules, data: dict[str, object], command: str) -> list[str]:
    rules = data.setdefault(layout.key, [])
    if not isinstance(rules, list):
        raise DcgError(f'"{layout.key}" is not a list in the {agent} settings; fix it first')
    mine = [r for r in rules if isinstance(r, dict) and is_dcg_command(r.get("to"))]
    wanted = _rules(agent, command)
    if mine == wanted and rules[: len(mine)] == mine:
        return []
    kept = [r for r in rules if not (isinstance(r, dict) and is_dcg_command(r.get("to")))]
    # The first matching rule decides: dcg's rules go before every rule of yours.
    rules[:] = [*wanted, *kept]
    if mine:
        return [f"dcg's rules -> first, delegating to {command!r}"]
    return [f"added {layout.key} rules delegating to {command}"]


def _add_event(agent: str, hooks: dict[str, object], event: str, command: str) -> list[str]:
    layout = SPECS[agent].layout
    events = hooks.setdefault(event, [])
    if not isinstance(events, list):
        raise DcgError(f'"hooks.{event}" is not a list; fix it first')
    changes: list[str] = []
    for group in events:
        if not isinstance(group, dict):
            continue
        if isinstance(layout, _spec.Grouped):
            hooks_of = [h for h in group.get("hooks") or () if isinstance(h, dict)]
            mine = [h for h in hooks_of if is_dcg_command(h.get("command"))]
            if not mine:
                continue
            for hook in mine:
                if hook.get("command") != command:
                    changes.append(f"hook command {hook.get('command')!r} -> {command!r}")
                    hook["command"] = command
                for key in layout.required:
                    if hook.get(key) != layout.hook[key]:
                        changes.append(f"{key} {hook.get(key)!r} -> {layout.hook[key]!r}")
                        hook[key] = layout.hook[key]
            if not covers(agent, group.get("matcher")):
                changes.append(f"matcher {group.get('matcher')!r} -> {layout.matcher!r}")
                group["matcher"] = layout.matcher
            return changes
        if is_dcg_command(group.get("command")):
            if group["command"] != command:
                changes.append(f"hook command {group['command']!r} -> {command!r}")
                group["command"] = command
            assert isinstance(layout, _spec.Flat)
            for key, why in layout.drop.items():
                if key in group:
                    # See the agent's spec: the key must not be there.
                    del group[key]
                    changes.append(why)
            return changes
    events.append(entry(agent, command))
    return [f"added {event} hook: {command}"]


def remove(agent: str, data: dict[str, object]) -> bool:
    """Remove dcg's entries (and containers left empty by that) from ``data`` in place."""
    layout = SPECS[agent].layout
    if isinstance(layout, _spec.Rules):
        rules = _rule_list(layout, data)
        kept = [r for r in rules if not (isinstance(r, dict) and is_dcg_command(r.get("to")))]
        if len(kept) == len(rules):
            return False
        if kept:
            data[layout.key] = kept
        else:
            del data[layout.key]
        return True
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return False
    changed = False
    for event in events_of(agent):
        changed = _remove_event(agent, hooks, event) or changed
    return changed


def _remove_event(agent: str, hooks: dict[str, object], event: str) -> bool:
    grouped = isinstance(SPECS[agent].layout, _spec.Grouped)
    events = hooks.get(event)
    if not isinstance(events, list) or not events:
        return False
    changed = False
    kept: list[object] = []
    for group in events:
        if isinstance(group, dict) and grouped and isinstance(group.get("hooks"), list):
            others = [h for h in group["hooks"] if not _is_dcg_hook(h)]
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
    if not isinstance(SPECS[agent].layout, _spec.Grouped | _spec.TomlTables | _spec.Flat):
        return True
    if matcher in (None, "", "*", ".*"):
        return True
    if not isinstance(matcher, str):
        return False
    try:
        pattern = re.compile(matcher)
    except re.error:
        return False
    return all(pattern.fullmatch(tool) or pattern.search(tool) for tool in SPECS[agent].tools())


def covered(agent: str, data: dict[str, object]) -> bool:
    """Whether the dcg entries in ``data`` make the agent run dcg for all of its tools."""
    layout = SPECS[agent].layout
    found = registered(agent, data)
    if isinstance(layout, _spec.Rules):
        # dcg's rules must come first (the first matching rule decides) and name every tool.
        rules = _rule_list(layout, data)
        first = [
            r for r in rules[: len(found)] if isinstance(r, dict) and is_dcg_command(r.get("to"))
        ]
        wanted = {str(r.get("tool")) for r in layout.rules}
        return len(first) == len(found) and wanted <= {t for t, _ in found}
    return any(covers(agent, matcher) for matcher, _ in found)


def snippet(agent: str, command: str) -> str:
    """What to add to the agent's settings by hand when dcg cannot edit them."""
    layout = SPECS[agent].layout
    if owned(agent):
        return owned_text(agent, command)
    if isinstance(layout, _spec.TomlTables):
        return _owned.table_text(layout, command)
    data = new_file(agent)
    if isinstance(layout, _spec.Rules):
        data[layout.key] = _rules(agent, command)
        return json.dumps(data, indent=2) + "\n"
    hooks = data["hooks"]
    assert isinstance(hooks, dict)
    for event in events_of(agent):
        hooks[event] = [entry(agent, command)]
    return json.dumps(data, indent=2) + "\n"


# --- files dcg owns ----------------------------------------------------------------------


def owned_text(agent: str, command: str) -> str:
    layout = SPECS[agent].layout
    assert isinstance(layout, _Owned)
    return _owned.text(layout, command)


def owned_command(agent: str, text: str) -> str | None:
    """The dcg command a file dcg wrote runs; None when it is not dcg's file."""
    layout = SPECS[agent].layout
    assert isinstance(layout, _Owned)
    return _owned.command_of(layout, text)


def owned_covers(agent: str, text: str) -> bool:
    layout = SPECS[agent].layout
    assert isinstance(layout, _Owned)
    return _owned.covers(layout, text)
