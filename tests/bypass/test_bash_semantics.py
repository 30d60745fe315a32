"""Bash as bash runs it (issue 32, class 1): parameter-expansion operators, arrays,
namerefs, read/mapfile/printf -v, aliases, prompt expansion and subscripts bash evaluates.

Every must-stop line goes through every agent's hook (paranoid mode) and is then run by
real bash in a throwaway HOME, where it must delete the canary in ``src``: the spelling
is real, not a guess at what bash might do. The everyday lines that use the same features
pass and, run the same way, leave the canary alone.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hookpath import AGENTS, payload, run, verdict

BASH = shutil.which("bash")
A = "shopt -s expand_aliases\n"  # bash -c expands aliases only with it (a login shell has it)

# (command, a rule id the hook's answer names)
STOP = [
    # Operators on a value the line set.
    ('c="rmx -rf src"; ${c//x/}', "core.filesystem:rm-rf"),
    ('c="rm -rf srcX"; ${c/%X/}', "core.filesystem:rm-rf"),
    ('c="Xrm -rf src"; ${c/#X/}', "core.filesystem:rm-rf"),
    ('c="RM -RF SRC"; ${c,,}', "core.filesystem:rm-rf"),
    ('c="RM -RF SRC"; ${c~~}', "core.filesystem:rm-rf"),
    ('c="__rm -rf src"; ${c#__}', "core.filesystem:rm-rf"),
    ('c="a/b/rm -rf src"; ${c##*/}', "core.filesystem:rm-rf"),
    ('c="rm -rf src.old.bak"; ${c%%.*}', "core.filesystem:rm-rf"),
    ('c="xxrm -rf srcyy"; ${c:2:10}', "core.filesystem:rm-rf"),
    ('c="xxrm -rf src"; n=2; ${c:n}', "core.filesystem:rm-rf"),
    ('c="zrm -rf src"; ${c: -10}', "core.filesystem:rm-rf"),
    ('c="rm -rf src"; ${c@L}', "core.filesystem:rm-rf"),
    ('c="rX -rf src"; ${c/X/m}', "core.filesystem:rm-rf"),
    ('c="r -rf src"; ${c/r/&m}', "core.filesystem:rm-rf"),
    ("c='rm\\x20-rf\\x20src'; ${c@E}", "core.filesystem:rm-rf"),
    ('p=X; c="rmX -rf src"; ${c//$p/}', "core.filesystem:rm-rf"),
    ('c="git resetX --hard"; ${c/X/}', "core.git:reset-hard"),
    # Escapes as echo -e, printf's format, %b and ${x@E} read them (patterns.decode).
    ("printf '\\162\\155 -\\162f src\\n' | bash", "core.filesystem:rm-rf"),
    ("printf '\\147it \\162eset --hard\\n' | bash", "core.git:reset-hard"),
    ("echo -e '\\0162m -rf src' | bash", "core.filesystem:rm-rf"),
    ("echo -e '\\x72m -rf src' | sh", "core.filesystem:rm-rf"),
    ("printf -v c '\\u0072\\u006d'; $c -rf src", "core.filesystem:rm-rf"),
    ("printf -v c '%b' '\\0162m'; $c -rf src", "core.filesystem:rm-rf"),
    ("printf -v c '%b' 'rm\\cXX'; $c -rf src", "core.filesystem:rm-rf"),
    ("printf -v c -- rm; $c -rf src", "core.filesystem:rm-rf"),
    ("c='\\u0072m'; ${c@E} -rf src", "core.filesystem:rm-rf"),
    ("printf '%s %b\\n' rm '-\\0162f src' | bash", "core.filesystem:rm-rf"),
    # Builtins' options as bash applies them; what dcg does not model is unknown.
    ("read -N 2 c <<< rmxx; $c -rf src", "core.filesystem:rm-rf"),
    ("read -n 2 c <<< rmxx; $c -rf src", "core.filesystem:rm-rf"),
    ("read -n 2 -a a <<< 'rmxx'; ${a[0]} -rf src", "core.filesystem:rm-rf"),
    ("mapfile -O 3 -t a <<< rm; ${a[3]} -rf src", "core.filesystem:rm-rf"),
    ("mapfile -t -O 1 a <<< reset; git ${a[1]} --hard", "core.git:reset-hard"),
    ("mapfile -s 1 -t a <<< $'x\\nrm'; ${a[0]} -rf src", "core.filesystem:rm-rf"),
    ("read c <<E\nr\\\nm\nE\n$c -rf src", "core.filesystem:rm-rf"),
    ("read c <<'E'\nr\\\nm\nE\n$c -rf src", "core.filesystem:rm-rf"),
    ("a=([5]=rm); ${a[@]:5:1} -rf src", "core.shell:opaque-exec"),
    ("a=(x rm); unset 'a[0]'; ${a[@]:0:1} -rf src", "core.shell:opaque-exec"),
    ("a=([5]=x); a[${#a[@]}]=rm; ${a[1]} -rf src", "core.shell:opaque-exec"),
    ("declare -i c=5; c+=3; a=([8]=rm); ${a[c]} -rf src", "core.shell:opaque-exec"),
    ("c=4; ((c++)); a=([5]=rm); ${a[c]} -rf src", "core.shell:opaque-exec"),
    ("c=4; let c+=1; a=([5]=rm); ${a[c]} -rf src", "core.shell:opaque-exec"),
    ("declare -r c=1; ${c@a}m -rf src", "core.shell:opaque-exec"),
    ("unset v; git ${v-reset} --hard", "core.git:reset-hard"),
    ("v=; : ${v:=reset}; git $v --hard", "core.git:reset-hard"),
    ("IFS=; c='rm -rf src'; IFS=' ' eval '$c'", "core.filesystem:rm-rf"),
    ("X=rm bash -c '$X -rf src'", "core.filesystem:rm-rf"),
    # Patterns dcg does not model leave the value unknown.
    ("shopt -s extglob; c=rmxx; ${c%%+(x)} -rf src", "core.shell:opaque-exec"),
    ("shopt -s extglob; c=rxxm; ${c//@(x|y)/} -rf src", "core.shell:opaque-exec"),
    ("shopt -s nocasematch; c=rmX; ${c/x/} -rf src", "core.shell:opaque-exec"),
    ("c=rm1; ${c//[[:digit:]]/} -rf src", "core.shell:opaque-exec"),
    # Command names the line bound to another program (dcg.shell.cmdnames).
    ("hash -p /bin/rm zz; zz -rf src", "core.filesystem:rm-rf"),
    ("hash -p /usr/bin/git g; g reset --hard", "core.git:reset-hard"),
    ("BASH_CMDS[zz]=/bin/rm; zz -rf src", "core.filesystem:rm-rf"),
    ("BASH_CMDS[g]=/usr/bin/git; g reset --hard", "core.git:reset-hard"),
    ("mkdir -p b; ln -s /bin/rm b/ls; PATH=$PWD/b:$PATH; ls -rf src", "core.filesystem:rm-rf"),
    ("mkdir -p b; ln -s /usr/bin/git b/ls; PATH=b:$PATH ls reset --hard", "core.git:reset-hard"),
    ("mkdir -p b; cp /bin/rm b/cat; export PATH=b:$PATH; cat -rf src", "core.filesystem:rm-rf"),
    ("cp /bin/rm ./ls; ./ls -rf src", "core.filesystem:rm-rf"),
    ("ln -s /usr/bin/git x; ./x reset --hard", "core.git:reset-hard"),
    # Indirection and namerefs.
    ('r="rm -rf src"; y=r; ${!y}', "core.filesystem:rm-rf"),
    ("declare -n r=x; x=rm; $r -rf src", "core.filesystem:rm-rf"),
    ('typeset -n r=x; x="rm -rf src"; $r', "core.filesystem:rm-rf"),
    ('declare -n r=x; r="rm -rf src"; $x', "core.filesystem:rm-rf"),
    # Arrays.
    ('a[0]=rm; a[1]=-rf; a[2]=src; "${a[@]}"', "core.filesystem:rm-rf"),
    ('a=(); a+=(rm); a+=(-rf src); "${a[@]}"', "core.filesystem:rm-rf"),
    ('a=(x rm -rf src); "${a[@]:1}"', "core.filesystem:rm-rf"),
    ("a=(src -rf rm); ${a[2]} ${a[1]} ${a[0]}", "core.filesystem:rm-rf"),
    ("a=(src -rf rm); ${a[-1]} ${a[-2]} ${a[-3]}", "core.filesystem:rm-rf"),
    ("declare -A m=([c]=rm [o]=-rf); ${m[c]} ${m[o]} src", "core.filesystem:rm-rf"),
    ("i=1; a=(x rm); ${a[i]} -rf src", "core.filesystem:rm-rf"),
    ('a=(rm -rf src); b=("${a[@]}"); "${b[@]}"', "core.filesystem:rm-rf"),
    ("IFS=,; a=(rm,-rf,src); ${a[*]}", "core.filesystem:rm-rf"),
    ('IFS=,; unset IFS; c="rm -rf src"; $c', "core.filesystem:rm-rf"),
    ('d=build; unset d; rm -rf "src/$d"', "core.filesystem:rm-rf"),
    # A NUL ends a $'…' word for bash.
    ("$'rm\\0junk' -rf src", "core.filesystem:rm-rf"),
    ("$'rm\\c@x' -rf src", "core.filesystem:rm-rf"),
    ("git reset $'--hard\\0'", "core.git:reset-hard"),
    # Builtins that fill variables.
    ('read -a a <<< "rm -rf src"; "${a[@]}"', "core.filesystem:rm-rf"),
    ('read x y <<< "rm -rf src"; $x $y', "core.filesystem:rm-rf"),
    ("read -r <<< 'rm -rf src'; $REPLY", "core.filesystem:rm-rf"),
    ("mapfile -t a <<< $'rm\\n-rf\\nsrc'; \"${a[@]}\"", "core.filesystem:rm-rf"),
    ('readarray -t a <<EOF\nrm\n-rf\nsrc\nEOF\n"${a[@]}"', "core.filesystem:rm-rf"),
    ('printf -v c "rm -rf %s" src; $c', "core.filesystem:rm-rf"),
    ("printf -v c '%s %s %s' rm -rf src; $c", "core.filesystem:rm-rf"),
    ('mapfile -t -C "rm -rf" -c 1 a <<< src', "core.filesystem:rm-rf"),
    ('IFS=: read -a a <<< "rm:-rf:src"; "${a[@]}"', "core.filesystem:rm-rf"),
    ('IFS=: read x y z <<< "rm:-rf:src"; $x $y $z', "core.filesystem:rm-rf"),
    ('read -d "" -a a <<< "rm -rf src"; "${a[@]}"', "core.filesystem:rm-rf"),
    ('while read -r c; do $c; done <<< "rm -rf src"', "core.shell:opaque-exec"),
    ('f(){ local -n r=$1; "${r[@]}"; }; a=(rm -rf src); f a', "core.filesystem:rm-rf"),
    ('mapfile -t a < lines.txt; "${a[@]}"', "core.shell:opaque-exec"),
    ('read -a a < cmds.txt; "${a[@]}"', "core.shell:opaque-exec"),
    # Aliases across lines.
    (A + 'alias x="rm -rf"\nx src', "core.filesystem:rm-rf"),
    (A + "alias g='git reset'\ng --hard", "core.git:reset-hard"),
    (A + "alias ls='rm -rf'\nls src", "core.filesystem:rm-rf"),
    # Code run by prompt expansion and evaluated subscripts.
    ("x='$(rm -rf src)'; echo ${x@P}", "core.filesystem:rm-rf"),
    ("PS4='$(rm -rf src)'; set -x; true", "core.filesystem:rm-rf"),
    ("x='a[$(rm -rf src)]'; echo ${!x}", "core.filesystem:rm-rf"),
    ("declare -n r='a[$(rm -rf src)]'; echo $r", "core.filesystem:rm-rf"),
    ("declare -a a; unset 'a[$(rm -rf src)]'", "core.filesystem:rm-rf"),
    ("read 'a[$(rm -rf src)]' <<< 1", "core.filesystem:rm-rf"),
    ("test -v 'a[$(rm -rf src)]'", "core.filesystem:rm-rf"),
    ("[[ -v 'a[$(rm -rf src)]' ]]", "core.filesystem:rm-rf"),
    ("declare 'a[$(rm -rf src)]=1'", "core.filesystem:rm-rf"),
    ("printf -v 'a[$(rm -rf src)]' x", "core.filesystem:rm-rf"),
    ("x='a[$(rm -rf src)]'; a[x]=1", "core.filesystem:rm-rf"),
]

# Lines that use the same features for everyday work: they pass (and keep the canary).
PASS = [
    'files=(src/*.txt); echo "${#files[@]} files"',
    'f=notes.txt; mv "$f" "${f%.txt}.md"',
    'v=v1.2.3; echo "${v#v}"',
    'name=report; echo "${name^^}" "${name:0:3}"',
    'for f in "${arr[@]}"; do echo "$f"; done',
    "declare -A m=([a]=1 [b]=2); echo ${m[a]} ${!m[@]}",
    "printf -v pad '%05d' 42; echo $pad",
    "mapfile -t lines < notes.txt; echo ${#lines[@]}",
    'read -r first < notes.txt; echo "$first"',
    A + "alias ll='ls -la'\nll src",
    'x=${TMPDIR:-/tmp}; ls "$x"',
    'msg="fix: a/b"; git log --grep "${msg//\\//-}"',
    'a=(one two); a+=(three); echo "${a[*]}"',
    "declare -n ref=count; count=3; echo $ref",
    "hash -r; hash ls; ls -la",
    "read -n 1 -r ans <<< y; echo $ans",
    "n=0; ((n++)); echo $n",
    "a=(one two); echo ${a[@]:1}",
    "v=1; unset v; echo ${v-default}",
    "D=notes.txt bash -c 'cat $D'",
    "printf '%s\\n' one two | sort",
    "echo -e 'a\\tb' | cut -f2",
    "f=a1.txt; echo ${f//[0-9]/}",
    "PATH=/usr/local/bin:$PATH ls -la",
    "cp /bin/ls ./myls; ./myls -la",
    "echo 'a[$(rm -rf src)]'",
    "printf 'a[$(rm -rf src)]\\n'",
]


def _sandbox(home: Path) -> dict[str, str]:
    (home / "src").mkdir(exist_ok=True)
    (home / "src" / "canary").write_text("alive\n")
    (home / "tmp").mkdir(exist_ok=True)
    (home / "notes.txt").write_text("hello\n")
    (home / "lines.txt").write_text("rm\n-rf\nsrc\n")
    (home / "cmds.txt").write_text("rm -rf src\n")
    if BASH is not None:  # a repository whose src/canary holds uncommitted work
        for git in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base"]):
            subprocess.run(["git", *git], cwd=home, env=_git_env(home), check=True)
        (home / "src" / "canary").write_text("work\n")
    return {"HOME": str(home), "TMPDIR": str(home / "tmp"), "PATH": os.environ["PATH"]}


def _git_env(home: Path) -> dict[str, str]:
    return {"HOME": str(home), "PATH": os.environ["PATH"], "GIT_AUTHOR_NAME": "t",
            "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@t"}  # fmt: skip


def _lost(home: Path) -> bool:
    canary = home / "src" / "canary"
    return not canary.exists() or canary.read_text() != "work\n"


def _verdicts(command: str, home: Path) -> dict[str, tuple[str, str]]:
    env = dict(os.environ, HOME=str(home), DCG_RESPONSE_MODE="paranoid", DCG_HOOK_DETAILS="1")
    out: dict[str, tuple[str, str]] = {}
    for agent in AGENTS:
        code, stdout, stderr = run(json.dumps(payload(agent, command, str(home))).encode(), env=env)
        out[agent] = (verdict(code, stdout, stderr), stdout + stderr)
    return out


def _bash(command: str, home: Path, env: dict[str, str]) -> None:
    assert BASH is not None
    subprocess.run([BASH, "-c", command], cwd=home, env=env, timeout=60, check=False,
                   capture_output=True)  # fmt: skip


@pytest.mark.skipif(BASH is None, reason="needs bash")
@pytest.mark.parametrize(("command", "rule"), STOP, ids=[c for c, _ in STOP])
def test_bash_semantics_are_judged(isolated_home: Path, command: str, rule: str) -> None:
    env = _sandbox(isolated_home)
    got = _verdicts(command, isolated_home)
    assert {v for v, _ in got.values()} == {"deny"}, (command, got)
    assert rule in got["claude"][1], (command, got["claude"][1])
    _bash(command, isolated_home, env)
    assert _lost(isolated_home), "bash did not destroy the work: not a bypass"


@pytest.mark.skipif(BASH is None, reason="needs bash")
@pytest.mark.parametrize("command", PASS)
def test_everyday_uses_pass(isolated_home: Path, command: str) -> None:
    env = _sandbox(isolated_home)
    got = _verdicts(command, isolated_home)
    # "warn": let through with a note (the safety net's kept copy of a file mv replaces).
    assert {v for v, _ in got.values()} <= {"none", "warn"}, (command, got)
    _bash(command, isolated_home, env)
    assert not _lost(isolated_home), command
