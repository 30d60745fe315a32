"""An agent CLI started where dcg's hook does not load: its settings moved or replaced.

An agent can start another one (``claude -p``, ``codex exec``, ``opencode run``) that runs
commands of its own. Started with its settings elsewhere (``HOME=/tmp/h``,
``CLAUDE_CONFIG_DIR=…``, ``CODEX_HOME=…``) or replaced (``claude --settings
'{"disableAllHooks": true}'``), that agent runs them without dcg: the walker judges such a
start as the change of dcg's protection it is (core.dcg), like an edit of the settings.
Each agent's own variables and options are in its spec (``Agent.unguarded``).
"""

from __future__ import annotations

from dcg.shell.unwrap import normalize

_EVERY = ("HOME", "XDG_CONFIG_HOME")
_table: dict[str, tuple[str, ...]] = {}


def unguarded(argv: list[str], names: list[str]) -> str | None:
    """The variable (of ``names``, those the command's environment gets from the line) or
    the option that starts the agent ``argv`` runs without its settings."""
    if not _table:
        from dcg import agents

        for name, *_ in agents.REGISTRY:
            found = agents.spec(name)
            for binary in found.binaries:
                _table[binary] = (*_EVERY, *found.unguarded)
    for way in _table.get(normalize(argv[0]), ()) if argv else ():
        if way.startswith("-"):
            if any(a == way or a.startswith(way + "=") for a in argv[1:]):
                return way
        elif way in names:
            return way
    return None
