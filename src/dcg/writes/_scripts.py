"""Programs that write what their script says: sed ``w``, awk ``print >``, ed/ex/vim ``:w``.

Each reads the script the way its program does (sed's addresses and ``s`` flags, awk's
output redirections and string concatenation, ex's ``|``-separated commands) and names
the files it writes; a target computed from something unknown is left out.
"""

from __future__ import annotations

from dcg.writes._opts import parse, values

TYPE_CHECKING = False
if TYPE_CHECKING:
    Found = list[tuple[str, int]]


# --- sed, perl -i, ruby -i ----------------------------------------------------------------


def stream_editor(argv: tuple[str, ...], stdin: str | None) -> Found:
    """``sed -i``/``perl -pi``/``ruby -i`` edit their files; sed's ``w FILE`` writes FILE."""
    found: Found = []
    files, scripts = _script_files(argv)
    if _in_place(argv):
        found += [(a, False) for a in files]
    if argv[0] in ("sed", "gsed"):
        for script in scripts:
            found += [(f, False) for f in sed_writes(script)]
        if stdin and any(v in ("-", "/dev/stdin") for v in _file_scripts(argv)):
            found += [(f, False) for f in sed_writes(stdin)]
    return found


def _in_place(argv: tuple[str, ...]) -> bool:
    """``sed -i``, ``-Ei``, ``-i.bak``, ``--in-place``, ``perl -pi``: edits its files."""
    for a in argv[1:]:
        if a.startswith("--in-place") or a == "-i":
            return True
        if a.startswith("-") and not a.startswith("--"):
            for ch in a[1:]:
                if ch == "i":
                    return True
                if ch in ("eflE" if argv[0] != "sed" and argv[0] != "gsed" else "efl"):
                    break
    return False


def _file_scripts(argv: tuple[str, ...]) -> list[str]:
    opts, _ = parse(argv, "efl", ("--expression", "--file", "--line-length"))
    return values(opts, "-f", "--file")


def _script_files(argv: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """The file operands of sed/perl/ruby and the script texts given on the line: after the
    options, the first operand is the script unless ``-e``/``-f`` gave one."""
    files: list[str] = []
    scripts: list[str] = []
    given = False
    perl = argv[0] not in ("sed", "gsed")
    i = 1
    while i < len(argv):
        a = argv[i]
        if a in ("-e", "-f", "--expression", "--file", "-E") and not (a == "-E" and not perl):
            given = True
            if a in ("-e", "--expression", "-E") and i + 1 < len(argv):
                scripts.append(argv[i + 1])
            i += 2
            continue
        if a.startswith(("--expression=", "--file=")):
            given = True
            if a.startswith("--expression="):
                scripts.append(a.partition("=")[2])
        elif a.startswith("-") and len(a) > 1:
            for k, ch in enumerate(a[1:], 1):
                if ch == "i":
                    break
                if ch in ("eE" if perl else "ef"):
                    given = True
                    rest = a[k + 1 :]
                    if rest:
                        if ch != "f":
                            scripts.append(rest)
                    else:
                        if ch != "f" and i + 1 < len(argv):
                            scripts.append(argv[i + 1])
                        i += 1
                    break
        else:
            files.append(a)
        i += 1
    if given or not files:
        return files, scripts
    return files[1:], [files[0]]


def sed_writes(script: str) -> list[str]:
    """The files sed's ``w``/``W`` commands and ``s///w`` flags write."""
    out: list[str] = []
    i, n = 0, len(script)
    while i < n:
        c = script[i]
        if c in " \t\n;{}!":
            i += 1
            continue
        if c == "#":
            i = _eol(script, i)
            continue
        i = _address(script, i)
        while i < n and script[i] in " \t!":
            i += 1
        if i >= n:
            break
        c = script[i]
        i += 1
        if c in "wW":
            end = _eol(script, i)
            out.append(script[i:end].strip())
            i = end
        elif c in "rRaice:":
            i = _eol(script, i)
        elif c in "btTv":
            while i < n and script[i] not in ";\n}":
                i += 1
        elif c in "sy":
            if i >= n:
                break
            delim = script[i]
            i += 1
            for _ in range(2):
                i = _delimited(script, i, delim)
            if c == "s":
                while i < n and script[i] not in ";\n}":
                    if script[i] == "w":
                        end = _eol(script, i + 1)
                        out.append(script[i + 1 : end].strip())
                        i = end
                        break
                    if script[i] == "e":
                        break
                    i += 1
    return [f for f in out if f and f not in ("/dev/stdout", "/dev/stderr")]


def _eol(text: str, i: int) -> int:
    j = text.find("\n", i)
    return len(text) if j < 0 else j


def _delimited(text: str, i: int, delim: str) -> int:
    """The index after the closing ``delim`` of a sed regex or replacement."""
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "\n" and delim != "\n":
            return i
        i += 1
        if c == delim:
            return i
    return i


def _address(text: str, i: int) -> int:
    """Past a sed address or range (``3``, ``$``, ``/re/I``, ``\\%re%``, ``1~2``, ``a,+3``)."""
    n = len(text)
    for _ in range(2):
        if i < n and text[i] == "/":
            i = _delimited(text, i + 1, "/")
        elif i + 1 < n and text[i] == "\\":
            i = _delimited(text, i + 2, text[i + 1])
        else:
            while i < n and (text[i].isdigit() or text[i] in "$~+"):
                i += 1
        while i < n and text[i] in "IM":
            i += 1
        if i < n and text[i] == ",":
            i += 1
            continue
        break
    return i


# --- awk ----------------------------------------------------------------------------------

_AWK_VALUES = "fvFilEW"


def awk(argv: tuple[str, ...], stdin: str | None) -> Found:
    """awk's ``print > FILE``/``printf >> FILE``, gawk's ``-i inplace`` and its output files."""
    found: Found = []
    opts, ops = parse(argv, _AWK_VALUES, ("--file", "--assign", "--field-separator",
                                          "--include", "--load", "--exec", "--source"))  # fmt: skip
    known: dict[str, str] = {}
    for assign in values(opts, "-v", "--assign") + [a for a in ops[1:] if _is_assign(a)]:
        name, _, value = assign.partition("=")
        known[name] = value
    programs = values(opts, "--source")
    if not values(opts, "-f", "--file", "-E", "--exec"):
        programs = [ops[0], *programs] if ops else programs
        ops = ops[1:]
    for program in programs:
        found += [(t, False) for t in awk_writes(program, known)]
    if any(v.startswith("inplace") for v in values(opts, "-i", "--include")):
        found += [(a, False) for a in ops if not _is_assign(a)]
    for a in argv[1:]:
        for flag, default in (("-o", "awkprof.out"), ("-p", "awkprof.out"), ("-d", "awkvars.out")):
            if a.startswith(flag) and not a.startswith("--"):
                found.append((a[2:] or default, False))
        for flag in ("--pretty-print", "--profile", "--dump-variables"):
            if a.startswith(flag + "="):
                found.append((a.partition("=")[2], False))
    return found


def _is_assign(word: str) -> bool:
    name, eq, _ = word.partition("=")
    return bool(eq) and name.replace("_", "a").isalnum() and not name[:1].isdigit()


def awk_writes(program: str, known: dict[str, str] | None = None) -> list[str]:
    """The files an awk program's output redirections name, where they can be evaluated."""
    toks = _awk_tokens(program)
    env = dict(known or {})
    # Assignments anywhere in the program (`f = ENVIRON["HOME"] "/x"`), in order.
    for k in range(1, len(toks) - 1):
        if toks[k] == ("op", "=") and toks[k - 1][0] == "name":
            value = _awk_value(toks, k + 1, env)
            if value is not None:
                env[toks[k - 1][1]] = value
    out: list[str] = []
    for k, tok in enumerate(toks):
        if tok not in (("name", "print"), ("name", "printf")):
            continue
        depth = 0
        for j in range(k + 1, len(toks)):
            kind, text = toks[j]
            if kind == "op" and text in "([":
                depth += 1
            elif kind == "op" and text in ")]":
                depth -= 1
            elif kind == "end" or depth < 0:
                break
            elif depth == 0 and kind == "op" and text in (">", ">>"):
                value = _awk_value(toks, j + 1, env)
                if value is not None:
                    out.append(value)
                break
            elif depth == 0 and kind == "op" and text == "|":
                break
    return out


def _awk_value(toks: list[tuple[str, str]], k: int, env: dict[str, str]) -> str | None:
    """The string an awk expression from ``toks[k]`` concatenates, or None if unknown."""
    parts: list[str] = []
    depth = 0
    while k < len(toks):
        kind, text = toks[k]
        if kind == "end" or (kind == "op" and text in (";", "}", ",", "|", ">", "=")):
            break
        if kind == "op" and text == "(":
            depth += 1
        elif kind == "op" and text == ")":
            if depth == 0:
                break
            depth -= 1
        elif kind == "str":
            parts.append(text)
        elif kind == "name" and text == "ENVIRON" and k + 3 < len(toks) and toks[k + 2][0] == "str":
            parts.append("$" + toks[k + 2][1])
            k += 3
        elif kind == "name" and text in env:
            parts.append(env[text])
        else:
            return None
        k += 1
    return "".join(parts) or None


def _awk_tokens(program: str) -> list[tuple[str, str]]:
    """Strings, names, operators and statement ends of an awk program (regexes skipped)."""
    toks: list[tuple[str, str]] = []
    i, n = 0, len(program)
    while i < n:
        c = program[i]
        if c == '"':
            j, buf = i + 1, []
            while j < n and program[j] != '"':
                if program[j] == "\\" and j + 1 < n:
                    j += 1
                    buf.append({"n": "\n", "t": "\t"}.get(program[j], program[j]))
                else:
                    buf.append(program[j])
                j += 1
            toks.append(("str", "".join(buf)))
            i = j + 1
        elif c == "#":
            i = _eol(program, i)
        elif c == "/" and (not toks or (toks[-1][0] in ("op", "end") and toks[-1][1] != ")")):
            j = i + 1
            while j < n and program[j] not in "/\n":
                j += 2 if program[j] == "\\" else 1
            i = j + 1
        elif c.isalpha() or c == "_":
            j = i
            while j < n and (program[j].isalnum() or program[j] == "_"):
                j += 1
            toks.append(("name", program[i:j]))
            i = j
        elif c in "\n;{}":
            toks.append(("end", c))
            i += 1
        elif program.startswith((">>", "==", ">=", "<=", "!=", "&&", "||"), i):
            toks.append(("op", program[i : i + 2]))
            i += 2
        elif c in " \t\\":
            i += 1
        else:
            toks.append(("op", c))
            i += 1
    return toks


def editor(argv: tuple[str, ...], stdin: str | None) -> Found:
    from dcg.writes._editors import editor as read

    return read(argv, stdin)


# --- sqlite3 and Tcl (their own module) ---------------------------------------------------


def sqlite(argv: tuple[str, ...], stdin: str | None) -> Found:
    from dcg.writes._sqltcl import sqlite as read

    return read(argv, stdin)


def tcl(argv: tuple[str, ...], stdin: str | None) -> Found:
    from dcg.writes._sqltcl import tcl as read

    return read(argv, stdin)
