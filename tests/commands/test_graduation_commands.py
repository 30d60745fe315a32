"""confirm, allow-once, allowlist, session, history, stats and config as a user runs them."""

from __future__ import annotations

import io
import json
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from dcg import graduation, paths
from dcg.commands import allow_once, allowlist, config_cmd, confirm, history, session, stats
from dcg.errors import DcgError
from dcg.hookio import HookRequest
from dcg.model import Match


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


TTY = Tty()
NOW = time.time()


def block(
    make_match: Callable[..., Match], make_request: Callable[..., HookRequest], n: int, **kw: object
) -> str:
    out = None
    for i in range(n):
        out = graduation.respond(make_match(**kw), make_request(), {}, {}, now=NOW + i)
    assert out is not None
    return str(out.fields.get("confirmCode") or out.fields.get("allowOnceCode"))


@pytest.mark.parametrize(
    ("call"),
    [
        pytest.param(lambda: confirm.main("abcd", stdin=io.StringIO()), id="confirm"),
        pytest.param(lambda: allow_once.main("abcd", stdin=io.StringIO()), id="allow-once"),
        pytest.param(
            lambda: allowlist.main("add", "core.git:*", stdin=io.StringIO()), id="allowlist-add"
        ),
        pytest.param(lambda: session.main("clear", stdin=io.StringIO()), id="session-clear"),
    ],
)
def test_approvals_refuse_without_terminal(call: Callable[[], int]) -> None:
    with pytest.raises(DcgError, match="must be run by a person in a terminal"):
        call()


def test_confirm_requires_tty_can_be_turned_off(
    make_match: Callable[..., Match],
    make_request: Callable[..., HookRequest],
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = block(make_match, make_request, 3)
    assert (
        confirm.main(
            code, response={"confirm_requires_tty": False}, stdin=io.StringIO(), now=NOW + 5
        )
        == 0
    )
    assert "git reset --hard HEAD~1" in capsys.readouterr().out


def test_confirm_flow(
    make_match: Callable[..., Match],
    make_request: Callable[..., HookRequest],
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = block(make_match, make_request, 3)
    assert confirm.main(code.upper(), stdin=TTY, now=NOW + 5) == 0
    out = capsys.readouterr().out
    assert f"Confirmed {code}" in out and "/work/p" in out and "once" in out
    assert graduation.respond(make_match(), make_request(), {}, {}, now=NOW + 6) is None
    again = graduation.respond(make_match(), make_request(), {}, {}, now=NOW + 7)
    assert again is not None and again.level == "soft_block"
    with pytest.raises(DcgError, match=r"already used|no pending code"):
        confirm.main(code, stdin=TTY, now=NOW + 8)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        pytest.param("ffff", "no pending code ffff", id="unknown"),
    ],
)
def test_confirm_unknown_code(code: str, message: str) -> None:
    with pytest.raises(DcgError, match=message):
        confirm.main(code, stdin=TTY)


def test_confirm_expired_code(
    make_match: Callable[..., Match], make_request: Callable[..., HookRequest]
) -> None:
    code = block(make_match, make_request, 3)
    with pytest.raises(DcgError, match="expired"):
        confirm.main(code, stdin=TTY, now=NOW + 2 + 301)


def test_allow_once_flow_and_wrong_command_kind(
    make_match: Callable[..., Match], make_request: Callable[..., HookRequest]
) -> None:
    code = block(
        make_match, make_request, 1, rule_id="core.filesystem:rm-rf-root", severity="critical"
    )
    with pytest.raises(DcgError, match="allow-once code"):
        confirm.main(code, stdin=TTY, now=NOW + 1)
    assert allow_once.main(code, single_use=True, stdin=TTY, now=NOW + 1) == 0
    m = make_match("core.filesystem:rm-rf-root", "critical")
    assert graduation.respond(m, make_request(), {}, {}, now=NOW + 2) is None
    assert graduation.respond(m, make_request(), {}, {}, now=NOW + 3) is not None


def test_allowlist_add_list_remove(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        allowlist.main("add", "core.git:*", reason="sandbox", expires="7d", stdin=TTY, now=NOW) == 0
    )
    assert allowlist.main("add", command="rm -rf build", stdin=TTY, now=NOW) == 0
    assert (
        allowlist.main("add", "core.git:reset-hard", expires="1h", stdin=TTY, now=NOW - 7200) == 0
    )
    capsys.readouterr()
    assert allowlist.main("list", json_out=True, now=NOW) == 0
    doc = json.loads(capsys.readouterr().out)
    got = [(e["rule"], e["command"], e["active"]) for e in doc["entries"]]
    assert got == [
        ("core.git:*", None, True),
        (None, "rm -rf build", True),
        ("core.git:reset-hard", None, False),
    ]
    assert allowlist.main("list", now=NOW) == 0
    text = capsys.readouterr().out
    assert "sandbox" in text and "expired" in text
    assert allowlist.main("remove", "core.git:*") == 0
    with pytest.raises(DcgError, match="no allowlist entry"):
        allowlist.main("remove", "core.git:*")
    assert "# dcg allowlist" in Path(paths.allowlist_file()).read_text()


@pytest.mark.parametrize(
    ("target", "message"),
    [
        pytest.param("core.git", "not a rule id", id="no-colon"),
        pytest.param("nosuch.pack:*", "unknown pack", id="unknown-pack"),
    ],
)
def test_allowlist_add_rejects_bad_selectors(target: str, message: str) -> None:
    with pytest.raises(DcgError, match=message):
        allowlist.main("add", target, stdin=TTY)


def test_allowlist_add_rejects_compound_command() -> None:
    with pytest.raises(DcgError, match="one simple command"):
        allowlist.main("add", command="cd x && rm -rf build", stdin=TTY)


def test_session_show_and_clear(
    make_match: Callable[..., Match],
    make_request: Callable[..., HookRequest],
    capsys: pytest.CaptureFixture[str],
) -> None:
    block(make_match, make_request, 3)
    assert session.main(json_out=True) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [s["occurrences"] for s in doc["sessions"]] == [{"core.git:reset-hard": 3}]
    assert session.main() == 0
    assert "core.git:reset-hard" in capsys.readouterr().out
    assert session.main("clear", stdin=TTY) == 0
    assert "Cleared 1 session" in capsys.readouterr().out
    first = graduation.respond(make_match(), make_request(), {}, {}, now=NOW + 10)
    assert first is not None and first.fields["sessionOccurrence"] == 1


def test_history_and_stats(
    make_match: Callable[..., Match],
    make_request: Callable[..., HookRequest],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    code = block(make_match, make_request, 3)
    confirm.main(code, stdin=TTY, now=NOW + 3)
    graduation.respond(make_match(), make_request(), {}, {}, now=NOW + 4)
    capsys.readouterr()
    assert history.main("core.git:reset-hard", json_out=True, now=NOW + 5) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["occurrences"] == 3 and [r.get("via") for r in doc["records"]] == [
        None,
        None,
        None,
        "confirm",
    ]
    assert history.main("core.git", window="1h", now=NOW + 5) == 0
    assert "3 occurrences for core.git in the last 1h" in capsys.readouterr().out
    assert history.main(cwd=str(tmp_path), json_out=True, now=NOW + 5) == 0
    assert json.loads(capsys.readouterr().out)["occurrences"] == 0
    assert stats.main(graduation=True, json_out=True, now=NOW + 5) == 0
    row = json.loads(capsys.readouterr().out)["rules"][0]
    assert (row["warning"], row["soft_block"], row["confirmed"], row["escalations"]) == (2, 1, 1, 1)
    assert stats.main(graduation=True, now=NOW + 5) == 0
    assert "core.git:reset-hard" in capsys.readouterr().out
    with pytest.raises(DcgError, match="not a duration"):
        history.main(window="yesterday")


def test_config_response_notice_and_migrate(capsys: pytest.CaptureFixture[str]) -> None:
    user = Path(paths.user_config())
    user.parent.mkdir(parents=True)
    user.write_text('# my settings\n[general]\npacks = ["core"]  # keep\n')
    assert config_cmd.main("response") == 0
    out = capsys.readouterr().out
    assert "no [response] section" in out and 'mode = "paranoid"' in out
    with pytest.raises(DcgError, match="must be run by a person in a terminal"):
        config_cmd.main("migrate", stdin=io.StringIO())
    assert "[response]" not in user.read_text()
    assert config_cmd.main("migrate", stdin=TTY) == 0
    text = user.read_text()
    assert text.startswith('# my settings\n[general]\npacks = ["core"]  # keep\n')
    assert '[response]\n# mode = "paranoid"' in text
    capsys.readouterr()
    assert config_cmd.main("response", json_out=True) == 0
    assert json.loads(capsys.readouterr().out)["migration_notice"] is None
    assert config_cmd.main("migrate", stdin=TTY) == 0
    assert "nothing to do" in capsys.readouterr().out
