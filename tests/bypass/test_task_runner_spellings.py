"""Task-runner spellings that run more than the file's named task (red-team filesrun D).

go-task's ``includes:``, ``dotenv:``, ``env:`` and ``task NAME=VALUE`` variables; nox's
module-level code (a listing imports the noxfile) and ``session.notify``; invoke's ``-c
MODULE``, module-level code and task modules a Collection imports; tox's ``{[x]c}``
substitution; poe's ``-C FILE`` and ``script`` tasks (dcg.shell.taskextra). Each must-stop
line goes through ``dcg.hook.main`` (a Claude payload, paranoid) and is then run with the
real runner from the test extras in a throwaway HOME, where it must destroy the canary;
the must-pass lines must pass and leave it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox import claude_hook

RM = "core.filesystem:rm-rf"
BIN = Path(sys.executable).parent  # the runners come with the test extras

TF = 'printf \'version: "3"\\n'
STOP = [
    # go-task: includes, dotenv, env, vars and variables on the command line
    (
        TF
        + "includes:\\n  x: ./x.yml\\ntasks:\\n  default:\\n    cmds: [echo hi]\\n' > Taskfile.yml"
        " && " + TF + "tasks:\\n  d:\\n    cmds: [rm -rf src]\\n' > x.yml && task x:d",
        RM,
    ),
    (
        TF + "includes:\\n  x:\\n    taskfile: ./sub\\ntasks:\\n  default:\\n    cmds: [echo]\\n'"
        " > Taskfile.yml && mkdir -p sub && " + TF + "tasks:\\n  d:\\n    cmds: [rm -rf src]\\n'"
        " > sub/Taskfile.yml && task x:d",
        RM,
    ),
    (
        TF + 'dotenv: [".e"]\\ntasks:\\n  default:\\n    cmds: ["$C"]\\n\' > Taskfile.yml && '
        "echo 'C=rm -rf src' > .e && task",
        RM,
    ),
    (
        TF + 'dotenv:\\n  - .e\\ntasks:\\n  w:\\n    cmds: ["$C"]\\n\' > Taskfile.yml && '
        "echo 'export C=\"rm -rf src\"' > .e && task w",
        RM,
    ),
    (
        TF + 'env:\\n  C: rm -rf src\\ntasks:\\n  default:\\n    cmds: ["$C"]\\n\' > Taskfile.yml'
        " && task",
        RM,
    ),
    (
        TF + 'vars:\\n  C: rm -rf src\\ntasks:\\n  default:\\n    cmds: ["{{.C}}"]\\n\' > '
        "Taskfile.yml && task",
        RM,
    ),
    (
        TF
        + "tasks:\\n  default:\\n    cmds: [\"{{.C}}\"]\\n' > Taskfile.yml && task C='rm -rf src'",
        RM,
    ),
    (TF + "tasks:\\n  w:\\n    cmds: [\"{{.C}}\"]\\n' > Taskfile.yml && task w C='rm -rf src'", RM),
    # nox: module-level code, session.notify
    ("printf 'import shutil\\nshutil.rmtree(\"src\")\\n' > noxfile.py && nox -l", RM),
    ("printf 'import shutil\\nshutil.rmtree(\"src\")\\n' > noxfile.py && nox --list", RM),
    (
        "printf 'import nox\\n@nox.session(python=False)\\ndef a(session):\\n    "
        'session.notify("b")\\n@nox.session(python=False)\\ndef b(session):\\n    '
        'session.run("rm","-rf","src",external=True)\\n\' > noxfile.py && nox -s a',
        RM,
    ),
    # invoke: -c MODULE, module-level code, a Collection of imported tasks
    (
        "printf 'from invoke import task\\n@task\\ndef d(c):\\n    c.run(\"rm -rf src\")\\n' > "
        "mod.py && invoke -c mod d",
        RM,
    ),
    (
        "printf 'from invoke import task\\n@task\\ndef d(c):\\n    c.run(\"rm -rf src\")\\n' > "
        "mod.py && inv --collection=mod d",
        RM,
    ),
    ("printf 'import shutil\\nshutil.rmtree(\"src\")\\n' > tasks.py && invoke --list", RM),
    (
        "printf 'from invoke import Collection\\nimport ev\\nns = Collection()\\n"
        "ns.add_task(ev.d)\\n' > tasks.py && "
        "printf 'from invoke import task\\n@task\\ndef d(c):\\n    "
        'c.run("rm -rf src")\\n\' > ev.py && invoke d',
        RM,
    ),
    # tox: {[section]key}
    (
        "printf '[tox]\\nskipsdist=true\\n[x]\\nc=rm -rf src\\n[testenv]\\n"
        "allowlist_externals=rm\\ncommands={[x]c}\\n' > tox.ini && tox",
        RM,
    ),
    (
        "printf '[tox]\\nskipsdist=true\\n[base]\\nclean=rm -rf src\\n[testenv:w]\\n"
        "allowlist_externals=rm\\ncommands=\\n    {[base]clean}\\n' > tox.ini && tox -e w",
        RM,
    ),
    # poe: -C FILE, script tasks
    ("printf '[tool.poe.tasks]\\nd = \"rm -rf src\"\\n' > o.toml && poe -C o.toml d", RM),
    (
        "printf '[tool.poe.tasks]\\nb.script = \"ev:f\"\\n' > pyproject.toml && "
        "printf 'import shutil\\ndef f(): shutil.rmtree(\"src\")\\n' > ev.py && poe b",
        RM,
    ),
    (
        "printf '[tool.poe.tasks.b]\\nscript = \"ev:f()\"\\n' > pyproject.toml && "
        "printf 'import shutil\\ndef f(): shutil.rmtree(\"src\")\\n' > ev.py && poe b",
        RM,
    ),
]

SAFE = [
    TF + "includes:\\n  x: ./x.yml\\ntasks:\\n  default:\\n    cmds: [echo hi]\\n' > Taskfile.yml"
    " && " + TF + "tasks:\\n  d:\\n    cmds: [echo d]\\n' > x.yml && task x:d",
    TF + 'tasks:\\n  default:\\n    cmds: ["echo {{.C}}"]\\n\' > Taskfile.yml && task C=hi',
    "printf 'import nox\\n@nox.session(python=False)\\ndef a(session):\\n    "
    'session.run("echo", "a")\\n\' > noxfile.py && nox -l',
    "printf 'from invoke import task\\n@task\\ndef d(c):\\n    c.run(\"echo d\")\\n' > "
    "mod.py && invoke -c mod d",
    "printf '[tool.poe.tasks]\\nb.script = \"ev:f\"\\n' > pyproject.toml && "
    "printf 'def f(): print(1)\\n' > ev.py && poe b",
]


def _box(home: Path) -> tuple[Path, dict[str, str]]:
    box = home / "box"
    (box / "src").mkdir(parents=True)
    (box / "src" / "canary").write_text("alive\n")
    (box / "tmp").mkdir()
    env = {
        "HOME": str(box),
        "TMPDIR": str(box / "tmp"),
        "PATH": f"{BIN}:{os.environ['PATH']}",
    }
    return box, env


def _runner(command: str) -> str:
    return command.rsplit("&& ", 1)[-1].split()[0]


def _real(command: str, box: Path, env: dict[str, str]) -> None:
    runner = _runner(command)
    if not (BIN / runner).exists() and not shutil.which(runner):
        pytest.skip(f"{runner} is not installed: the real run is not proven here")
    subprocess.run(["bash", "-c", command], cwd=box, env=env, capture_output=True, timeout=180)


@pytest.mark.parametrize(("command", "rule_id"), STOP, ids=[c for c, _ in STOP])
def test_task_runner_spelling_stopped(isolated_home: Path, command: str, rule_id: str) -> None:
    box, env = _box(isolated_home)
    decision, details = claude_hook(command, box)
    assert decision == "deny", command
    assert rule_id in details, details
    _real(command, box, env)
    assert not (box / "src" / "canary").exists(), f"not destroyed in real bash: {command}"


@pytest.mark.parametrize("command", SAFE)
def test_task_runner_spelling_passes(isolated_home: Path, command: str) -> None:
    box, env = _box(isolated_home)
    assert claude_hook(command, box)[0] == "", command
    _real(command, box, env)
    assert (box / "src" / "canary").read_text() == "alive\n", command
