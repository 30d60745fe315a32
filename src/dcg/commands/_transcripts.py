"""The shell commands in agents' own transcripts, read line by line (bounded memory).

Which agents keep transcripts dcg reads, where, and how each is read is part of the
agent's spec (``Agent.transcripts``, :class:`dcg.agents._spec.Transcripts`: Claude Code's
in ``agents/claude.py``, Codex's in ``agents/codex.py``); this module finds the files and
hands each to its agent's reader.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from dcg.agents._transcript import Command, Counts

__all__ = ["Command", "Counts", "agent_of", "agents", "default_paths", "given_paths", "read"]

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.agents._spec import Transcripts


_READERS: dict[str, Transcripts] = {}


def _readers() -> dict[str, Transcripts]:
    if not _READERS:
        from dcg.agents import AGENTS, spec

        for name in AGENTS:
            found = spec(name).transcripts
            if found is not None:
                _READERS[name] = found
    return _READERS


def agents() -> tuple[str, ...]:
    """The agents whose transcripts dcg reads (``dcg replay --agent``), in the CLI's order."""
    return tuple(_readers())


def default_paths(home: str) -> list[tuple[str, str]]:
    """``(agent, path)`` of every transcript in the agents' default locations."""
    return [(name, path) for name, t in _readers().items() for path in t.find(home)]


def agent_of(path: str) -> str:
    """The agent whose transcript the file ``path`` is: the first that claims it, the
    agents that claim every file last."""
    readers = _readers()
    catch_all = [name for name, t in readers.items() if t.owns("")]
    for name, t in readers.items():
        if name not in catch_all and t.owns(path):
            return name
    return catch_all[0] if catch_all else next(iter(readers))


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


def read(path: str, agent: str, counts: Counts) -> Iterator[Command]:
    """The shell commands in one transcript file, in order."""
    reader = _readers()[agent].read
    with open(path, "rb") as fh:
        yield from reader(path, fh, counts)
