"""Hook settings the agents read besides their user and project files, through the hook.

Crush reads a project's ``crush.json`` beside ``.crush.json``; Claude Code merges the
drop-in directory ``/etc/claude-code/managed-settings.d/`` over its managed settings;
Gemini CLI reads ``/etc/gemini-cli/settings.json`` and Codex ``/etc/codex/config.toml``
over the user's. Each is in the ``HOOK_FILES`` of the agent's module: writing one with
the shell or an agent's file tool is core.dcg:edit-hooks, reading one is not.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hookpath import payload, run, verdict

RULE = "core.dcg:edit-hooks"

STOP = [
    "echo '{}' > crush.json",
    "cp /tmp/x crush.json",
    "tee crush.json < /dev/null",
    "sed -i s/dcg/x/ crush.json",
    "echo '{}' > sub/dir/crush.json",
    "rm crush.json",
    "echo '{}' | sudo tee /etc/gemini-cli/settings.json",
    "sudo cp off.json /etc/gemini-cli/settings.json",
    "sudo cp off.json /etc/claude-code/managed-settings.d/10-off.json",
    "echo '{\"disableAllHooks\":true}' | sudo tee /etc/claude-code/managed-settings.d/z.json",
    "sudo rm -rf /etc/claude-code/managed-settings.d",
    "echo '[features]' | sudo tee -a /etc/codex/config.toml",
    "sudo sed -i s/hooks/x/ /etc/codex/config.toml",
]
PASS = [
    "cat crush.json",
    "cat /etc/codex/config.toml",
    "ls /etc/claude-code/managed-settings.d/",
    "jq . /etc/gemini-cli/settings.json",
    "echo '{}' > crush.json.bak",
]

# (agent, tool, tool_input) for the agents' own file tools; {path} is the file.
FILE_TOOLS = [
    ("claude", "Write", {"file_path": "{path}", "content": "{}"}),
    ("claude", "Edit", {"file_path": "{path}", "old_string": "a", "new_string": "b"}),
    ("gemini", "write_file", {"file_path": "{path}", "content": "{}"}),
    ("qwen", "write_file", {"file_path": "{path}", "content": "{}"}),
    ("codex", "Write", {"file_path": "{path}", "content": "{}"}),
]
FILES = [
    "{cwd}/crush.json",
    "crush.json",
    "/etc/gemini-cli/settings.json",
    "/etc/claude-code/managed-settings.d/50-off.json",
    "/etc/codex/config.toml",
]


def _answer(body: dict[str, object]) -> tuple[str, str]:
    env = dict(os.environ, DCG_RESPONSE_MODE="paranoid", DCG_HOOK_DETAILS="1")
    code, out, err = run(json.dumps(body).encode(), env=env)
    return verdict(code, out, err), out + err


@pytest.mark.parametrize("command", STOP)
def test_writing_an_agents_other_settings_is_stopped(isolated_home: Path, command: str) -> None:
    for agent in ("claude", "codex", "gemini", "qwen", "crush"):
        answer, text = _answer(payload(agent, command, str(isolated_home)))
        assert answer == "deny", (agent, command, text)
        assert RULE in text, (agent, text)


@pytest.mark.parametrize("command", PASS)
def test_reading_them_passes(isolated_home: Path, command: str) -> None:
    for agent in ("claude", "codex", "crush"):
        answer, text = _answer(payload(agent, command, str(isolated_home)))
        assert answer == "none", (agent, command, text)


@pytest.mark.parametrize(("agent", "tool", "tool_input"), FILE_TOOLS)
@pytest.mark.parametrize("path", FILES)
def test_file_tools_writing_them_are_stopped(
    isolated_home: Path, agent: str, tool: str, tool_input: dict[str, object], path: str
) -> None:
    body = payload(agent, "true", str(isolated_home))
    filled = json.loads(json.dumps(tool_input).replace("{path}", path))
    filled = json.loads(json.dumps(filled).replace("{cwd}", str(isolated_home)))
    body.update(tool_name=tool, tool_input=filled)
    answer, text = _answer(body)
    assert answer == "deny", (agent, tool, path, text)
    assert RULE in text, text
