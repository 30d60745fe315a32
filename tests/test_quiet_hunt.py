"""Issue 24's false-alarm hunt, hook side: `rm -rf` of one existing file is a single-file
deletion, and a glob inside a name is no guess when the literal path around it names
build output (`dist/*.map`, `**/node_modules`). What only looks like that is still
stopped, and each case is proven with real bash in a throwaway copy of the project."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from hookpath import AGENTS, VARIANTS
from sandbox import bash, hook_verdict, write_files

FILES = {
    "src/app.py": "print('app')\n",
    "src/util.py": "X = 1\n",
    "package.json": '{"name": "app", "scripts": {"build": "vite build"}}\n',
    "package-lock.json": '{"lockfileVersion": 3}\n',
    "dist/app.js": "x\n",
    "dist/app.js.map": "{}\n",
    "packages/a/dist/a.js.map": "{}\n",
    "packages/a/src/a.ts": "export {}\n",
    "packages/a/node_modules/m/index.js": "x\n",
    "node_modules/x/index.js": "x\n",
}
SOURCES = ("src/app.py", "src/util.py", "packages/a/src/a.ts")


def _make(box: Path) -> Path:
    write_files(box, FILES)
    subprocess.run(["git", "init", "-q"], cwd=box, check=True)
    subprocess.run(["git", "add", "src", "packages/a/src", "package.json"], cwd=box, check=True)
    (box / ".git" / "index.lock").write_text("")  # a crashed git left its lock behind
    (box / "out").symlink_to("src")  # a link named like output that leads to sources
    return box


@pytest.fixture
def project(isolated_home: Path) -> Path:
    """A project in the home directory: not a temporary directory, whatever tmp_path is."""
    box = isolated_home / "work" / "app"
    box.mkdir(parents=True)
    return _make(box)


SILENT = [
    "rm -rf node_modules package-lock.json && npm install",
    "rm -rf package-lock.json",
    "rm -fr ./package-lock.json node_modules",
    "rm -rf .git/index.lock",
    "rm -r -f src/util.py",
    "npm run build && rm -rf dist/*.map",
    "rm -rf dist/*.js.map",
    "rm -rf ./dist/app.*",
    "rm -rf packages/*/dist/*.map",
    "rm -rf **/node_modules",
    "rm -rf packages/a*/node_modules",
    "rm -rf node_modules/x/*.js",
]
STOPPED = [
    ("rm -rf src", "core.filesystem:rm-rf"),
    ("rm -rf src*", "core.filesystem:rm-rf"),
    ("rm -rf s*", "core.filesystem:rm-rf"),
    ("rm -rf src/*.py", "core.filesystem:rm-rf"),
    ("rm -rf dist/../src/*.py", "core.filesystem:rm-rf"),
    ("rm -rf node_modules/../src*", "core.filesystem:rm-rf"),
    ("rm -rf packages/**/src", "core.filesystem:rm-rf"),
    ("rm -rf packages/*/src*", "core.filesystem:rm-rf"),
    ("rm -rf package-lock.json src", "core.filesystem:rm-rf"),
    ("mv src app.lock; rm -rf app.lock", "core.filesystem:rm-rf"),
    (
        "rm package-lock.json; mv src package-lock.json && rm -rf package-lock.json",
        "core.filesystem:rm-rf",
    ),
    ("rm -rf out/*.py", "core.filesystem:rm-rf"),
    ("rm -rf out/", "core.filesystem:rm-rf"),
    ("rm -rf sr?", "core.filesystem:rm-rf"),
    ("rm -rf packages/*/node_modules/../../../src", "core.filesystem:rm-rf"),
]


@pytest.mark.parametrize("mode", ["paranoid", "standard"])
@pytest.mark.parametrize("command", SILENT)
def test_one_file_or_output_by_glob_is_not_stopped(project: Path, command: str, mode: str) -> None:
    level, text = hook_verdict(command, project, mode=mode)
    # A kept copy of the deleted file may be reported; no rule fires.
    assert level in ("none", "warn") and "dcg:" not in text.replace("dcg undo", ""), text
    assert "core." not in text, text


@pytest.mark.parametrize(("command", "rule"), STOPPED)
def test_what_only_looks_like_it_is_stopped(project: Path, command: str, rule: str) -> None:
    level, text = hook_verdict(command, project)
    assert level == "deny" and rule in text, text


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_variant(project: Path, variant: str) -> None:
    shape = VARIANTS[variant]
    assert hook_verdict(shape("rm -rf dist/*.map"), project)[0] == "none"
    assert hook_verdict(shape("rm -rf src/*.py"), project)[0] == "deny"


@pytest.mark.parametrize("agent", AGENTS)
def test_every_agent(project: Path, agent: str) -> None:
    assert hook_verdict("rm -rf **/node_modules", project, agent=agent)[0] == "none"
    assert hook_verdict("rm -rf src*", project, agent=agent)[0] == "deny"


def _bash(box: Path, command: str) -> None:
    bash(command.replace("npm run build && ", ""), box, timeout=30)


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("command", SILENT)
def test_sandbox_silent_lines_keep_the_sources(tmp_path: Path, command: str) -> None:
    box = _make(tmp_path / "box")
    _bash(box, command)
    kept = [rel for rel in SOURCES if (box / rel).is_file()]
    # `rm -r -f src/util.py` deletes exactly that one file.
    assert kept == [r for r in SOURCES if r not in command], command


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("command", [c for c, _ in STOPPED])
def test_sandbox_stopped_lines_destroy_a_source(tmp_path: Path, command: str) -> None:
    box = _make(tmp_path / "box")
    _bash(box, command)
    assert not all((box / rel).is_file() for rel in SOURCES), command


# A sourced library's function whose `if` tests brace groups (nvm.sh's
# nvm_install_latest_npm: `elif { [ … ] && [ … ]; } || { … }; then`) ends at its own `}`,
# not at the first group's: sourcing it runs nothing, calling it runs its body.
LIBRARY = """\
up() {
  if [ "$1" = x ]; then
    echo x
  elif \\
    { [ "$1" = a ] && [ "$2" = b ]; } \\
    || { [ "$1" = c ]; } \\
  ; then
    rm -rf src
  fi
  while { [ -n "$3" ]; }; do rm -rf src; done
  until { false; } || { true; }; do :; done
}
"""
LIBRARY_SILENT = ["source ./lib.sh", ". ./lib.sh && npm test", "source ./lib.sh; echo up"]
LIBRARY_STOPPED = ["source ./lib.sh && up a b", ". ./lib.sh; up c"]


@pytest.mark.parametrize("command", LIBRARY_SILENT)
def test_a_function_testing_brace_groups_runs_only_when_called(project: Path, command: str) -> None:
    (project / "lib.sh").write_text(LIBRARY)
    level, text = hook_verdict(command, project)
    assert level == "none", text


@pytest.mark.parametrize("command", LIBRARY_STOPPED)
def test_calling_it_is_judged(project: Path, command: str) -> None:
    (project / "lib.sh").write_text(LIBRARY)
    level, text = hook_verdict(command, project)
    assert level == "deny" and "core.filesystem:rm-rf" in text, text


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("command", LIBRARY_SILENT[::2] + LIBRARY_STOPPED[:2])
def test_sandbox_library(tmp_path: Path, command: str) -> None:
    box = _make(tmp_path / "box")
    (box / "lib.sh").write_text(LIBRARY)
    _bash(box, command.replace(" && npm test", ""))
    assert (box / "src" / "app.py").is_file() == (command in LIBRARY_SILENT), command
