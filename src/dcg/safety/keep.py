"""The keep step: before a matched command is let through, keep what it can destroy.

:func:`keep_line` is called once per command line the graduated response lets run (a
warning, a confirmed soft block, an allow-once) and by the hook for a line that only
writes files (:mod:`dcg.safety.silent`). It plans every match of the line
(:mod:`dcg.safety.plan`) and the files its other commands overwrite
(:mod:`dcg.safety.overwrites`), makes one snapshot of all of it within the budgets, and
returns what was kept; :class:`~dcg.safety.Unkept` when a match cannot be kept (the
caller then stops the command). A failed snapshot leaves nothing behind.
"""

from __future__ import annotations

import os
import time

from dcg.safety import Unkept, dicts, store
from dcg.safety.budget import Budget
from dcg.safety.gitrun import GitFailed, keep_failed
from dcg.safety.settings import format_size

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from dcg.model import Match
    from dcg.safety.argv import Task
    from dcg.safety.settings import Settings
    from dcg.shell.command import Command

# Pruning runs at most this often, and for at most this long, after a keep.
PRUNE_EVERY = 3600.0
PRUNE_TIME = 0.3


class Kept:
    """A snapshot that was made: its id and what it holds."""

    __slots__ = ("bytes", "files", "id", "refs")

    def __init__(self, sid: str, files: int, nbytes: int, refs: int) -> None:
        self.id = sid
        self.files = files
        self.bytes = nbytes
        self.refs = refs

    def what(self) -> str:
        """``3 files, 12 kB and 1 ref``."""
        parts = []
        if self.files:
            parts.append(
                f"{self.files} file{'' if self.files == 1 else 's'}, {format_size(self.bytes)}"
            )
        if self.refs:
            parts.append(f"{self.refs} ref{'' if self.refs == 1 else 's'}")
        return " and ".join(parts) or "the repository's HEAD and index"


def plan(
    strict: Sequence[Match],
    lenient: Sequence[Match],
    commands: Sequence[Command],
    cwd: str,
    line: str,
) -> list[Task]:
    """Every task of the line: the matches of ``strict`` must be kept (:class:`Unkept`
    when one cannot), those of ``lenient`` (approved by a person) are kept where they can
    be, and the files the line's other commands overwrite where git cannot give them back.
    """
    from dcg.safety import overwrites
    from dcg.safety.plan import tasks

    out: list[Task] = []
    matched = {id(m.command) for m in (*strict, *lenient)}
    planned: set[tuple[int, str]] = set()
    for match, must in [*((m, True) for m in strict), *((m, False) for m in lenient)]:
        key = (id(match.command), match.rule.keep)
        if key in planned:
            continue  # the same command matched by two packs' rules of one kind
        planned.add(key)
        try:
            out += tasks(match, cwd, line)
        except Unkept:
            if must:
                raise
    for command in commands:
        if id(command) in matched:
            continue
        try:
            out += overwrites.tasks(command, cwd)
        except Unkept:
            continue  # not a destructive command: nothing to stop, nothing kept
    return out


def keep_line(
    tasks: Sequence[Task],
    settings: Settings,
    *,
    cwd: str,
    command: str,
    rules: Sequence[str],
    via: str,
    now: float | None = None,
    project: str = "",
    interactive: bool = False,
) -> Kept | None:
    """Make one snapshot of ``tasks``; None when there was nothing to keep.

    ``interactive``: a person waits (``dcg undo``), not an agent's hook timeout.
    """
    if not tasks:
        return None
    t = time.time() if now is None else now
    budget = Budget(settings.max_size, settings.max_time, cap=not interactive)
    try:
        sid, snapdir = store.create(t)
    except OSError as exc:
        raise Unkept(f"the snapshot store cannot be written ({exc.strerror or exc})") from None
    items: list[dict[str, object]] = []
    try:
        for task in tasks:
            item = _run(task, snapdir, sid, budget, command)
            if item is not None:
                items.append(item)
    except GitFailed as exc:
        _abandon(snapdir, sid, items)
        raise keep_failed(exc) from None
    except Unkept:
        _abandon(snapdir, sid, items)
        raise
    except OSError as exc:
        _abandon(snapdir, sid, items)
        raise Unkept(f"the snapshot could not be written ({exc.strerror or exc})") from None
    if not items:
        store.discard(snapdir)
        return None
    kept = _totals(sid, items)
    manifest: dict[str, object] = {
        "schema_version": store.SCHEMA_VERSION,
        "id": sid,
        "created": t,
        "project": project or cwd,
        "cwd": cwd,
        "command": command,
        "rules": list(rules),
        "via": via,
        "items": items,
        "files": kept.files,
        "bytes": kept.bytes,
        "refs": kept.refs,
    }
    try:
        store.write_manifest(snapdir, manifest)
    except OSError as exc:
        _abandon(snapdir, sid, items)
        raise Unkept(f"the snapshot could not be written ({exc.strerror or exc})") from None
    maybe_prune(t, settings.keep, None if interactive else budget)
    return kept


def _run(
    task: Task, snapdir: str, sid: str, budget: Budget, command: str
) -> dict[str, object] | None:
    from dcg.safety import filestore, gitsnap, refsnap

    if task.kind == "git":
        assert isinstance(task.scope, gitsnap.Scope)
        return gitsnap.snapshot(
            task.cwd, task.scope, snapdir, sid, budget, f"dcg snapshot {sid}: {command[:200]}"
        )
    if task.kind == "refs":
        assert isinstance(task.scope, refsnap.RefScope)
        return refsnap.snapshot(task.cwd, task.scope, snapdir, sid, budget)
    item = filestore.keep(snapdir, task.paths, budget, link_ok=task.link_ok)
    gone = [p for p in task.absent if not os.path.lexists(p)]
    if gone:
        item["absent"] = gone
    entries = item.get("entries")
    return item if (isinstance(entries, list) and entries) or gone else None


def _totals(sid: str, items: list[dict[str, object]]) -> Kept:
    files = nbytes = refs = 0
    for item in items:
        entries = item.get("entries")
        if item["kind"] == "refs":
            refs += len(dicts(item.get("refs"))) + len(dicts(item.get("stash")))
            logs = item.get("logs")
            entries = logs.get("entries") if isinstance(logs, dict) else None
        if isinstance(entries, list):
            for e in entries:
                if e.get("type", "file") == "file":
                    files += 1
                    nbytes += int(e.get("size") or 0)
    return Kept(sid, files, nbytes, refs)


def _abandon(snapdir: str, sid: str, items: list[dict[str, object]]) -> None:
    """Remove a snapshot that could not be finished, and its refs."""
    roots = {str(i["root"]) for i in items if i.get("root")}
    for root in roots:
        try:
            delete_refs(root, sid)
        except (GitFailed, OSError, Unkept):
            continue
    store.discard(snapdir)


def delete_refs(root: str, sid: str, budget: Budget | None = None) -> None:
    """Delete ``refs/dcg/<sid>/*`` in the repository at ``root``."""
    from dcg.safety.gitrun import Git

    if not os.path.isdir(root):
        return
    git = Git(root, budget)
    names = git.text(["for-each-ref", "--format=%(refname)", f"refs/dcg/{sid}/"]).split()
    if names:
        git.run(
            ["update-ref", "--stdin", "-z"],
            data="".join(f"delete {n}\0\0" for n in names).encode(),
        )


def maybe_prune(now: float, keep: float, budget: Budget | None, force: bool = False) -> int:
    """Remove snapshots past retention (at most once an hour, bounded); how many went."""
    stamp = os.path.join(store.root(), ".prune-stamp")
    try:
        if not force and now - os.stat(stamp).st_mtime < PRUNE_EVERY:
            return 0
    except OSError:
        pass
    from dcg.state import files

    try:
        files.touch(stamp)
    except OSError:
        return 0
    end = time.monotonic() + (PRUNE_TIME if budget is not None else 60.0)
    gone = 0
    for path in store.expired(now, keep):
        if time.monotonic() > end:
            break
        manifest = store.read_manifest(path) or {}
        items = manifest.get("items")
        sid = os.path.basename(path)
        for root in {str(i.get("root")) for i in dicts(items)}:
            try:
                delete_refs(root, sid)
            except (GitFailed, OSError, Unkept):
                continue
        store.discard(path)
        gone += 1
    return gone
