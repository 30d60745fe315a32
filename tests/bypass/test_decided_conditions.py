"""Issue 24, conditions the walker decides (dcg.shell.conds): only what bash skips is skipped.

A ``[ … ]``/``test``/``true``/``false`` whose every operand the line itself set is
evaluated, and the branch bash does not take is not judged. Everything the agent could
bend stays judged both ways: a value from a command's output or input, the environment,
a redirection that fails, a self-changing variable, a test command redefined or disabled,
an ``IFS`` the line changed, a compound's own status, a function called again with other
values (or recursively). Each must-stop line goes through the hook for every agent and
every hookpath variant, then runs in real bash in a throwaway HOME where it must destroy
the uncommitted work; each line that passes runs in bash and keeps it.
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
LIB = "printf '%s\\n' 'g() {' {BODY} '}' > lib.sh; . ./lib.sh; "

STOP = [
    ('x=1; if [ "$x" = 1 ]; then rm -rf src; fi', RM),
    # a group's status, an `&&`/`||` after an unknown test, a sourced file, lastpipe
    ("if { [ a = a ] && [ b = b ]; } || { [ a = c ]; }; then rm -rf src; fi", RM),
    ("[ a = b ] && { echo; } || rm -rf src", RM),
    ('x=$(cat /dev/null); if [ "$x" = a ] && [ b = b ]; then :; else rm -rf src; fi', RM),
    ("touch flag; if [ -f flag ] || false; then rm -rf src; fi", RM),
    ("printf 'x=2\\n' > setx.sh; x=1; . ./setx.sh; [ $x = 1 ] || rm -rf src", RM),
    ("x=1; shopt -s lastpipe; echo 2 | read x; [ $x = 1 ] || rm -rf src", RM),
    ("f() { shopt -s lastpipe; }; f; x=1; echo 2 | read x; [ $x = 1 ] || rm -rf src", RM),
    ('x=$(cat /dev/null); if [ "$x" = y ]; then :; else rm -rf src; fi', RM),
    ('read x < /dev/null; [ "$x" = y ] || rm -rf src', RM),
    ("! [ a = b ] && rm -rf src", RM),
    ("! ! [ a = a ] && rm -rf src", RM),
    ("[ a = b ] || rm -rf src", RM),
    ("if [ a = b ]; then :; elif [ 1 -lt 2 ]; then rm -rf src; fi", RM),
    ("if [ a = b ]; then :; elif [ c != c ]; then :; else rm -rf src; fi", RM),
    ("set -- a b; [ $# -eq 2 ] && rm -rf src", RM),
    ('set -- a b; shift; [ "$1" = b ] && rm -rf src', RM),
    ('f() { shift; [ "$1" = b ] && rm -rf src; }; f a b', RM),
    ('RANDOM=1; [ "$RANDOM" = 1 ] || rm -rf src', RM),
    ("test() { return 0; }; test a = b && rm -rf src", RM),
    ("IFS=x; v=x; [ -z $v ] && rm -rf src", RM),
    ("false; if case x in esac; then rm -rf src; fi", RM),
    ("if false; then :; fi && rm -rf src", RM),
    ("{ false; } || rm -rf src", RM),
    ("[ a = a ] < /nonexistent || rm -rf src", RM),
    ("false & wait && rm -rf src", RM),
    ('x=1; f() { [ "$x" = 1 ] || rm -rf src; }; x=2; f', RM),
    # values set in ways the walker does not follow: nothing more is decided
    ('declare -u x; x=b; [ "$x" = b ] || rm -rf src', RM),
    ('declare -l x; x=B; [ "$x" = B ] || rm -rf src', RM),
    ("x=a; eval 'x=b'; [ \"$x\" = a ] || rm -rf src", RM),
    ('x=a; : $((x=5)); [ "$x" = a ] || rm -rf src', RM),
    ('x=a; getopts ab x; [ "$x" = a ] || rm -rf src', RM),
    ('x=a; exec {x}>/dev/null; [ "$x" = a ] || rm -rf src', RM),
    ('x=a; . /dev/stdin <<< x=b; [ "$x" = a ] || rm -rf src', RM),
    ('x=a; wait -p x; [ "$x" = a ] || rm -rf src', RM),
    ('d=$PWD; cd src; [ "$PWD" = "$d" ] || rm -rf ../src', RM),
    ("printf '[() { return 1; }' > .t; X=.t; source \"$X\"; [ a = a ] || rm -rf src", RM),
    # a sourced script's function: judged again for other values, prefix assignments,
    # arguments, and when it calls itself with other arguments
    (LIB.replace("{BODY}", "'[ \"$M\" = x ] || rm -rf src'") + "M=x; g; M=y; g", RM),
    (LIB.replace("{BODY}", "'[ \"$M\" = x ] || rm -rf src'") + "M=x; M=y g", RM),
    (
        LIB.replace("{BODY}", "'if [ \"$1\" = a ]; then g b; else rm -rf src; fi'") + "g a",
        RM,
    ),
    (LIB.replace("{BODY}", "'[ $# -eq 0 ] || rm -rf src'") + "g; g x", RM),
]
PASS = [
    "if [ a = b ]; then rm -rf src; fi",
    'x=1; [ "$x" = 2 ] && rm -rf src',
    "set -- a; if [ $# -gt 1 ]; then rm -rf src; fi",
    "true || rm -rf src",
    ": || rm -rf src",
    "false && rm -rf src",
    "if [ a = a ]; then echo ok; else rm -rf src; fi",
    'unset X; [ -n "$X" ] && rm -rf src',
    "! [ a = a ] && rm -rf src",
    "while [ 1 -gt 2 ]; do rm -rf src; done",
    "until [ x ]; do rm -rf src; done",
    'm=use; if [ "_$m" = _install ]; then rm -rf src; elif [ "_$m" = _use ]; then echo ok; fi',
    LIB.replace("{BODY}", "'[ $# -eq 0 ] || rm -rf src'") + "g",
    LIB.replace("{BODY}", "'[ \"$M\" = x ] || rm -rf src'") + "M=x; g; g",
]


def _sandbox(base: Path) -> tuple[Path, dict[str, str]]:
    """A git project with uncommitted work inside the test's HOME."""
    proj = base / "proj"
    (proj / "src").mkdir(parents=True)
    (proj / "src" / "canary").write_text("alive\n")
    (base / "tmp").mkdir(exist_ok=True)
    env = {"HOME": str(proj), "PATH": os.environ["PATH"], "GIT_AUTHOR_NAME": "t",
           "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}  # fmt: skip
    for git in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base"]):
        subprocess.run(["git", *git], cwd=proj, env=env, check=True)
    (proj / "src" / "canary").write_text("work\n")
    return proj, {"HOME": str(base), "TMPDIR": str(base / "tmp"), "PATH": os.environ["PATH"]}


def _lost(proj: Path) -> bool:
    canary = proj / "src" / "canary"
    return not canary.exists() or canary.read_text() != "work\n"


def _answer(agent: str, line: str, proj: Path) -> tuple[str, str]:
    env = dict(
        os.environ, HOME=str(proj.parent), DCG_RESPONSE_MODE="paranoid", DCG_HOOK_DETAILS="1"
    )
    code, out, err = run(json.dumps(payload(agent, line, str(proj))).encode(), env=env)
    return verdict(code, out, err), out + err


def _bash(line: str, proj: Path, env: dict[str, str]) -> None:
    assert BASH is not None
    subprocess.run([BASH, "-c", line], cwd=proj, env=env, timeout=60,
                   capture_output=True, check=False)  # fmt: skip


@pytest.mark.skipif(BASH is None, reason="needs bash")
@pytest.mark.parametrize(("command", "rule"), STOP, ids=[c for c, _ in STOP])
def test_a_branch_bash_may_take_is_judged(isolated_home: Path, command: str, rule: str) -> None:
    proj, env = _sandbox(isolated_home)
    for agent in AGENTS:
        answer, text = _answer(agent, command, proj)
        assert answer == "deny", (agent, command, text)
    for name, variant in VARIANTS.items():
        answer, text = _answer("claude", variant(command), proj)
        assert answer == "deny", (name, command, text)
        assert rule in text, (name, text)
    _bash(command, proj, env)
    assert _lost(proj), "bash did not destroy the work: not a bypass"


@pytest.mark.skipif(BASH is None, reason="needs bash")
@pytest.mark.parametrize("command", PASS)
def test_a_branch_bash_never_takes_is_not_judged(isolated_home: Path, command: str) -> None:
    proj, env = _sandbox(isolated_home)
    answer, text = _answer("claude", command, proj)
    assert answer == "none", text
    _bash(command, proj, env)
    assert not _lost(proj), command


def test_the_evaluation_itself() -> None:
    from dcg.shell.conds import _test

    cases = {
        ("a", "=", "a"): 0, ("a", "==", "b"): 1, ("a", "!=", "b"): 0, ("-z", ""): 0,
        ("-n", ""): 1, ("x",): 0, ("",): 1, (): 1, ("!", "x"): 1, ("2", "-lt", "10"): 0,
        ("010", "-eq", "10"): 0, ("-1", "-ge", "0"): 1, ("!", "a", "=", "b"): 0,
        ("(", "x", ")"): 0, ("a", "-a", ""): 1, ("a", "-o", ""): 0,
        ("a", "-eq", "1"): None, ("-f", "x"): None, ("a", "=~", "a"): None,
        ("a", "<", "b"): None, ("a", "=", "a", "-a", "b"): None,
    }  # fmt: skip
    for args, expected in cases.items():
        assert _test(list(args)) == expected, args
