"""Files a redirection writes that a later command on the line runs (dcg.shell.redirs,
dcg.shell.linefiles), through the hook.

A red team's misses: descriptors duplicated onto a file (``3>f >&3``, ``2>f >&2``,
``9>f >&9-``, ``>&f``), read-write opens (``1<>f``, ``<>f >&0``), descriptors opened by
``exec``, and one file named two ways (``../proj/f``, ``~/proj/f``, ``$HOME/proj/f``,
``cd ..; … > proj/f; cd -``). Each must-stop case is stopped through ``dcg.hook.main`` (a
real Claude payload, paranoid mode) and run in real bash in a sandbox project, where it
destroys the canary; must-pass cases pass and destroy nothing.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from sandbox import claude_hook

RM = "core.filesystem:rm-rf"
OPAQUE = "core.shell:opaque-exec"
ECHO = 'echo "rm -rf lib"'

STOP = [
    (f"{ECHO} 3>f >&3; bash f", RM),
    (f"{ECHO} 2>f >&2; bash f", RM),
    (f"2>f {ECHO} >&2; bash f", RM),
    (f"{ECHO} 9>f >&9-; bash f", RM),
    (f"{ECHO} 3>>f >&3; bash f", RM),
    (f"{ECHO} >&f; bash f", RM),
    (f"{ECHO} 1<>f; bash f", RM),
    (f"{ECHO} <>f >&0; bash f", RM),
    (f"{ECHO} 4>f 1>&4 4>&-; sh f", RM),
    # the descriptor is written later: what goes there is code dcg cannot see
    (f"exec {{fd}}<>f; {ECHO} >&$fd; bash f", OPAQUE),
    (f"exec 3>f; {ECHO} >&3; bash f", OPAQUE),
    (f"exec 3>f; {ECHO} 1>&3; exec 3>&-; bash f", OPAQUE),
    # one file, two names
    (f"{ECHO} > ../proj/f; bash f", RM),
    (f"{ECHO} > ~/proj/f; bash f", RM),
    (f"{ECHO} > $HOME/proj/f; bash f", RM),
    (f'{ECHO} > "$HOME/proj/f"; bash f', RM),
    (f"{ECHO} > f; bash ../proj/f", RM),
    (f"{ECHO} > f; bash ~/proj/f", RM),
    (f"cd ..; {ECHO} > proj/f; cd -; bash f", RM),
    (f"cd ..; {ECHO} > proj/f; cd proj; bash f", RM),
    (f"cd /; {ECHO} > ~/proj/f; cd ~/proj; bash f", RM),
]

SAFE = [
    "make 2>err.log >&2",
    "exec 3>out.txt; echo hi >&3",
    "echo hi 2>err.log; bash ok.sh",
    "ls 2>/dev/null >&2",
    "echo hi > ../proj/f; bash f",
    "echo hi 3>f >&3; bash f",
    "cd ..; cd -; bash ok.sh",
]


def _sandbox(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    home = tmp_path / "home"
    proj = home / "proj"
    (proj / "lib").mkdir(parents=True)
    (proj / "lib" / "canary").write_text("alive\n")
    (proj / "ok.sh").write_text("echo ok\n")
    (proj / "Makefile").write_text("all:\n\t@echo built\n")
    (home / "tmp").mkdir()
    env = {"HOME": str(home), "TMPDIR": str(home / "tmp"), "PATH": os.environ["PATH"]}
    return proj, env


def _run(proj: Path, env: dict[str, str], command: str) -> None:
    subprocess.run(["bash", "-c", command], cwd=proj, env=env, capture_output=True, timeout=60)


@pytest.mark.parametrize(("command", "rule_id"), STOP, ids=[c for c, _ in STOP])
def test_redirected_write_then_run_is_stopped_and_destroys(
    tmp_path: Path, command: str, rule_id: str
) -> None:
    proj, env = _sandbox(tmp_path)
    decision, details = claude_hook(command, proj, HOME=env["HOME"])
    assert decision == "deny", command
    assert rule_id in details, details
    _run(proj, env, command)
    assert not (proj / "lib").exists(), f"not destroyed in the sandbox: {command}"


@pytest.mark.parametrize("command", SAFE)
def test_everyday_redirections_pass(tmp_path: Path, command: str) -> None:
    proj, env = _sandbox(tmp_path)
    assert claude_hook(command, proj, HOME=env["HOME"])[0] == "", command
    _run(proj, env, command)
    assert (proj / "lib" / "canary").read_text() == "alive\n", command
