"""Edits made to a file earlier on the line, applied to its text: sed, appends, npm pkg set.

``sed -i 's/echo/rm -rf src/' build.sh && ./build.sh`` runs the edited file, so the text
judged must be the text after the edit. :func:`sed_apply` runs the common part of a sed
script (addresses, ``s``, ``d``, ``p``, ``a``/``i``/``c``, ``y``, ``q``) the way GNU sed
does; anything else, a pattern that could backtrack for long, or a line too long for that
bound answers None: the text cannot be known, and a later run of the file is judged as
code dcg cannot see. :func:`sed_runs` names the shell text sed's ``e`` command and the
``s///e`` flag run. Imported only when a file edited on the line is run or sed has ``e``.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from re import Match, Pattern

EDIT = "\x00edit:"  # a value: the file's text on disk with these ops applied, "\x1e"-separated
MAX_LINE = 4096  # a longer line is not searched with a pattern of the line's script


def sed_args(argv: list[str] | tuple[str, ...]) -> tuple[list[str], list[str], str] | None:
    """``(scripts, files, flags)`` of a sed command line; flags has "E" for extended
    regexps, "n" for -n, "i" for in-place, "f" when a script comes from a file."""
    scripts: list[str] = []
    files: list[str] = []
    flags = ""
    given = False
    i = 1
    while i < len(argv):
        a = argv[i]
        i += 1
        if a == "--":
            files += argv[i:]
            break
        if a.startswith("--"):
            key, eq, value = a.partition("=")
            if key in ("--expression", "--file"):
                if not eq:
                    value = argv[i] if i < len(argv) else ""
                    i += 1
                given = True
                if key == "--file":
                    flags += "f"
                else:
                    scripts.append(value)
            elif key in ("--regexp-extended",):
                flags += "E"
            elif key in ("--quiet", "--silent"):
                flags += "n"
            elif key == "--in-place":
                flags += "i"
            continue
        if a.startswith("-") and len(a) > 1:
            for k, ch in enumerate(a[1:], 1):
                if ch in "Er":
                    flags += "E"
                elif ch == "n":
                    flags += "n"
                elif ch == "i":
                    flags += "i"
                    break  # the rest is the backup suffix
                elif ch in "ef":
                    given = True
                    value = a[k + 1 :]
                    if not value:
                        value = argv[i] if i < len(argv) else ""
                        i += 1
                    if ch == "f":
                        flags += "f"
                    else:
                        scripts.append(value)
                    break
                elif ch == "l":
                    i += a[k + 1 :] == ""
                    break
            continue
        files.append(a)
    if not given:
        if not files:
            return None
        scripts.append(files.pop(0))
    return scripts, files, flags


# ---- sed's script -----------------------------------------------------------------------

# One command: (address 1, address 2, negated, name, arguments).
Addr = tuple[str, object] | None


class _Unknown(Exception):
    """A part of the script this reader does not run."""


def _regex(text: str, extended: bool) -> str:
    """A POSIX BRE/ERE as a Python pattern; raises _Unknown for what may backtrack."""
    out: list[str] = []
    i, n = 0, len(text)
    classes = {"alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z",
               "lower": "a-z", "space": " \\t\\n\\r\\f\\v", "blank": " \\t",
               "xdigit": "0-9A-Fa-f", "punct": "!-/:-@\\[-`{-~"}  # fmt: skip
    while i < n:
        c = text[i]
        if c == "\\" and i + 1 < n:
            d = text[i + 1]
            i += 2
            if not extended and d in "(){}+?|":
                out.append(d)
            elif d == "n":
                out.append("\\n")
            elif d == "t":
                out.append("\\t")
            elif d.isdigit() or d in ".*[]^$\\/+?(){}|":
                out.append("\\" + d)
            elif d in "wWsSbB<>`'":
                out.append({"<": "\\b", ">": "\\b", "`": "\\A", "'": "\\Z"}.get(d, "\\" + d))
            else:
                out.append("\\" + d if not d.isalnum() else d)
            continue
        if c == "[":
            j = i + 1
            if j < n and text[j] == "^":
                j += 1
            if j < n and text[j] == "]":
                j += 1
            while j < n and text[j] != "]":
                if text[j] == "[" and text[j + 1 : j + 2] in (":", ".", "="):
                    end = text.find(text[j + 1] + "]", j + 2)
                    if end < 0:
                        raise _Unknown
                    j = end + 2
                else:
                    j += 1
            if j >= n:
                raise _Unknown
            raw = text[i + 1 : j].replace("\\", "\\\\")
            for name, chars in classes.items():
                raw = raw.replace(f"[:{name}:]", chars)
            if "[" in raw.replace("\\[", ""):
                raise _Unknown  # an equivalence class or collating symbol
            out.append("[" + raw + "]")
            i = j + 1
            continue
        if not extended and c in "(){}+?|":
            out.append("\\" + c)
        elif c == "*" and (not out or out[-1] in ("(", "|", "^")):
            out.append("\\*")
        else:
            out.append(c)
        i += 1
    pattern = "".join(out)
    # A quantified group can backtrack exponentially: not run, the text stays unknown.
    for q in (")*", ")+", "){", ")?"):
        if q in pattern.replace("\\)", ""):
            raise _Unknown
    return pattern


def _delimited(script: str, i: int, delim: str) -> tuple[str, int]:
    """The text up to the unescaped ``delim`` from ``i`` and the index after it."""
    out: list[str] = []
    n = len(script)
    while i < n:
        c = script[i]
        if c == "\\" and i + 1 < n:
            nxt = script[i + 1]
            out.append(nxt if nxt == delim else c + nxt)
            i += 2
            continue
        if c == delim:
            return "".join(out), i + 1
        if c == "\n":
            break
        out.append(c)
        i += 1
    raise _Unknown


def _address(script: str, i: int, extended: bool, lenient: bool) -> tuple[Addr, int]:
    n = len(script)
    if i < n and script[i].isdigit():
        j = i
        while j < n and script[j].isdigit():
            j += 1
        return ("line", int(script[i:j])), j
    if i < n and script[i] == "$":
        return ("last", 0), i + 1
    if i < n and script[i] in "/\\":
        delim = "/"
        if script[i] == "\\":
            if i + 1 >= n:
                raise _Unknown
            delim, i = script[i + 1], i + 1
        body, j = _delimited(script, i + 1, delim)
        flags = 0
        while j < n and script[j] in "IM":
            flags |= 2 if script[j] == "I" else 8
            j += 1
        return ("re", None if lenient else _compile(_regex(body, extended), flags)), j
    return None, i


def _compile(pattern: str, flags: int) -> Pattern[str]:
    import re

    try:
        return re.compile(pattern, flags)
    except re.error:
        raise _Unknown from None


def _text_arg(script: str, i: int) -> tuple[str, int]:
    """The text of ``a``/``i``/``c``: GNU one-liner or ``a\\`` and the lines after it."""
    n = len(script)
    while i < n and script[i] in " \t":
        i += 1
    if i < n and script[i] == "\\":
        i += 1
        if i < n and script[i] == "\n":
            i += 1
    out: list[str] = []
    while i < n and script[i] != "\n":
        if script[i] == "\\" and i + 1 < n:
            out.append({"\n": "\n", "t": "\t"}.get(script[i + 1], script[i + 1]))
            i += 2
            continue
        out.append(script[i])
        i += 1
    return "".join(out), i


def parse(
    script: str, extended: bool, lenient: bool = False
) -> list[tuple[Addr, Addr, bool, str, object]]:
    """The commands of a sed script; raises _Unknown for one this reader does not run
    (``lenient``: only for one it cannot read past, the others are kept by name)."""
    cmds: list[tuple[Addr, Addr, bool, str, object]] = []
    i, n = 0, len(script)
    while i < n:
        while i < n and (script[i] in " \t\n;" or (lenient and script[i] == "}")):
            i += 1
        if i >= n:
            break
        if script[i] == "#":
            while i < n and script[i] != "\n":
                i += 1
            continue
        a1, i = _address(script, i, extended, lenient)
        a2: Addr = None
        if a1 is not None and i < n and script[i] == ",":
            a2, i = _address(script, i + 1, extended, lenient)
            if a2 is None:
                raise _Unknown
        while i < n and script[i] in " \t":
            i += 1
        neg = i < n and script[i] == "!"
        i += neg
        if i >= n:
            raise _Unknown
        c = script[i]
        i += 1
        arg: object = None
        if c == "s":
            if i >= n:
                raise _Unknown
            delim = script[i]
            pat, i = _delimited(script, i + 1, delim)
            rep, i = _delimited(script, i, delim)
            flags, count, glob, ex, show = 0, 1, False, False, False
            while i < n and script[i] not in ";\n}":
                f = script[i]
                i += 1
                if f == "g":
                    glob = True
                elif f.isdigit():
                    count = int(f)
                elif f in "iI":
                    flags |= 2
                elif f == "e":
                    ex = True
                elif f == "p":
                    show = True
                elif f == "w":
                    while i < n and script[i] != "\n":
                        i += 1
                elif f not in " mM":
                    raise _Unknown
            if count != 1 and not glob and not lenient:
                raise _Unknown  # only the Nth match: not modelled
            rx = _compile(_regex(pat, extended), flags) if pat and not lenient else None
            arg = (rx, rep, 0 if glob else count, ex, show, pat)
        elif c == "y":
            delim = script[i] if i < n else ""
            src, i = _delimited(script, i + 1, delim)
            dst, i = _delimited(script, i, delim)
            if len(src) != len(dst):
                raise _Unknown
            arg = str.maketrans(src, dst)
        elif c in "aice":
            arg, i = _text_arg(script, i)
        elif c in "wWrR" or (lenient and c in "btT:"):
            while i < n and script[i] != "\n" and (c in "wWrR" or script[i] not in ";}"):
                i += 1
            if c in "wW" and not lenient:
                continue
            if not lenient:
                raise _Unknown
        elif c not in "dpq=" and not (lenient and c in "{nNDPhHgGxlzFQ"):
            raise _Unknown
        cmds.append((a1, a2, neg, c, arg))
    return cmds


def sed_runs(scripts: list[str], extended: bool) -> list[str] | None:
    """The shell commands sed's ``e CMD`` runs; None when an ``e`` (or ``s///e``) runs
    text taken from the input, or the script cannot be read."""
    found: list[str] = []
    for script in scripts:
        try:
            cmds = parse(script, extended, lenient=True)
        except _Unknown:
            return None
        for _a1, _a2, _neg, c, arg in cmds:
            if c == "e":
                if not arg:
                    return None
                found.append(str(arg))
            elif c == "s" and isinstance(arg, tuple) and arg[3]:
                rep = str(arg[1])
                if "&" in rep or "\\" in rep:
                    return None
                if str(arg[5]) not in (".*", "^.*", "^.*$", ".*$"):
                    return None  # the rest of the line stays part of the command
                found.append(rep)
    return found


def _matches(addr: Addr, number: int, last: bool, line: str) -> bool:
    if addr is None:
        return True
    kind, value = addr
    if kind == "line":
        return number == value
    if kind == "last":
        return last
    return bool(value.search(line))  # type: ignore[attr-defined]


def _replace(rep: str) -> Callable[[Match[str]], str]:
    def expand(m: Match[str]) -> str:
        out: list[str] = []
        i = 0
        while i < len(rep):
            c = rep[i]
            if c == "\\" and i + 1 < len(rep):
                d = rep[i + 1]
                out.append(m.group(int(d)) or "" if d.isdigit() else "\n" if d == "n" else
                           "\t" if d == "t" else d)  # fmt: skip
                i += 2
                continue
            out.append(m.group(0) if c == "&" else c)
            i += 1
        return "".join(out)

    return expand


def sed_apply(text: str, scripts: list[str], flags: str) -> str | None:
    """``text`` after sed's ``scripts`` (None when it cannot be known)."""
    try:
        cmds = [c for s in scripts for c in parse(s, "E" in flags)]
    except _Unknown:
        return None
    if any(c == "e" or (c == "s" and isinstance(a, tuple) and a[3]) for _, _, _, c, a in cmds):
        return None
    lines = text.split("\n")
    trailing = text.endswith("\n")
    if trailing:
        lines.pop()
    if any(len(line) > MAX_LINE for line in lines):
        return None
    quiet = "n" in flags
    ranges = [False] * len(cmds)
    out: list[str] = []
    for number, line in enumerate(lines, 1):
        last = number == len(lines)
        before: list[str] = []
        after: list[str] = []
        deleted = quit_now = False
        for k, (a1, a2, neg, c, arg) in enumerate(cmds):
            if a2 is None:
                hit = _matches(a1, number, last, line)
            elif ranges[k]:
                hit = True
                kind, value = a2
                if (kind == "line" and number >= value) or _matches(a2, number, last, line):  # type: ignore[operator]
                    ranges[k] = False
            else:
                hit = _matches(a1, number, last, line)
                ranges[k] = hit and not (a2[0] == "line" and number >= a2[1])  # type: ignore[operator]
            if hit == neg:
                continue
            if c == "s":
                rx: Pattern[str] | None
                rep: str
                count: int
                show: bool
                rx, rep, count, _ex, show, _pat = arg  # type: ignore[misc]
                if rx is not None:
                    line = rx.sub(_replace(rep), line, count=count)
                if show:
                    before.append(line)
            elif c == "d":
                deleted = True
                break
            elif c == "p":
                before.append(line)
            elif c == "a":
                after.append(str(arg))
            elif c == "i":
                before.append(str(arg))
            elif c == "c":
                if a2 is None or not ranges[k]:
                    before.append(str(arg))
                deleted = True
                break
            elif c == "y":
                line = line.translate(arg)  # type: ignore[arg-type]
            elif c == "q":
                quit_now = True
                break
        out += before
        if not deleted and not quiet:
            out.append(line)
        out += after
        if quit_now:
            break
    return "\n".join(out) + ("\n" if trailing or out else "")


# ---- ops recorded for a file edited on the line ------------------------------------------


def record(old: str | None, op: str) -> str | None:
    """The value a file edited by ``op`` gets: applied now when its text is known,
    queued as an op on the disk's text when the file was not written on this line."""
    if old is None:
        return None
    if old.startswith(EDIT):
        return old + "\x1e" + op
    if old.startswith("\x00"):
        return None
    return apply(old, [op])


def apply(text: str, ops: list[str]) -> str | None:
    """``text`` after ``ops`` ("a" + appended text, "s" + flags + "\\x1f" + scripts…,
    "p" + key + "\\x1f" + value for npm pkg set)."""
    for op in ops:
        kind, body = op[:1], op[1:]
        if kind == "a":  # echo's text is kept without its newline: one line each
            text = text + ("\n" if text and not text.endswith("\n") else "") + body
        elif kind == "s":
            flags, *scripts = body.split("\x1f")
            edited = sed_apply(text, scripts, flags)
            if edited is None:
                return None
            text = edited
        elif kind == "p":
            key, _, value = body.partition("\x1f")
            edited = _pkg_set(text, key, value)
            if edited is None:
                return None
            text = edited
    return text


def _pkg_set(text: str, key: str, value: str) -> str | None:
    """package.json after ``npm pkg set KEY=VALUE`` (dotted keys, string values)."""
    import json

    try:
        data = json.loads(text) if text.strip() else {}
    except ValueError:
        return None
    node = data
    parts = key.split(".")
    for part in parts[:-1]:
        if not isinstance(node, dict):
            return None
        node = node.setdefault(part, {})
    if not isinstance(node, dict):
        return None
    node[parts[-1]] = value
    return json.dumps(data, indent=2) + "\n"
