"""Options whose value a tool runs as a command (issue 32, code that tools run for you):
tar's checkpoint actions and filters, rsync -e, zip -TT, ssh -o ProxyCommand, socat
EXEC:, split --filter, git --upload-pack. Each must-stop line goes through every agent's
hook; those whose tool is installed are run by real bash in a throwaway HOME and must
delete the canary. Everyday uses of the same tools pass.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hookpath import AGENTS, payload, run, verdict

GIT_FOO = "mkdir -p bin; printf '#!/bin/sh\\nrm -rf src\\n' > bin/git-foo; chmod +x bin/git-foo; "
STOP = [
    ("tar cf /dev/null --checkpoint=1 --checkpoint-action=exec='rm -rf src' README", "tar"),
    ("tar cf a.tar README; tar xf a.tar --to-command='rm -rf src #'", "tar"),
    ("tar cf a.tar -I 'rm -rf src #' README", "tar"),
    ("tar cf a.tar --use-compress-program='rm -rf src #' README", "tar"),
    ("rsync -e 'sh -c \"rm -rf src\"' README host:dst", "rsync"),
    ("zip -q -T -TT 'rm -rf src' a.zip README", "zip"),
    ("ssh -o ProxyCommand='rm -rf src' h", "ssh"),
    ("ssh -oProxyCommand='rm -rf src' h", "ssh"),
    ("socat - EXEC:'rm -rf src'", "socat"),
    ("socat - SYSTEM:'rm -rf src'", "socat"),
    ("split --filter='rm -rf src' README", "split"),
    ("git ls-remote --upload-pack='rm -rf src #' .", "git"),
    ("git clone -q -u 'rm -rf src #' . ../cl", "git"),
    ("printf '!rm -rf src\\nq\\n' | ed", "ed"),
    ("printf 'r !rm -rf src\\nq\\n' | ed -s README", "ed"),
    ("printf '#!/bin/sh\\nrm -rf src\\n' > x; chmod +x x; GIT_SSH=./x git fetch -q h:y", "git"),
    ("printf '#!/bin/sh\\nrm -rf src\\n' > ls; chmod +x ls; PATH=.:$PATH ls", "bash"),
    ("printf 'shell rm -rf src\\n' > g; gdb -batch -nx -x g", "gdb"),
    ("printf 'echo x\\n!rm -rf src\\n' > g; gdb -batch -nx --command=g", "gdb"),
    ("printf ':!rm -rf src\\n:q!\\n' > v; vim -u NONE -es -S v", "vim"),
    ("printf 'silent !rm -rf src\\nqa!\\n' > v; vim -u NONE -es -S v", "vim"),
    (GIT_FOO + "GIT_EXEC_PATH=bin git foo", "git"),
    (GIT_FOO + "PATH=$PWD/bin:$PATH git foo", "git"),
    (GIT_FOO + "export PATH=bin:$PATH; git foo -x", "git"),
    ("printf 'shell rm -rf src\\n' > g; gdb -batch -nx -x g", "gdb"),
    ("printf 'echo x\\n!rm -rf src\\n' > g; gdb -batch -nx --command=g", "gdb"),
    ("printf ':!rm -rf src\\n:q!\\n' > v; vim -u NONE -es -S v", "vim"),
    ("printf 'silent !rm -rf src\\nqa!\\n' > v; vim -u NONE -es -S v", "vim"),
    (GIT_FOO + "GIT_EXEC_PATH=bin git foo", "git"),
    (GIT_FOO + "PATH=$PWD/bin:$PATH git foo", "git"),
    (GIT_FOO + "export PATH=bin:$PATH; git foo -x", "git"),
]
PASS = [
    "tar czf out.tgz README",
    "tar xzf out.tgz -C /tmp/x --checkpoint=1000 --checkpoint-action=dot",
    "rsync -av -e ssh src/ host:dst/",
    "ssh -o StrictHostKeyChecking=no host ls",
    "split -l 10 README part-",
    "sort -o out.txt README",
    "git fetch origin",
    "git push -u origin main",
    "git add -u",
    "printf 'set pagination off\\n' > g; gdb -batch -nx -x g",
    "printf 'echo hi\\n' > v; vim -u NONE -es -S v",
    "printf ',p\\nq\\n' | ed -s README",
    "PATH=/usr/local/bin:$PATH ls",
]


def _home(home: Path) -> dict[str, str]:
    (home / "src").mkdir(exist_ok=True)
    (home / "src" / "canary").write_text("alive\n")
    (home / "README").write_text("hello\n")
    (home / "tmp").mkdir(exist_ok=True)
    env = {"HOME": str(home), "TMPDIR": str(home / "tmp"), "PATH": os.environ["PATH"]}
    if shutil.which("git") is not None and not (home / ".git").exists():
        ident = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                 "GIT_COMMITTER_EMAIL": "t@t"}  # fmt: skip
        for args in (["init", "-q"], ["add", "README"], ["commit", "-qm", "base"]):
            subprocess.run(["git", *args], cwd=home, env={**env, **ident}, check=True)
    return env


def _verdicts(command: str, home: Path) -> set[str]:
    env = dict(os.environ, HOME=str(home), DCG_RESPONSE_MODE="paranoid")
    return {
        verdict(*run(json.dumps(payload(agent, command, str(home))).encode(), env=env))
        for agent in AGENTS
    }


@pytest.mark.parametrize(("command", "tool"), STOP, ids=[c for c, _ in STOP])
def test_a_command_in_an_option_is_judged(isolated_home: Path, command: str, tool: str) -> None:
    env = _home(isolated_home)
    assert _verdicts(command, isolated_home) == {"deny"}, command
    if tool in ("ssh", "rsync") or shutil.which(tool) is None or shutil.which("bash") is None:
        return  # ssh/rsync need a host; the others are proven where installed
    subprocess.run(["bash", "-c", command], cwd=isolated_home, env=env, timeout=60,
                   capture_output=True, check=False)  # fmt: skip
    assert not (isolated_home / "src" / "canary").exists(), "the tool did not run it"


@pytest.mark.parametrize("command", PASS)
def test_everyday_uses_pass(isolated_home: Path, command: str) -> None:
    _home(isolated_home)
    assert _verdicts(command, isolated_home) <= {"none", "warn"}, command
