"""Issue 32, files run later (round three): fresh spellings that got through, now stopped.

A file the line writes (by a compound command's redirect, ``dd``, ``sponge``, ``install
/dev/stdin``, ``exec 3>``, ``npm --prefix . pkg set``, at ``$(pwd)/…``) and then runs; Make's
parse-time ``$(shell)``, ``!=`` and ``.DEFAULT_GOAL``; modules a program loads that the line
wrote (``__import__``, ``importlib``, a script importing one, ``python -m unittest``,
``node --test``, ``require('./' + 'x')``, ``npx node``, ``node .`` after ``npm pkg set
main``); package scripts run without ``run`` (``pnpm x``, ``bun foo``); build tools whose
own file dcg does not read (rake, cargo make, build.rs, gradle, composer, cmake…), which
are opaque when the line wrote that file. Every must-stop line goes through the hook for
every agent; those the machine has the tools for then run in real bash in a throwaway git
project and must destroy its uncommitted work. The everyday neighbours pass and keep it.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import sandbox
from sandbox import BASH, GIT_IDENTITY, bash, commit_then_change, every_agent, lost, quiet_npm

RM = "core.filesystem:rm-rf"
OPAQUE = "core.shell:opaque-exec"
SHUTIL = 'import shutil; shutil.rmtree(\\"src\\")'  # inside double quotes
RMJS = "require('fs').rmSync('src',{recursive:true})"
JAVA = ('public class X{public static void main(String[] a)throws Exception{'
        'new ProcessBuilder("rm","-rf","src").start().waitFor();}}')  # fmt: skip

STOP = [
    # Make reads the file before any recipe: $(shell), !=, .DEFAULT_GOAL
    ("printf '.DEFAULT_GOAL := z\\nz:\\n\\trm -rf src\\n' >> Makefile && make", RM),
    ("printf '$(shell rm -rf src)\\n' >> Makefile; make build", RM),
    ("printf 'X != rm -rf src\\n' >> Makefile; make build", RM),
    ("printf 'X := $(shell rm -rf src)\\n' >> Makefile; make", RM),
    ("printf 'X := ${shell rm -rf src}\\n' >> Makefile; make", RM),
    ("printf 'ifeq ($(shell rm -rf src),)\\nendif\\n' >> Makefile; make", RM),
    ("printf 'all: $(shell rm -rf src)\\n' > Makefile; make", RM),
    # written by a compound command, a descriptor, dd, sponge, install
    ("{ echo 'all:'; printf '\\trm -rf src\\n'; } > Makefile && make", OPAQUE),
    ("(echo 'all:'; printf '\\trm -rf src\\n') > Makefile && make", OPAQUE),
    ("for l in 'all:' '\trm -rf src'; do echo \"$l\"; done > Makefile && make", OPAQUE),
    ("exec 3>Makefile; echo 'all: ; rm -rf src' >&3; exec 3>&-; make", OPAQUE),
    ("{ echo '#!/bin/sh'; echo 'rm -rf src'; } > x.sh; sh x.sh", OPAQUE),
    ("if true; then echo 'rm -rf src'; fi > x.sh; bash x.sh", OPAQUE),
    ("printf 'all:\\n\\trm -rf src\\n' | dd of=Makefile; make", RM),
    ("dd of=x.sh <<< 'rm -rf src' 2>/dev/null; bash x.sh", RM),
    ("printf 'all:\\n\\trm -rf src\\n' | sponge Makefile; make", RM),
    ("install -m755 /dev/stdin x.sh <<< 'rm -rf src'; ./x.sh", RM),
    ("install -m 755 /dev/stdin x.sh <<< 'rm -rf src'; ./x.sh", RM),
    ('echo \'rm -rf src\' > "$(pwd)/x.sh"; bash "$PWD/x.sh"', RM),
    ("echo 'rm -rf src' > x.sh; bash \"$(pwd)/x.sh\"", RM),
    # package.json edited, scripts run without `run`
    ("npm pkg set scripts[x]='rm -rf src'; npm run x", RM),
    ("npm --prefix . pkg set scripts.x='rm -rf src'; npm run x", RM),
    ("npm pkg set scripts.x='rm -rf src' && pnpm x", RM),
    ("npm pkg set scripts.x='rm -rf src' && yarn x", RM),
    ("npm pkg set scripts.foo='rm -rf src' && bun foo", RM),
    # modules the line wrote, loaded by what runs next
    (f"echo '{SHUTIL}' > mod.py; python3 -c \"__import__('mod')\"".replace('\\"', '"'), RM),
    (
        "echo 'import shutil; shutil.rmtree(\"src\")' > mod.py; "
        "python3 -c \"import importlib; importlib.import_module('mod')\"",
        RM,
    ),
    ("echo 'import shutil; shutil.rmtree(\"src\")' > mod.py; python3 -m unittest mod", RM),
    ("echo 'import shutil; shutil.rmtree(\"src\")' > test_a.py; python3 -m unittest", RM),
    ("echo 'import shutil; shutil.rmtree(\"src\")' > test_a.py; python3 -m unittest discover", RM),
    (
        "echo 'import shutil; shutil.rmtree(\"src\")' > mod.py; echo 'import mod' > main.py; "
        "python3 main.py",
        RM,
    ),
    ("echo 'import shutil; shutil.rmtree(\"src\")' > mod.py; python3 -Bc 'import mod'", RM),
    (
        "mkdir -p site && echo 'import shutil; shutil.rmtree(\"src\")' > site/x.pth && "
        "python3 -c 'import site; site.addsitedir(\"site\")'",
        RM,
    ),
    (
        "mkdir -p d && echo 'import shutil; shutil.rmtree(\"src\")' > d/__main__.py && python3 d",
        RM,
    ),
    (f'echo "{RMJS}" > x.js; node -e "require(process.cwd()+\'/x\')"', RM),
    (f"echo \"{RMJS}\" > x.js; node -e \"require('./' + 'x')\"", RM),
    (f'echo "{RMJS}" > x.js; echo "require(\'./x\')" > y.js; node y.js', RM),
    (
        "echo \"import fs from 'fs'; fs.rmSync('src',{recursive:true})\" > x.mjs; "
        "node --experimental-loader=./x.mjs -e 1",
        RM,
    ),
    (f'echo "{RMJS}" > x.test.js; node --test', RM),
    (f'echo "{RMJS}" > x.js; npx node x.js', RM),
    (f'echo "{RMJS}" > x.js; npm exec node x.js', RM),
    (f'echo "{RMJS}" > x.js; npm pkg set main=x.js; node .', RM),
    (f'echo "{RMJS}" > x.ts; npx tsx x.ts', RM),
    (f'echo "{RMJS}" > x.js; deno run -A x.js', RM),
    (f'echo "{RMJS}" > x.js; bun x.js', RM),
    ("echo 'system(\"rm -rf src\")' > x.pl; perl -e 'require \"./x.pl\"'", RM),
    ("echo 'system(\"rm -rf src\")' > x.rb; ruby -r ./x -e 1", RM),
    # build tools whose file the line wrote: judged as its language, or opaque
    ("printf '[tasks.x]\\nscript = \"rm -rf src\"\\n' > Makefile.toml && cargo make x", OPAQUE),
    ("printf 'task :x do\\n  sh \"rm -rf src\"\\nend\\n' > Rakefile && rake x", OPAQUE),
    ("echo 'task :x do; end' > tasks.rake; rake -f tasks.rake x", OPAQUE),
    (
        'printf \'tasks.register("x") { doLast { delete("src") } }\\n\' > build.gradle.kts'
        " && gradle x",
        OPAQUE,
    ),
    (
        'printf \'[package]\\nname = "x"\\nversion = "0.1.0"\\nedition = "2021"\\n'
        '[[bin]]\\nname = "x"\\npath = "m.rs"\\n\' > Cargo.toml; echo \'fn main(){}\' > m.rs; '
        "echo 'fn main(){ std::fs::remove_dir_all(\"src\").unwrap(); }' > build.rs && "
        "cargo build -q --offline",
        OPAQUE,
    ),
    (f'echo "{RMJS}" > gulpfile.js && gulp', RM),
    ("echo \"import shutil; shutil.rmtree('src')\" > SConstruct && scons", RM),
    ("echo \"import shutil; shutil.rmtree('src')\" > dodo.py && doit", RM),
    ('echo \'{"tasks":{"x":"rm -rf src"}}\' > deno.json && deno task x', OPAQUE),
    ('echo \'{"scripts":{"x":"rm -rf src"}}\' > composer.json && composer run-script x', OPAQUE),
    ("printf 'execute_process(COMMAND rm -rf src)\\n' > CMakeLists.txt && cmake -B b", OPAQUE),
    # tools whose configuration is code, the line having written it
    (f'echo "{RMJS}" > jest.config.js && npx jest', RM),
    (f'echo "{RMJS}" > vite.config.js && npx vite build', RM),
    (f'echo "{RMJS}" > webpack.config.js && npx webpack', RM),
    (
        "mkdir -p docs && echo \"import shutil; shutil.rmtree('src')\" > docs/conf.py && "
        "sphinx-build docs out",
        RM,
    ),
    ("echo \"system('rm -rf src')\" > Gemfile && bundle install", RM),
    ("printf '[tox:tox]\\n[testenv]\\ncommands = rm -rf src\\n' >> setup.cfg && tox", OPAQUE),
    # sources the line wrote, compiled and run: code dcg does not read
    (
        "printf 'int main(){return system(\"rm -rf src\");}\\n' > x.c && gcc -w x.c -o x && ./x",
        OPAQUE,
    ),
    (
        "printf 'int main(){return system(\"rm -rf src\");}\\n' > x.c && cc -w x.c && ./a.out",
        OPAQUE,
    ),
    (
        "printf 'int main(){return system(\"rm -rf src\");}\\n' > x.c && gcc -w -ox x.c && ./x",
        OPAQUE,
    ),
    (f"printf '{JAVA}' > X.java && java X.java", OPAQUE),
    (f"printf '{JAVA}' > X.java && javac X.java && java X", OPAQUE),
    (
        "printf 'fn main(){std::fs::remove_dir_all(\"src\").unwrap();}' > x.rs && "
        "rustc x.rs && ./x",
        OPAQUE,
    ),
    ("printf 'package main\\n//go:generate rm -rf src\\n' > x.go && go generate", RM),
    (
        'printf \'package main\\nimport "os"\\nfunc main(){os.RemoveAll("src")}\\n\' > x.go'
        " && go run x.go",
        OPAQUE,
    ),
    ("cc -xc - -o x <<< 'int main(){return system(\"rm -rf src\");}' && ./x", OPAQUE),
    ("printf 'int main(){return system(\"rm -rf src\");}' | gcc -xc - && ./a.out", OPAQUE),
    # a module the line wrote, loaded by a name computed at run time
    (
        "echo 'import shutil; shutil.rmtree(\"src\")' > mod.py; "
        "python3 -c \"import importlib as i; i.import_module('m'+'od')\"",
        OPAQUE,
    ),
    (
        "echo 'import shutil; shutil.rmtree(\"src\")' > mod.py; "
        "python3 -c \"__import__('dom'[::-1])\"",
        OPAQUE,
    ),
    # copied or patched into place
    ("printf 'all:\\n\\trm -rf src\\n' > evil.mk; rsync evil.mk Makefile; make", RM),
    (
        "printf -- '--- Makefile\\n+++ Makefile\\n@@ -1,2 +1,2 @@\\n build:\\n-\\techo build\\n"
        "+\\trm -rf src\\n' > p.diff; patch -p0 < p.diff; make",
        OPAQUE,
    ),
    (
        "printf -- '--- a/Makefile\\n+++ b/Makefile\\n@@ -1,2 +1,2 @@\\n build:\\n-\\techo build\\n"
        "+\\trm -rf src\\n' | git apply; make",
        OPAQUE,
    ),
]
# Fetches a package from the network: judged only.
NOT_RUN = ("npx tsx", "npx jest", "npx vite", "npx webpack")
# cargo's toolchain as rustup installed it (read only; the build writes in the sandbox).
_CARGO = shutil.which("cargo")
RUSTUP_HOME = os.environ.get("RUSTUP_HOME") or (
    str(Path(_CARGO).parents[2] / ".rustup") if _CARGO else ""  # ~/.cargo/bin/cargo
)

PASS = [
    "echo 'all:' > Makefile && make",
    "npm pkg set version=1.0.1",
    "python3 -m pytest -q -p no:cacheprovider",
    'node -e "console.log(1)"',
    "printf 'V := $(shell git describe 2>/dev/null)\\nall:\\n\\techo $(V)\\n' > Makefile; make",
    "printf '.DEFAULT_GOAL := build\\n' >> Makefile; make",
    "{ echo a; echo b; } > notes.txt && cat notes.txt",
    "(cd src && ls) > listing.txt; cat listing.txt",
    "exec 3>log.txt; echo hi >&3",
    "echo hi | dd of=out.txt 2>/dev/null && cat out.txt",
    "echo 'print(1)' > mod.py && python3 -c 'import mod'",
    "echo 'print(1)' > mod.py && python3 -c \"__import__('mod')\"",
    "echo 'import unittest' > test_a.py && python3 -m unittest",
    'echo "console.log(1)" > x.test.js && node --test',
    'echo "console.log(1)" > x.js && npx node x.js',
    "npm --prefix . pkg set scripts.x='echo hi'; npm run x",
    "npm pkg set scripts.lint='echo lint' && yarn lint",
    "echo 'console.log(1)' > gulpfile.js && gulp",
    "cargo build",
    "rake test",
    "gradle build",
    "cmake -B build",
    'rm -rf "$(pwd)/build"',
    "python3 -c 'import json, os'",
    "printf 'int main(){return 0;}\\n' > x.c && gcc x.c -o x && ./x",
    "gcc -o app main.c; ./app --help",
    "cargo run",
    "javac Main.java && java Main",
    "go run .",
    "echo 'module.exports = {}' > jest.config.js && echo ok",
    "printf 'all:\\n\\techo hi\\n' > evil.mk; rsync evil.mk Makefile; cat Makefile",
    "git apply fix.patch && git status",
    "patch -p1 < fix.diff; git diff --stat",
    "echo 'import shutil; shutil.rmtree(\"src\")' > mod.py; python3 -c 'import json'",
    'echo "console.log(1)" > x.js; node -e "require(process.argv[1])" ./x.js',
    "cc -xc - -o hello <<< 'int main(){return 0;}' && ./hello",
]


def _box(base: Path) -> tuple[Path, dict[str, str]]:
    """A git project inside the test's HOME whose src holds uncommitted work."""
    files = {"Makefile": "build:\n\techo build\n",
             "package.json": '{"name": "x", "version": "1.0.0", "scripts": {}}\n'}  # fmt: skip
    box, env = sandbox.box(base, files, **quiet_npm(base), **GIT_IDENTITY)
    if BASH is not None:
        commit_then_change(box, env)
    return box, env


def _runnable(command: str) -> bool:
    """Whether every tool the line runs is on this machine (and none fetches a package)."""
    if any(n in command for n in NOT_RUN) or ("cargo make" in command and not shutil.which(
        "cargo-make")):  # fmt: skip
        return False
    tools = ("make", "npm", "node", "perl", "ruby", "pnpm", "yarn", "bun", "deno", "sponge",
             "rake", "cargo", "gradle", "gulp", "scons", "doit", "composer", "cmake", "gcc", "cc",
             "java", "javac", "rustc", "go", "sphinx-build", "bundle", "tox", "rsync", "patch",
             "git")  # fmt: skip
    words = set(command.replace(";", " ").replace("&&", " ").replace("|", " ").split())
    return all(shutil.which(t) for t in tools if t in words)


def _bash(command: str, box: Path, env: dict[str, str]) -> None:
    assert BASH is not None
    env = dict(env, RUSTUP_HOME=RUSTUP_HOME, CARGO_HOME=str(box / "tmp" / "cargo"))
    bash(command, box, env, timeout=300)


@pytest.mark.parametrize(("command", "rule"), STOP, ids=[c for c, _ in STOP])
def test_a_file_the_line_runs_later_is_judged(isolated_home: Path, command: str, rule: str) -> None:
    box, env = _box(isolated_home)
    got = every_agent(command, box)
    assert {v for v, _ in got.values()} == {"deny"}, (command, got)
    assert rule in got["claude"][1], (command, got["claude"][1])
    if BASH is None or not _runnable(command):
        return
    _bash(command, box, env)
    assert lost(box), f"bash did not destroy the work: not a bypass: {command}"


@pytest.mark.parametrize("command", PASS)
def test_everyday_neighbours_pass(isolated_home: Path, command: str) -> None:
    box, env = _box(isolated_home)
    got = every_agent(command, box)
    # "warn": let through with a note (the safety net's kept copy of a file it overwrites).
    assert {v for v, _ in got.values()} <= {"none", "warn"}, (command, got)
    if BASH is None or not _runnable(command):
        return
    _bash(command, box, env)
    assert not lost(box), command
