"""``dcg undo [ID | --last] [--dry-run] [--json]``: list the safety net's snapshots or put one back.

Without an argument it lists the snapshots of the current project (the enclosing
repository root, else the cwd), newest first. With an id (or a unique prefix of one) or
``--last`` it puts that snapshot back byte for byte, after keeping what it overwrites as
a snapshot of its own, so an undo can be undone (``dcg undo <that id>``). An agent may
run it: it destroys nothing.
"""

from __future__ import annotations

import os
import time

from dcg.errors import DcgError
from dcg.state import clock

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

    from dcg.safety.settings import Settings


def _settings(cwd: str) -> Settings:
    from dcg import config
    from dcg.safety.settings import from_config

    return from_config(config.load(cwd).safety_net)


def _kept(m: dict[str, object]) -> str:
    from dcg.safety.settings import format_size

    files, nbytes, refs = (int(str(m.get(k) or 0)) for k in ("files", "bytes", "refs"))
    parts = []
    if files:
        parts.append(f"{files} file{'' if files == 1 else 's'}, {format_size(nbytes)}")
    if refs:
        parts.append(f"{refs} ref{'' if refs == 1 else 's'}")
    return ", ".join(parts) or "HEAD and index"


def _row(m: dict[str, object], now: float) -> dict[str, object]:
    created = float(str(m.get("created") or 0))
    return {
        "id": m.get("id"),
        "created": clock.iso(created),
        "age_seconds": max(0, int(now - created)),
        "command": m.get("command"),
        "rules": m.get("rules") or [],
        "via": m.get("via"),
        "cwd": m.get("cwd"),
        "files": m.get("files") or 0,
        "bytes": m.get("bytes") or 0,
        "refs": m.get("refs") or 0,
        "kept": _kept(m),
    }


def listing(project: str, now: float) -> list[dict[str, object]]:
    """The project's snapshots as rows, newest first."""
    from dcg.safety import store

    rows = [_row(m, now) for _, m in store.snapshots() if m.get("project") == project]
    return rows[::-1]


def _pick(ident: str | None, last: bool, project: str) -> tuple[str, dict[str, object]]:
    from dcg.safety import restore, store

    if last:
        found = restore.latest(project)
        if found is None:
            raise DcgError(f"no snapshot to undo for {project}")
        return found
    assert ident is not None
    hits = store.find(ident)
    if not hits:
        raise DcgError(f"no snapshot {ident!r} (dcg undo lists them)")
    if len(hits) > 1:
        raise DcgError(f"{ident!r} names {len(hits)} snapshots; give more of the id")
    return hits[0]


def main(args: argparse.Namespace) -> int:
    from dcg.paths import project_root
    from dcg.safety import Unkept

    now = time.time()
    cwd = os.getcwd()
    project = project_root(cwd)
    ident: str | None = args.id
    if ident is None and not args.last:
        return _list(project, now, args.json)
    path, manifest = _pick(ident, args.last, project)
    from dcg.safety import restore
    from dcg.safety.gitrun import GitFailed

    try:
        if args.dry_run:
            change = restore.plan(path, manifest)
            return _report(manifest, change.lines, None, args.json, dry_run=True)
        change, kept = restore.restore(path, manifest, _settings(cwd), now=now, cwd=cwd)
    except Unkept as exc:
        raise DcgError(f"cannot undo {manifest.get('id')}: {exc}") from None
    except (OSError, GitFailed) as exc:
        raise DcgError(f"undo of {manifest.get('id')} stopped: {exc}") from None
    return _report(manifest, change.lines, kept, args.json, dry_run=False)


def _report(
    manifest: dict[str, object],
    lines: list[str],
    kept: str | None,
    json_out: bool,
    *,
    dry_run: bool,
) -> int:
    sid = manifest.get("id")
    if json_out:
        import json

        doc = {"id": sid, "dry_run": dry_run, "changes": lines, "kept_before_undo": kept}
        print(json.dumps(doc, indent=2))
        return 0
    if not lines:
        print(f"Nothing to do: the files and refs of snapshot {sid} are already as kept.")
        return 0
    head = "Would" if dry_run else "Did"
    print(f"{head} put back snapshot {sid} ({manifest.get('command')}):")
    for line in lines:
        print(f"  {line}")
    if kept:
        print(f"What was there before is kept as snapshot {kept} (dcg undo {kept} to go back).")
    return 0


def _list(project: str, now: float, json_out: bool) -> int:
    from dcg.safety.keep import maybe_prune

    maybe_prune(now, _settings(project).keep, None)
    rows = listing(project, now)
    if json_out:
        import json

        print(json.dumps({"schema_version": 1, "project": project, "snapshots": rows}, indent=2))
        return 0
    if not rows:
        print(f"No snapshots for {project}.")
        return 0
    from dcg import render
    from dcg.commands.confirm import _esc

    out = render.console()
    from rich.table import Table

    table = Table(title=f"dcg snapshots of {project} (newest first)")
    for col in ("id", "age", "command", "kept"):
        table.add_column(col)
    for r in rows:
        age = clock.format_duration(float(str(r["age_seconds"]))) + " ago"
        via = " (before an undo)" if r["via"] == "undo" else ""
        table.add_row(str(r["id"]), age, _esc(str(r["command"])) + via, _esc(str(r["kept"])))
    out.print(table)
    out.print("Restore one with: dcg undo ID (or dcg undo --last); add --dry-run to preview.")
    return 0
