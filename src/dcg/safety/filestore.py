"""Copies of files and trees in the snapshot store, and putting them back.

An item ``{"kind": "files", "entries": [...]}`` lists each kept path in walk order
(a directory before what it holds): ``path`` (absolute), ``type`` (``file``, ``dir``,
``link``), ``perm`` (the mode's permission bits), and for a file ``size``, ``mtime`` and
``data`` (its copy, relative to the snapshot directory), for a link ``target``.

A file the command only unlinks (``rm``, ``find -delete``, ``mv`` over it) is kept as a
hard link where the filesystem allows: no bytes are copied, and the content stays as
long as the snapshot does. A file whose content is overwritten in place (``> file``,
``truncate``, ``shred``, ``cp`` over it) is copied, because a hard link would share the
new content. Build output (:mod:`dcg.regenerable`) inside a kept tree is left out.
"""

from __future__ import annotations

import errno
import os
import stat

from dcg.regenerable import is_regenerable_name
from dcg.safety import Unkept

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.safety.budget import Budget

Entry = dict[str, object]
# Entries walked between two looks at the clock.
_TICK = 256


def walk(paths: list[str], budget: Budget | None) -> tuple[list[Entry], int]:
    """The entries below ``paths`` (existing ones only) and the bytes their files hold."""
    out: list[Entry] = []
    total = 0
    seen: set[str] = set()
    stack = list(reversed(paths))
    while stack:
        path = stack.pop()
        if path in seen:
            continue
        seen.add(path)
        if budget is not None and len(out) % _TICK == 0:
            budget.left()
        try:
            st = os.lstat(path)
        except OSError:
            continue
        perm = stat.S_IMODE(st.st_mode)
        if stat.S_ISDIR(st.st_mode):
            out.append({"path": path, "type": "dir", "perm": perm})
            try:
                names = sorted(os.listdir(path))
            except OSError as exc:
                raise Unkept(f"cannot read {path} ({exc.strerror})") from None
            stack.extend(
                os.path.join(path, n) for n in reversed(names) if not is_regenerable_name(n)
            )
        elif stat.S_ISLNK(st.st_mode):
            out.append({"path": path, "type": "link", "perm": perm, "target": os.readlink(path)})
        elif stat.S_ISREG(st.st_mode):
            out.append(
                {"path": path, "type": "file", "perm": perm, "size": st.st_size,
                 "mtime": st.st_mtime}
            )  # fmt: skip
            total += st.st_size
        # Sockets, fifos and devices hold no content to keep.
    return out, total


def copy_file(src: str, dst: str) -> None:
    """Copy ``src``'s bytes to a new private file ``dst`` (never following a link)."""
    fin = os.open(src, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        fout = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        try:
            while True:
                try:
                    n = os.sendfile(fout, fin, None, 1 << 24)
                except OSError as exc:
                    if exc.errno not in (errno.EINVAL, errno.ENOSYS):
                        raise
                    n = _copy_loop(fin, fout)
                    break
                if n == 0:
                    break
        finally:
            os.close(fout)
    finally:
        os.close(fin)


def _copy_loop(fin: int, fout: int) -> int:
    total = 0
    while True:
        chunk = os.read(fin, 1 << 20)
        if not chunk:
            return total
        view = memoryview(chunk)
        while view:
            view = view[os.write(fout, view) :]
        total += len(chunk)


def keep(
    snapdir: str, paths: list[str], budget: Budget, *, link_ok: bool, start: int = 0
) -> dict[str, object]:
    """Keep ``paths`` (files or trees) in ``snapdir``; the item for the manifest."""
    entries, total = walk(paths, budget)
    budget.charge(total)
    data = os.path.join(snapdir, "data")
    os.makedirs(data, mode=0o700, exist_ok=True)
    n = start
    for k, entry in enumerate(entries):
        if entry["type"] != "file":
            continue
        if k % _TICK == 0:
            budget.left()
        n += 1
        while os.path.lexists(os.path.join(data, str(n))):
            n += 1
        rel = f"data/{n}"
        dst = os.path.join(snapdir, rel)
        src = str(entry["path"])
        try:
            if link_ok:
                try:
                    os.link(src, dst, follow_symlinks=False)
                    entry["linked"] = True
                except OSError:
                    copy_file(src, dst)
            else:
                copy_file(src, dst)
        except FileNotFoundError:
            continue  # gone since the walk: nothing left to keep
        except OSError as exc:
            if exc.errno in (errno.ENOSPC, errno.EDQUOT):
                raise Unkept("there is no space left on the disk for a copy") from None
            raise Unkept(f"cannot copy {src} ({exc.strerror})") from None
        entry["data"] = rel
    return {"kind": "files", "entries": [e for e in entries if e["type"] != "file" or "data" in e]}


def _same(entry: Entry, path: str, snapdir: str) -> bool:
    """Whether ``path`` already is what ``entry`` describes (type, content, permissions)."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    kind = entry["type"]
    if kind == "dir":
        return stat.S_ISDIR(st.st_mode)
    if kind == "link":
        return stat.S_ISLNK(st.st_mode) and os.readlink(path) == entry.get("target")
    if not stat.S_ISREG(st.st_mode) or st.st_size != entry.get("size"):
        return False
    if stat.S_IMODE(st.st_mode) != entry.get("perm"):
        return False
    return same_content(path, os.path.join(snapdir, str(entry["data"])))


def same_content(a: str, b: str) -> bool:
    try:
        with open(a, "rb") as fa, open(b, "rb") as fb:
            while True:
                x, y = fa.read(1 << 20), fb.read(1 << 20)
                if x != y:
                    return False
                if not x:
                    return True
    except OSError:
        return False


ABSENT: Entry = {"type": "absent"}


def changes(item: dict[str, object], snapdir: str) -> list[tuple[str, Entry]]:
    """``(path, entry)`` for every kept path that differs from what is there now; an
    entry of type ``absent`` for a path recorded as not existing that now exists."""
    from dcg.safety import dicts, strs

    out = [(str(e["path"]), e) for e in dicts(item.get("entries"))]
    out = [(p, e) for p, e in out if not _same(e, p, snapdir)]
    return out + [(p, ABSENT) for p in strs(item.get("absent")) if os.path.lexists(p)]


def put_back(path: str, entry: Entry, snapdir: str) -> None:
    """Make ``path`` what ``entry`` describes; whatever is in the way was kept before."""
    kind = entry["type"]
    if kind == "absent":
        remove(path)
        return
    parent = os.path.dirname(path)
    os.makedirs(parent, exist_ok=True)
    if kind == "dir":
        if not os.path.isdir(path) or os.path.islink(path):
            remove(path)
            os.mkdir(path, 0o700)
        return  # permissions are set once everything inside is back (set_dir_modes)
    tmp = os.path.join(parent, f".dcg-undo-{os.getpid()}-{os.path.basename(path)}")
    remove(tmp)
    if kind == "link":
        os.symlink(str(entry.get("target")), tmp)
    else:
        copy_file(os.path.join(snapdir, str(entry["data"])), tmp)
        os.chmod(tmp, int(str(entry["perm"])))
        mtime = float(str(entry.get("mtime") or 0))
        if mtime:
            os.utime(tmp, (mtime, mtime))
    if os.path.isdir(path) and not os.path.islink(path):
        remove(path)
    os.replace(tmp, path)


def set_dir_modes(entries: list[Entry]) -> None:
    """Directory permissions, deepest first, after their content is back."""
    for entry in sorted(
        (e for e in entries if e["type"] == "dir"), key=lambda e: -len(str(e["path"]))
    ):
        try:
            os.chmod(str(entry["path"]), int(str(entry["perm"])))
        except OSError:
            continue


def remove(path: str) -> None:
    """Remove a file, link or tree if it is there."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISDIR(st.st_mode):
        import shutil

        shutil.rmtree(path)
    else:
        os.unlink(path)
