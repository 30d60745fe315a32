"""The installed `dcg` command line: test, explain, packs, errors."""

from __future__ import annotations

import json
import subprocess

import pytest


def dcg(exe: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=60, check=False)


@pytest.mark.parametrize(
    ("command", "code", "rule_id"),
    [
        pytest.param("git reset --hard", 1, "core.git:reset-hard", id="stopped"),
        pytest.param("git status", 0, None, id="safe"),
        pytest.param("echo 'rm -rf /'", 0, None, id="data"),
        pytest.param("sudo rm -rf ~", 1, "core.filesystem:rm-rf-critical", id="critical"),
    ],
)
def test_test_command(dcg_exe: str, command: str, code: int, rule_id: str | None) -> None:
    proc = dcg(dcg_exe, "test", command, "--json")
    assert proc.returncode == code, proc.stderr
    data = json.loads(proc.stdout)
    assert data["destructive"] is (rule_id is not None)
    assert [m["ruleId"] for m in data["matches"]][:1] == ([rule_id] if rule_id else [])


def test_test_with_packs(dcg_exe: str) -> None:
    assert dcg(dcg_exe, "test", "rabbitmqctl reset").returncode == 0
    proc = dcg(dcg_exe, "test", "--with-packs", "messaging", "rabbitmqctl reset")
    assert proc.returncode == 1 and "messaging.rabbitmq:reset-node" in proc.stdout


def test_test_mode_flag_changes_the_level(dcg_exe: str) -> None:
    proc = dcg(dcg_exe, "test", "--json", "--mode", "paranoid", "git reset --hard")
    assert json.loads(proc.stdout)["responseLevel"] == "hard_block"


def test_explain_reports_data_words_and_the_rule(dcg_exe: str) -> None:
    proc = dcg(dcg_exe, "explain", "--json", "git commit -m 'rm -rf /' && git push -f")
    assert proc.returncode == 0
    data = json.loads(proc.stdout)
    commit = next(c for c in data["commands"] if c["argv"][:2] == ["git", "commit"])
    assert {"word": "rm -rf /", "why": "commit message"} in commit["data"]
    assert [m["ruleId"] for m in data["matches"]] == ["core.git:push-force"]
    assert data["graduation"]["mode"] == "standard"


def test_explain_text_has_the_graduation_block(dcg_exe: str) -> None:
    out = dcg(dcg_exe, "explain", "git reset --hard HEAD~1").stdout
    for line in ("Pattern:    core.git:reset-hard", "Severity:   high", "Graduation info:"):
        assert line in out


def test_explain_when_nothing_matches(dcg_exe: str) -> None:
    out = dcg(dcg_exe, "explain", "ls -la").stdout
    assert "not parsed" in out


def test_packs_json_lists_every_pack(dcg_exe: str) -> None:
    rows = json.loads(dcg(dcg_exe, "packs", "--json").stdout)
    ids = {r["id"] for r in rows}
    assert {"core.git", "database.postgresql", "strict.git"} <= ids
    core = next(r for r in rows if r["id"] == "core.git")
    assert core["enabled"] and core["category"] == "core" and core["rules"] >= 10


def test_pack_detail(dcg_exe: str) -> None:
    data = json.loads(dcg(dcg_exe, "pack", "core.git", "--json").stdout)
    rule = next(r for r in data["rulesDetail"] if r["id"] == "core.git:reset-hard")
    assert rule["severity"] == "high" and rule["blocks"]


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(("pack", "nope.nothing"), id="unknown-pack"),
        pytest.param(("test", "--with-packs", "databse", "ls"), id="unknown-selector"),
        pytest.param(("confirm", "zzzz"), id="confirm-without-terminal"),
    ],
)
def test_errors_are_one_line(dcg_exe: str, args: tuple[str, ...]) -> None:
    proc = dcg(dcg_exe, *args)
    assert proc.returncode != 0
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("dcg")
    assert "Traceback" not in proc.stderr


def test_version(dcg_exe: str) -> None:
    assert dcg(dcg_exe, "--version").stdout.startswith("dcg ")
