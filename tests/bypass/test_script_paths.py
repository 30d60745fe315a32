"""A script named through a variable the shell knows is the same script (issue 32).

``bash ~/x.sh`` was read and judged while ``bash "$HOME/x.sh"``, ``source ${HOME}/x.sh`` or
``D=$HOME; . "$D/x.sh"`` ran the same file unseen. Each spelling goes through every agent's
hook, and real bash in a throwaway HOME shows that the same line destroys the canary.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hookpath import AGENTS, payload, run, verdict

BODY = 'rm -rf "$HOME/src"\n'

# (command, the script's name under HOME)
STOP = [
    ('bash "$HOME/job.sh"', "job.sh"),
    ("bash ${HOME}/job.sh", "job.sh"),
    ('sh "${HOME}/job.sh"', "job.sh"),
    ('source "$HOME/job.sh"', "job.sh"),
    (". $HOME/job.sh", "job.sh"),
    ('D="$HOME" && . "$D/job.sh"', "job.sh"),
    ('D=$HOME; bash "$D/bin/job.sh"', "bin/job.sh"),
    ('cd /tmp && bash "$HOME/job.sh"', "job.sh"),
    ('bash -e "$HOME/bin/job.sh" arg', "bin/job.sh"),
    ('env bash "$HOME/job.sh"', "job.sh"),
    ('sudo -E bash "$HOME/job.sh"', "job.sh"),
]

PASS = [
    ('bash "$HOME/job.sh"', "job.sh", "echo hello\n"),
    ('source "$HOME/job.sh"', "job.sh", 'export PATH="$HOME/bin:$PATH"\n'),
]


def _sandbox(home: Path, name: str, body: str) -> dict[str, str]:
    (home / "src").mkdir(exist_ok=True)
    (home / "src" / "canary").write_text("alive\n")
    (home / "tmp").mkdir(exist_ok=True)
    script = home / name
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text(body)
    script.chmod(0o755)
    return {"HOME": str(home), "TMPDIR": str(home / "tmp"), "PATH": os.environ["PATH"]}


def _verdicts(command: str, home: Path) -> dict[str, str]:
    env = dict(os.environ, HOME=str(home), DCG_RESPONSE_MODE="paranoid")
    return {
        agent: verdict(*run(json.dumps(payload(agent, command, str(home))).encode(), env=env))
        for agent in AGENTS
    }


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize(("command", "name"), STOP, ids=[c for c, _ in STOP])
def test_a_script_named_by_a_known_variable_is_read(
    isolated_home: Path, command: str, name: str
) -> None:
    env = _sandbox(isolated_home, name, BODY)
    assert set(_verdicts(command, isolated_home).values()) == {"deny"}, command
    if command.startswith("sudo"):
        return  # proven by the same line without sudo; the sandbox never runs sudo
    subprocess.run(["bash", "-c", command], cwd=isolated_home, env=env, timeout=60, check=False)
    assert not (isolated_home / "src" / "canary").exists(), "the line did not run the script"


@pytest.mark.parametrize(("command", "name", "body"), PASS, ids=[c for c, _, _ in PASS])
def test_a_harmless_script_named_so_passes(
    isolated_home: Path, command: str, name: str, body: str
) -> None:
    _sandbox(isolated_home, name, body)
    assert set(_verdicts(command, isolated_home).values()) == {"none"}, command
