"""``[hook] details`` / ``DCG_HOOK_DETAILS``: the draft's fields only when asked for."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from dcg import hook

PAYLOAD = {
    "session_id": "details",
    "cwd": "/tmp",
    "hook_event_name": "PreToolUse",
    "permission_mode": "default",
    "tool_name": "Bash",
    "tool_input": {"command": "git reset --hard"},
}


def _specific(env: dict[str, str], payload: dict[str, object] = PAYLOAD) -> dict[str, object]:
    out = io.StringIO()
    code = hook.main([], io.BytesIO(json.dumps(payload).encode()), out, io.StringIO(), env)
    assert code == 0
    doc = json.loads(out.getvalue())
    specific = doc["hookSpecificOutput"]
    assert isinstance(specific, dict)
    return specific


@pytest.mark.parametrize(
    ("setting", "details"),
    [
        pytest.param(None, False, id="default-off"),
        pytest.param("details = true", True, id="config-on"),
        pytest.param("details = false", False, id="config-off"),
    ],
)
def test_config_switch(
    setting: str | None, details: bool, tmp_path: Path, isolated_home: Path
) -> None:
    env = {"DCG_RESPONSE_MODE": "paranoid", "HOME": str(isolated_home)}
    if setting is not None:
        path = tmp_path / "dcg.toml"
        path.write_text(f"[hook]\n{setting}\n")
        env["DCG_CONFIG"] = str(path)
    specific = _specific(env)
    assert ("ruleId" in specific) is details
    assert "allowOnceCode" not in specific and "confirmCode" not in specific


@pytest.mark.parametrize(
    ("value", "details"),
    [
        pytest.param("1", True, id="one"),
        pytest.param("true", True, id="true"),
        pytest.param("0", False, id="zero"),
        pytest.param("", False, id="empty"),
    ],
)
def test_environment_switch(value: str, details: bool, isolated_home: Path) -> None:
    env = {"DCG_RESPONSE_MODE": "paranoid", "HOME": str(isolated_home), "DCG_HOOK_DETAILS": value}
    specific = _specific(env)
    assert ("responseLevel" in specific) is details


def test_codex_never_gets_details_through_the_hook(isolated_home: Path) -> None:
    env = {"DCG_RESPONSE_MODE": "paranoid", "HOME": str(isolated_home), "DCG_HOOK_DETAILS": "1"}
    specific = _specific(env, {**PAYLOAD, "turn_id": "t1"})
    assert set(specific) == {"hookEventName", "permissionDecision", "permissionDecisionReason"}
