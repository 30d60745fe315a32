"""Reading a command's words for the safety net: git operands, directories, paths."""

from __future__ import annotations

from dcg.safety import Unkept

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from dcg.safety.gitsnap import Scope
    from dcg.safety.refsnap import RefScope
    from dcg.shell.command import Command


class Task:
    """One thing to keep: ``kind`` ``git``, ``refs`` or ``files``, in directory ``cwd``."""

    __slots__ = ("absent", "cwd", "kind", "link_ok", "paths", "scope")

    def __init__(
        self,
        kind: str,
        cwd: str,
        scope: Scope | RefScope | None = None,
        paths: Sequence[str] = (),
        link_ok: bool = False,
        absent: Sequence[str] = (),
    ) -> None:
        self.kind = kind
        self.cwd = cwd
        self.scope = scope
        self.paths = list(paths)
        self.link_ok = link_ok
        self.absent = list(absent)  # files tasks: paths recorded as not existing


# Options of git subcommands that take a value (so the value is not an operand).
_VALUED = {
    "checkout": ("-b", "-B", "--orphan", "--conflict"),
    "switch": ("-c", "-C", "--orphan", "--create", "--force-create", "--conflict"),
    "restore": ("-s", "--source", "--conflict"),
    "clean": ("-e", "--exclude"),
    "branch": ("--set-upstream-to", "-u", "--sort", "--format", "--contains", "--points-at"),
    "read-tree": ("--prefix", "--index-output", "--exclude-per-directory"),
    "stash": ("-m", "--message"),
    "tag": ("-m", "-F", "-u", "--message", "--file"),
}


def git_operands(argv: Sequence[str], sub: str) -> tuple[list[str], list[str], list[str]]:
    """``(options, operands, after --)`` of ``git SUB …``."""
    start = list(argv).index(sub) + 1 if sub in argv else len(argv)
    valued = _VALUED.get(sub, ())
    opts: list[str] = []
    ops: list[str] = []
    rest = list(argv[start:])
    while rest:
        a = rest.pop(0)
        if a == "--":
            return opts, ops, rest
        if a.startswith("-") and a != "-":
            opts.append(a)
            if a in valued and rest:
                opts.append(rest.pop(0))
        else:
            ops.append(a)
    return opts, ops, []


def option_value(opts: Sequence[str], names: Sequence[str]) -> str | None:
    for k, a in enumerate(opts):
        for n in names:
            if a == n and k + 1 < len(opts):
                return opts[k + 1]
            if n.startswith("--") and a.startswith(n + "="):
                return a[len(n) + 1 :]
            if not n.startswith("--") and a.startswith(n) and len(a) > len(n):
                return a[len(n) :]
    return None


def where(command: Command, cwd: str, line: str = "") -> str:
    """The directory ``command`` (and a git command's ``-C``) runs in."""
    from dcg.selfpaths import effective_cwd

    here = effective_cwd(command, cwd)
    if here is None:
        raise Unkept("the directory it runs in is only known when it runs")
    for via in command.via:
        if "ssh" in via.split(" ")[:1]:
            raise Unkept("it runs on another machine")
        if via.startswith("git -C "):
            step = via[7:]
            if step == "\x00?" or "$" in step:
                raise Unkept("the repository it works in is only known when it runs")
            # The walker already folded ``-C DIR`` into the command's own cwd.
        elif via.startswith(("git --git-dir", "git --work-tree")):
            raise Unkept("dcg does not snapshot a repository named by --git-dir/--work-tree")
    if command.argv[:1] == ("git",) and ("GIT_DIR" in line or "GIT_WORK_TREE" in line):
        raise Unkept("dcg does not snapshot a repository named by GIT_DIR/GIT_WORK_TREE")
    return here


def expand(words: Sequence[str], here: str) -> list[str]:
    """Absolute paths the words name (globs expanded, a glob that matches nothing dropped)."""
    import os
    from glob import glob, has_magic

    from dcg.selfpaths import normalise

    out: list[str] = []
    for w in words:
        path = normalise(w, here)
        if "$" in path or "`" in path:
            raise Unkept(f"it names a path dcg cannot resolve before it runs ({w})")
        if has_magic(path):
            out.extend(sorted(glob(path, include_hidden=w.rpartition("/")[2].startswith("."))))
        elif w.endswith("/") and os.path.islink(path):
            # `rm -rf link/` and `find link/` go through the link: what they delete is the
            # directory it points to.
            out.append(os.path.realpath(path))
        else:
            out.append(path)
    return list(dict.fromkeys(out))
