"""Issue 32: deletions an exemption or a missing rule let through.

A workspace link in build output (``node_modules/app -> ../src``, as pnpm and npm
workspaces make) is followed by ``rm -rf node_modules/*/``, ``node_modules/*/*`` and
``find -L``; ``rsync --delete`` empties its destination; ``tar --remove-files`` into
``/dev/null`` deletes its members. Each must-stop line goes through the hook (and its
hookpath variants) and is run by real bash in the test's HOME, where it must delete the
canary; the everyday forms keep it and pass.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from sandbox import claude_hook

STOP = [
    ("rm -rf node_modules/*/", "core.filesystem:rm-rf"),
    ('rm -rf -- "node_modules/"*/', "core.filesystem:rm-rf"),
    ("rm -rf node_modules/*/*", "core.filesystem:rm-rf"),
    ("rm -rf node_modules/?pp/*", "core.filesystem:rm-rf"),
    ("rm -r node_modules/[a]*/", "core.filesystem:rm-rf"),
    ("find -L node_modules -delete", "core.filesystem:find-delete"),
    ("find -L node_modules -type f -delete", "core.filesystem:find-delete"),
    ("find node_modules -follow -type f -exec rm {} +", "core.filesystem:find-delete"),
    ("mkdir e && rsync -a --delete e/ src/", "core.filesystem:rsync-delete"),
    ("mkdir -p e; rsync -r --del e/ src", "core.filesystem:rsync-delete"),
    ("rsync -a --delete-excluded --exclude='*' ./ src/", "core.filesystem:rsync-delete"),
    ("tar --remove-files -cf /dev/null src", "core.filesystem:tar-remove-files"),
    ("tar cf /dev/null --remove-files src", "core.filesystem:tar-remove-files"),
    ("tar -c --remove-files src > /dev/null", "core.filesystem:tar-remove-files"),
    ("tar --remove-fi -cf - src | cat > /dev/null", "core.filesystem:tar-remove-files"),
]
SAFE = [
    "rm -rf node_modules/*",
    "rm -rf node_modules",
    "find node_modules -delete",
    "rm -rf node_modules/x/*",
    "rsync -a src/ backup/",
    "mkdir -p dist && rsync -a --delete src/ dist/",
    'rsync -a --delete src/ "$TMPDIR/mirror/"',
    "tar --remove-files -czf src.tgz src",
    "tar -cf /dev/null src",
]


@pytest.fixture(autouse=True)
def _hook_tmpdir(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hook's $TMPDIR is a temp dir it exempts (the sandbox's own TMPDIR is not)."""
    monkeypatch.setenv("TMPDIR", "/tmp")


def _repo(base: Path) -> tuple[Path, dict[str, str]]:
    box = base / "proj"
    (box / "src").mkdir(parents=True)
    (box / "src" / "canary").write_text("alive\n")
    (box / "node_modules" / "x").mkdir(parents=True)
    (box / "node_modules" / "x" / "index.js").write_text("1\n")
    os.symlink("../src", box / "node_modules" / "app")
    (box / "tmp").mkdir()
    subprocess.run(["git", "init", "-q"], cwd=box, check=True)
    (box / ".gitignore").write_text("node_modules/\nmirror/\n*.tgz\n")
    env = {"HOME": str(base), "TMPDIR": str(box / "tmp"), "PATH": os.environ["PATH"]}
    return box, env


def _alive(box: Path) -> bool:
    return (box / "src" / "canary").is_file()


def _tool(command: str) -> str:
    return "rsync" if "rsync" in command else command.split()[0]


@pytest.mark.parametrize(("command", "rule_id"), STOP, ids=[c for c, _ in STOP])
def test_deleting_through_links_or_tools_is_stopped(
    isolated_home: Path, command: str, rule_id: str
) -> None:
    box, env = _repo(isolated_home)
    for variant in ("plain", "later-line", "after-tab", "after-crlf", "bash-c"):
        decision, details = claude_hook(command, box, variant, TMPDIR="/tmp")
        assert decision == "deny", (variant, command)
        assert rule_id in details, details
    if shutil.which(_tool(command)) is None:
        pytest.skip(f"{_tool(command)} is not installed: the real-bash proof needs it")
    subprocess.run(["bash", "-c", command], cwd=box, env=env, capture_output=True, timeout=60)
    assert not _alive(box), f"not destroyed in real bash: {command}"


@pytest.mark.parametrize("command", SAFE)
def test_build_output_and_kept_copies_pass(isolated_home: Path, command: str) -> None:
    box, env = _repo(isolated_home)
    assert claude_hook(command, box, TMPDIR="/tmp")[0] == "", command
    subprocess.run(["bash", "-c", command], cwd=box, env=env, capture_output=True, timeout=60)
    if "tgz" in command:
        return  # the archive holds src now: a move, not a loss
    assert _alive(box), command


@pytest.mark.parametrize("name", ["build", "dist", "node_modules", "target", "__pycache__"])
def test_work_moved_into_build_output_by_an_earlier_call_is_not_output(
    isolated_home: Path, name: str
) -> None:
    """``mv src build`` (its own call: a move loses nothing), then ``rm -rf build``: the
    work tree misses tracked files and the output git does not ignore holds untracked
    ones, so the output is the moved work."""
    box, env = _repo(isolated_home)
    (box / ".gitignore").write_text("")
    git = ["git", "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "add", "-A"], cwd=box, check=True)
    subprocess.run([*git, "commit", "-qm", "init"], cwd=box, check=True, capture_output=True)
    shutil.rmtree(box / "node_modules")
    assert claude_hook(f"mv src {name}", box, TMPDIR="/tmp")[0] == ""
    subprocess.run(["bash", "-c", f"mv src {name}"], cwd=box, env=env, check=True)
    for line in (f"rm -rf {name}", f"rm -rf ./{name}/", f"cd {name} && rm -rf ../{name}"):
        decision, details = claude_hook(line, box, TMPDIR="/tmp")
        assert decision == "deny", line
        assert "core.filesystem:rm-rf" in details, details
    subprocess.run(["bash", "-c", f"rm -rf {name}"], cwd=box, env=env, check=True)
    assert not any(box.rglob("canary")), "the moved work is gone in real bash"


def test_untracked_build_output_without_missing_work_passes(isolated_home: Path) -> None:
    box, _ = _repo(isolated_home)
    (box / ".gitignore").write_text("")
    git = ["git", "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "add", "src"], cwd=box, check=True)
    subprocess.run([*git, "commit", "-qm", "init"], cwd=box, check=True, capture_output=True)
    (box / "build").mkdir()
    (box / "build" / "app.js").write_text("out\n")
    assert claude_hook("rm -rf build", box, TMPDIR="/tmp")[0] == ""
