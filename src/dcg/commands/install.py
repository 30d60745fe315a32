"""``dcg install``: register dcg as the shell-command hook of each agent found."""

from __future__ import annotations

import os
import sys
import time
from typing import TYPE_CHECKING

from dcg.commands import _hooks
from dcg.errors import DcgError

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import TextIO

# What the person must do before the hook runs, per agent (printed after each install).
_NOTES = {
    "claude": (
        "Claude Code runs hooks only in a folder whose workspace-trust dialog you accepted "
        "(headless -p runs trust it). Restart running sessions."
    ),
    "codex": (
        "Codex runs a new or changed hook only after you trust it: start codex, open /hooks "
        "and trust the dcg hook. Needed again whenever the hook entry changes (a new dcg path)."
    ),
    "gemini": (
        "Gemini asks you to accept a new or changed project hook (fingerprinted by name and "
        "command) before it runs; user-level hooks run at the next start."
    ),
    "copilot": "Copilot CLI loads .github/hooks/*.json from the working directory at start.",
    "cursor": "Restart Cursor (or reload the window) to load the hook.",
    "windsurf": "Restart Windsurf to load the hook.",
    "opencode": (
        "Restart OpenCode to load the plugin. It is an OpenCode v1 plugin: OpenCode v2 does "
        "not run it (see dcg doctor)."
    ),
    "factory": "Restart droid; check the hook under /hooks.",
    "qwen": "Restart qwen; project settings apply only in a folder you trusted.",
}


def choose_agents(agents: Sequence[str], *, all_agents: bool, home: str) -> list[str]:
    if agents:
        unknown = sorted(set(agents) - set(_hooks.AGENTS))
        if unknown:
            raise DcgError(f"unknown agent {unknown[0]!r} (known: {', '.join(_hooks.AGENTS)})")
        return [a for a in _hooks.AGENTS if a in agents]
    if all_agents:
        return list(_hooks.AGENTS)
    found = [a for a in _hooks.AGENTS if _hooks.is_present(a, home)]
    if not found:
        raise DcgError("no supported agent found; name one with --agent NAME or use --all")
    return found


def install(
    agents: Sequence[str] = (),
    *,
    all_agents: bool = False,
    project: bool = False,
    dry_run: bool = False,
    exe: str | None = None,
    cwd: str | None = None,
    stdout: TextIO | None = None,
) -> int:
    out = stdout or sys.stdout
    home = os.path.expanduser("~")
    cwd = cwd or os.getcwd()
    exe = exe or _hooks.dcg_executable()
    changed_any = False
    for agent in choose_agents(agents, all_agents=all_agents, home=home):
        path = _hooks.settings_path(agent, home=home, cwd=cwd, project=project)
        command = _hooks.hook_command(agent, exe)
        changes = _install_one(agent, path, command, dry_run=dry_run)
        old = _hooks.legacy_path(agent, home=home, cwd=cwd, project=project)
        if old is not None and _remove_owned(agent, old, dry_run=dry_run):
            changes.append(f"removed the plugin an older dcg wrote: {old}")
        verb = "would change" if dry_run else "changed"
        if changes:
            changed_any = True
            out.write(f"{agent}: {verb} {path}\n")
            for change in changes:
                out.write(f"  - {change}\n")
            if agent in _NOTES:
                out.write(f"  note: {_NOTES[agent]}\n")
        else:
            out.write(f"{agent}: already installed in {path}\n")
    if not changed_any:
        out.write("nothing to change\n")
    return 0


def _install_one(agent: str, path: str, command: str, *, dry_run: bool) -> list[str]:
    if _hooks.SPECS[agent].owned:
        text = _hooks.owned_text(agent, command)
        old = _read(path)
        if old == text:
            return []
        if old is not None and _hooks.owned_command(agent, old) is None:
            raise DcgError(f"{path} exists and was not written by dcg; move it away first")
        if not dry_run:
            _write(path, text, backup=old is not None)
        return [f"wrote {os.path.basename(path)} running {command}"]
    current = _hooks.read_json(path)
    settings = current or _hooks.JsonFile(_hooks.new_file(agent), "  ", True)
    changes = _hooks.add(agent, settings.data, command)
    if not changes:
        return []
    if current is None:
        changes.insert(0, "created the file")
    if not dry_run:
        _write(path, _hooks.dump_json(settings), backup=current is not None)
    return changes


def _remove_owned(agent: str, path: str, *, dry_run: bool) -> bool:
    """Delete ``path`` when it is a file dcg wrote for ``agent``."""
    text = _read(path)
    if text is None or _hooks.owned_command(agent, text) is None:
        return False
    if not dry_run:
        os.remove(path)
    return True


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        return None


def backup_name(path: str) -> str:
    stamp = time.strftime("%Y%m%dT%H%M%S")
    name = f"{path}.dcg-backup-{stamp}"
    n = 1
    while os.path.exists(name):
        n += 1
        name = f"{path}.dcg-backup-{stamp}-{n}"
    return name


def _write(path: str, text: str, *, backup: bool) -> None:
    import shutil

    os.makedirs(os.path.dirname(path), exist_ok=True)
    if backup:
        shutil.copy2(path, backup_name(path))
    mode = os.stat(path).st_mode & 0o7777 if os.path.exists(path) else 0o644
    tmp = f"{path}.dcg-tmp-{os.getpid()}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)
