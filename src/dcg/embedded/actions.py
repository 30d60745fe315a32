"""What a recognised call does, as data, and how it becomes shell command lines.

Every language module maps qualified call names to an :class:`Action`; both the
Python ``ast`` visitor and the shared token scanner evaluate the call's arguments and
hand them to :func:`apply`. The :class:`Sink` collects findings and enforces the work
bounds.
"""

from __future__ import annotations

import time

from dcg.embedded.render import DYNAMIC_WORD as DYNAMIC
from dcg.embedded.render import command_line, rm_line, word
from dcg.embedded.values import DYN, as_str, flatten, join, text
from dcg.frozen import Frozen

MAX_FINDINGS = 256
MAX_WORK = 400_000  # tokens lexed plus scanner steps, across nested evaluations
MAX_DEPTH = 4  # eval-of-a-string and interpolation nesting
MAX_NEST = 200  # bracket and expression nesting within one piece of code

# Deletion kinds whose target an enclosing tree walk (os.walk, RecursiveDirectoryIterator)
# can stand for.
DELETIONS = frozenset({"rm", "rm_opt", "shelljs_rm"})


class Limit(Exception):
    """A work bound was reached: stop and keep what was found so far."""


class Sink:
    """Collects ``(via_label, shell_line)`` findings and counts work against the bounds."""

    __slots__ = ("complete", "deadline", "found", "work")

    def __init__(self, deadline: float | None = None) -> None:
        self.found: list[tuple[str, str]] = []
        self.work = 0
        self.deadline = deadline
        self.complete = True

    def emit(self, label: str, line: str) -> None:
        if len(self.found) >= MAX_FINDINGS:
            raise Limit("too many findings")
        self.found.append((label, line))

    def tick(self, n: int = 1) -> None:
        before = self.work
        self.work += n
        if self.work > MAX_WORK:
            raise Limit("too much work")
        # The clock is read once per 1024 units of work.
        deadline = self.deadline
        if (
            deadline is not None
            and before >> 10 != self.work >> 10
            and time.thread_time() > deadline
        ):
            raise Limit("deadline")


class Action(Frozen):
    """How a call executes a command or deletes a path.

    ``kind`` selects the argument convention (see :func:`apply`); ``pos`` is the index of
    the first relevant positional argument and ``kw`` its keyword name; ``tool`` is the
    rm form for deletions (``rm -rf``, ``rm -f``, ``rmdir``).
    """

    __slots__ = ("kind", "kw", "pos", "tool")

    kind: str
    pos: int
    kw: str
    tool: str

    def __init__(self, kind: str, pos: int = 0, kw: str = "", tool: str = "") -> None:
        self._set("kind", kind)
        self._set("pos", pos)
        self._set("kw", kw)
        self._set("tool", tool)

    def __repr__(self) -> str:
        return f"Action({self.kind!r}, {self.pos}, {self.tool!r})"


_MISSING = object()


def _arg(a: Action, args: list[object], kwargs: dict[str, object], pos: int) -> object:
    if pos == a.pos and a.kw and a.kw in kwargs:
        return kwargs[a.kw]
    return args[pos] if pos < len(args) else _MISSING


def _paths(items: list[object]) -> list[object]:
    paths = [p for p in flatten(items) if not isinstance(p, (dict, bool))]
    return paths or [DYN]


def chdir(cwd: str | None, a: Action, args: list[object], kwargs: dict[str, object]) -> str | None:
    """The working directory after a ``chdir`` call (None: unchanged from the payload's)."""
    target = text(_arg(a, args, kwargs, a.pos))
    if target is None or DYN in target:
        return cwd
    return join([cwd, target]) if cwd is not None else target


def apply(
    a: Action, args: list[object], kwargs: dict[str, object], cwd: str | None = None
) -> list[str]:
    """The shell lines equivalent to calling ``a`` with these evaluated arguments.

    ``cwd`` is the directory the code changed to earlier, if known: relative deletion
    targets are resolved against it and commands run after a ``cd`` into it.
    """
    if cwd is None or cwd == "." or a.kind == "chdir":
        return [] if a.kind == "chdir" else _lines(a, args, kwargs)
    if a.kind in DELETIONS:

        def moved(p: object) -> object:
            s = text(p)
            moves = s is not None and not s.startswith((DYN, "-"))
            return join([cwd, s]) if moves else p

        args = [[moved(x) for x in p] if isinstance(p, list) else moved(p) for p in args]
        kwargs = {key: moved(v) for key, v in kwargs.items()}
        return _lines(a, args, kwargs)
    return [f"cd -- {word(cwd, always=True)} && {line}" for line in _lines(a, args, kwargs)]


def _lines(a: Action, args: list[object], kwargs: dict[str, object]) -> list[str]:
    k = a.kind
    first = _arg(a, args, kwargs, a.pos)
    if k == "shell":  # one argument: a shell string, or an argv list
        if first is _MISSING:
            return []
        if isinstance(first, dict):
            first = first.get("cmd", first.get("command"))
        return [command_line(first)]
    if k == "argv":  # Ruby/Perl system: one string is shell code, several are argv
        rest = [x for x in args[a.pos :] if not isinstance(x, dict)]
        if not rest:
            return []
        return [command_line(rest[0] if len(rest) == 1 else flatten(rest))]
    if k in ("prog_args", "prog_opt"):  # spawn(prog, [args]) / Deno.Command(prog, {args})
        if first is _MISSING:
            return []
        extra = args[a.pos + 1] if len(args) > a.pos + 1 else None
        if k == "prog_opt" and isinstance(extra, dict):
            extra = extra.get("args")
        if isinstance(extra, list):
            return [command_line([first, *extra])]
        return [command_line(first)]
    if k in ("execv", "execl"):  # os.execv(path, argv) / os.execl(path, arg0, *args)
        if first is _MISSING:
            return []
        if k == "execv":
            argv = args[a.pos + 1] if len(args) > a.pos + 1 else None
            rest = argv[1:] if isinstance(argv, list) else [DYN]
        else:
            rest = args[a.pos + 2 :]
            if a.tool == "env" and rest:
                rest = rest[:-1]
        return [command_line([first, *rest])]
    if k == "open":  # Perl open(FH, "-|", cmd) / open(FH, "cmd |"); Ruby open("|cmd")
        s = text(first)
        if s is not None and s.lstrip().startswith("|"):
            return [command_line(s.lstrip()[1:].lstrip())]
        if s is not None and s.rstrip().endswith("|") and len(args) == a.pos + 1:
            return [command_line(s.rstrip()[:-1].rstrip())]
        if s is not None and s.strip() in ("-|", "|-") and len(args) > a.pos + 1:
            rest = args[a.pos + 1 :]
            return [command_line(rest[0] if len(rest) == 1 else flatten(rest))]
        return _opened(a, args, s)
    if k in _FILE_KINDS:
        return _file_lines(a, args, kwargs, first)
    if k == "rm":
        items = [first] if a.kw and a.kw in kwargs else list(args[a.pos :])
        return [rm_line(a.tool, _paths(items))]
    if k == "rm_opt":  # fs.rmSync(p, {recursive: true}); Deno.remove(p, {recursive})
        opts = next((x for x in args[a.pos + 1 :] if isinstance(x, dict)), kwargs)
        recursive = "recursive" in opts and opts["recursive"] is not False
        target = [] if first is _MISSING else [first]
        return [rm_line("rm -rf" if recursive else a.tool, _paths(target))]
    if k == "shelljs_rm":  # shell.rm('-rf', paths…)
        flags = text(first)
        if flags is not None and flags.startswith("-") and len(flags) > 1:
            return [rm_line(f"rm {flags}", _paths(list(args[a.pos + 1 :])))]
        return [rm_line("rm", _paths(list(args[a.pos :])))]
    return []


# --- writes: what a call that writes, copies, moves, links or chmods a file does ---------

_FILE_KINDS = frozenset(("write", "append", "write_mode", "copy", "move", "link", "chmod",
                         "module", "script", "extract"))  # fmt: skip
_WRITE_MODES = ("w", "a", "x", "+", "WRONLY", "RDWR", "CREAT", "TRUNC", "APPEND")


def _redirect(mode: str | None) -> str:
    """The shell redirection a write in ``mode`` amounts to: ``>>`` for an append (which
    destroys nothing, so the safety net keeps nothing), ``>`` for anything that may replace
    or change content in place (``w``, ``r+``, ``O_TRUNC``, a mode dcg cannot read)."""
    if mode is None or DYN in mode:
        return ">"
    appends = "a" in mode.replace("TRUNC", "") or "APPEND" in mode
    if appends and "w" not in mode and "TRUNC" not in mode:
        return ">>"
    return ">"


_TOOLS = {"copy": "cp", "move": "mv", "link": "ln -s"}


def _path(v: object) -> str:
    return word(as_str(v), always=True)


def _opened(a: Action, args: list[object], mode: str | None) -> list[str]:
    """Perl ``open(FH, '>', PATH)`` / ``open(FH, '>>PATH')``, Ruby ``open(PATH, 'w')``."""
    if mode is None:
        return []
    if a.tool == "mode":  # Ruby: open(path, mode)
        given = text(args[a.pos + 1]) if len(args) > a.pos + 1 else None
        if not given or not any(m in given for m in "wa+"):
            return []
        return [f": {_redirect(given)} {_path(args[a.pos])}"]
    m = mode.strip()
    op = ">>" if m.startswith(">>") else ">"
    if len(args) > a.pos + 1:  # three arguments: the mode, then the path
        return [f": {op} {_path(args[a.pos + 1])}"] if m.startswith((">", "+")) else []
    if m.startswith((">", "+<", "+>")):
        return [f": {op} {word(m.lstrip('+<> '), always=True)}"]
    return []


def _file_lines(
    a: Action, args: list[object], kwargs: dict[str, object], first: object
) -> list[str]:
    k = a.kind
    if first is _MISSING:
        return []
    if k in ("write", "append"):
        return [f": {'>>' if k == 'append' else '>'} {_path(first)}"]
    if k == "write_mode":
        mode = kwargs.get("mode", kwargs.get("flags", _arg(a, args, {}, a.pos + 1)))
        if mode is _MISSING:
            return []
        m = text(mode)
        if m is None or DYN in m or any(w in m for w in _WRITE_MODES):
            return [f": {_redirect(m)} {_path(first)}"]
        return []
    if k in _TOOLS:
        other = _arg(a, args, kwargs, a.pos + 1)
        if other is _MISSING:
            other = kwargs.get("dst", kwargs.get("dest", kwargs.get("target", _MISSING)))
        if other is _MISSING:
            return []
        tool = a.tool if a.tool and a.tool != "self" else _TOOLS[k]
        if a.tool == "self" and k == "link":  # Path(link).symlink_to(target)
            first, other = other, first
        return [f"{tool} -- {_path(first)} {_path(other)}"]
    if k == "extract":  # archive.extractall(path) / shutil.unpack_archive(file, dir)
        into = _arg(a, args, {}, a.pos + 1)
        into = kwargs.get("path", kwargs.get("extract_dir", "." if into is _MISSING else into))
        return [f"tar -xf {_path(first)} -C {_path(into)}"]
    if k == "chmod":
        paths = args[a.pos :] if a.tool == "all" else [first]
        return ["chmod -- 0 " + " ".join(_path(p) for p in paths)]
    name = text(first)
    if k == "module":  # runpy.run_module(NAME): python -m NAME with arguments unknown
        return [f"python3 -m {word(name or DYN)} {DYNAMIC}"]
    return [f"python3 {word(name or DYN)} {DYNAMIC}"]
