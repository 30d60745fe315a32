"""Programs that run a file, a string or keys they are given (issue 32): tmux's ``-c``,
``send-keys`` key names and hex, ``load-buffer FILE``; screen's ``stuff`` escapes, ``eval``,
``-c``/``source`` files; vim/ex filters (``%!sh``) fed the edited file, ``-S``/``-u``/
``:source``/``-s`` files; ``awk -f``; ``gdb -x``/``source``/``python``; Tcl and expect
scripts; m4's ``syscmd``; Lua's ``os.execute``; ``xargs -a FILE sh -c``; ``parallel sh -c
:::``; ``entr -s``; ``docker run IMAGE`` with no command on a writable host mount
(dcg.shell.cmdfiles, dcg.shell.detached, dcg.shell.escapes, dcg.shell.langescapes).

Each must-stop line goes through the hook with a real Claude Code payload in every hookpath
variant, in a git project with uncommitted work in src/; it is then run by real bash in
that project (HOME, TMPDIR, TMUX_TMPDIR and SCREENDIR inside it; a tmux server or screen
session named ``s`` started there first and ended after), where it must destroy that work
(skipped when its program is not installed). Each must-pass line stays silent and keeps the
work in real bash too.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from hookpath import VARIANTS
from sandbox import CANARY, box, claude_hook, commit_then_change, lost

RM = "core.filesystem:rm-rf"
RESET = "core.git:reset-hard"
OPAQUE = "core.shell:opaque-exec"
FILES = {
    "notes.txt": "b\na\n",
    "typed.txt": "rm -rf src\n",
    "quoted.txt": "'rm -rf src'\n",
    "prog.awk": 'BEGIN { system("rm -rf src") }\n',
    "lib.awk": 'function f() { system("rm -rf src") }\nBEGIN { f() }\n',
    "main.awk": '@include "lib.awk"\n',
    "fmt.awk": "{ print $1 }\n",
    "bang.vim": "!rm -rf src\n",
    "sys.vim": "call system('rm -rf src')\n",
    "nested.vim": "source bang.vim\n",
    "keys.txt": ":!rm -rf src\n:qa!\n",
    "gdbcmds": "shell rm -rf src\n",
    "gdbpy": "python\nimport shutil\nshutil.rmtree('src')\nend\n",
    "gdb.py": "import shutil\nshutil.rmtree('src')\n",
    "sourced.gdb": "source gdbcmds\n",
    "f.tcl": "exec rm -rf src\n",
    "run.tcl": "exec sh -c {rm -rf src}\n",
    "src.tcl": "source f.tcl\n",
    "f.exp": "exec rm -rf src\n",
    "x.m4": "syscmd(`rm -rf src')\n",
    "inc.m4": "include(`x.m4')\n",
    "f.lua": 'os.execute("rm -rf src")\n',
    "screenrc": "screen sh -c 'rm -rf src'\n",
    "tmux.conf": "run-shell 'rm -rf src'\n",
}
# (line, rule, program that must be installed to prove it)
STOP = [
    # tmux: its own -c, keys by name or hex, a buffer loaded from a file
    ("tmux -c 'rm -rf src'", RM, "tmux"),
    ("tmux -uc 'git reset --hard'", RESET, "tmux"),
    ("tmux -L t -f /dev/null -c 'rm -rf src'", RM, "tmux"),
    ("tmux send-keys -t s rm Space -rf Space src C-m", RM, "tmux"),
    ("tmux send -t s 'rm -rf' ' src' Enter", RM, "tmux"),
    ("tmux send-keys -t s r m Space - r f Space s r c Enter", RM, "tmux"),
    ("tmux send-keys -t s -H 72 6d 20 2d 72 66 20 73 72 63 0d", RM, "tmux"),
    ("tmux send-keys -t s -l 'rm -rf src' \\; send-keys -t s Enter", RM, "tmux"),
    ("tmux send-keys -t s 'rm -rf /tmp/nothing' C-u 'rm -rf src' C-m", RM, "tmux"),
    ("tmux load-buffer typed.txt \\; paste-buffer -t s", RM, "tmux"),
    ("tmux loadb -b x typed.txt && tmux pasteb -b x -t s", RM, "tmux"),
    ("tmux send-keys -t s git Space reset Space --hard Enter", RESET, "tmux"),
    # screen: stuff's escapes, eval, register, files it reads
    ("screen -S s -X stuff 'rm -rf src^M'", RM, "screen"),
    ("screen -S s -p 0 -X stuff 'rm -rf src\\015'", RM, "screen"),
    ("screen -S s -X eval 'stuff \"rm -rf src\\n\"'", RM, "screen"),
    ("screen -S s -X readbuf typed.txt && screen -S s -X paste .", RM, "screen"),
    ("screen -c screenrc -dmS t", RM, "screen"),
    ("screen -S s -X source screenrc", RM, "screen"),
    # vim/ex: the buffer filtered through a shell, scripts it sources, keys it types
    ("vim -es -c '%!sh' -c 'q!' typed.txt", RM, "vim"),
    ("ex -sc '%!bash' typed.txt", RM, "ex"),
    ("vi -es '+%!sh' '+q!' typed.txt", RM, "vi"),
    ("vim -es -c '1,$!bash' -c 'q!' typed.txt", RM, "vim"),
    ("vim -es -c 'w !sh' -c 'q!' typed.txt", RM, "vim"),
    ("ex -s -c '%!sh' -c 'q!' typed.txt", RM, "ex"),
    ("vim -es -S nested.vim -c 'qa!'", RM, "vim"),
    ("vim -es -u sys.vim -c 'qa!'", RM, "vim"),
    ("vim -es --cmd 'so bang.vim' -c 'qa!'", RM, "vim"),
    ("vim -es -c 'source sys.vim' -c 'qa!'", RM, "vim"),
    ("vim -es < bang.vim", RM, "vim"),
    ("vim -es -c 'silent %!sh' -c 'q!' typed.txt", RM, "vim"),
    ("vim -es -c 'call setline(1, \"rm -rf src\")' -c '%!sh' -c 'q!'", OPAQUE, "vim"),
    # awk programs in files
    ("awk -f prog.awk", RM, "awk"),
    ("gawk -f lib.awk", RM, "gawk"),
    ("awk --file=prog.awk", RM, "gawk"),
    ("awk -fprog.awk /dev/null", RM, "gawk"),
    ("gawk -f main.awk", RM, "gawk"),
    ("gawk -E prog.awk", RM, "gawk"),
    ("echo x | mawk -f prog.awk", RM, "mawk"),
    # gdb command files and Python
    ("gdb -batch -x gdbcmds", RM, "gdb"),
    ("gdb -q -batch --command=gdbcmds", RM, "gdb"),
    ("gdb -batch -ex 'source gdbcmds'", RM, "gdb"),
    ("gdb -batch -x sourced.gdb", RM, "gdb"),
    ("gdb -batch -x gdb.py", RM, "gdb"),
    ("gdb -batch -x gdbpy", RM, "gdb"),
    ("gdb -q < gdbcmds", RM, "gdb"),
    # Tcl, expect
    ("tclsh f.tcl", RM, "tclsh"),
    ("tclsh run.tcl arg", RM, "tclsh"),
    ("tclsh src.tcl", RM, "tclsh"),
    ("tclsh < f.tcl", RM, "tclsh"),
    ("tclsh <<< 'source f.tcl'", RM, "tclsh"),
    ("echo 'source f.tcl' | tclsh", RM, "tclsh"),
    ("wish f.tcl", RM, "wish-display"),
    ("expect -f f.exp", RM, "expect"),
    ("expect f.exp", RM, "expect"),
    # m4
    ("m4 x.m4", RM, "m4"),
    ("m4 inc.m4", RM, "m4"),
    ("m4 < x.m4", RM, "m4"),
    ("m4 - < x.m4 > /dev/null", RM, "m4"),
    ("echo 'm4_syscmd(rm -rf src)' | m4 -P", RM, "m4"),
    ("echo 'syscmd(rm -rf src)' | m4", RM, "m4"),
    ("m4 <<< 'esyscmd(`rm -rf src'\"'\"')'", RM, "m4"),
    ("m4 <<'M'\nsyscmd(`git reset --hard')\nM", RESET, "m4"),
    # Lua
    ("lua f.lua", RM, "lua"),
    ("lua -e 'dofile(\"f.lua\")'", RM, "lua"),
    ("lua -e 'os.execute(\"rm -rf src\")'", RM, "lua"),
    ("lua -e \"io.popen('rm -rf src')\"", RM, "lua"),
    ("lua -e 'x=\"rm -rf src\"; os.execute(x)'", OPAQUE, "lua"),
    # xargs and parallel handing words to code
    ("xargs -d '\\n' -a typed.txt sh -c", RM, "xargs"),
    ("xargs -a quoted.txt sh -c", RM, "xargs"),
    ("xargs --arg-file=quoted.txt bash -c", RM, "xargs"),
    ("xargs -d '\\n' sh -c < typed.txt", RM, "xargs"),
    ("xargs -a typed.txt -d '\\n' -I CMD sh -c CMD", RM, "xargs"),
    ("cat typed.txt | xargs -d '\\n' sh -c", OPAQUE, "xargs"),
    ("parallel -j1 sh -c ::: 'rm -rf src'", RM, "gnu-parallel"),
    ("parallel bash -c ::: 'rm -rf src'", RM, "gnu-parallel"),
    ("parallel sh -c -- 'rm -rf src'", RM, "moreutils-parallel"),
    ("parallel -i sh -c '{}' -- 'rm -rf src'", RM, "moreutils-parallel"),
    # entr's shell string
    ("echo typed.txt | entr -s 'rm -rf src'", RM, "entr"),
    # docker: the image's own command on the project
    ('docker run -v "$PWD":/w alpine', OPAQUE, "docker-daemon"),
    ('docker run --rm -v "$PWD":/w -w /w myimage', OPAQUE, "docker-daemon"),
    ('docker run --mount type=bind,src="$PWD",dst=/w myimage', OPAQUE, "docker-daemon"),
    ('docker run -itv "$PWD":/w myimage', OPAQUE, "docker-daemon"),
    ('docker run -itv "$PWD":/w alpine rm -rf /w/src', RM, "docker-daemon"),
    ('docker run -v "$(pwd)":/w --entrypoint sh alpine -c "rm -rf /w/src"', RM, "docker-daemon"),
]
# (line, program)
PASS = [
    ("tmux send-keys -t s 'echo hi' Enter", "tmux"),
    ("tmux send-keys -t s C-c", "tmux"),
    ("tmux load-buffer notes.txt", "tmux"),
    ("screen -S s -X stuff 'ls\\n'", "screen"),
    ("vim -es -c '%!sort' -c wq notes.txt", "vim"),
    ("vim -u NONE -es -c 'wq' notes.txt", "vim"),
    ("vim -es -c '%s/a/b/g' -c wq notes.txt", "vim"),
    ("vim -es -c 'silent! %!sort' -c wq notes.txt", "vim"),
    ("echo 'puts hi' | tclsh", "tclsh"),
    ("awk -f fmt.awk notes.txt", "awk"),
    ("gdb -batch -ex bt", "gdb"),
    ("m4 -D foo=bar notes.txt", "m4"),
    ("xargs -a notes.txt echo", "xargs"),
    ("parallel echo {} ::: a b", "gnu-parallel"),
    ("parallel echo -- a b", "moreutils-parallel"),
    ("echo 'syscmd(rm -rf src)' | m4 -P", "m4"),
    ("gdb -batch < gdbcmds", "gdb"),
    ("docker run alpine", "docker-daemon"),
    ('docker run -v "$PWD":/w:ro myimage', "docker-daemon"),
    ("docker run -v data:/var/lib/x myimage", "docker-daemon"),
    ('D=$(mktemp -d); docker run -d -v "$D:/var/lib/postgresql/data" postgres:16', "docker-daemon"),
    ('docker run --rm -v "$PWD":/app -w /app python:3.12 python -m pytest -q', "docker-daemon"),
]


@pytest.fixture(autouse=True)
def _hook_tmpdir(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hook's $TMPDIR is a temp dir it exempts (the sandbox's own TMPDIR is not)."""
    monkeypatch.setenv("TMPDIR", "/tmp")


def _project(base: Path) -> tuple[Path, dict[str, str]]:
    os.environ["HOME"] = str(base)
    project, env = box(base, {"src/a.py": "a\n", **FILES})
    commit_then_change(project, env)
    screens = project / "tmp" / "screens"
    screens.mkdir(mode=0o700)
    env.update(TMUX_TMPDIR=str(project / "tmp"), SCREENDIR=str(screens), SHELL="/bin/sh")
    return project, env


def _can_run(program: str) -> bool:
    if program == "docker-daemon":
        if shutil.which("docker") is None:
            return False
        done = subprocess.run(["docker", "info"], capture_output=True, timeout=20, check=False)
        return done.returncode == 0
    if program.endswith("-parallel"):
        if shutil.which("parallel") is None:
            return False
        done = subprocess.run(["parallel", "--version"], capture_output=True, text=True,
                              timeout=20, check=False)  # fmt: skip
        return ("GNU" in done.stdout) == (program == "gnu-parallel")
    if program == "wish-display":
        return shutil.which("wish") is not None and bool(os.environ.get("DISPLAY"))
    return shutil.which(program) is not None


def _run(command: str, project: Path, env: dict[str, str], program: str) -> None:
    """``command`` in real bash; a tmux server or screen session ``s`` around it."""
    run = {"cwd": project, "env": env, "capture_output": True, "timeout": 60, "check": False}
    if program == "tmux":
        subprocess.run(["tmux", "-f", "/dev/null", "new-session", "-d", "-s", "s", "sh"], **run)
    elif program == "screen":
        subprocess.run(["screen", "-dmS", "s", "sh"], **run)
        time.sleep(0.5)
    try:
        subprocess.run(["bash", "-c", command], stdin=subprocess.DEVNULL, **run)
        deadline = time.monotonic() + (6 if program in ("tmux", "screen") else 0)
        while not lost(project) and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        if program == "tmux":
            subprocess.run(["tmux", "kill-server"], **run)
        elif program == "screen":
            for name in ("s", "t"):
                subprocess.run(["screen", "-S", name, "-X", "quit"], **run)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("command", "rule", "program"), STOP)
def test_runners_given_code_are_stopped(
    tmp_path: Path, command: str, rule: str, program: str, variant: str
) -> None:
    project, _ = _project(tmp_path)
    decision, spec = claude_hook(command, project, variant)
    assert decision == "deny", spec
    assert rule in spec, spec


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("command", "program"), PASS)
def test_runners_given_harmless_text_pass(
    tmp_path: Path, command: str, program: str, variant: str
) -> None:
    project, _ = _project(tmp_path)
    assert claude_hook(command, project, variant)[0] in ("", "allow")


@pytest.mark.parametrize(("command", "rule", "program"), STOP)
def test_stopped_runners_destroy_the_work_in_real_bash(
    tmp_path: Path, command: str, rule: str, program: str
) -> None:
    if shutil.which("bash") is None or not _can_run(program):
        pytest.skip(f"needs bash and {program}")
    project, env = _project(tmp_path)
    _run(command, project, env, program)
    assert lost(project), command


@pytest.mark.parametrize(("command", "program"), PASS)
def test_passing_runners_keep_the_work_in_real_bash(
    tmp_path: Path, command: str, program: str
) -> None:
    if shutil.which("bash") is None or not _can_run(program):
        pytest.skip(f"needs bash and {program}")
    project, env = _project(tmp_path)
    _run(command, project, env, program)
    assert not lost(project) and (project / CANARY).exists(), command


def test_the_command_file_table_is_read_from_one_place() -> None:
    """The hot path's cheap name test (payloads.COMMAND_FILES) names exactly the programs
    dcg.shell.cmdfiles.TABLE reads."""
    from dcg.shell import cmdfiles, payloads

    assert set(cmdfiles.TABLE) == set(payloads.COMMAND_FILES)
