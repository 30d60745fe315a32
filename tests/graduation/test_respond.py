"""respond(): the full flow in-process, the fields against the published schema, state failures."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest

from dcg import graduation, paths
from dcg.agents._common import detail_fields
from dcg.hookio import HookRequest, Outcome
from dcg.model import Match
from dcg.state import codes

SCHEMA = json.loads(
    (Path(__file__).parents[2] / "docs" / "json-schema" / "hook-output.json").read_text()
)
T0 = 1_800_000_000.0


def claude_output(outcome: Outcome) -> dict[str, object]:
    """The Claude Code stdout decisions.md section 3 prescribes for an outcome."""
    hso: dict[str, object] = {"hookEventName": "PreToolUse"}
    if outcome.level == "warning":
        hso.update(detail_fields(outcome))
        hso["additionalContext"] = outcome.model_text
        return {"hookSpecificOutput": hso, "systemMessage": outcome.summary}
    hso["permissionDecision"] = "ask" if outcome.ask else "deny"
    hso["permissionDecisionReason"] = outcome.model_text
    hso.update(detail_fields(outcome))
    return {"hookSpecificOutput": hso}


def run(
    match: Match, req: HookRequest, n: int, response: dict[str, object] | None = None
) -> list[Outcome | None]:
    return [graduation.respond(match, req, response or {}, {}, now=T0 + i) for i in range(n)]


def preview(match: Match, req: HookRequest, response: dict[str, object], now: float) -> Outcome:
    """What the hook would answer now, nothing written (dcg test / explain)."""
    out = graduation.respond_line([match], req, response, {}, write=False, now=now).outcome
    assert out is not None
    return out


def levels(outcomes: list[Outcome | None]) -> list[str | None]:
    return [o.level if o else None for o in outcomes]


def history_lines() -> list[dict[str, object]]:
    text = Path(paths.history_file()).read_text()
    return [json.loads(line) for line in text.splitlines()]


def test_six_identical_commands_graduate(
    make_match: Callable[..., Match], make_request: Callable[..., HookRequest]
) -> None:
    outs = run(make_match(), make_request(), 6)
    assert levels(outs) == [
        "warning",
        "warning",
        "soft_block",
        "soft_block",
        "hard_block",
        "hard_block",
    ]
    for o in outs:
        assert o is not None
        jsonschema.validate(claude_output(o), SCHEMA)
    soft, hard = outs[2], outs[4]
    assert soft is not None and hard is not None
    assert list(soft.fields) == [
        "responseLevel",
        "sessionOccurrence",
        "sessionThreshold",
        "historyOccurrence",
        "historyThreshold",
        "confirmCode",
        "ruleId",
        "packId",
        "severity",
        "remediation",
    ]
    assert soft.fields["remediation"] == {
        "confirmCommand": f"dcg confirm {soft.fields['confirmCode']}",
        "safeAlternative": "git stash",
    }
    assert hard.fields["allowOnceCode"] and "sessionThreshold" not in hard.fields
    assert [r["response_level"] for r in history_lines()] == levels(outs)
    assert all(
        r["schema_version"] == 2 and r["rule_id"] == "core.git:reset-hard" for r in history_lines()
    )


def test_texts_say_what_to_do(
    make_match: Callable[..., Match], make_request: Callable[..., HookRequest]
) -> None:
    outs = run(make_match(), make_request(), 5)
    warn, soft, hard = outs[0], outs[2], outs[4]
    assert warn is not None and soft is not None and hard is not None
    assert warn.human_text.startswith("⚠️  dcg WARNING")
    assert "This is occurrence 1/2 in this session. Command will proceed." in warn.human_text
    assert "will run" in warn.model_text
    code = soft.fields["confirmCode"]
    assert (
        f"Code: {code}" in soft.human_text
        and "History: 3 occurrences in last 24h" in soft.human_text
    )
    # The model never reads the code (decisions.md 10.2); it is told to ask the person.
    assert code not in soft.model_text and "ask the user" in soft.model_text
    assert "`dcg confirm`" in soft.model_text and "their own terminal" in soft.model_text
    assert "another way" in soft.model_text and "interpreter" in soft.model_text
    assert "Uncommitted changes" in soft.model_text and "git stash" in soft.model_text
    assert hard.human_text.startswith("🚫 dcg HARD BLOCK: Command blocked (threshold exceeded)")
    assert "matched 5 times in the last 24h (threshold: 5)" in hard.human_text
    assert str(hard.fields["allowOnceCode"]) not in hard.model_text
    assert "`dcg allow-once`" in hard.model_text


def test_confirm_lets_exactly_one_rerun_through(
    make_match: Callable[..., Match], make_request: Callable[..., HookRequest]
) -> None:
    match, req = make_match(), make_request()
    outs = run(match, req, 3)
    code = outs[2].fields["confirmCode"]  # type: ignore[union-attr]
    codes.approve(paths.pending_file(), str(code), now=T0 + 10, ttl=codes.CONFIRM_TTL)
    other_cwd = make_request(cwd="/elsewhere")
    other_cmd = make_request(command="git reset --hard HEAD~2")
    assert graduation.respond(match, other_cwd, {}, {}, now=T0 + 11) is not None
    assert graduation.respond(match, other_cmd, {}, {}, now=T0 + 12) is not None
    assert graduation.respond(match, req, {}, {}, now=T0 + 13) is None
    again = graduation.respond(match, req, {}, {}, now=T0 + 14)
    assert again is not None and again.level == "hard_block"
    passed = [r for r in history_lines() if r.get("via")]
    assert [(r["via"], r["allowed"]) for r in passed] == [("confirm", True)]


def test_confirmed_code_expires(
    make_match: Callable[..., Match], make_request: Callable[..., HookRequest]
) -> None:
    match, req = make_match(), make_request()
    code = run(match, req, 3)[2].fields["confirmCode"]  # type: ignore[union-attr]
    codes.approve(paths.pending_file(), str(code), now=T0 + 10, ttl=codes.CONFIRM_TTL)
    assert graduation.respond(match, req, {}, {}, now=T0 + 10 + 301) is not None


def test_lenient_confirmation_acknowledges_rule_for_session(
    make_match: Callable[..., Match], make_request: Callable[..., HookRequest]
) -> None:
    match, req = make_match(), make_request()
    response = {"mode": "lenient"}
    outs = run(match, req, 4, response)
    assert levels(outs) == ["warning", "warning", "warning", "soft_block"]
    code = outs[3].fields["confirmCode"]  # type: ignore[union-attr]
    codes.approve(paths.pending_file(), str(code), now=T0 + 10, ttl=codes.CONFIRM_TTL)
    assert graduation.respond(match, req, response, {}, now=T0 + 11) is None
    after = [graduation.respond(match, req, response, {}, now=T0 + 12 + i) for i in range(3)]
    assert levels(after) == ["warning", "warning", "warning"]
    new_session = graduation.respond(match, make_request(sid="s2"), response, {}, now=T0 + 20)
    assert new_session is not None and new_session.level == "warning"


def test_allow_once_until_expiry_and_single_use(
    make_match: Callable[..., Match], make_request: Callable[..., HookRequest]
) -> None:
    match, req = make_match("core.filesystem:rm-rf-root", "critical"), make_request("rm -rf /")
    first = graduation.respond(match, req, {}, {}, now=T0)
    assert first is not None and first.level == "hard_block"
    code = str(first.fields["allowOnceCode"])
    codes.approve(
        paths.allow_once_file(), code, now=T0 + 1, ttl=codes.ALLOW_ONCE_TTL, single_use=False
    )
    assert graduation.respond(match, req, {}, {}, now=T0 + 2) is None
    assert graduation.respond(match, req, {}, {}, now=T0 + 3600) is None
    later = graduation.respond(match, req, {}, {}, now=T0 + 1 + 86400 + 1)
    assert later is not None and later.level == "hard_block"
    assert [r.get("via") for r in history_lines()].count("allow-once") == 2


def test_allowlisted_rule_passes_logged_but_not_counted(
    make_match: Callable[..., Match], make_request: Callable[..., HookRequest]
) -> None:
    from dcg.state import allowlist
    from dcg.state import history as hist

    allowlist.add(paths.allowlist_file(), {"rule": "core.git:*", "reason": "my sandbox"})
    assert graduation.respond(make_match(), make_request(), {}, {}, now=T0) is None
    # The record says how it passed (via the allowlist); it is no occurrence.
    (rec,) = history_lines()
    assert (rec["via"], rec["response_level"], rec["allowed"]) == ("allowlist", "allow", True)
    for scope in (None, "/work/p"):
        counted = hist.count(
            paths.history_file(),
            "core.git:reset-hard",
            since=T0 - 60,
            scope=scope,
            pack_id="core.git",
            severity="high",
        )
        assert counted[0] == 0
    other = graduation.respond(make_match("core.filesystem:rm-rf"), make_request(), {}, {}, now=T0)
    assert other is not None


def test_exact_command_allowlist_matches_the_segment_only(
    make_match: Callable[..., Match], make_request: Callable[..., HookRequest]
) -> None:
    from dcg.state import allowlist

    allowlist.add(paths.allowlist_file(), {"command": "git reset --hard HEAD~1"})
    # The match's simple command is "git reset --hard HEAD~1" even inside a longer line.
    assert (
        graduation.respond(
            make_match(), make_request("cd x && git reset --hard HEAD~1"), {}, {}, now=T0
        )
        is None
    )
    allowlist.remove(paths.allowlist_file(), "git reset --hard HEAD~1", command=True)
    allowlist.add(paths.allowlist_file(), {"command": "cd x && git reset --hard HEAD~1"})
    assert graduation.respond(make_match(), make_request(), {}, {}, now=T0) is not None


def test_expired_allowlist_entry_is_ignored(
    make_match: Callable[..., Match], make_request: Callable[..., HookRequest]
) -> None:
    from dcg.state import allowlist

    allowlist.add(
        paths.allowlist_file(),
        {"rule": "core.git:reset-hard", "expires_at": "2020-01-01T00:00:00Z"},
    )
    assert graduation.respond(make_match(), make_request(), {}, {}, now=T0) is not None


@pytest.mark.parametrize(
    ("response", "human", "summary"),
    [
        pytest.param({}, True, True, id="default-shows"),
        pytest.param({"show_warnings": False}, False, False, id="show-warnings-off"),
    ],
)
def test_show_warnings(
    make_match: Callable[..., Match],
    make_request: Callable[..., HookRequest],
    response: dict[str, object],
    human: bool,
    summary: bool,
) -> None:
    out = graduation.respond(make_match(), make_request(), response, {}, now=T0)
    assert out is not None and out.level == "warning"
    assert bool(out.human_text) is human and bool(out.summary) is summary
    assert out.model_text


def test_quiet_after_threshold_silences_repeated_warnings(
    make_match: Callable[..., Match], make_request: Callable[..., HookRequest]
) -> None:
    outs = run(make_match(), make_request(), 3, {"mode": "lenient", "quiet_after_threshold": True})
    assert levels(outs) == ["warning"] * 3
    # The first warning of the rule in the session is shown; repeats reach the model only.
    assert [bool(o.human_text) for o in outs if o] == [True, False, False]
    assert [bool(o.summary) for o in outs if o] == [True, False, False]
    assert all(o.model_text for o in outs if o)
    other = run(
        make_match("core.git:push-force"), make_request(), 1, {"quiet_after_threshold": True}
    )
    assert [bool(o.human_text) for o in other if o] == [True]


def test_log_warnings_off_keeps_blocks_in_history(
    make_match: Callable[..., Match], make_request: Callable[..., HookRequest]
) -> None:
    run(make_match(), make_request(), 3, {"log_warnings": False})
    assert [r["response_level"] for r in history_lines()] == ["soft_block"]


def test_soft_block_action_ask(
    make_match: Callable[..., Match], make_request: Callable[..., HookRequest]
) -> None:
    outs = run(make_match(), make_request(), 3, {"soft_block_action": "ask"})
    soft = outs[2]
    assert soft is not None and soft.ask and soft.fields["confirmCode"]
    jsonschema.validate(claude_output(soft), SCHEMA)


def test_project_history_scope(
    make_match: Callable[..., Match], make_request: Callable[..., HookRequest], tmp_path: Path
) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    for d in (a, b):
        (d / ".git").mkdir(parents=True)
    match = make_match()
    glob_scope = {"history_scope": "global"}
    for i in range(4):
        graduation.respond(match, make_request(cwd=str(a), sid=f"a{i}"), {}, {}, now=T0 + i)
    glob = preview(match, make_request(cwd=str(b), sid="b"), glob_scope, now=T0 + 9)
    # The default scope is the project: a habit in one repository does not block another.
    proj = preview(match, make_request(cwd=str(b / "sub"), sid="c"), {}, now=T0 + 10)
    same = preview(match, make_request(cwd=str(a), sid="d"), {}, now=T0 + 11)
    assert glob.level == "hard_block"
    assert proj.level == "warning" and proj.fields["sessionOccurrence"] == 1
    assert same.level == "hard_block"


def test_preview_writes_nothing(
    make_match: Callable[..., Match], make_request: Callable[..., HookRequest]
) -> None:
    run(make_match(), make_request(), 2)
    before = sorted(Path(paths.config_dir()).iterdir()), sorted(Path(paths.session_dir()).iterdir())
    sizes = [p.stat().st_size for p in before[0] + before[1]]
    out = preview(make_match(), make_request(), {}, now=T0 + 5)
    assert out.level == "soft_block" and "confirmCode" not in out.fields
    assert "Code: ----" in out.human_text
    after = sorted(Path(paths.config_dir()).iterdir()), sorted(Path(paths.session_dir()).iterdir())
    assert after == before and [p.stat().st_size for p in after[0] + after[1]] == sizes
    line = graduation.respond_line([make_match()], make_request(), {}, {}, write=False, now=T0)
    (item,) = line.items
    assert item.verdict is not None
    assert (line.level, item.verdict.session, item.verdict.history) == ("soft_block", 3, 3)
    assert after == (
        sorted(Path(paths.config_dir()).iterdir()),
        sorted(Path(paths.session_dir()).iterdir()),
    )


def test_explain_text_matches_the_draft(
    make_match: Callable[..., Match], make_request: Callable[..., HookRequest]
) -> None:
    from rich.text import Text

    from dcg import config
    from dcg.commands.explain import explain_data, explain_lines
    from dcg.engine import Evaluation

    match, req = make_match(), make_request()
    run(match, req, 3)
    cfg = config.load(req.cwd, {}, {})
    line = graduation.respond_line([match], req, cfg.response, cfg.history, write=False, now=T0)
    evaluation = Evaluation(req.command, (match.command,), (match,), ("core.git",))
    shown = explain_lines(explain_data(cfg, evaluation, line))
    text = "\n".join(
        Text.from_markup(x if isinstance(x, str) else x[0] + x[1]).plain for x in shown
    )
    assert "Decision:   Would be blocked (SOFT_BLOCK)" in text
    assert "Status:     Would be blocked (SOFT_BLOCK)" in text
    assert "  Session count:     3\n  Session threshold: 2\n" in text
    assert "History window:    24h" in text and "used 3 times this session" in text


def test_session_dir_symlink_counts_as_repeated(
    make_match: Callable[..., Match], make_request: Callable[..., HookRequest], tmp_path: Path
) -> None:
    target = tmp_path / "elsewhere"
    target.mkdir()
    os.symlink(target, paths.session_dir())
    notes: list[str] = []
    outs = [
        graduation.respond(make_match(), make_request(), {}, {}, now=T0 + i, notes=notes)
        for i in range(3)
    ]
    # A count that cannot be kept counts as repeated (decisions.md 10.4).
    assert levels(outs) == ["soft_block", "soft_block", "soft_block"]
    assert list(target.iterdir()) == []
    assert len(notes) == 1 and "symlink" in notes[0]


def test_unwritable_state_still_decides(
    make_match: Callable[..., Match],
    make_request: Callable[..., HookRequest],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(blocker))
    monkeypatch.setenv("DCG_SESSION_DIR", str(blocker / "sessions"))
    out = graduation.respond(make_match("core.git:rm", "critical"), make_request(), {}, {}, now=T0)
    assert out is not None and out.level == "hard_block"
    err = capsys.readouterr().err
    assert "dcg: cannot write history" in err and err.count("\n") == len(set(err.splitlines()))


def test_state_files_are_private(
    make_match: Callable[..., Match], make_request: Callable[..., HookRequest]
) -> None:
    old = os.umask(0)
    try:
        run(make_match(), make_request(), 5)
    finally:
        os.umask(old)
    for d in (paths.config_dir(), paths.session_dir()):
        assert stat.S_IMODE(os.stat(d).st_mode) == 0o700
        for p in Path(d).iterdir():
            assert stat.S_IMODE(p.stat().st_mode) == 0o600, p


@pytest.mark.parametrize(
    ("mode", "occurrence", "said"),
    [
        pytest.param("standard", 1, "Next time in this session: another warning.", id="std-1"),
        pytest.param("standard", 2, "needs your confirmation", id="std-2"),
        pytest.param("strict", 1, "needs your confirmation", id="strict-1"),
        pytest.param("lenient", 3, "needs your confirmation", id="lenient-3"),
    ],
)
def test_warning_says_what_next_time_gets(
    make_match: Callable[..., Match],
    make_request: Callable[..., HookRequest],
    mode: str,
    occurrence: int,
    said: str,
) -> None:
    outs = run(make_match(), make_request(), occurrence, {"mode": mode})
    last = outs[-1]
    assert last is not None and last.level == "warning"
    assert said in last.human_text
    nxt = "another warning" if "another" in said else "until the user confirms it"
    assert nxt in last.model_text
