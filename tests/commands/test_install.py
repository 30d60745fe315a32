"""``dcg install`` / ``dcg uninstall`` against temporary homes with realistic settings."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from dcg.commands import _hooks
from dcg.commands.install import install, manifest_path
from dcg.commands.uninstall import uninstall
from dcg.errors import DcgError

EXE = "/opt/dcg/bin/dcg"

# Existing settings as users have them: other hooks, other keys, their own indentation.
EXISTING: dict[str, str] = {
    "claude": """{
    "model": "opus",
    "permissions": {
        "allow": ["Bash(npm test:*)"],
        "deny": ["Read(./.env)"]
    },
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Edit|Write",
                "hooks": [{"type": "command", "command": "prettier --check"}]
            }
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]
    },
    "statusLine": {"type": "command", "command": "~/.claude/status.sh"}
}
""",
    "codex": """{
  "hooks": {
    "SessionStart": [{"hooks": [{"type": "command", "command": "echo hi"}]}]
  }
}
""",
    "gemini": """{
  "theme": "GitHub",
  "general": {"vimMode": true},
  "hooks": {
    "AfterTool": [{"matcher": "write_file", "hooks": [{"type": "command", "command": "fmt"}]}]
  },
  "mcpServers": {"github": {"command": "gh-mcp"}}
}
""",
    "cursor": """{
\t"version": 1,
\t"hooks": {
\t\t"afterFileEdit": [{"command": "./format.sh"}]
\t}
}
""",
    "windsurf": """{"hooks": {"post_write_code": [{"command": "lint", "show_output": false}]}}""",
    "qwen": """{
  "model": {"name": "qwen3-coder-plus"},
  "hooks": {
    "PostToolUse": [{"matcher": "write_file", "hooks": [{"type": "command", "command": "fmt"}]}]
  }
}
""",
    "auggie": """{
  "model": "sonnet4.5",
  "mcpServers": {"linear": {"command": "linear-mcp"}},
  "hooks": {
    "PostToolUse": [
      {"matcher": "save-file", "hooks": [{"type": "command", "command": "/home/ana/fmt.sh"}]}
    ]
  }
}
""",
    "factory": """{
  "hooks": {
    "PreToolUse": [
      {"matcher": "Create|Edit", "hooks": [{"type": "command", "command": "/usr/bin/fmt-check"}]}
    ],
    "SessionStart": [{"hooks": [{"type": "command", "command": "echo hello"}]}]
  }
}
""",
    # Crush: its own keys beside flat hook objects (docs/hooks/README.md).
    "crush": """{
  "$schema": "https://charm.land/crush.json",
  "options": {"debug": false},
  "hooks": {
    "PreToolUse": [{"name": "no-haskell", "matcher": "^bash$", "command": "/home/ana/nohs.sh"}]
  }
}
""",
    # Devin's user config: model and permissions beside hooks.
    "devin": """{
  "agent": {"model": "claude-sonnet-4.5"},
  "permissions": {"allow": ["Read(**)", "Exec(git)"]},
  "hooks": {
    "PostToolUse": [{"matcher": "exec", "hooks": [{"type": "command", "command": "log.sh"}]}]
  }
}
""",
    "letta": """{
  "permissions": {"allow": ["Bash(npm test)"]},
  "hooks": {
    "Stop": [{"hooks": [{"type": "command", "command": "./hooks/run-on-stop.sh"}]}]
  }
}
""",
    "openhands": """{
  "hooks": {
    "Stop": [{"matcher": "*", "hooks": [{"type": "command", "command": "./lint.sh"}]}]
  }
}
""",
}


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _path(home: Path, agent: str) -> Path:
    return home / _hooks.SPECS[agent].user_path


def _install(*agents: str, **kw: object) -> str:
    out = io.StringIO()
    assert install(agents, exe=EXE, stdout=out, **kw) == 0  # type: ignore[arg-type]
    return out.getvalue()


def _uninstall(*agents: str) -> str:
    out = io.StringIO()
    assert uninstall(agents, stdout=out) == 0
    return out.getvalue()


@pytest.mark.parametrize("agent", [pytest.param(a, id=a) for a in EXISTING])
def test_install_merges_and_uninstall_restores_bytes(agent: str, isolated_home: Path) -> None:
    path = _path(isolated_home, agent)
    _write(path, EXISTING[agent])
    report = _install(agent)
    assert f"{agent}: changed {path}" in report
    data = json.loads(path.read_text())
    before = json.loads(EXISTING[agent])
    # Everything that was there is still there, in the same order.
    assert list(data) == list(before) + [k for k in data if k not in before]
    for key in before:
        if key != "hooks":
            assert data[key] == before[key]
    for event, groups in before["hooks"].items():
        assert data["hooks"][event][: len(groups)] == groups
    assert _hooks.registered(agent, data)
    assert list(path.parent.glob(path.name + ".dcg-backup-*"))
    _uninstall(agent)
    assert path.read_text() == EXISTING[agent]


@pytest.mark.parametrize("agent", [pytest.param(a, id=a) for a in _hooks.AGENTS])
def test_second_install_is_a_no_op(agent: str, isolated_home: Path) -> None:
    _install(agent)
    path = _path(isolated_home, agent)
    first = path.read_bytes()
    backups = sorted(path.parent.glob("*.dcg-backup-*"))
    assert "already installed" in _install(agent)
    assert path.read_bytes() == first
    assert sorted(path.parent.glob("*.dcg-backup-*")) == backups


@pytest.mark.parametrize("agent", [pytest.param(a, id=a) for a in _hooks.AGENTS])
def test_uninstall_removes_a_file_dcg_created(agent: str, isolated_home: Path) -> None:
    _install(agent)
    path = _path(isolated_home, agent)
    assert path.exists()
    _uninstall(agent)
    assert not path.exists()


def test_indentation_is_kept(isolated_home: Path) -> None:
    path = _path(isolated_home, "claude")
    _write(path, '{\n    "model": "opus"\n}\n')
    _install("claude")
    assert path.read_text().startswith('{\n    "model": "opus",\n    "hooks": {\n        ')


def test_uninstall_keeps_changes_made_after_install(isolated_home: Path) -> None:
    path = _path(isolated_home, "claude")
    _write(path, EXISTING["claude"])
    _install("claude")
    data = json.loads(path.read_text())
    data["model"] = "sonnet"
    path.write_text(json.dumps(data, indent=4) + "\n")
    _uninstall("claude")
    after = json.loads(path.read_text())
    assert after["model"] == "sonnet"
    assert not _hooks.registered("claude", after)
    assert after["hooks"]["PreToolUse"] == json.loads(EXISTING["claude"])["hooks"]["PreToolUse"]


def test_bash_only_matcher_is_fixed(isolated_home: Path) -> None:
    path = _path(isolated_home, "claude")
    old = {"type": "command", "command": f"{EXE} hook"}
    _write(path, json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [old]}]}}))
    assert f"matcher 'Bash' -> {_hooks.MATCHERS['claude']!r}" in _install("claude")
    groups = json.loads(path.read_text())["hooks"]["PreToolUse"]
    assert [g["matcher"] for g in groups] == [_hooks.MATCHERS["claude"]]


@pytest.mark.parametrize(
    ("agent", "tools"),
    [
        pytest.param(
            "claude",
            ("Bash", "PowerShell", "Write", "Edit", "MultiEdit", "NotebookEdit"),
            id="claude",
        ),
        pytest.param("codex", ("Bash", "apply_patch"), id="codex"),
        pytest.param("gemini", ("run_shell_command", "write_file", "replace"), id="gemini"),
    ],
)
def test_installed_matcher_covers_file_tools(
    isolated_home: Path, agent: str, tools: tuple[str, ...]
) -> None:

    _install(agent)
    data = json.loads(_path(isolated_home, agent).read_text())
    matchers = [m for m, _ in _hooks.registered(agent, data)]
    assert matchers, f"no dcg hook registered for {agent}"
    for tool in tools:
        assert all(re.search(str(m), tool) for m in matchers), (agent, tool, matchers)
    # The agents match the whole tool name; a substring must not be mistaken for a tool.
    assert not any(re.fullmatch(str(m), "Read") for m in matchers)


def test_windsurf_is_registered_for_file_writes_too(isolated_home: Path) -> None:
    path = _path(isolated_home, "windsurf")
    _write(path, EXISTING["windsurf"])
    _install("windsurf")
    hooks = json.loads(path.read_text())["hooks"]
    for event in ("pre_run_command", "pre_write_code"):
        assert [g["command"] for g in hooks[event]] == [f"{EXE} hook --agent windsurf"], event
    assert hooks["post_write_code"] == [{"command": "lint", "show_output": False}]
    _install("windsurf")  # idempotent: no second entry in either event
    again = json.loads(path.read_text())["hooks"]
    assert again == hooks
    _uninstall("windsurf")
    left = json.loads(path.read_text())["hooks"]
    assert "pre_run_command" not in left and "pre_write_code" not in left
    assert left["post_write_code"] == hooks["post_write_code"]


def test_shell_only_matcher_is_widened_to_file_tools(isolated_home: Path) -> None:
    path = _path(isolated_home, "claude")
    old = {"type": "command", "command": f"{EXE} hook"}
    group = {"matcher": "Bash|PowerShell", "hooks": [old]}
    _write(path, json.dumps({"hooks": {"PreToolUse": [group]}}))
    assert f"-> {_hooks.MATCHERS['claude']!r}" in _install("claude")


def test_moved_binary_is_updated_not_duplicated(isolated_home: Path) -> None:
    path = _path(isolated_home, "cursor")
    _install("cursor")
    out = io.StringIO()
    install(["cursor"], exe="/new/place/dcg", stdout=out)
    entries = json.loads(path.read_text())["hooks"]["beforeShellExecution"]
    assert [e["command"] for e in entries] == ["/new/place/dcg hook --agent cursor"]


@pytest.mark.parametrize(
    ("agent", "command"),
    [
        pytest.param("claude", f"{EXE} hook", id="claude"),
        pytest.param("codex", f"{EXE} hook --agent codex", id="codex"),
        pytest.param("gemini", f"{EXE} hook --agent gemini", id="gemini"),
        pytest.param("cursor", f"{EXE} hook --agent cursor", id="cursor"),
        pytest.param("windsurf", f"{EXE} hook --agent windsurf", id="windsurf"),
        pytest.param("factory", f"{EXE} hook --agent factory", id="factory"),
        pytest.param("qwen", f"{EXE} hook --agent qwen", id="qwen"),
    ],
)
def test_hook_entry_per_agent(agent: str, command: str, isolated_home: Path) -> None:
    _install(agent)
    data = json.loads(_path(isolated_home, agent).read_text())
    [(matcher, registered)] = _hooks.registered(agent, data)
    assert registered == command
    assert _hooks.covers(agent, matcher)


def test_copilot_file_covers_bash_and_powershell(isolated_home: Path) -> None:
    _install("copilot")
    data = json.loads(_path(isolated_home, "copilot").read_text())
    [hook] = data["hooks"]["preToolUse"]
    assert hook["bash"] == hook["powershell"] == f"{EXE} hook --agent copilot"


def test_opencode_shim_runs_dcg_and_throws_on_deny(isolated_home: Path) -> None:
    _install("opencode")
    text = _path(isolated_home, "opencode").read_text()
    assert f'const DCG = ["{EXE}", "hook", "--agent", "opencode"];' in text
    assert 'if (reply.decision === "deny") throw new Error(reply.reason);' in text


def test_codex_trust_step_is_explained(isolated_home: Path) -> None:
    assert "/hooks" in _install("codex")


def test_dry_run_writes_nothing(isolated_home: Path) -> None:
    report = _install("claude", "gemini", dry_run=True)
    assert "would change" in report
    assert not (isolated_home / ".claude").exists()
    assert not (isolated_home / ".gemini").exists()


def test_project_install_writes_project_files(isolated_home: Path, tmp_path: Path) -> None:
    project = tmp_path / "repo"
    project.mkdir()
    _install("claude", "copilot", project=True, cwd=str(project))
    assert (project / ".claude" / "settings.json").exists()
    assert (project / ".github" / "hooks" / "dcg.json").exists()
    assert not (isolated_home / ".claude").exists()


def test_detects_present_agents(isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(isolated_home / "bin"))
    (isolated_home / ".gemini").mkdir()
    (isolated_home / ".codeium" / "windsurf").mkdir(parents=True)
    report = _install()
    assert "gemini: changed" in report
    assert "windsurf: changed" in report
    assert "claude" not in report


def test_nothing_detected_is_an_error(isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(isolated_home / "bin"))
    with pytest.raises(DcgError, match="no supported agent"):
        install(exe=EXE, stdout=io.StringIO())


def test_settings_with_comments_are_not_rewritten(isolated_home: Path) -> None:
    path = _path(isolated_home, "gemini")
    text = '{\n  // my theme\n  "theme": "GitHub"\n}\n'
    _write(path, text)
    out = io.StringIO()
    assert install(["gemini"], exe=EXE, stdout=out) == 1
    assert path.read_text() == text
    report = out.getvalue()
    assert "gemini: NOT installed" in report and "comments" in report
    # The exact entry to add by hand is printed, not a pointer to another command.
    tail = report.split("by hand:\n", 1)[1].splitlines()
    snippet = "\n".join(line[4:] for line in tail if line.startswith("    "))
    assert json.loads(snippet) == {
        "hooks": {"BeforeTool": [_hooks.entry("gemini", f"{EXE} hook --agent gemini")]}
    }


def test_foreign_owned_file_is_not_overwritten(isolated_home: Path) -> None:
    path = _path(isolated_home, "opencode")
    _write(path, "export const Mine = async () => ({});\n")
    out = io.StringIO()
    assert install(["opencode"], exe=EXE, stdout=out) == 1
    assert "not written by dcg" in out.getvalue()
    _uninstall("opencode")
    assert path.exists()


def test_factory_goes_in_hooks_json_for_the_execute_and_file_tools(isolated_home: Path) -> None:
    _install("factory")
    path = isolated_home / ".factory" / "hooks.json"
    [group] = json.loads(path.read_text())["hooks"]["PreToolUse"]
    assert set(group["matcher"].split("|")) == {
        "Execute",
        "Create",
        "Edit",
        "MultiEdit",
        "ApplyPatch",
    }
    assert group["hooks"] == [
        {"type": "command", "command": f"{EXE} hook --agent factory", "timeout": 10}
    ]


def test_opencode_plugin_goes_in_plugins_and_leaves_others_alone(isolated_home: Path) -> None:
    other = isolated_home / ".config" / "opencode" / "plugins" / "mine.js"
    _write(other, "export const Mine = async () => ({});\n")
    _install("opencode")
    path = _path(isolated_home, "opencode")
    assert path == isolated_home / ".config" / "opencode" / "plugins" / "dcg.js"
    assert path.exists()
    _uninstall("opencode")
    assert not path.exists()
    assert other.read_bytes() == b"export const Mine = async () => ({});\n"


def test_opencode_shim_shows_the_message_only_as_a_toast(isolated_home: Path) -> None:
    _install("opencode")
    text = _path(isolated_home, "opencode").read_text()
    assert "client?.tui?.showToast?.({ body: { message, variant } })" in text
    assert "throw new Error(reply.message" not in text and "Error(message" not in text


def test_cursor_entry_has_no_fail_closed(isolated_home: Path) -> None:
    _install("cursor")
    [entry] = json.loads(_path(isolated_home, "cursor").read_text())["hooks"][
        "beforeShellExecution"
    ]
    assert "failClosed" not in entry


def test_cursor_fail_closed_from_an_older_install_is_removed(isolated_home: Path) -> None:
    path = _path(isolated_home, "cursor")
    old = {"command": f"{EXE} hook --agent cursor", "timeout": 30, "failClosed": True}
    _write(path, json.dumps({"version": 1, "hooks": {"beforeShellExecution": [old]}}))
    assert "removed failClosed" in _install("cursor")
    [entry] = json.loads(path.read_text())["hooks"]["beforeShellExecution"]
    assert "failClosed" not in entry


@pytest.mark.parametrize(
    ("agent", "step"),
    [
        pytest.param("claude", "workspace-trust", id="claude"),
        pytest.param("codex", "/hooks", id="codex"),
        pytest.param("gemini", "fingerprint", id="gemini"),
        pytest.param("opencode", "v2", id="opencode"),
        pytest.param("factory", "droid", id="factory"),
        pytest.param("qwen", "trusted", id="qwen"),
    ],
)
def test_install_says_what_to_do_before_the_hook_runs(
    agent: str, step: str, isolated_home: Path
) -> None:
    assert step in _install(agent)


def test_opencode_plugin_from_an_older_dcg_is_moved_to_plugins(isolated_home: Path) -> None:
    legacy = isolated_home / ".config" / "opencode" / "plugin" / "dcg.js"
    _write(legacy, _hooks.owned_text("opencode", f"{EXE} hook --agent opencode"))
    foreign = isolated_home / ".config" / "opencode" / "plugin" / "other.js"
    _write(foreign, "export const Other = async () => ({});\n")
    report = _install("opencode")
    assert "removed the plugin an older dcg wrote" in report
    assert not legacy.exists() and _path(isolated_home, "opencode").exists()
    assert foreign.exists()
    _write(legacy, _hooks.owned_text("opencode", f"{EXE} hook --agent opencode"))
    _uninstall("opencode")
    assert not legacy.exists() and not _path(isolated_home, "opencode").exists()
    assert foreign.read_text() == "export const Other = async () => ({});\n"


@pytest.mark.parametrize("broken", [pytest.param(a, id=a) for a in EXISTING])
def test_one_broken_file_does_not_stop_the_others(broken: str, isolated_home: Path) -> None:
    path = _path(isolated_home, broken)
    text = '{\n  // mine\n  "hooks": {}\n}\n'
    _write(path, text)
    out = io.StringIO()
    assert install(all_agents=True, exe=EXE, stdout=out) == 1
    report = out.getvalue()
    assert f"{broken}: NOT installed" in report
    assert f"{len(_hooks.AGENTS) - 1} of {len(_hooks.AGENTS)} agents installed" in report
    for agent in _hooks.AGENTS:
        if agent != broken:
            assert f"{agent}: changed" in report
            assert _path(isolated_home, agent).exists()
    assert path.read_text() == text


def test_dry_run_prints_each_diff(isolated_home: Path) -> None:
    path = _path(isolated_home, "claude")
    _write(path, EXISTING["claude"])
    report = _install("claude", "copilot", dry_run=True)
    assert f"--- {path}\n" in report and f"+++ {path}\n" in report
    assert f'+                "matcher": "{_hooks.MATCHERS["claude"]}",' in report
    assert f"{EXE} hook" in report
    copilot = _path(isolated_home, "copilot")
    assert "--- /dev/null\n" in report and f"+++ {copilot}" in report
    assert path.read_text() == EXISTING["claude"] and not copilot.exists()


def test_project_install_writes_a_portable_command(isolated_home: Path, tmp_path: Path) -> None:
    project = tmp_path / "repo"
    project.mkdir()
    out = io.StringIO()
    assert install(["claude"], project=True, cwd=str(project), stdout=out) == 0
    data = json.loads((project / ".claude" / "settings.json").read_text())
    assert _hooks.registered("claude", data) == [(_hooks.MATCHERS["claude"], "dcg hook")]
    assert "as found on PATH" in out.getvalue()


@pytest.mark.parametrize("agent", [pytest.param(a, id=a) for a in _hooks.AGENTS])
def test_uninstall_leaves_no_litter_after_a_fresh_install(agent: str, isolated_home: Path) -> None:
    before = sorted(p for p in isolated_home.rglob("*"))
    _install(agent)
    install([agent], exe="/moved/dcg", stdout=io.StringIO())  # a second change: a backup
    _uninstall(agent)
    assert sorted(p for p in isolated_home.rglob("*")) == before


# A moved dcg changes only the script of an agent that runs one (its settings name the
# script): no second backup of the settings to tell apart.
@pytest.mark.parametrize(
    "agent", [pytest.param(a, id=a) for a in EXISTING if a not in _hooks.WRAPPERS]
)
def test_uninstall_keeps_the_original_backup_and_says_where(
    agent: str, isolated_home: Path
) -> None:
    path = _path(isolated_home, agent)
    _write(path, EXISTING[agent])
    _install(agent)
    install([agent], exe="/moved/dcg", stdout=io.StringIO())
    assert len(list(path.parent.glob(path.name + ".dcg-backup-*"))) == 2
    report = _uninstall(agent)
    [kept] = path.parent.glob(path.name + ".dcg-backup-*")
    assert kept.read_text() == EXISTING[agent]
    assert f"kept the backup of your original: {kept}" in report
    assert path.read_text() == EXISTING[agent]
    assert not Path(manifest_path()).exists()
