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


def dependencies(text: str) -> tuple[list[str], dict[str, list[str]]]:
    """Recipe names in file order, and each recipe's dependencies (``build: clean test``)."""
    order: list[str] = []
    deps: dict[str, list[str]] = {}
    for line in text.split("\n"):
        name = _header(line)
        if name is None or name in deps:
            continue
        order.append(name)
        rest = line[line.find(":") + 1 :].split("#", 1)[0]
        found: list[str] = []
        for word in rest.replace("&&", " ").split():
            word = word.strip("()")
            if word and (word[0].isalpha() or word[0] == "_"):
                found.append(word)
        deps[name] = found
    return order, deps


def plan(text: str, recipe: str, path: str = "justfile") -> list[Found] | None:
    """The body lines ``just RECIPE`` runs, dependencies first (the first recipe if none)."""
    order, deps = dependencies(text)
    if not recipe:
        recipe = order[0] if order else ""
    if recipe not in deps:
        return None
    bodies: dict[str, list[Found]] = {}
    for found in commands(path, text):
        bodies.setdefault(found.label, []).append(found)
    out: list[Found] = []
    done: set[str] = set()

    def visit(name: str, depth: int) -> None:
        if name in done or depth > 32:
            return
        done.add(name)
        for dep in deps.get(name, ()):
            visit(dep, depth + 1)
        out.extend(bodies.get(name, ()))

    visit(recipe, 0)
    return out
