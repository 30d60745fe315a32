"""The ``dcg-scan`` pre-commit hook, run by the real pre-commit (``pre-commit try-repo``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]


def _pre_commit() -> list[str]:
    pytest.importorskip("pre_commit")
    return [sys.executable, "-m", "pre_commit"]


def _git(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)


def test_try_repo_blocks_rm_rf_home(tmp_path: Path) -> None:
    cmd = _pre_commit()
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "fixture"
    repo.mkdir()
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "t@example.com")
    _git(repo, "config", "user.name", "t")
    script = repo / "deploy.sh"
    script.write_text("#!/bin/sh\nset -e\nmake\n")
    _git(repo, "add", "deploy.sh")
    _git(repo, "commit", "-qm", "clean script")
    env = dict(os.environ, PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"))
    env.pop("PRE_COMMIT", None)
    try_repo = [*cmd, "try-repo", str(PROJECT), "dcg-scan", "--color", "never"]

    script.write_text(script.read_text() + 'rm -rf "$HOME"\n')
    _git(repo, "add", "deploy.sh")
    proc = subprocess.run(try_repo, cwd=repo, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "deploy.sh:4:1: CRITICAL core.filesystem:rm-rf-critical" in proc.stdout

    script.write_text("#!/bin/sh\nset -e\nmake\nrm -rf /tmp/build\n")
    _git(repo, "add", "deploy.sh")
    proc = subprocess.run(try_repo, cwd=repo, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Passed" in proc.stdout
