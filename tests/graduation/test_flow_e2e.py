"""The whole graduated flow as a user sees it: installed `dcg hook` plus `dcg confirm`/`allow-once`
run from a (pseudo-)terminal, as a human would."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

CWD = "/home/dev/project"
COMMAND = "git reset --hard HEAD~1"


def hook(
    exe: str, command: str = COMMAND, cwd: str = CWD, session: str = "flow"
) -> dict[str, object]:
    payload = {
        "session_id": session,
        "cwd": cwd,
        "hook_event_name": "PreToolUse",
        "permission_mode": "default",
        "tool_name": "Bash",
        "tool_input": {"command": command},
    }
    proc = subprocess.run(
        [exe, "hook"], input=json.dumps(payload), capture_output=True, text=True, timeout=30
    )
    assert proc.returncode == 0, proc.stderr
    if not proc.stdout.strip():
        return {}
    out = json.loads(proc.stdout)["hookSpecificOutput"]
    assert isinstance(out, dict)
    return out


def human(exe: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run a dcg command with a terminal on stdin, the way a person types it."""
    leader, follower = os.openpty()
    try:
        return subprocess.run(
            [exe, *args], stdin=follower, capture_output=True, text=True, timeout=30
        )
    finally:
        os.close(leader)
        os.close(follower)


def test_six_identical_commands_escalate(dcg_exe: str) -> None:
    levels = [hook(dcg_exe).get("responseLevel") for _ in range(6)]
    assert levels == ["warning", "warning", "soft_block", "soft_block", "hard_block", "hard_block"]


def test_confirm_lets_exactly_one_rerun_through(dcg_exe: str) -> None:
    hook(dcg_exe)
    hook(dcg_exe)
    soft = hook(dcg_exe)
    assert soft["responseLevel"] == "soft_block" and soft["permissionDecision"] == "deny"
    code = str(soft["confirmCode"])
    remediation = soft["remediation"]
    assert isinstance(remediation, dict)
    assert remediation["confirmCommand"] == f"dcg confirm {code}"
    # The code is only for this command in this directory.
    other_dir = hook(dcg_exe, cwd="/home/dev/other")
    assert other_dir.get("permissionDecision") == "deny"
    proc = human(dcg_exe, "confirm", code)
    assert proc.returncode == 0, proc.stderr
    assert hook(dcg_exe) == {}  # the confirmed re-run passes, silently
    again = hook(dcg_exe)
    assert again.get("permissionDecision") == "deny"  # …exactly once
    second = human(dcg_exe, "confirm", code)
    assert second.returncode != 0 and second.stderr.count("\n") == 1


def test_allow_once_works_until_expiry(dcg_exe: str) -> None:
    hard = hook(dcg_exe, "rm -rf ~")
    assert hard["responseLevel"] == "hard_block"
    code = str(hard["allowOnceCode"])
    assert human(dcg_exe, "allow-once", code).returncode == 0
    assert hook(dcg_exe, "rm -rf ~") == {}
    assert hook(dcg_exe, "rm -rf ~") == {}  # not single-use: works until it expires
    # Another command or directory is not covered.
    assert hook(dcg_exe, "rm -rf /").get("permissionDecision") == "deny"
    assert hook(dcg_exe, "rm -rf ~", cwd="/srv").get("permissionDecision") == "deny"
    # Let the grant expire, as 24 hours would.
    store = Path.home() / ".config" / "dcg" / "allow_once.jsonl"
    lines = []
    for line in store.read_text().splitlines():
        record = json.loads(line)
        record["expires_at"] = "2000-01-01T00:00:00Z"
        lines.append(json.dumps(record))
    store.write_text("\n".join(lines) + "\n")
    assert hook(dcg_exe, "rm -rf ~").get("permissionDecision") == "deny"


@pytest.mark.parametrize(
    "command",
    [
        "dcg confirm abcd",
        "dcg allow-once abcd",
        "dcg allowlist add core.git:reset-hard --user",
        "dcg session clear",
        "echo y | dcg confirm abcd",
        "bash -c 'dcg allow-once abcd'",
        "rm ~/.config/dcg/pending_confirmations.jsonl",
    ],
)
def test_agent_cannot_approve_through_the_hook(dcg_exe: str, command: str) -> None:
    out = hook(dcg_exe, command)
    assert out["permissionDecision"] == "deny"
    assert str(out["ruleId"]).startswith("core.dcg:")


def test_approval_commands_refuse_without_a_terminal(dcg_exe: str) -> None:
    proc = subprocess.run(
        [dcg_exe, "confirm", "abcd"], stdin=subprocess.DEVNULL, capture_output=True, text=True
    )
    assert proc.returncode != 0
    assert "terminal" in proc.stderr.lower()
