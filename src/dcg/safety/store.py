"""The snapshot store: one private directory per snapshot under dcg's state directory.

``<config dir>/snapshots/<id>/manifest.json`` says what was kept (schema below) and
``data/`` holds the copies of files kept outside git. The id is time-sortable (newest
last in name order). A manifest is written once, atomically, after everything it names
exists; a directory without one is a snapshot that was being made or was abandoned and is
removed by :func:`prune`. The store lies inside dcg's config directory, which
self-protection already guards (``core.dcg:write-state``).

Manifest (``schema_version`` 1): ``id``, ``created`` (epoch seconds), ``project`` (the
project root it belongs to), ``cwd``, ``command`` (redacted), ``rules`` (rule ids, empty
for a silent keep), ``via`` (``warning``, ``confirm``, ``allow-once``, ``write``,
``undo``), ``items`` (see :mod:`dcg.safety.gitsnap`, :mod:`dcg.safety.refsnap`,
:mod:`dcg.safety.filestore`) and the totals ``files``, ``bytes``, ``refs``.
"""

from __future__ import annotations

import os

from dcg import jsonfast, paths
from dcg.state import files as statefiles

SCHEMA_VERSION = 1
MANIFEST = "manifest.json"
_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
# An unfinished snapshot older than this was abandoned (a killed hook).
STALE = 600.0


def root() -> str:
    return paths.snapshot_dir()


def new_id(now: float) -> str:
    """Seven characters of seconds and three random ones: sortable, short to type."""
    n = int(now)
    head = "".join(_ALPHABET[(n >> (5 * k)) & 31] for k in range(6, -1, -1))
    r = int.from_bytes(os.urandom(2), "big")
    return head + "".join(_ALPHABET[(r >> (5 * k)) & 31] for k in range(2, -1, -1))


def create(now: float) -> tuple[str, str]:
    """A new private snapshot directory: ``(id, path)``."""
    base = root()
    statefiles.ensure_dir(os.path.dirname(base))
    statefiles.ensure_dir(base)
    while True:
        sid = new_id(now)
        path = os.path.join(base, sid)
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            continue
        return sid, path


def write_manifest(path: str, manifest: dict[str, object]) -> None:
    statefiles.write_replace(os.path.join(path, MANIFEST), jsonfast.dumps(manifest).encode())


def read_manifest(path: str) -> dict[str, object] | None:
    try:
        data = statefiles.read_bytes(os.path.join(path, MANIFEST))
    except OSError:
        return None
    if not data:
        return None
    try:
        found = jsonfast.loads(data.decode("utf-8", "surrogateescape"))
    except (jsonfast.JSONError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def discard(path: str) -> None:
    """Remove a snapshot directory (an unfinished one, or one past retention)."""
    import shutil

    shutil.rmtree(path, ignore_errors=True)


def snapshots() -> list[tuple[str, dict[str, object]]]:
    """``(path, manifest)`` of every finished snapshot, oldest first."""
    base = root()
    try:
        names = os.listdir(base)
    except OSError:
        return []
    found = []
    for name in names:
        path = os.path.join(base, name)
        manifest = read_manifest(path)
        if manifest is not None and manifest.get("id") == name:
            found.append((path, manifest))
    # Ids sort by the second; two snapshots of one second by their creation time.
    found.sort(key=lambda pm: (float(str(pm[1].get("created") or 0)), pm[0]))
    return found


def find(prefix: str) -> list[tuple[str, dict[str, object]]]:
    """The snapshots whose id starts with ``prefix``."""
    p = prefix.strip().lower()
    return [(path, m) for path, m in snapshots() if str(m.get("id")).startswith(p)] if p else []


def expired(now: float, keep: float) -> list[str]:
    """Snapshot directories older than ``keep`` seconds, and abandoned unfinished ones."""
    base = root()
    try:
        names = sorted(os.listdir(base))
    except OSError:
        return []
    out = []
    for name in names:
        path = os.path.join(base, name)
        manifest = read_manifest(path)
        if manifest is None:
            try:
                old = now - os.lstat(path).st_mtime > STALE
            except OSError:
                continue
            if old:
                out.append(path)
        elif now - float(str(manifest.get("created") or 0)) > keep:
            out.append(path)
    return out
