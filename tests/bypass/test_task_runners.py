"""Task runners' files are read before they run (issue 32, files run later): go-task's
Taskfile, nox's noxfile.py, invoke's tasks.py, tox.ini, poe's ``[tool.poe.tasks]``.

Each must-stop line (the file written on the line, or already in the project) goes through
every agent's hook in paranoid mode and is then run with the real runner in a throwaway
HOME, where it must destroy the canary; a task that does no harm in the same files passes
and, run the same way, leaves the canary alone.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hookpath import AGENTS, payload, run, verdict

BIN = Path(sys.executable).parent  # the runners come with the test extras

TASKFILE = """version: '3'
tasks:
  build:
    cmds:
      - echo building
  clean:
    deps: [tidy]
    cmds:
      - echo cleaning
  tidy:
    cmds:
      - rm -rf src
  wipe:
    cmds:
      - task: tidy
"""
NOXFILE = """import shutil
import nox

@nox.session(venv_backend="none")
def lint(session):
    session.run("echo", "linting")

@nox.session(venv_backend="none")
def wipe(session):
    session.run("rm", "-rf", "src", external=True)

@nox.session(venv_backend="none", name="purge")
def purge_tree(session):
    shutil.rmtree("src")
"""
TASKS = """import shutil
from invoke import task

@task
def build(c):
    c.run("echo building")

@task
def wipe(c):
    c.run("rm -rf src")

@task
def purge_tree(c):
    shutil.rmtree("src")

@task(pre=[wipe])
def release(c):
    c.run("echo released")
"""
TOX = """[tox]
envlist = lint
skipsdist = true

[testenv]
skip_install = true
allowlist_externals = rm, echo
commands = echo testing

[testenv:wipe]
commands = rm -rf src
"""
POE = """[project]
name = "demo"
version = "0"

[tool.poe.tasks]
build = "echo building"
wipe = "rm -rf src"
purge = { shell = "rm -rf src && echo gone" }
release = ["build", "wipe"]
"""
FILES = {"Taskfile.yml": TASKFILE, "noxfile.py": NOXFILE, "tasks.py": TASKS,
         "tox.ini": TOX, "pyproject.toml": POE}  # fmt: skip

# Lines that run a destructive task of the project's files.
ON_DISK = [
    "task tidy",
    "task clean",  # its dep
    "task wipe",  # a task: call
    "task -d . tidy",
    "nox -s wipe",
    "nox --session purge",
    "nox",  # every session
    "invoke wipe",
    "inv purge-tree",
    "invoke release",  # its pre task
    "tox -e wipe",
    "poe wipe",
    "poe purge",
    "poe release",
]
# The files written on the line, then run.
WRITTEN = [
    "printf 'version: 3\\ntasks:\\n  x:\\n    cmds:\\n      - rm -rf src\\n' > Taskfile.yml"
    " && task x",
    "mkdir w && printf '[tool.poe.tasks]\\nx = \"rm -rf $HOME/src\"\\n' > w/pyproject.toml"
    " && poe -C w x",
    "printf '[tox]\\nskipsdist=true\\n[testenv:x]\\nskip_install=true\\nallowlist_externals=rm\\n"
    "commands = rm -rf src\\n' > tox.ini; tox -e x",
    "printf 'from invoke import task\\n@task\\ndef x(c):\\n    c.run(\"rm -rf src\")\\n'"
    " > tasks.py; invoke x",
    'printf \'import nox\\n@nox.session(venv_backend="none")\\ndef x(s):\\n'
    '    s.run("rm", "-rf", "src", external=True)\\n\' > noxfile.py; nox -s x',
]
# Harmless tasks of the same files.
PASS = ["task build", "nox -s lint", "invoke build", "tox -e lint", "poe build", "task --list"]


def _project(home: Path) -> dict[str, str]:
    (home / "src").mkdir(exist_ok=True)
    (home / "src" / "canary").write_text("alive\n")
    (home / "tmp").mkdir(exist_ok=True)
    for name, text in FILES.items():
        (home / name).write_text(text)
    path = f"{BIN}:{os.environ['PATH']}"
    return {"HOME": str(home), "TMPDIR": str(home / "tmp"), "PATH": path, "LANG": "C.UTF-8"}


def _verdicts(command: str, home: Path) -> set[str]:
    env = dict(os.environ, HOME=str(home), DCG_RESPONSE_MODE="paranoid")
    return {
        verdict(*run(json.dumps(payload(agent, command, str(home))).encode(), env=env))
        for agent in AGENTS
    }


def _run(command: str, home: Path, env: dict[str, str]) -> None:
    subprocess.run(["bash", "-c", command], cwd=home, env=env, timeout=180, check=False,
                   capture_output=True)  # fmt: skip


def _runner(command: str) -> str:
    return command.split(";")[-1].split("&&")[-1].split()[0]


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("command", ON_DISK + WRITTEN)
def test_a_destructive_task_is_stopped(isolated_home: Path, command: str) -> None:
    env = _project(isolated_home)
    assert _verdicts(command, isolated_home) == {"deny"}, command
    if not (BIN / _runner(command)).exists():
        pytest.skip(f"{_runner(command)} is not installed (pip install -e '.[test]')")
    _run(command, isolated_home, env)
    assert not (isolated_home / "src" / "canary").exists(), "the runner did not destroy it"


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("command", PASS)
def test_a_harmless_task_passes(isolated_home: Path, command: str) -> None:
    env = _project(isolated_home)
    assert _verdicts(command, isolated_home) == {"none"}, command
    _run(command, isolated_home, env)
    assert (isolated_home / "src" / "canary").exists(), command
