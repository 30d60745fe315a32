"""Issue 32, bash semantics: a variable's value where bash has it (dcg.shell.flow).

Assignments in a subshell, a pipeline element or a background job do not reach the rest of
the line; a branch whose condition is literally false changes nothing; one that may not
run leaves a variable it changed unknown; a function body changes variables when it is
called, not where it is defined, and its ``local`` ones never; ``local`` outside a
function fails. Each must-stop line goes through the hook for every agent and, for
Claude's payload, in every hookpath variant (later on a line, after a tab, after CRLF,
…), then runs in real bash in a throwaway HOME where it must destroy the uncommitted
work; the everyday lines pass and keep it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hookpath import AGENTS, VARIANTS
from sandbox import BASH, bash, commit_then_change, hook_verdict, lost, write_files

RM = "core.filesystem:rm-rf"
RESET = "core.git:reset-hard"
DYN = "core.shell:dynamic-command"
OPAQUE = "core.shell:opaque-exec"

STOP = [
    # subshells, pipelines and background jobs keep their assignments
    ("f=-fdx; (f=-n); git clean $f", "core.git:clean-force"),
    ('d=src; (d=/tmp/x); rm -rf "$d"', RM),
    ("c=rm; c=ls | :; $c -rf src", RM),
    ("c=rm; echo x | c=ls; $c -rf src", RM),
    ("c=rm; { c=ls; } & wait; $c -rf src", RM),
    ("m=--hard; (m=--soft; true) && git reset $m", RESET),
    ("m=--hard; echo | { read m; }; git reset $m", RESET),
    # branches that cannot run
    ("m=--hard; false && m=--soft; git reset $m", RESET),
    ("c=rm; if false; then c=ls; fi; $c -rf src", RM),
    ("c=rm; while false; do c=ls; done; $c -rf src", RM),
    ("c=rm; until true; do c=ls; done; $c -rf src", RM),
    ("m=--hard; true || m=--soft; git reset $m", RESET),
    # branches that may not run: the value is one of those the branches leave, and a
    # program held in it is judged once per value (dcg.shell.choices)
    ("c=rm; case x in y) c=ls;; esac; $c -rf src", RM),
    ("c=rm; if [ -e nothing ]; then c=ls; fi; $c -rf src", RM),
    ("c=rm; for f in; do c=ls; done; $c -rf src", RM),
    ("if [ -f nothing ]; then c=ls; else c=rm; fi; $c -rf src", RM),
    ("if [ -f src/canary ]; then c=rm; else c=ls; fi; $c -rf src", RM),
    ("case $HOME in /nowhere) c=ls;; *) c=rm;; esac; $c -rf src", RM),
    ('c=ls; [ -f nothing ] || c=rm; command "$c" -rf src', RM),
    ("g=git; [ -d nothing ] && g=hub; ${g} reset --hard", RESET),
    ("c=ls; [ -d nothing ] || c=source; echo 'rm -rf src' > x.sh; $c x.sh", RM),
    ("c=ls; [ -d nothing ] || c=eval; $c 'rm -rf src'", RM),
    ("c=ls; [ -d nothing ] || c=export; $c d=rm; $d -rf src", RM),
    ("c=ls; [ -d nothing ] || c='bash -c'; $c 'rm -rf src'", RM),
    ("c=true; [ -d nothing ] || c=false; if $c; then :; else rm -rf src; fi", RM),
    # a for loop's variable is each of its words in turn
    ('for d in build src; do rm -rf "$d"; done', RM),
    ("for c in ls rm; do $c -rf src; done", RM),
    ("for c in ls rm; do :; done; $c -rf src", RM),
    # an alias or a hashed name given another value on a branch that may run is unknown
    ("shopt -s expand_aliases\nalias r=ls\n[ -f x ] || alias r=rm\nr -rf src", OPAQUE),
    ("shopt -s expand_aliases\nc=ls; [ -f x ] || c=rm\nalias r=$c\nr -rf src", OPAQUE),
    ("hash -p /bin/ls r; [ -f x ] || hash -p /bin/rm r; r -rf src", DYN),
    # a function's variables come from the call's arguments, not the empty ones where
    # it is defined; a call not walked again leaves them unknown
    ("f() { c=$1; }; f rm; $c -rf src", RM),
    ("f() { c=$1; }; f rm; f rm; $c -rf src", DYN),
    ("f() { c=$1; }; f ls; f rm; $c -rf src", DYN),
    # functions: a body runs when called; its locals stay in it
    ("c=rm; f(){ c=ls; }; $c -rf src", RM),
    ("g(){ m=--hard; }; m=--soft; g; git reset $m", RESET),
    ("function g { m=--hard; }; m=--soft; g; git reset $m", RESET),
    ("c=reset; f(){ local c=status; }; f; git $c --hard", RESET),
    ("c=rm; local c=ls; $c -rf src", RM),
    # readonly values cannot change; a trap's assignments may run before any command
    ("readonly c=rm; declare c=ls; $c -rf src", RM),
    ("declare -r c=rm; declare c=ls; $c -rf src", RM),
    ("c=rm; readonly c; unset c; $c -rf src", RM),
    ("c=rm; unset -n c; $c -rf src", RM),
    ("trap 'c=rm' DEBUG; c=ls; $c -rf src", DYN),
]
PASS = [
    'if [ -d build ]; then OUT=build; else OUT=dist; fi; rm -rf "$OUT"',
    'x(){ OUT=dist; }; x; rm -rf "$OUT"',
    'f(){ local d=build; rm -rf "$d"; }; f',
    "d=src; (d=build; rm -rf $d); ls $d",
    "c=ls; if true; then c=ls; fi; $c -la",
    "for f in a b; do echo $f; done; rm -rf build",
    "X=1; ( X=2; echo $X ); echo hi | grep h && rm -rf node_modules",
    "n=0; while [ $n -lt 2 ]; do n=$((n+1)); done; echo $n",
    "readonly OUT=build; rm -rf $OUT",
    "export D=dist; rm -rf $D",
    "trap 'rm -f notes.tmp' EXIT; touch notes.tmp",
    # a program chosen on a branch: each value is judged, none is dcg (issue 24)
    "PM=npm; [ -f pnpm-lock.yaml ] && PM=pnpm; $PM run build",
    'if [ -f yarn.lock ]; then PM=yarn; else PM=npm; fi; "$PM" run "$TASK"',
    'tar=tar; command -v gtar >/dev/null && tar=gtar; command "${tar}" -xzf "$ARCHIVE" -C out',
    'case "$(uname)" in Darwin) SED=gsed;; *) SED=sed;; esac; $SED -n p "$F"',
    'PY=python3; command -v python3 >/dev/null || PY=python; $PY -c "print(1)" "$@"',
    'if [ -f nothing ]; then O=build; else O=dist; fi; rm -rf "$O"',
    'for d in build dist; do rm -rf "$d"; done',
    'for d in node_modules .venv .pytest_cache; do rm -rf "$d"; done',
    "for c in ls cat; do $c src; done",
]


def _sandbox(base: Path) -> tuple[Path, dict[str, str]]:
    """A project inside the test's HOME (dcg never takes HOME itself for a project)."""
    home = base / "proj"
    write_files(home, {"src/canary": "alive\n", "src/untracked": "new\n"})
    (base / "tmp").mkdir(exist_ok=True)
    if BASH is not None:
        (home / ".gitignore").write_text("src/untracked\n")
        commit_then_change(home, {"HOME": str(home), "PATH": os.environ["PATH"]})
        (home / ".gitignore").write_text("")
    return home, {"HOME": str(base), "TMPDIR": str(base / "tmp"), "PATH": os.environ["PATH"]}


def _lost(home: Path) -> bool:
    return lost(home) or not (home / "src" / "untracked").exists()


def _answer(agent: str, line: str, proj: Path) -> tuple[str, str]:
    env = dict(os.environ, HOME=str(proj.parent))
    return hook_verdict(line, proj, agent=agent, details=True, env=env)


@pytest.mark.skipif(BASH is None, reason="needs bash")
@pytest.mark.parametrize(("command", "rule"), STOP, ids=[c for c, _ in STOP])
def test_values_bash_does_not_keep_are_not_trusted(
    isolated_home: Path, command: str, rule: str
) -> None:
    proj, env = _sandbox(isolated_home)
    for agent in AGENTS:
        answer, text = _answer(agent, command, proj)
        assert answer == "deny", (agent, command, text)
    for name, variant in VARIANTS.items():
        answer, text = _answer("claude", variant(command), proj)
        assert answer == "deny", (name, command, text)
        assert rule in text, (name, text)
    bash(command, proj, env)
    assert _lost(proj), "bash did not destroy the work: not a bypass"


@pytest.mark.skipif(BASH is None, reason="needs bash")
@pytest.mark.parametrize("command", PASS)
def test_everyday_control_flow_passes(isolated_home: Path, command: str) -> None:
    proj, env = _sandbox(isolated_home)
    answer, text = _answer("claude", command, proj)
    assert answer in ("none", "warn"), text
    bash(command, proj, env)
    assert not _lost(proj), command
