"""``dcg uninstall``: remove exactly what ``dcg install`` added."""

from __future__ import annotations

import glob
import os
import sys
from typing import TYPE_CHECKING

from dcg.commands import _hooks
from dcg.commands.install import _read, _remove_owned, _write

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import TextIO


def uninstall(
    agents: Sequence[str] = (),
    *,
    all_agents: bool = False,
    project: bool = False,
    dry_run: bool = False,
    cwd: str | None = None,
    stdout: TextIO | None = None,
) -> int:
    out = stdout or sys.stdout
    home = os.path.expanduser("~")
    cwd = cwd or os.getcwd()
    # Without --agent, look at every agent: a hook left behind is worse than a no-op.
    names = list(agents) if agents else list(_hooks.AGENTS)
    if all_agents:
        names = list(_hooks.AGENTS)
    removed = False
    for agent in names:
        path = _hooks.settings_path(agent, home=home, cwd=cwd, project=project)
        action = _uninstall_one(agent, path, dry_run=dry_run)
        if action:
            removed = True
            out.write(f"{agent}: {'would ' if dry_run else ''}{action} {path}\n")
        old = _hooks.legacy_path(agent, home=home, cwd=cwd, project=project)
        if old is not None and _remove_owned(agent, old, dry_run=dry_run):
            removed = True
            out.write(f"{agent}: {'would ' if dry_run else ''}remove {old}\n")
    if not removed:
        out.write("dcg is not installed for any of these agents\n")
    return 0


def _uninstall_one(agent: str, path: str, *, dry_run: bool) -> str | None:
    text = _read(path)
    if text is None:
        return None
    if _hooks.SPECS[agent].owned:
        if _hooks.owned_command(agent, text) is None:
            return None
        if not dry_run:
            os.remove(path)
        return "remove"
    current = _hooks.read_json(path)
    assert current is not None
    mine = _hooks.registered(agent, current.data)
    if not mine:
        return None
    original = _original(agent, path, text, mine[0][1])
    if original is not None:
        if not dry_run:
            _write(path, original, backup=False)
        return "restore the original of"
    if not _hooks.remove(agent, current.data):
        return None
    if current.data == _hooks.new_file(agent) or not current.data:
        # dcg created this file and nothing else was added since.
        if not dry_run:
            os.remove(path)
        return "remove"
    if not dry_run:
        _write(path, _hooks.dump_json(current), backup=True)
    return "remove the dcg hook from"


def _original(agent: str, path: str, text: str, command: str) -> str | None:
    """The latest backup's bytes when installing into it gives exactly ``text``."""
    backups = sorted(glob.glob(glob.escape(path) + ".dcg-backup-*"), key=os.path.getmtime)
    for backup in reversed(backups):
        old = _read(backup)
        if old is None:
            continue
        settings = _hooks.read_json(backup)
        if settings is None or not _hooks.add(agent, settings.data, command):
            continue
        if _hooks.dump_json(settings) == text:
            return old
        return None
    return None
