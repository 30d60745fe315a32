"""Editors: the files they are given, and what their ex/ed script writes.

``:w FILE``, a file loaded then written, ``writefile()``; the script comes from ``-c``,
``+CMD``, ``--cmd`` and stdin.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    Found = list[tuple[str, int]]


# --- ed, ex, vim and the other editors ----------------------------------------------------

# ex commands that write the buffer, and those that load a file (which a later write writes).
_EX_WRITES = frozenset(("w", "wr", "wri", "writ", "write", "wq", "wqa", "wqall", "x", "xi",
                        "xit", "exi", "exit", "xa", "xal", "xall", "wa", "wal", "wall", "up",
                        "upd", "upda", "updat", "update", "sav", "save", "savea", "saveas",
                        "wn", "wne", "wnext", "wN", "wNe", "wNext", "wp", "wpr", "wprevious",
                        "W"))  # fmt: skip
_EX_LOADS = frozenset(("e", "ed", "edi", "edit", "E", "sp", "spl", "spli", "split", "vs",
                       "vsp", "vspl", "vspli", "vsplit", "new", "vne", "vnew", "tabe",
                       "tabedit", "tabnew", "n", "ne", "nex", "next", "ar", "arg", "args",
                       "arga", "argadd", "bad", "badd", "vi", "vis", "visual", "vie", "view",
                       "f", "fi", "fil", "file", "sv", "sview"))  # fmt: skip
_VIMS = frozenset(("ex", "vi", "vim", "nvim", "view", "vimdiff", "gvim", "rvim"))


def editor(argv: tuple[str, ...], stdin: str | None) -> Found:
    """An editor writes the files it is given, and what its ex/ed script writes."""
    name = argv[0]
    commands: list[str] = []
    files: list[str] = []
    found: Found = []
    i = 1
    while i < len(argv):
        a = argv[i]
        i += 1
        if a == "--":
            files.extend(argv[i:])
            break
        if name in ("emacs", "jed") and a in ("--eval", "-eval", "--execute", "-l", "--load"):
            if a != "-l" and a != "--load" and i < len(argv):
                found += [(s, False) for s in _quoted(argv[i]) if "/" in s or s.startswith("~")]
            i += 1
        elif a.startswith("--eval="):
            found += [(s, False) for s in _quoted(a[7:]) if "/" in s or s.startswith("~")]
        elif a.startswith("+") and name not in ("ed", "red"):
            commands.append(a[1:])
        elif a == "--cmd" and i < len(argv):
            commands.append(argv[i])
            i += 1
        elif a.startswith("-") and not a.startswith("--") and len(a) > 1 and name in _VIMS:
            for k in range(1, len(a)):
                ch = a[k]
                if ch in "cSuUiTtqwW" or (ch == "s" and not _ex_mode(argv)):
                    value = a[k + 1 :]
                    if not value and i < len(argv):
                        value = argv[i]
                        i += 1
                    if ch == "c":
                        commands.append(value)
                    elif ch in "wW":
                        found.append((value, False))
                    break
        elif a.startswith("-") and len(a) > 1:
            if name in ("ed", "red") and a == "-p":
                i += 1
        else:
            files.append(a)
    if stdin and (name in ("ed", "red", "ex") or _ex_mode(argv)):
        commands.extend(stdin.splitlines())
    if not commands:
        # Interactive (or a script dcg cannot see): the files given may be saved.
        return found + [(f, False) for f in files]
    named, current = _ed_writes(commands) if name in ("ed", "red") else _ex_writes(commands)
    # A script writes the files it was given only by a write of the current buffer.
    return found + [(f, False) for f in (*named, *(files if current else ()))]


def _ex_mode(argv: tuple[str, ...]) -> bool:
    return argv[0] == "ex" or any(
        a.startswith("-") and not a.startswith("--") and ("e" in a or "E" in a) for a in argv[1:]
    )


def _ex_writes(commands: list[str]) -> tuple[list[str], bool]:
    """The files ex commands write (``w FILE``, ``sav FILE``, a loaded file then ``w``,
    ``writefile([...], FILE)``, ``rename(a, b)``), and whether the buffer is written to its
    own file (``w``, ``wq``, ``x``, ``up``)."""
    named: list[str] = []
    loaded: list[str] = []
    writes = current = False
    for line in commands:
        for cmd in _split_bar(line):
            head, arg = _ex_command(cmd)
            if head in _EX_WRITES:
                writes = True
                arg = arg.lstrip("!").strip()
                if arg.startswith(">>"):
                    arg = arg[2:].strip()
                if arg and not arg.startswith("!"):
                    named.append(arg)
                current = current or not arg
            elif head in _EX_LOADS and arg:
                loaded.append(arg.lstrip("!").strip())
            named += _function_writes(cmd)
    return named + (loaded if writes else []), current


# Vim functions that write a file: which argument names it.
_FUNCTIONS = {"writefile": (1,), "rename": (0, 1), "delete": (0,), "mkdir": (0,)}


def _function_writes(cmd: str) -> list[str]:
    """``call writefile(["{}"], expand("~/x"))``: the quoted names in the file arguments."""
    out: list[str] = []
    for name, which in _FUNCTIONS.items():
        at = cmd.find(name + "(")
        while at >= 0:
            args = _call_args(cmd, at + len(name) + 1)
            for k in which:
                if k < len(args):
                    out += _quoted(args[k])
            at = cmd.find(name + "(", at + 1)
    return out


def _call_args(text: str, i: int) -> list[str]:
    """The top-level comma-separated arguments of a call whose ``(`` ends before ``i``."""
    args: list[str] = []
    buf: list[str] = []
    depth, quote = 0, ""
    while i < len(text):
        c = text[i]
        i += 1
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif c == "," and depth == 0:
            args.append("".join(buf))
            buf = []
            continue
        buf.append(c)
    args.append("".join(buf))
    return args


def _split_bar(line: str) -> list[str]:
    """ex commands separated by ``|`` (a ``\\|`` stays in the command)."""
    out, buf = [], []
    i = 0
    while i < len(line):
        c = line[i]
        if c == "\\" and i + 1 < len(line) and line[i + 1] == "|":
            buf.append("|")
            i += 2
            continue
        if c == "|":
            out.append("".join(buf))
            buf = []
        else:
            buf.append(c)
        i += 1
    out.append("".join(buf))
    return out


def _ex_command(cmd: str) -> tuple[str, str]:
    """(command name, argument) of an ex command with its range removed."""
    s = cmd.strip().lstrip(":").strip()
    i, n = 0, len(s)
    while i < n and s[i] in "%.,;$0123456789+-'<> \t":
        if s[i] == "'" and i + 1 < n:
            i += 1
        i += 1
    if i < n and s[i] in "/?":
        end = s.find(s[i], i + 1)
        i = n if end < 0 else end + 1
    j = i
    while j < n and s[j].isalpha():
        j += 1
    return s[i:j], s[j:]


def _ed_writes(lines: list[str]) -> tuple[list[str], bool]:
    """ed's ``w FILE``/``W FILE``/``wq FILE`` and the files ``e``/``f`` named before a
    write; whether a bare ``w`` writes the file ed was given."""
    named: list[str] = []
    loaded: list[str] = []
    writes = current = False
    text = False
    for line in lines:
        if text:
            text = line != "."
            continue
        head, arg = _ex_command(line)
        if head in ("a", "i", "c") and not arg.strip():
            text = True
        elif head in ("w", "W", "wq"):
            writes = True
            arg = arg.strip()
            if arg and not arg.startswith("!"):
                named.append(arg)
            current = current or not arg
        elif head in ("e", "E", "f") and arg.strip() and not arg.strip().startswith("!"):
            loaded.append(arg.strip())
    return named + (loaded if writes else []), current


def _quoted(text: str) -> list[str]:
    """The single- and double-quoted strings in ``text``, in order."""
    out: list[str] = []
    i = 0
    while i < len(text):
        q = text[i]
        if q in "'\"":
            j = i + 1
            buf: list[str] = []
            while j < len(text) and text[j] != q:
                if text[j] == "\\" and q == '"' and j + 1 < len(text):
                    j += 1
                buf.append(text[j])
                j += 1
            out.append("".join(buf))
            i = j + 1
        else:
            i += 1
    return out
