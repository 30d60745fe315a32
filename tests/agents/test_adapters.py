"""Agent adapters: golden outputs per agent and level, field sets, payload reading."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from dcg import agents, jsonfast
from dcg.hookio import HARD_BLOCK, SOFT_BLOCK, WARNING, Outcome, Reply

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
UPDATE = os.environ.get("DCG_UPDATE_GOLDEN") == "1"

COMMAND = "git reset --hard HEAD~1"

# One realistic stdin per agent, as each agent documents it (hook-protocols.md).
PAYLOADS: dict[str, dict[str, object]] = {
    agent: json.loads((GOLDEN / "payloads" / f"{agent}.json").read_text())
    for agent in agents.AGENTS
}

_STOP = "Do not work around this block with another tool, interpreter or script; ask the user."

# Outcomes as the graduated response builds them (draft §2, decisions §3).
OUTCOMES: dict[str, Outcome] = {
    "warning": Outcome(
        WARNING,
        match=None,
        command=COMMAND,
        fields={
            "responseLevel": "warning",
            "sessionOccurrence": 1,
            "sessionThreshold": 2,
            "ruleId": "core.git:reset-hard",
            "packId": "core.git",
            "severity": "high",
            "warningMessage": "Command matches destructive pattern",
            "remediation": {
                "allowlistCommand": "dcg allowlist add core.git:reset-hard --user",
                "safeAlternative": "git stash",
            },
        },
        model_text=(
            "dcg warning: `git reset --hard HEAD~1` matches core.git:reset-hard (high): it "
            "discards uncommitted changes. Occurrence 1/2 in this session; it will be "
            "blocked if repeated. Safer: git stash."
        ),
        human_text=(
            "⚠️  dcg WARNING: This command matches a destructive pattern\n\n"
            "Pattern:  core.git:reset-hard\nSeverity: high\nCommand:  git reset --hard HEAD~1\n\n"
            "This is occurrence 1/2 in this session. Command will proceed.\n"
        ),
        summary="dcg: warned about core.git:reset-hard (occurrence 1/2 in this session)",
    ),
    "soft-block": Outcome(
        SOFT_BLOCK,
        match=None,
        command=COMMAND,
        fields={
            "responseLevel": "soft_block",
            "sessionOccurrence": 3,
            "sessionThreshold": 2,
            "historyOccurrence": 2,
            "historyThreshold": 5,
            "confirmCode": "7f3a",
            "ruleId": "core.git:reset-hard",
            "packId": "core.git",
            "severity": "high",
            "remediation": {"confirmCommand": "dcg confirm 7f3a", "safeAlternative": "git stash"},
        },
        model_text=(
            "dcg blocked `git reset --hard HEAD~1` (core.git:reset-hard, high): it discards "
            "uncommitted changes. To proceed, the user runs `dcg confirm 7f3a` in a terminal "
            f"and you retry the same command. {_STOP}"
        ),
        human_text=(
            "🛑 dcg SOFT BLOCK: Command requires confirmation\n\n"
            "Pattern:  core.git:reset-hard\nSeverity: high\nCommand:  git reset --hard HEAD~1\n\n"
            "To proceed, use: dcg confirm <code>\nCode: 7f3a\n"
        ),
        summary="dcg: blocked core.git:reset-hard; confirm with `dcg confirm 7f3a`",
    ),
    "hard-block": Outcome(
        HARD_BLOCK,
        match=None,
        command=COMMAND,
        fields={
            "responseLevel": "hard_block",
            "sessionOccurrence": 4,
            "historyOccurrence": 6,
            "historyThreshold": 5,
            "allowOnceCode": "9b2e",
            "ruleId": "core.git:reset-hard",
            "packId": "core.git",
            "severity": "high",
            "remediation": {
                "allowOnceCommand": "dcg allow-once 9b2e",
                "allowlistCommand": "dcg allowlist add core.git:reset-hard --user",
            },
        },
        model_text=(
            "dcg blocked `git reset --hard HEAD~1` (core.git:reset-hard, high): blocked 6 "
            "times in the last 24h. Only the user can allow it, with `dcg allow-once 9b2e` "
            f"or an allowlist entry. {_STOP}"
        ),
        human_text=(
            "🚫 dcg HARD BLOCK: Command blocked (threshold exceeded)\n\n"
            "Pattern:  core.git:reset-hard\nSeverity: high\nCommand:  git reset --hard HEAD~1\n\n"
            "Code: 9b2e\n"
        ),
        summary="dcg: hard-blocked core.git:reset-hard; allow with `dcg allow-once 9b2e`",
    ),
}

OUTCOMES["soft-ask"] = Outcome(
    SOFT_BLOCK,
    ask=True,
    match=None,
    command=COMMAND,
    fields={**OUTCOMES["soft-block"].fields},
    model_text=OUTCOMES["soft-block"].model_text,
    human_text=OUTCOMES["soft-block"].human_text,
    summary="dcg: core.git:reset-hard (high) discards uncommitted changes. Run it?",
)

CASES = ("no-match", "warning", "soft-block", "hard-block", "soft-ask", "malformed", "error")


def _reply(agent: str, case: str) -> Reply:
    if case == "malformed":
        with pytest.raises(jsonfast.JSONError):
            jsonfast.loads('{"tool_name": "Bash", "tool_input": {"command": ')
        return agents.render_malformed(agent)
    if case == "error":
        return agents.render_error(agent, "TimeoutError: evaluation budget exceeded")
    request = agents.read_request(PAYLOADS[agent], None)
    assert request is not None
    assert request.agent == agent
    return agents.render(request, OUTCOMES.get(case))


def _serialise(reply: Reply) -> str:
    return f"exit {reply.exit_code}\n--- stdout\n{reply.stdout}--- stderr\n{reply.stderr}"


@pytest.mark.parametrize(
    ("agent", "case"),
    [pytest.param(a, c, id=f"{a}-{c}") for a in agents.AGENTS for c in CASES],
)
def test_golden_output(agent: str, case: str) -> None:
    actual = _serialise(_reply(agent, case)).encode()
    path = GOLDEN / agent / f"{case}.txt"
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(actual)
    assert path.read_bytes() == actual


def _keys_outside(value: object, accepted: dict[str, frozenset[str]], path: str) -> list[str]:
    if not isinstance(value, dict):
        return []
    allowed = accepted.get(path)
    if allowed is None:
        return []
    bad = [f"{path}.{k}" if path else k for k in value if k not in allowed]
    for key, sub in value.items():
        bad += _keys_outside(sub, accepted, key if not path else f"{path}.{key}")
    return bad


@pytest.mark.parametrize(
    ("agent", "case"),
    [pytest.param(a, c, id=f"{a}-{c}") for a in agents.AGENTS for c in CASES],
)
def test_output_has_only_accepted_fields(agent: str, case: str) -> None:
    reply = _reply(agent, case)
    accepted = agents.adapter(agent).OUTPUT_FIELDS
    if not accepted:
        assert reply.stdout == ""
        return
    if not reply.stdout:
        return
    body = json.loads(reply.stdout)
    assert isinstance(body, dict)
    assert _keys_outside(body, accepted, "") == []


# What each agent's JSON must say for each level (the degradation table).
DECISIONS = [
    pytest.param("claude", "warning", None, id="claude-warning-no-decision"),
    pytest.param("claude", "soft-block", "deny", id="claude-soft-deny"),
    pytest.param("claude", "soft-ask", "ask", id="claude-soft-ask"),
    pytest.param("claude", "hard-block", "deny", id="claude-hard-deny"),
    pytest.param("codex", "warning", None, id="codex-warning-no-decision"),
    pytest.param("codex", "soft-ask", "deny", id="codex-ask-degrades"),
    pytest.param("codex", "hard-block", "deny", id="codex-hard-deny"),
    pytest.param("gemini", "warning", None, id="gemini-warning-no-decision"),
    pytest.param("gemini", "soft-ask", "deny", id="gemini-ask-degrades"),
    pytest.param("gemini", "hard-block", "deny", id="gemini-hard-deny"),
    pytest.param("copilot", "warning", None, id="copilot-warning-no-decision"),
    pytest.param("copilot", "soft-ask", "ask", id="copilot-soft-ask"),
    pytest.param("copilot", "soft-block", "deny", id="copilot-soft-deny"),
    pytest.param("cursor", "warning", None, id="cursor-warning-no-decision"),
    pytest.param("cursor", "soft-ask", "ask", id="cursor-soft-ask"),
    pytest.param("cursor", "hard-block", "deny", id="cursor-hard-deny"),
    pytest.param("opencode", "warning", "warn", id="opencode-warning"),
    pytest.param("opencode", "soft-ask", "deny", id="opencode-ask-degrades"),
]

_DECISION_KEYS = ("permissionDecision", "decision", "permission")


def _decision(body: dict[str, object]) -> object:
    for scope in (body.get("hookSpecificOutput"), body):
        if isinstance(scope, dict):
            for key in _DECISION_KEYS:
                if key in scope:
                    return scope[key]
    return None


@pytest.mark.parametrize(("agent", "case", "decision"), DECISIONS)
def test_level_maps_to_agent_decision(agent: str, case: str, decision: str | None) -> None:
    reply = _reply(agent, case)
    assert reply.exit_code == 0
    body = json.loads(reply.stdout) if reply.stdout else {}
    assert _decision(body) == decision


@pytest.mark.parametrize(
    ("case", "exit_code"),
    [
        pytest.param("warning", 0, id="warning-runs"),
        pytest.param("soft-block", 2, id="soft-blocks"),
        pytest.param("soft-ask", 2, id="ask-blocks"),
        pytest.param("hard-block", 2, id="hard-blocks"),
        pytest.param("error", 2, id="error-blocks"),
    ],
)
def test_windsurf_blocks_with_exit_2(case: str, exit_code: int) -> None:
    reply = _reply("windsurf", case)
    assert (reply.stdout, reply.exit_code) == ("", exit_code)


@pytest.mark.parametrize(
    ("mode", "entrypoint", "decision"),
    [
        pytest.param("default", "cli", "ask", id="default"),
        pytest.param("plan", "cli", "ask", id="plan"),
        pytest.param("acceptEdits", "cli", "ask", id="accept-edits"),
        pytest.param(None, "cli", "ask", id="no-mode"),
        pytest.param("auto", "cli", "deny", id="auto-ignores-ask"),
        pytest.param("dontAsk", "cli", "deny", id="dont-ask"),
        pytest.param("bypassPermissions", "cli", "deny", id="bypass"),
        pytest.param("default", "sdk-cli", "deny", id="headless-p"),
        pytest.param("default", "sdk-py", "deny", id="sdk"),
    ],
)
def test_claude_ask_only_where_it_is_honoured(
    mode: str | None, entrypoint: str, decision: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_CODE_ENTRYPOINT", entrypoint)
    payload = {**PAYLOADS["claude"], "permission_mode": mode}
    request = agents.read_request(payload, None)
    assert request is not None
    body = json.loads(agents.render(request, OUTCOMES["soft-ask"]).stdout)
    assert body["hookSpecificOutput"]["permissionDecision"] == decision
    reason = body["hookSpecificOutput"]["permissionDecisionReason"]
    assert ("dcg confirm 7f3a" in reason) == (decision == "deny")


def test_hard_block_never_asks() -> None:
    hard = OUTCOMES["hard-block"]
    asking = Outcome(
        HARD_BLOCK,
        ask=True,
        match=None,
        command=COMMAND,
        fields=hard.fields,
        model_text=hard.model_text,
        human_text=hard.human_text,
        summary=hard.summary,
    )
    for agent in ("claude", "copilot", "cursor"):
        request = agents.read_request(PAYLOADS[agent], None)
        assert request is not None
        body = json.loads(agents.render(request, asking).stdout)
        assert _decision(body) == "deny"


def test_long_reason_is_capped() -> None:
    soft = OUTCOMES["soft-block"]
    long = Outcome(
        SOFT_BLOCK,
        match=None,
        command=COMMAND,
        fields=soft.fields,
        model_text="x" * 20_000,
        human_text="",
        summary="",
    )
    request = agents.read_request(PAYLOADS["claude"], None)
    assert request is not None
    body = json.loads(agents.render(request, long).stdout)
    assert len(body["hookSpecificOutput"]["permissionDecisionReason"]) == 10_000


def test_unknown_agent_error_exits_2() -> None:
    reply = agents.render_error(None, "boom")
    assert (reply.stdout, reply.exit_code) == ("", 2)
    assert "boom" in reply.stderr
