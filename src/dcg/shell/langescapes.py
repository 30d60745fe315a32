"""Shell escapes in gdb commands, m4 input and Lua code, given inline, on stdin or in a file.

gdb's ``shell CMD``/``!CMD``/``pipe … | CMD`` and ``python`` blocks, m4's ``syscmd(CMD)``
and ``esyscmd(CMD)``, Lua's ``os.execute("CMD")`` and ``io.popen("CMD")`` run what they
name: each is queued as a payload and judged like the command it hides; a command computed
inside the language (an m4 macro, a Lua variable) is opaque. Each reader returns the files
its text reads in turn (gdb ``source``, m4 ``include``, Lua ``dofile``), which
:mod:`dcg.shell.cmdfiles` follows.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from dcg.shell.unwrap import Work

_GDB_SHELL = ("shell ", "!", "pipe ", "| ")
_GDB_PYTHON = ("python ", "py ", "pi ", "python-interactive ")
_GDB_BLOCK = frozenset(("python", "py", "python-interactive", "pi"))


def gdb_text(w: Work, text: str, label: str) -> list[str]:
    """Queue what gdb commands run (``shell``, ``!``, ``pipe``, ``python``, a ``python …
    end`` block); the files they ``source``."""
    files: list[str] = []
    block: list[str] | None = None
    for line in text.split("\n"):
        cmd = line.strip()
        if block is not None:
            if cmd == "end":
                w.payloads.append(("python", f"{label} python", "\n".join(block), []))
                block = None
            else:
                block.append(line)
            continue
        if cmd in _GDB_BLOCK:
            block = []
        elif cmd.startswith(_GDB_SHELL):
            prefix = next(p for p in _GDB_SHELL if cmd.startswith(p))
            w.payloads.append(("sh", label, cmd[len(prefix) :], []))
        elif cmd.startswith(_GDB_PYTHON):
            w.payloads.append(("python", f"{label} python", cmd.partition(" ")[2], []))
        elif cmd.startswith("source ") or cmd.startswith("so "):
            words = [a for a in cmd.split()[1:] if not a.startswith("-")]
            files += words[:1]
    if block:
        w.payloads.append(("python", f"{label} python", "\n".join(block), []))
    return files


def _balanced(text: str, i: int) -> int:
    """The index of the ``)`` closing the ``(`` at ``i`` (len(text) when it stays open)."""
    depth = 0
    for k in range(i, len(text)):
        if text[k] == "(":
            depth += 1
        elif text[k] == ")":
            depth -= 1
            if depth == 0:
                return k
    return len(text)


def _unquote_m4(arg: str) -> str:
    t = arg.strip()
    while len(t) >= 2 and t[0] == "`" and t[-1] == "'":
        t = t[1:-1]
    return t


def m4_text(w: Work, text: str, label: str = "m4") -> list[str]:
    """Queue what ``syscmd``/``esyscmd`` in m4 input run; the files it ``include``s."""
    files: list[str] = []
    prefix = "m4_" if any(a in ("-P", "--prefix-builtins") for a in w.argv[1:]) else ""
    for name in ("esyscmd", "syscmd", "include", "sinclude"):
        macro = prefix + name
        i = text.find(macro + "(")
        while i >= 0:
            before = text[i - 1 : i]
            start = i + len(macro)
            end = _balanced(text, start)
            arg = _unquote_m4(text[start + 1 : end])
            if before.isalnum() or before == "_":
                pass
            elif macro.endswith("include"):
                files.append(arg)
            else:
                w.payloads.append(("sh", f"{label} {macro}", arg, []))
            i = text.find(macro + "(", start)
    return files


def m4(w: Work) -> None:
    """``m4 -Dx='syscmd(…)'`` and m4 input on stdin (a pipe, a here-document)."""
    for k, a in enumerate(w.argv[1:], 1):
        if "syscmd(" in a:
            w.data[k] = "m4 input (parsed)"
            m4_text(w, a)
    text = w.stdin if w.stdin is not None else w.fed
    if text is not None:
        m4_text(w, text)
    elif w.piped and not any(a[:1] != "-" for a in w.argv[1:]):
        w.opaque = w.opaque or f"m4 expands input piped in from {w.feeder or 'a command'}"


_LUA_RUNS = ("os.execute", "io.popen")


def _lua_string(text: str, i: int) -> str | None:
    """The literal Lua string at ``i`` (``"…"``, ``'…'``, ``[[…]]``), else None."""
    t = text[i:].lstrip(" \t(")
    if t[:2] == "[[":
        end = t.find("]]")
        return t[2:end] if end > 0 else None
    if t[:1] in ("'", '"'):
        q, k = t[0], 1
        while k < len(t) and t[k] != q:
            k += 2 if t[k] == "\\" else 1
        rest = t[k + 1 :].lstrip()
        if k < len(t) and rest[:1] in (")", ",", ""):
            return t[1:k].replace("\\" + q, q)
    return None


def lua_text(w: Work, text: str, label: str = "lua") -> list[str]:
    """Queue what ``os.execute``/``io.popen`` in Lua code run (computed: opaque); the
    files it ``dofile``s."""
    for name in _LUA_RUNS:
        i = text.find(name)
        while i >= 0:
            found = _lua_string(text, i + len(name))
            if found is None:
                w.opaque = w.opaque or f"{label} {name} runs a command computed at run time"
            else:
                w.payloads.append(("sh", f"{label} {name}", found, []))
            i = text.find(name, i + len(name))
    return dofiles(text)


def dofiles(text: str) -> list[str]:
    """The files Lua code runs with ``dofile``/``loadfile``."""
    files: list[str] = []
    for name in ("dofile", "loadfile"):
        i = text.find(name)
        while i >= 0:
            found = _lua_string(text, i + len(name))
            files += [found] if found else []
            i = text.find(name, i + len(name))
    return files


def lua(w: Work) -> None:
    """``lua -e CODE`` and Lua code on stdin."""
    argv = w.argv
    for k in range(1, len(argv) - 1):
        if argv[k] == "-e":
            w.data[k + 1] = "lua code (parsed)"
            lua_text(w, argv[k + 1])
        elif argv[k][:1] != "-":
            return
    text = w.stdin if w.stdin is not None else w.fed
    if text is not None and (len(argv) == 1 or argv[-1] == "-"):
        lua_text(w, text)
