"""The real Claude Code CLI (npm @anthropic-ai/claude-code) with dcg installed, run offline."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
import scenarios
from agentrun import Agent, Sandbox, cli, dcg_env, make_sandbox, run
from standin import Shell, ToolNames
from standin_anthropic import Anthropic

SRC = Path(__file__).resolve().parents[2] / "src"


def _settings(home: Path, project: Path) -> Path:
    return home / ".claude" / "settings.json"


def _seed(home: Path, project: Path, url: str) -> Mapping[str, str]:
    # Onboarding done and the project's workspace-trust dialog accepted, as after a first
    # interactive start (hooks run only in a trusted folder).
    state = {
        "hasCompletedOnboarding": True,
        "projects": {str(project): {"hasTrustDialogAccepted": True}},
    }
    (home / ".claude.json").write_text(json.dumps(state))
    return {
        "ANTHROPIC_BASE_URL": url,
        "ANTHROPIC_API_KEY": "sk-ant-standin",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_ERROR_REPORTING": "1",
    }


def _argv(prompt: str, box: Sandbox) -> list[str]:
    return [cli("claude"), "-p", prompt, "--allowedTools", "Bash,Read,Write"]


CLAUDE = Agent(
    name="claude",
    shape=Anthropic,
    tools=ToolNames(
        "Bash",
        lambda command: {"command": command, "description": "run it"},
        "Write",
        lambda path, content: {"file_path": path, "content": content},
        "Read",
        lambda path: {"file_path": path},
    ),
    argv=_argv,
    settings=_settings,
    seed=_seed,
    warns_model=True,
)


@pytest.fixture
def box(tmp_path: Path, isolated_home: Path) -> Sandbox:
    return make_sandbox(tmp_path, isolated_home)


@pytest.mark.parametrize(
    "scenario",
    [
        pytest.param(scenarios.paranoid_stops_reset_lets_touch_run, id="paranoid-stop-then-touch"),
        pytest.param(scenarios.standard_graduates, id="standard-warn-warn-stop"),
        pytest.param(scenarios.standard_reset_undone, id="standard-reset-undone"),
        pytest.param(scenarios.own_settings_write_refused, id="settings-write-refused"),
    ],
)
def test_claude(scenario: Any, box: Sandbox, dcg_exe: str) -> None:
    scenario(CLAUDE, box, dcg_exe)


# A hook error: dcg installed from a venv that is then removed, so the interpreter the hook
# names is missing (exit 127 from the shell). Claude Code runs the command anyway unless the
# hook entry says onFailure: "block".


def _install_from_removed_venv(box: Sandbox, root: Path) -> dict[str, Any]:
    """``dcg install --agent claude`` run by a venv's Python, then the venv deleted; returns
    the settings exactly as install wrote them."""
    venv = root / "gone-venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = next((venv / "lib").glob("python3*/site-packages"))
    (site / "dcg-src.pth").write_text(f"{SRC}\n")
    python = venv / "bin" / "python"
    done = subprocess.run(
        [str(python), "-m", "dcg", "install", "--agent", "claude"],
        cwd=box.project,
        env=dcg_env(box.home),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    settings = _settings(box.home, box.project)
    assert str(python) in settings.read_text(), settings.read_text()
    subprocess.run(["rm", "-rf", str(venv)], check=True)
    loaded: dict[str, Any] = json.loads(settings.read_text())
    return loaded


def _handlers(settings: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for group in settings["hooks"]["PreToolUse"]:
        yield from group["hooks"]


def _touch(box: Sandbox) -> tuple[bool, str]:
    done = run(CLAUDE, box, [Shell("touch x")])
    results = done.stand_in.results()
    assert results, done.describe()
    return (box.project / "x").exists(), results[0]


def _rewrite(box: Sandbox, settings: dict[str, Any]) -> None:
    _settings(box.home, box.project).write_text(json.dumps(settings, indent=2))


def test_hook_error_without_on_failure_lets_the_command_run(box: Sandbox, tmp_path: Path) -> None:
    """The control: with the key removed, a hook whose interpreter is gone fails open."""
    settings = _install_from_removed_venv(box, tmp_path)
    for handler in _handlers(settings):
        handler.pop("onFailure", None)
    _rewrite(box, settings)
    ran, told = _touch(box)
    assert ran, told
    # The hook did run and failed (Claude Code's own session log on disk says so).
    log = "".join(p.read_text() for p in (box.home / ".claude" / "projects").glob("*/*.jsonl"))
    assert '"hook_non_blocking_error"' in log and '"exitCode":127' in log, log[-2000:]


def test_hook_error_with_on_failure_block_is_blocked(box: Sandbox, tmp_path: Path) -> None:
    """The real CLI honours ``onFailure: "block"``: the same broken hook with the key blocks."""
    settings = _install_from_removed_venv(box, tmp_path)
    for handler in _handlers(settings):
        handler["onFailure"] = "block"
    _rewrite(box, settings)
    ran, told = _touch(box)
    assert not ran, told
    assert 'onFailure is "block"' in told, told


def test_hook_error_blocks_as_dcg_installs_it(box: Sandbox, tmp_path: Path) -> None:
    """What ``dcg install --agent claude`` writes, unchanged, fails closed on a hook error."""
    _install_from_removed_venv(box, tmp_path)
    ran, told = _touch(box)
    assert not ran, told
    assert 'onFailure is "block"' in told, told
