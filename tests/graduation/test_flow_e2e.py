"""The whole graduated flow as a user sees it: installed `dcg hook` plus `dcg confirm`/`allow-once`
run from a (pseudo-)terminal, as a human would."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

CWD = "/home/dev/project"
COMMAND = "git reset --hard HEAD~1"


@pytest.fixture(autouse=True)
def _hook_details(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read the draft's fields: ask the hook for them (decisions.md 10.9)."""
    monkeypatch.setenv("DCG_HOOK_DETAILS", "1")


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
    doc = json.loads(proc.stdout)
    out = doc["hookSpecificOutput"]
    assert isinstance(out, dict)
    # The approval code is only in the user-only systemMessage (decisions.md 10.2).
    found = re.search(r"Code: ([0-9a-f]{4})", str(doc.get("systemMessage", "")))
    if found:
        out["code"] = found.group(1)
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
    code = str(soft["code"])
    assert code not in str(soft["permissionDecisionReason"])
    remediation = soft["remediation"]
    assert isinstance(remediation, dict)
    assert remediation["confirmCommand"] == "dcg confirm"
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
    code = str(hard["code"])
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


def _typed(exe: str, action: str, answer: bytes) -> tuple[int, str]:
    """Run ``dcg ACTION`` with no code inside a pty, type ``answer``, return (rc, screen)."""
    import pty
    import select
    import time

    pid, fd = pty.fork()
    if pid == 0:  # the child: a terminal, as a person (or script -c) would give it
        os.execv(exe, [exe, action])
    os.write(fd, answer)
    screen = b""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            screen += chunk
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return os.waitstatus_to_exitcode(status), screen.decode(errors="replace")


@pytest.mark.parametrize("answer", [b"1\n", b"y\n", b"\n"], ids=["index", "yes", "enter"])
def test_confirm_without_code_lists_but_never_approves(dcg_exe: str, answer: bytes) -> None:
    """decisions.md 11.6: the list shows what waits; only the person's code approves."""
    for _ in range(3):
        soft = hook(dcg_exe)
    assert soft["responseLevel"] == "soft_block"
    rc, screen = _typed(dcg_exe, "confirm", answer)
    assert rc == 0, screen
    assert COMMAND in screen and CWD in screen and "ago" in screen
    assert "Confirmed" not in screen and str(soft["code"]) not in screen
    assert hook(dcg_exe).get("permissionDecision") == "deny"


def test_script_with_an_index_on_stdin_approves_nothing(dcg_exe: str) -> None:
    """The attack of issue 30: a terminal from script -c and ``1`` typed into it."""
    for _ in range(3):
        soft = hook(dcg_exe)
    for action in ("confirm", "allow-once"):
        proc = subprocess.run(
            ["script", "-qec", f"{dcg_exe} {action}", "/dev/null"],
            input="1\n",
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert str(soft["code"]) not in proc.stdout + proc.stderr
    assert hook(dcg_exe).get("permissionDecision") == "deny"


def test_allow_once_without_code_lists_the_hard_block(dcg_exe: str) -> None:
    hard = hook(dcg_exe, "rm -rf ~")
    assert hard["responseLevel"] == "hard_block"
    rc, screen = _typed(dcg_exe, "allow-once", b"1\n")
    assert rc == 0 and "rm -rf ~" in screen and str(hard["code"]) not in screen
    assert hook(dcg_exe, "rm -rf ~").get("permissionDecision") == "deny"


def test_confirm_without_code_refuses_without_a_terminal(dcg_exe: str) -> None:
    proc = subprocess.run(
        [dcg_exe, "confirm"], input="1\n", capture_output=True, text=True, timeout=30
    )
    assert proc.returncode != 0 and "terminal" in proc.stderr
