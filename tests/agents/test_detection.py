"""Auto-detection on every known payload shape of every agent, also through the hook.

Several agents share field names (``tool_name``/``tool_input`` in Claude Code, Codex,
Factory Droid and Copilot's VS Code format; ``command`` at the top in Cursor and the
OpenCode shim; ``hook_event_name`` in most): each shape must reach its own adapter, and
a destructive command in it must be stopped in that agent's own answer format.
"""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest

from dcg import agents, hook

CMD = "git reset --hard HEAD~1"

# (expected agent, payload, shell) — shapes from each agent's docs (hook-protocols.md).
SHAPES = [
    pytest.param(
        "claude",
        {
            "session_id": "s",
            "transcript_path": "/t.jsonl",
            "cwd": "/r",
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": CMD, "description": "d"},
            "tool_use_id": "toolu_1",
        },
        "bash",
        id="claude-bash",
    ),
    pytest.param(
        "claude",
        {
            "session_id": "s",
            "hook_event_name": "PreToolUse",
            "tool_name": "PowerShell",
            "tool_input": {"command": "Remove-Item -Recurse -Force C:\\\\"},
        },
        "powershell",
        id="claude-powershell",
    ),
    pytest.param(
        "claude",
        {
            "session_id": "s",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": CMD},
            "agent_id": "a1",
            "agent_type": "general-purpose",
        },
        "bash",
        id="claude-subagent",
    ),
    pytest.param(
        "codex",
        {
            "session_id": "s",
            "turn_id": "t1",
            "cwd": "/r",
            "hook_event_name": "PreToolUse",
            "model": "gpt-5",
            "permission_mode": "default",
            "tool_name": "Bash",
            "tool_input": {"command": CMD},
            "tool_use_id": "c1",
        },
        "bash",
        id="codex-bash",
    ),
    pytest.param(
        "codex",
        {
            "session_id": "s",
            "turn_id": "t1",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": ["git", "reset", "--hard", "HEAD~1"]},
        },
        "bash",
        id="codex-argv",
    ),
    pytest.param(
        "factory",
        {
            "session_id": "s",
            "cwd": "/r",
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": "Execute",
            "tool_input": {"command": CMD},
        },
        "bash",
        id="factory-execute",
    ),
    pytest.param(
        "auggie",
        {
            "hook_event_name": "PreToolUse",
            "conversation_id": "conv-1",
            "workspace_roots": ["/r"],
            "tool_name": "launch-process",
            "tool_input": {"command": CMD, "wait": True, "cwd": "/r"},
            "is_mcp_tool": False,
        },
        "bash",
        id="auggie-launch-process",
    ),
    pytest.param(
        "auggie",
        {
            "hook_event_name": "PreToolUse",
            "conversation_id": "conv-1",
            "workspace_roots": ["/r"],
            "tool_name": "launch-process",
            "tool_input": {"command": CMD},
        },
        "bash",
        id="auggie-no-cwd",
    ),
    pytest.param(
        "gemini",
        {
            "session_id": "s",
            "cwd": "/r",
            "hook_event_name": "BeforeTool",
            "timestamp": "2026-12-03T10:00:00Z",
            "tool_name": "run_shell_command",
            "tool_input": {"command": CMD},
        },
        "bash",
        id="gemini",
    ),
    pytest.param(
        "gemini",
        {"tool_name": "run_shell_command", "tool_input": {"command": CMD}},
        "bash",
        id="gemini-no-event",
    ),
    pytest.param(
        "qwen",
        {
            "session_id": "s",
            "transcript_path": "/t.jsonl",
            "cwd": "/r",
            "hook_event_name": "PreToolUse",
            "timestamp": "2026-12-03T10:00:00.000Z",
            "permission_mode": "yolo",
            "tool_name": "run_shell_command",
            "tool_input": {"command": CMD},
            "tool_use_id": "toolu_1",
        },
        "bash",
        id="qwen",
    ),
    pytest.param(
        "copilot",
        {
            "sessionId": "s",
            "timestamp": 1793613600000,
            "cwd": "/r",
            "toolName": "bash",
            "toolArgs": json.dumps({"command": CMD}),
        },
        "bash",
        id="copilot-default",
    ),
    pytest.param(
        "copilot",
        {"sessionId": "s", "toolName": "bash", "toolArgs": {"command": CMD}},
        "bash",
        id="copilot-args-object",
    ),
    pytest.param(
        "copilot",
        {"session_id": "s", "tool_name": "bash", "tool_args": json.dumps({"command": CMD})},
        "bash",
        id="copilot-snake",
    ),
    pytest.param(
        "copilot",
        {
            "hook_event_name": "PreToolUse",
            "session_id": "s",
            "timestamp": "2026-12-03T10:00:00.000Z",
            "cwd": "/r",
            "tool_name": "bash",
            "tool_input": {"command": CMD},
        },
        "bash",
        id="copilot-vscode",
    ),
    pytest.param(
        "copilot",
        {
            "hook_event_name": "PreToolUse",
            "session_id": "s",
            "tool_name": "powershell",
            "tool_input": {"command": "Remove-Item -Recurse -Force C:\\\\"},
        },
        "powershell",
        id="copilot-vscode-powershell",
    ),
    pytest.param(
        "cursor",
        {
            "hook_event_name": "beforeShellExecution",
            "conversation_id": "c",
            "generation_id": "g",
            "workspace_roots": ["/r"],
            "command": CMD,
            "cwd": "/r",
        },
        "bash",
        id="cursor",
    ),
    pytest.param(
        "cursor",
        {"conversation_id": "c", "command": CMD, "workspace_roots": ["/r"]},
        "bash",
        id="cursor-no-event",
    ),
    pytest.param(
        "windsurf",
        {
            "agent_action_name": "pre_run_command",
            "trajectory_id": "t",
            "execution_id": "e",
            "timestamp": "2026-12-03T10:00:00Z",
            "tool_info": {"command_line": CMD, "cwd": "/r"},
        },
        "bash",
        id="windsurf",
    ),
    pytest.param(
        "opencode",
        {"tool": "bash", "command": CMD, "cwd": "/r", "sessionID": "ses_1"},
        "bash",
        id="opencode",
    ),
]


@pytest.mark.parametrize(("agent", "payload", "shell"), SHAPES)
def test_shape_is_detected_and_read(agent: str, payload: dict[str, object], shell: str) -> None:
    assert agents.detect(payload) == agent
    request = agents.read_request(payload, None)
    assert request is not None
    assert (request.agent, request.shell) == (agent, shell)
    assert request.command.strip()


def _stopped(agent: str, stdout: str, exit_code: int) -> bool:
    if agent == "windsurf":
        return exit_code == 2 and stdout == ""
    assert exit_code == 0
    body = json.loads(stdout)
    scope = body.get("hookSpecificOutput", body)
    decision = scope.get("permissionDecision", scope.get("decision", scope.get("permission")))
    return decision == "deny"


_PS = "Remove-Item -Recurse -Force C:\\\\"


def _harmless(value: object) -> object:
    if isinstance(value, dict):
        return {k: _harmless(v) for k, v in value.items()}
    if value == ["git", "reset", "--hard", "HEAD~1"]:
        return ["ls"]
    if isinstance(value, str):
        return value.replace(CMD, "ls -la").replace(_PS, "Get-ChildItem")
    return value


@pytest.mark.parametrize(("agent", "payload", "shell"), SHAPES)
def test_shape_is_stopped_through_the_hook_in_its_own_format(
    agent: str, payload: dict[str, object], shell: str
) -> None:
    out, err = io.StringIO(), io.StringIO()
    env = {"DCG_RESPONSE_MODE": "paranoid", "HOME": "/nonexistent-home"}
    stdin = io.BytesIO(json.dumps(payload).encode())
    code = hook.main([], stdin, out, err, env)
    assert _stopped(agent, out.getvalue(), code), (out.getvalue(), err.getvalue())
    if agent == "copilot" and "tool_input" in payload:
        # The VS Code compatible format is answered in hookSpecificOutput.
        assert json.loads(out.getvalue())["hookSpecificOutput"]["hookEventName"] == "PreToolUse"
    # The same shape with a harmless command gets no opinion.
    harmless = _harmless(payload)
    out2 = io.StringIO()
    code2 = hook.main([], io.BytesIO(json.dumps(harmless).encode()), out2, io.StringIO(), env)
    assert (code2, out2.getvalue()) == (0, "")


@pytest.mark.parametrize(
    "payload",
    [
        pytest.param(
            {
                "hook_event_name": "PreToolUse",
                "tool_name": "Read",
                "tool_input": {"file_path": "x"},
            },
            id="claude-read-tool",
        ),
        pytest.param(
            {"hook_event_name": "PreToolUse", "tool_name": "Create", "tool_input": {"x": 1}},
            id="factory-create",
        ),
        pytest.param({"tool": "read", "command": CMD, "sessionID": "s"}, id="opencode-read"),
        pytest.param(
            {"hook_event_name": "PreToolUse", "tool_name": "write_file", "tool_input": {"x": 1}},
            id="qwen-write-file",
        ),
        pytest.param(
            {
                "hook_event_name": "PreToolUse",
                "conversation_id": "c",
                "workspace_roots": ["/r"],
                "tool_name": "view",
                "tool_input": {"path": "README.md"},
            },
            id="auggie-view",
        ),
    ],
)
def test_non_shell_tools_of_shared_shapes_get_no_opinion(payload: dict[str, object]) -> None:
    assert agents.read_request(payload, None) is None


def test_a_lower_case_file_tool_is_judged_by_its_path() -> None:
    # `edit` with Claude Code's shape: Copilot's VS Code format and Devin CLI (which runs
    # Claude Code's entry) both send it. It is read as a file tool, so writing dcg's files
    # or hook settings is stopped, and anything else gets no opinion from the hook.
    payload = {"hook_event_name": "PreToolUse", "tool_name": "edit", "tool_input": {"path": "x"}}
    request = agents.read_request(payload, None)
    assert request is not None and (request.shell, request.paths) == ("file", ("x",))
    out = io.StringIO()
    assert hook.main([], io.BytesIO(json.dumps(payload).encode()), out, io.StringIO(), {}) == 0
    assert out.getvalue() == ""


# Where each agent's person, and only the person, reads text (hook-protocols.md).
_USER_ONLY = {
    "claude": "systemMessage",
    "codex": "systemMessage",
    "factory": "systemMessage",
    "auggie": "systemMessage",
    "gemini": "systemMessage",
    "cursor": "user_message",
    "opencode": "message",
}


@pytest.mark.parametrize(("agent", "payload", "shell"), SHAPES)
def test_real_codes_reach_only_the_person(
    agent: str, payload: dict[str, object], shell: str, isolated_home: Path
) -> None:
    """decisions.md 10.2 through the hook, with codes graduation really issued."""
    import os

    from dcg import paths
    from dcg.state import codes

    env = dict(os.environ, DCG_RESPONSE_MODE="standard")
    replies = []
    for _ in range(5):  # warning, warning, soft block, soft block, hard block
        out, err = io.StringIO(), io.StringIO()
        code = hook.main([], io.BytesIO(json.dumps(payload).encode()), out, err, env)
        replies.append((code, out.getvalue(), err.getvalue()))
    issued = [
        str(r["short_code"])
        for f in (paths.pending_file(), paths.allow_once_file())
        for r in codes.live_codes(f, time.time())
    ]
    assert issued, "graduation issued no code"
    channel = _USER_ONLY.get(agent)
    seen_by_person = ""
    for _, stdout, stderr in replies:
        body = json.loads(stdout) if stdout.strip() else {}
        model_side = json.dumps({k: v for k, v in body.items() if k != channel}) + stderr
        assert not any(c in model_side for c in issued), (agent, model_side)
        seen_by_person += str(body.get(channel, ""))
    if channel is not None:
        assert any(c in seen_by_person for c in issued)
