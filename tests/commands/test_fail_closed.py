"""Fail toward protection where the agent offers it, and say where it does not.

Claude Code (2.1.295+) blocks a tool call whose hook cannot run when the entry says
``onFailure: "block"``; Goose does with ``on_failure: "block"``. dcg writes both; older
Claude Code builds ignore the key and keep the entry (run here: 2.0.0, 2.1.100, 2.1.200,
2.1.294). ``dcg doctor`` names every agent that runs a command when its hook fails.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from dcg.agents import _spec
from dcg.commands import _hooks
from dcg.commands.doctor import failure_mode
from dcg.commands.install import install

EXE = "/opt/dcg/bin/dcg"


def _claude_hook(home: Path) -> dict[str, object]:
    data = json.loads((home / ".claude" / "settings.json").read_text())
    [group] = data["hooks"]["PreToolUse"]
    [hook] = group["hooks"]
    assert isinstance(hook, dict)
    return hook


def test_claude_entry_blocks_when_the_hook_fails(isolated_home: Path) -> None:
    assert install(["claude"], exe=EXE, stdout=io.StringIO()) == 0
    assert _claude_hook(isolated_home) == {
        "type": "command",
        "command": f"{EXE} hook",
        "timeout": 10,
        "onFailure": "block",
    }


def test_an_older_dcg_entry_gets_on_failure_block(isolated_home: Path) -> None:
    path = isolated_home / ".claude" / "settings.json"
    path.parent.mkdir()
    old = {"type": "command", "command": f"{EXE} hook", "timeout": 10}
    group = {"matcher": _hooks.MATCHERS["claude"], "hooks": [old]}
    path.write_text(json.dumps({"hooks": {"PreToolUse": [group]}}))
    out = io.StringIO()
    assert install(["claude"], exe=EXE, stdout=out) == 0
    assert "onFailure None -> 'block'" in out.getvalue()
    assert _claude_hook(isolated_home)["onFailure"] == "block"


@pytest.mark.parametrize(
    ("agent", "closed"),
    [pytest.param(name, spec.fails == _spec.FAILS_CLOSED, id=name)
     for name, spec in _hooks.SPECS.items()],
)  # fmt: skip
def test_doctor_says_which_agents_fail_open(
    agent: str, closed: bool, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")  # no agent binary to ask its version
    finding = failure_mode(agent)
    assert (finding.check, finding.ok, finding.fatal) == ("on failure", closed, False)
    assert finding.detail and (closed or "fails open: " in finding.detail)
    assert closed == (agent in {"claude", "goose"})


@pytest.mark.parametrize(
    ("version", "closed"),
    [pytest.param("2.1.200", False, id="older"), pytest.param("2.1.295", True, id="since"),
     pytest.param("2.1.332", True, id="newer")],
)  # fmt: skip
def test_doctor_asks_claude_code_its_version(
    version: str, closed: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = tmp_path / "bin" / "claude"
    fake.parent.mkdir()
    fake.write_text(f"#!/bin/sh\necho '{version} (Claude Code)'\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}{os.pathsep}/usr/bin:/bin")
    finding = failure_mode("claude")
    assert finding.ok is closed
    if not closed:
        assert version in finding.detail and "2.1.295" in finding.fix
