"""``dcg undo``: put a snapshot back, after keeping what that would overwrite.

:func:`plan` compares every item of a snapshot with what is there now; :func:`restore`
first keeps the current state of everything it will overwrite or remove as a snapshot of
its own (``via: "undo"``), so undo never destroys (decisions.md 11.3), then writes. A
snapshot that cannot be made stops the undo before anything is written.
"""

from __future__ import annotations

import os

from dcg.safety import Unkept, dicts, filestore, gitrestore, store, strs
from dcg.safety.gitrun import Git, GitFailed

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.safety.argv import Task
    from dcg.safety.settings import Settings

Item = dict[str, object]


class Change:
    """What putting one item back changes: lines for people, and what to keep first."""

    __slots__ = ("apply", "lines", "tasks")

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.tasks: list[Task] = []
        self.apply: list[tuple[str, Item, object]] = []


def plan(snapdir: str, manifest: dict[str, object]) -> Change:
    """Everything putting ``manifest`` back would change (nothing is written)."""
    from dcg.safety.argv import Task
    from dcg.safety.gitsnap import Scope
    from dcg.safety.refsnap import RefScope

    ch = Change()
    for item in dicts(manifest.get("items")):
        kind = item.get("kind")
        if kind == "git":
            if not os.path.isdir(str(item["root"])):
                ch.lines.append(f"skipped: the repository {item['root']} is gone")
                continue
            d = gitrestore.differences(item)
            if d.empty():
                continue
            root = str(item["root"])
            ch.lines += [f"set {h}" for h in d.head]
            if d.index:
                ch.lines.append(f"reset the index of {root} to the snapshot's")
            ch.lines += [f"write {os.path.join(root, str(e['path']))}" for e in d.entries]
            ch.lines += [f"remove {os.path.join(root, p)}" for p in d.remove]
            ch.lines += [
                f"restore directory {os.path.join(root, str(e['path']))}"
                for e in d.dirs
                if not os.path.isdir(os.path.join(root, str(e["path"])))
            ]
            specs = [":(literal)" + os.path.relpath(p, root) for p in d.paths(root)]
            created = [str(e["path"]) for e in [*d.entries, *d.dirs]]
            ch.tasks.append(
                Task(
                    "git",
                    root,
                    Scope(
                        specs or [":(literal).dcg-nothing"],
                        tracked_all=True,
                        untracked="all",
                        index_head=bool(d.head or d.index),
                        absent=created,
                    ),
                )
            )
            ch.tasks += _in_the_way(d.paths(root), root)
            ch.apply.append(("git", item, d))
        elif kind == "files":
            diffs = filestore.changes(item, snapdir)
            if not diffs:
                continue
            ch.lines += [f"write {p}" for p, e in diffs if e["type"] not in ("dir", "absent")]
            ch.lines += [f"restore directory {p}" for p, e in diffs if e["type"] == "dir"]
            ch.lines += [f"remove {p}" for p, e in diffs if e["type"] == "absent"]
            existing = [p for p, _ in diffs if os.path.lexists(p)]
            created = [p for p, _ in diffs if not os.path.lexists(p)]
            ch.tasks.append(Task("files", "/", paths=existing, link_ok=True, absent=created))
            ch.apply.append(("files", item, diffs))
        elif kind == "refs":
            refs, stash, config = _refs_diff(item)
            logs = item.get("logs")
            log_diffs = filestore.changes(logs, snapdir) if isinstance(logs, dict) else []
            if not (refs or stash or config or log_diffs):
                continue
            ch.lines += [f"set {r['name']} to {str(r['value'])[:12]}" for r in refs]
            ch.lines += [f"put back stash entry {str(s['commit'])[:12]}" for s in stash]
            ch.lines += [f"set config {k}" for k, _ in config]
            ch.lines += [f"write {p}" for p, e in log_diffs if e["type"] == "file"]
            moving = [str(r["name"]) for r in refs]
            if moving or stash:
                ch.tasks.append(
                    Task(
                        "refs", str(item["root"]), RefScope(moving, stash="all" if stash else None)
                    )
                )
            existing = [p for p, _ in log_diffs if os.path.lexists(p)]
            if existing:
                ch.tasks.append(Task("files", "/", paths=existing, link_ok=False))
            ch.apply.append(("refs", item, (refs, stash, config, log_diffs)))
    return ch


def _in_the_way(paths: list[str], root: str) -> list[Task]:
    """Directories that a kept file's path now names: kept whole (git hashes files only)."""
    from dcg.safety.argv import Task

    dirs = [p for p in paths if os.path.isdir(p) and not os.path.islink(p)]
    return [Task("files", root, paths=dirs, link_ok=True)] if dirs else []


def _refs_diff(item: Item) -> tuple[list[Item], list[Item], list[list[str]]]:
    root = str(item["root"])
    if not os.path.isdir(root):
        return [], [], []
    git = Git(root)
    refs = []
    for r in dicts(item.get("refs")):
        try:
            now = git.text(
                ["rev-parse", "-q", "--verify", "--end-of-options", str(r["name"])], ok=(0, 1)
            )
        except GitFailed:
            now = ""
        if now.strip() != r["value"]:
            refs.append(r)
    from dcg.safety.refsnap import stash_entries

    present = {s["commit"] for s in stash_entries(git)}
    stash = [s for s in dicts(item.get("stash")) if s["commit"] not in present]
    config = []
    raw = item.get("config")
    pairs = [strs(p) for p in raw] if isinstance(raw, list) else []
    for key, value in (p for p in pairs if len(p) == 2):
        try:
            have = git.text(["config", "--get", key], ok=(0, 1)).strip()
        except GitFailed:
            have = ""
        if have != value:
            config.append([key, value])
    return refs, stash, config


def restore(
    snapdir: str, manifest: dict[str, object], settings: Settings, *, now: float, cwd: str
) -> tuple[Change, str | None]:
    """Keep the current state, then put ``manifest`` back; ``(changes, id of the kept state)``."""
    from dcg.safety.keep import keep_line
    from dcg.safety.settings import Settings as S

    ch = plan(snapdir, manifest)
    if not ch.apply:
        return ch, None
    # Undo is asked for by a person or an agent: no size budget, a generous time one.
    undo_settings = S(True, 1 << 62, 600.0, settings.keep)
    try:
        kept = keep_line(
            ch.tasks,
            undo_settings,
            cwd=cwd,
            command=f"dcg undo {manifest.get('id')}",
            rules=[],
            via="undo",
            now=now,
            project=str(manifest.get("project") or cwd),
            interactive=True,
        )
    except Unkept as exc:
        raise Unkept(f"dcg undo keeps what it overwrites first, and could not: {exc}") from None
    for kind, item, data in ch.apply:
        if kind == "git":
            assert isinstance(data, gitrestore.Diff)
            gitrestore.apply(item, data)
        elif kind == "files":
            _apply_files(item, data, snapdir)  # type: ignore[arg-type]
        else:
            _apply_refs(item, data, snapdir)  # type: ignore[arg-type]
    return ch, kept.id if kept else None


def _apply_files(item: Item, diffs: list[tuple[str, Item]], snapdir: str) -> None:
    for path, entry in diffs:
        filestore.put_back(path, entry, snapdir)
    entries = item.get("entries")
    if isinstance(entries, list):
        filestore.set_dir_modes(entries)


def _apply_refs(
    item: Item,
    data: tuple[list[Item], list[Item], list[list[str]], list[tuple[str, Item]]],
    snapdir: str,
) -> None:
    refs, stash, config, log_diffs = data
    git = Git(str(item["root"]))
    for r in refs:
        git.run(["update-ref", str(r["name"]), str(r["value"])])
    if stash:
        _restack(git, item)
    for key, value in config:
        git.run(["config", key, value])
    for path, entry in log_diffs:
        filestore.put_back(path, entry, snapdir)


def _restack(git: Git, item: Item) -> None:
    """The stash as it was recorded, with entries made since on top, in their order.

    ``git stash store`` only adds on top, so the stash is rebuilt: what it holds now was
    kept by the undo's own snapshot first.
    """
    from dcg.safety.refsnap import stash_entries

    recorded = dicts(item.get("stash_all")) or dicts(item.get("stash"))
    known = {s["commit"] for s in recorded}
    newer = [s for s in stash_entries(git) if s["commit"] not in known]
    git.run(["stash", "clear"])
    for s in reversed([*newer, *recorded]):  # oldest first: the newest ends on top
        git.run(["stash", "store", "-m", str(s.get("message") or "dcg undo"), str(s["commit"])])


def latest(project: str) -> tuple[str, dict[str, object]] | None:
    """The newest snapshot of ``project`` that undo itself did not make (``--last`` twice
    puts the same snapshot back twice, which changes nothing the second time)."""
    found = [
        (p, m)
        for p, m in store.snapshots()
        if m.get("project") == project and m.get("via") != "undo"
    ]
    return found[-1] if found else None
