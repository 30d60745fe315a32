"""Issue 32 class 5: an exemption defeated on the same line (dcg.shell.linefiles.stands_for).

``mv src node_modules; rm -rf node_modules`` deletes src, whatever the regenerable-output
exemption says of ``node_modules``; ``ln -s "$PWD/src" "$TMPDIR/p"; rm -rf "$TMPDIR/p/"``
deletes src through a link the temp-directory exemption would pass. A path ``mv`` or
``ln -s`` made earlier on the line stands for the path whose content it holds. Every
case goes through ``dcg.hook.main`` with a Claude payload whose cwd is a throwaway
project inside the test's HOME, then runs in real bash there (TMPDIR inside it): the
must-stop cases destroy the canary, the must-pass cases keep it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from sandbox import claude_hook

FIND = "core.filesystem:find-delete"
STOP = [
    ("mv src node_modules; rm -rf node_modules", "core.filesystem:rm-rf"),
    ("mv src node_modules && rm -rf ./node_modules/", "core.filesystem:rm-rf"),
    ("mv src build; rm -rf build", "core.filesystem:rm-rf"),
    ("mv -f src dist && rm -rf dist", "core.filesystem:rm-rf"),
    ("mv src .venv; rm -rf .venv", "core.filesystem:rm-rf"),
    ("mv src __pycache__ && rm -r __pycache__", "core.filesystem:rm-rf"),
    ("mv src coverage; rm -rf coverage/", "core.filesystem:rm-rf"),
    ("mkdir -p build && mv src build/ && rm -rf build", "core.filesystem:rm-rf"),
    ("mv src target && find target -delete", "core.filesystem:find-delete"),
    ('mv src "$TMPDIR/x" && rm -rf "$TMPDIR/x"', "core.filesystem:rm-rf"),
    ('ln -s "$PWD/src" "$TMPDIR/p"; rm -rf "$TMPDIR/p/"', "core.filesystem:rm-rf"),
    ('ln -sfn "$PWD/src" "$TMPDIR/q" && rm -rf "$TMPDIR"/q/*', "core.filesystem:rm-rf"),
    # find's name tests for output select the work moved under that name
    ("mv src build; find . -name build -exec rm -rf {} +", "core.filesystem:find-delete"),
    ("mv src dist; find . -path ./dist -prune -exec rm -rf {} \\;", "core.filesystem:find-delete"),
    ("mv src __pycache__ && find . -name __pycache__ -exec rm -rf {} +", FIND),
    ("mkdir -p out/x && mv src out/x/ && find . -type d -name out -exec rm -r {} +", FIND),
]
SAFE = [
    'mv node_modules "$TMPDIR/old" && rm -rf "$TMPDIR/old"',
    "rm -rf node_modules",
    "mkdir -p build && rm -rf build",
    "mv node_modules nm.old; rm -rf node_modules",
    "mv src src2",
    "mv src src2; find . -name __pycache__ -exec rm -rf {} +",
    "find . -name build -prune -exec rm -rf {} +",
]


@pytest.fixture(autouse=True)
def _hook_tmpdir(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hook's $TMPDIR is a temp dir it exempts: only the line's mv/ln can defeat that."""
    monkeypatch.setenv("TMPDIR", "/tmp")


def _repo(base: Path) -> tuple[Path, dict[str, str]]:
    box = base / "proj"  # inside the test's HOME: dcg exempts temp dirs, HOME it does not
    (box / "src").mkdir(parents=True)
    (box / "src" / "canary").write_text("alive\n")
    (box / "node_modules" / "x").mkdir(parents=True)
    (box / "tmp").mkdir()
    env = {"HOME": str(base), "TMPDIR": str(box / "tmp"), "PATH": os.environ["PATH"]}
    return box, env


def _alive(box: Path) -> bool:
    return any(p.read_text() == "alive\n" for p in box.rglob("canary") if p.is_file())


@pytest.mark.parametrize(("command", "rule_id"), STOP, ids=[c for c, _ in STOP])
def test_exemption_defeated_on_the_line_stopped(
    isolated_home: Path, command: str, rule_id: str
) -> None:
    box, env = _repo(isolated_home)
    decision, details = claude_hook(command, box, TMPDIR="/tmp")
    assert decision == "deny", command
    assert rule_id in details, details
    subprocess.run(["bash", "-c", command], cwd=box, env=env, capture_output=True, timeout=60)
    assert not _alive(box), f"not destroyed in real bash: {command}"


@pytest.mark.parametrize("command", [c for c, _ in STOP][::3])
@pytest.mark.parametrize("variant", ["later-line", "after-tab", "bash-c"])
def test_exemption_defeated_however_placed(isolated_home: Path, command: str, variant: str) -> None:
    box, _ = _repo(isolated_home)
    assert claude_hook(command, box, variant, TMPDIR="/tmp")[0] == "deny", command


@pytest.mark.parametrize("command", SAFE)
def test_exemptions_still_hold(isolated_home: Path, command: str) -> None:
    box, env = _repo(isolated_home)
    assert claude_hook(command, box, TMPDIR="/tmp")[0] == "", command
    subprocess.run(["bash", "-c", command], cwd=box, env=env, capture_output=True, timeout=60)
    assert _alive(box), command


# Tools that delete an output directory without naming it: a tree moved there on the same
# line goes with it (dcg.shell.moves._CLEANERS). (line, project files, program to prove it)
LOCK = '{"name": "x", "version": "1.0.0", "lockfileVersion": 3, "requires": true, '
LOCK += '"packages": {"": {"name": "x", "version": "1.0.0"}}}'
CLEANERS = [
    (
        "mv src node_modules; npm ci --no-audit --no-fund",
        {"package.json": '{"name": "x"}', "package-lock.json": LOCK},
        "npm",
    ),
    ("mv src .venv && python3 -m venv --clear .venv", {}, "python3"),
    ("mv src target && cargo clean", {"Cargo.toml": '[package]\nname = "x"\n'}, ""),
    ("mv src build; ./gradlew clean", {}, ""),
    ("mv src target/ && mvn -q clean install", {}, ""),
    ("mkdir -p target && mv src target/ && cargo clean --release", {}, ""),
]


@pytest.mark.parametrize(("command", "files", "program"), CLEANERS, ids=[c for c, *_ in CLEANERS])
def test_output_cleaned_with_work_moved_into_it_stopped(
    isolated_home: Path, command: str, files: dict[str, str], program: str
) -> None:
    box, env = _repo(isolated_home)
    for name, text in files.items():
        (box / name).write_text(text)
    decision, details = claude_hook(command, box, TMPDIR="/tmp")
    assert decision == "deny" and "core.filesystem:rm-rf" in details, details
    if not program or shutil.which(program) is None:
        return  # the tool is not installed here: judged by the hook only
    env = {**env, "npm_config_cache": str(box / "tmp" / "npm"), "npm_config_offline": "true"}
    subprocess.run(["bash", "-c", command], cwd=box, env=env, capture_output=True, timeout=120)
    assert not _alive(box), f"not destroyed in real bash: {command}"


@pytest.mark.parametrize(
    "command",
    ["npm ci", "cargo clean", "mv node_modules nm.old; npm ci", "mv src lib; cargo clean"],
)
def test_cleaning_output_alone_passes(isolated_home: Path, command: str) -> None:
    box, _ = _repo(isolated_home)
    assert claude_hook(command, box, TMPDIR="/tmp")[0] == "", command
