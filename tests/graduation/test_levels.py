"""Level selection: every mode's curve (decisions.md section 1), overrides, floors, selectors."""

from __future__ import annotations

import pytest

from dcg.decision import Counts, decide, judge, mode_for, next_level, select_level

W, S, H = "warning", "soft_block", "hard_block"


def curve(mode: str, n: int = 6, t: int = 2, h: int = 5, **kw: object) -> list[str]:
    # A fresh user: the history count equals the session count.
    return [select_level(mode, i, i, t, h, "high", **kw) for i in range(1, n + 1)]  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        pytest.param("paranoid", [H, H, H, H, H, H], id="paranoid"),
        pytest.param("strict", [W, S, H, H, H, H], id="strict"),
        pytest.param("standard", [W, W, S, S, H, H], id="standard"),
        pytest.param("lenient", [W, W, W, S, S, S], id="lenient-unconfirmed"),
    ],
)
def test_draft_curves_with_defaults(mode: str, expected: list[str]) -> None:
    assert curve(mode) == expected


@pytest.mark.parametrize(
    ("mode", "t", "h", "expected"),
    [
        pytest.param("strict", 3, 10, [W, W, S, H, H, H, H, H], id="strict-t3"),
        pytest.param("strict", 1, 10, [S, H, H, H, H, H, H, H], id="strict-t1"),
        pytest.param("standard", 3, 10, [W, W, W, S, S, S, S, S], id="standard-t3-h10"),
        pytest.param("standard", 1, 4, [W, S, S, H, H, H, H, H], id="standard-t1-h4"),
        pytest.param("standard", 2, 100, [W, W, S, S, S, S, S, S], id="standard-history-far"),
        pytest.param("lenient", 1, 2, [W, W, S, S, S, S, S, S], id="lenient-never-hard"),
        pytest.param("paranoid", 9, 9, [H] * 8, id="paranoid-ignores-thresholds"),
    ],
)
def test_curves_with_other_thresholds(mode: str, t: int, h: int, expected: list[str]) -> None:
    assert curve(mode, 8, t, h) == expected


@pytest.mark.parametrize(
    ("mode", "session", "history", "expected"),
    [
        pytest.param("standard", 1, 5, H, id="standard-history-from-other-sessions"),
        pytest.param("standard", 1, 4, W, id="standard-history-below"),
        pytest.param("strict", 1, 5, H, id="strict-history"),
        pytest.param("lenient", 1, 50, W, id="lenient-ignores-history"),
    ],
)
def test_history_counts_across_sessions(
    mode: str, session: int, history: int, expected: str
) -> None:
    assert select_level(mode, session, history, 2, 5, "medium") == expected


def test_lenient_confirmation_warns_again() -> None:
    levels = [select_level("lenient", i, i, 2, 5, "high", acknowledged=i > 4) for i in range(1, 8)]
    assert levels == [W, W, W, S, W, W, W]


@pytest.mark.parametrize("mode", ["strict", "standard", "lenient", "paranoid"])
def test_critical_override(mode: str) -> None:
    assert decide(mode, 1, 1, 2, 5, "critical") == (H, "critical")


def test_critical_override_can_be_disabled() -> None:
    assert select_level("standard", 1, 1, 2, 5, "critical", critical_always_hard=False) == W


@pytest.mark.parametrize("mode", ["strict", "standard", "lenient", "paranoid"])
@pytest.mark.parametrize(
    ("rule_id", "expected"),
    [
        pytest.param("core.dcg:invoke", (H, "self-protection"), id="self"),
        pytest.param("core.dcg:too-complex", (H, "self-protection"), id="too-complex"),
        pytest.param("core.filesystem:rm-rf-critical", (W, "warning"), id="other-critical"),
        pytest.param("core.dcgx:anything", (W, "warning"), id="not-the-pack"),
    ],
)
def test_self_protection_ignores_critical_always_hard(
    mode: str, rule_id: str, expected: tuple[str, str]
) -> None:
    response = {"mode": mode, "critical_always_hard": False, "high_minimum_level": "warning"}
    verdict = judge(rule_id, "critical", Counts(1, 1, False), response)
    want = (H, "paranoid") if mode == "paranoid" and expected[0] == W else expected
    assert (verdict.level, verdict.cause) == want
    assert (next_level("critical", verdict, response, False, rule_id) == H) is (want[0] == H)


@pytest.mark.parametrize(
    ("floor", "severity", "expected"),
    [
        pytest.param("soft_block", "high", [S, S, S, S, H, H], id="high-soft-floor"),
        pytest.param("hard_block", "high", [H] * 6, id="high-hard-floor"),
        pytest.param("warning", "high", [W, W, S, S, H, H], id="high-default-floor"),
        pytest.param("hard_block", "medium", [W, W, S, S, H, H], id="medium-not-floored"),
        pytest.param("hard_block", "low", [W, W, S, S, H, H], id="low-not-floored"),
    ],
)
def test_high_minimum_level(floor: str, severity: str, expected: list[str]) -> None:
    got = [
        select_level("standard", i, i, 2, 5, severity, high_minimum_level=floor)
        for i in range(1, 7)
    ]
    assert got == expected


def test_unknown_mode_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown graduation mode"):
        select_level("relaxed", 1, 1, 2, 5, "high")


@pytest.mark.parametrize(
    ("rule_id", "expected"),
    [
        pytest.param("core.git:push-force", "strict", id="rule-selector-wins"),
        pytest.param("core.git:reset-hard", "lenient", id="pack-selector"),
        pytest.param("core.filesystem:rm-rf", "paranoid", id="category-selector"),
        pytest.param("database.postgres:drop", "paranoid", id="other-category"),
        pytest.param("cloud.aws:delete", "standard", id="global-mode"),
        pytest.param("core.gitx:foo", "paranoid", id="no-partial-word-match"),
    ],
)
def test_mode_selectors_longest_wins(rule_id: str, expected: str) -> None:
    response = {
        "mode": "standard",
        "packs": {
            "core": {"mode": "paranoid"},
            "core.git": {"mode": "lenient"},
            "core.git:push-force": {"mode": "strict"},
            "database": {"mode": "paranoid"},
        },
    }
    assert mode_for(rule_id, response) == expected
