"""Every tool of an agent that runs a command or writes a file reaches dcg (issue 32).

Claude Code's ``Monitor`` (a background command under Bash's rules), Copilot CLI's
``write_bash``/``write_powershell`` (text typed into a shell it started) and
``apply_patch``, VS Code agent mode's ``run_in_terminal`` and file tools (camelCase
``filePath``, ``hookEventName``/``sessionId``), and Gemini's ``dir_path`` (the directory
the command really runs in). Payloads as each agent's docs give them, through the hook.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from dcg import agents
from dcg.agents.copilot import typed
from hookpath import encode, run, verdict

CMD = "git reset --hard HEAD~1"


def _claude(tool: str, tool_input: dict[str, object]) -> dict[str, object]:
    return {"session_id": "t", "cwd": "/home/ana/repo", "hook_event_name": "PreToolUse",
            "permission_mode": "default", "tool_name": tool, "tool_input": tool_input}  # fmt: skip


def _copilot(tool: str, args: dict[str, object] | str) -> dict[str, object]:
    raw = args if isinstance(args, str) else json.dumps(args)
    return {"sessionId": "t", "timestamp": 1, "cwd": "/home/ana/repo", "toolName": tool,
            "toolArgs": raw}  # fmt: skip


def _vscode(tool: str, tool_input: dict[str, object]) -> dict[str, object]:
    return {"timestamp": "2026-12-04T10:00:00Z", "hookEventName": "PreToolUse",
            "sessionId": "t", "cwd": "/home/ana/repo", "tool_name": tool,
            "tool_input": tool_input, "tool_use_id": "c1"}  # fmt: skip


def _patch(op: str, path: str) -> str:
    return f"*** Begin Patch\n*** {op} File: {path}\n*** End Patch\n"


# The isolated home of each test (tests/conftest.py), put in by _home() at run time.
HOME = "<HOME>"


def _home(value: object) -> object:
    if isinstance(value, dict):
        return {k: _home(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_home(v) for v in value]
    if isinstance(value, str):
        return value.replace(HOME, os.environ["HOME"])
    return value


# (agent detected, payload, expected verdict)
CASES = [
    pytest.param(
        "claude",
        _claude("Monitor", {"command": CMD, "description": "watch"}),
        "deny",
        id="claude-monitor",
    ),
    pytest.param(
        "claude",
        _claude("Monitor", {"command": "tail -f log.txt"}),
        "none",
        id="claude-monitor-harmless",
    ),
    pytest.param(
        "copilot",
        _copilot("write_bash", {"shellId": "1", "input": f"{CMD}{{enter}}"}),
        "deny",
        id="copilot-write-bash",
    ),
    pytest.param(
        "copilot",
        _copilot("write_bash", {"shellId": "1", "input": "git reset --hard"}),
        "deny",
        id="copilot-write-bash-no-enter",
    ),
    pytest.param(
        "copilot",
        _copilot("write_bash", {"shellId": "1", "input": "git reset --hardX{backspace}{enter}"}),
        "deny",
        id="copilot-write-bash-backspace",
    ),
    pytest.param(
        "copilot",
        _copilot("write_bash", {"shellId": "1", "input": "y{enter}"}),
        "none",
        id="copilot-write-bash-answer",
    ),
    pytest.param(
        "copilot",
        _copilot(
            "write_powershell", {"shellId": "2", "input": "Remove-Item -Recurse -Force C:\\{enter}"}
        ),
        "deny",
        id="copilot-write-powershell",
    ),
    pytest.param(
        "copilot",
        _copilot("apply_patch", {"input": _patch("Delete", f"{HOME}/.copilot/hooks/dcg.json")}),
        "deny",
        id="copilot-apply-patch-unhooks",
    ),
    pytest.param(
        "copilot",
        _copilot("apply_patch", _patch("Delete", f"{HOME}/.copilot/hooks/dcg.json")),
        "deny",
        id="copilot-apply-patch-freeform",
    ),
    pytest.param(
        "copilot",
        _copilot("apply_patch", {"input": _patch("Update", "src/app.py")}),
        "none",
        id="copilot-apply-patch-source",
    ),
    pytest.param(
        "copilot",
        _vscode("run_in_terminal", {"command": CMD, "explanation": "x", "isBackground": False}),
        "deny",
        id="vscode-run-in-terminal",
    ),
    pytest.param(
        "copilot",
        _vscode("run_in_terminal", {"command": "ls -la"}),
        "none",
        id="vscode-run-in-terminal-harmless",
    ),
    pytest.param(
        "copilot",
        _vscode("create_file", {"filePath": f"{HOME}/.claude/settings.json", "content": "{}"}),
        "deny",
        id="vscode-create-file-unhooks",
    ),
    pytest.param(
        "copilot",
        _vscode(
            "replace_string_in_file",
            {"filePath": f"{HOME}/.claude/settings.json", "oldString": "dcg", "newString": "x"},
        ),
        "deny",
        id="vscode-replace-string-unhooks",
    ),
    pytest.param(
        "copilot",
        _vscode(
            "multi_replace_string_in_file",
            {
                "replacements": [
                    {"filePath": "src/a.py"},
                    {"filePath": f"{HOME}/.copilot/hooks/dcg.json"},
                ]
            },
        ),
        "deny",
        id="vscode-multi-replace-unhooks",
    ),
    pytest.param(
        "copilot",
        _vscode("editFiles", {"files": [f"{HOME}/.config/dcg/allowlist.toml"]}),
        "deny",
        id="vscode-edit-files-dcg-state",
    ),
    pytest.param(
        "copilot",
        _vscode("create_file", {"filePath": "src/new.py", "content": "x"}),
        "none",
        id="vscode-create-file-source",
    ),
    pytest.param(
        "copilot",
        _vscode("read_file", {"filePath": f"{HOME}/.claude/settings.json"}),
        "none",
        id="vscode-read-file",
    ),
]


CASES += [
    pytest.param(
        "copilot",
        _vscode("create_and_run_task", {"task": {"label": "x", "type": "shell",
                                                 "command": "git", "args": ["reset", "--hard"]}}),
        "deny",
        id="vscode-create-and-run-task",
    ),
]  # fmt: skip

# Each new agent's file tool writing Claude Code's hook settings (self-protection), in the
# field its docs name.
_FILE_TOOLS = {
    "goose": ("developer__write", "path"),
    "crush": ("write", "file_path"),
    "kiro": ("fs_write", "path"),
    "devin": ("edit", "file_path"),
    "kimi": ("WriteFile", "path"),
    "letta": ("Write", "file_path"),
    "openhands": ("file_editor", "path"),
}


def _file_tool(agent: str) -> dict[str, object]:
    from hookpath import TEMPLATES

    tool, key = _FILE_TOOLS[agent]
    body = json.loads(json.dumps(TEMPLATES[agent]))
    body["tool_name"] = tool
    body["tool_input"] = {key: f"{HOME}/.claude/settings.json", "content": "{}"}
    return body


for _agent in _FILE_TOOLS:
    CASES.append(pytest.param(_agent, _file_tool(_agent), "deny", id=f"{_agent}-file-tool-unhooks"))
CASES += [
    pytest.param("grok", {"hookEventName": "pre_tool_use", "sessionId": "t", "cwd": "/r",
                          "toolName": "write_file",
                          "toolInput": {"path": f"{HOME}/.grok/hooks/dcg.json", "content": "{}"}},
                 "deny", id="grok-file-tool-unhooks"),
    pytest.param("cline", {"clineVersion": "3", "hookName": "PreToolUse", "taskId": "t",
                           "workspaceRoots": ["/r"],
                           "preToolUse": {"toolName": "write_to_file",
                                          "parameters": {"content": "exit 0",
                                                         "path": f"{HOME}/.clinerules/hooks/x"}}},
                 "deny", id="cline-file-tool-unhooks"),
]  # fmt: skip


@pytest.mark.parametrize(("agent", "payload", "expected"), CASES)
def test_the_tool_is_matched_and_judged(
    agent: str, payload: dict[str, object], expected: str, isolated_home: Path
) -> None:
    payload = _home(payload)  # type: ignore[assignment]
    assert agents.detect(payload) == agent
    env = dict(os.environ, DCG_RESPONSE_MODE="paranoid")
    # Without --agent (Claude Code's entry, which VS Code runs too) and with the agent's own.
    for args in ([], ["--agent", agent]):
        code, out, err = run(encode(payload), args, env)
        assert verdict(code, out, err) == expected, (args, code, out, err)
        if agent == "copilot" and "hookEventName" in payload and out:
            # VS Code reads Claude Code's hookSpecificOutput.
            assert json.loads(out)["hookSpecificOutput"]["hookEventName"] == "PreToolUse"


@pytest.mark.parametrize(
    ("keys", "text"),
    [
        pytest.param("ls{enter}", "ls\n", id="enter"),
        pytest.param("rm -rf srcX{backspace}{enter}", "rm -rf src\n", id="backspace"),
        pytest.param("{up}{down}{left}{right}ls", "ls", id="arrows-move-no-text"),
        pytest.param("echo {a,b}", "echo {a,b}", id="braces-kept"),
        pytest.param("{backspace}{backspace}x", "x", id="backspace-at-start"),
        pytest.param(
            "git res{tab} --hard{enter}",
            "$(shell-completion) git res --hard\n",
            id="tab-completes-a-word",
        ),
    ],
)
def test_typed_keys_become_the_text_the_shell_gets(keys: str, text: str) -> None:
    assert typed(keys) == text


def test_gemini_judges_the_command_in_dir_path(isolated_home: Path, tmp_path: Path) -> None:
    # The session's cwd is a scratch directory under the temp directory, where a recursive
    # delete passes (decisions 10.7); dir_path sends the command to a project outside it.
    scratch, app = tmp_path / "scratch", "/srv/app"
    scratch.mkdir()
    env = dict(os.environ, DCG_RESPONSE_MODE="paranoid")

    def gemini(dir_path: str | None) -> str:
        tool_input: dict[str, object] = {"command": "rm -rf work"}
        if dir_path is not None:
            tool_input["dir_path"] = dir_path
        body = {"session_id": "g", "cwd": str(scratch), "hook_event_name": "BeforeTool",
                "tool_name": "run_shell_command", "tool_input": tool_input}  # fmt: skip
        return verdict(*run(encode(body), ["--agent", "gemini"], env))

    assert gemini(None) == "none"  # inside the temp directory
    assert gemini(app) == "deny"  # absolute dir_path
    assert gemini(os.path.relpath(app, scratch)) == "deny"  # relative to the session's cwd
    assert gemini("sub") == "none"  # still inside the temp directory
    project = "/home/ana/repo"
    request = agents.read_request(
        {"cwd": project, "hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
         "tool_input": {"command": "ls", "dir_path": "sub"}}, "gemini"
    )  # fmt: skip
    assert request is not None and request.cwd == f"{project}/sub"


@pytest.mark.parametrize(
    "agent", ["goose", "crush", "cline", "kiro", "devin", "grok", "kimi", "letta", "openhands"]
)
def test_a_payload_too_large_to_read_is_stopped_for_every_shell_tool(
    agent: str, isolated_home: Path
) -> None:
    # decisions 10.1: past the stdin bound the hook cannot decode the command; a shell
    # tool's payload is then stopped, whichever agent's tool name it carries.
    from hookpath import payload

    body = encode(payload(agent, "echo " + "x" * (1 << 21)))
    code, out, err = run(body[:-2], ["--agent", agent])  # cut short: undecodable
    assert verdict(code, out, err) == "deny", (code, out[:200], err[:200])


@pytest.mark.parametrize(
    ("runner", "args", "keys"),
    [
        # Grok runs Cursor's .cursor/hooks.json (dcg's entry says --agent cursor) and
        # Claude Code's settings; Devin and VS Code run Claude Code's (no --agent).
        pytest.param("grok", ["--agent", "cursor"], {"decision", "reason"}, id="grok-in-cursor"),
        pytest.param("grok", [], {"decision", "reason"}, id="grok-in-claude"),
        pytest.param("devin", [], {"decision", "reason"}, id="devin-in-claude"),
        pytest.param("copilot-vscodeagent", [], {"hookSpecificOutput"}, id="vscode-in-claude"),
        pytest.param("copilot-vscodeagent", ["--agent", "copilot"], {"hookSpecificOutput"},
                     id="vscode-in-copilot"),
    ],
)  # fmt: skip
def test_an_agent_running_another_agents_hook_file_gets_its_own_answer(
    runner: str, args: list[str], keys: set[str], isolated_home: Path
) -> None:
    from hookpath import GOLDEN

    body = json.loads((GOLDEN / "payloads" / f"{runner}.json").read_text())
    env = dict(os.environ, DCG_RESPONSE_MODE="paranoid")
    code, out, err = run(encode(body), args, env)
    assert code == 0 and set(json.loads(out)) == keys, (out, err)
    assert verdict(code, out, err) == "deny"
