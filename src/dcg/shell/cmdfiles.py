"""Commands a tool reads from a file it is given: one table, :data:`TABLE`.

``echo '1e rm -rf src' > x.sed; sed -f x.sed f`` runs ``rm -rf src``; so do a tmux config
with ``run-shell`` (``tmux source-file``, ``-f``) or a file typed into a pane
(``tmux load-buffer``), a SQL script with ``.shell`` (sqlite3 ``< x.sql``, ``-init``,
``.read``), a gdb command file (``-x``, ``source``), a vim script (``-S``, ``-u``,
``:source``, ``-s`` typed keys), an awk program (``-f``, gawk ``-i``/``-E``), a Tcl or
expect script, an m4 input with ``syscmd``, a Lua script with ``os.execute``. The file's
text (written earlier on the line, or on disk, :func:`dcg.shell.runtext.file_text`) is
judged like the same commands given inline (:mod:`dcg.shell.escapes` reads each language).
"""

from __future__ import annotations

from dcg.shell import runtext
from dcg.shell.unwrap import skip_options

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from collections.abc import Callable

    from dcg.shell.command import Command
    from dcg.shell.runtext import Ctx, Walker
    from dcg.shell.unwrap import Work

_MAX_READS = 8  # files a file names in turn (.read inside .read, :source): followed at most


def read(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """Queue the shell commands of the files ``work``'s tool reads its commands from."""
    TABLE[work.argv[0]](work, ctx, out, walker)


def _text(path: str, ctx: Ctx, out: list[Command], walker: Walker) -> str | None:
    return runtext.file_text(path, ctx, out, walker)[0] if path else None


def _sed(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    from dcg.shell import edits

    argv = work.argv
    files: list[str] = []
    for k, a in enumerate(argv[1:], 1):
        if a == "--":
            break
        if a.startswith("--file="):
            files.append(a.partition("=")[2])
        elif a == "--file" or (a[:1] == "-" and a[1:2] != "-" and a.endswith("f")):
            files += argv[k + 1 : k + 2]
        elif a[:1] == "-" and a[1:2] != "-" and "f" in a:
            files.append(a[a.index("f") + 1 :])  # -fSCRIPT
    extended = any(a in ("-E", "-r", "--regexp-extended") for a in argv)
    for path in files:
        text = _text(path, ctx, out, walker)
        if not text or "e" not in text:
            continue
        runs = edits.sed_runs([text], extended)
        if runs is None:
            work.opaque = work.opaque or f"sed -f {path} runs text taken from its input"
        for cmd in runs or []:
            work.payloads.append(("sh", f"sed -f {path}", cmd, []))


def _follow(
    work: Work, ctx: Ctx, out: list[Command], walker: Walker, paths: list[str],
    judge: Callable[[str, str], list[str]],
) -> None:  # fmt: skip
    """Judge each file of ``paths`` (``judge(text, shown)``: the files it reads in turn)."""
    seen: set[str] = set()
    while paths and len(seen) < _MAX_READS:
        path = paths.pop(0)
        if not path or path in seen or path == "-":
            continue
        seen.add(path)
        text, shown = runtext.file_text(path, ctx, out, walker)
        if text:
            paths += judge(text, shown)


def _stdin_file(work: Work, paths: list[str]) -> list[str]:
    """``paths``, or the file a ``<`` redirection gives when the tool reads stdin."""
    infile = work.infile
    if (not paths or paths == ["-"] or paths == [""]) and infile and infile[:2] != "<(":
        return [infile]
    return paths


def _tmux(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    from dcg.shell.detached import tmux_commands

    argv = work.argv
    files: list[str] = []
    typed: list[str] = []  # `tmux load-buffer FILE`: pasted into a pane as typed text
    for k, a in enumerate(argv[1:], 1):
        rest = [b for b in argv[k + 1 :] if not b.startswith("-")]
        if a == "-f" or (a in ("source-file", "source") and k + 1 < len(argv)):
            files += rest[:1]
        elif a in ("load-buffer", "loadb"):
            part = argv[k + 1 :]
            part = part[: next((j for j, b in enumerate(part) if b in (";", "\\;")), len(part))]
            typed += [b for b in part[skip_options(part, 0, "bt") :][-1:] if b != "-"]
    for path in files:
        text = _text(path, ctx, out, walker)
        if text:
            tmux_commands(work, text)
    for path in typed:
        text, shown = runtext.file_text(path, ctx, out, walker)
        if text:
            work.payloads.append(("sh", f"tmux load-buffer {shown}", text, []))


def _screen(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """``screen -c FILE`` (its commands), ``-X source FILE``, ``-X readbuf FILE`` (typed)."""
    from dcg.shell.detached import screen_commands

    argv = work.argv
    conf = [argv[k + 1] for k in range(1, len(argv) - 1) if argv[k] == "-c"]
    x = [k for k, a in enumerate(argv) if a == "-X"]
    rest = argv[x[0] + 1 :] if x else []
    if rest[:1] == ["source"]:
        conf += rest[1:2]
    elif rest[:1] in (["readbuf"], ["readreg"]) and len(rest) > 1:
        typed, shown = runtext.file_text(rest[-1], ctx, out, walker)
        if typed:
            work.payloads.append(("sh", f"screen {rest[0]} {shown}", typed, []))

    def judge(text: str, shown: str) -> list[str]:
        return screen_commands(work, text)

    _follow(work, ctx, out, walker, conf, judge)


def _gdb(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """``gdb -x FILE`` (a ``.py`` one is Python), ``-ix``, ``-ex 'source FILE'``."""
    from dcg.shell.langescapes import gdb_text

    argv, paths = work.argv, []
    for k, a in enumerate(argv[1:], 1):
        opt, eq, value = a.partition("=")
        value = value if eq else (argv[k + 1] if k + 1 < len(argv) else "")
        if opt in ("-x", "--x", "-command", "--command", "-ix", "--ix", "-init-command",
                   "--init-command"):  # fmt: skip
            paths.append(value)
        elif opt in ("-ex", "--ex", "-iex", "--iex", "-eval-command", "--eval-command"):
            paths += gdb_text(work, value, "gdb")

    def judge(text: str, shown: str) -> list[str]:
        if shown.endswith(".py"):
            work.payloads.append(("python", f"gdb -x {shown}", text, []))
            return []
        return gdb_text(work, text, f"gdb -x {shown}")

    batch = any(a in ("-batch", "--batch") for a in argv)
    if work.infile and work.infile[:2] != "<(" and not batch:  # `gdb < CMDS`: its commands
        paths.append(work.infile)
    _follow(work, ctx, out, walker, paths, judge)


def _sourced(text: str) -> list[str]:
    """The files ex command text reads as scripts (``:so FILE``, ``:source FILE``)."""
    found: list[str] = []
    for line in text.replace("|", "\n").split("\n"):
        word, _, rest = line.strip().lstrip(":").strip().partition(" ")
        if word in ("so", "sou", "sour", "sourc", "source", "so!", "source!") and rest.strip():
            found.append(rest.strip())
    return found


def _vim(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """Vim scripts: ``-S FILE``, ``-u RC``, ``:source FILE`` in a command, and ``-s FILE``
    outside ex mode (its keys are typed: each ``:`` line runs as an ex command)."""
    from dcg.shell.escapes import ex_text

    argv, name = work.argv, work.argv[0]
    ex_mode = name == "ex" or any(a in ("-e", "-E", "-es", "-Es") for a in argv[1:])
    paths: list[str] = []
    keys: list[str] = []
    for k, a in enumerate(argv[1:], 1):
        value = argv[k + 1] if k + 1 < len(argv) else ""
        if a in ("-S", "-u", "-U") and value.upper() not in ("NONE", "NORC", "DEFAULTS"):
            paths.append(value)
        elif a == "--cmd" or a[:1] == "+" or (a[:1] == "-" and a[-1:] == "c" and a[1:].isalpha()):
            paths += _sourced(value if a[:1] == "-" else a[1:])
        elif a == "-s" and not ex_mode:
            keys.append(value)

    def judge(text: str, shown: str) -> list[str]:
        ex_text(work, text, name)
        return _sourced(text)

    if ex_mode and work.infile and work.infile[:2] != "<(":  # `vim -es < CMDS`
        paths.append(work.infile)
    for path in keys:
        text = _text(path, ctx, out, walker)
        for line in (text or "").split("\n"):
            if ":" in line:
                judge(line[line.index(":") + 1 :], path)
    _follow(work, ctx, out, walker, paths, judge)


def _awk(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """``awk -f PROG`` (``-fPROG``, ``--file=PROG``), gawk ``-i``/``--include``, ``-E``/
    ``--exec`` and ``@include "FILE"`` in a program (a file, ``-e``/``--source`` or the
    program operand); a native extension gawk loads (``-l``, ``@load``) that is not one
    of its own runs code dcg cannot see."""
    from dcg.shell.escapes import awk_program

    argv, paths, texts, loads = work.argv, [], [], []
    operand = True
    k = 1
    while k < len(argv):
        a = argv[k]
        opt, eq, value = a.partition("=")
        glued = a[2:] if a[:1] == "-" and a[1:2] != "-" and len(a) > 2 else ""
        value = value if eq else glued or (argv[k + 1] if k + 1 < len(argv) else "")
        k += 1 + (not eq and not glued and opt in _AWK_VALUED)
        if a == "--" or a[:1] != "-":
            if operand:
                texts.append(argv[k] if a == "--" and k < len(argv) else a)
            break
        short = opt if opt[1:2] == "-" else opt[:2]
        if short in ("-f", "--file", "-i", "--include", "-E", "--exec"):
            paths += [value, value + ".awk"] if short in ("-i", "--include") else [value]
            operand = operand and short in ("-i", "--include")
        elif short in ("-e", "--source"):
            texts.append(value)
            operand = False
        elif short in ("-l", "--load"):
            loads.append(value)
    for text in texts:
        paths += [p for name in _directives(text, "@include") for p in (name, name + ".awk")]
        loads += _directives(text, "@load")
    _foreign(work, loads)

    def judge(text: str, shown: str) -> list[str]:
        awk_program(work, text, f"awk -f {shown}")
        _foreign(work, _directives(text, "@load"))
        return _directives(text, "@include")

    _follow(work, ctx, out, walker, paths, judge)


# awk's options that take a value as the next word; gawk's own extensions (-l NAME).
_AWK_VALUED = frozenset(("-f", "--file", "-i", "--include", "-E", "--exec", "-e", "--source",
                         "-l", "--load", "-v", "--assign", "-F", "--field-separator",
                         "-W"))  # fmt: skip
_GAWK_EXTENSIONS = frozenset(("filefuncs", "fnmatch", "fork", "inplace", "intdiv", "ordchr",
                              "readdir", "readdir_test", "readfile", "revoutput", "revtwoway",
                              "rwarray", "time", "testext"))  # fmt: skip


def _foreign(work: Work, loads: list[str]) -> None:
    """A native extension gawk loads that is not one of its own: code dcg cannot see."""
    if work.opaque is None and any(
        "/" in n or n.removesuffix(".so") not in _GAWK_EXTENSIONS for n in loads
    ):
        work.opaque = "gawk loads a native extension dcg cannot see (-l/@load)"


def _directives(text: str, word: str) -> list[str]:
    """The quoted names of each ``@include "x"``/``@load "x"`` in an awk program."""
    out: list[str] = []
    i = text.find(word)
    while i >= 0:
        rest = text[i + len(word) :].lstrip(" \t")
        if rest[:1] == '"' and '"' in rest[1:]:
            out.append(rest[1 : rest.index('"', 1)])
        i = text.find(word, i + 1)
    return out


def _operand(argv: list[str], values: str, start: int = 1) -> str:
    """The first operand: the script file of tclsh, expect, lua; ``values``: the option
    letters that take a value."""
    k = start
    while k < len(argv):
        a = argv[k]
        if a == "--":
            return argv[k + 1] if k + 1 < len(argv) else ""
        if a[:1] != "-" or a == "-":
            return a
        k += 2 if a[1:2] in values and len(a) == 2 else 1
    return ""


def _tcl(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """``tclsh FILE``, ``wish FILE``, ``expect [-f] FILE``: a Tcl script and what it
    ``source``s."""
    from dcg.shell.escapes import tcl_sources, tcl_text

    argv = work.argv
    files = [argv[k + 1] for k in range(1, len(argv) - 1) if argv[k] == "-f"]
    first = files[0] if files else _operand(argv, "cDe" if argv[0] == "expect" else "e")
    if any(a == "-c" for a in argv[1:]) and argv[0] != "expect":
        first = ""

    def judge(text: str, shown: str) -> list[str]:
        return tcl_text(work, text, argv[0])

    fed = work.stdin if work.stdin is not None else work.fed
    inline = [argv[k + 1] for k in range(1, len(argv) - 1) if argv[k] == "-c"]
    sources = [p for t in [*inline, fed or ""] for p in tcl_sources(t)]
    _follow(work, ctx, out, walker, [*_stdin_file(work, [first]), *sources], judge)


def _m4(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """m4's input files: ``syscmd``/``esyscmd`` run shell text; ``include`` reads more."""
    from dcg.shell.langescapes import m4_text

    argv, paths, k = work.argv, [], 1
    while k < len(argv):
        a = argv[k]
        if a[:1] != "-" or a == "-":
            paths.append(a)
        elif a in ("-D", "-U", "-I", "-o", "-F", "-R", "-l", "-L", "-t"):
            k += 1
        k += 1

    def judge(text: str, shown: str) -> list[str]:
        return m4_text(work, text, f"m4 {shown}")

    _follow(work, ctx, out, walker, _stdin_file(work, paths), judge)


def _lua(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """``lua FILE``: ``os.execute``/``io.popen`` run shell text; ``dofile`` reads more."""
    from dcg.shell.langescapes import dofiles, lua_text

    def judge(text: str, shown: str) -> list[str]:
        return lua_text(work, text, f"lua {shown}")

    argv = work.argv
    fed = work.stdin if work.stdin is not None else work.fed
    inline = [argv[k + 1] for k in range(1, len(argv) - 1) if argv[k] == "-e"]
    more = [p for t in [*inline, fed or ""] for p in dofiles(t)]
    _follow(work, ctx, out, walker, [*_stdin_file(work, [_operand(argv, "el")]), *more], judge)


def _sqlite(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    from dcg.shell.escapes import sqlite_text

    argv = work.argv
    texts = [a for a in argv[1:] if ".read" in a]
    stdin = work.stdin if work.stdin is not None else work.fed
    texts += [stdin] if stdin and ".read" in stdin else []
    paths = [argv[k + 1] for k in range(1, len(argv) - 1) if argv[k] == "-init"]
    paths += [work.infile] if work.infile is not None else []
    for text in texts:
        paths += _reads(text)
    seen: set[str] = set()
    while paths and len(seen) < _MAX_READS:
        path = paths.pop(0)
        if path in seen:
            continue
        seen.add(path)
        body = _text(path, ctx, out, walker)
        if body:
            sqlite_text(work, body)
            paths += _reads(body)


def _reads(text: str) -> list[str]:
    """The files ``.read FILE`` lines of a sqlite3 script name (not ``.read |cmd``)."""
    out: list[str] = []
    for line in text.replace(";", "\n").split("\n"):
        word, _, rest = line.strip().partition(" ")
        target = rest.strip().strip("'\"")
        if word == ".read" and target and not target.startswith("|"):
            out.append(target)
    return out


TABLE: dict[str, Callable[[Work, Ctx, list[Command], Walker], None]] = {
    "sed": _sed,
    "gsed": _sed,
    "tmux": _tmux,
    "screen": _screen,
    "sqlite3": _sqlite,
    "gdb": _gdb,
    **dict.fromkeys(("vim", "vi", "nvim", "ex", "view", "gvim", "vimdiff"), _vim),
    **dict.fromkeys(("awk", "gawk", "mawk", "nawk"), _awk),
    **dict.fromkeys(("tclsh", "wish", "expect", "tclsh8.6", "jimsh"), _tcl),
    "m4": _m4,
    "lua": _lua,
    "luajit": _lua,
}
