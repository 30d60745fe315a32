"""``dcg doctor``: detects broken or ineffective protection, reports a healthy install."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from dcg import paths
from dcg.commands import _hooks
from dcg.commands.doctor import doctor, stopped
from dcg.commands.install import install


def _run(**kw: object) -> tuple[int, list[dict[str, object]]]:
    out = io.StringIO()
    code = doctor(json_output=True, stdout=out, **kw)  # type: ignore[arg-type]
    return code, json.loads(out.getvalue())


def _failed(findings: list[dict[str, object]]) -> set[tuple[object, object]]:
    return {(f["scope"], f["check"]) for f in findings if not f["ok"]}


@pytest.fixture
def no_agents_on_path(isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # No agent binary on PATH: only the home directories decide which agents are present.
    monkeypatch.setenv("PATH", str(isolated_home / "no-bin"))


def test_healthy_install_is_healthy(
    dcg_exe: str, isolated_home: Path, no_agents_on_path: None
) -> None:
    install(["claude"], stdout=io.StringIO())
    code, findings = _run()
    # The speed finding warns on a loaded machine; only what can go wrong for sure counts.
    assert {f for f in _failed(findings) if f[1] != "speed"} == set()
    assert code == 0
    assert ("claude", "self-test") in {(f["scope"], f["check"]) for f in findings}


def test_self_test_does_not_touch_history(
    dcg_exe: str, isolated_home: Path, no_agents_on_path: None
) -> None:
    install(["claude", "gemini", "windsurf"], exe=dcg_exe, stdout=io.StringIO())
    _run()
    assert not os.path.exists(paths.history_file())


def test_hook_missing(isolated_home: Path, no_agents_on_path: None) -> None:
    (isolated_home / ".claude").mkdir()
    code, findings = _run()
    assert ("claude", "registered") in _failed(findings)
    assert code == 1


def test_matcher_not_covering_powershell(
    dcg_exe: str, isolated_home: Path, no_agents_on_path: None
) -> None:
    path = isolated_home / _hooks.SPECS["claude"].user_path
    path.parent.mkdir(parents=True)
    hook = {"type": "command", "command": f"{dcg_exe} hook"}
    path.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook]}]}}))
    code, findings = _run()
    assert ("claude", "matcher") in _failed(findings)
    assert code == 1


def test_binary_path_gone(isolated_home: Path, no_agents_on_path: None) -> None:
    install(["cursor"], exe=str(isolated_home / "gone" / "dcg"), stdout=io.StringIO())
    code, findings = _run()
    assert ("cursor", "executable") in _failed(findings)
    assert code == 1


def test_hook_that_does_not_block(isolated_home: Path, no_agents_on_path: None) -> None:
    fake = isolated_home / "bin" / "dcg"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\ncat >/dev/null\nexit 0\n")
    fake.chmod(0o755)
    install(["gemini"], exe=str(fake), stdout=io.StringIO())
    code, findings = _run()
    assert ("gemini", "self-test") in _failed(findings)
    assert code == 1


def test_config_typo(dcg_exe: str, isolated_home: Path, no_agents_on_path: None) -> None:
    install(["claude"], exe=dcg_exe, stdout=io.StringIO())
    config = Path(paths.user_config())
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('[response]\nmdoe = "strict"\n')
    _, findings = _run()
    problems = [f["detail"] for f in findings if f["scope"] == "config" and not f["ok"]]
    assert any("mdoe" in str(p) for p in problems)


def test_world_readable_state(dcg_exe: str, isolated_home: Path, no_agents_on_path: None) -> None:
    install(["claude"], exe=dcg_exe, stdout=io.StringIO())
    history = Path(paths.history_file())
    history.parent.mkdir(parents=True, exist_ok=True)
    history.parent.chmod(0o700)
    history.write_text("")
    history.chmod(0o644)
    _, findings = _run()
    bad = [f for f in findings if f["scope"] == "state" and not f["ok"]]
    assert [f["fix"] for f in bad] == [f"chmod 600 {history}"]


def test_plain_output_when_piped(isolated_home: Path, no_agents_on_path: None) -> None:
    (isolated_home / ".gemini").mkdir()
    out = io.StringIO()
    assert doctor(stdout=out) == 1
    assert "FAIL gemini: registered" in out.getvalue()
    assert "fix: dcg install --agent gemini" in out.getvalue()


@pytest.mark.parametrize(
    ("agent", "stdout", "code", "expected"),
    [
        pytest.param("claude", "", 0, False, id="claude-silent"),
        pytest.param("claude", "", 2, True, id="claude-exit-2"),
        pytest.param(
            "claude",
            '{"hookSpecificOutput": {"permissionDecision": "ask"}}',
            0,
            False,
            id="claude-ask",
        ),
        pytest.param("copilot", "", 2, False, id="copilot-exit-2-runs"),
        pytest.param("cursor", '{"permission": "deny"}', 0, True, id="cursor-deny"),
        pytest.param("windsurf", "", 2, True, id="windsurf-exit-2"),
        pytest.param("opencode", '{"decision": "warn"}', 0, False, id="opencode-warn"),
        pytest.param("gemini", "not json", 0, False, id="gemini-garbage"),
    ],
)
def test_stopped(agent: str, stdout: str, code: int, expected: bool) -> None:
    assert stopped(agent, stdout, code) is expected


@pytest.mark.parametrize(
    ("version", "api", "ok"),
    [
        pytest.param("1.0.146", "v1", True, id="v1-plugin-v1"),
        pytest.param("0.15.2", "v1", True, id="v0-plugin-v1"),
        pytest.param("2.0.0", "v1", False, id="v2-plugin-v1"),
        pytest.param("2.1.3-beta", "v1", False, id="v2-beta-plugin-v1"),
        pytest.param("2.0.12", "v2", True, id="v2-plugin-v2"),
        pytest.param("1.18.30", "v2", False, id="v1-plugin-v2"),
        pytest.param("1.18.30", "v1+v2", True, id="v1-plugin-both"),
        pytest.param("2.0.12", "v1+v2", True, id="v2-plugin-both"),
        pytest.param(None, "v1+v2", True, id="unknown-plugin-both"),
        pytest.param(None, "v1", True, id="unknown-plugin-v1"),
    ],
)
def test_doctor_reports_whether_the_opencode_plugin_loads(
    version: str | None, api: str, ok: bool
) -> None:
    from dcg.commands import _opencode

    found_ok, fatal, detail = _opencode.load_verdict(
        version, _opencode.plugin(["dcg", "hook"], api), None
    )
    assert found_ok is ok and fatal is not ok
    assert (version or "unknown") in detail
    assert api in detail


def test_the_opencode_plugin_check_is_a_field_of_its_spec() -> None:
    # OpenCode's plugin check lives in agents/opencode.py, not in a branch of doctor's:
    # doctor runs whatever check a spec carries (tests/agents/test_one_file.py: a new
    # agent's own check runs too).
    from dcg.agents import AGENTS, spec

    assert [a for a in AGENTS if spec(a).check is not None] == ["opencode"]
    check = spec("opencode").check
    assert check is not None
    name, ok, fatal, detail = check(None, None)
    assert name == "plugin loads" and isinstance(detail, str) and fatal is not ok


@pytest.mark.parametrize(
    "agent", [pytest.param(a, id=a) for a in ("factory", "opencode", "cursor")]
)
def test_new_and_changed_agents_pass_the_self_test(
    agent: str, dcg_exe: str, isolated_home: Path, no_agents_on_path: None
) -> None:
    install([agent], stdout=io.StringIO())
    code, findings = _run()
    # "on failure" is a warning for agents that run a command when a hook fails.
    assert {f for f in _failed(findings) if f[1] not in ("speed", "on failure")} == set()
    assert code == 0
    assert (agent, "self-test") in {(f["scope"], f["check"]) for f in findings}


@pytest.mark.parametrize(("name", "fails"), [("posix", False), ("nt", True), ("java", True)])
def test_doctor_states_the_platform_scope(
    name: str, fails: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dcg.commands import _doctor_platform

    monkeypatch.setattr(_doctor_platform.os, "name", name)
    found = _doctor_platform.problem()
    assert (found is not None) is fails
    if found is not None:
        detail, fix = found
        assert "POSIX systems only" in detail and name in detail and fix
        assert "dcg.oslite" in detail


def test_doctor_on_a_non_posix_system_fails_the_platform_check(
    isolated_home: Path, no_agents_on_path: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dcg.commands import _doctor_platform

    monkeypatch.setattr(_doctor_platform.os, "name", "nt")
    code, findings = _run()
    monkeypatch.undo()
    found = [f for f in findings if (f["scope"], f["check"]) == ("platform", "posix")]
    assert code == 1 and len(found) == 1 and not found[0]["ok"] and found[0]["fatal"]
    assert "POSIX systems only" in str(found[0]["detail"]) and "oslite" in str(found[0]["detail"])
    _, on_posix = _run()
    assert ("platform", "posix") not in {(f["scope"], f["check"]) for f in on_posix}
