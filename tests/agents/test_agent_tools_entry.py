"""Issue 32, agents' tools: golden payloads of each tool through the installed entry point.

``dcg hook`` as the agent starts it (a subprocess of the venv's ``dcg``), fed the payloads
each agent's docs give (tests/golden/payloads/<agent>-<tool>.json): Claude Code's
``Monitor``, Copilot CLI's ``write_bash`` and ``apply_patch``, VS Code agent mode's
``create_file`` (camelCase), Gemini's ``dir_path``, Qwen Code's ``monitor`` and
``directory``. Copilot CLI and VS Code run Claude
Code's hook files too, so their tools also arrive in Claude Code's payload shape. A NUL
byte in any target (a command's word, a file tool's path, ``dir_path``, ``cwd``) is a clean
stop with a rule id, never an internal error.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hookpath import GOLDEN

DCG = Path(sys.executable).parent / "dcg"


def _entry(body: dict[str, object], home: Path, *args: str) -> tuple[str, str]:
    """(decision, reply text) from the installed ``dcg hook``."""
    env = dict(os.environ, HOME=str(home), DCG_RESPONSE_MODE="paranoid")
    env.update(XDG_STATE_HOME=str(home / ".state"), XDG_CONFIG_HOME=str(home / ".config"))
    done = subprocess.run([str(DCG), "hook", *args], input=json.dumps(body).encode(),
                          capture_output=True, env=env, timeout=60, check=False)  # fmt: skip
    out, err = done.stdout.decode(), done.stderr.decode()
    assert "internal error" not in out + err
    if done.returncode == 2:
        return "deny", err
    if not out.strip():
        return "none", err
    reply = json.loads(out)
    inner = reply.get("hookSpecificOutput", reply)
    decision = inner.get("permissionDecision") or inner.get("decision") or ""
    return ("deny" if decision in ("deny", "block") else decision), out


def _golden(name: str, home: Path, project: Path, scratch: Path) -> dict[str, object]:
    text = (GOLDEN / "payloads" / f"{name}.json").read_text()
    text = text.replace("/home/ana/repo", str(project)).replace("/tmp/scratch", str(scratch))
    body = json.loads(text.replace("/home/ana", str(home)))
    assert isinstance(body, dict)
    return body


@pytest.fixture
def places(tmp_path: Path) -> tuple[Path, Path, Path]:
    home = tmp_path / "home"
    project = home / "repo"
    (project / "work").mkdir(parents=True)
    (project / "work" / "notes.txt").write_text("keep\n")
    scratch = tmp_path / "scratch"  # under the temp directory: a delete there passes
    scratch.mkdir()
    return home, project, scratch


# (golden payload, agent named by --agent or "", rule id in the reply)
GOLDEN_TOOLS = [
    ("claude-monitor", "", "core.git:reset-hard"),
    ("claude-monitor", "claude", "core.git:reset-hard"),
    ("copilot-write_bash", "copilot", "core.git:reset-hard"),
    ("copilot-write_bash", "", "core.git:reset-hard"),
    ("copilot-apply_patch", "copilot", "core.dcg:edit-hooks"),
    ("copilot-vscodeagent-create_file", "", "core.dcg:edit-hooks"),
    ("copilot-vscodeagent-create_file", "copilot", "core.dcg:edit-hooks"),
    ("copilot-vscodeagent", "", "core.git:reset-hard"),
    ("gemini-dir_path", "gemini", "core.filesystem:rm-rf"),
    ("gemini-dir_path", "", "core.filesystem:rm-rf"),
    ("qwen-monitor", "qwen", "core.git:reset-hard"),
    ("qwen-monitor", "", "core.git:reset-hard"),
    ("qwen-directory", "qwen", "core.filesystem:rm-rf"),
    ("qwen-directory", "", "core.filesystem:rm-rf"),
]


@pytest.mark.parametrize(("name", "agent", "rule"), GOLDEN_TOOLS)
def test_each_agents_tool_is_judged_through_the_entry_point(
    places: tuple[Path, Path, Path], name: str, agent: str, rule: str
) -> None:
    home, project, scratch = places
    body = _golden(name, home, project, scratch)
    decision, text = _entry(body, home, *(["--agent", agent] if agent else []))
    assert decision == "deny", text
    assert rule in text, text


def test_gemini_without_dir_path_judges_the_session_cwd(places: tuple[Path, Path, Path]) -> None:
    home, project, scratch = places
    body = _golden("gemini-dir_path", home, project, scratch)
    tool_input = body["tool_input"]
    assert isinstance(tool_input, dict)
    del tool_input["dir_path"]  # the same delete in the scratch directory passes
    assert _entry(body, home, "--agent", "gemini")[0] == "none"
    tool_input["dir_path"] = os.path.relpath(project, scratch)  # relative to the session cwd
    assert _entry(body, home, "--agent", "gemini")[0] == "deny"


@pytest.mark.parametrize("name", ["qwen-directory", "qwen-monitor"])
def test_qwen_judges_the_command_in_its_directory(
    places: tuple[Path, Path, Path], name: str
) -> None:
    home, project, scratch = places
    body = _golden(name, home, project, scratch)
    tool_input = body["tool_input"]
    assert isinstance(tool_input, dict)
    tool_input["command"] = "rm -rf work"
    del tool_input["directory"]  # the same delete in the scratch directory passes
    assert _entry(body, home, "--agent", "qwen")[0] == "none"
    assert _entry(body, home)[0] == "none"
    tool_input["directory"] = os.path.relpath(project, scratch)  # relative to the session cwd
    assert _entry(body, home, "--agent", "qwen")[0] == "deny"
    tool_input["command"] = "ls work"
    assert _entry(body, home)[0] == "none"


def _claude_shape(tool: str, tool_input: dict[str, object], cwd: str) -> dict[str, object]:
    return {"session_id": "s", "cwd": cwd, "hook_event_name": "PreToolUse",
            "permission_mode": "default", "tool_name": tool, "tool_input": tool_input}  # fmt: skip


# Copilot CLI / VS Code running Claude Code's hook file: their tools in Claude's shape.
CLAUDE_SHAPE = [
    ("write_bash", {"shellId": "1", "input": "git reset --hard{enter}"}, "deny"),
    ("write_bash", {"shellId": "1", "input": "y{enter}"}, "none"),
    ("run_in_terminal", {"command": "git reset --hard", "isBackground": False}, "deny"),
    ("run_in_terminal", {"command": "git status"}, "none"),
    ("create_file", {"filePath": "<HOME>/.claude/settings.json", "content": "{}"}, "deny"),
    ("create_file", {"filePath": "src/new.py", "content": "x"}, "none"),
    (
        "apply_patch",
        {
            "input": "*** Begin Patch\n*** Delete File: <HOME>/.copilot/hooks/dcg.json"
            "\n*** End Patch\n"
        },
        "deny",
    ),
]


@pytest.mark.parametrize(("tool", "tool_input", "expected"), CLAUDE_SHAPE)
def test_copilot_tools_in_claude_codes_payload_shape(
    places: tuple[Path, Path, Path], tool: str, tool_input: dict[str, object], expected: str
) -> None:
    home, project, _ = places
    filled = json.loads(json.dumps(tool_input).replace("<HOME>", str(home)))
    assert _entry(_claude_shape(tool, filled, str(project)), home)[0] == expected


NUL = [
    ("Bash", {"command": "rm -rf 'work\x00x'"}),
    ("Bash", {"command": "rm -rf $'work\\0x'"}),
    ("Write", {"file_path": "<HOME>/.claude/settings.json\x00x", "content": "{}"}),
    ("Write", {"file_path": "src/a.py\x00", "content": "x"}),
    ("Edit", {"file_path": "work/notes.txt\x00", "old_string": "a", "new_string": "b"}),
    ("create_file", {"filePath": "<HOME>/.claude/settings.json\x00", "content": "{}"}),
    (
        "apply_patch",
        {"input": "*** Begin Patch\n*** Delete File: work/notes\x00.txt\n*** End Patch\n"},
    ),
]


@pytest.mark.parametrize(
    ("tool", "tool_input"), NUL, ids=[f"{t}-{i}" for i, (t, _) in enumerate(NUL)]
)
def test_a_nul_byte_in_a_target_is_a_clean_stop(
    places: tuple[Path, Path, Path], tool: str, tool_input: dict[str, object]
) -> None:
    home, project, _ = places
    filled = json.loads(json.dumps(tool_input).replace("<HOME>", str(home)))
    decision, text = _entry(_claude_shape(tool, filled, str(project)), home)
    assert decision == "deny", text
    assert "core.dcg:too-complex" in text or "core.filesystem:rm-rf" in text, text


def test_a_nul_byte_in_dir_path_or_cwd_is_a_clean_stop(places: tuple[Path, Path, Path]) -> None:
    home, project, scratch = places
    body = _golden("gemini-dir_path", home, project, scratch)
    tool_input = body["tool_input"]
    assert isinstance(tool_input, dict)
    tool_input["dir_path"] = str(project) + "\x00x"
    decision, text = _entry(body, home, "--agent", "gemini")
    assert decision == "deny" and "core.dcg:" in text, text
    claude = _claude_shape("Bash", {"command": "rm -rf work"}, str(project) + "\x00")
    decision, text = _entry(claude, home)
    assert decision == "deny" and "core.dcg:" in text, text
