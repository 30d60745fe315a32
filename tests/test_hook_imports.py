"""The hook's start-up cost: what `dcg hook` may import for a command that matches nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

# Modules whose import alone would cost a large share of the hook's budget.
FORBIDDEN = (
    "argparse",
    "logging",
    "subprocess",
    "dataclasses",
    "inspect",
    "tomllib",
    "typing",
    "json",
    "re",
    "enum",
    "hashlib",
    "datetime",
    "rich",
    "tomlkit",
)

PROBE = """
import io, json, sys
payload = sys.argv[1].encode()
before = set(sys.modules)
from dcg.__main__ import main
sys.stdin = io.TextIOWrapper(io.BytesIO(payload))
out = io.StringIO()
sys.stdout = out
code = main(["hook"])
sys.stdout = sys.__stdout__
loaded = sorted(set(sys.modules) - before)
print(json.dumps({"code": code, "out": out.getvalue(), "loaded": loaded}))
"""


def _run(
    command: str, tmp_path: Path, extra_env: dict[str, str] | None = None
) -> dict[str, object]:
    payload = json.dumps(
        {
            "session_id": "imports",
            "cwd": str(tmp_path),
            "hook_event_name": "PreToolUse",
            "permission_mode": "default",
            "tool_name": "Bash",
            "tool_input": {"command": command},
        }
    )
    import os

    env = dict(os.environ, **(extra_env or {}))
    # -I would drop site-packages; -S keeps the probe's own imports out of the picture.
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, payload], capture_output=True, text=True, env=env, check=True
    )
    result: dict[str, object] = json.loads(proc.stdout.splitlines()[-1])
    return result


def _top(names: object) -> set[str]:
    assert isinstance(names, list)
    return {n.split(".")[0] for n in names}


@pytest.mark.parametrize(
    "command",
    [
        pytest.param("ls -la", id="no-keyword"),
        pytest.param("npm test && make build", id="no-keyword-compound"),
        pytest.param("cat README.md | wc -l", id="no-keyword-pipe"),
    ],
)
def test_no_match_imports_nothing_heavy(command: str, tmp_path: Path) -> None:
    result = _run(command, tmp_path)
    assert result["code"] == 0 and result["out"] == ""
    heavy = _top(result["loaded"]) & set(FORBIDDEN)
    assert not heavy, f"dcg hook imported {sorted(heavy)} for {command!r}"


@pytest.mark.parametrize(
    "command",
    [
        pytest.param("git status", id="git-status"),
        pytest.param("git log --oneline -5", id="git-log"),
    ],
)
def test_safe_git_imports_no_regex_engine(command: str, tmp_path: Path) -> None:
    result = _run(command, tmp_path)
    assert result["code"] == 0 and result["out"] == ""
    heavy = _top(result["loaded"]) & set(FORBIDDEN)
    assert not heavy, f"dcg hook imported {sorted(heavy)} for {command!r}"


def test_no_match_reads_no_state(tmp_path: Path) -> None:
    config = Path.home() / ".config" / "dcg"
    _run("ls -la", tmp_path)
    _run("git status", tmp_path)
    assert not config.exists()


def test_tomllib_only_when_a_config_file_exists(tmp_path: Path) -> None:
    result = _run("git status", tmp_path)
    assert "tomllib" not in _top(result["loaded"])
    config = Path.home() / ".config" / "dcg" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[response]\nmode = "strict"\n')
    result = _run("git status", tmp_path)
    assert "tomllib" in _top(result["loaded"])
