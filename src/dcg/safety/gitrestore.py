"""Putting a git snapshot (:mod:`dcg.safety.gitsnap`) back: what differs, then the writes.

:func:`differences` compares the item with the repository as it is now (git hashes the
current files, so nothing is read twice); :func:`apply` moves HEAD back, resets the index
to the recorded tree, writes the kept files byte for byte with their permissions, and
removes what did not exist. Nothing here keeps the current state first: the caller
(:mod:`dcg.safety.restore`) does that before it calls :func:`apply`.
"""

from __future__ import annotations

import os
import stat

from dcg.safety import dicts, strs
from dcg.safety.gitrun import Git, GitFailed

Item = dict[str, object]
Entry = dict[str, object]


class Diff:
    """What putting one git item back would change."""

    __slots__ = ("dirs", "entries", "head", "index", "remove")

    def __init__(self) -> None:
        self.head: list[str] = []  # human lines about HEAD / the branch tip
        self.index = False
        self.entries: list[Entry] = []
        self.remove: list[str] = []
        self.dirs: list[Entry] = []

    def paths(self, root: str) -> list[str]:
        """Absolute paths that exist now and would be overwritten or removed."""
        out = [os.path.join(root, str(e["path"])) for e in self.entries]
        out += [os.path.join(root, p) for p in self.remove]
        return [p for p in out if os.path.lexists(p)]

    def empty(self) -> bool:
        return not (self.head or self.index or self.entries or self.remove or self.dirs)


def _rev(git: Git, name: str) -> str | None:
    try:
        return git.text(["rev-parse", "-q", "--verify", "--end-of-options", name]).strip() or None
    except GitFailed:
        return None


def current_index_tree(git: Git, git_dir: str) -> str | None:
    """The tree of the index as it is now, from a copy (the index itself is not touched)."""
    import tempfile

    index = git.text(["rev-parse", "--git-path", "index"]).strip()
    if not os.path.isabs(index):
        index = os.path.join(git.cwd, index)
    with tempfile.TemporaryDirectory(prefix="dcg-undo-") as tmp:
        copy = os.path.join(tmp, "index")
        if os.path.exists(index):
            from dcg.safety.filestore import copy_file

            copy_file(index, copy)
        try:
            return git.text(["write-tree"], env={"GIT_INDEX_FILE": copy}).strip()
        except GitFailed:
            return None


def _hashes(git: Git, root: str, entries: list[Entry]) -> dict[str, str]:
    """The blob id each existing regular file would have, hashed as its entry was."""
    out: dict[str, str] = {}
    for filters in (False, True):
        paths = [
            str(e["path"])
            for e in entries
            if bool(e.get("filters")) == filters
            and not str(e["mode"]).startswith("12")
            and os.path.isfile(os.path.join(root, str(e["path"])))
            and not os.path.islink(os.path.join(root, str(e["path"])))
        ]
        if not paths:
            continue
        args = ["hash-object", "--stdin-paths"] + ([] if filters else ["--no-filters"])
        shas = git.text(args, data="".join(p + "\n" for p in paths).encode()).split()
        out.update(zip(paths, shas, strict=True))
    return out


def _same(git: Git, root: str, entry: Entry, hashes: dict[str, str]) -> bool:
    path = os.path.join(root, str(entry["path"]))
    try:
        st = os.lstat(path)
    except OSError:
        return False
    if str(entry["mode"]).startswith("12"):
        if not stat.S_ISLNK(st.st_mode):
            return False
        return os.readlink(path).encode("utf-8", "surrogateescape") == blob(git, entry)
    if not stat.S_ISREG(st.st_mode) or stat.S_IMODE(st.st_mode) != entry.get("perm"):
        return False
    return hashes.get(str(entry["path"])) == entry["blob"]


def _objects_present(git: Git, names: list[str]) -> None:
    """Unkept when the snapshot's objects are gone (its ref deleted and pruned): nothing
    is written then, rather than half of it."""
    from dcg.safety import Unkept

    wanted = [n for n in names if n]
    if not wanted:
        return
    out = git.text(["cat-file", "--batch-check"], data="".join(n + "\n" for n in wanted).encode())
    missing = [line.split()[0] for line in out.splitlines() if line.endswith(" missing")]
    if missing:
        raise Unkept(
            f"the snapshot's objects are gone from {git.cwd} ({missing[0][:12]}…): its ref "
            "was deleted and the objects pruned"
        )


def blob(git: Git, entry: Entry) -> bytes:
    """The bytes to write for ``entry`` (through git's filters when it was recorded so)."""
    if entry.get("filters"):
        return git.run(["cat-file", "--filters", f"--path={entry['path']}", str(entry["blob"])])
    return git.run(["cat-file", "blob", str(entry["blob"])])


def differences(item: Item) -> Diff:
    root = str(item["root"])
    git = Git(root)
    d = Diff()
    head = item.get("head")
    if isinstance(head, dict):
        ref, commit = head.get("ref"), head.get("commit")
        now_ref = git.text(["symbolic-ref", "-q", "HEAD"], ok=(0, 1)).strip() or None
        if ref and now_ref != ref:
            d.head.append(f"HEAD back on {str(ref).removeprefix('refs/heads/')}")
        if commit and _rev(git, str(ref) if ref else "HEAD") != commit:
            d.head.append(
                f"{str(ref or 'HEAD').removeprefix('refs/heads/')} back to {str(commit)[:12]}"
            )
    tree = item.get("index_tree")
    if tree and current_index_tree(git, str(item["git_dir"])) != tree:
        d.index = True
    entries = dicts(item.get("entries"))
    _objects_present(git, [str(item.get("tree") or ""), str(tree or "")])
    hashes = _hashes(git, root, entries)
    d.entries = [e for e in entries if not _same(git, root, e, hashes)]
    d.remove = [p for p in strs(item.get("absent")) if os.path.lexists(os.path.join(root, p))]
    for e in dicts(item.get("dirs")):
        path = os.path.join(root, str(e["path"]))
        try:
            same = stat.S_IMODE(os.lstat(path).st_mode) == e["perm"] and os.path.isdir(path)
        except OSError:
            same = False
        if not same:
            d.dirs.append(e)
    return d


def apply(item: Item, d: Diff) -> None:
    from dcg.safety.filestore import remove

    root = str(item["root"])
    git = Git(root)
    head = item.get("head")
    if isinstance(head, dict) and d.head:
        ref, commit = head.get("ref"), head.get("commit")
        if ref:
            if commit:
                git.run(["update-ref", str(ref), str(commit)])
            git.run(["symbolic-ref", "HEAD", str(ref)])
        elif commit:
            git.run(["update-ref", "--no-deref", "HEAD", str(commit)])
    if d.index:
        git.run(["read-tree", str(item["index_tree"])])
    for e in sorted(d.dirs, key=lambda x: len(str(x["path"]))):
        path = os.path.join(root, str(e["path"]))
        if not os.path.isdir(path) or os.path.islink(path):
            remove(path)
            os.makedirs(path, exist_ok=True)
    for entry in d.entries:
        _write(git, root, entry)
    for rel in d.remove:
        remove(os.path.join(root, rel))
    for e in sorted(d.dirs, key=lambda x: -len(str(x["path"]))):
        try:
            os.chmod(os.path.join(root, str(e["path"])), int(str(e["perm"])))
        except OSError:
            continue
    if d.index or d.entries:
        git.run(["update-index", "-q", "--refresh"], ok=(0, 1))


def _write(git: Git, root: str, entry: Entry) -> None:
    from dcg.safety.filestore import remove

    path = os.path.join(root, str(entry["path"]))
    parent = os.path.dirname(path)
    if os.path.lexists(parent) and not os.path.isdir(parent):
        remove(parent)
    os.makedirs(parent, exist_ok=True)
    data = blob(git, entry)
    tmp = os.path.join(parent, f".dcg-undo-{os.getpid()}-{os.path.basename(path)}")
    remove(tmp)
    if str(entry["mode"]).startswith("12"):
        os.symlink(data.decode("utf-8", "surrogateescape"), tmp)
    else:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)
        os.chmod(tmp, int(str(entry["perm"])))
    if os.path.isdir(path) and not os.path.islink(path):
        remove(path)
    os.replace(tmp, path)
