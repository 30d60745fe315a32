"""justfiles: every recipe's body lines (``@``/``-`` prefixes stripped); shebang recipes whole."""

from __future__ import annotations

from dcg.extract.found import Found
from dcg.extract.script import split

_NOT_RECIPES = ("set ", "alias ", "export ", "import ", "mod ", "#", "[")


def _header(line: str) -> str | None:
    """The recipe name when ``line`` starts a recipe (``name args: deps``)."""
    if not line or line[0] in " \t" or line.startswith(_NOT_RECIPES):
        return None
    colon = line.find(":")
    if colon <= 0 or line.startswith(":=", colon):
        return None
    words = line[:colon].lstrip("@").split()
    return words[0] if words else None


def commands(path: str, text: str) -> list[Found]:
    out: list[Found] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        name = _header(lines[i])
        i += 1
        if name is None:
            continue
        body: list[tuple[int, str]] = []
        while i < len(lines) and (not lines[i].strip() or lines[i][:1] in " \t"):
            body.append((i + 1, lines[i]))
            i += 1
        while body and not body[-1][1].strip():
            body.pop()
        if not body:
            continue
        indent = len(body[0][1]) - len(body[0][1].lstrip())
        first_line = body[0][0]
        if body[0][1].strip().startswith("#!"):
            script = "\n".join(line[indent:] for _, line in body)
            out.extend(
                split(
                    script, path=path, source="justfile", label=name, line=first_line, indent=indent
                )
            )
            continue
        for number, line in body:
            stripped = line.strip()
            while stripped[:1] in ("@", "-"):
                stripped = stripped[1:].lstrip()
            column = len(line) - len(line.lstrip()) + 1 + len(line.strip()) - len(stripped)
            for found in split(stripped, path=path, source="justfile", label=name, line=number):
                out.append(Found(path, found.line, column, found.text, "justfile", name))
    return out
