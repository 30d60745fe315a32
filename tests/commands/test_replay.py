"""``dcg replay``: Claude Code and Codex transcripts in their real formats, judged like the hook."""

from __future__ import annotations

import io
import json
import os
import tracemalloc
from pathlib import Path

import pytest

from dcg import cli, hook


def claude_line(
    command: str,
    *,
    tool: str = "Bash",
    ts: str = "2026-11-30T10:00:00.000Z",
    session: str = "3f1c0a52-1b7e-4a53-9d0e-2f4b7f7c9a10",
    cwd: str = "/home/u/proj",
) -> str:
    """An assistant event as Claude Code writes it to ~/.claude/projects/<dir>/<session>.jsonl."""
    return json.dumps(
        {
            "parentUuid": "9ff29d57-8b28-4da9-8e7f-b0e4e7e2ba46",
            "isSidechain": False,
            "userType": "external",
            "cwd": cwd,
            "sessionId": session,
            "version": "2.0.14",
            "gitBranch": "main",
            "type": "assistant",
            "message": {
                "id": "msg_01",
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [
                    {"type": "text", "text": "Running it."},
                    {
                        "type": "tool_use",
                        "id": "toolu_01",
                        "name": tool,
                        "input": {"command": command, "description": "run"},
                    },
                ],
                "stop_reason": "tool_use",
            },
            "requestId": "req_01",
            "uuid": "42f8e822-c264-4c7e-b42c-5ba1c4810245",
            "timestamp": ts,
        }
    )


def claude_result(text: str) -> str:
    return json.dumps(
        {
            "type": "user",
            "sessionId": "3f1c0a52-1b7e-4a53-9d0e-2f4b7f7c9a10",
            "timestamp": "2026-11-30T10:00:01.000Z",
            "message": {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "toolu_01", "content": text}],
            },
        }
    )


def codex_line(kind: str, payload: dict[str, object], ts: str = "2026-12-02T08:00:00.000Z") -> str:
    """A rollout line as Codex CLI writes it to ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl."""
    return json.dumps({"timestamp": ts, "type": kind, "payload": payload})


def codex_shell(argv: list[str], workdir: str = "/home/u/api") -> str:
    arguments = json.dumps({"command": argv, "workdir": workdir, "timeout_ms": 120000})
    return codex_line(
        "response_item",
        {"type": "function_call", "name": "shell", "arguments": arguments, "call_id": "call_1"},
    )


CLAUDE = [
    json.dumps({"type": "summary", "summary": "Fix the build", "leafUuid": "x"}),
    claude_line("ls -la"),
    claude_line("git reset --hard"),
    '{"type": "assistant", "message": {"content": [{"type": "tool_use"',  # truncated
    claude_result("rm -rf / was not run"),
    claude_line('rm -rf "$HOME"', ts="2026-12-01T09:00:00.000Z"),
    claude_line("echo 'git reset --hard'"),
    claude_line("git commit -m 'undo the rm -rf /'"),
    claude_line("Remove-Item -Recurse -Force C:\\Users\\me\\src", tool="PowerShell"),
    json.dumps(
        {
            "type": "assistant",
            "message": {
                "content": [
                    {"type": "tool_use", "name": "Read", "input": {"file_path": "/etc/passwd"}}
                ]
            },
        }
    ),
    "",
]
CODEX = [
    codex_line(
        "session_meta",
        {
            "id": "0199a1b2-c3d4",
            "timestamp": "2026-12-02T08:00:00Z",
            "cwd": "/home/u/api",
            "originator": "codex_cli_rs",
            "cli_version": "0.65.0",
        },
    ),
    codex_line("turn_context", {"cwd": "/home/u/api", "approval_policy": "on-request"}),
    codex_shell(["bash", "-lc", "git push --force origin main"]),
    codex_shell(["ls", "-la"]),
    codex_line(
        "response_item",
        {
            "type": "function_call",
            "name": "exec_command",
            "arguments": json.dumps({"cmd": "git clean -fdx"}),
            "call_id": "call_2",
        },
    ),
    codex_line(
        "response_item",
        {
            "type": "local_shell_call",
            "call_id": "call_3",
            "status": "completed",
            "action": {"type": "exec", "command": ["rm", "-rf", "/"], "working_directory": "/"},
        },
    ),
    "not json at all",
    codex_line(
        "response_item",
        {"type": "function_call_output", "call_id": "call_1", "output": "git reset --hard"},
    ),
    codex_shell(["bash", "-lc", "grep -rn 'rm -rf' ."]),
]
# An older rollout: a first line with the session id, then items without the wrapper.
CODEX_LEGACY = [
    json.dumps({"id": "legacy-1", "timestamp": "2025-04-01T12:00:00Z", "instructions": ""}),
    json.dumps(
        {
            "type": "function_call",
            "name": "shell",
            "call_id": "c",
            "arguments": json.dumps({"command": ["git", "stash", "clear"]}),
        }
    ),
    json.dumps({"record_type": "state"}),
]
EXPECTED = [
    ("git reset --hard", "core.git:reset-hard", "warning", "claude"),
    ('rm -rf "$HOME"', "core.filesystem:rm-rf-critical", "hard_block", "claude"),
    (
        "Remove-Item -Recurse -Force C:\\Users\\me\\src",
        "core.filesystem:rm-rf",
        "warning",
        "claude",
    ),
    ("bash -lc 'git push --force origin main'", "core.git:push-force", "warning", "codex"),
    ("git clean -fdx", "core.git:clean-force", "warning", "codex"),
    ("rm -rf /", "core.filesystem:rm-rf-critical", "hard_block", "codex"),
    ("git stash clear", "core.git:stash-clear", "warning", "codex-legacy"),
]
SCANNED = 12  # every Bash/PowerShell/shell call, destructive or not


@pytest.fixture
def transcripts(tmp_path: Path) -> Path:
    root = tmp_path / "transcripts"
    (root / "claude").mkdir(parents=True)
    (root / "codex").mkdir()
    (root / "claude" / "3f1c0a52.jsonl").write_text("\n".join(CLAUDE) + "\n")
    (root / "codex" / "rollout-2026-12-02T08-00-00-0199a1b2.jsonl").write_text(
        "\n".join(CODEX) + "\n"
    )
    (root / "codex" / "rollout-2025-04-01-legacy.jsonl").write_text("\n".join(CODEX_LEGACY))
    return root


def replay_json(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert cli.main(["replay", *args, "--json"]) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


def _source_agent(source: str) -> str:
    if "legacy" in source:
        return "codex-legacy"
    return "codex" if "rollout-" in source else "claude"


def test_reports_exactly_the_destructive_commands(
    transcripts: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = replay_json([str(transcripts / "claude"), str(transcripts / "codex")], capsys)
    findings = data["findings"]
    assert isinstance(findings, list)
    got = [(f["command"], f["rule_id"], f["level"], _source_agent(f["source"])) for f in findings]
    assert sorted(got) == sorted(EXPECTED)
    assert data["scanned"] == SCANNED
    assert data["malformed_lines"] == 2
    first = next(f for f in findings if f["rule_id"] == "core.git:push-force")
    assert first["session_id"] == "0199a1b2-c3d4"
    assert first["cwd"] == "/home/u/api"
    assert first["timestamp"] == "2026-12-02T08:00:00.000Z"
    assert first["severity"] == "high"
    assert first["source"].endswith("rollout-2026-12-02T08-00-00-0199a1b2.jsonl:3")


# The commands of the transcripts, with whether the hook itself answers them (paranoid).
HOOK_TABLE = [
    pytest.param("ls -la", "bash", False, id="ls"),
    pytest.param("git reset --hard", "bash", True, id="reset-hard"),
    pytest.param('rm -rf "$HOME"', "bash", True, id="rm-home"),
    pytest.param("echo 'git reset --hard'", "bash", False, id="echo"),
    pytest.param("git commit -m 'undo the rm -rf /'", "bash", False, id="commit-message"),
    pytest.param("Remove-Item -Recurse -Force C:\\Users\\me\\src", "powershell", True, id="ps"),
    pytest.param("bash -lc 'git push --force origin main'", "bash", True, id="codex-argv"),
    pytest.param("bash -lc 'grep -rn '\"'\"'rm -rf'\"'\"' .'", "bash", False, id="codex-grep"),
    pytest.param("git clean -fdx", "bash", True, id="clean"),
    pytest.param("rm -rf /", "bash", True, id="rm-root"),
]


@pytest.mark.parametrize(("command", "shell", "stopped"), HOOK_TABLE)
def test_replay_agrees_with_the_hook(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, shell: str, stopped: bool
) -> None:
    tool = "PowerShell" if shell == "powershell" else "Bash"
    path = tmp_path / "one.jsonl"
    path.write_text(claude_line(command, tool=tool) + "\n")
    data = replay_json([str(path)], capsys)
    assert (data["scanned"], bool(data["findings"])) == (1, stopped)
    payload = json.dumps(
        {
            "session_id": "s1",
            "hook_event_name": "PreToolUse",
            "tool_name": tool,
            "tool_input": {"command": command},
            "cwd": str(tmp_path),
        }
    )
    out, err = io.StringIO(), io.StringIO()
    env = dict(os.environ, DCG_RESPONSE_MODE="paranoid")
    assert hook.main(["--agent", "claude"], io.BytesIO(payload.encode()), out, err, env) == 0
    if stopped:
        assert json.loads(out.getvalue())["hookSpecificOutput"]["permissionDecision"] == "deny"
    else:
        assert out.getvalue() == ""


def test_graduation_in_memory_per_session(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [claude_line("git reset --hard", ts=f"2026-12-01T10:0{i}:00Z") for i in range(4)]
    lines.append(claude_line("git reset --hard", session="other", ts="2026-12-01T10:05:00Z"))
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(lines))
    levels = [f["level"] for f in replay_json([str(path)], capsys)["findings"]]  # type: ignore[union-attr]
    # standard mode: warnings up to the session threshold (2), then soft blocks; the
    # history threshold (5) makes the fifth a hard block even in a new session.
    assert levels == ["warning", "warning", "soft_block", "soft_block", "hard_block"]


def test_never_writes_state(
    transcripts: Path, isolated_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state_dirs = [
        isolated_home / ".local" / "state",
        isolated_home / ".config",
        isolated_home / ".cache",
        Path(os.environ["DCG_SESSION_DIR"]),
    ]
    before = {p: sorted(p.rglob("*")) if p.exists() else None for p in state_dirs}
    replay_json([str(transcripts)], capsys)
    assert cli.main(["replay", str(transcripts)]) == 0
    capsys.readouterr()
    after = {p: sorted(p.rglob("*")) if p.exists() else None for p in state_dirs}
    assert after == before
    assert all(v in (None, []) for v in after.values())


def test_default_locations_agent_and_since(
    isolated_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = isolated_home / ".claude" / "projects" / "-home-u-proj"
    project.mkdir(parents=True)
    (project / "3f1c0a52.jsonl").write_text("\n".join(CLAUDE))
    day = isolated_home / ".codex" / "sessions" / "2026" / "12" / "02"
    day.mkdir(parents=True)
    (day / "rollout-2026-12-02T08-00-00-0199a1b2.jsonl").write_text("\n".join(CODEX))
    everything = replay_json([], capsys)
    assert len(everything["findings"]) == 6  # type: ignore[arg-type]
    codex = replay_json(["--agent", "codex"], capsys)
    assert {f["session_id"] for f in codex["findings"]} == {"0199a1b2-c3d4"}  # type: ignore[union-attr]
    recent = replay_json(["--since", "2026-12-01"], capsys)
    assert sorted(f["command"] for f in recent["findings"]) == sorted(  # type: ignore[union-attr]
        ['rm -rf "$HOME"', "bash -lc 'git push --force origin main'", "git clean -fdx", "rm -rf /"]
    )


def test_summary_text(transcripts: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["replay", str(transcripts)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"dcg replay: {SCANNED} commands in 3 transcripts")
    assert "2 malformed skipped" in out
    assert "7 would have been answered: 5 warning, 0 soft_block, 2 hard_block" in out
    assert "  core.filesystem:rm-rf-critical        0      0      2" in out
    assert "by day:" in out and "  2026-12-02  " in out


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["--since", "last tuesday"], id="bad-date"),
        pytest.param(["missing.jsonl"], id="missing-file"),
    ],
)
def test_errors_exit_2(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli.main(["replay", *args]) == 2
    assert capsys.readouterr().err.startswith("dcg: error:")


def test_generated_transcript_streams_in_bounded_memory(tmp_path: Path) -> None:
    """A 30 MB transcript (big tool results, 1 destructive command in 100) needs a few MB."""
    from dcg import config
    from dcg.commands._transcripts import Counts, read
    from dcg.commands.replay import Graduation, replay

    path = tmp_path / "big.jsonl"
    output = "x" * 20_000
    n = 3000
    with path.open("w") as fh:
        for i in range(n):
            cmd = "git reset --hard" if i % 100 == 0 else f"ls -la src/{i}"
            fh.write(claude_line(cmd, ts="2026-12-01T10:00:00Z") + "\n")
            fh.write(claude_result(output) + "\n")
    assert path.stat().st_size > 30 * 2**20 * 0.9
    cfg = config.load(str(tmp_path))
    counts = Counts()
    tracemalloc.start()
    found = sum(
        1
        for _, f in replay(
            read(str(path), "claude", counts), cfg.packs, Graduation(cfg.response), None
        )
        if f is not None
    )
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert (found, counts.lines, counts.malformed) == (n // 100, 2 * n, 0)
    assert peak < 4 * 2**20, f"peak {peak / 2**20:.1f} MiB"
