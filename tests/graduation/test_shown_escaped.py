"""Control characters and terminal escapes in a command are shown escaped wherever dcg shows the
command to a person (issue 30): the hook's text for the person, the agent's permission prompt,
``dcg confirm``/``allow-once`` lists, ``dcg history``, ``dcg test`` and ``dcg explain``."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from hooklines import hook

from dcg import paths
from dcg.commands import history
from dcg.render import printable

DISGUISES = {
    "erase-line": "\x1b[2K\r",
    "cursor-up": "\x1b[1A\x1b[2K",
    "osc-title": "\x1b]0;ok\x07",
    "carriage-return": "\r",
    "backspaces": "\x08" * 12,
    "c1-csi": "\x9b2K",
    "bidi-override": "\u202e",
    "bidi-isolate": "\u2066",
    "zero-width": "\u200b",
    "line-separator": "\u2028",
    "delete": "\x7f",
    "form-feed": "\x0c",
}
CASES = [pytest.param(d, id=name) for name, d in DISGUISES.items()]


def _line(disguise: str) -> str:
    return f"rm -rf src{disguise}echo all-fine"


def _bad(text: str, disguise: str) -> list[str]:
    """The disguise characters found raw in ``text``."""
    return [c for c in disguise if c in text and not c.isprintable()]


def test_printable_escapes_and_keeps_the_rest() -> None:
    assert printable("rm -rf 'my dir' ~/x") == "rm -rf 'my dir' ~/x"
    assert printable("a\x1b[2Kb\rc\n\td\u202e") == "a\\x1b[2Kb\\rc\\n\\td\\u202e"
    assert printable("é ü 日本") == "é ü 日本"


@pytest.mark.parametrize("disguise", CASES)
@pytest.mark.parametrize("agent", ["claude", "codex", "gemini", "cursor", "opencode"])
def test_the_hooks_text_for_the_person_is_escaped(agent: str, disguise: str) -> None:
    said, _, person = hook(_line(disguise), agent=agent, args=("--mode", "paranoid"))
    assert said == "deny"
    assert person, "the person is told"
    assert not _bad(person, disguise), repr(person)
    assert printable(disguise) in person


@pytest.mark.parametrize("disguise", CASES)
def test_the_agents_own_prompt_is_escaped(disguise: str) -> None:
    Path(paths.user_config()).parent.mkdir(parents=True, exist_ok=True)
    Path(paths.user_config()).write_text(
        '[response]\nmode = "strict"\nsession_threshold = 1\nsoft_block_action = "ask"\n'
    )
    said, specific, _ = hook(_line(disguise))
    assert said == "ask", specific
    prompt = str(specific.get("permissionDecisionReason"))
    assert not _bad(prompt, disguise) and printable(disguise) in prompt


@pytest.mark.parametrize("disguise", CASES)
def test_history_shows_the_command_escaped(
    disguise: str, capsys: pytest.CaptureFixture[str]
) -> None:
    hook(_line(disguise))
    history.main(None)
    out = capsys.readouterr().out
    assert "echo all-fine" in out.replace("\n", "")
    assert not _bad(out, disguise), repr(out)


@pytest.mark.parametrize("disguise", CASES)
@pytest.mark.parametrize("command", ["test", "explain"])
def test_test_and_explain_show_the_command_escaped(
    dcg_exe: str, command: str, disguise: str
) -> None:
    proc = subprocess.run(
        [dcg_exe, command, "--cwd", "/home/dev/project", _line(disguise)],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, COLUMNS="400"),
    )
    assert "rm -rf src" in proc.stdout
    assert not _bad(proc.stdout, disguise), repr(proc.stdout)
