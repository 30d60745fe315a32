"""PowerShell scripts and modules cut into statements, as PowerShell reads them, not as sh.

A backtick at the end of a line, a pipe at the end of a line, an open quote or an open
parenthesis carry the statement on; a here-string (``@'``…``'@``, ``@"``…``"@``) is one
string to its closing line; ``#`` comments and ``<#`` … ``#>`` block comments (comment-based
help, whose ``.EXAMPLE`` sections show commands) are no commands. Braces do not join lines:
the statements inside a function or an ``if`` block are judged one by one, as scripts are.
"""

from __future__ import annotations

from dcg.extract.found import Found

EXTENSIONS = (".ps1", ".psm1")


class _State:
    __slots__ = ("block", "depth", "here", "quote")

    def __init__(self) -> None:
        self.quote = ""  # "'" or '"' while inside a one-line string
        self.here = ""  # "'@" or '"@' while inside a here-string
        self.block = False  # inside <# … #>
        self.depth = 0  # open parentheses


def _line(line: str, st: _State) -> tuple[str, bool]:
    """``line`` with comments removed, and whether the statement goes on to the next line."""
    if st.here:
        if line.startswith(st.here):
            st.here = ""
            rest, more = _line(line[2:], st)
            return line[:2] + rest, more
        return line, True
    out: list[str] = []
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if st.block:
            end = line.find("#>", i)
            if end < 0:
                return "".join(out), False
            st.block = False
            i = end + 2
            continue
        if st.quote:
            out.append(c)
            if c == "`" and st.quote == '"' and i + 1 < n:
                out.append(line[i + 1])
                i += 2
                continue
            if c == st.quote:
                st.quote = ""
            i += 1
            continue
        if c == "<" and line.startswith("<#", i):
            st.block = True
            i += 2
            continue
        if c == "#":
            break
        if c == "@" and line[i + 1 : i + 2] in ("'", '"') and not line[i + 2 :].strip():
            st.here = line[i + 1] + "@"
            out.append(line[i:])
            return "".join(out), True
        if c in "'\"":
            st.quote = c
        elif c == "(":
            st.depth += 1
        elif c == ")":
            st.depth = max(0, st.depth - 1)
        elif c == "`" and i + 1 < n:
            out.append(line[i : i + 2])
            i += 2
            continue
        out.append(c)
        i += 1
    text = "".join(out).rstrip()
    more = bool(st.quote) or st.depth > 0 or text.endswith(("`", "|"))
    return text, more


def commands(
    path: str,
    text: str,
    *,
    source: str = "shell",
    label: str = "",
    line: int = 1,
    indent: int = 0,
) -> list[Found]:
    """Every statement of the PowerShell script ``text``, at its first line and column
    (``line``: the file line of the text's first line; ``indent``: columns removed from
    the start of each line, a YAML block's indentation)."""
    out: list[Found] = []
    st = _State()
    parts: list[str] = []
    start = column = 0
    for number, raw in enumerate(text.split("\n"), start=line):
        raw = raw.rstrip("\r")
        was_open = bool(parts)
        in_block = st.block
        code, more = _line(raw, st)
        if not was_open:
            if not code.strip():
                continue
            start = number
            code = code.lstrip()
            # After a block comment's "#>" the code starts where its text is found.
            column = raw.find(code[:20]) + 1 if in_block else len(raw) - len(raw.lstrip()) + 1
            column += indent
        parts.append(code)
        if more:
            continue
        statement = "\n".join(parts).strip()
        parts = []
        if statement:
            out.append(Found(path, start, column, statement, source, label, "powershell"))
    rest = "\n".join(parts).strip()
    if rest:
        out.append(Found(path, start, column, rest, source, label, "powershell"))
    return out
