"""The real Qwen Code CLI (npm @qwen-code/qwen-code) with dcg installed, run offline."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import scenarios
from agentrun import Agent, Sandbox, cli, make_sandbox, merge_json
from standin import ToolNames
from standin_chat import Chat


def _settings(home: Path, project: Path) -> Path:
    return home / ".qwen" / "settings.json"


def _seed(home: Path, project: Path, url: str) -> Mapping[str, str]:
    # The stand-in as an OpenAI-compatible endpoint, no update checks or usage statistics,
    # and the project a trusted folder; the settings at the schema version Qwen migrates
    # them to on its first start (it rewrites the file otherwise).
    merge_json(
        _settings(home, project),
        {
            "$version": 4,
            "general": {"enableAutoUpdate": False, "disableAutoUpdate": True},
            "privacy": {"usageStatisticsEnabled": False},
            "telemetry": {"enabled": False},
            "security": {"auth": {"selectedType": "openai"}, "folderTrust": {"enabled": True}},
        },
    )
    (home / ".qwen" / "trustedFolders.json").write_text(json.dumps({str(project): "TRUST_FOLDER"}))
    return {
        "OPENAI_BASE_URL": f"{url}/v1",
        "OPENAI_API_KEY": "sk-standin",
        "OPENAI_MODEL": "standin",
        "QWEN_TELEMETRY_ENABLED": "false",
    }


def _argv(prompt: str, box: Sandbox) -> list[str]:
    return [cli("qwen"), "-p", prompt, "--yolo", "--include-directories", str(box.home)]


QWEN = Agent(
    name="qwen",
    shape=Chat,
    tools=ToolNames(
        "run_shell_command",
        lambda command: {"command": command, "is_background": False},
        "write_file",
        lambda path, content: {"file_path": path, "content": content},
        "read_file",
        lambda path: {"file_path": path},
    ),
    argv=_argv,
    settings=_settings,
    seed=_seed,
    # Qwen Code 0.24.4 reads a PreToolUse hook's additionalContext but its tool scheduler
    # (interactive and -p) drops it; only its ACP (IDE) path passes it on. Measured here.
    warns_model=False,
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
def test_qwen(scenario: Any, box: Sandbox, dcg_exe: str) -> None:
    scenario(QWEN, box, dcg_exe)
