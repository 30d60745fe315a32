"""Agent adapters: detecting the agent and reading command, shell, cwd and session."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dcg import agents

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
PAYLOADS: dict[str, dict[str, object]] = {
    agent: json.loads((GOLDEN / "payloads" / f"{agent}.json").read_text())
    for agent in agents.AGENTS
}
# Agents whose payload names no session: Kiro CLI documents none; Amp's is in the
# delegate's environment (AMP_THREAD_ID), not its stdin. dcg falls back to the shell's
# identity for them (decisions.md §2).
NO_SESSION = {"kiro", "amp"}


@pytest.mark.parametrize("agent", [pytest.param(a, id=a) for a in agents.AGENTS])
def test_detects_each_agent_and_reads_its_ids(agent: str) -> None:
    assert agents.detect(PAYLOADS[agent]) == agent
    request = agents.read_request(PAYLOADS[agent], None)
    assert request is not None
    assert (request.agent, request.command, request.cwd) == (
        agent,
        "git reset --hard HEAD~1",
        "/home/ana/repo",
    )
    assert bool(request.session_id) == (agent not in NO_SESSION)


def test_amp_reads_its_thread_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_TOOL_NAME", "Bash")
    monkeypatch.setenv("AMP_THREAD_ID", "T-7")
    request = agents.read_request(PAYLOADS["amp"], "amp")
    assert request is not None and request.session_id == "T-7"
    monkeypatch.setenv("AGENT_TOOL_NAME", "Read")
    assert agents.read_request(PAYLOADS["amp"], "amp") is None


@pytest.mark.parametrize("agent", [pytest.param(a, id=a) for a in agents.AGENTS])
def test_named_agent_reads_its_payload(agent: str) -> None:
    request = agents.read_request(PAYLOADS[agent], agent)
    assert request is not None
    assert request.agent == agent


READS = [
    pytest.param(
        "claude",
        {"tool_name": "PowerShell", "tool_input": {"command": "Remove-Item -r -fo C:\\x"}},
        ("Remove-Item -r -fo C:\\x", "powershell", "PowerShell"),
        id="claude-powershell",
    ),
    pytest.param(
        "codex",
        {"turn_id": "t", "tool_name": "Bash", "tool_input": {"command": ["git", "clean", "-fd"]}},
        ("git clean -fd", "bash", "Bash"),
        id="codex-argv",
    ),
    pytest.param(
        "codex",
        {
            "turn_id": "t",
            "tool_name": "Bash",
            "tool_input": {"command": ["bash", "-lc", "rm -rf x"]},
        },
        ("bash -lc 'rm -rf x'", "bash", "Bash"),
        id="codex-argv-quoted",
    ),
    pytest.param(
        "copilot",
        {"toolName": "powershell", "toolArgs": json.dumps({"command": "rm -r -fo ."})},
        ("rm -r -fo .", "powershell", "powershell"),
        id="copilot-powershell",
    ),
    pytest.param(
        "copilot",
        {"session_id": "s", "tool_name": "bash", "tool_args": {"command": "git push -f"}},
        ("git push -f", "bash", "bash"),
        id="copilot-snake-case-object",
    ),
    pytest.param(
        "copilot",
        {"session_id": "s", "tool_name": "bash", "tool_args": '{"command": "ls"}'},
        ("ls", "bash", "bash"),
        id="copilot-snake-case-string",
    ),
    pytest.param(
        "cursor",
        {"conversation_id": "c", "command": "ls", "workspace_roots": ["/w"]},
        ("ls", "bash", "beforeShellExecution"),
        id="cursor-no-event-name",
    ),
]


@pytest.mark.parametrize(("agent", "payload", "expected"), READS)
def test_reads_command_shell_and_tool(
    agent: str, payload: dict[str, object], expected: tuple[str, str, str]
) -> None:
    assert agents.detect(payload) == agent
    request = agents.read_request(payload, None)
    assert request is not None
    assert (request.command, request.shell, request.tool) == expected


def test_cursor_cwd_falls_back_to_workspace_root() -> None:
    payload = {"conversation_id": "c", "command": "ls", "workspace_roots": ["/w"]}
    request = agents.read_request(payload, None)
    assert request is not None
    assert request.cwd == "/w"


NO_OPINION = [
    pytest.param(None, [1, 2], id="not-an-object"),
    pytest.param(None, {}, id="empty-object"),
    pytest.param(None, {"foo": "bar"}, id="unknown-shape"),
    pytest.param(None, {"tool_name": "Read", "tool_input": {"file_path": "x"}}, id="claude-read"),
    # File tools are read as file requests (tests/agents/test_file_tools.py); one that names
    # no file has nothing to judge.
    pytest.param(
        None, {"tool_name": "Write", "tool_input": {"content": "x"}}, id="claude-write-no-path"
    ),
    pytest.param(None, {"tool_name": "Bash", "tool_input": {"command": ""}}, id="claude-empty"),
    pytest.param(None, {"tool_name": "Bash", "tool_input": {"command": "  "}}, id="claude-blank"),
    pytest.param(None, {"tool_name": "Bash", "tool_input": {"command": 7}}, id="claude-number"),
    pytest.param(None, {"tool_name": "Bash", "tool_input": {}}, id="claude-missing"),
    pytest.param(None, {"tool_name": "Bash", "tool_input": "ls"}, id="claude-input-string"),
    pytest.param(
        None,
        {"turn_id": "t", "tool_name": "Bash", "tool_input": {"command": []}},
        id="codex-empty-argv",
    ),
    pytest.param(
        None,
        {"hook_event_name": "BeforeTool", "tool_name": "read_file", "tool_input": {"path": "x"}},
        id="gemini-read-file",
    ),
    pytest.param(None, {"toolName": "bash", "toolArgs": "{not json"}, id="copilot-bad-args"),
    pytest.param(None, {"toolName": "bash", "toolArgs": "[1]"}, id="copilot-args-list"),
    pytest.param(
        None,
        {"hook_event_name": "beforeReadFile", "conversation_id": "c", "command": "x"},
        id="cursor-other-event",
    ),
    pytest.param(None, {"tool": "edit", "command": "x", "sessionID": "s"}, id="opencode-edit"),
    pytest.param("gemini", PAYLOADS["claude"], id="named-agent-other-shape"),
]


@pytest.mark.parametrize(("agent", "payload"), NO_OPINION)
def test_no_opinion(agent: str | None, payload: object) -> None:
    assert agents.read_request(payload, agent) is None


def test_unknown_agent_name_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown agent"):
        agents.read_request(PAYLOADS["claude"], "aider")
