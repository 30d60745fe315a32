"""A small indentation-aware reader for the YAML that CI and task files hold commands in.

Not a YAML parser: it finds ``key:`` entries by name at any depth and reads their value
(a plain or quoted scalar, a ``|``/``>`` block, a block or flow sequence of those), keeping
each command's line and column. That is all the command formats need, without a YAML
library (the hook path is stdlib-only).
"""

from __future__ import annotations

import json

from dcg.extract.found import Found
from dcg.extract.script import split


class Item:
    """A scalar read from the file: its text, and where its first line starts."""

    __slots__ = ("block", "column", "key_line", "line", "seq", "text")

    def __init__(self, line: int, column: int, text: str, block: bool, seq: bool = False) -> None:
        self.line = line
        self.column = column
        self.text = text
        self.block = block
        self.seq = seq  # one element of a sequence (flow or block)
        self.key_line = 0  # the line of the key whose value this is


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _strip_comment(value: str) -> str:
    if value[:1] in ("'", '"'):
        return value
    at = value.find(" #")
    return (value[:at] if at != -1 else value).rstrip()


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return value[1:-1].replace("''", "'")
    if len(value) >= 2 and value[0] == value[-1] == '"':
        try:
            result = json.loads(value)
        except ValueError:
            return value[1:-1]
        return result if isinstance(result, str) else value[1:-1]
    return value


def _flow(value: str) -> list[str]:
    """``[a, "b c"]`` -> ``["a", "b c"]``."""
    try:
        parsed = json.loads(value)
    except ValueError:
        parsed = [_unquote(p.strip()) for p in value.strip()[1:-1].split(",") if p.strip()]
    return [str(p) for p in parsed] if isinstance(parsed, list) else []


def _block(lines: list[str], i: int, parent: int, header: str) -> tuple[list[Item], int]:
    """The block scalar whose header (``|``, ``>-`` …) ends line ``i - 1``."""
    start = i
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i >= len(lines) or _indent(lines[i]) <= parent:
        return [], i
    indent = _indent(lines[i])
    first = i
    body: list[str] = []
    i = start
    while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) >= indent):
        body.append(lines[i][indent:])
        i += 1
    while body and not body[-1].strip():
        body.pop()
    text = "\n".join(body[first - start :])
    if header.startswith(">"):
        # Folded: lines of one paragraph join with spaces (more-indented lines stay).
        paragraphs: list[str] = []
        for line in text.split("\n"):
            if paragraphs and line and paragraphs[-1] and not line.startswith((" ", "\t")):
                paragraphs[-1] += " " + line
            else:
                paragraphs.append(line)
        text = "\n".join(paragraphs)
    return [Item(first + 1, indent + 1, text, True)], i


def _scalar(
    lines: list[str], i: int, parent: int, value: str, column: int
) -> tuple[list[Item], int]:
    """The scalar or flow sequence ``value`` found on line ``i - 1`` at ``column``."""
    if value.startswith(("|", ">")):
        return _block(lines, i, parent, value)
    if value.startswith("["):
        return [Item(i, column, t, False, seq=True) for t in _flow(value)], i
    text = _unquote(value)
    if value[:1] not in ("'", '"'):
        # A plain scalar may go on over more-indented lines (folded with spaces).
        while (
            i < len(lines)
            and lines[i].strip()
            and _indent(lines[i]) > parent
            and ":" not in lines[i]
        ):
            text += " " + _strip_comment(lines[i].strip())
            i += 1
    return [Item(i, column, text, False)] if text else [], i


def _value(
    lines: list[str], i: int, key_col: int, rest: str, column: int, holes: list[tuple[int, int]]
) -> tuple[list[Item], int]:
    """The value of the key on line ``i - 1`` (indent ``key_col``); ``rest``: its inline part."""
    if rest:
        return _scalar(lines, i, key_col, rest, column)
    j = i
    while j < len(lines) and not lines[j].strip():
        j += 1
    if j >= len(lines):
        return [], j
    if not lines[j].lstrip().startswith("- ") and lines[j].strip() != "-":
        if _indent(lines[j]) > key_col and ":" not in lines[j].split(" #")[0]:
            return _scalar(
                lines, j + 1, key_col, _strip_comment(lines[j].strip()), _indent(lines[j]) + 1
            )
        return [], i
    seq = _indent(lines[j])
    if seq < key_col:
        return [], i
    items: list[Item] = []
    while j < len(lines):
        line = lines[j]
        if not line.strip() or line.lstrip().startswith("#"):
            j += 1
            continue
        if _indent(line) != seq or not line.lstrip().startswith("-"):
            break
        body = line.lstrip()[1:]
        value = _strip_comment(body.strip())
        col = seq + 2 + len(body) - len(body.lstrip())
        head = value.split(":", 1)[0]
        if (value and not value.startswith(("'", '"', "|", ">", "[")) and value.endswith(":")) or (
            ": " in value and head.replace("_", "").replace("-", "").isalnum()
        ):
            # A mapping item (`- cmd: …`, `- task: …`): its keys are looked up on their own.
            begin = j
            j += 1
            while j < len(lines) and (not lines[j].strip() or _indent(lines[j]) > seq):
                j += 1
            holes.append((begin, j))
            continue
        found, j = _scalar(lines, j + 1, seq, value, col)
        for item in found:
            item.seq = True
        items.extend(found)
    return items, j


def find(text: str, keys: tuple[str, ...]) -> list[tuple[str, Item]]:
    """``(key, item)`` for every value of one of ``keys``, at any depth, in file order."""
    out: list[tuple[str, Item]] = []
    _find(text.split("\n"), 0, None, keys, out)
    out.sort(key=lambda pair: (pair[1].line, pair[1].column))
    return out


def _find(
    lines: list[str], i: int, end: int | None, keys: tuple[str, ...], out: list[tuple[str, Item]]
) -> None:
    stop = len(lines) if end is None else end
    while i < stop:
        line = lines[i]
        stripped = line.lstrip(" ")
        col = len(line) - len(stripped)
        while stripped.startswith("- "):
            stripped = stripped[2:].lstrip(" ")
            col = len(line) - len(stripped)
        key, sep, rest = stripped.partition(":")
        key = _unquote(key.strip())
        if sep and key in keys and (not rest or rest[0] in " \t"):
            value = _strip_comment(rest.strip())
            column = col + len(key) + 2 + len(rest) - len(rest.lstrip())
            holes: list[tuple[int, int]] = []
            items, nxt = _value(lines, i + 1, col, value, column, holes)
            for item in items:
                item.key_line = i + 1
                out.append((key, item))
            for begin, finish in holes:
                _find(lines, begin, finish, keys, out)
            i = max(nxt, i + 1)
            continue
        i += 1


def split_item(
    path: str, lines: list[str], key: str, item: Item, source: str, shell: str = "bash"
) -> list[Found]:
    """The command lines of one value, split as a script in ``shell``'s language and
    located in the file."""
    if shell == "powershell":
        from dcg.extract import powershell

        indent = item.column - 1 if item.block else 0
        found = powershell.commands(
            path, item.text, source=source, label=key, line=item.line, indent=indent
        )
        if item.block:
            return found
        quoted = lines[item.line - 1][item.column - 1 : item.column] in ("'", '"')
        first = item.column + (1 if quoted else 0)
        return [
            Found(
                path,
                f.line,
                first if f.line == item.line else f.column,
                f.text,
                source,
                key,
                f.shell,
            )
            for f in found
        ]
    if item.block:
        return split(
            item.text, path=path, source=source, label=key, line=item.line, indent=item.column - 1
        )
    quoted = lines[item.line - 1][item.column - 1 : item.column] in ("'", '"')
    column = item.column + (1 if quoted else 0)
    return [
        Found(path, found.line, column, found.text, source, key, found.shell)
        for found in split(item.text, path=path, source=source, label=key, line=item.line)
    ]


def commands(path: str, text: str, keys: tuple[str, ...], source: str) -> list[Found]:
    """The command lines in the values of ``keys``, split as scripts, located in the file."""
    lines = text.split("\n")
    out: list[Found] = []
    for key, item in find(text, keys):
        out.extend(split_item(path, lines, key, item, source))
    return out
