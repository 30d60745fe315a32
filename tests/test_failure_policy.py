"""Failure toward protection (decisions.md 10.4, 10.5): through the installed ``dcg hook``.

A typo in the hook's settings, a config file that does not parse, state that cannot be
written: none of them may switch protection off, and none may put a traceback in front of
the agent. ``dcg doctor`` fails on each with the one-line fix.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

import hookpath
from dcg.commands import _hooks


def _hook(
    exe: str, command: str, *args: str, env: dict[str, str] | None = None, cwd: str | None = None
) -> tuple[str, str, str]:
    body = hookpath.payload("claude", command, cwd)
    proc = subprocess.run(
        [exe, "hook", *args],
        input=json.dumps(body).encode(),
        capture_output=True,
        env=dict(os.environ, **(env or {})),
        timeout=60,
        check=False,
    )
    out, err = proc.stdout.decode(), proc.stderr.decode()
    assert "Traceback" not in out + err
    return hookpath.verdict(proc.returncode, out, err), out, err


def _reason(out: str) -> str:
    specific = json.loads(out)["hookSpecificOutput"]
    return str(specific.get("permissionDecisionReason") or specific.get("additionalContext"))


def test_default_mode_warns_first(dcg_exe: str) -> None:
    # The baseline the cases below are measured against: standard mode warns the first time.
    assert _hook(dcg_exe, "git reset --hard")[0] == "warn"


@pytest.mark.parametrize(
    ("args", "notice"),
    [
        pytest.param(["--agent", "claud"], "unknown --agent 'claud'", id="agent-typo"),
        pytest.param(["--agnet", "claude"], "unknown option '--agnet'", id="option-typo"),
        pytest.param(["--mode"], "--mode needs a value", id="missing-value"),
        pytest.param(["--session-threshold", "zero"], "positive integer", id="bad-threshold"),
    ],
)
def test_unusable_hook_options_keep_protecting(dcg_exe: str, args: list[str], notice: str) -> None:
    verdict, out, err = _hook(dcg_exe, "rm -rf ~", *args)
    assert verdict == "deny"
    assert "core.filesystem" in _reason(out)
    assert notice in err


def test_unknown_mode_counts_as_paranoid(dcg_exe: str) -> None:
    verdict, _, err = _hook(dcg_exe, "git reset --hard", "--mode", "relaxed")
    assert verdict == "deny"
    assert "paranoid" in err


def test_notice_is_said_once_per_session(dcg_exe: str) -> None:
    first = _hook(dcg_exe, "rm -rf ~", "--agent", "claud")[2]
    second = _hook(dcg_exe, "rm -rf ~", "--agent", "claud")[2]
    assert "unknown --agent" in first and "unknown --agent" not in second


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("[response\nmode = 'lenient'\n", id="syntax"),
        pytest.param("[response]\nmode = 'lenient\n", id="unterminated"),
        pytest.param("\xff\xfe", id="not-utf8"),
    ],
)
def test_config_that_does_not_parse_means_paranoid(
    dcg_exe: str, isolated_home: Path, text: str
) -> None:
    config = isolated_home / ".config" / "dcg" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_bytes(text.encode("latin-1"))
    verdict, out, _ = _hook(dcg_exe, "git reset --hard")
    assert verdict == "deny"
    reason = _reason(out)
    assert str(config) in reason and "paranoid" in reason
    if text.isprintable() or "\n" in text:
        assert "line" in reason


def test_invalid_mode_value_means_paranoid(dcg_exe: str, isolated_home: Path) -> None:
    config = isolated_home / ".config" / "dcg" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[response]\nmode = 'relaxed'\n")
    assert _hook(dcg_exe, "git reset --hard")[0] == "deny"


def _unwritable_state(tmp_path: Path) -> dict[str, str]:
    # As root, permissions do not stop a write; a path under a regular file always fails.
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    return {
        "XDG_CONFIG_HOME": str(blocker / "config"),
        "XDG_STATE_HOME": str(blocker / "state"),
        "DCG_SESSION_DIR": str(blocker / "sessions"),
        "DCG_RESPONSE_MODE": "strict",
    }


def test_unwritable_state_counts_as_repeated(dcg_exe: str, tmp_path: Path) -> None:
    env = _unwritable_state(tmp_path)
    replies = [_hook(dcg_exe, "git reset --hard", env=env) for _ in range(3)]
    assert replies[1][0] == "deny"
    assert all(v == "deny" for v, _, _ in replies[1:])
    for _, out, err in replies:
        # No code could be stored, so no reply may name one.
        text = out + err
        assert "None" not in text
        assert not re.search(r"dcg (?:confirm|allow-once) [0-9a-z]{4}", text), text
    assert "as if this were a repeat" in replies[0][2]


def _install_claude(home: Path, command: str) -> None:
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    hook = {"type": "command", "command": command}
    body = {"hooks": {"PreToolUse": [{"matcher": _hooks.MATCHERS["claude"], "hooks": [hook]}]}}
    settings.write_text(json.dumps(body))


def _doctor(exe: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([exe, "doctor"], capture_output=True, text=True, timeout=120, check=False)


def test_doctor_fails_on_a_config_that_does_not_parse(dcg_exe: str, isolated_home: Path) -> None:
    _install_claude(isolated_home, f"{dcg_exe} hook")
    assert _doctor(dcg_exe).returncode == 0
    config = isolated_home / ".config" / "dcg" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("[response\n")
    proc = _doctor(dcg_exe)
    assert proc.returncode == 1
    assert "fix the TOML syntax in " + str(config) in proc.stdout


@pytest.mark.parametrize(
    "flags",
    [
        pytest.param("--agent claud", id="agent"),
        pytest.param("--mode relaxed", id="mode"),
        pytest.param("--verbose", id="option"),
    ],
)
def test_doctor_fails_on_unusable_hook_options(
    dcg_exe: str, isolated_home: Path, flags: str
) -> None:
    _install_claude(isolated_home, f"{dcg_exe} hook {flags}")
    proc = _doctor(dcg_exe)
    assert proc.returncode == 1
    assert "hook options" in proc.stdout and "dcg install --agent claude" in proc.stdout
