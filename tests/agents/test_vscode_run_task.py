"""VS Code agent mode's ``run_task`` runs a task of ``.vscode/tasks.json``: judged as the
task's command lines, like ``create_and_run_task``, through the hook.

The payload is VS Code's (tests/golden/payloads/copilot-vscodeagent-run_task.json), also
in Claude Code's shape (VS Code runs Claude Code's hook files too). A task that cannot be
found is let through only when there is no tasks.json; otherwise what the file holds is
judged (every command line in it).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hookpath import GOLDEN, run, verdict

TASKS = """{
  // VS Code's tasks.json: JSON with comments and trailing commas.
  "version": "2.0.0",
  "tasks": [
    {"label": "build", "type": "shell", "command": "make", "args": ["all"],},
    {"label": "clean", "type": "shell", "command": "git", "args": ["reset", "--hard"]},
    {"label": "wipe", "type": "shell", "command": "rm -rf ${workspaceFolder}/src"},
    {"label": "release", "dependsOn": ["build", "clean"]},
    /* per-OS command */
    {"label": "os", "type": "shell", "command": "true", "linux": {"command": "git clean -fdx"}},
    {"label": "unhook", "type": "shell", "command": "echo {} > ~/.claude/settings.json"},
  ],
}
"""


def _payload(project: Path, tool_input: dict[str, object], shape: str) -> dict[str, object]:
    body = json.loads((GOLDEN / "payloads" / "copilot-vscodeagent-run_task.json").read_text())
    assert isinstance(body, dict)
    body.update(cwd=str(project), tool_input=tool_input)
    if shape == "claude":  # Claude Code's hook file, as VS Code runs it
        del body["hookEventName"]
        body.update(hook_event_name="PreToolUse", session_id="s")
    return body


def _answer(body: dict[str, object]) -> tuple[str, str]:
    env = dict(os.environ, DCG_RESPONSE_MODE="paranoid", DCG_HOOK_DETAILS="1")
    code, out, err = run(json.dumps(body).encode(), env=env)
    return verdict(code, out, err), out + err


@pytest.fixture
def project(isolated_home: Path) -> Path:
    where = isolated_home / "repo"
    (where / ".vscode").mkdir(parents=True)
    (where / "src").mkdir()
    (where / ".vscode" / "tasks.json").write_text(TASKS)
    return where


STOP = [
    ({"id": "shell: clean"}, "core.git:reset-hard"),
    ({"id": "clean"}, "core.git:reset-hard"),
    ({"id": "release"}, "core.git:reset-hard"),
    ({"id": "shell: os"}, "core.git:clean"),
    ({"id": "wipe"}, "core.filesystem:rm-rf"),
    ({"id": "unhook"}, "core.dcg:edit-hooks"),
    # A task that is not there: the whole file is judged.
    ({"id": "shell: missing"}, "core."),
    ({}, "core."),
]


@pytest.mark.parametrize("shape", ["vscode", "claude"])
@pytest.mark.parametrize(("tool_input", "rule"), STOP)
def test_run_task_is_judged_as_its_command(
    project: Path, shape: str, tool_input: dict[str, object], rule: str
) -> None:
    body = _payload(project, {**tool_input, "workspaceFolder": str(project)}, shape)
    answer, text = _answer(body)
    assert answer == "deny", (tool_input, text)
    assert rule in text, text


@pytest.mark.parametrize("shape", ["vscode", "claude"])
def test_harmless_task_passes(project: Path, shape: str) -> None:
    body = _payload(project, {"id": "shell: build", "workspaceFolder": str(project)}, shape)
    assert _answer(body)[0] == "none"


def test_workspace_folder_defaults_to_the_cwd(project: Path) -> None:
    assert _answer(_payload(project, {"id": "clean"}, "vscode"))[0] == "deny"


def test_no_tasks_json_runs_nothing(isolated_home: Path) -> None:
    body = _payload(isolated_home, {"id": "shell: clean"}, "vscode")
    assert _answer(body)[0] == "none"


def test_unparseable_tasks_json_is_judged_whole(project: Path) -> None:
    bad = '{"tasks": [{"label": "x", "command": "git reset --hard"} oops'
    (project / ".vscode" / "tasks.json").write_text(bad)
    answer, text = _answer(_payload(project, {"id": "x"}, "vscode"))
    assert answer == "deny" and "core.git:reset-hard" in text, text
