"""Options that take a value never hide the inline code or the script of a shell or
interpreter: ``bash -euo pipefail -c CMD``, ``python3 -W ignore -c CODE``,
``node --conditions x -e CODE``, ``perl -I lib -e CODE`` run CODE (dcg.shell.optgrammar).

Each must-stop line goes through the hook with a real Claude Code payload in every hookpath
variant, in a git project with uncommitted work in lib/; it is then run by real bash in that
project (HOME and TMPDIR inside the test's directory), where it must destroy that work
(skipped when its interpreter is not installed). Each must-pass line stays silent and keeps
lib/ in real bash too.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hookpath import VARIANTS
from sandbox import GIT_IDENTITY, claude_hook

RM = "core.filesystem:rm-rf"
PY = "import shutil; shutil.rmtree('lib')"
JS = "require('fs').rmSync('lib', {recursive: true})"
PL = "system('rm -rf lib')"
# (line, rule, program that must be installed to prove it)
STOP = [
    ('bash -euo pipefail -c "rm -rf lib"', RM, "bash"),
    ('bash -eo pipefail <<< "rm -rf lib"', RM, "bash"),
    ('bash -oe pipefail -c "rm -rf lib"', RM, "bash"),
    ('bash -Oc extglob "rm -rf lib"', RM, "bash"),
    ('bash -ceo pipefail "rm -rf lib"', RM, "bash"),
    ('bash -oO pipefail extglob -c "rm -rf lib"', RM, "bash"),
    ('bash +o posix -ec "rm -rf lib"', RM, "bash"),
    ('echo "git reset --hard" > f; bash -euo pipefail f', "core.git:reset-hard", "bash"),
    ('echo "rm -rf lib" > f; bash -euo pipefail < f', RM, "bash"),
    ('echo "rm -rf lib" > f; bash -n +n f', RM, "bash"),
    ('sh -eo errexit -c "rm -rf lib"', RM, "sh"),
    ('dash -eo errexit -c "rm -rf lib"', RM, "dash"),
    ('zsh -euo pipefail -c "rm -rf lib"', RM, "zsh"),
    ('ksh -euo pipefail -c "rm -rf lib"', RM, "ksh"),
    ('env bash -euo pipefail -c "rm -rf lib"', RM, "bash"),
    ('echo lib | xargs -I{} bash -euo pipefail -c "rm -rf {}"', RM, "bash"),
    ('find . -maxdepth 0 -exec bash -Oc extglob "rm -rf lib" \\;', RM, "bash"),
    ('timeout 20 bash -euo pipefail -c "rm -rf lib"', RM, "bash"),
    (f'python3 -m timeit -n1 -r1 -s "{PY}" pass', RM, "python3"),
    (f'python3 -m timeit -n1 -r1 "{PY}"', RM, "python3"),
    (f'python3 -m timeit --setup="{PY}" pass', RM, "python3"),
    (f'python3 --check-hash-based-pycs never -c "{PY}"', RM, "python3"),
    (f'python3 -W ignore -c "{PY}"', RM, "python3"),
    (f'python3 -bWignore -c "{PY}"', RM, "python3"),
    (f'python3 -X dev -Bc "{PY}"', RM, "python3"),
    (f'node -pe "{JS}"', RM, "node"),
    (f'node -p "{JS}"', RM, "node"),
    (f'node --conditions x -e "{JS}"', RM, "node"),
    (f'node -C x -e "{JS}"', RM, "node"),
    (f'node --input-type commonjs -e "{JS}"', RM, "node"),
    (f'node --title t --eval "{JS}"', RM, "node"),
    (f'node --disable-warning X -e "{JS}"', RM, "node"),
    (f'perl -I lib -e "{PL}"', RM, "perl"),
    (f'perl -Mstrict -e "{PL}"', RM, "perl"),
    (f'perl -l -I lib -we "{PL}"', RM, "perl"),
    (f'perl -0777 -e "{PL}"', RM, "perl"),
    (f'ruby -I lib -e "{PL}"', RM, "ruby"),
    (f'ruby -r fileutils -e "{PL}"', RM, "ruby"),
    (f'ruby -E UTF-8 -e "{PL}"', RM, "ruby"),
    (f'php -d x=1 -r "{PL};"', RM, "php"),
]
PASS = [
    'bash -euo pipefail -c "echo hi"',
    'bash -Oc extglob "echo hi"',
    "bash -n script.sh",
    "bash -euo pipefail -n script.sh",
    'python3 -W ignore -c "print(1)"',
    'python3 -m timeit -s "x=1" "x+1"',
    'node -pe "1+1"',
    'node --conditions x -e "console.log(1)"',
    "perl -I lib -e 'print 1'",
    "perl -Mstrict -e 'print 1'",
]


@pytest.fixture(autouse=True)
def _hook_tmpdir(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hook's $TMPDIR is a temp dir it exempts (the sandbox's own TMPDIR is not)."""
    monkeypatch.setenv("TMPDIR", "/tmp")


def _project(base: Path) -> tuple[Path, dict[str, str]]:
    """A git project in the test's HOME: lib/ with uncommitted work, and a script.sh that
    deletes lib/ (which ``bash -n`` only checks)."""
    box = Path(os.environ["HOME"]) / "proj"
    for rel in ("lib/a.txt", "lib/b.txt", "src/main.py"):
        (box / rel).parent.mkdir(parents=True, exist_ok=True)
        (box / rel).write_text(f"{rel}\n")
    (box / "script.sh").write_text("rm -rf lib\n")
    (box / "tmp").mkdir()
    (box / ".gitignore").write_text("tmp/\n")
    for git in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base"]):
        subprocess.run(["git", *git], cwd=box, env={**os.environ, **GIT_IDENTITY}, check=True)
    (box / "lib" / "a.txt").write_text("uncommitted work\n")
    env = {"HOME": str(base), "TMPDIR": str(box / "tmp"), "PATH": os.environ["PATH"]}
    return box, env


def _kept(box: Path) -> bool:
    work = box / "lib" / "a.txt"
    return work.exists() and work.read_text() == "uncommitted work\n"


def _bash(command: str, box: Path, env: dict[str, str]) -> None:
    subprocess.run([shutil.which("bash") or "bash", "-c", command], cwd=box, env=env,
                   capture_output=True, timeout=60, check=False)  # fmt: skip


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("command", "rule", "program"), STOP)
def test_option_values_do_not_hide_the_code(
    tmp_path: Path, command: str, rule: str, program: str, variant: str
) -> None:
    box, _ = _project(tmp_path)
    decision, spec = claude_hook(command, box, variant)
    assert decision == "deny", spec
    assert rule in spec, spec


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("command", PASS)
def test_harmless_lines_with_option_values_pass(tmp_path: Path, command: str, variant: str) -> None:
    box, _ = _project(tmp_path)
    assert claude_hook(command, box, variant)[0] in ("", "allow")


@pytest.mark.parametrize(("command", "rule", "program"), STOP)
def test_stopped_lines_destroy_the_work_in_real_bash(
    tmp_path: Path, command: str, rule: str, program: str
) -> None:
    if shutil.which("bash") is None or shutil.which(program) is None:
        pytest.skip(f"needs bash and {program}")
    box, env = _project(tmp_path)
    _bash(command, box, env)
    assert not _kept(box), command


@pytest.mark.parametrize("command", PASS)
def test_passing_lines_keep_the_work_in_real_bash(tmp_path: Path, command: str) -> None:
    if shutil.which("bash") is None:
        pytest.skip("needs bash")
    box, env = _project(tmp_path)
    _bash(command, box, env)
    assert _kept(box), command
