"""Issue 32, round three: bash expansions, exemptions defeated on the line, and a cd that moves.

Bash semantics (dcg.shell.params, bashvars, shellvars): ``${@:N:M}`` and ``${1…}`` after
``set --``, an unset ``${IFS…}``, ``$'…'`` inside an operator's word, a value whose
``a[$(…)]`` runs where bash evaluates it (a subscript, a substring offset),
``declare -a NAME='(…)'`` evaluated as the compound assignment it is, ``declare r=$x``
unsplit, ``declare -n r; r=x``, ``BASH_ALIASES``, ``trap -- …``.
Exemptions (dcg.shell.linefiles, dcg.safe_delete): ``mv -t``, ``git mv``, ``mount --bind``
and ``rsync --remove-source-files`` leave a path standing for another; ``$TMPDIR`` and
relative paths name one place wherever the line moved; a linked find root is followed; an
output directory that holds a tree moved out of the work tree in an earlier call is work.
A cd (dcg.shell.flow, engine): ``cd D && rm …`` runs only in D, so D alone is judged, as is
a first ``cd D`` to a directory that exists; a cd the walker did not follow (``eval 'cd -'``,
``builtin cd -``) takes that back.

Every must-stop line goes through the hook for every agent (and every hookpath variant for
Claude), then runs in real bash in a throwaway project inside the test's HOME (TMPDIR in it)
where it must destroy the uncommitted work; the must-pass lines pass and keep it.
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
RESET = "core.git:reset-hard"
FIND = "core.filesystem:find-delete"
A = "shopt -s expand_aliases\n"

STOP = [
    # positional parameters after `set --`, with operators
    ('set -- rm -rf src; "${@:1}"', RM),
    ('set -- a rm -rf src; "${@:2}"', RM),
    ('set -- rm -rf src x; "${@:1:3}"', RM),
    ("set -- x git reset --hard; ${*:2}", RESET),
    ('set -- rm -rf src; "${@: -3}"', RM),
    ("set -- RM; ${1,,} -rf src", RM),
    ("set -- xrm; ${1:1} -rf src", RM),
    ("set -- zz reset; git ${2} --hard", RESET),
    # IFS unset is bash's default; ANSI-C quoting inside an operator's word
    ("rm${IFS:0:1}-rf${IFS:0:1}src", RM),
    ("git${IFS::1}reset${IFS::1}--hard", RESET),
    ("unset z; ${z:-$'\\x72m'} -rf src", RM),
    ("unset z; git ${z:-$'\\162eset'} --hard", RESET),
    # a value evaluated as arithmetic runs its subscript's command substitution
    ("x='a[$(rm -rf src)]'; echo ${a[x]}", RM),
    ("s=abc; i='a[$(rm -rf src)]'; echo ${s:i}", RM),
    ("s=abc; i='b[$(git reset --hard)]'; echo ${s:0:i}", RESET),
    ("x='a[$(rm -rf src)]'; declare -n r=$x; echo $r", RM),
    # compound assignments bash evaluates from a string
    ("declare -a a='(rm -rf src)'; \"${a[@]}\"", RM),
    ('declare -a "a=(git reset --hard)"; "${a[@]}"', RESET),
    ('x=\'(git reset --hard)\'; declare -a a="$x"; "${a[@]}"', RESET),
    ("f(){ local -a a='(rm -rf src)'; \"${a[@]}\"; }; f", RM),
    ("typeset -a b a='(rm)'; a+=(-rf src); \"${a[@]}\"", RM),
    ('readonly -a a=(rm -rf src); "${a[@]}"', RM),
    # namerefs without a target, aliases through BASH_ALIASES, trap --
    ("declare -n r; r=c; c=rm; $r -rf src", RM),
    ('declare -n r; r=a; a=(rm -rf src); "${r[@]}"', RM),
    (A + "BASH_ALIASES[r]=rm\nr -rf src", RM),
    (A + "BASH_ALIASES=([g]='git reset')\ng --hard", RESET),
    ("trap -- 'rm -rf src' EXIT", RM),
    ('trap -- "git reset --hard" EXIT; echo hi', RESET),
    # a path standing for another since a move on the line
    ("mv -t node_modules src; rm -rf node_modules", RM),
    ("mv --target-directory=build src && rm -rf build", RM),
    ("mv -vt build src; rm -rf build", RM),
    ("git mv src node_modules; rm -rf node_modules", RM),
    ("git mv -f src build && rm -rf build/", RM),
    ('mv src "$TMPDIR/x"; cd "$TMPDIR" && rm -rf x', RM),
    # a move made in a subshell, a pipeline, the background or a branch stays made
    ("( mv src node_modules ); rm -rf node_modules", RM),
    ("mv src node_modules | cat; rm -rf node_modules", RM),
    ("{ mv src build; } & wait; rm -rf build", RM),
    ("if [ -d src ]; then mv src build; fi; rm -rf build", RM),
    ("f() { mv src dist; }; f; rm -rf dist", RM),
    ('( ln -s "$PWD/src" out ); rm -rf out/', RM),
    # a subshell's array, nameref or readonly is gone when it ends
    ('a=(rm -rf src); ( a=(echo hi) ); "${a[@]}"', RM),
    ('declare -n r=a; ( declare -n r=b ); a="rm -rf src"; b=echo; $r', RM),
    ('( readonly c=echo ); c="rm -rf src"; $c', RM),
    ('mv src "$TMPDIR/y" && cd "$TMPDIR" && find y -delete', FIND),
    # a cd the walker did not follow cannot make the deletion's place sure
    ("cd \"$TMPDIR\" && eval 'cd -' && rm -rf src", RM),
    ('cd "$TMPDIR" && builtin cd - && rm -rf src', RM),
    ('cd "$TMPDIR" && command cd - && rm -rf src', RM),
    ('cd "$TMPDIR"; eval cd -; rm -rf src', RM),
    ('cd "$TMPDIR" && time cd - && rm -rf src', RM),
    ("cd \"$TMPDIR\" && trap 'cd -' DEBUG && rm -rf src", RM),
    ('cd "$TMPDIR" && cd - && rm -rf src', RM),
    ("cd /nonexistent-dcg-dir; rm -rf src", RM),
    ('cd "$TMPDIR" && rm -rf ../proj/src', RM),
    ('cd "$TMPDIR" && mv ../proj/src q && rm -rf q', RM),
]
# Earlier calls left the disk so (a link, a tree moved into output); then the line.
ON_DISK = [
    ('ln -s "$PWD/src" "$TMPDIR/p"', 'find "$TMPDIR/p/" -mindepth 1 -delete', FIND),
    ('ln -s "$PWD/src" "$TMPDIR/p"', 'find -L "$TMPDIR/p" -mindepth 1 -delete', FIND),
    ("rm -rf build; mv src build", "rm -rf build", RM),
    ("mv src node_modules/src", "rm -rf node_modules", RM),
    ("mv src node_modules/src", "cd node_modules && rm -rf *", RM),
]
# bind mounts need root: through the hook only
MOUNTS = [
    ('mount --bind "$PWD/src" "$TMPDIR/m" && rm -rf "$TMPDIR/m"', RM),
    ("mount -o bind src node_modules; rm -rf node_modules/*", RM),
    ("mount -B src build && rm -rf build", RM),
    ("rsync -a --remove-source-files src/ build/ && rm -rf build", RM),
]
PASS = [
    'cd "$TMPDIR" && rm -rf build',
    'cd "$TMPDIR"; rm -rf build',
    'pushd "$TMPDIR" && rm -rf build && popd',
    "cd $(mktemp -d) && rm -rf *",
    'cd "$(mktemp -d)" && rm -rf ./*',
    'd=$(mktemp -d); cd "$d" && rm -rf *',
    "cd node_modules && rm -rf x",
    "cd build && rm -rf *",
    "cd build; rm -rf ./*",
    'echo "${x:-default}"',
    'a=(1 2); echo "${a[@]}"',
    "read -r line < notes.txt; echo $line",
    "rm -rf node_modules",
    'set -- a b; echo "${@:1}" "${1:0:1}"',
    "declare -a a='(1 2)'; echo \"${a[@]}\"",
    "trap -- 'rm -f notes.tmp' EXIT; touch notes.tmp",
    "mv -t build notes.txt",
    "rsync -a src/ build/ && rm -rf build",
]
# /tmp itself is shared: these only go through the hook
PASS_HOOK = [
    "cd /tmp && rm -rf x",
    "pushd /tmp; rm -rf x",
    "cd /tmp; rm -rf x",
    "cd /tmp/ && rm -rf build-*",
    "cd /var/tmp && rm -rf x",
    "rm -rf /tmp/build-x",
    "cd /tmp || exit; rm -rf x",
]


def _sandbox(base: Path) -> tuple[Path, dict[str, str]]:
    """A git project with uncommitted work inside the test's HOME; TMPDIR beside it."""
    proj = base / "proj"
    (proj / "src").mkdir(parents=True)
    (proj / "src" / "canary").write_text("alive\n")
    (proj / "src" / "untracked").write_text("new\n")
    (proj / "node_modules" / "x").mkdir(parents=True)
    (proj / "build").mkdir()
    (proj / "notes.txt").write_text("hello\n")
    (base / "tmp").mkdir(exist_ok=True)
    env = {"HOME": str(base), "TMPDIR": str(base / "tmp"), "PATH": os.environ["PATH"],
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}  # fmt: skip
    if BASH is not None:
        (proj / ".gitignore").write_text("src/untracked\nnode_modules/\nbuild/\n")
        for git in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base"]):
            subprocess.run(["git", *git], cwd=proj, env=env, check=True)
        (proj / ".gitignore").write_text("node_modules/\nbuild/\n")
        (proj / "src" / "canary").write_text("work\n")
    return proj, env


def _lost(proj: Path) -> bool:
    canary, new = proj / "src" / "canary", proj / "src" / "untracked"
    if canary.is_file() and canary.read_text() == "work\n" and new.exists():
        return False
    return not any(  # moved by an earlier call: work while a copy of it is somewhere
        p.read_text() == "work\n"
        for p in proj.rglob("canary")
        if p.is_file() and not p.is_symlink() and "src" not in p.parts[len(proj.parts) :][:1]
    )


def _answer(agent: str, line: str, proj: Path, env: dict[str, str]) -> tuple[str, str]:
    hook_env = dict(os.environ, HOME=env["HOME"], TMPDIR=env["TMPDIR"],
                    DCG_RESPONSE_MODE="paranoid", DCG_HOOK_DETAILS="1")  # fmt: skip
    code, out, err = run(json.dumps(payload(agent, line, str(proj))).encode(), env=hook_env)
    return verdict(code, out, err), out + err


def _bash(line: str, proj: Path, env: dict[str, str]) -> None:
    assert BASH is not None
    subprocess.run([BASH, "-c", line], cwd=proj, env=env, timeout=60,
                   capture_output=True, check=False)  # fmt: skip


@pytest.fixture
def box(isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, dict[str, str]]:
    proj, env = _sandbox(isolated_home)
    monkeypatch.setenv("TMPDIR", env["TMPDIR"])  # the agent's temp dir is the hook's too
    return proj, env


@pytest.mark.skipif(BASH is None, reason="needs bash")
@pytest.mark.parametrize(("command", "rule"), STOP, ids=[c for c, _ in STOP])
def test_round3_bash_stopped(box: tuple[Path, dict[str, str]], command: str, rule: str) -> None:
    proj, env = box
    for agent in AGENTS:
        answer, text = _answer(agent, command, proj, env)
        assert answer == "deny", (agent, command, text)
    for name, variant in VARIANTS.items():
        answer, text = _answer("claude", variant(command), proj, env)
        assert answer == "deny", (name, command, text)
        assert rule in text, (name, text)
    _bash(command, proj, env)
    assert _lost(proj), "bash did not destroy the work: not a bypass"


@pytest.mark.skipif(BASH is None, reason="needs bash")
@pytest.mark.parametrize(("setup", "command", "rule"), ON_DISK, ids=[c for _, c, _ in ON_DISK])
def test_round3_disk_left_by_earlier_calls(
    box: tuple[Path, dict[str, str]], setup: str, command: str, rule: str
) -> None:
    proj, env = box
    _bash(setup, proj, env)
    assert not _lost(proj), setup
    for agent in AGENTS:
        answer, text = _answer(agent, command, proj, env)
        assert answer == "deny", (agent, command, text)
        assert rule in text, (agent, text)
    _bash(command, proj, env)
    assert _lost(proj), "bash did not destroy the work: not a bypass"


@pytest.mark.parametrize(("command", "rule"), MOUNTS, ids=[c for c, _ in MOUNTS])
def test_round3_mounts_and_moves_stopped(
    box: tuple[Path, dict[str, str]], command: str, rule: str
) -> None:
    proj, env = box
    for agent in AGENTS:
        answer, text = _answer(agent, command, proj, env)
        assert answer == "deny", (agent, command, text)
        assert rule in text, (agent, text)


@pytest.mark.skipif(BASH is None, reason="needs bash")
@pytest.mark.parametrize("command", PASS)
def test_round3_everyday_passes(box: tuple[Path, dict[str, str]], command: str) -> None:
    proj, env = box
    answer, text = _answer("claude", command, proj, env)
    assert answer in ("none", "warn"), text
    _bash(command, proj, env)
    assert not _lost(proj), command


@pytest.mark.parametrize("command", PASS_HOOK)
def test_round3_temp_cd_passes(box: tuple[Path, dict[str, str]], command: str) -> None:
    proj, env = box
    for agent in AGENTS:
        answer, text = _answer(agent, command, proj, env)
        assert answer in ("none", "warn"), (agent, text)


@pytest.mark.skipif(BASH is None, reason="needs bash")
@pytest.mark.parametrize(
    "command", ["readonly c; c=x\n$c -rf src", "declare -r c; c=ls\n$c -rf src"]
)
def test_round3_readonly_keeps_the_environment_value(
    box: tuple[Path, dict[str, str]], command: str
) -> None:
    """``readonly c`` of a variable the line never set pins the environment's value, which
    dcg cannot know: the later ``c=x`` fails (bash drops the rest of that line, not the next
    one) and ``$c`` is computed."""
    proj, env = box
    for agent in AGENTS:
        answer, text = _answer(agent, command, proj, env)
        assert answer == "deny", (agent, command, text)
        assert "core.shell:dynamic-command" in text, (agent, text)
    _bash(command, proj, {**env, "c": "rm"})
    assert _lost(proj), "bash did not destroy the work: not a bypass"
