"""Install, uninstall and doctor for the agents added from their own hook docs (2026-12).

Each agent's layout: files dcg owns (Goose's plugin, Kiro's and Grok's hook files, Cline's
hook script), Kimi Code's ``[[hooks]]`` table in a TOML file, Amp's permission rules with
dcg's script first. Byte-exact round trips, the doctor self-test through the registered
hook, and what each file holds.
"""

from __future__ import annotations

import io
import json
import os
import tomllib
from pathlib import Path

import pytest

from dcg.commands import _hooks
from dcg.commands.doctor import check_agent
from dcg.commands.install import install
from dcg.commands.uninstall import uninstall

EXE = "/opt/dcg/bin/dcg"
NEW = ("goose", "crush", "cline", "kiro", "devin", "grok", "kimi", "letta", "openhands", "amp")


def _install(*agents: str, project: Path | None = None, exe: str = EXE) -> str:
    out = io.StringIO()
    kw: dict[str, object] = {"project": True, "cwd": str(project)} if project else {}
    assert install(agents, exe=exe, stdout=out, **kw) == 0  # type: ignore[arg-type]
    return out.getvalue()


def _uninstall(*agents: str, project: Path | None = None) -> str:
    out = io.StringIO()
    kw: dict[str, object] = {"project": True, "cwd": str(project)} if project else {}
    assert uninstall(agents, stdout=out, **kw) == 0  # type: ignore[arg-type]
    return out.getvalue()


def _tree(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".config/dcg" not in str(p)
    }


@pytest.mark.parametrize("agent", [pytest.param(a, id=a) for a in NEW])
def test_round_trip_leaves_the_home_as_it_was(agent: str, isolated_home: Path) -> None:
    before = _tree(isolated_home)
    dirs_before = sorted(p for p in isolated_home.rglob("*") if p.is_dir())
    _install(agent)
    assert _tree(isolated_home) != before
    _uninstall(agent)
    assert _tree(isolated_home) == before
    assert sorted(p for p in isolated_home.rglob("*") if p.is_dir()) == dirs_before


KIMI_CONFIG = """# Kimi Code settings
default_model = "kimi-k2"

[[hooks]]
event = "Notification"
matcher = "task\\\\.completed"
command = "terminal-notifier -message done"
"""


def test_kimi_table_is_appended_and_removed_to_the_byte(isolated_home: Path) -> None:
    path = isolated_home / ".kimi-code" / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_text(KIMI_CONFIG)
    _install("kimi")
    data = tomllib.loads(path.read_text())
    assert data["default_model"] == "kimi-k2"
    first, mine = data["hooks"]
    assert first["event"] == "Notification"
    # Kimi rejects a table with any key but these four (its docs).
    assert set(mine) == {"event", "matcher", "command", "timeout"}
    assert mine["event"] == "PreToolUse" and mine["command"] == f"{EXE} hook --agent kimi"
    assert "already installed" in _install("kimi")
    _uninstall("kimi")
    assert path.read_text() == KIMI_CONFIG


def test_kimi_table_goes_after_changes_made_since(isolated_home: Path) -> None:
    path = isolated_home / ".kimi-code" / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_text(KIMI_CONFIG)
    _install("kimi")
    path.write_text(path.read_text() + '\n[ui]\ntheme = "dark"\n')
    _uninstall("kimi")
    assert tomllib.loads(path.read_text()) == tomllib.loads(
        KIMI_CONFIG + '\n[ui]\ntheme = "dark"\n'
    )
    assert "PreToolUse" not in path.read_text()


def test_kimi_has_no_project_settings(isolated_home: Path, tmp_path: Path) -> None:
    project = tmp_path / "repo"
    project.mkdir()
    out = io.StringIO()
    assert install(["kimi"], project=True, cwd=str(project), exe="dcg", stdout=out) == 1
    assert "reads no hooks from a project's settings" in out.getvalue()
    assert list(project.iterdir()) == []


AMP_SETTINGS = """{
  "amp.dangerouslyAllowAll": false,
  "amp.permissions": [
    {"tool": "Bash", "matches": {"cmd": "git *"}, "action": "allow"}
  ]
}
"""


def test_amp_rules_go_first_and_run_dcgs_script(isolated_home: Path) -> None:
    path = isolated_home / ".config" / "amp" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text(AMP_SETTINGS)
    _install("amp")
    rules = json.loads(path.read_text())["amp.permissions"]
    script = isolated_home / ".config" / "amp" / "dcg-hook.sh"
    # The first matching rule decides: without dcg first, `git reset --hard` would be allowed.
    assert [r["tool"] for r in rules[:3]] == ["Bash", "create_file", "edit_file"]
    assert all(r["action"] == "delegate" and r["to"] == str(script) for r in rules[:3])
    assert rules[3] == {"tool": "Bash", "matches": {"cmd": "git *"}, "action": "allow"}
    assert os.access(script, os.X_OK)
    assert _hooks.wrapper_command(script.read_text()) == f"{EXE} hook --agent amp"
    _uninstall("amp")
    assert path.read_text() == AMP_SETTINGS and not script.exists()


def test_amp_rule_moved_behind_yours_is_put_first_again(isolated_home: Path) -> None:
    path = isolated_home / ".config" / "amp" / "settings.json"
    _install("amp")
    data = json.loads(path.read_text())
    data["amp.permissions"].insert(0, {"tool": "Bash", "action": "allow"})
    path.write_text(json.dumps(data))
    assert not _hooks.covered("amp", data)
    assert "first" in _install("amp")
    assert _hooks.covered("amp", json.loads(path.read_text()))


def test_goose_plugin_has_its_manifest_and_blocks_on_failure(isolated_home: Path) -> None:
    _install("goose")
    plugin = isolated_home / ".agents" / "plugins" / "dcg"
    manifest = json.loads((plugin / "plugin.json").read_text())
    assert manifest["name"] == "dcg"
    [group] = json.loads((plugin / "hooks" / "hooks.json").read_text())["hooks"]["PreToolUse"]
    [hook] = group["hooks"]
    assert hook["command"] == f"{EXE} hook --agent goose" and hook["on_failure"] == "block"
    assert "developer__shell" in group["matcher"]


def test_cline_hook_is_an_executable_script_named_after_the_event(isolated_home: Path) -> None:
    _install("cline")
    script = isolated_home / "Documents" / "Cline" / "Hooks" / "PreToolUse"
    assert os.access(script, os.X_OK) and script.read_text().startswith("#!/bin/sh\n")
    assert _hooks.owned_command("cline", script.read_text()) == f"{EXE} hook --agent cline"


@pytest.mark.parametrize(
    ("agent", "rel"),
    [
        pytest.param("goose", ".agents/plugins/dcg/plugin.json", id="goose-manifest"),
        pytest.param("kiro", ".kiro/hooks/dcg.json", id="kiro"),
        pytest.param("grok", ".grok/hooks/dcg.json", id="grok"),
        pytest.param("cline", "Documents/Cline/Hooks/PreToolUse", id="cline"),
    ],
)
def test_a_file_of_dcgs_name_it_did_not_write_is_left_alone(
    agent: str, rel: str, isolated_home: Path
) -> None:
    path = isolated_home / rel
    path.parent.mkdir(parents=True)
    path.write_text('{"mine": true}\n')
    out = io.StringIO()
    assert install([agent], exe=EXE, stdout=out) == 1
    assert "was not written by dcg" in out.getvalue()
    assert path.read_text() == '{"mine": true}\n'
    _uninstall(agent)
    assert path.read_text() == '{"mine": true}\n'


@pytest.mark.parametrize("agent", [pytest.param(a, id=a) for a in NEW if a != "kimi"])
def test_project_install_round_trip(agent: str, isolated_home: Path, tmp_path: Path) -> None:
    project = tmp_path / "repo"
    project.mkdir()
    (project / "README.md").write_text("hi\n")
    _install(agent, project=project, exe="dcg")
    assert len(_tree(project)) > 1
    _uninstall(agent, project=project)
    assert _tree(project) == {"README.md": b"hi\n"}


@pytest.mark.parametrize("agent", [pytest.param(a, id=a) for a in NEW])
def test_doctor_self_test_through_the_registered_hook(
    agent: str, dcg_exe: str, isolated_home: Path, tmp_path: Path
) -> None:
    out = io.StringIO()
    assert install([agent], exe=dcg_exe, stdout=out) == 0, out.getvalue()
    path = _hooks.settings_path(agent, home=str(isolated_home), cwd=str(tmp_path), project=False)
    findings = {f.check: f for f in check_agent(agent, path, str(tmp_path))}
    assert findings["registered"].ok and findings["matcher"].ok, findings
    assert findings["self-test"].ok, findings["self-test"]
