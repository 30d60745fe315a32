"""package.json ``scripts``: script name -> command, with the line and column of its value.

``json.loads`` gives no positions, so the object is walked with the C decoder's scanner
(:func:`dcg.jsonfast.raw_decode` for keys and values): the values are exactly what
``json.loads`` would give, each key's offset is known, and neither ``json`` nor ``re`` is
imported (the hook resolves ``npm run NAME`` with this module).
"""

from __future__ import annotations

from dcg import jsonfast
from dcg.extract.found import Found

_WS = " \t\n\r"


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in _WS:
        i += 1
    return i


def _members(text: str, i: int) -> list[tuple[str, int, object]]:
    """``(key, offset of the value, value)`` for the object starting at ``text[i] == '{'``."""
    out: list[tuple[str, int, object]] = []
    i = _skip(text, i + 1)
    if i < len(text) and text[i] == "}":
        return out
    while i < len(text):
        if text[i] != '"':
            raise ValueError(f"expected a key at offset {i}")
        key, i = jsonfast.raw_decode(text, i)
        i = _skip(text, i)
        if i >= len(text) or text[i] != ":":
            raise ValueError(f"expected ':' at offset {i}")
        i = _skip(text, i + 1)
        value, end = jsonfast.raw_decode(text, i)
        out.append((key, i, value))
        i = _skip(text, end)
        if i < len(text) and text[i] == ",":
            i = _skip(text, i + 1)
            continue
        break
    return out


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def scripts(text: str, path: str = "package.json") -> dict[str, Found]:
    """Every script of a package.json, by name; empty when the text is not such a file.

    The position is that of the script's value (the command string) in the file.
    """
    start = _skip(text.lstrip("\ufeff"), 0)
    text = text.lstrip("\ufeff")
    if start >= len(text) or text[start] != "{":
        return {}
    try:
        top = _members(text, start)
        where = next(
            (off for key, off, val in top if key == "scripts" and isinstance(val, dict)), None
        )
        if where is None:
            return {}
        members = _members(text, where)
    except ValueError:
        return {}
    out: dict[str, Found] = {}
    for name, offset, value in members:
        if isinstance(value, str):
            line, column = _position(text, offset)
            out[name] = Found(path, line, column + 1, value, "package.json", name)
    return out


def resolve(text: str, name: str) -> str | None:
    """The command ``npm run NAME`` runs (``None`` when there is no such script)."""
    found = scripts(text).get(name)
    return found.text if found is not None else None


def commands(path: str, text: str) -> list[Found]:
    return list(scripts(text, path).values())


def run_order(text: str, name: str) -> list[Found]:
    """What ``npm run NAME`` runs, in order: ``preNAME``, ``NAME``, ``postNAME`` (those present)."""
    found = scripts(text)
    if name not in found:
        return []
    return [found[n] for n in (f"pre{name}", name, f"post{name}") if n in found]
