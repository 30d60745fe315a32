"""Keep tasks for deleted and overwritten files and trees (``rm -r``, ``find -delete``, …).

A target inside a git work tree is kept by a git snapshot scoped to it (tracked files
that did not change cost nothing, what git ignores is not kept: decisions.md 10.7); a
target outside one, or one that holds a repository of its own (its ``.git`` included),
goes to the file store. Targets in a temp directory or that are build output are not
kept, as the rules do not stop them either.
"""

from __future__ import annotations

import os

from dcg.safety import Unkept
from dcg.safety.argv import Task, expand, git_operands, option_value
from dcg.safety.gitsnap import Scope

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from dcg.shell.command import Command

_FEEDERS = ("xargs", "parallel")
# Options taking a value, per program, so the value is not taken for a file.
_VALUES = {
    "shred": ("-n", "-s", "--iterations", "--size", "--random-source"),
    "srm": (),
    "truncate": ("-s", "--size", "-r", "--reference"),
    "clear-content": ("-path", "-literalpath", "-filter", "-include", "-exclude", "-stream"),
}


def _operands(argv: Sequence[str], values: Sequence[str]) -> list[str]:
    out: list[str] = []
    it = iter(argv[1:])
    for arg in it:
        if arg == "--":
            out.extend(it)
        elif arg.lower() in ("-path", "-literalpath"):
            nxt = next(it, None)
            if nxt is not None:
                out.append(nxt)
        elif arg in values or arg.lower() in values:
            next(it, None)
        elif not arg.startswith("-") or arg == "-":
            out.append(arg)
    return out


def words(name: str, command: Command) -> list[str]:
    """The words naming what the command deletes or overwrites."""
    from dcg.targets import find_roots, rm_operands

    argv = command.argv
    prog = argv[0] if argv else ""
    if prog == "find":
        return find_roots(argv)
    if name == "rimraf":
        from dcg.shell.deleters import node_deleter_operands

        return node_deleter_operands(argv) or []
    if prog == "git":
        sub = "worktree" if name == "worktree-remove-force" else "submodule"
        opts, ops, after = git_operands(argv, sub)
        names = [*ops[1:], *after]  # after "remove" / "deinit"
        if "--all" in opts or not names:
            raise Unkept("it names no paths dcg could keep")
        return names
    if prog in _VALUES:
        return _operands(argv, _VALUES[prog])
    ops = [t for t in rm_operands(argv)[1] if t != "{}"]
    if not ops and any(v.split(" ")[0] in _FEEDERS for v in command.via):
        raise Unkept("the files it deletes come from its input")
    return ops


def _skip(path: str, here: str) -> bool:
    """Temp, user cache, build output or ignored: not kept (decisions.md 10.7)."""
    from dcg.safe_delete import all_safe

    return all_safe([path], here)


def tasks(name: str, command: Command, here: str, *, link_ok: bool) -> list[Task]:
    """Tasks for a deletion (``link_ok``: the command only unlinks) or an overwrite."""
    from dcg.gitinfo import work_tree

    paths = expand(words(name, command), here)
    out: list[Task] = []
    stored: list[str] = []
    by_repo: dict[str, list[str]] = {}
    for path in paths:
        if not os.path.lexists(path) or _skip(path, here):
            continue
        if ".git" in path.split("/") or (
            os.path.isdir(path) and not os.path.islink(path) and _holds_repo(path)
        ):
            stored.append(path)  # a repository's own files: git cannot snapshot them
            continue
        root = work_tree(path if os.path.isdir(path) else os.path.dirname(path))
        if root is None:
            stored.append(path)
        else:
            by_repo.setdefault(root, []).append(path)
    if command.argv[:1] == ("git",) and "worktree" in command.argv:
        stored += _worktree_admin(stored)
    for root, group in by_repo.items():
        specs = [":(literal)" + os.path.relpath(p, root) for p in group]
        dirs = [p for p in group if os.path.isdir(p) and not os.path.islink(p)]
        scope = Scope(specs, tracked_all=True, untracked="all", dirs=dirs)
        out.append(Task("git", root, scope))
    if stored:
        out.append(Task("files", here, paths=stored, link_ok=link_ok))
    return out


def _holds_repo(path: str) -> bool:
    """``path`` is a repository's work tree root, or holds one (``.git`` at its top)."""
    return os.path.lexists(os.path.join(path, ".git"))


def _worktree_admin(paths: list[str]) -> list[str]:
    """A linked work tree's admin directory (``.git/worktrees/NAME``), which removal drops."""
    out = []
    for p in paths:
        try:
            with open(os.path.join(p, ".git"), encoding="utf-8") as f:
                first = f.readline().strip()
        except OSError:
            continue
        if first.startswith("gitdir: "):
            admin = first[8:]
            out.append(admin if os.path.isabs(admin) else os.path.join(p, admin))
    return out


def clean_task(opts: Sequence[str], specs: Sequence[str], here: str) -> list[Task]:
    """What ``git clean`` with these options would delete (asked of ``git clean -n``)."""
    from dcg.safety.gitrun import Git, GitFailed
    from dcg.safety.gitsnap import repo_of

    found = repo_of(here, None)
    if found is None:
        return []
    top = found[0]
    args = ["clean", "-n"]
    forces = sum(o.count("f") for o in opts if o[:1] == "-" and o[1:2] != "-")
    forces += sum(1 for o in opts if o == "--force")
    if forces >= 2:
        args += ["-f", "-f"]  # -ff also deletes nested repositories
    for o in opts:
        if o.startswith("-") and not o.startswith("--"):
            args += [f"-{c}" for c in o[1:] if c in "dxX"]
    exclude = option_value(opts, ("-e", "--exclude"))
    if exclude is not None:
        args += ["-e", exclude]
    try:
        out = Git(here).text([*args, "--", *specs] if specs else args)
    except GitFailed as exc:
        raise Unkept(f"git clean -n failed ({exc})") from None
    prefix = "Would remove "
    listed = [os.path.normpath(os.path.join(here, ln[len(prefix) :])) for ln in out.splitlines()
              if ln.startswith(prefix)]  # fmt: skip
    files: list[str] = []
    dirs: list[str] = []
    stored: list[str] = []
    for path in listed:
        if os.path.isdir(path) and not os.path.islink(path):
            if _holds_repo(path):
                stored.append(path)
                continue
            dirs.append(path)
            files += _files_below(path)
        else:
            files.append(path)
    out_tasks = []
    if files or dirs:
        rel = [os.path.relpath(p, top) for p in files]
        out_tasks.append(Task("git", top, Scope(None, untracked=rel, dirs=dirs, changed=False)))
    if stored:
        out_tasks.append(Task("files", here, paths=stored, link_ok=True))
    return out_tasks


def _files_below(path: str) -> list[str]:
    from dcg.regenerable import is_regenerable_name

    out = []
    for here, dirs, names in os.walk(path):
        dirs[:] = [d for d in dirs if not is_regenerable_name(d)]
        out += [os.path.join(here, n) for n in names]
    return out
