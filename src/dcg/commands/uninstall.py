"""``dcg uninstall``: remove exactly what ``dcg install`` added."""

from __future__ import annotations

import glob
import os
import sys
from typing import TYPE_CHECKING

from dcg.agents import _spec
from dcg.commands import _hooks, _owned
from dcg.commands.install import (
    _read,
    _remove_owned,
    _write,
    manifest_entry,
    save_manifest_entry,
)
from dcg.errors import DcgError

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
    failed = []
    for agent in names:
        try:
            path = _hooks.settings_path(agent, home=home, cwd=cwd, project=project)
        except DcgError:
            continue  # the agent reads no hooks there: dcg never wrote any
        try:
            action = _uninstall_one(agent, path, dry_run=dry_run)
        except DcgError as exc:
            failed.append(agent)
            out.write(f"{agent}: NOT uninstalled: {exc}; remove the dcg hook from it by hand\n")
            continue
        if action:
            removed = True
            out.write(f"{agent}: {'would ' if dry_run else ''}{action} {path}\n")
        if action or manifest_entry(path):
            for line in tidy(agent, path, dry_run=dry_run):
                out.write(f"  {line}\n")
        for script, companion in _hooks.companions(agent, path):
            text = _read(script)
            if text is None or not _owned.is_mine(companion.file, text):
                continue
            removed = True
            if not dry_run:
                os.remove(script)
            out.write(f"{agent}: {'would ' if dry_run else ''}remove {script}\n")
            for line in tidy(agent, script, dry_run=dry_run):
                out.write(f"  {line}\n")
        old = _hooks.legacy_path(agent, home=home, cwd=cwd, project=project)
        if old is not None and _remove_owned(agent, old, dry_run=dry_run):
            removed = True
            out.write(f"{agent}: {'would ' if dry_run else ''}remove {old}\n")
    if failed:
        out.write(f"not uninstalled: {', '.join(failed)} (see above)\n")
        return 1
    if not removed:
        out.write("dcg is not installed for any of these agents\n")
    return 0


def tidy(agent: str, path: str, *, dry_run: bool) -> list[str]:
    """Remove what install left beside ``path``: its backups and the directories it made.

    The newest backup of a file the person had before install is kept (it is their
    original) and named; backups install did not record are left and named; directories
    install created go when nothing else is in them.
    """
    entry = manifest_entry(path)
    would = "would " if dry_run else ""
    listed = entry.get("backups")
    recorded = set(listed) if isinstance(listed, list) else set()
    backups = _backups(path)
    keep = None if entry.get("created_file") else _original_backup(agent, backups)
    notes: list[str] = []
    for backup in backups:
        if backup == keep:
            continue
        if backup in recorded:
            if not dry_run:
                os.remove(backup)
            notes.append(f"{would}remove backup {backup}")
        else:
            notes.append(f"left backup {backup} (not made by this install)")
    if keep:
        notes.append(f"kept the backup of your original: {keep}")
    listed_dirs = entry.get("dirs")
    dirs = [str(d) for d in listed_dirs] if isinstance(listed_dirs, list) else []
    if entry and not dry_run:
        dirs += save_manifest_entry(path, None)
    for directory in sorted(set(dirs), key=len, reverse=True):
        if dry_run:
            if os.path.isdir(directory) and _empty_after(directory, path, keep):
                notes.append(f"would remove empty directory {directory}")
            continue
        try:
            os.rmdir(directory)
        except OSError:  # not empty (or already gone): it stays
            continue
        notes.append(f"removed empty directory {directory}")
    return notes


def _original_backup(agent: str, backups: list[str]) -> str | None:
    """The newest backup without dcg in it (the person's own file), else the newest."""
    for backup in reversed(backups):
        text = _read(backup)
        if text is None:
            continue
        if _hooks.owned(agent):
            if _hooks.owned_command(agent, text) is None:
                return backup
            continue
        layout = _hooks.SPECS[agent].layout
        if isinstance(layout, _spec.TomlTables):
            try:
                if not _owned.toml_registered(layout, text, backup):
                    return backup
            except DcgError:
                return backup
            continue
        try:
            settings = _hooks.read_json(backup)
        except DcgError:
            return backup
        if settings is None or not _hooks.registered(agent, settings.data):
            return backup
    return backups[-1] if backups else None


def _backups(path: str) -> list[str]:
    found = glob.glob(glob.escape(path) + ".dcg-backup-*")
    return sorted(found, key=lambda p: (os.path.getmtime(p), p))


def _empty_after(directory: str, path: str, keep: str | None) -> bool:
    """Whether ``directory`` would be empty once ``path`` and its backups are gone."""
    gone = {os.path.abspath(path), *(os.path.abspath(b) for b in _backups(path) if b != keep)}
    for root, _dirs, names in os.walk(directory):
        if any(os.path.join(root, n) not in gone for n in names):
            return False
    return True


def _uninstall_one(agent: str, path: str, *, dry_run: bool) -> str | None:
    text = _read(path)
    if text is None:
        return None
    if _hooks.owned(agent):
        if _hooks.owned_command(agent, text) is None:
            return None
        if not dry_run:
            os.remove(path)
        return "remove"
    layout = _hooks.SPECS[agent].layout
    if isinstance(layout, _spec.TomlTables):
        mine = _owned.toml_registered(layout, text, path)
        if not mine:
            return None
        kept = _original(agent, path, text, mine[0][1])
        restored = kept is not None
        if kept is None:
            kept = _owned.toml_remove(layout, text, path)
        assert kept is not None
        if not dry_run:
            if kept or restored:
                _write(path, kept, backup=False)
            else:
                os.remove(path)
        return (
            "restore the original of"
            if restored
            else ("remove the dcg hook from" if kept else "remove")
        )
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
        # No new backup: only dcg's entries go, and the original's backup is kept.
        _write(path, _hooks.dump_json(current), backup=False)
    return "remove the dcg hook from"


def _original(agent: str, path: str, text: str, command: str) -> str | None:
    """The latest backup's bytes when installing into it gives exactly ``text``."""
    from dcg.commands.install import plan_one

    backups = sorted(glob.glob(glob.escape(path) + ".dcg-backup-*"), key=os.path.getmtime)
    for backup in reversed(backups):
        old = _read(backup)
        if old is None:
            continue
        try:
            if _has_dcg(agent, backup):
                continue  # a backup install made of a file that already had dcg in it
            plan = plan_one(agent, backup, command)
        except DcgError:
            continue
        if not plan.changes:
            continue
        return old if plan.new == text else None
    return None


def _has_dcg(agent: str, path: str) -> bool:
    layout = _hooks.SPECS[agent].layout
    text = _read(path) or ""
    if isinstance(layout, _spec.TomlTables):
        return bool(_owned.toml_registered(layout, text, path))
    settings = _hooks.read_json(path)
    return settings is not None and bool(_hooks.registered(agent, settings.data))
