"""docker-compose files: each service's ``command:`` and ``entrypoint:``.

A string is a command line; a list is an argv (exec form), joined with shell quoting so
that ``["sh", "-c", "…"]`` is judged as the shell would run it.
"""

from __future__ import annotations

import shlex

from dcg.extract import _yaml
from dcg.extract.found import Found
from dcg.extract.script import split


def commands(path: str, text: str) -> list[Found]:
    out: list[Found] = []
    groups: dict[int, list[_yaml.Item]] = {}
    for key, item in _yaml.find(text, ("command", "entrypoint")):
        if item.seq:
            groups.setdefault(item.key_line, []).append(item)
            continue
        for found in split(
            item.text, path=path, source="docker-compose", label=key, line=item.line
        ):
            out.append(Found(path, found.line, item.column, found.text, "docker-compose", key))
    lines = text.split("\n")
    for key_line, items in groups.items():
        key = lines[key_line - 1].strip().lstrip("- ").split(":", 1)[0]
        argv = shlex.join(i.text for i in items)
        out.append(Found(path, items[0].line, items[0].column, argv, "docker-compose", key))
    out.sort(key=lambda f: (f.line, f.column))
    return out
