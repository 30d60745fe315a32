"""What every agent's transcript reader shares (``Transcripts.read`` of an agent's spec).

A line that is not a JSON object is counted as malformed and skipped. Lines that cannot
hold a shell call are recognised by a byte search and never decoded, which is what makes
a multi-gigabyte directory fast to read. Off the hot path: only ``dcg replay`` reads it.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable
from typing import NamedTuple

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


def decode(raw: bytes, counts: Counts) -> dict[str, object] | None:
    """The line as a JSON object; None (counted as malformed) when it is not one."""
    try:
        value = json.loads(raw)
    except ValueError:
        counts.malformed += 1
        return None
    if not isinstance(value, dict):
        counts.malformed += 1
        return None
    return value


def candidate(raw: bytes, counts: Counts, markers: tuple[bytes, ...], first: bool = False) -> bool:
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


def command_of(command: object) -> str:
    """A command given as a string or an argv, as one line; "" for anything else."""
    if isinstance(command, str):
        return command
    if isinstance(command, list) and all(isinstance(w, str) for w in command):
        return shlex.join(command)
    return ""


def jsonl_under(top: str, accept: Callable[[str], bool] | None = None) -> list[str]:
    """Every ``.jsonl`` file under ``top`` (sorted walk); ``accept``: a test of the name."""
    import os

    out: list[str] = []
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(".jsonl") and (accept is None or accept(name)):
                out.append(os.path.join(dirpath, name))
    return out
