"""Taskfiles (go-task): every task's ``cmds:`` (strings or ``- cmd:`` items)."""

from __future__ import annotations

from dcg.extract import _yaml
from dcg.extract.found import Found


def commands(path: str, text: str) -> list[Found]:
    return _yaml.commands(path, text, ("cmds", "cmd"), "taskfile")
