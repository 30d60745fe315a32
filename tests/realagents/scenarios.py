"""The scenarios every real agent runs, and what each must leave on disk and tell the model.

Each scenario installs dcg the way a user does (``dcg install --agent NAME``), sets the
response mode in dcg's user config, runs the agent once against a scripted stand-in model
and then checks two things an agent cannot fake: the project on disk, and the text the
agent sent back to the model after each tool call.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from agentrun import Agent, Run, Sandbox, dcg_env, git, install, run, set_mode
from standin import ReadFile, Shell, WriteFile

RESET = "git reset --hard"
WORK = "committed\nwork in progress\n"
BLOCKED = "BLOCKED by dcg"
WARNED = "dcg warning"
RULE = "core.git:reset-hard"
# The header of dcg's text for the person (the user-only channel, where the code is):
# the model must never read it.
FOR_THE_PERSON = ("dcg SOFT BLOCK", "dcg HARD BLOCK", "dcg WARNING")


def _result(done: Run, index: int) -> str:
    results = done.stand_in.results()
    assert len(results) > index, (
        f"the agent sent back {len(results)} tool results, expected more than {index}\n"
        + done.describe()
    )
    return results[index]


def _nothing_for_the_person(done: Run) -> None:
    sent = done.stand_in.sent()
    for header in FOR_THE_PERSON:
        assert header not in sent, f"the model received the person's text ({header!r})"


def paranoid_stops_reset_lets_touch_run(agent: Agent, box: Sandbox, dcg_exe: str) -> None:
    """Paranoid mode, one session: ``git reset --hard`` is stopped, the work stays and the
    model reads why; then ``touch x`` runs and dcg says nothing about it."""
    install(dcg_exe, agent, box)
    set_mode(box.home, "paranoid")
    done = run(agent, box, [Shell(RESET), Shell("touch x")])
    assert (box.project / "notes.txt").read_text() == WORK, done.describe()
    told = _result(done, 0)
    assert BLOCKED in told and RULE in told, told
    assert (box.project / "x").is_file(), done.describe()
    assert "dcg" not in _result(done, 1), _result(done, 1)
    _nothing_for_the_person(done)


def standard_graduates(agent: Agent, box: Sandbox, dcg_exe: str) -> None:
    """Standard mode, one session: warned and run, warned and run, then stopped."""
    install(dcg_exe, agent, box)
    set_mode(box.home, "standard")
    notes = box.project / "notes.txt"
    script = [
        Shell(RESET),
        Shell("echo second >> notes.txt"),
        Shell(RESET),
        Shell("echo third >> notes.txt"),
        Shell(RESET),
    ]
    done = run(agent, box, script)
    # The first two resets ran (each undid the line before it); the third did not.
    assert notes.read_text() == "committed\nthird\n", done.describe()
    for index in (0, 2):
        told = _result(done, index)
        assert BLOCKED not in told, told
        # Where the agent has no channel for it, the warning must not leak in either: the
        # README's table says which agents tell the model.
        assert (WARNED in told and RULE in told) == agent.warns_model, told
    told = _result(done, 4)
    assert BLOCKED in told and RULE in told and "dcg confirm" in told, told
    _nothing_for_the_person(done)


def own_settings_write_refused(agent: Agent, box: Sandbox, dcg_exe: str) -> None:
    """A file-tool write of the agent's own hook settings is refused; the settings stay."""
    install(dcg_exe, agent, box)
    set_mode(box.home, "standard")
    settings = agent.settings(box.home, box.project)
    done = run(agent, box, [ReadFile(str(settings)), WriteFile(str(settings), "{}\n")])
    assert done.settings_before, f"{settings} was not written by dcg install"
    assert settings.read_bytes() == done.settings_before, done.describe()
    told = _result(done, 1)
    assert BLOCKED in told and "core.dcg:" in told, told
    _nothing_for_the_person(done)


def _tree(project: Path) -> dict[str, tuple[bytes, int]]:
    """Every file of the project outside .git: its bytes and mode."""
    return {
        str(path.relative_to(project)): (path.read_bytes(), path.stat().st_mode)
        for path in sorted(project.rglob("*"))
        if path.is_file() and ".git" not in path.relative_to(project).parts
    }


def standard_reset_undone(agent: Agent, box: Sandbox, dcg_exe: str) -> None:
    """Standard mode: ``git reset --hard`` is warned and runs; ``dcg undo --last`` then puts
    the work back byte for byte, and the model was told how (where it reads warnings)."""
    install(dcg_exe, agent, box)
    set_mode(box.home, "standard")
    (box.project / "staged.txt").write_text("staged, never committed\n")
    git(box.project, "add", "staged.txt")
    before = _tree(box.project)
    done = run(agent, box, [Shell(RESET)])
    assert (box.project / "notes.txt").read_text() == "committed\n", done.describe()
    assert not (box.project / "staged.txt").exists(), done.describe()
    told = _result(done, 0)
    assert BLOCKED not in told, told
    assert ("dcg undo" in told) == agent.warns_model, told
    _nothing_for_the_person(done)
    undo = subprocess.run(
        [dcg_exe, "undo", "--last"],
        cwd=box.project,
        env=dcg_env(box.home),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert undo.returncode == 0, undo.stdout + undo.stderr
    assert _tree(box.project) == before, undo.stdout
