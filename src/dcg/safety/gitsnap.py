"""Snapshots of a git work tree and index, kept alive under ``refs/dcg/<id>/``.

Made with plumbing only (the index's tree is written from a copy of it, through
``GIT_INDEX_FILE``): the user's index, work tree, HEAD, stash and reflogs are never
touched. Files are hashed as they are on disk (``hash-object --no-filters``), so
line-ending conversion or clean filters cannot change what comes back; tracked files that
did not change are not hashed again, their index blob is recorded instead and comes back
through git's own filters. Refs keep it alive: ``refs/dcg/<id>/tree`` (one flat tree of
the kept blobs, named by their place in the manifest, and of the index as it was) and
``…/head`` (the HEAD a reset moves away from), so ``git gc`` keeps all of it. On the
command's critical path are four git calls (status, hash-object, mktree, update-ref); the
other questions run at the same time as status.

The item: ``{"kind": "git", "root", "git_dir", "ref", "tree", "head": {"ref",
"commit"} | None, "index_tree", "entries": [{"path", "blob", "mode", "perm",
"filters"}], "absent": [paths], "dirs": [{"path", "perm"}]}``; paths relative to
``root``. ``absent`` are tracked paths that did not exist at the time (undo removes them
again); ``head`` and ``index_tree`` are recorded for commands that move HEAD or reset
the index.
"""

from __future__ import annotations

import os
import stat

from dcg.regenerable import is_regenerable_name
from dcg.safety import Unkept
from dcg.safety.gitrun import Git, GitFailed, Running

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from dcg.safety.budget import Budget

EMPTY_TREE_INPUT = b""


class Scope:
    """What a command reaches in a repository.

    ``pathspecs`` None is the whole work tree. ``tracked_all``: every tracked file under
    them is destroyed (``rm -rf``, ``git rm -f``), not only changed ones. ``untracked``:
    ``"no"``, ``"all"`` (not ignored), ``"target"`` (those at paths ``target`` tracks) or
    a list of paths (``git clean -n``'s answer). ``index_head``: HEAD and the index are
    recorded. ``dirs``: absolute directories whose tree of directories is recorded.
    ``changed`` False: changed tracked files are not the command's business (``git
    clean``), so git is not asked about them. ``absent``: paths (relative to the top)
    recorded as not existing when they do not (an undo's own snapshot: what the undo
    creates is removed again when that snapshot is put back). ``perms``: the command
    rewrites unchanged tracked files too (a checkout of paths rewrites those whose stat
    data changed), so those whose permissions are not git's default are kept.
    """

    __slots__ = (
        "absent", "changed", "dirs", "index_head", "pathspecs", "perms", "target",
        "tracked_all", "untracked",
    )  # fmt: skip

    def __init__(
        self,
        pathspecs: Sequence[str] | None = None,
        *,
        tracked_all: bool = False,
        untracked: str | list[str] = "no",
        target: str | None = None,
        index_head: bool = False,
        dirs: Sequence[str] = (),
        changed: bool = True,
        absent: Sequence[str] = (),
        perms: bool = False,
    ) -> None:
        self.pathspecs = list(pathspecs) if pathspecs is not None else None
        self.tracked_all = tracked_all
        self.untracked = untracked
        self.target = target
        self.index_head = index_head
        self.dirs = list(dirs)
        self.changed = changed
        self.absent = list(absent)
        self.perms = perms


_GIT_ENV = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR")


def repo_of(cwd: str, budget: Budget | None) -> tuple[str, str, str] | None:
    """``(top level, git dir, index file)`` of the repository at ``cwd``; None outside one.

    Read from the file system where that is certain (a ``.git`` directory above ``cwd``,
    no variable moving git elsewhere); git is asked otherwise.
    """
    from dcg.gitinfo import work_tree

    top = work_tree(cwd) if os.path.isdir(cwd) else None
    if top is None and not any(os.environ.get(v) for v in _GIT_ENV):
        return None
    if top is not None and not any(os.environ.get(v) for v in _GIT_ENV):
        git_dir = os.path.join(top, ".git")
        if os.path.isfile(os.path.join(git_dir, "HEAD")) and not os.path.islink(git_dir):
            return top, git_dir, os.path.join(git_dir, "index")
    try:
        out = Git(cwd, budget).text(
            ["rev-parse", "--show-toplevel", "--absolute-git-dir", "--git-path", "index"]
        )
    except GitFailed:
        return None
    lines = out.splitlines()
    if len(lines) != 3 or not lines[0]:
        return None
    index = lines[2] if os.path.isabs(lines[2]) else os.path.join(cwd, lines[2])
    return lines[0], lines[1], index


class _Status:
    __slots__ = ("absent", "changed", "head", "head_ref", "untracked")

    def __init__(self) -> None:
        self.head: str | None = None
        self.head_ref: str | None = None
        self.changed: list[str] = []
        self.absent: list[str] = []
        self.untracked: list[str] = []


def _status_args(scope: Scope, with_untracked: bool) -> list[str]:
    args = ["status", "--porcelain=v2", "-z", "--branch", "--no-renames", "--ignore-submodules"]
    args.append("--untracked-files=all" if with_untracked else "--untracked-files=no")
    return args + (["--", *scope.pathspecs] if scope.pathspecs is not None else [])


def _parse_status(text: str) -> _Status:
    st = _Status()
    for rec in text.split("\0"):
        if rec.startswith("# branch.oid "):
            oid = rec[13:]
            st.head = None if oid == "(initial)" else oid
        elif rec.startswith("# branch.head "):
            name = rec[14:]
            st.head_ref = None if name == "(detached)" else f"refs/heads/{name}"
        elif rec.startswith("1 ") or rec.startswith("u "):
            fields = rec.split(" ", 10 if rec[0] == "u" else 8)
            path = fields[-1]
            mode_w = fields[7] if rec[0] == "u" else fields[5]
            if mode_w.startswith("16"):
                continue  # a submodule: its own repository
            (st.changed if mode_w != "000000" else st.absent).append(path)
        elif rec.startswith("? "):
            st.untracked.append(rec[2:])
    return st


def _parse_raw(text: str) -> list[tuple[str, str, str]]:
    """``(mode, blob, path)`` of the old side of ``--raw -z`` output (diff, diff-files);
    paths whose old side is missing or a submodule are left out."""
    fields = text.split("\0")
    out = []
    for meta, path in zip(fields[0::2], fields[1::2], strict=False):
        parts = meta.lstrip(":").split(" ")
        if len(parts) >= 5 and path and not parts[0].startswith(("16", "000")):
            out.append((parts[0], parts[2], path))
    return out


def _raw_paths(text: str) -> list[str]:
    fields = text.split("\0")
    return [path for path in fields[1::2] if path]


def _ls_args(pathspecs: Sequence[str] | None) -> list[str]:
    args = ["ls-files", "-s", "-z", "--full-name"]
    return args + (["--", *pathspecs] if pathspecs is not None else [])


def _parse_ls(text: str) -> list[tuple[str, str, str]]:
    """``(mode, blob, path)`` of the index entries (stage 0, no submodules)."""
    out = []
    for rec in text.split("\0"):
        meta, _, path = rec.partition("\t")
        parts = meta.split(" ")
        if path and len(parts) == 3 and parts[2] == "0" and not parts[0].startswith("16"):
            out.append((parts[0], parts[1], path))
    return out


def _tree_args(target: str, pathspecs: Sequence[str] | None) -> list[str]:
    args = ["ls-tree", "-r", "--name-only", "--full-name", "-z", target]
    return args + (["--", *pathspecs] if pathspecs is not None else [])


def _git_mode(st: os.stat_result) -> str:
    if stat.S_ISLNK(st.st_mode):
        return "120000"
    return "100755" if st.st_mode & 0o111 else "100644"


def snapshot(
    cwd: str, scope: Scope, snapdir: str, sid: str, budget: Budget, message: str
) -> dict[str, object] | None:
    """Keep what ``scope`` reaches in the repository at ``cwd``; None outside a repository."""
    found = repo_of(cwd, budget)
    if found is None:
        return None
    top, git_dir, index_file = found
    at_top = Git(top, budget)
    out = _ask(Git(cwd, budget), at_top, scope, index_file, snapdir)
    st = _parse_status(out["status"]) if "status" in out else _Status()
    raw: list[str] = list(st.changed)
    if scope.untracked == "all":
        raw += st.untracked
    elif scope.untracked == "target":
        wanted = set(p for p in out.get("wanted", "").split("\0") if p)
        raw += [p for p in st.untracked if p in wanted]
    elif isinstance(scope.untracked, list):
        raw += scope.untracked
    skip = set(raw)
    # A command that moves HEAD rewrites the files that differ between the commits; the
    # unchanged ones are HEAD's blobs (and the index's).
    moved = _raw_paths(out.get("moved", ""))
    from_index = [e for e in _parse_raw(out.get("moved", "")) if e[2] not in skip]
    if scope.tracked_all:
        from_index = [e for e in _parse_ls(out["listed"]) if e[2] not in skip]
    elif "dirty" in out:
        # A checkout of paths (and a reset racing the index's time stamps) rewrites tracked
        # files whose stat data changed since the index was written, even where their
        # content did not, with git's default permissions: those with others are kept.
        dirty = [e for e in _parse_raw(out["dirty"]) if e[2] not in skip]
        from_index += _odd_permissions(top, dirty, set(moved))
    entries, files, links, total = _entries(top, raw, from_index)
    budget.charge(total)
    blobs = _hash(at_top, files, links, snapdir)
    for entry in entries:
        if "blob" not in entry:
            entry["blob"] = blobs[str(entry["path"])]
    index_tree = out.get("index", "").strip() or None
    keep_tree = _tree(at_top, entries, index_tree)
    ref = f"refs/dcg/{sid}/tree"
    # Refs keep all of it alive: the tree of the kept blobs and the index's tree, and the
    # HEAD the command may move away from.
    refs: list[tuple[str, str | None]] = [(ref, keep_tree)]
    if scope.index_head:
        refs.append((f"refs/dcg/{sid}/head", st.head))
    at_top.run(
        ["update-ref", "--stdin", "-z", "-m", message],
        data="".join(f"update {n}\0{v}\0\0" for n, v in refs if v).encode(),
    )
    return {
        "kind": "git",
        "root": top,
        "git_dir": git_dir,
        "ref": ref,
        "tree": keep_tree,
        "head": {"ref": st.head_ref, "commit": st.head} if scope.index_head else None,
        "index_tree": index_tree,
        "entries": entries,
        "absent": sorted(
            set(st.absent)
            | {n for n in moved if not os.path.lexists(os.path.join(top, n))}
            | {p for p in scope.absent if not os.path.lexists(os.path.join(top, p))}
        ),
        "dirs": _dirs(scope.dirs, top, budget),
        "bytes": sum(int(str(e["size"])) for e in entries),
    }


def _ask(git: Git, at_top: Git, scope: Scope, index_file: str, snapdir: str) -> dict[str, str]:
    """What git says about the scope, asked all at once (the questions are independent)."""
    jobs: dict[str, Running] = {}
    tmp = os.path.join(snapdir, "index.tmp")
    try:
        with_untracked = scope.untracked in ("all", "target")
        if scope.changed or scope.index_head or with_untracked:
            jobs["status"] = git.start(_status_args(scope, with_untracked))
        if scope.tracked_all:
            jobs["listed"] = git.start(_ls_args(scope.pathspecs))
        elif scope.perms:
            jobs["dirty"] = git.start(_dirty_args(scope.pathspecs))
        if scope.target:
            raw = ["diff", "--raw", "-z", "--no-renames", "--no-abbrev", "HEAD", scope.target]
            jobs["moved"] = git.start(raw, ok=(0, 128))
            if scope.untracked == "target":
                jobs["wanted"] = git.start(_tree_args(scope.target, scope.pathspecs), ok=(0, 128))
        if scope.index_head:
            # The user's index is read from a copy: write-tree may write back to its index.
            if os.path.exists(index_file):
                from dcg.safety.filestore import copy_file

                copy_file(index_file, tmp)
            # A conflicted index has no tree (exit 128): it is then not recorded.
            jobs["index"] = at_top.start(["write-tree"], env={"GIT_INDEX_FILE": tmp}, ok=(0, 128))
        return {name: job.text() for name, job in jobs.items()}
    finally:
        for job in jobs.values():
            job.reap()
        if os.path.exists(tmp):
            os.unlink(tmp)


def _entries(
    top: str, raw: list[str], from_index: list[tuple[str, str, str]]
) -> tuple[list[dict[str, object]], list[str], list[str], int]:
    """The kept paths: those hashed as they are (``raw``) and index blobs (``from_index``);
    also the files and links to hash, and the bytes they hold."""
    entries: list[dict[str, object]] = []
    total = 0
    links: list[str] = []
    files: list[str] = []
    for path in dict.fromkeys(raw):
        try:
            lst = os.lstat(os.path.join(top, path))
        except OSError:
            continue
        if stat.S_ISDIR(lst.st_mode) or not (
            stat.S_ISREG(lst.st_mode) or stat.S_ISLNK(lst.st_mode)
        ):
            continue
        entries.append(
            {"path": path, "mode": _git_mode(lst), "perm": stat.S_IMODE(lst.st_mode),
             "size": lst.st_size, "filters": False}
        )  # fmt: skip
        (links if stat.S_ISLNK(lst.st_mode) else files).append(path)
        total += lst.st_size
    for mode, blob, path in from_index:
        try:
            lst = os.lstat(os.path.join(top, path))
        except OSError:
            continue
        entries.append(
            {"path": path, "mode": mode, "perm": stat.S_IMODE(lst.st_mode), "blob": blob,
             "size": lst.st_size, "filters": not mode.startswith("12")}
        )  # fmt: skip
    return entries, files, links, total


def _dirty_args(pathspecs: Sequence[str] | None) -> list[str]:
    """``git diff-files`` does not refresh the index: it lists the entries whose files'
    stat data no longer match, changed or not."""
    args = ["diff-files", "-z", "--no-renames", "--ignore-submodules", "--no-abbrev"]
    return args + (["--", *pathspecs] if pathspecs is not None else [])


def _odd_permissions(
    top: str, listed: list[tuple[str, str, str]], done: set[str]
) -> list[tuple[str, str, str]]:
    """The index entries whose file's permissions are not those git would write."""
    mask = os.umask(0o022)
    os.umask(mask)
    plain, exe = 0o666 & ~mask, 0o777 & ~mask
    out = []
    for mode, blob, path in listed:
        if mode.startswith("12") or path in done:
            continue
        try:
            perm = stat.S_IMODE(os.lstat(os.path.join(top, path)).st_mode)
        except OSError:
            continue
        if perm != (exe if mode == "100755" else plain):
            out.append((mode, blob, path))
    return out


def _hash(git: Git, files: list[str], links: list[str], snapdir: str) -> dict[str, str]:
    """Blob ids of files (their bytes as they are) and links (their targets)."""
    out: dict[str, str] = {}
    if files:
        if any("\n" in f for f in files):
            raise Unkept("a file name holds a newline, which git cannot be handed")
        shas = git.text(
            ["hash-object", "-w", "--no-filters", "--stdin-paths"],
            data="".join(f + "\n" for f in files).encode("utf-8", "surrogateescape"),
        ).split()
        out.update(zip(files, shas, strict=True))
    for link in links:
        target = os.readlink(os.path.join(git.cwd, link))
        out[link] = git.text(
            ["hash-object", "-w", "--no-filters", "--stdin"],
            data=target.encode("utf-8", "surrogateescape"),
        ).strip()
    return out


def _tree(git: Git, entries: list[dict[str, object]], index_tree: str | None) -> str:
    """One flat tree holding every kept blob (named by its place in ``entries``; the
    manifest says which path each is) and the index's tree: one ``git mktree``."""
    lines = [
        f"{'120000' if str(e['mode']).startswith('12') else '100644'} blob {e['blob']}\t{k}\n"
        for k, e in enumerate(entries)
    ]
    if index_tree:
        lines.append(f"040000 tree {index_tree}\tindex\n")
    return git.text(["mktree"], data="".join(lines).encode()).strip()


def _dirs(dirs: Sequence[str], top: str, budget: Budget) -> list[dict[str, object]]:
    """The directories below ``dirs`` (outside ``.git`` and build output) and their modes."""
    out: list[dict[str, object]] = []
    for base in dirs:
        for here, subdirs, _ in os.walk(base):
            budget.left()
            subdirs[:] = sorted(d for d in subdirs if d != ".git" and not is_regenerable_name(d))
            try:
                perm = stat.S_IMODE(os.lstat(here).st_mode)
            except OSError:
                continue
            out.append({"path": os.path.relpath(here, top), "perm": perm})
    return out
