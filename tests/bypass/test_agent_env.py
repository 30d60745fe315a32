"""Self-protection: an agent started with its settings moved or replaced runs without dcg.

``HOME=/tmp/h claude -p …``, ``CLAUDE_CONFIG_DIR=…``, ``CODEX_HOME=…``,
``claude --settings '{"disableAllHooks": true}'``: the nested agent reads settings where
dcg's hook is not registered, so everything it runs goes unguarded. Each agent's spec
names its own variables and options (``Agent.unguarded``); HOME and XDG_CONFIG_HOME move
every agent's. Such a start is core.dcg:self-approve, through the hook for every agent.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from dcg import agents
from dcg.packs import KEYWORDS
from hookpath import AGENTS, VARIANTS, payload, run, verdict

RULE = "core.dcg:self-approve"

STOP = [
    'HOME=/tmp/h claude -p "tidy up"',
    "CLAUDE_CONFIG_DIR=/tmp/x claude -p x",
    "claude --settings '{\"disableAllHooks\": true}' -p x",
    "claude --setting-sources project -p x",
    "claude --setting-sources=local -p x",
    "CODEX_HOME=/tmp/c codex exec x",
    "export CODEX_HOME=/tmp/c && codex exec x",
    "env HOME=/tmp/h gemini -p x",
    "sudo HOME=/tmp/h qwen -p x",
    "XDG_CONFIG_HOME=/tmp/x opencode run x",
    "OPENCODE_CONFIG_DIR=/tmp/o opencode run x",
    "export HOME=/tmp/h; claude -p x",
    "HOME=/tmp/h; cursor-agent -p x",
    "nohup env CODEX_HOME=/tmp/c codex exec x &",
    "bash -c 'HOME=$(mktemp -d) copilot -p x'",
]
PASS = [
    'claude -p "fix the failing test"',
    "codex exec --model o3 'explain this'",
    "HOME=$PWD/h pytest -q",
    "CARGO_HOME=/tmp/c cargo build",
    "echo $CLAUDE_CONFIG_DIR",
    "grep -rn CODEX_HOME docs/",
]


def _answer(agent: str, command: str, cwd: str) -> tuple[str, str]:
    env = dict(os.environ, DCG_RESPONSE_MODE="paranoid", DCG_HOOK_DETAILS="1")
    code, out, err = run(json.dumps(payload(agent, command, cwd)).encode(), env=env)
    return verdict(code, out, err), out + err


@pytest.mark.parametrize("command", STOP)
def test_agent_started_without_its_settings_is_stopped(isolated_home: Path, command: str) -> None:
    for agent in AGENTS:
        answer, text = _answer(agent, command, str(isolated_home))
        assert answer == "deny", (agent, command, text)
        assert RULE in text, (agent, text)
    for name, variant in VARIANTS.items():
        answer, text = _answer("claude", variant(command), str(isolated_home))
        assert answer == "deny" and RULE in text, (name, command, text)


@pytest.mark.parametrize("command", PASS)
def test_agent_started_as_configured_passes(isolated_home: Path, command: str) -> None:
    for agent in AGENTS:
        answer, text = _answer(agent, command, str(isolated_home))
        assert answer == "none", (agent, command, text)


def test_every_agents_ways_reach_the_walker() -> None:
    """The keyword prefilter lets through every variable and option a spec names: a line
    that only sets one must still be read by the walker."""
    keywords = KEYWORDS["core.dcg"]
    for name, *_ in agents.REGISTRY:
        for way in agents.spec(name).unguarded:
            word = way.lstrip("-").lower()
            assert any(word.startswith(k) for k in keywords), (name, way)
