"""Approval codes bound to the line, the rules and the level they were offered for (issue 29.3,
29.4; issue 30 "approval needs the code"), through the installed hook and the approval commands
as a person runs them."""

from __future__ import annotations

import io
import os
import time
from pathlib import Path

import pytest
from hooklines import PROJECT, code_in, hook, recorded

from dcg import paths
from dcg.commands import allow_once, confirm
from dcg.errors import DcgError
from dcg.state import codes


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


LINE = "git reset --hard HEAD~1"


def _confirm(code: str, now: float | None = None) -> int:
    return confirm.main(code, stdin=Tty(), now=now)


def _allow(code: str, now: float | None = None) -> int:
    return allow_once.main(code, stdin=Tty(), now=now)


def _soft(line: str = LINE, **kw: object) -> str:
    """Run ``line`` until it is soft-blocked; the code the person was shown."""
    for _ in range(3):
        _, specific, person = hook(line, **kw)  # type: ignore[arg-type]
    assert specific.get("responseLevel") == "soft_block", specific
    return code_in(person)


def test_confirm_code_cannot_approve_once_the_command_is_hard_blocked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    soft = _soft()
    assert hook(LINE)[1].get("responseLevel") == "soft_block"  # the same code again
    _, hard, person = hook(LINE)
    assert hard.get("responseLevel") == "hard_block"
    allow = code_in(person)
    assert allow != soft
    # The soft code is gone from the list and refuses to approve.
    confirm.main(None, stdin=Tty())
    assert LINE not in capsys.readouterr().out
    with pytest.raises(DcgError, match=r"no longer applies|no pending code"):
        _confirm(soft)
    assert hook(LINE)[0] == "deny"
    # Only allow-once (or the allowlist) lets it through now.
    assert _allow(allow) == 0
    assert hook(LINE)[0] == "none"
    assert recorded()[-1] == ("core.git:reset-hard", "allow", "allow-once")


def test_confirmed_code_refused_when_the_level_rose_before_the_rerun() -> None:
    soft = _soft()
    assert _confirm(soft) == 0
    # Meanwhile other sessions push the history count to the hard threshold.
    for _ in range(2):
        hook("git reset --hard", agent="codex")
    said, specific, person = hook(LINE)
    assert (said, specific.get("responseLevel")) == ("deny", "hard_block")
    assert [r for r in codes.live_codes(paths.pending_file(), time.time())] == []
    assert _allow(code_in(person)) == 0
    assert hook(LINE)[0] == "none"


@pytest.mark.parametrize("how", ["history", "session"])
def test_dcg_confirm_neither_lists_nor_approves_an_outgrown_code(
    how: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The level rose after the code was shown and before the person typed it."""
    soft = _soft()
    if how == "history":  # other sessions reach the hard threshold
        for _ in range(2):
            hook("git reset --hard", agent="codex")
    else:  # the session itself passes strict mode's threshold
        Path(paths.user_config()).parent.mkdir(parents=True, exist_ok=True)
        Path(paths.user_config()).write_text('[response]\nmode = "strict"\n')
    from dcg import config

    response = config.load(PROJECT, dict(os.environ), {}).response
    confirm.main(None, stdin=Tty(), response=response)
    out = capsys.readouterr().out
    assert "Nothing is waiting" in out and "No longer approvable" in out
    with pytest.raises(DcgError, match="no longer applies"):
        confirm.main(soft, stdin=Tty(), response=response)
    with pytest.raises(DcgError, match=r"no longer applies|no pending code"):
        confirm.main(soft, stdin=Tty(), response=response)
    said, specific, _ = hook(LINE)
    assert (said, specific.get("responseLevel")) == ("deny", "hard_block")


def test_confirmed_code_refused_under_a_stricter_mode() -> None:
    soft = _soft()
    assert _confirm(soft) == 0
    said, specific, _ = hook(LINE, args=("--mode", "paranoid"))
    assert (said, specific.get("responseLevel")) == ("deny", "hard_block")


@pytest.mark.parametrize(
    "other",
    [
        pytest.param(f"{LINE}; rm -rf src", id="appended"),
        pytest.param(f"{LINE} ", id="trailing-space"),
        pytest.param(f"cd . && {LINE}", id="prefixed"),
        pytest.param(f"{LINE}\r", id="carriage-return"),
        pytest.param(f"bash -c '{LINE}'", id="wrapped"),
        pytest.param(f"{LINE} && git push --force", id="chained"),
    ],
)
def test_confirmed_code_covers_exactly_its_line(other: str) -> None:
    soft = _soft()
    assert _confirm(soft) == 0
    assert hook(other)[0] == "deny"
    assert hook(LINE, cwd="/home/dev/elsewhere")[0] != "none"
    # The approved code is still there for the line it was offered for.
    assert hook(LINE)[0] == "none"


def test_code_covers_only_the_rules_it_named(tmp_path: Path) -> None:
    """Same line, new match (the script it runs changed): only the named rule is excused."""
    project = tmp_path / "proj"
    project.mkdir()
    script = project / "deploy.sh"
    script.write_text("git reset --hard\n")
    args = ("--mode", "paranoid")
    said, _, person = hook("sh ./deploy.sh", cwd=str(project), args=args)
    assert said == "deny"
    assert _allow(code_in(person)) == 0
    assert hook("sh ./deploy.sh", cwd=str(project), args=args)[0] == "none"
    script.write_text("git reset --hard\ngit push --force\n")
    said, specific, _ = hook("sh ./deploy.sh", cwd=str(project), args=args)
    assert (said, specific.get("ruleId")) == ("deny", "core.git:push-force")


def test_a_code_is_used_up_only_when_the_line_runs(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    script = project / "go.sh"
    script.write_text("git reset --hard\n")
    args = ("--mode", "strict", "--session-threshold", "1")
    line = "sh ./go.sh"
    said, _, person = hook(line, cwd=str(project), args=args)
    assert said == "deny"
    first = code_in(person)
    assert _confirm(first) == 0
    script.write_text("git reset --hard\ngit push --force\n")
    said, specific, person = hook(line, cwd=str(project), args=args)
    assert (said, specific.get("ruleId")) == ("deny", "core.git:push-force")
    second = code_in(person)
    assert second != first
    assert _confirm(second) == 0
    # Both approvals together let the line run once, and both are used up.
    assert hook(line, cwd=str(project), args=args)[0] == "none"
    assert hook(line, cwd=str(project), args=args)[0] == "deny"
    vias = [via for _, level, via in recorded() if level == "allow"]
    assert sorted(vias) == ["confirm", "confirm"]


def test_wrong_codes_lock_approvals_and_withdraw_pending_codes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    now = time.time()
    soft = _soft()
    wrong = [c for c in ("0000", "1111", "2222", "3333") if c != soft][:3]
    for k, guess in enumerate(wrong):
        with pytest.raises(DcgError) as info:
            _confirm(guess, now=now + k)
    assert "locked" in str(info.value) and "withdrawn" in str(info.value)
    with pytest.raises(DcgError, match="locked"):
        _confirm(soft, now=now + 5)
    with pytest.raises(DcgError, match="locked"):
        _allow(soft, now=now + 5)
    confirm.main(None, stdin=Tty(), now=now + 5)
    assert "locked" in capsys.readouterr().out
    # After the lockout the withdrawn code stays dead; a new block gives a new code.
    later = now + codes.LOCKOUT + 10
    with pytest.raises(DcgError, match=r"no longer applies|no pending code"):
        _confirm(soft, now=later)
    _, specific, person = hook(LINE)
    assert specific.get("responseLevel") == "soft_block"
    assert _confirm(code_in(person)) == 0


@pytest.mark.parametrize("typed", ["1", "y", "", "  ", "7f3", "7f3a9", "*", "../x"])
def test_anything_but_the_code_is_a_wrong_attempt(typed: str) -> None:
    soft = _soft()
    with pytest.raises(DcgError):
        _confirm(typed)
    assert hook(LINE)[0] == "deny"
    assert _confirm(soft) == 0


def test_a_right_code_resets_the_count() -> None:
    now = time.time()
    soft = _soft()
    for k in range(codes.MAX_WRONG - 1):
        with pytest.raises(DcgError):
            _confirm("zzzz", now=now + k)
    assert _confirm(soft, now=now + 5) == 0
    assert hook(LINE)[0] == "none"
    other = _soft("git push --force")
    with pytest.raises(DcgError, match="no pending code"):
        _confirm("zzzz", now=now + 6)
    assert _confirm(other, now=now + 7) == 0


def test_code_of_the_other_kind_is_named_not_counted() -> None:
    _, specific, person = hook("rm -rf ~")
    assert specific.get("responseLevel") == "hard_block"
    code = code_in(person)
    for _ in range(codes.MAX_WRONG + 1):
        with pytest.raises(DcgError, match="allow-once code"):
            _confirm(code)
    assert _allow(code) == 0


def test_listing_shows_no_code_and_escapes_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    disguised = "rm -rf src\x1b[2K\r\x1b[1Aecho harmless  # \u202e"
    said, _, person = hook(disguised, args=("--mode", "paranoid"))
    assert said == "deny"
    code = code_in(person)
    allow_once.main(None, stdin=Tty())
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\r" not in out and "\u202e" not in out
    assert "\\x1b[2K\\r\\x1b[1Aecho harmless" in out and "\\u202e" in out
    assert code not in out and PROJECT in out
