"""Shell scripts (by extension or shebang), and the splitter every format uses for script text.

A script is cut into logical command lines: a backslash-newline, an open quote or a
heredoc carries the line on, a comment line is dropped. Each logical line keeps the
line and column of its first character, so a finding points where the command is.
"""

from __future__ import annotations

from dcg.extract.found import Found

_EXTENSIONS = {".sh": "bash", ".bash": "bash", ".zsh": "bash", ".ksh": "bash"}
_EXTENSIONS.update({".ps1": "powershell", ".psm1": "powershell"})
_INTERPRETERS = {"sh": "bash", "bash": "bash", "dash": "bash", "zsh": "bash", "ksh": "bash"}
_INTERPRETERS.update({"ash": "bash", "pwsh": "powershell", "powershell": "powershell"})


def script_shell(name: str, head: str) -> str | None:
    """``bash``/``powershell`` when the file is a shell script, by its shebang (the
    content: ``#!/usr/bin/env pwsh`` makes even a ``.sh`` PowerShell) or else by its
    extension (``.sh``, ``.bash``…, ``.ps1``, ``.psm1``)."""
    by_content = _shebang(head)
    if by_content is not None:
        return by_content
    dot = name.rfind(".")
    if dot > 0 and name[dot:].lower() in _EXTENSIONS:
        return _EXTENSIONS[name[dot:].lower()]
    return None


def _shebang(head: str) -> str | None:
    if not head.startswith("#!"):
        return None
    words = head[2:].split("\n", 1)[0].split()
    if not words:
        return None
    interp = words[0].rsplit("/", 1)[-1]
    if interp == "env":
        rest = [w for w in words[1:] if not w.startswith("-")]
        interp = rest[0] if rest else ""
    return _INTERPRETERS.get(interp.lower().removesuffix(".exe"))


def commands(path: str, text: str) -> list[Found]:
    shell = script_shell(path.rsplit("/", 1)[-1], text[:256]) or "bash"
    if shell == "powershell":
        from dcg.extract import powershell

        return powershell.commands(path, text)
    return split(text, path=path, source="shell", shell=shell)


def split(
    text: str,
    *,
    path: str,
    source: str,
    label: str = "",
    shell: str = "bash",
    line: int = 1,
    indent: int = 0,
) -> list[Found]:
    """Cut script ``text`` into logical lines located in the file.

    ``line`` is the file line of the text's first line and ``indent`` how many columns
    were removed from the start of each line (a YAML block's indentation).
    """
    lines = text.split("\n")
    out: list[Found] = []
    i = 0
    while i < len(lines):
        first = lines[i]
        stripped = first.lstrip()
        if not stripped or stripped.startswith("#"):
            i += 1
            continue
        start, column = i, indent + len(first) - len(stripped) + 1
        parts = [stripped]
        state = _scan(stripped, None)
        heredocs = list(state.heredocs)
        i += 1
        while (state.open or state.continued) and i < len(lines):
            parts.append(lines[i])
            state = _scan(lines[i], state.open)
            heredocs.extend(state.heredocs)
            i += 1
        for delim, strip_tabs in heredocs:
            while i < len(lines):
                body = lines[i]
                parts.append(body)
                i += 1
                if (body.lstrip("\t") if strip_tabs else body) == delim:
                    break
        logical = "\n".join(parts).rstrip()
        out.append(Found(path, line + start, column, logical, source, label, shell))
    return out


class _State:
    __slots__ = ("continued", "heredocs", "open")

    def __init__(self, open_quote: str | None, continued: bool, heredocs: list[tuple[str, bool]]):
        self.open = open_quote
        self.continued = continued
        self.heredocs = heredocs


def _scan(line: str, quote: str | None) -> _State:
    """Quote state at the end of ``line`` (starting inside ``quote``), heredocs it opens."""
    heredocs: list[tuple[str, bool]] = []
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if quote == "'":
            if c == "'":
                quote = None
        elif quote == '"':
            if c == "\\":
                i += 1
            elif c == '"':
                quote = None
        elif c == "\\":
            if i == n - 1:
                return _State(None, True, heredocs)
            i += 1
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1] in " \t;&|("):
            break
        elif c == "<" and line.startswith("<<<", i):
            i += 3
            continue
        elif c == "<" and line.startswith("<<", i):
            i = _heredoc(line, i + 2, heredocs)
            continue
        i += 1
    return _State(quote, False, heredocs)


def _heredoc(line: str, i: int, heredocs: list[tuple[str, bool]]) -> int:
    strip_tabs = line.startswith("-", i)
    if strip_tabs:
        i += 1
    while i < len(line) and line[i] in " \t":
        i += 1
    j = i
    while j < len(line) and line[j] not in " \t;&|<>()":
        j += 1
    word = line[i:j].replace("'", "").replace('"', "").replace("\\", "")
    if word:
        heredocs.append((word, strip_tabs))
    return j
