"""The response configuration: one typed value, one mode list, defaults once, the floor a field."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

import hookpath
from dcg import cli, config, paths
from dcg.response import DEFAULTS, MODES, Mode, ResponseConfig

SRC = Path(__file__).resolve().parents[1] / "src" / "dcg"


def test_one_mode_list() -> None:
    assert MODES == Mode.ALL == ("paranoid", "strict", "standard", "lenient")
    assert config.CHOICES["response.mode"] == Mode.ALL
    mode_flag = next(a for a in cli.build_parser()._actions if "--mode" in a.option_strings)
    assert tuple(mode_flag.choices or ()) == Mode.ALL
    for module in ("cli.py", "hook.py", "config.py", "decision.py", "managed.py"):
        text = (SRC / module).read_text()
        assert '"paranoid", "strict", "standard", "lenient"' not in text, module


def test_defaults_once() -> None:
    written = dict(config.SECTIONS["response"])
    assert config.parse_duration(str(written.pop("history_window"))) == DEFAULTS["history_window"]
    assert written == {k: v for k, v in DEFAULTS.items() if k != "history_window"}
    assert ResponseConfig().as_dict() == {**DEFAULTS, "packs": {}}
    assert config.load(None, {}).response.as_dict() == ResponseConfig().as_dict()


def test_frozen() -> None:
    response = config.load(None, {}).response
    with pytest.raises(AttributeError):
        response.mode = "lenient"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("policy", "floor", "user"),
    [
        pytest.param('[response]\nmode = "strict"\n', "strict", True, id="floor"),
        pytest.param('[response]\nmode = "relaxed"\n', "paranoid", True, id="unknown-floor"),
        pytest.param("[allowlist]\nuser = false\n", None, False, id="no-user-allowlist"),
        pytest.param("", None, True, id="empty-policy"),
    ],
)
def test_managed_floor_is_a_field(policy: str, floor: str | None, user: bool) -> None:
    path = Path(paths.managed_file())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(policy)
    response = config.load(None, {}).response
    assert (response.mode_floor, response.allowlist_user) == (floor, user)
    if floor:
        assert response.mode_for("core.git:reset-hard") == floor


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        pytest.param(("--mode", "paranoid"), "deny", id="paranoid"),
        pytest.param(("--mode=strict",), "warn", id="strict-first-time"),
        pytest.param(("--mode", "lenient"), "warn", id="lenient"),
        pytest.param(("--mode", "relaxed"), "deny", id="unknown-mode-is-paranoid"),
        pytest.param(("--mode",), "warn", id="mode-without-value-dropped"),
        pytest.param(("--session-threshold", "0"), "warn", id="bad-threshold-dropped"),
    ],
)
@pytest.mark.parametrize("agent", ["claude", "codex", "gemini"])
@pytest.mark.parametrize("variant", ["plain", "later-line", "after-crlf"])
def test_hook_flags_through_the_hook(
    agent: str, variant: str, args: tuple[str, ...], expected: str
) -> None:
    command = hookpath.VARIANTS[variant]("git reset --hard")
    payload = hookpath.payload(agent, command)
    result = hookpath.run(hookpath.encode(payload), args)
    assert hookpath.verdict(*result) == expected


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["hook", "--mode", "relaxed"], id="unknown-mode"),
        pytest.param(["--mode=paranoid", "hook"], id="global-before-hook"),
        pytest.param(["hook", "--mode=paranoid", "--no-warnings"], id="hook-flags"),
    ],
)
def test_cli_hands_the_hook_its_own_arguments(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """One parse: the hook's own (lenient) parser, not argparse's (which exits 2)."""
    body = hookpath.encode(hookpath.payload("claude", "git reset --hard"))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(body)))
    assert cli.main(argv) == 0
    reply = json.loads(capsys.readouterr().out)
    assert reply["hookSpecificOutput"]["permissionDecision"] == "deny"
