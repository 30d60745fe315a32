"""``dcg install --agent auggie``: Auggie's settings.json plus the `.sh` script it runs."""

from __future__ import annotations

import io
import json
import os
import subprocess
from pathlib import Path

import pytest

from dcg.commands import _hooks
from dcg.commands.doctor import check_agent
from dcg.commands.install import install
from dcg.commands.uninstall import uninstall

EXE = "/opt/dcg/bin/dcg"


def _settings(home: Path) -> Path:
    return home / ".augment" / "settings.json"


def _script(home: Path) -> Path:
    return home / ".augment" / "hooks" / "dcg-hook.sh"


def test_install_registers_an_executable_sh_script_that_runs_dcg(isolated_home: Path) -> None:
    out = io.StringIO()
    assert install(["auggie"], exe=EXE, stdout=out) == 0
    script = _script(isolated_home)
    [group] = json.loads(_settings(isolated_home).read_text())["hooks"]["PreToolUse"]
    assert group["matcher"] == _hooks.MATCHERS["auggie"]
    assert group["hooks"] == [{"type": "command", "command": str(script), "timeout": 10000}]
    assert str(script).endswith(".sh") and os.access(script, os.X_OK)
    assert _hooks.wrapper_command(script.read_text()) == f"{EXE} hook --agent auggie"
    assert "deny" in out.getvalue()  # the note: Auggie documents only deny


def test_uninstall_leaves_nothing_behind(isolated_home: Path) -> None:
    install(["auggie"], exe=EXE, stdout=io.StringIO())
    assert uninstall(["auggie"], stdout=io.StringIO()) == 0
    assert not (isolated_home / ".augment").exists()


def test_uninstall_restores_existing_settings_byte_for_byte(isolated_home: Path) -> None:
    settings = _settings(isolated_home)
    settings.parent.mkdir(parents=True)
    original = '{\n    "model": "sonnet4.5",\n    "hooks": {"Stop": []}\n}\n'
    settings.write_text(original)
    install(["auggie"], exe=EXE, stdout=io.StringIO())
    assert _script(isolated_home).exists()
    report = io.StringIO()
    uninstall(["auggie"], stdout=report)
    assert settings.read_bytes() == original.encode()
    # Only the settings and the backup of the person's original (as for every agent) stay.
    [backup] = settings.parent.glob("settings.json.dcg-backup-*")
    assert backup.read_text() == original and f"kept the backup of your original: {backup}" in (
        report.getvalue()
    )
    assert sorted(p.name for p in settings.parent.iterdir()) == ["settings.json", backup.name]


def test_a_foreign_script_at_dcgs_path_is_not_overwritten(isolated_home: Path) -> None:
    script = _script(isolated_home)
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\necho mine\n")
    out = io.StringIO()
    assert install(["auggie"], exe=EXE, stdout=out) == 1
    assert "not written by dcg" in out.getvalue()
    assert script.read_text() == "#!/bin/sh\necho mine\n"
    assert not _settings(isolated_home).exists()


def test_second_install_changes_nothing_and_a_new_dcg_path_rewrites_the_script(
    isolated_home: Path,
) -> None:
    install(["auggie"], exe=EXE, stdout=io.StringIO())
    before = (_settings(isolated_home).read_bytes(), _script(isolated_home).read_bytes())
    out = io.StringIO()
    install(["auggie"], exe=EXE, stdout=out)
    assert "already installed" in out.getvalue()
    assert (_settings(isolated_home).read_bytes(), _script(isolated_home).read_bytes()) == before
    install(["auggie"], exe="/usr/local/bin/dcg", stdout=io.StringIO())
    assert "/usr/local/bin/dcg hook --agent auggie" in _script(isolated_home).read_text()
    assert _settings(isolated_home).read_bytes() == before[0]


def test_doctor_runs_the_script_and_it_stops_a_destructive_command(
    isolated_home: Path, dcg_exe: str, tmp_path: Path
) -> None:
    install(["auggie"], exe=dcg_exe, stdout=io.StringIO())
    findings = check_agent("auggie", str(_settings(isolated_home)), str(tmp_path))
    # "on failure" warns that Auggie runs the command when a hook fails (its docs say
    # nothing of a fail-closed setting); everything else must hold.
    failed = [f for f in findings if not f.ok and f.check != "on failure"]
    assert failed == [], failed
    assert any(f.check == "self-test" and f.ok for f in findings)


@pytest.mark.parametrize(
    ("command", "denied"),
    [pytest.param("ls -la", False, id="ls"), pytest.param("git reset --hard", True, id="reset")],
)
def test_the_script_answers_as_auggie_reads_it(
    command: str, denied: bool, isolated_home: Path, dcg_exe: str, tmp_path: Path
) -> None:
    install(["auggie"], exe=dcg_exe, stdout=io.StringIO())
    payload = {
        "hook_event_name": "PreToolUse",
        "conversation_id": "conv-1",
        "workspace_roots": [str(tmp_path)],
        "tool_name": "launch-process",
        "tool_input": {"command": command, "cwd": str(tmp_path)},
    }
    run = subprocess.run(
        [str(_script(isolated_home))],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "DCG_RESPONSE_MODE": "paranoid"},
    )
    assert run.returncode == 0, run.stderr
    body = json.loads(run.stdout) if run.stdout.strip() else {}
    decision = body.get("hookSpecificOutput", {}).get("permissionDecision")
    assert (decision == "deny") is denied


@pytest.mark.parametrize(
    ("tool", "tool_input"),
    [
        pytest.param("save-file", {"path": "~/.augment/settings.json"}, id="save-settings"),
        pytest.param("str-replace-editor", {"path": ".augment/settings.json"}, id="edit-project"),
        pytest.param(
            "remove-files", {"file_paths": [".augment/hooks/dcg-hook.sh"]}, id="rm-script"
        ),
        pytest.param("save-file", {"path": "~/.factory/hooks.json"}, id="save-factory"),
    ],
)
def test_auggies_file_tools_cannot_unhook_dcg(
    tool: str, tool_input: dict[str, object], isolated_home: Path, tmp_path: Path
) -> None:
    from dcg import hook

    payload = {
        "hook_event_name": "PreToolUse",
        "conversation_id": "conv-1",
        "workspace_roots": [str(tmp_path)],
        "tool_name": tool,
        "tool_input": tool_input,
    }
    out, err = io.StringIO(), io.StringIO()
    env = dict(os.environ, DCG_HOOK_DETAILS="1", DCG_RESPONSE_MODE="lenient")
    raw = io.BytesIO(json.dumps(payload).encode())
    assert hook.main([], stdin=raw, stdout=out, stderr=err, environ=env) == 0
    specific = json.loads(out.getvalue())["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert "core.dcg" in specific["permissionDecisionReason"]
