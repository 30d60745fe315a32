"""The shell commands in agents' own transcripts, read line by line (bounded memory).

Claude Code (``~/.claude/projects/*/*.jsonl``): each line is one event; an ``assistant``
event's ``message.content`` holds ``tool_use`` blocks, and those named ``Bash`` or
``PowerShell`` carry ``input.command``; the line has ``cwd``, ``sessionId`` and
``timestamp``.

Codex CLI (``~/.codex/sessions/**/rollout-*.jsonl``): lines are ``{"timestamp", "type",
"payload"}``; ``session_meta`` gives the session ``id`` and ``cwd``, ``turn_context`` a
later ``cwd``; a ``response_item`` whose payload is a ``function_call`` named ``shell``
(``arguments`` is a JSON string with ``command`` as an argv and ``workdir``),
``shell_command`` (``command`` a string), ``exec_command`` (``cmd``), or a
``local_shell_call`` (``action.command`` argv, ``action.working_directory``) is a shell
command. Older rollouts put those items on the line itself, without the wrapper, after a
first line with the session ``id``.

A line that is not a JSON object is counted as malformed and skipped. Lines that cannot
hold a shell call are recognised by a byte search and never decoded, which is what makes
a multi-gigabyte directory fast to read.
"""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Iterator
from typing import NamedTuple

CLAUDE_TOOLS = {"Bash": "bash", "PowerShell": "powershell"}
CODEX_NAMES = ("shell", "shell_command", "exec_command", "container.exec")
# A line holding none of these cannot carry a command or a session's identity.
_CLAUDE_MARKERS = (b'"tool_use"',)
_CODEX_MARKERS = (b"function_call", b"local_shell_call", b"session_meta", b"turn_context")
_ENDS = (b"}\n", b"}\r\n", b"}")


class Command(NamedTuple):
    """One shell command an agent ran, with where it came from."""

    text: str
    shell: str
    agent: str
    session_id: str
    timestamp: str
    cwd: str
    source: str  # path:line


class Counts:
    """Lines read and malformed (mutable: updated while the reader streams)."""

    __slots__ = ("bytes", "lines", "malformed")

    def __init__(self) -> None:
        self.lines = 0
        self.malformed = 0
        self.bytes = 0


def default_paths(home: str) -> list[tuple[str, str]]:
    """``(agent, path)`` of every transcript in the agents' default locations."""
    out: list[tuple[str, str]] = []
    projects = os.path.join(home, ".claude", "projects")
    if os.path.isdir(projects):
        for project in sorted(os.listdir(projects)):
            folder = os.path.join(projects, project)
            if os.path.isdir(folder):
                for name in sorted(os.listdir(folder)):
                    if name.endswith(".jsonl"):
                        out.append(("claude", os.path.join(folder, name)))
    sessions = os.path.join(home, ".codex", "sessions")
    for dirpath, dirnames, filenames in os.walk(sessions):
        dirnames.sort()
        for name in sorted(filenames):
            if name.startswith("rollout-") and name.endswith(".jsonl"):
                out.append(("codex", os.path.join(dirpath, name)))
    return out


def agent_of(path: str) -> str:
    """``codex`` for a rollout file or one under ``.codex``; else ``claude``."""
    parts = path.replace(os.sep, "/").split("/")
    if parts[-1].startswith("rollout-") or ".codex" in parts:
        return "codex"
    return "claude"


def given_paths(paths: list[str]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for path in paths:
        if os.path.isdir(path):
            for dirpath, dirnames, filenames in os.walk(path):
                dirnames.sort()
                for name in sorted(filenames):
                    if name.endswith(".jsonl"):
                        full = os.path.join(dirpath, name)
                        out.append((agent_of(full), full))
        else:
            out.append((agent_of(path), path))
    return out


def _object(raw: bytes, counts: Counts) -> dict[str, object] | None:
    try:
        value = json.loads(raw)
    except ValueError:
        counts.malformed += 1
        return None
    if not isinstance(value, dict):
        counts.malformed += 1
        return None
    return value


def read(path: str, agent: str, counts: Counts) -> Iterator[Command]:
    """The shell commands in one transcript file, in order."""
    reader = _claude if agent == "claude" else _codex
    with open(path, "rb") as fh:
        yield from reader(path, fh, counts)


def _candidate(raw: bytes, counts: Counts, markers: tuple[bytes, ...], first: bool = False) -> bool:
    """Whether the line must be decoded; a line that is plainly not an object is malformed."""
    counts.lines += 1
    counts.bytes += len(raw)
    # Checked without copying the line: tool results make most lines large.
    if not (raw.startswith(b"{") and raw.endswith(_ENDS)):
        stripped = raw.strip()
        if not stripped:
            return False
        if not (stripped.startswith(b"{") and stripped.endswith(b"}")):
            counts.malformed += 1
            return False
    if first:
        return True
    return any(marker in raw for marker in markers)


def _claude(path: str, fh: Iterator[bytes], counts: Counts) -> Iterator[Command]:
    for number, raw in enumerate(fh, start=1):
        if not _candidate(raw, counts, _CLAUDE_MARKERS):
            continue
        event = _object(raw, counts)
        if event is None or event.get("type") != "assistant":
            continue
        message = event.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, list):
            continue
        for block in content:
            if not isinstance(block, dict) or block.get("type") != "tool_use":
                continue
            shell = CLAUDE_TOOLS.get(str(block.get("name")))
            given = block.get("input")
            command = given.get("command") if isinstance(given, dict) else None
            if shell is None or not isinstance(command, str):
                continue
            yield Command(
                command,
                shell,
                "claude",
                str(event.get("sessionId") or ""),
                str(event.get("timestamp") or ""),
                str(event.get("cwd") or ""),
                f"{path}:{number}",
            )


def _codex(path: str, fh: Iterator[bytes], counts: Counts) -> Iterator[Command]:
    session_id, cwd = "", ""
    for number, raw in enumerate(fh, start=1):
        if not _candidate(raw, counts, _CODEX_MARKERS, number == 1):
            continue
        line = _object(raw, counts)
        if line is None:
            continue
        kind = line.get("type")
        payload = line.get("payload")
        if not isinstance(payload, dict):
            payload = line  # older rollouts: the item is the line itself
        if kind == "session_meta" or (number == 1 and "id" in line and "payload" not in line):
            session_id = str(payload.get("id") or session_id)
            cwd = str(payload.get("cwd") or cwd)
            continue
        if kind == "turn_context":
            cwd = str(payload.get("cwd") or cwd)
            continue
        found = _codex_call(payload)
        if found is None:
            continue
        text, workdir = found
        stamp = line.get("timestamp") or payload.get("timestamp") or ""
        yield Command(
            text, "bash", "codex", session_id, str(stamp), workdir or cwd, f"{path}:{number}"
        )


def _codex_call(item: dict[str, object]) -> tuple[str, str] | None:
    """``(command line, workdir)`` of a shell call item, or None."""
    kind = item.get("type")
    if kind == "local_shell_call":
        action = item.get("action")
        if not isinstance(action, dict):
            return None
        return _command_of(action.get("command")), str(action.get("working_directory") or "")
    if kind != "function_call" or item.get("name") not in CODEX_NAMES:
        return None
    arguments = item.get("arguments")
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return None
    if not isinstance(arguments, dict):
        return None
    command = arguments.get("command", arguments.get("cmd"))
    text = _command_of(command)
    if not text:
        return None
    return text, str(arguments.get("workdir") or arguments.get("cwd") or "")


def _command_of(command: object) -> str:
    if isinstance(command, str):
        return command
    if isinstance(command, list) and all(isinstance(w, str) for w in command):
        return shlex.join(command)
    return ""
