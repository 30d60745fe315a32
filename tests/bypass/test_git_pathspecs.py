"""Issue 32: git's own pathspec and refspec rules (dcg.shell.gitpaths) and git apply -R.

``git checkout src`` with no ``--`` overwrites uncommitted work in ``src`` exactly as
``git checkout -- src`` does; so do a revision then paths, pathspec magic and globs.
Every case goes through ``dcg.hook.main`` with a Claude payload whose cwd is a throwaway
repository (a branch ``feat``, a tag ``v1``, uncommitted edits in ``src/canary`` and
``build.sh``, a bare remote ``origin``), then runs in real bash there: must-stop cases
lose the uncommitted edit (or the remote branch), must-pass cases keep it.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import sandbox
from sandbox import GIT_IDENTITY, bash, claude_hook

DISCARD = "core.git:checkout-discard"

STOP = [
    ("git checkout src", DISCARD),
    ("git checkout HEAD src", DISCARD),
    ("git checkout ':(top)'", DISCARD),
    ("git checkout ':/'", DISCARD),
    ("git checkout '*canary'", DISCARD),
    ("git checkout 'src/*'", DISCARD),
    ("git checkout ./src", DISCARD),
    ("git checkout src/", DISCARD),
    ("git checkout -q src", DISCARD),
    ("git checkout feat src/canary", DISCARD),
    ("git checkout HEAD~0 src build.sh", DISCARD),
    ("git -C src checkout canary", DISCARD),
    ("cd src && git checkout canary", DISCARD),
    ("git checkout v1 src", DISCARD),
    ("git co src", None),  # an alias of checkout, set in the sandbox's config below
    # the work tree's own diff, reversed
    ("git diff | git apply -R", "core.git:apply-reverse"),
    ("git diff HEAD | git apply --reverse", "core.git:apply-reverse"),
    ("git diff > p.diff && git apply -R p.diff", "core.git:apply-reverse"),
    ("git diff > p.diff; git apply --reverse p.diff", "core.git:apply-reverse"),
    ("git --no-pager diff | git apply -R", "core.git:apply-reverse"),
    ("git diff -- src | git apply -R -", "core.git:apply-reverse"),
    ("git diff src | git apply -R", "core.git:apply-reverse"),
    ("git diff --binary | git apply -R", "core.git:apply-reverse"),
    ("git diff | git apply -R --whitespace=nowarn", "core.git:apply-reverse"),
    ("command git diff | git apply -vR", "core.git:apply-reverse"),
    ("git push origin :feat", "core.git:push-delete"),
    ("git push origin :refs/heads/feat", "core.git:push-delete"),
    ("git push origin +main:refs/heads/feat", "core.git:push-force"),
    ("git push origin +main:feat", "core.git:push-force"),
]
SAFE = [
    "git checkout feat",
    "git checkout v1",
    "git checkout -b src",
    "git checkout -b new feat",
    "git checkout -",
    "git checkout -q feat",
    "git checkout --detach HEAD",
    "git push origin main",
    "git diff | git apply -R --check",
    "git diff main feat | git apply -R",
    "git diff --cached | git apply -R",
]


def _repo(base: Path) -> tuple[Path, dict[str, str]]:
    # Inside the test's HOME: dcg exempts temp dirs, HOME it does not.
    box, env = sandbox.box(base, {"build.sh": "echo build\n"}, GIT_CONFIG_NOSYSTEM="1",
                           **GIT_IDENTITY)  # fmt: skip
    remote = base / "remote.git"
    for step in (
        ["git", "init", "-q", "-b", "main"],
        ["git", "config", "alias.co", "checkout"],
        ["git", "add", "-A"],
        ["git", "commit", "-qm", "i"],
        ["git", "checkout", "-q", "-b", "feat"],
        ["git", "commit", "-q", "--allow-empty", "-m", "feat"],
        ["git", "checkout", "-q", "main"],
        ["git", "tag", "v1"],
        ["git", "init", "-q", "--bare", str(remote)],
        ["git", "remote", "add", "origin", str(remote)],
        ["git", "push", "-q", "origin", "main", "feat"],
    ):
        subprocess.run(step, cwd=box, env=env, check=True, capture_output=True)
    (box / "src" / "canary").write_text("uncommitted work\n")
    (box / "build.sh").write_text("echo build\necho uncommitted\n")
    return box, env


def _feat(box: Path, env: dict[str, str]) -> str:
    heads = subprocess.run(
        ["git", "ls-remote", "--heads", "origin"], cwd=box, env=env, capture_output=True, text=True
    ).stdout
    return next((line.split()[0] for line in heads.splitlines() if line.endswith("/feat")), "")


def _damage(box: Path, env: dict[str, str], feat: str) -> bool:
    lost = (box / "src" / "canary").read_text() != "uncommitted work\n"
    return lost or _feat(box, env) != feat


pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


@pytest.mark.parametrize(("command", "rule_id"), STOP, ids=[c for c, _ in STOP])
def test_git_paths_and_refspecs_stopped(
    isolated_home: Path, command: str, rule_id: str | None
) -> None:
    box, env = _repo(isolated_home)
    decision, details = claude_hook(command, box)
    assert decision == "deny", command
    assert rule_id is None or rule_id in details, details
    feat = _feat(box, env)
    bash(command, box, env)
    assert _damage(box, env, feat), f"no damage in real bash: {command}"


@pytest.mark.parametrize("command", [c for c, _ in STOP][::4])
@pytest.mark.parametrize("variant", ["later-line", "after-tab", "bash-c"])
def test_git_paths_stopped_however_placed(isolated_home: Path, command: str, variant: str) -> None:
    box, _ = _repo(isolated_home)
    assert claude_hook(command, box, variant)[0] == "deny", command


@pytest.mark.parametrize("command", SAFE)
def test_git_branch_switches_pass(isolated_home: Path, command: str) -> None:
    box, env = _repo(isolated_home)
    assert claude_hook(command, box)[0] == "", command
    feat = _feat(box, env)
    bash(command, box, env)
    assert not _damage(box, env, feat), command
