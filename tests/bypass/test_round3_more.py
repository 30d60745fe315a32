"""Issue 32, round three, more: runners dcg did not read, escapes still open, compiled sources.

Python project runners: ``uv run x.py`` (and ``pdm``/``hatch``/``rye run x.py``) run the
file with Python; ``pdm run NAME``, ``hatch run [ENV:]NAME`` and ``rye run NAME`` run the
script their configuration names (dcg.shell.pyscripts, one table); ``python3 a.zip`` /
``app.pyz`` runs the archive's ``__main__.py`` (read from disk; made on the line, it is
code dcg cannot see). Every must-stop line goes through the hook for every agent; those
whose tools this machine has then run in real bash in a throwaway git project and must
destroy its uncommitted work. The everyday neighbours pass and keep it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hookpath import AGENTS, VARIANTS, payload, run, verdict

BASH = shutil.which("bash")
RM = "core.filesystem:rm-rf"
CLEAN = "core.git:clean-force"
OPAQUE = "core.shell:opaque-exec"
RMTREE = 'import shutil; shutil.rmtree("src")'
PY = f"echo '{RMTREE}' > x.py; "
ZIPMAIN = f"mkdir -p z && echo '{RMTREE}' > z/__main__.py && "

STOP = [
    # a .py file as the command of a project runner is run by Python
    (PY + "uv run x.py", RM),
    (PY + "uv run --with requests x.py", RM),
    (PY + "uv run -q --python 3.12 x.py --flag", RM),
    (PY + "uv run --no-project x.py", RM),
    (PY + "uv run --env-file .env ./x.py", RM),
    (PY + "pdm run x.py", RM),
    (PY + "hatch run x.py", RM),
    (PY + "uv run -- python x.py", RM),
    # scripts of the project's configuration, written on the line
    ("printf '[tool.pdm.scripts]\\nx = \"rm -rf src\"\\n' >> pyproject.toml; pdm run x", RM),
    (
        "printf '[tool.pdm.scripts]\\nx = {shell = \"rm -rf src\"}\\n' >> pyproject.toml;"
        " pdm run x",
        RM,
    ),
    (
        'printf \'[tool.pdm.scripts]\\nx = {cmd = ["rm", "-rf", "src"]}\\n\' >> pyproject.toml'
        "; pdm run x",
        RM,
    ),
    (
        'printf \'[tool.pdm.scripts]\\npre_x = "git clean -fdx"\\nx = "true"\\n\''
        " >> pyproject.toml; pdm run x",
        CLEAN,
    ),
    (
        'printf \'[tool.pdm.scripts]\\na = "rm -rf src"\\nx = {composite = ["a"]}\\n\''
        " >> pyproject.toml; pdm run x",
        RM,
    ),
    (
        "printf 'import shutil\\ndef m(): shutil.rmtree(\"src\")\\n' > t.py; printf '"
        '[tool.pdm.scripts]\\nx = {call = "t:m"}\\n\' >> pyproject.toml; pdm run x',
        RM,
    ),
    (
        "printf '[tool.hatch.envs.default.scripts]\\nx = \"rm -rf src\"\\n' >> pyproject.toml;"
        " hatch run x",
        RM,
    ),
    (
        'printf \'[tool.hatch.envs.lint.scripts]\\nx = ["echo", "rm -rf src"]\\n\''
        " >> pyproject.toml; hatch run lint:x",
        RM,
    ),
    ("printf '[envs.default.scripts]\\nx = \"rm -rf src\"\\n' > hatch.toml; hatch run x", RM),
    ("printf '[tool.rye.scripts]\\nx = \"rm -rf src\"\\n' >> pyproject.toml; rye run x", RM),
    (
        'printf \'[tool.rye.scripts]\\nx = { cmd = ["rm", "-rf", "src"] }\\n\''
        " >> pyproject.toml; rye run x",
        RM,
    ),
    (
        'printf \'[tool.rye.scripts]\\na = "rm -rf src"\\nx = { chain = ["a"] }\\n\''
        " >> pyproject.toml; rye run x",
        RM,
    ),
    # a zip app: its __main__.py
    (ZIPMAIN + "(cd z && zip -q ../a.zip __main__.py) && python3 a.zip", OPAQUE),
    (ZIPMAIN + "python3 -m zipapp z -o a.pyz && python3 a.pyz", OPAQUE),
    (ZIPMAIN + "python3 -m zipapp z -o app && python3 app", OPAQUE),
    (ZIPMAIN + "python3 -m zipapp z -o a.pyz && uv run python a.pyz", OPAQUE),
    (ZIPMAIN + "python3 z", RM),
]
PASS = [
    "uv run pytest -q",
    "uv run python -c 'print(1)'",
    "echo 'print(1)' > x.py; uv run x.py",
    "hatch run test",
    "pdm run lint",
    "rye run fmt",
    "printf '[tool.pdm.scripts]\\nx = \"echo hi\"\\n' >> pyproject.toml; pdm run x",
    "printf '[tool.rye.scripts]\\nx = \"rm -rf build\"\\n' >> pyproject.toml; rye run x",
    "printf '[tool.hatch.envs.default.scripts]\\nx = \"rm -rf dist\"\\n' >> pyproject.toml",
    "mkdir -p z && echo 'print(1)' > z/__main__.py && python3 -m zipapp z -o a.pyz && ls",
    "mkdir -p z && echo 'print(1)' > z/__main__.py && python3 z",
]
# The project's own configuration, on disk before the line.
PYPROJECT = """\
[project]
name = "x"
version = "0"

[tool.pdm.scripts]
wipe = "rm -rf src"
test = "pytest -q"
purge = {shell = "git clean -fdx"}

[tool.hatch.envs.default.scripts]
wipe = ["echo wiping", "rm -rf src"]
test = "pytest"

[tool.hatch.envs.docs.scripts]
wipe = "rm -rf src"

[tool.rye.scripts]
wipe = { chain = ["fmt", "nuke"] }
fmt = "echo fmt"
nuke = { cmd = ["rm", "-rf", "src"] }
test = "pytest"
"""
DISK_STOP = [
    ("pdm run wipe", RM),
    ("pdm run purge", CLEAN),
    ("pdm run -p . wipe", RM),
    ("hatch run wipe", RM),
    ("hatch run docs:wipe", RM),
    ("rye run wipe", RM),
    ("rye run nuke", RM),
    ("python3 app.pyz", RM),
    ("python3 app --help", RM),
    ("python3 ./app.pyz", RM),
]
DISK_PASS = ["pdm run test", "hatch run test", "rye run test", "rye run fmt", "python3 ok.pyz"]
# Tools whose absence skips the bash proof (the hook's verdict is still tested).
TOOLS = ("uv", "pdm", "hatch", "rye", "zip", "gcc", "javac", "java", "go", "docker", "psql",
         "mysql", "less", "crontab", "find", "git", "sh", "python3", "make")  # fmt: skip


def _box(base: Path) -> tuple[Path, dict[str, str]]:
    """A git project inside the test's HOME whose src holds uncommitted work."""
    box = base / "box"
    (box / "src").mkdir(parents=True)
    (box / "src" / "canary").write_text("alive\n")
    (box / "pyproject.toml").write_text('[project]\nname = "x"\nversion = "0"\n')
    (box / "tmp").mkdir()
    env = {"HOME": str(box), "TMPDIR": str(box / "tmp"), "PATH": os.environ["PATH"],
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t", "PAGER": "cat"}  # fmt: skip
    if BASH is not None:
        for git in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base"]):
            subprocess.run(["git", *git], cwd=box, env=env, check=True)
        (box / "src" / "canary").write_text("work\n")
    return box, env


def _lost(box: Path) -> bool:
    canary = box / "src" / "canary"
    return not canary.exists() or canary.read_text() != "work\n"


def _verdicts(command: str, box: Path) -> dict[str, tuple[str, str]]:
    env = dict(os.environ, DCG_RESPONSE_MODE="paranoid", DCG_HOOK_DETAILS="1")
    out: dict[str, tuple[str, str]] = {}
    for agent in AGENTS:
        code, stdout, stderr = run(json.dumps(payload(agent, command, str(box))).encode(), env=env)
        out[agent] = (verdict(code, stdout, stderr), stdout + stderr)
    return out


def _variants(command: str, box: Path, rule: str) -> None:
    env = dict(os.environ, DCG_RESPONSE_MODE="paranoid", DCG_HOOK_DETAILS="1")
    for name, variant in VARIANTS.items():
        body = json.dumps(payload("claude", variant(command), str(box))).encode()
        code, stdout, stderr = run(body, env=env)
        assert verdict(code, stdout, stderr) == "deny", (name, command, stdout + stderr)
        assert rule in stdout + stderr, (name, command, stdout + stderr)


def _runnable(command: str) -> bool:
    words = set(
        command.replace(";", " ").replace("&&", " ").replace("|", " ").replace("(", " ").split()
    )
    return all(shutil.which(t) for t in TOOLS if t in words)


def _bash(command: str, box: Path, env: dict[str, str]) -> None:
    assert BASH is not None
    subprocess.run([BASH, "-c", command], cwd=box, env=env, timeout=120, check=False,
                   capture_output=True, stdin=subprocess.DEVNULL)  # fmt: skip


def _judged(command: str, rule: str, box: Path, env: dict[str, str]) -> None:
    got = _verdicts(command, box)
    assert {v for v, _ in got.values()} == {"deny"}, (command, got)
    assert rule in got["claude"][1], (command, got["claude"][1])
    if BASH is None or not _runnable(command):
        return
    _bash(command, box, env)
    assert _lost(box), f"bash did not destroy the work: not a bypass: {command}"


@pytest.mark.parametrize(("command", "rule"), STOP, ids=[c for c, _ in STOP])
def test_runners_run_what_dcg_now_reads(isolated_home: Path, command: str, rule: str) -> None:
    box, env = _box(isolated_home)
    _judged(command, rule, box, env)


def test_runner_spellings_in_every_variant(isolated_home: Path) -> None:
    box, _ = _box(isolated_home)
    for command, rule in STOP[:2] + STOP[8:9] + STOP[-5:-4]:
        _variants(command, box, rule)


def _disk(box: Path) -> None:
    (box / "pyproject.toml").write_text(PYPROJECT)
    for name, code in (("bad", RMTREE), ("ok", "print(1)")):
        (box / "tmp" / name).mkdir()
        (box / "tmp" / name / "__main__.py").write_text(code + "\n")
    subprocess.run(["python3", "-m", "zipapp", "tmp/bad", "-o", "app.pyz"], cwd=box, check=True)
    subprocess.run(["python3", "-m", "zipapp", "tmp/ok", "-o", "ok.pyz"], cwd=box, check=True)
    shutil.copy(box / "app.pyz", box / "app")


@pytest.mark.parametrize(("command", "rule"), DISK_STOP, ids=[c for c, _ in DISK_STOP])
def test_configured_scripts_on_disk_are_judged(
    isolated_home: Path, command: str, rule: str
) -> None:
    box, env = _box(isolated_home)
    _disk(box)
    _judged(command, rule, box, env)


@pytest.mark.parametrize("command", DISK_PASS)
def test_configured_everyday_scripts_pass(isolated_home: Path, command: str) -> None:
    box, _ = _box(isolated_home)
    _disk(box)
    got = _verdicts(command, box)
    assert {v for v, _ in got.values()} <= {"none", "warn"}, (command, got)


@pytest.mark.parametrize("command", PASS)
def test_everyday_neighbours_pass(isolated_home: Path, command: str) -> None:
    box, env = _box(isolated_home)
    got = _verdicts(command, box)
    assert {v for v, _ in got.values()} <= {"none", "warn"}, (command, got)
    if BASH is None or not _runnable(command):
        return
    _bash(command, box, env)
    assert not _lost(box), command
