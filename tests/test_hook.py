"""The hook end to end: the installed `dcg` run as a subprocess with Claude Code payloads."""

from __future__ import annotations

import io
import json
import os
import subprocess
from pathlib import Path

import pytest

from dcg import hook


@pytest.fixture(autouse=True)
def _hook_details(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read the draft's fields: ask the hook for them (decisions.md 10.9)."""
    monkeypatch.setenv("DCG_HOOK_DETAILS", "1")


def claude_payload(command: object, tool: str = "Bash", **extra: object) -> str:
    body: dict[str, object] = {
        "session_id": "e2e-session",
        "transcript_path": "/tmp/transcript.jsonl",
        "cwd": "/home/dev/project",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": {"command": command, "description": "test"},
        "tool_use_id": "toolu_01",
    }
    body.update(extra)
    return json.dumps(body)


def run_hook(
    dcg_exe: str, stdin: str | bytes, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    full_env = dict(os.environ, **(env or {}))
    return subprocess.run(
        [dcg_exe, *args], input=data, capture_output=True, env=full_env, timeout=30, check=False
    )


PARANOID = {"DCG_RESPONSE_MODE": "paranoid"}


@pytest.mark.parametrize(
    "command",
    [
        pytest.param("ls -la", id="no-keyword"),
        pytest.param("git status", id="safe-git"),
        pytest.param("git commit -m 'revert the rm -rf /'", id="commit-message"),
        pytest.param("echo 'git reset --hard'", id="echo"),
        pytest.param("grep -rn 'rm -rf' .", id="grep-pattern"),
        pytest.param("rm -rf /tmp/build", id="rm-in-tmp"),
    ],
)
def test_no_match_is_silent(dcg_exe: str, command: str) -> None:
    proc = run_hook(dcg_exe, claude_payload(command), "hook", env=PARANOID)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")


@pytest.mark.parametrize(
    ("command", "rule_id", "severity"),
    [
        pytest.param("git reset --hard", "core.git:reset-hard", "high", id="reset-hard"),
        pytest.param("sudo rm -rf /", "core.filesystem:rm-rf-critical", "critical", id="rm-root"),
        pytest.param("bash -c 'git clean -fdx'", "core.git:clean-force", "high", id="bash-c"),
        pytest.param("dcg allow-once 1234", "core.dcg:self-approve", "critical", id="self"),
    ],
)
def test_matched_command_is_denied(dcg_exe: str, command: str, rule_id: str, severity: str) -> None:
    proc = run_hook(dcg_exe, claude_payload(command), "hook", env=PARANOID)
    assert proc.returncode == 0
    out = json.loads(proc.stdout)["hookSpecificOutput"]
    assert out["hookEventName"] == "PreToolUse"
    assert out["permissionDecision"] == "deny"
    assert (out["ruleId"], out["packId"], out["severity"]) == (
        rule_id,
        rule_id.split(":")[0],
        severity,
    )
    reason = out["permissionDecisionReason"]
    assert rule_id in reason
    assert "ask the user" in reason.lower()
    # The person's text is in the user-only systemMessage; stderr at exit 0 reaches only
    # Claude Code's debug log, so nothing is written there (decisions.md 10.9).
    message = json.loads(proc.stdout)["systemMessage"]
    assert "dcg" in message and rule_id in message
    assert proc.stderr == b""


def test_bare_dcg_with_piped_stdin_is_the_hook(dcg_exe: str) -> None:
    proc = run_hook(dcg_exe, claude_payload("git reset --hard"), env=PARANOID)
    assert json.loads(proc.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


@pytest.mark.parametrize(
    "stdin",
    [
        pytest.param("{not json", id="malformed"),
        pytest.param("", id="empty"),
        pytest.param("[1, 2]", id="not-an-object"),
        pytest.param(claude_payload("git reset --hard", tool="Read"), id="non-shell-tool"),
        pytest.param(claude_payload(""), id="empty-command"),
        pytest.param(claude_payload(None), id="null-command"),
        pytest.param(claude_payload(["git", "reset", "--hard"]), id="list-command"),
        pytest.param(json.dumps({"tool_name": "Bash", "tool_input": {}}), id="missing-command"),
        pytest.param(b"\xff\xfe git reset --hard \x00", id="binary"),
    ],
)
def test_no_opinion_on_bad_input(dcg_exe: str, stdin: str | bytes) -> None:
    proc = run_hook(dcg_exe, stdin, "hook", env=PARANOID)
    assert (proc.returncode, proc.stdout) == (0, b"")


@pytest.mark.parametrize(
    "command",
    [
        pytest.param("git reset --hard; " + "true; " * 200_000, id="keyword-first"),
        pytest.param("true; " * 200_000 + "git reset --hard", id="keyword-past-bound"),
        pytest.param("ls; " * 300_000, id="no-keyword"),
    ],
)
def test_oversized_shell_payload_is_too_large(dcg_exe: str, command: str) -> None:
    # decisions.md 10.1: a shell command dcg cannot read whole is stopped, never waved through.
    proc = run_hook(dcg_exe, claude_payload(command), "hook")
    assert proc.returncode == 0
    out = json.loads(proc.stdout)["hookSpecificOutput"]
    assert out["permissionDecision"] == "deny"
    assert "core.dcg:too-large" in out["permissionDecisionReason"]


def test_oversized_file_tool_payload_is_judged_by_its_path(dcg_exe: str) -> None:
    body = json.dumps(
        {
            "session_id": "s",
            "hook_event_name": "PreToolUse",
            "tool_name": "Read",
            "tool_input": {"file_path": "/home/dev/big.txt", "x": "y" * (2 << 20)},
        }
    )
    proc = run_hook(dcg_exe, body, "hook")
    assert (proc.returncode, proc.stdout) == (0, b"")


@pytest.mark.parametrize(
    ("stdin", "agent"),
    [
        pytest.param(claude_payload("git status")[:-5] + " " * 64, None, id="truncated"),
        pytest.param(
            '{"tool_name": "Bash", "tool_input": {"command": "ls", "x": '
            + "[" * 100_000
            + "]" * 100_000
            + "}}",
            None,
            id="too-deep",
        ),
        pytest.param(
            '{"tool_name": "Bash", "tool_input": {"command": "ls", "x": '
            + "[" * 100_000
            + "]" * 100_000
            + "}}",
            "claude",
            id="too-deep-named-agent",
        ),
    ],
)
def test_undecodable_shell_payload_is_too_large(
    monkeypatch: pytest.MonkeyPatch, stdin: str, agent: str | None
) -> None:
    monkeypatch.setattr(hook, "MAX_STDIN", 64)
    monkeypatch.setattr(hook, "MAX_DECODE", 1 << 30)
    if "[[[" not in stdin:
        monkeypatch.setattr(hook, "MAX_DECODE", 128)
        stdin = stdin + " " * 256
    args = ["--agent", agent] if agent else []
    out, err = io.StringIO(), io.StringIO()
    code = hook.main(args, io.BytesIO(stdin.encode()), out, err, dict(os.environ))
    text = out.getvalue() + err.getvalue()
    assert "core.dcg:too-large" in text
    if agent is None:
        assert code == 2
    else:
        assert json.loads(out.getvalue())["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_undecodable_payload_of_another_tool_has_no_opinion(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(hook, "MAX_STDIN", 64)
    monkeypatch.setattr(hook, "MAX_DECODE", 128)
    stdin = '{"tool_name": "Read", "tool_input": {"file_path": "' + "a" * 300
    out, err = io.StringIO(), io.StringIO()
    code = hook.main([], io.BytesIO(stdin.encode()), out, err, dict(os.environ))
    assert (code, out.getvalue(), err.getvalue()) == (0, "", "")


def _in_process(stdin: str, **env: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = hook.main([], io.BytesIO(stdin.encode()), out, err, dict(os.environ, **env))
    return code, out.getvalue(), err.getvalue()


def test_internal_error_fails_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*args: object, **kwargs: object) -> object:
        raise RuntimeError("engine exploded")

    monkeypatch.setattr("dcg.engine.evaluate", boom)
    code, out, _ = _in_process(claude_payload("git reset --hard"))
    assert code == 0
    decision = json.loads(out)["hookSpecificOutput"]
    assert decision["permissionDecision"] == "deny"
    assert "engine exploded" in decision["permissionDecisionReason"]
    log = Path.home() / ".config" / "dcg" / "error.log"
    assert "RuntimeError: engine exploded" in log.read_text()


def test_internal_error_without_keyword_has_no_opinion(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*args: object, **kwargs: object) -> object:
        raise RuntimeError("engine exploded")

    monkeypatch.setattr("dcg.engine.evaluate", boom)
    # The cwd mentions "git", so the payload passes the prefilter, but the command does not.
    code, out, _ = _in_process(claude_payload("ls -la", cwd="/home/dev/git-tools"))
    assert (code, out) == (0, "")


def test_internal_error_fail_open(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*args: object, **kwargs: object) -> object:
        raise RuntimeError("engine exploded")

    monkeypatch.setattr("dcg.engine.evaluate", boom)
    config = Path.home() / ".config" / "dcg" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[hook]\nfail_open = true\n")
    code, out, _ = _in_process(claude_payload("git reset --hard"))
    assert (code, out) == (0, "")


def test_time_budget_overrun_denies(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    real = time.thread_time
    calls = {"n": 0}

    def slow_clock() -> float:
        # Every reading after the first is a second later: any budget is blown.
        calls["n"] += 1
        return real() + (calls["n"] > 1) * calls["n"]

    monkeypatch.setattr(time, "thread_time", slow_clock)
    code, out, _ = _in_process(claude_payload("git status && git log"))
    assert code == 0
    decision = json.loads(out)["hookSpecificOutput"]
    assert decision["permissionDecision"] == "deny"
    assert decision["ruleId"] == "core.dcg:too-complex"
