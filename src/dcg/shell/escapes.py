"""Shell escapes inside tools: vim/ex ``!cmd``, sqlite3 ``.shell``, Tcl ``exec``, awk pipes.

Each handler queues what the tool will run as a payload of its own (``sh`` text or an
``argv``), so a literal escape is judged like the command it hides; an escape whose
command is computed inside the tool (vim ``:execute``, awk ``system(x)``, Tcl
``exec $cmd``) is opaque. The handlers are registered in :mod:`dcg.shell.payloads`.
"""

from __future__ import annotations

from dcg.shell.unwrap import normalize

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from dcg.shell.unwrap import Work

_SHELLS = frozenset(("sh", "bash", "zsh", "dash", "ksh", "/bin/sh", "/bin/bash"))
_CODE_READERS = ("python", "perl", "ruby", "node", "php", "tclsh", "lua", "awk", "gawk")


def _opaque(w: Work, why: str) -> None:
    if w.opaque is None:
        w.opaque = why


# ---- vim, vi, ex, nvim: -c CMD, +CMD, --cmd CMD, commands on stdin ----

_EX_READ_WRITE = ("r", "re", "rea", "read", "w", "wr", "wri", "writ", "write")


def _ex(w: Work, text: str, name: str) -> None:
    """Queue the shell commands that ex command text runs."""
    for line in text.split("\n"):
        parts = [line] if line.lstrip(" :").startswith("!") else line.split("|")
        for part in parts:
            _ex_one(w, part, name)


def ex_text(w: Work, text: str, name: str) -> None:
    """Queue the shell commands of a vim script file (``vim -S FILE``)."""
    _ex(w, text, name)


def _edited(w: Work) -> list[str]:
    """The files vim, ex or ed edit (their operands), shell-quoted."""
    out: list[str] = []
    argv = w.argv
    k = 1
    while k < len(argv):
        a = argv[k]
        if a in ("--cmd", "-S") or _short(a, "cuUiTwWtq"):
            k += 2
            continue
        if a[:1] not in ("-", "+"):
            out.append("'" + a.replace("'", "'\\''") + "'")
        k += 1
    return out


def _short(a: str, letters: str) -> bool:
    """``a`` is short options whose last takes a value in ``letters`` (``-sc``, ``-u``)."""
    return a[:1] == "-" and a[1:2] != "-" and a[-1:] in letters and a[1:].isalpha()


def _fed_buffer(w: Work, cmd: str, name: str) -> None:
    """``:%!sh``, ``:w !sh``: the buffer (the file edited) is the command's input."""
    files = _edited(w)
    for f in files:
        w.payloads.append(("sh", f"{name} filter", f"{cmd} < {f}", []))
    if not files:
        w.payloads.append(("sh", f"{name} !", cmd, []))
        first = normalize(cmd.split()[0]) if cmd.split() else ""
        if first in _SHELLS or first.startswith(_CODE_READERS):
            _opaque(w, f"{name} filters a buffer dcg cannot know through {first}")


def _ex_one(w: Work, cmd: str, name: str) -> None:
    c = cmd.strip().lstrip(":").strip()
    ranged = False
    for _ in range(2):  # `:%silent !…`, `:silent %!…`
        ranged = ranged or (c[:1] in "%.,$'0123456789" and c[:1] != "")
        while c[:1] in "%.,$'0123456789" and c[:1]:
            c = c[1:].lstrip()
        for prefix in ("silent!", "silent", "sil!", "sil"):
            if c.startswith(prefix + " ") or c.startswith(prefix + "!"):
                c = c[len(prefix) :].lstrip()
                break
    word = ""
    while len(word) < len(c) and c[len(word)].isalpha():
        word = c[: len(word) + 1]
    rest = c[len(word) :].lstrip()
    if c.startswith("!") and ranged:
        _fed_buffer(w, c[1:], name)
    elif c.startswith("!"):
        w.payloads.append(("sh", f"{name} !", c[1:], []))
    elif word in _EX_READ_WRITE and rest.startswith("!") and word[:1] == "w":
        _fed_buffer(w, rest[1:], name)
    elif word in _EX_READ_WRITE and rest.startswith("!"):
        w.payloads.append(("sh", f"{name} :{word} !", rest[1:], []))
    elif word in ("term", "terminal", "ter"):
        w.payloads.append(("sh", f"{name} :terminal", rest, []))
    elif word in ("py", "python", "py3", "python3", "pyx", "pythonx"):
        w.payloads.append(("python", f"{name} :{word}", rest, []))
    elif word in ("perl", "ruby"):
        w.payloads.append((word, f"{name} :{word}", rest, []))
    elif word in ("exe", "exec", "execute") and rest:
        literal = _vim_string(rest)
        if literal is None:
            _opaque(w, f"{name} :execute runs an ex command computed at run time")
        else:
            _ex(w, literal, name)
    elif "system(" in c or "systemlist(" in c:
        arg = c[c.find("(", c.find("system")) + 1 :].rstrip().rstrip(")")
        literal = _vim_string(arg)
        if literal is None:
            _opaque(w, f"{name} system() runs a command computed at run time")
        else:
            w.payloads.append(("sh", f"{name} system()", literal, []))


def _vim_string(text: str) -> str | None:
    """The value of one quoted vim string literal, else None (a computed expression)."""
    t = text.strip()
    if len(t) >= 2 and t[0] == t[-1] and t[0] in "'\"" and t[0] not in t[1:-1]:
        return t[1:-1]
    return None


def vim(w: Work) -> None:
    argv = w.argv
    name = normalize(argv[0])
    silent = name == "ex"
    found = False
    i = 1
    while i < len(argv):
        a = argv[i]
        if (a in ("--cmd", "-S") or _short(a, "c")) and i + 1 < len(argv):
            if a[-1:] != "S":
                w.data[i + 1] = f"{name} command (parsed)"
                _ex(w, argv[i + 1], name)
                found = True
            i += 2
            continue
        if a.startswith("+") and len(a) > 1:
            w.data[i] = f"{name} command (parsed)"
            _ex(w, a[1:], name)
            found = True
        elif a in ("-e", "-es", "-Es", "-s", "-E") or (a.startswith("-") and "s" in a[1:3]):
            silent = True
        i += 1
    text = w.stdin if w.stdin is not None else w.fed
    if silent and text is not None:
        _ex(w, text, name)
    elif silent and w.piped and not found:
        _opaque(w, f"{name} runs ex commands piped in from {w.feeder or 'a command'}")


def ed(w: Work) -> None:
    """ed reads its commands on stdin: ``!CMD``, ``r !CMD``, ``w !CMD``, ``e !CMD`` run a shell."""
    text = w.stdin if w.stdin is not None else w.fed
    if text is not None:
        _ex(w, text.replace("\ne !", "\n!").replace("\nE !", "\n!"), "ed")
    elif w.piped:
        _opaque(w, f"ed runs commands piped in from {w.feeder or 'a command'}")
    elif w.infile is not None:
        _opaque(w, f"ed runs the commands in {w.infile}")


# ---- sqlite3: dot commands that run a shell ----


def sqlite_text(w: Work, text: str) -> None:
    for line in text.replace(";", "\n").split("\n"):
        t = line.strip()
        if not t.startswith("."):
            continue
        word, _, rest = t.partition(" ")
        rest = rest.strip()
        name = word[1:].lower()
        if len(name) >= 2 and ("shell".startswith(name) or "system".startswith(name)):
            # sqlite3 takes any prefix of two letters or more: .sh, .sys

            w.payloads.append(("sh", f"sqlite3 {word}", rest, []))
        elif word in (".once", ".output", ".read", ".import") and rest.lstrip("'\"")[:1] == "|":
            cmd = rest.strip("'\"")[1:]
            if word == ".import":
                cmd = cmd.rsplit(None, 1)[0] if " " in cmd else cmd
            w.payloads.append(("sh", f"sqlite3 {word} |", cmd, []))


def sqlite(w: Work) -> None:
    argv = w.argv
    i, seen_db = 1, False
    while i < len(argv):
        a = argv[i]
        if a in ("-cmd", "--cmd") and i + 1 < len(argv):
            sqlite_text(w, argv[i + 1])
            i += 2
            continue
        if a in ("-init", "-separator", "-newline", "-nullvalue", "-vfs", "-escape", "-maxsize"):
            i += 2
            continue
        if not a.startswith("-"):
            if seen_db:
                sqlite_text(w, a)
            seen_db = True
        i += 1
    text = w.stdin if w.stdin is not None else w.fed
    if text is not None:
        sqlite_text(w, text)


# ---- Tcl (tclsh, wish, expect): exec, open "|…", spawn, system ----


def _tcl_commands(text: str) -> list[list[str]]:
    """Tcl commands as word lists; ``[…]`` substitutions become commands of their own."""
    out: list[list[str]] = []
    words: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "\n;":
            if words:
                out.append(words)
            words = []
            i += 1
        elif c in " \t\r":
            i += 1
        elif c == "#" and not words:
            while i < n and text[i] != "\n":
                i += 1
        else:
            j, word = _tcl_word(text, i)
            for k in range(len(word)):
                if word[k] == "[" and (k == 0 or word[k - 1] != "\\"):
                    end = _close(word, k, "[", "]")
                    out.extend(_tcl_commands(word[k + 1 : end]))
            words.append(word)
            i = j
    if words:
        out.append(words)
    return out


def _close(s: str, i: int, o: str, c: str) -> int:
    depth = 0
    for k in range(i, len(s)):
        if s[k] == o:
            depth += 1
        elif s[k] == c:
            depth -= 1
            if depth == 0:
                return k
    return len(s)


def _tcl_word(s: str, i: int) -> tuple[int, str]:
    if s[i] == "{" and not s.startswith("{*}", i):
        end = _close(s, i, "{", "}")
        return end + 1, s[i + 1 : end]
    if s[i] == '"':
        j = i + 1
        while j < len(s) and s[j] != '"':
            j += 2 if s[j] == "\\" else 1
        return j + 1, s[i + 1 : j]
    j = i
    while j < len(s) and s[j] not in " \t\r\n;":
        if s[j] == "[":
            j = _close(s, j, "[", "]")
        j += 1
    return j, s[i:j]


def _tcl(w: Work, text: str, name: str) -> None:
    for words in _tcl_commands(text):
        head = words[0]
        args = words[1:]
        if head in ("exec", "spawn", "open", "system", "eval", "uplevel", "catch"):
            if head in ("catch", "eval", "uplevel") and args:
                body = args[-1] if head != "catch" else args[0]
                if "$" in body or "[" in body:
                    _opaque(w, f"{name} {head} runs Tcl code computed at run time")
                else:
                    _tcl(w, body, name)
                continue
            if head == "open":
                if not args or not args[0].startswith("|"):
                    continue
                args = args[0][1:].split() + args[1:2] * 0
            while args and args[0].startswith("-") and head != "system":
                args = args[1:]
            cut = [k for k, a in enumerate(args) if a in ("|", "<", ">", "2>", "&", ">>")]
            args = args[: cut[0]] if cut else args
            if not args:
                continue
            if args[0][:1] in ("$", "[") or args[0].startswith("{*}"):
                _opaque(w, f"{name} {head} runs a command computed at run time")
            elif head == "system":
                w.payloads.append(("sh", f"{name} system", " ".join(args), []))
            else:
                w.payloads.append(("argv", f"{name} {head}", "", args))


def tcl_text(w: Work, text: str, name: str) -> list[str]:
    """Queue what a Tcl script runs; the files it ``source``s."""
    _tcl(w, text, name)
    return tcl_sources(text)


def tcl_sources(text: str) -> list[str]:
    """The files a Tcl script ``source``s."""
    return [c[-1] for c in _tcl_commands(text) if c[0] == "source" and len(c) > 1]


def tcl(w: Work) -> None:
    argv = w.argv
    name = normalize(argv[0])
    for k in range(1, len(argv) - 1):
        if argv[k] == "-c":
            w.data[k + 1] = f"{name} script (parsed)"
            _tcl(w, argv[k + 1], name)
            return
    if len(argv) > 1 and not argv[1].startswith("-"):
        return  # a script file
    text = w.stdin if w.stdin is not None else w.fed
    if text is not None:
        _tcl(w, text, name)
    elif w.piped:
        _opaque(w, f"the output of {w.feeder or 'a command'} is piped into {name} as code")


# ---- awk: print | "cmd", "cmd" | getline, system(computed) ----


def awk_program(w: Work, program: str, label: str = "awk") -> None:
    """What an awk program runs: literal ``system("…")`` and its other escapes."""
    i = program.find("system(")
    while i >= 0:
        j = i + 7
        while j < len(program) and program[j] in " \t":
            j += 1
        if j < len(program) and program[j] == '"':
            end = _string_end(program, j)
            cmd = program[j + 1 : end if end > 0 else len(program)]
            w.payloads.append(("sh", f"{label} system()", cmd.replace('\\"', '"'), []))
        i = program.find("system(", j)
    if "system" in program or "|" in program:
        awk_escapes(w, program)


def awk_escapes(w: Work, program: str) -> None:
    """What an awk program runs besides literal system("…") (which payloads handles)."""
    i = program.find("system(")
    while i >= 0:
        j = i + 7
        while j < len(program) and program[j] in " \t":
            j += 1
        end = _string_end(program, j) if program[j : j + 1] == '"' else -1
        after = program[end + 1 : end + 2].strip() if end > 0 else ""
        if end < 0 or (after and after != ")"):
            _opaque(w, "awk system() runs a command computed at run time")
        i = program.find("system(", j)
    k = program.find("|")
    while k >= 0:
        if program.startswith("||", k):
            k = program.find("|", k + 2)
            continue
        after = program[k + 1 :].lstrip("& \t")
        before = program[:k].rstrip()
        stmt = before[max(before.rfind(c) for c in "{;\n") + 1 :].strip()
        if before.count('"') % 2 or not (
            after.startswith("getline") or stmt.startswith(("print", "printf"))
        ):
            k = program.find("|", k + 1)
            continue
        if after.startswith("getline"):
            if before.endswith('"'):
                start = before.rfind('"', 0, len(before) - 1)
                w.payloads.append(("sh", "awk | getline", before[start + 1 : -1], []))
            else:
                _opaque(w, "awk runs a command computed at run time (| getline)")
        elif after.startswith('"'):
            end = _string_end(after, 0)
            cmd = after[1:end]
            w.payloads.append(("sh", "awk print |", cmd, []))
            if normalize(cmd.split()[0] if cmd.split() else "") in _SHELLS:
                literal = stmt.split(None, 1)[1].strip() if " " in stmt else ""
                if literal.startswith('"') and _string_end(literal, 0) == len(literal) - 1:
                    w.payloads.append(("sh", "awk print | sh", literal[1:-1], []))
                else:
                    _opaque(w, f"awk prints text computed at run time into {cmd} as code")
        elif after[:1].isalpha() or after[:1] == "$":
            _opaque(w, "awk pipes into a command computed at run time")
        k = program.find("|", k + 1)


def _string_end(s: str, j: int) -> int:
    end = j + 1
    while end < len(s) and s[end] != '"':
        end += 2 if s[end] == "\\" else 1
    return end if end < len(s) else -1


# ---- database clients and pagers: psql \!, mysql system, less +!cmd ----


def _psql(w: Work, text: str, name: str) -> None:
    """psql's ``\\! cmd``, output piped to a command (``\\o |cmd``, ``\\g |cmd``) and
    ``COPY … PROGRAM 'cmd'`` / ``\\copy … program 'cmd'``."""
    for line in text.split("\n"):
        i = line.find("\\")
        while i >= 0:
            rest = line[i + 1 :]
            word = rest.split(None, 1)[0] if rest.strip() else ""
            if rest.startswith("!"):
                w.payloads.append(("sh", f"{name} \\!", rest[1:], []))
                break
            if word in ("o", "out", "g", "gx", "w", "write") and "|" in rest:
                w.payloads.append(("sh", f"{name} \\{word} |", rest.partition("|")[2], []))
                break
            i = line.find("\\", i + 1)
        lower = line.lower()
        at = lower.find("program")
        if at >= 0 and "copy" in lower[:at]:
            quoted = line[at + 7 :].strip()
            if quoted[:1] in ("'", '"') and quoted.find(quoted[0], 1) > 0:
                cmd = quoted[1 : quoted.find(quoted[0], 1)]
                w.payloads.append(("sh", f"{name} copy program", cmd, []))
            else:
                _opaque(w, f"{name} copy runs a program dcg cannot read")


def _mysql(w: Work, text: str, name: str) -> None:
    """mysql's ``system cmd`` / ``\\! cmd`` and ``pager cmd`` / ``\\P cmd`` (the pager
    runs on every result)."""
    for stmt in text.replace(";", "\n").split("\n"):
        s = stmt.strip()
        word, _, rest = s.partition(" ")
        if word.lower() in ("system", "\\!", "pager", "\\p") or s.startswith("\\!"):
            cmd = s[2:] if s.startswith("\\!") and word != "\\!" else rest
            w.payloads.append(("sh", f"{name} {word.lower()}", cmd, []))


# client -> (options whose value is the client's command text, options whose value is a
# shell command, parser of the command text); stdin is command text too.
_CLIENTS = {
    "psql": (("-c", "--command"), (), _psql),
    "mysql": (("-e", "--execute"), ("--pager",), _mysql),
    "mariadb": (("-e", "--execute"), ("--pager",), _mysql),
}


def client(w: Work) -> None:
    """A database client's shell escapes, in its options and in what it reads on stdin."""
    argv = w.argv
    name = normalize(argv[0])
    texts, shells, parse = _CLIENTS[name]
    for k, a in enumerate(argv[1:], 1):
        if a == "--":
            break
        key, eq, value = a.partition("=")
        if not eq and k + 1 < len(argv) and a in (*texts, *shells):
            value, key = argv[k + 1], a
        elif not eq and a[:2] in texts and len(a) > 2 and a[1] != "-":
            value, key = a[2:], a[:2]
        elif not eq:
            continue
        if key in shells:
            w.payloads.append(("sh", f"{name} {key}", value, []))
        elif key in texts:
            parse(w, value, name)
    text = w.stdin if w.stdin is not None else w.fed
    if text is not None:
        parse(w, text, name)


def less(w: Work) -> None:
    """less's ``+cmd`` (and ``LESS='+cmd'``) runs a less command at start: ``!cmd`` runs
    a shell command, ``|Xcmd`` pipes to one."""
    starts = [a for a in w.argv[1:] if a[:1] == "+"]
    env = w.assigns.get("LESS")
    if env and "+" in env:
        starts.append(env[env.index("+") :])
    for start in starts:
        c = start.lstrip("+")
        if c[:1] == "!":
            w.payloads.append(("sh", "less !", c[1:], []))
        elif c[:1] == "|" and len(c) > 2:
            w.payloads.append(("sh", "less |", c[2:], []))
