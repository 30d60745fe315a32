"""The real Gemini CLI (npm @google/gemini-cli) with dcg installed, run offline (stand-in model)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import scenarios
from agentrun import Agent, Sandbox, cli, make_sandbox, merge_json
from standin import ToolNames
from standin_gemini import Gemini


def _settings(home: Path, project: Path) -> Path:
    return home / ".gemini" / "settings.json"


def _seed(home: Path, project: Path, url: str) -> Mapping[str, str]:
    # The stand-in as the API gateway, no update checks or usage statistics, and the
    # project a trusted folder (as after answering the trust dialog).
    merge_json(
        _settings(home, project),
        {
            "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
            "privacy": {"usageStatisticsEnabled": False},
            "telemetry": {"enabled": False},
            "security": {
                "auth": {"selectedType": "gemini-api-key"},
                "folderTrust": {"enabled": True},
            },
        },
    )
    trusted = home / ".gemini" / "trustedFolders.json"
    trusted.write_text(json.dumps({str(project): "TRUST_FOLDER"}))
    return {
        "GOOGLE_GEMINI_BASE_URL": url,
        "GEMINI_API_KEY": "standin-key",
        "GEMINI_TELEMETRY_ENABLED": "false",
        "GEMINI_CLI_NO_RELAUNCH": "true",
    }


def _argv(prompt: str, box: Sandbox) -> list[str]:
    # The home directory is in the workspace, so that a write of ~/.gemini/settings.json is
    # not refused by the CLI's own path check before the hook sees it.
    return [
        cli("gemini"),
        *("-p", prompt, "--yolo", "--model", "gemini-2.5-flash"),
        *("--include-directories", str(box.home)),
    ]


GEMINI = Agent(
    name="gemini",
    shape=Gemini,
    tools=ToolNames(
        "run_shell_command",
        lambda command: {"command": command, "description": "run it"},
        "write_file",
        lambda path, content: {"file_path": path, "content": content},
        "read_file",
        lambda path: {"file_path": path},
    ),
    argv=_argv,
    settings=_settings,
    seed=_seed,
    warns_model=False,  # README: a warning is shown to the person, not the model
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
def test_gemini(scenario: Any, box: Sandbox, dcg_exe: str) -> None:
    scenario(GEMINI, box, dcg_exe)
