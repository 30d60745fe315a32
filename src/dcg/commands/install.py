"""``dcg install``: register dcg as the shell-command hook of each agent found."""

from __future__ import annotations

import os
import shlex
import sys
import time
from typing import TYPE_CHECKING, NamedTuple

from dcg.agents import _spec
from dcg.commands import _hooks, _owned
from dcg.errors import DcgError

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import TextIO


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


class Plan(NamedTuple):
    """What installing into one file would do: its text before (None: no file) and after."""

    old: str | None
    new: str
    changes: list[str]


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
    """Install into each chosen agent on its own; exit 1 when any of them could not be."""
    out = stdout or sys.stdout
    home = os.path.expanduser("~")
    cwd = cwd or os.getcwd()
    chosen = choose_agents(agents, all_agents=all_agents, home=home)
    fast: tuple[str, str] | None = None
    if exe is None and not project:
        # Your own settings: this interpreter runs the package's entry file directly.
        python, entry = _hooks.interpreter(), _hooks.entry_file()
        if not dry_run:
            out.write(ensure_bytecode(python, entry))
        fast = (python, entry)
    elif exe is None:
        # A project's settings are committed and shared: name dcg as found on PATH.
        exe = "dcg"
    failed: list[str] = []
    changed_any = False
    for agent in chosen:
        try:
            path = _hooks.settings_path(agent, home=home, cwd=cwd, project=project)
        except DcgError as exc:
            if agents:  # named: it cannot be installed where asked
                failed.append(agent)
                out.write(f"{agent}: NOT installed: {exc}\n")
            else:
                out.write(f"{agent}: skipped: {exc}\n")
            continue
        if fast is not None:
            command = _hooks.fast_command(agent, *fast)
        else:
            assert exe is not None
            command = _hooks.hook_command(agent, exe)
        inner = command
        extra = _hooks.companions(agent, path)
        for script, companion in extra:
            if companion.runs:
                # The agent runs only a script file (or a program without arguments): dcg's
                # script runs the hook command, and the settings name the script.
                command = shlex.quote(script)
        try:
            plan = plan_one(agent, path, command)
            side = [(p, c, plan_companion(p, c, inner)) for p, c in extra]
        except DcgError as exc:
            failed.append(agent)
            out.write(f"{agent}: NOT installed: {exc}\n")
            if _hooks.owned(agent):
                out.write(f"  move it away and run install again; dcg's {path} would be:\n")
            else:
                out.write(f"  add this to {path} by hand:\n")
            out.write(_indent(_hooks.snippet(agent, command), "    "))
            continue
        old = _hooks.legacy_path(agent, home=home, cwd=cwd, project=project)
        if old is not None and _remove_owned(agent, old, dry_run=dry_run):
            changed_any = True
            verb = "would remove" if dry_run else "removed"
            out.write(f"{agent}: {verb} the plugin an older dcg wrote: {old}\n")
        for script, companion, side_plan in side:
            if not side_plan.changes:
                continue
            changed_any = True
            out.write(f"{agent}: {'would write' if dry_run else 'wrote'} {script}\n")
            out.write(f"  - {side_plan.changes[0]}\n")
            if not dry_run:
                _apply(agent, script, side_plan._replace(old=None))
                if isinstance(companion.file, _spec.OwnedScript):
                    os.chmod(script, 0o755)
        if not plan.changes:
            out.write(f"{agent}: already installed in {path}\n")
            continue
        changed_any = True
        out.write(f"{agent}: {'would change' if dry_run else 'changed'} {path}\n")
        for change in plan.changes:
            out.write(f"  - {change}\n")
        if dry_run:
            out.write(_indent(diff(path, plan), "    "))
        else:
            _apply(agent, path, plan)
            if isinstance(_hooks.SPECS[agent].layout, _spec.OwnedScript):
                os.chmod(path, 0o755)
        note = _hooks.SPECS[agent].note
        if note:
            out.write(f"  note: {note}\n")
    if project and changed_any and exe is not None:
        out.write(_portable_note(exe))
    if failed:
        done = len(chosen) - len(failed)
        out.write(
            f"{done} of {len(chosen)} agents {'would be ' if dry_run else ''}installed; "
            f"not {', '.join(failed)} (see above)\n"
        )
        return 1
    if not changed_any:
        out.write("nothing to change\n")
    return 0


def ensure_bytecode(python: str, entry: str) -> str:
    """Compile the package once when its bytecode is missing or stale, and write the hook's
    module bundle when it is missing or out of date; what to report."""
    from dcg import bundle
    from dcg.commands import _bytecode

    package = os.path.dirname(entry)
    said = ""
    missing = _bytecode.stale(package)
    if missing:
        error = _bytecode.compile_package(python, package)
        if error is None:
            said = f"compiled {len(missing)} modules of {package} (the hook loads bytecode)\n"
        else:
            said = (
                f"note: could not compile {package} ({error}); every hook call compiles what "
                f"it imports: run `{python} -m compileall -q {package}` as the directory's owner\n"
            )
    if bundle.stale(package):
        try:
            path = bundle.build(package)
        except (OSError, SyntaxError) as exc:
            said += (
                f"note: could not write the hook's module bundle ({exc}); the hook loads its "
                f"modules one file at a time: run `{python} -I -m dcg.bundle` as the "
                "directory's owner\n"
            )
        else:
            said += f"wrote {path} (the hook loads its modules from this one file)\n"
    return said


def _portable_note(exe: str) -> str:
    import shutil

    where = shutil.which(exe) if not os.path.isabs(exe) else exe
    text = (
        f"note: the project files run `{exe}` as found on PATH, so they work on every "
        "machine that checks them out"
    )
    if where is None:
        return text + f"; `{exe}` is not on PATH here: put it there, or the hooks cannot run\n"
    return text + f" (here: {where})\n"


def _indent(text: str, prefix: str) -> str:
    return "".join(prefix + line for line in text.splitlines(keepends=True))


def diff(path: str, plan: Plan) -> str:
    """The unified diff a plan makes to ``path``."""
    import difflib

    old = (plan.old or "").splitlines(keepends=True)
    new = plan.new.splitlines(keepends=True)
    lines = difflib.unified_diff(
        old, new, fromfile=path if plan.old is not None else "/dev/null", tofile=path
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def plan_one(agent: str, path: str, command: str) -> Plan:
    """What installing dcg into one agent's file would change; DcgError when it cannot."""
    layout = _hooks.SPECS[agent].layout
    if _hooks.owned(agent):
        text = _hooks.owned_text(agent, command)
        old = _read(path)
        if old == text:
            return Plan(old, text, [])
        if old is not None and _hooks.owned_command(agent, old) is None:
            raise DcgError(f"{path} exists and was not written by dcg; move it away first")
        return Plan(old, text, [f"wrote {os.path.basename(path)} running {command}"])
    old = _read(path)
    if isinstance(layout, _spec.TomlTables):
        new, changes = _owned.toml_add(layout, old or "", command, path)
        if changes and old is None:
            changes.insert(0, "created the file")
        return Plan(old, new if changes else old or "", changes)
    current = _hooks.read_json(path)
    settings = current or _hooks.JsonFile(_hooks.new_file(agent), "  ", True)
    changes = _hooks.add(agent, settings.data, command)
    if not changes:
        return Plan(old, old or "", [])
    if current is None:
        changes.insert(0, "created the file")
    return Plan(old, _hooks.dump_json(settings), changes)


def plan_companion(path: str, companion: _spec.Companion, command: str) -> Plan:
    """Writing a file dcg keeps beside an agent's settings (a script, a manifest)."""
    text = _owned.text(companion.file, command)
    old = _read(path)
    if old == text:
        return Plan(old, text, [])
    if old is not None and not _owned.is_mine(companion.file, old):
        raise DcgError(f"{path} exists and was not written by dcg; move it away first")
    if isinstance(companion.file, _spec.OwnedScript):
        return Plan(old, text, [f"the agent runs only a script: this script runs {command}"])
    return Plan(
        old, text, [f"the agent needs this file beside its hooks ({os.path.basename(path)})"]
    )


def _apply(agent: str, path: str, plan: Plan) -> None:
    """Write the plan, and note in the manifest what was created (for uninstall)."""
    created_dirs = _missing_dirs(os.path.dirname(path))
    backup = _write(path, plan.new, backup=plan.old is not None)
    entry = manifest_entry(path)
    entry.setdefault("agent", agent)
    if plan.old is None and "created_file" not in entry:
        entry["created_file"] = True
    dirs = entry.setdefault("dirs", [])
    assert isinstance(dirs, list)
    dirs.extend(d for d in created_dirs if d not in dirs)
    if backup:
        backups = entry.setdefault("backups", [])
        assert isinstance(backups, list)
        backups.append(backup)
    save_manifest_entry(path, entry)


def _missing_dirs(directory: str) -> list[str]:
    """``directory`` and its ancestors that do not exist yet, deepest first."""
    out: list[str] = []
    d = os.path.abspath(directory)
    while not os.path.exists(d):
        out.append(d)
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
    return out


# --- what install created, so that uninstall leaves nothing behind ---------------------------


def manifest_path() -> str:
    from dcg import paths

    return os.path.join(paths.config_dir(), "installed.json")


def _load_manifest() -> dict[str, dict[str, object]]:
    import json

    try:
        with open(manifest_path(), encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return {}
    files = data.get("files") if isinstance(data, dict) else None
    return (
        {k: v for k, v in files.items() if isinstance(v, dict)} if isinstance(files, dict) else {}
    )


def _manifest_dirs() -> list[str]:
    import json

    try:
        with open(manifest_path(), encoding="utf-8") as f:
            dirs = json.load(f).get("dirs")
    except (OSError, ValueError, AttributeError):
        return []
    return [str(d) for d in dirs] if isinstance(dirs, list) else []


def manifest_entry(path: str) -> dict[str, object]:
    return dict(_load_manifest().get(os.path.abspath(path), {}))


def save_manifest_entry(path: str, entry: dict[str, object] | None) -> list[str]:
    """Store (or with None drop) the entry of one settings file; never fails the install.

    Returns the directories made for the manifest alone once it is gone (for the caller
    to remove with its own, deepest first).
    """
    import json

    from dcg import paths
    from dcg.state import files

    data = _load_manifest()
    if entry is None:
        data.pop(os.path.abspath(path), None)
    else:
        data[os.path.abspath(path)] = entry
    target = manifest_path()
    made = _manifest_dirs()
    try:
        if not data:
            if os.path.exists(target):
                os.remove(target)
                return made
            return []
        if not os.path.exists(target):
            made = _missing_dirs(paths.config_dir())
        files.ensure_dir(os.path.dirname(target))
        doc = {"schema_version": 1, "files": data, "dirs": made}
        files.write_replace(target, (json.dumps(doc, indent=2) + "\n").encode())
    except OSError:
        pass
    return []


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


def _write(path: str, text: str, *, backup: bool) -> str | None:
    """Replace ``path`` with ``text`` atomically; returns the backup's name when one is made."""
    import shutil

    os.makedirs(os.path.dirname(path), exist_ok=True)
    saved = None
    if backup:
        saved = backup_name(path)
        shutil.copy2(path, saved)
    mode = os.stat(path).st_mode & 0o7777 if os.path.exists(path) else 0o644
    tmp = f"{path}.dcg-tmp-{os.getpid()}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)
    return saved
