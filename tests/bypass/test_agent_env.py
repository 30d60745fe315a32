"""Self-protection: an agent started with its settings moved or replaced runs without dcg.

``HOME=/tmp/h claude -p …``, ``CLAUDE_CONFIG_DIR=…``, ``CODEX_HOME=…``,
``claude --settings '{"disableAllHooks": true}'``, ``claude --bare``, ``codex --disable
hooks``: the nested agent reads settings where dcg's hook is not registered, or none, so
everything it runs goes unguarded. Each agent's spec names its own variables and options
(``Agent.unguarded``) and the npm packages that start it (``Agent.packages``: ``npx
@anthropic-ai/claude-code``); HOME and XDG_CONFIG_HOME move every agent's. Such a start
is core.dcg:self-approve, through the hook for every agent.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from dcg import agents
from dcg.keywords import mentions, scan_text
from dcg.packs import KEYWORDS
from dcg.shell import agentenv
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
    # Started with its hooks switched off, or its system settings replaced.
    "claude --bare -p x",
    "CLAUDE_CODE_SIMPLE=1 claude -p x",
    "claude --safe-mode",
    "CLAUDE_CODE_SAFE_MODE=1 claude",
    "claude --restricted --tools Bash",
    "claude --managed-settings '{\"disableAllHooks\":true}'",
    "export CLAUDE_CODE_SIMPLE=1; claude -p x",
    "codex --disable hooks exec x",
    "codex --disable codex_hooks exec x",
    "codex --disable=hooks exec x",
    "codex -c features.hooks=false exec x",
    "codex --config features.hooks=false exec x",
    "codex exec --config=features.codex_hooks=false x",
    "GEMINI_CLI_HOME=/tmp/g gemini -p x",
    "GEMINI_CLI_SYSTEM_SETTINGS_PATH=/tmp/s.json gemini",
    "export GEMINI_CLI_HOME=/tmp/g; gemini -p x",
    "QWEN_HOME=/tmp/q qwen -p x",
    "QWEN_CODE_SYSTEM_SETTINGS_PATH=/tmp/s.json qwen",
    # The same agents started through package runners.
    "npx -y @anthropic-ai/claude-code --settings '{\"disableAllHooks\":true}' -p x",
    "HOME=/tmp/x npx @anthropic-ai/claude-code -p x",
    "npx @anthropic-ai/claude-code@latest --bare -p x",
    "npx -- @anthropic-ai/claude-code --bare",
    "npx -p @anthropic-ai/claude-code claude --bare",
    "GEMINI_CLI_HOME=/tmp/g bunx @google/gemini-cli -p x",
    "pnpm dlx @openai/codex --disable hooks exec x",
    "npm x -y @openai/codex@0.50 -c features.hooks=false exec x",
    "QWEN_HOME=/tmp/q npm exec -- @qwen-code/qwen-code -p x",
    "yarn dlx @anthropic-ai/claude-code --bare",
    "bun x @anthropic-ai/claude-code --bare",
    "OPENCODE_CONFIG_DIR=/tmp/o npx opencode-ai run x",
]
PASS = [
    'claude -p "fix the failing test"',
    "codex exec --model o3 'explain this'",
    "HOME=$PWD/h pytest -q",
    "CARGO_HOME=/tmp/c cargo build",
    "echo $CLAUDE_CONFIG_DIR",
    "grep -rn CODEX_HOME docs/",
    'claude -p "hello"',
    'codex exec "ls"',
    "gemini -p hi",
    "qwen -p hi",
    "npx @anthropic-ai/claude-code --version",
    "npx -y @openai/codex exec ls",
    "git init --bare repo.git",
    "codex -c model=o3 exec x",
    "codex --disable web_search exec x",
    "npm exec -- prettier --check .",
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


def _spelled(way: str) -> str:
    """A line that uses ``way`` (an option with a value pattern gets a value it matches)."""
    option, _, pattern = way.partition("=")
    return f"{option} {pattern.replace('*', 'features.')}" if pattern else f"{way}=1"


def test_every_agents_ways_reach_the_walker() -> None:
    """The keyword prefilter lets through every variable and option a spec names, and so
    does the walker's cheap test before it reads the specs: a line that only sets one must
    still be judged, for every binary and package that starts the agent."""
    keywords = KEYWORDS["core.dcg"]
    for name, *_ in agents.REGISTRY:
        found = agents.spec(name)
        for way in found.unguarded:
            line = _spelled(way)
            assert mentions(scan_text(line), keywords), (name, way)
            starts = [*found.binaries, *(f"npx {p}" for p in found.packages)]
            for start in starts:
                argv = [*start.split(), *line.split()]
                names = [] if way.startswith("-") else [way]
                assert agentenv.may_start(argv, names), (name, way, start)
                assert agentenv.unguarded(argv, names), (name, way, start)
