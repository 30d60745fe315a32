"""The false-positive budget: everyday agent commands neither warn nor stop (issue 13).

tests/data/everyday.tsv holds commands coding agents run every day across ecosystems,
kept apart from the rules' own examples. Through the hook, with no config file: zero
warnings and zero stops; in paranoid mode at most 0.5 % may be stopped.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from dcg import hook

DATA = Path(__file__).resolve().parent / "data" / "everyday.tsv"


def _corpus() -> list[tuple[str, str]]:
    rows = []
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            category, _, command = line.partition("\t")
            rows.append((category, command))
    return rows


CORPUS = _corpus()


def _answer(command: str, project: Path, **env: str) -> str:
    payload = {
        "session_id": "everyday",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": str(project),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
    }
    out = io.StringIO()
    environ = dict(os.environ, **env)
    assert hook.main([], io.BytesIO(json.dumps(payload).encode()), out, io.StringIO(), environ) == 0
    return out.getvalue()


@pytest.fixture
def project(isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = isolated_home / "work" / "app"
    path.mkdir(parents=True)
    # As on macOS and in agents' sandboxes. Unset, `$TMPDIR` expands to nothing and
    # `rm -rf "$TMPDIR/cache"` deletes /cache (decisions 10.7; tests/shell/test_expand.py).
    tmp = isolated_home.parent / "tmpdir"
    tmp.mkdir(exist_ok=True)
    monkeypatch.setenv("TMPDIR", str(tmp))
    return path


def test_corpus_is_large_and_spans_ecosystems() -> None:
    assert len(CORPUS) >= 500
    assert len({command for _, command in CORPUS}) == len(CORPUS), "duplicate commands"
    categories = {c for c, _ in CORPUS}
    assert {"js", "python", "rust", "go", "java", "git", "containers", "k8s"} <= categories


def test_default_config_gives_no_warning_and_no_stop(project: Path) -> None:
    flagged = [cmd for _, cmd in CORPUS if _answer(cmd, project)]
    assert flagged == []


def test_paranoid_mode_stays_within_half_a_percent(project: Path) -> None:
    flagged = [cmd for _, cmd in CORPUS if _answer(cmd, project, DCG_RESPONSE_MODE="paranoid")]
    assert len(flagged) <= len(CORPUS) * 0.005, flagged
