"""What is at risk, measured (decisions.md 10.7): git names the work a stopped command destroys."""

from __future__ import annotations

import io
import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from dcg import gitinfo, hook


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(repo), *args],
        check=True,
        capture_output=True,
    )


@pytest.fixture
def repo(isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A real repository under the test's own home (not a temp directory as dcg sees it)."""
    monkeypatch.setattr(gitinfo, "TIMEOUT", 5.0)  # the machine is shared; see test_slow_git
    root = isolated_home / "work" / "app"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("print(1)\n")
    (root / "src" / "util.py").write_text("x = 1\n")
    (root / "README.md").write_text("readme\n")
    (root / "build").mkdir()
    (root / "build" / "Dockerfile").write_text("FROM scratch\n")
    (root / ".gitignore").write_text("dist/\ngenerated/\n")
    _git(root, "init", "-q")
    _git(root, "add", ".")
    _git(root, "commit", "-qm", "init")
    (root / "src" / "app.py").write_text("print(2)\n")  # modified
    (root / "README.md").write_text("edited\n")  # modified
    (root / "src" / "notes.txt").write_text("mine\n")  # untracked
    (root / "dist").mkdir()
    (root / "dist" / "app.js").write_text("built\n")  # ignored (and in the table)
    (root / "generated").mkdir()
    (root / "generated" / "schema.json").write_text("{}\n")  # ignored, not in the table
    return root


def _hook(command: str, cwd: Path, **env: str) -> dict[str, object]:
    payload = {
        "session_id": "at-risk",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": str(cwd),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
    }
    out, err = io.StringIO(), io.StringIO()
    environ = dict(os.environ, **{"DCG_HOOK_DETAILS": "1", "DCG_RESPONSE_MODE": "paranoid", **env})
    assert hook.main([], io.BytesIO(json.dumps(payload).encode()), out, err, environ) == 0
    if not out.getvalue():
        return {}
    data = json.loads(out.getvalue())
    result = dict(data["hookSpecificOutput"])
    result["human"] = str(data.get("systemMessage", "")) + err.getvalue()
    return result


@pytest.mark.parametrize(
    ("command", "rule_id", "named", "not_named"),
    [
        pytest.param(
            "git reset --hard",
            "core.git:reset-hard",
            ["2 modified files", "README.md", "src/app.py"],
            ["notes.txt"],
            id="reset-hard",
        ),
        pytest.param(
            "git clean -fd",
            "core.git:clean-force",
            ["1 untracked file", "src/notes.txt"],
            ["app.py", "dist"],
            id="clean",
        ),
        pytest.param(
            "rm -rf src",
            "core.filesystem:rm-rf",
            ["1 modified file (src/app.py)", "1 untracked file (src/notes.txt)"],
            ["README"],
            id="rm-rf-src",
        ),
        pytest.param(
            "npx rimraf src",
            "core.filesystem:rimraf",
            ["1 modified file (src/app.py)", "1 untracked file (src/notes.txt)"],
            [],
            id="rimraf-src",
        ),
        pytest.param(
            "git checkout -- README.md",
            "core.git:checkout-discard",
            ["1 modified file (README.md)"],
            ["app.py"],
            id="checkout-file",
        ),
        pytest.param(
            "rm -rf build",
            "core.filesystem:rm-rf",
            ["Nothing uncommitted would be lost"],
            [],
            id="build-with-tracked-files",
        ),
    ],
)
def test_stop_names_the_work_at_risk(
    repo: Path, command: str, rule_id: str, named: list[str], not_named: list[str]
) -> None:
    out = _hook(command, repo)
    assert (out["ruleId"], out["permissionDecision"]) == (rule_id, "deny")
    reason = str(out["permissionDecisionReason"])
    for text in named:
        assert text in reason
    for text in not_named:
        assert text not in reason
    assert "would destroy" in reason or "Nothing uncommitted" in reason


def test_warning_names_the_work_at_risk_too(repo: Path) -> None:
    out = _hook("git reset --hard", repo, DCG_RESPONSE_MODE="standard")
    assert out["responseLevel"] == "warning"
    assert "README.md" in str(out["additionalContext"])


def test_clean_tree_says_nothing_would_be_lost(repo: Path) -> None:
    _git(repo, "stash", "-u", "-q")
    out = _hook("git reset --hard", repo)
    assert out["permissionDecision"] == "deny"  # a clean tree never lowers the decision
    assert "Nothing uncommitted would be lost" in str(out["permissionDecisionReason"])


@pytest.mark.parametrize(
    "command",
    [
        pytest.param("rm -rf dist", id="ignored"),
        pytest.param("rm -rf dist/", id="ignored-slash"),
        pytest.param("rm -rf ./dist node_modules", id="ignored-and-table"),
        pytest.param("rm -rf generated", id="ignored-only"),
        pytest.param("cd src && rm -rf __pycache__", id="table-in-subdir"),
    ],
)
def test_ignored_or_regenerable_output_passes(repo: Path, command: str) -> None:
    assert _hook(command, repo) == {}


@pytest.mark.parametrize(
    "command",
    [
        pytest.param("rm -rf dist/../src", id="dotdot-escape"),
        pytest.param("rm -rf generated src", id="one-not-ignored"),
        pytest.param("rm -rf .git", id="git-dir"),
    ],
)
def test_not_everything_ignored_is_stopped(repo: Path, command: str) -> None:
    assert _hook(command, repo).get("permissionDecision") == "deny"


def test_symlink_out_of_output_is_stopped(repo: Path) -> None:
    (repo / "node_modules").symlink_to(repo / "src")
    assert _hook("rm -rf node_modules/", repo).get("permissionDecision") == "deny"


def test_ignored_nested_repository_is_stopped(repo: Path) -> None:
    (repo / ".gitignore").write_text("dist/\ngenerated/\nvendor/\n")
    (repo / "vendor" / "lib").mkdir(parents=True)
    _git(repo / "vendor" / "lib", "init", "-q")
    assert _hook("rm -rf vendor/lib", repo).get("permissionDecision") == "deny"


@pytest.fixture
def slow_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The installed `git` hangs, the way a git on a slow network disk does (dcg runs git
    from where it is installed, never the first one on PATH: gitinfo._GIT_PLACES)."""
    bin_dir = tmp_path / "slowbin"
    bin_dir.mkdir()
    fake = bin_dir / "git"
    fake.write_text("#!/bin/sh\nsleep 5\n")
    fake.chmod(0o755)
    monkeypatch.setattr(gitinfo, "_GIT_PLACES", (str(fake),))
    monkeypatch.setattr(gitinfo, "_program", [])
    monkeypatch.setattr(gitinfo, "TIMEOUT", 0.05)
    return bin_dir


def test_slow_git_is_bounded_and_never_lowers(repo: Path, slow_git: Path) -> None:
    start = time.monotonic()
    out = _hook("git reset --hard", repo)
    assert time.monotonic() - start < 2.0
    assert out["permissionDecision"] == "deny"
    assert "could not ask git" in str(out["permissionDecisionReason"])
    # No answer about ignored files keeps the ignored output guarded.
    assert _hook("rm -rf generated", repo).get("permissionDecision") == "deny"


def test_absent_git_says_it_could_not_look(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = tmp_path / "nobin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.setattr(gitinfo, "_GIT_PLACES", ())
    monkeypatch.setattr(gitinfo, "_program", [])
    out = _hook("git clean -fdx", repo)
    assert out["permissionDecision"] == "deny"
    assert "could not ask git" in str(out["permissionDecisionReason"])
