"""Issue 32: code a shell runs before its script, and scripts named the way bash finds them.

A shell reads start-up files and variables before its own script (``BASH_ENV``, ``ENV``,
``--rcfile``, ``HOME``'s ``.bashrc``/``.profile``, ``ZDOTDIR``, ``PROMPT_COMMAND``, a
prompt's ``$(…)``, an exported ``BASH_FUNC_x%%``), and a script operand is found the way
bash finds it: a glob's first match, ``$PWD``, ``~+``, after a ``cd``, stdin from
``0<``/``<>``/``/dev/stdin``, a fifo. Every must-stop line goes through the hook in
every variant of hookpath (later on a line, after a tab, after CRLF, …) and is run by
real bash in a throwaway HOME, where it must delete the canary; the must-pass lines keep it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hookpath import VARIANTS, payload, run, verdict

W = "echo 'rm -rf src' > w.sh && "
STOP = [
    # start-up files and variables
    (W + "BASH_ENV=w.sh bash -c true", "core.filesystem:rm-rf"),
    (W + "export BASH_ENV=./w.sh; bash -c 'echo hi'", "core.filesystem:rm-rf"),
    (W + "env BASH_ENV=w.sh bash -c true", "core.filesystem:rm-rf"),
    (W + "ENV=./w.sh sh -i </dev/null", "core.filesystem:rm-rf"),
    (W + "bash --rcfile w.sh -i </dev/null", "core.filesystem:rm-rf"),
    (W + "bash --init-file ./w.sh -i </dev/null", "core.filesystem:rm-rf"),
    ("echo 'rm -rf src' > .bashrc && HOME=. bash -i </dev/null", "core.filesystem:rm-rf"),
    ("echo 'rm -rf src' > .profile && HOME=. bash -l -c true", "core.filesystem:rm-rf"),
    ("echo 'rm -rf src' > .bash_profile; HOME=. bash --login -c :", "core.filesystem:rm-rf"),
    ("env 'BASH_FUNC_ls%%=() { rm -rf src; }' bash -c ls", "core.filesystem:rm-rf"),
    ("PROMPT_COMMAND='rm -rf src' bash -i </dev/null", "core.filesystem:rm-rf"),
    (
        W + "export BASH_ENV=$PWD/w.sh; printf '#!/bin/bash\\n:\\n' > b; chmod +x b; ./b",
        "core.filesystem:rm-rf",
    ),
    (W + "timeout 5 env BASH_ENV=w.sh bash -c :", "core.filesystem:rm-rf"),
    (W + "BASH_ENV=w.sh /bin/bash -c :", "core.filesystem:rm-rf"),
    (W + "x=w.sh; BASH_ENV=$x command bash -c :", "core.filesystem:rm-rf"),
    (W + "ENV=w.sh dash -i </dev/null", "core.filesystem:rm-rf"),
    ("echo 'rm -rf src' > .bashrc; HOME=. bash -ic true", "core.filesystem:rm-rf"),
    ("PS1='$(rm -rf src)> ' bash --norc -i </dev/null", "core.filesystem:rm-rf"),
    ("PS4='+`rm -rf src` ' bash -xc true", "core.filesystem:rm-rf"),
    (W + "BASH_ENV=$(ls w.sh) bash -c true", "core.shell:opaque-exec"),
    # where the script is: globs, $PWD, ~+, cd, stdin, fifos
    (W + "sh ./*.sh", "core.filesystem:rm-rf"),
    (W + "bash w*", "core.filesystem:rm-rf"),
    (W + ". ./w.s?", "core.filesystem:rm-rf"),
    (W + "bash [w].sh", "core.filesystem:rm-rf"),
    (W + 'sh "$PWD/w.sh"', "core.filesystem:rm-rf"),
    (W + "sh ~+/w.sh", "core.filesystem:rm-rf"),
    (W + "sh $(ls *.sh)", "core.shell:opaque-exec"),
    (W + "for f in *.sh; do sh $f; done", "core.filesystem:rm-rf"),
    (W + "find . -name w.sh -exec sh {} \\;", "core.shell:opaque-exec"),
    (W + "ls *.sh | xargs -I{} bash {}", "core.shell:opaque-exec"),
    ("mkdir d && echo 'rm -rf ../src' > d/x.sh && cd d && sh x.sh", "core.filesystem:rm-rf"),
    ("cd src && echo 'rm -rf src' > ../x.sh && cd .. && bash x.sh", "core.filesystem:rm-rf"),
    (W + "bash 0< w.sh", "core.filesystem:rm-rf"),
    (W + "bash <> w.sh", "core.filesystem:rm-rf"),
    (W + "bash /dev/stdin < w.sh", "core.filesystem:rm-rf"),
    (W + "source /dev/stdin < w.sh", "core.filesystem:rm-rf"),
    (W + "cat w.sh | sh /dev/fd/0", "core.filesystem:rm-rf"),
    ("mkfifo f; (echo 'rm -rf src' > f &); bash f", "core.filesystem:rm-rf"),
    # shells fed at run time: coprocesses, output process substitutions, descriptors
    ("coproc B { bash; }; echo 'rm -rf src; exit' >&${B[1]}; wait", "core.shell:opaque-exec"),
    ("coproc bash; echo 'rm -rf src; exit' >&${COPROC[1]}; wait", "core.shell:opaque-exec"),
    ("echo 'rm -rf src' > >(bash); sleep 1", "core.shell:opaque-exec"),
    ("echo 'rm -rf src' | tee >(bash) >/dev/null; sleep 1", "core.shell:opaque-exec"),
    ("exec 3> >(sh); echo 'rm -rf src' >&3; exec 3>&-; sleep 1", "core.shell:opaque-exec"),
    ("exec 3<<<'rm -rf src'; bash <&3", "core.shell:opaque-exec"),
    (W + "exec 4< w.sh; bash 0<&4", "core.shell:opaque-exec"),
    ("echo 'rm -rf src' 1> w.sh; bash < w.sh", "core.filesystem:rm-rf"),
    (W + "xargs -a w.sh -I{} bash -c {}", "core.filesystem:rm-rf"),  # the file's lines are read
    (
        "echo 'rm -rf src' | xargs -I% sh -c %",
        "core.filesystem:rm-rf",
    ),  # xargs puts each line in place of %
    (W + "cp w.sh run; bash run", "core.filesystem:rm-rf"),
    (W + "mkfifo p; (cat $(ls w*) > p &); source p", "core.shell:opaque-exec"),
]
PASS = [
    "bash -c 'echo hi'",
    "bash -i </dev/null",
    "bash -l -c 'echo hi'",
    "PS1='\\u@\\h \\$ ' bash -i </dev/null",
    "env FOO=a=b bash -c 'echo $FOO'",
    "bash $PWD/x-ok.sh",
    "sh ./x-*.sh",
    "cd src && bash ../x-ok.sh",
    "bash < x-ok.sh",
    "cat x-ok.sh | bash /dev/stdin",
    "bash -n ./*.sh",
    "find . -name '*.sh' -exec bash -n {} \\;",
    "echo 'echo hi' > h.sh && BASH_ENV=h.sh bash -c true",
    "echo 'echo hi' > h.sh && sh ./h*.sh",
    "diff <(ls src) <(ls .)",
    "tee >(wc -l > count.txt) < x-ok.sh > /dev/null",
    "ls | xargs -I{} bash -c 'echo {}'",
    "coproc sleep 1; wait",
    "bash --version",
]


def _home(home: Path) -> dict[str, str]:
    (home / "src").mkdir(exist_ok=True)
    (home / "src" / "canary").write_text("alive\n")
    (home / "x-ok.sh").write_text("echo ok\n")
    (home / "tmp").mkdir(exist_ok=True)
    return {"HOME": str(home), "TMPDIR": str(home / "tmp"), "PATH": os.environ["PATH"]}


def _answer(command: str, home: Path) -> tuple[str, str]:
    env = dict(os.environ, HOME=str(home), DCG_RESPONSE_MODE="paranoid", DCG_HOOK_DETAILS="1")
    code, out, err = run(json.dumps(payload("claude", command, str(home))).encode(), env=env)
    return verdict(code, out, err), out


def _bash(command: str, home: Path) -> None:
    env = _home(home)
    subprocess.run(["bash", "-c", command], cwd=home, env=env, stdin=subprocess.DEVNULL,
                   timeout=30, capture_output=True, check=False)  # fmt: skip


@pytest.mark.parametrize(("command", "rule"), STOP, ids=[c for c, _ in STOP])
def test_code_a_shell_runs_first_or_finds_is_judged(
    isolated_home: Path, command: str, rule: str
) -> None:
    _home(isolated_home)
    for name, variant in VARIANTS.items():
        if name == "heredoc" and "<" in command:
            continue  # its stdin is the heredoc, not the file
        line = variant(command)
        answer, out = _answer(line, isolated_home)
        assert answer == "deny", (name, line, out)
        assert f'"ruleId":"{rule}"' in out.replace(" ", "") or rule in out, (name, out)
    if shutil.which("bash") is None or ("PS4=" in command and os.geteuid() == 0):
        return  # bash ignores an inherited PS4 when run as root (it is code for everyone else)
    _bash(command, isolated_home)
    assert not (isolated_home / "src" / "canary").exists(), "bash did not run it"


@pytest.mark.parametrize("command", PASS)
def test_shells_that_run_nothing_hidden_pass(isolated_home: Path, command: str) -> None:
    _home(isolated_home)
    answer, out = _answer(command, isolated_home)
    assert answer in ("none", "warn"), out
    _bash(command, isolated_home)
    assert (isolated_home / "src" / "canary").exists()
