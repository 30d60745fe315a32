"""Fixtures for graduation tests: matches and requests built from a hand-made rule."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from dcg.hookio import HookRequest
from dcg.model import Match, Pack, Rule
from dcg.shell.command import Command


def _match(rule_id: str = "core.git:reset-hard", severity: str = "high") -> Match:
    pack_id, _, name = rule_id.partition(":")
    rule = Rule(
        name,
        severity=severity,  # type: ignore[arg-type]
        pattern=r"\bgit reset --hard\b",
        reason="discards uncommitted changes",
        explanation="Uncommitted changes to tracked files are lost for good.",
        alternative="git stash",
    )
    pack = Pack(pack_id, description="test pack", rules=(rule,))
    return Match(pack, rule, Command(("git", "reset", "--hard", "HEAD~1")))


def _request(
    command: str = "git reset --hard HEAD~1", cwd: str = "/work/p", sid: str | None = "s1"
) -> HookRequest:
    return HookRequest("claude", command, cwd=cwd, session_id=sid)


@pytest.fixture
def make_match() -> Callable[..., Match]:
    return _match


@pytest.fixture
def make_request() -> Callable[..., HookRequest]:
    return _request
