"""Self-protection end to end: attack chains through the installed hook, file tools, real bash.

The attack chains are the ones measured in issue 10: each is played through the installed
``dcg hook`` as a subprocess with Claude Code's JSON, in the default mode, and must be stopped
at its first step. The sandbox tests prove with a real bash (HOME inside tmp_path) that the
stopped commands really do damage and the allowed reads do not.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
from pathlib import Path

import pytest

from dcg import hook

DETAILS = {"DCG_HOOK_DETAILS": "1"}


def claude(tool: str, tool_input: dict[str, object], cwd: str = "/home/dev/project") -> bytes:
    home = os.environ["HOME"]
    return json.dumps(
        {
            "session_id": "e2e",
            "transcript_path": f"{home}/.claude/projects/-home-dev-project/e2e.jsonl",
            "cwd": cwd,
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": tool,
            "tool_input": tool_input,
            "tool_use_id": "toolu_01",
        }
    ).encode()


def bash(command: str, cwd: str = "/home/dev/project") -> bytes:
    return claude("Bash", {"command": command, "description": "x"}, cwd)


def installed_hook(dcg_exe: str, payload: bytes) -> dict[str, object]:
    env = dict(os.environ, **DETAILS)
    env.pop("DCG_RESPONSE_MODE", None)  # the default mode
    proc = subprocess.run(
        [dcg_exe, "hook"], input=payload, capture_output=True, env=env, timeout=30, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert b"Traceback" not in proc.stderr
    if not proc.stdout:
        return {}
    specific: dict[str, object] = json.loads(proc.stdout)["hookSpecificOutput"]
    return specific


def in_process(payload: bytes, *argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    env = dict(os.environ, **DETAILS)
    code = hook.main(list(argv), stdin=io.BytesIO(payload), stdout=out, stderr=err, environ=env)
    return code, out.getvalue(), err.getvalue()


def chains() -> list[object]:
    # {sessions} and {home} are filled in the test, under the isolated HOME.
    return [
        pytest.param(
            ["script -qc 'dcg confirm 7f3a' /dev/null", "git reset --hard"],
            "core.dcg:self-approve",
            id="self-confirm-through-a-pty",
        ),
        pytest.param(
            ["python3 -m dcg uninstall --all", "rm -rf ~"],
            "core.dcg:self-approve",
            id="uninstall-through-python-m",
        ),
        pytest.param(
            [
                "cd ~/.config/dcg && printf '[[rule]]\\nid = \"core.git:*\"\\n' >> allowlist.toml",
                "git push --force origin main",
            ],
            "core.dcg:write-state",
            id="allowlist-forged-after-cd",
        ),
        pytest.param(
            [
                "rm -rf {sessions}/* && cd {home}/.config/dcg && rm history.jsonl",
                "git reset --hard",
            ],
            "core.dcg:write-state",
            id="counts-reset-by-deleting-state",
        ),
    ]


@pytest.mark.parametrize(("steps", "rule_id"), chains())
def test_attack_chain_is_stopped_at_its_first_step(
    dcg_exe: str, steps: list[str], rule_id: str
) -> None:
    fill = {"sessions": os.environ["DCG_SESSION_DIR"], "home": os.environ["HOME"]}
    steps = [
        s.replace("{sessions}", fill["sessions"]).replace("{home}", fill["home"]) for s in steps
    ]
    first = installed_hook(dcg_exe, bash(steps[0]))
    assert first.get("permissionDecision") == "deny", first
    assert first.get("responseLevel") == "hard_block"
    assert first.get("ruleId") == rule_id
    # The step the chain was for is still judged as before (not allowlisted, not reset).
    second = installed_hook(dcg_exe, bash(steps[1]))
    assert second, "the follow-up destructive command got no opinion"


# --- file tools --------------------------------------------------------------------------


def test_claude_edit_of_settings_and_write_to_allowlist_are_stopped() -> None:
    home = os.environ["HOME"]
    edit = claude(
        "Edit",
        {"file_path": f"{home}/.claude/settings.json", "old_string": "dcg", "new_string": ""},
    )
    write = claude(
        "Write", {"file_path": f"{home}/.config/dcg/allowlist.toml", "content": "[[rule]]\n"}
    )
    for payload, rule_id in ((edit, "core.dcg:edit-hooks"), (write, "core.dcg:write-state")):
        for mode in ("paranoid", "strict", "standard", "lenient"):
            code, out, _ = in_process(payload, "--mode", mode)
            specific = json.loads(out)["hookSpecificOutput"]
            assert (code, specific["permissionDecision"]) == (0, "deny")
            assert (specific["ruleId"], specific["responseLevel"]) == (rule_id, "hard_block")


def _file_payloads() -> list[object]:
    # Built at collection time, before HOME is isolated: the test puts the real one in.
    home = "@HOME@"
    patch = f"*** Begin Patch\n*** Update File: {home}/.codex/hooks.json\n@@\n-dcg\n*** End Patch\n"
    return [
        pytest.param(
            claude("MultiEdit", {"file_path": ".claude/settings.local.json", "edits": []}),
            None,
            id="claude-multiedit-relative",
        ),
        pytest.param(
            claude("NotebookEdit", {"notebook_path": f"{home}/.config/dcg/x.ipynb"}),
            None,
            id="claude-notebookedit-state",
        ),
        pytest.param(
            claude("Write", {"file_path": f"{home}/.local/bin/dcg", "content": "exit 0"}),
            None,
            id="claude-write-binary",
        ),
        pytest.param(
            claude("Edit", {"file_path": "../.claude//settings.json"}, f"{home}/project"),
            None,
            id="claude-edit-dotdot",
        ),
        pytest.param(
            json.dumps(
                {
                    "session_id": "c",
                    "turn_id": "t",
                    "cwd": "/w",
                    "hook_event_name": "PreToolUse",
                    "tool_name": "apply_patch",
                    "tool_input": {"command": patch},
                }
            ).encode(),
            "codex",
            id="codex-apply-patch",
        ),
        pytest.param(
            json.dumps(
                {
                    "session_id": "g",
                    "cwd": "/w",
                    "hook_event_name": "BeforeTool",
                    "tool_name": "write_file",
                    "tool_input": {"file_path": f"{home}/.gemini/settings.json", "content": "{}"},
                }
            ).encode(),
            "gemini",
            id="gemini-write-file",
        ),
        pytest.param(
            json.dumps(
                {
                    "sessionId": "p",
                    "cwd": "/w",
                    "toolName": "edit",
                    "toolArgs": json.dumps({"path": "/w/.github/hooks/dcg.json"}),
                }
            ).encode(),
            "copilot",
            id="copilot-edit",
        ),
        pytest.param(
            json.dumps(
                {
                    "agent_action_name": "pre_write_code",
                    "trajectory_id": "t",
                    "tool_info": {"file_path": f"{home}/.codeium/windsurf/hooks.json"},
                }
            ).encode(),
            "windsurf",
            id="windsurf-pre-write-code",
        ),
        *[
            pytest.param(
                json.dumps(
                    {
                        "session_id": "f",
                        "cwd": "/w",
                        "hook_event_name": "PreToolUse",
                        "tool_name": tool,
                        "tool_input": {key: value},
                    }
                ).encode(),
                agent,
                id=f"{agent}-{tool}",
            )
            for agent, tool, key, value in [
                ("factory", "Create", "file_path", f"{home}/.factory/hooks.json"),
                ("factory", "Edit", "file_path", ".factory/settings.json"),
                ("factory", "MultiEdit", "file_path", f"{home}/.config/dcg/allowlist.toml"),
                ("factory", "ApplyPatch", "patch", patch),
                ("qwen", "write_file", "file_path", f"{home}/.qwen/settings.json"),
                ("qwen", "edit", "file_path", ".qwen/settings.json"),
                ("qwen", "replace", "file_path", f"{home}/.config/dcg/history.jsonl"),
            ]
        ],
    ]


@pytest.mark.parametrize(("payload", "agent"), _file_payloads())
def test_file_tools_writing_protected_paths_are_stopped(payload: bytes, agent: str | None) -> None:
    argv = ["--agent", agent] if agent else []
    payload = payload.replace(b"@HOME@", os.environ["HOME"].encode())
    code, out, err = in_process(payload, *argv)
    stopped = code == 2 or '"deny"' in out
    assert stopped, (code, out, err)
    assert "core.dcg:" in out + err


@pytest.mark.parametrize(
    "payload",
    [
        pytest.param(
            claude("Edit", {"file_path": "/home/dev/project/src/app.py", "old_string": "git rm"}),
            id="claude-edit-project-file",
        ),
        pytest.param(
            claude("Write", {"file_path": "settings.py", "content": "rm -rf / # dcg"}),
            id="claude-write-settings-py",
        ),
        pytest.param(
            claude("NotebookEdit", {"notebook_path": "/home/dev/project/hooks.ipynb"}),
            id="claude-notebook-named-hooks",
        ),
        pytest.param(
            claude("Edit", {"file_path": "/home/dev/project/.github/workflows/ci.yml"}),
            id="claude-edit-workflow",
        ),
        pytest.param(claude("Read", {"file_path": "/root/.claude/settings.json"}), id="read-tool"),
    ],
)
def test_other_file_operations_get_no_output(payload: bytes) -> None:
    assert in_process(payload) == (0, "", "")


# --- real bash in a sandbox --------------------------------------------------------------


def _sandbox(tmp_path: Path) -> tuple[dict[str, str], Path, Path]:
    home = Path(os.environ["HOME"])
    conf = home / ".config" / "dcg"
    conf.mkdir(parents=True, exist_ok=True)
    (conf / "allowlist.toml").write_text("# user allowlist\n")
    (conf / "history.jsonl").write_text('{"rule_id":"core.git:reset-hard"}\n')
    claude_dir = home / ".claude"
    claude_dir.mkdir(exist_ok=True)
    (claude_dir / "settings.json").write_text('{"hooks": {"PreToolUse": ["dcg hook"]}}\n')
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    env = {
        "HOME": str(home),
        "PATH": "/usr/bin:/bin",
        "TMPDIR": str(tmp_path),
        "CONF": str(conf),
        "DCG_SESSION_DIR": os.environ["DCG_SESSION_DIR"],
    }
    return env, conf, work


def _snapshot(home: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in sorted(home.rglob("*")) if p.is_file()}


@pytest.mark.parametrize(
    "command",
    [
        pytest.param("cd $CONF && echo '[[rule]]' >> allowlist.toml", id="append-after-cd"),
        pytest.param("cd ~/.config/dcg && : > history.jsonl", id="truncate-history"),
        pytest.param("sed -e 's/dcg//' -i ~/.claude//settings.json", id="sed-e-i"),
        pytest.param("cd ~ && mv .claude claude.off", id="move-claude-away"),
        pytest.param(
            "python3 -c \"open('$HOME/.config/./dcg/allowlist.toml', 'a').write('x')\"",
            id="python-one-liner",
        ),
    ],
)
def test_stopped_commands_really_do_damage(tmp_path: Path, command: str) -> None:
    env, _, work = _sandbox(tmp_path)
    home = Path(env["HOME"])
    before = _snapshot(home)
    subprocess.run(["bash", "-c", command], cwd=work, env=env, check=True, timeout=30)
    assert _snapshot(home) != before, "the command changed nothing: not a real attack"
    # …and the hook stops exactly that line, with the same HOME.
    _sandbox(tmp_path)
    _, out, _ = in_process(bash(command, str(work)), "--mode", "lenient")
    specific = json.loads(out)["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert str(specific["ruleId"]).startswith("core.dcg:")


@pytest.mark.parametrize(
    "command",
    [
        pytest.param("cd $CONF && cat allowlist.toml", id="cat-after-cd"),
        pytest.param("grep dcg ~/.claude/settings.json", id="grep"),
        pytest.param("sed -n 1p ~/.claude//settings.json", id="sed-n"),
        pytest.param("cp ~/.config/dcg/history.jsonl $TMPDIR/h.jsonl", id="copy-out"),
        pytest.param("wc -l ~/.config/dcg/history.jsonl && ls -la ~/.claude", id="wc-ls"),
    ],
)
def test_allowed_reads_do_no_damage(tmp_path: Path, command: str) -> None:
    env, _, work = _sandbox(tmp_path)
    home = Path(env["HOME"])
    before = _snapshot(home)
    subprocess.run(["bash", "-c", command], cwd=work, env=env, check=True, timeout=30,
                   capture_output=True)  # fmt: skip
    assert _snapshot(home) == before
    assert in_process(bash(command, str(work)), "--mode", "paranoid") == (0, "", "")
