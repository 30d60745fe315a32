"""``dcg test`` and ``dcg explain`` say what the hook would do now (issue 29.4): the hook's own
decision in a mode that writes nothing, allowlist, allow-once and pending confirmations
included, and never an approval code."""

from __future__ import annotations

import io
import json
import os
import subprocess
from pathlib import Path

import pytest
from hooklines import PROJECT, code_in, hook

from dcg import paths
from dcg.commands import allow_once, confirm
from dcg.state import allowlist

SESSION = "5f0c2a9e-claude"  # the session id of the golden Claude Code payload
LINE = "git reset --hard HEAD~1"


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def dcg(exe: str, *args: str) -> tuple[int, str]:
    proc = subprocess.run(
        [exe, *args], capture_output=True, text=True, timeout=60, env=dict(os.environ)
    )
    assert proc.returncode in (0, 1), proc.stderr
    return proc.returncode, proc.stdout


def run_test(exe: str, command: str) -> tuple[int, dict[str, object]]:
    code, out = dcg(exe, "test", "--json", "--cwd", PROJECT, "--session", SESSION, command)
    return code, json.loads(out)


def explain_json(exe: str, command: str) -> dict[str, object]:
    _, out = dcg(exe, "explain", "--json", "--cwd", PROJECT, "--session", SESSION, command)
    doc: dict[str, object] = json.loads(out)
    return doc


@pytest.mark.parametrize("mode", ["strict", "standard", "lenient"])
def test_test_predicts_every_step_of_the_curve(
    dcg_exe: str, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DCG_RESPONSE_MODE", mode)
    seen = []
    for _ in range(6):
        _, predicted = run_test(dcg_exe, LINE)
        _, specific, _ = hook(LINE)
        assert predicted["responseLevel"] == specific.get("responseLevel")
        seen.append(predicted["responseLevel"])
    assert "soft_block" in seen


ENTRIES = {
    "rule": {"rule": "core.git:reset-hard"},
    "pack": {"rule": "core.git:*"},
    "command": {"command": LINE},
}


@pytest.mark.parametrize("form", list(ENTRIES))
def test_allowlisted_command_passes_in_test_as_in_the_hook(dcg_exe: str, form: str) -> None:
    allowlist.add(paths.allowlist_file(), dict(ENTRIES[form]))
    code, data = run_test(dcg_exe, LINE)
    assert (code, data["responseLevel"]) == (0, None)
    (match,) = data["matches"]  # type: ignore[misc]
    assert match["allowedBy"] == "allowlist" and "allowlist" in match["approval"]
    assert hook(LINE)[0] == "none"
    _, text = dcg(dcg_exe, "test", "--cwd", PROJECT, LINE)
    assert "ALLOWED" in text and "allowed by the allowlist" in text


@pytest.mark.parametrize("form", list(ENTRIES))
def test_the_rest_of_the_line_is_judged_in_test_as_in_the_hook(dcg_exe: str, form: str) -> None:
    allowlist.add(paths.allowlist_file(), dict(ENTRIES[form]))
    line = f"{LINE} && rm -rf src"
    code, data = run_test(dcg_exe, line)
    assert (code, data["responseLevel"]) == (1, "warning")
    by_rule = {m["ruleId"]: m for m in data["matches"]}  # type: ignore[union-attr]
    assert by_rule["core.git:reset-hard"]["allowedBy"] == "allowlist"
    assert by_rule["core.filesystem:rm-rf"]["level"] == "warning"
    explained = explain_json(dcg_exe, line)
    assert explained["decision"] == "warning"
    assert hook(line)[0] == "warn"


def test_allow_once_and_confirm_are_seen_and_not_used_up(dcg_exe: str) -> None:
    for _ in range(3):
        _, _, person = hook(LINE)
    _, waiting = run_test(dcg_exe, LINE)
    assert waiting["responseLevel"] == "soft_block" and waiting["waiting"] == ["confirm"]
    assert confirm.main(code_in(person), stdin=Tty()) == 0
    for _ in range(3):  # looking does not consume the single-use confirmation
        code, data = run_test(dcg_exe, LINE)
        assert (code, data["responseLevel"]) == (0, None)
        assert data["matches"][0]["allowedBy"] == "confirm"  # type: ignore[index]
    assert hook(LINE)[0] == "none"  # the one run it allows
    _, after = run_test(dcg_exe, LINE)
    assert after["responseLevel"] == "soft_block"
    _, _, person = hook("rm -rf ~")
    assert allow_once.main(code_in(person), stdin=Tty()) == 0
    code, data = run_test(dcg_exe, "rm -rf ~")
    assert (code, data["responseLevel"]) == (0, None)
    assert {m["allowedBy"] for m in data["matches"]} == {"allow-once"}  # type: ignore[union-attr]
    assert hook("rm -rf ~")[0] == "none"


def test_looking_writes_nothing(dcg_exe: str) -> None:
    for _ in range(3):
        hook(LINE)
    roots = [Path(paths.config_dir()), Path(paths.session_dir())]

    def snapshot() -> list[tuple[str, int, int]]:
        return sorted(
            (str(p), p.stat().st_size, p.stat().st_mtime_ns)
            for root in roots
            for p in root.rglob("*")
            if p.is_file()
        )

    before = snapshot()
    for command in ("test", "explain"):
        for line in (LINE, f"{LINE}; rm -rf src", "dcg allowlist add core.git:*"):
            dcg(dcg_exe, command, "--cwd", PROJECT, "--session", SESSION, line)
            dcg(dcg_exe, command, "--json", "--cwd", PROJECT, line)
    assert snapshot() == before


def test_self_protection_is_hard_in_test_whatever_critical_always_hard(
    dcg_exe: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DCG_CRITICAL_ALWAYS_HARD", "false")
    code, data = run_test(dcg_exe, "dcg session clear")
    assert (code, data["responseLevel"]) == (1, "hard_block")


def test_no_approval_code_is_ever_printed(dcg_exe: str) -> None:
    """An agent may run dcg test and dcg explain: they must not hand it a code."""
    for _ in range(3):
        _, _, person = hook(LINE)
    code = code_in(person)
    for command in ("test", "explain"):
        for json_flag in ((), ("--json",)):
            _, out = dcg(dcg_exe, command, *json_flag, "--cwd", PROJECT, "--session", SESSION, LINE)
            assert code not in out
