"""The draft's section 13.3 e2e tests: the installed `dcg hook` with a fixed session id."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import jsonschema
import pytest

SCHEMA = json.loads(
    (Path(__file__).parents[2] / "docs" / "json-schema" / "hook-output.json").read_text()
)


@pytest.fixture(autouse=True)
def _hook_details(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read the draft's fields: ask the hook for them (decisions.md 10.9)."""
    monkeypatch.setenv("DCG_HOOK_DETAILS", "1")


def hook(exe: str, command: str, *args: str, session: str = "e2e") -> str | None:
    payload = {
        "session_id": session,
        "cwd": "/tmp",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
    }
    proc = subprocess.run(
        [exe, "hook", *args], input=json.dumps(payload), capture_output=True, text=True, timeout=30
    )
    assert proc.returncode == 0, proc.stderr
    if not proc.stdout.strip():
        return None
    doc = json.loads(proc.stdout)
    jsonschema.validate(doc, SCHEMA)
    return str(doc["hookSpecificOutput"]["responseLevel"])


def levels(exe: str, command: str, n: int, *args: str) -> list[str | None]:
    return [hook(exe, command, *args) for _ in range(n)]


def test_graduation_warning_first_occurrence(dcg_exe: str) -> None:
    assert hook(dcg_exe, "git reset --hard HEAD~1") == "warning"


def test_graduation_soft_block_session_threshold(dcg_exe: str) -> None:
    assert levels(dcg_exe, "git reset --hard HEAD~1", 3) == ["warning", "warning", "soft_block"]


def test_graduation_hard_block_history_threshold(dcg_exe: str) -> None:
    got = levels(dcg_exe, "git reset --hard HEAD~1", 6)
    assert got == ["warning", "warning", "soft_block", "soft_block", "hard_block", "hard_block"]


@pytest.mark.parametrize("flag", [("--mode", "paranoid")], ids=["flag"])
def test_graduation_paranoid_always_hard(dcg_exe: str, flag: tuple[str, str]) -> None:
    assert levels(dcg_exe, "git reset --hard HEAD~1", 3, *flag) == ["hard_block"] * 3


def test_graduation_lenient_never_hard(dcg_exe: str) -> None:
    got = levels(dcg_exe, "git reset --hard HEAD~1", 7, "--mode", "lenient")
    assert got == ["warning"] * 3 + ["soft_block"] * 4


def test_graduation_critical_override(dcg_exe: str) -> None:
    assert hook(dcg_exe, "rm -rf /", "--mode", "lenient") == "hard_block"
