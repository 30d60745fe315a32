"""Issue 32's line: a multi-file delete by glob or by loop of source files is a tree in
effect and is stopped; one named file, leftovers (``*.o``, ``*.log``) and a glob that
matches a single file are the safety net's, and pass.

Each case goes through the hook with a real Claude Code payload in every hookpath variant
(multi-line, tab, CRLF, heredoc, ``bash -c``), in a project holding several source files.
Each must-stop line is then run by real bash in that project (HOME and TMPDIR inside the
test's directory), where it must delete source files; each must-pass line must not.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hookpath import VARIANTS
from sandbox import GIT_IDENTITY, claude_hook

RULE = "core.filesystem:rm-all-files"
STOP = [
    "rm -f src/*.py",
    "rm -- src/*.py",
    "rm -v src/*a*.py",
    "rm src/[a-z]*.py",
    "rm -f src/?.py",
    'rm -f "src/"*.py',
    "rm -f src/*py",
    "rm -f src/*.{py,txt}",
    "shopt -s extglob\nrm src/!(notes.txt)",
    "shopt -s extglob; cd src\nrm -f @(a|b|main).py",
    "rm -f ./src/../src/*.py",
    "shopt -s globstar; rm -f src/**/*.py",
    "cd src && rm -f *.py",
    "cd src; rm *.py",
    'for f in src/*; do rm "$f"; done',
    "for f in src/*.py; do rm -f $f; done",
    'for x in ./src/*.py; do rm -f -- "$x"; done',
    'd=src; for f in "$d"/*.py; do rm "$f"; done',
    'for f in src/a.py src/*.py; do rm "$f"; done',
    'cd src && for f in *.py; do rm "$f"; done',
    'files=(src/*.py); rm "${files[@]}"',
    'set -- src/*.py; rm "$@"',
    "rm $(ls src/*.py)",
    "rm -f $(git ls-files src)",
    "rm `find src -name '*.py'`",
    'for f in $(git ls-files src); do rm "$f"; done',
    'git ls-files src | while read f; do rm "$f"; done',
    "find src -name '*.py' | while read -r f; do rm \"$f\"; done",
    'ls src | while read f; do rm "src/$f"; done',
    'while read f; do rm "$f"; done < <(ls src/*.py)',
    'files=$(git ls-files src); for f in $files; do rm "$f"; done',
    'mapfile -t fs < <(git ls-files src); rm "${fs[@]}"',
    "echo src/*.py | xargs rm",
    "printf '%s\\n' src/*.py | xargs rm -f",
]
PASS = [
    "rm src/a.py",
    "rm -f src/a.py src/b.py",
    "rm -f src/a*.py",
    "rm -f build/*.py",
    "rm -f src/*.pyc",
    "rm -f src/*.log",
    "rm -f src/*.orig src/*.rej",
    "rm -f nothing/*.py",
    'for f in src/*.py; do echo "$f"; done',
    'for f in src/*.py; do wc -l "$f"; done',
    'for f in src/*.log; do rm "$f"; done',
    "ls src/*.py",
    'for f in $(git ls-files src); do wc -l "$f"; done',
    'git ls-files | while read -r f; do echo "$f"; done',
    'rm -f "build/out-$(date +%s).log"',
]


@pytest.fixture(autouse=True)
def _hook_tmpdir(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hook's $TMPDIR is a temp dir it exempts (the sandbox's own TMPDIR is not)."""
    monkeypatch.setenv("TMPDIR", "/tmp")


def _project(base: Path) -> tuple[Path, dict[str, str]]:
    """A git project in the test's HOME (a project under a temp directory is temp):
    src/ with three Python files and a text file, build output, litter."""
    box = Path(os.environ["HOME"]) / "proj"
    for rel in ("src/a.py", "src/b.py", "src/main.py", "src/notes.txt", "build/gen.py",
                "src/x.pyc", "src/run.log", "src/y.pyc", "src/more.log"):  # fmt: skip
        (box / rel).parent.mkdir(parents=True, exist_ok=True)
        (box / rel).write_text(f"{rel}\n")
    (box / "tmp").mkdir()
    (box / ".gitignore").write_text("build/\n*.pyc\n*.log\n")
    for git in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base"]):
        subprocess.run(["git", *git], cwd=box, env={**os.environ, **GIT_IDENTITY}, check=True)
    (box / "src" / "a.py").write_text("uncommitted work\n")
    env = {"HOME": str(base), "TMPDIR": str(box / "tmp"), "PATH": os.environ["PATH"]}
    return box, env


def _sources(box: Path) -> int:
    return sum(1 for name in ("a.py", "b.py", "main.py") if (box / "src" / name).exists())


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("command", STOP)
def test_multi_file_glob_deletes_are_stopped(tmp_path: Path, command: str, variant: str) -> None:
    box, _ = _project(tmp_path)
    decision, spec = claude_hook(command, box, variant)
    assert decision == "deny", spec
    assert RULE in spec


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("command", PASS)
def test_single_files_and_leftovers_pass(tmp_path: Path, command: str, variant: str) -> None:
    box, _ = _project(tmp_path)
    assert claude_hook(command, box, variant)[0] in ("", "allow")


def test_without_a_disk_to_look_at_a_glob_of_sources_is_stopped() -> None:
    """A payload whose cwd does not exist here: the glob's reach cannot be counted."""
    decision, spec = claude_hook("rm -f src/*.py", "/nonexistent/project")
    assert decision == "deny" and RULE in spec
    assert claude_hook("rm -f src/*.log", "/nonexistent/project")[0] == ""


BASH = shutil.which("bash")


@pytest.mark.skipif(BASH is None, reason="needs bash")
@pytest.mark.parametrize("command", STOP)
def test_stopped_lines_delete_several_sources_in_real_bash(tmp_path: Path, command: str) -> None:
    box, env = _project(tmp_path)
    subprocess.run([BASH or "bash", "-c", command], cwd=box, env=env, capture_output=True,
                   timeout=30, check=False)  # fmt: skip
    assert _sources(box) <= 1, command


@pytest.mark.skipif(BASH is None, reason="needs bash")
@pytest.mark.parametrize("command", PASS)
def test_passing_lines_keep_the_sources_in_real_bash(tmp_path: Path, command: str) -> None:
    box, env = _project(tmp_path)
    subprocess.run([BASH or "bash", "-c", command], cwd=box, env=env, capture_output=True,
                   timeout=30, check=False)  # fmt: skip
    assert _sources(box) >= 1, command


# A loop over a glob runs every file it matches, and find -exec runs every file it finds:
# the project's scripts/ holds a harmless script and one that deletes src.
RUN_EACH = [
    ('for f in scripts/*.sh; do bash "$f"; done', "core.filesystem:rm-rf"),
    ("for f in ./scripts/*; do sh $f; done", "core.filesystem:rm-rf"),
    ('for f in scripts/*.sh; do "$f"; done', "core.filesystem:rm-rf"),
    ('for f in scripts/*.sh; do source "$f"; done', "core.filesystem:rm-rf"),
    ("for f in scripts/*.py; do python3 $f; done", "core.filesystem:rm-rf"),
    ("find scripts -name '*.sh' -exec bash {} \\;", "core.shell:opaque-exec"),
    ("find scripts -type f -name '*.py' -exec python3 {} \\;", "core.shell:opaque-exec"),
]
RUN_EACH_PASS = [
    'for f in scripts/a*.sh; do bash "$f"; done',
    "find scripts -name '*.sh' -exec bash -n {} \\;",
    "find scripts -name '*.sh' -exec shellcheck {} +",
]


def _scripts(box: Path) -> None:
    (box / "scripts").mkdir()
    (box / "scripts" / "a.sh").write_text("echo fine\n")
    (box / "scripts" / "b.sh").write_text("rm -rf src\n")
    (box / "scripts" / "a.py").write_text("print('fine')\n")
    (box / "scripts" / "b.py").write_text("import shutil\nshutil.rmtree('src')\n")
    for script in (box / "scripts").iterdir():
        script.chmod(0o755)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("command", "rule"), RUN_EACH)
def test_each_file_a_loop_runs_is_judged(
    tmp_path: Path, command: str, rule: str, variant: str
) -> None:
    box, _ = _project(tmp_path)
    _scripts(box)
    decision, spec = claude_hook(command, box, variant)
    assert decision == "deny" and rule in spec, spec


@pytest.mark.parametrize("command", RUN_EACH_PASS)
def test_loops_over_harmless_scripts_pass(tmp_path: Path, command: str) -> None:
    box, _ = _project(tmp_path)
    _scripts(box)
    assert claude_hook(command, box)[0] == ""


@pytest.mark.skipif(BASH is None, reason="needs bash")
@pytest.mark.parametrize(("command", "rule"), RUN_EACH)
def test_a_loop_of_scripts_deletes_src_in_real_bash(
    tmp_path: Path, command: str, rule: str
) -> None:
    box, env = _project(tmp_path)
    _scripts(box)
    subprocess.run([BASH or "bash", "-c", command], cwd=box, env=env, capture_output=True,
                   timeout=60, check=False)  # fmt: skip
    assert _sources(box) == 0, command


# Variables the line never set and the hook's environment does not hold are unset in the
# agent's shell too: bash expands them to nothing (dcg.unsetvars).
UNSET = [
    ("git reset $NOPE--hard", "core.git:reset-hard"),
    ("git reset --ha${Z}rd", "core.git:reset-hard"),
    ("git $G reset --hard", "core.git:reset-hard"),
    ("git reset ${X:---hard}", "core.git:reset-hard"),
    ("git clean -fd$X", "core.git:clean-force"),
    ("git stash cl${Z}ear", "core.git:stash-clear"),
]
UNSET_PASS = ["git checkout $BRANCH", "git log $RANGE", 'git push origin "$B:$B"', "echo $N--hard"]


@pytest.mark.parametrize(("command", "rule"), UNSET)
def test_unset_variables_expand_to_nothing(tmp_path: Path, command: str, rule: str) -> None:
    box, _ = _project(tmp_path)
    for variant in ("plain", "bash-c"):
        decision, spec = claude_hook(command, box, variant)
        assert decision == "deny" and rule in spec, (variant, spec)


@pytest.mark.parametrize("command", UNSET_PASS)
def test_unset_variables_in_everyday_git_pass(tmp_path: Path, command: str) -> None:
    box, _ = _project(tmp_path)
    assert claude_hook(command, box)[0] == ""


@pytest.mark.skipif(BASH is None, reason="needs bash")
@pytest.mark.parametrize(("command", "rule"), UNSET[:3])
def test_an_unset_variable_hides_nothing_from_bash(tmp_path: Path, command: str, rule: str) -> None:
    box, env = _project(tmp_path)
    subprocess.run([BASH or "bash", "-c", command], cwd=box, env=env, capture_output=True,
                   timeout=30, check=False)  # fmt: skip
    assert (box / "src" / "a.py").read_text() != "uncommitted work\n"
