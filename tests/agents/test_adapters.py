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

# Golden variants: each agent, Copilot's second payload format, and Claude Code with
# `[hook] details` on. Variant -> (agent, payload file, details).
VARIANTS: dict[str, tuple[str, str, bool]] = {
    **{agent: (agent, agent, False) for agent in agents.AGENTS},
    "copilot-vscode": ("copilot", "copilot-vscode", False),
    # VS Code agent mode's own payload (camelCase hookEventName/sessionId), same answer.
    "copilot-vscodeagent": ("copilot", "copilot-vscodeagent", False),
    "claude-details": ("claude", "claude", True),
    "codex-details": ("codex", "codex", True),
}

# One realistic stdin per agent and format, as each agent documents it (hook-protocols.md).
PAYLOADS: dict[str, dict[str, object]] = {
    name: json.loads((GOLDEN / "payloads" / f"{name}.json").read_text())
    for name in {payload for _, payload, _ in VARIANTS.values()}
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
            "uncommitted changes. To proceed, ask the user to run `dcg confirm` in their own "
            f"terminal and pick this command, then retry the same command. {_STOP}"
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
            "times in the last 24h. Only the user can allow it: ask them to run `dcg allow-once` "
            f"in their own terminal, or to add an allowlist entry. {_STOP}"
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
    # As graduation builds it: the summary names the code, so where it goes matters.
    summary=(
        "dcg blocked core.git:reset-hard: `git reset --hard HEAD~1`. To allow it: dcg confirm 7f3a"
    ),
)

CASES = ("no-match", "warning", "soft-block", "hard-block", "soft-ask", "malformed", "error")


def _reply(variant: str, case: str) -> Reply:
    agent, payload, details = VARIANTS[variant]
    if case == "malformed":
        with pytest.raises(jsonfast.JSONError):
            jsonfast.loads('{"tool_name": "Bash", "tool_input": {"command": ')
        return agents.render_malformed(agent)
    request = agents.read_request(PAYLOADS[payload], None)
    if case == "error":
        dialect = request.dialect if request is not None else None
        return agents.render_error(agent, "TimeoutError: evaluation budget exceeded", dialect)
    assert request is not None
    assert request.agent == agent
    return agents.render(request, OUTCOMES.get(case), details=details)


def _serialise(reply: Reply) -> str:
    return f"exit {reply.exit_code}\n--- stdout\n{reply.stdout}--- stderr\n{reply.stderr}"


@pytest.mark.parametrize(
    ("variant", "case"),
    [pytest.param(v, c, id=f"{v}-{c}") for v in VARIANTS for c in CASES],
)
def test_golden_output(variant: str, case: str) -> None:
    actual = _serialise(_reply(variant, case)).encode()
    path = GOLDEN / variant / f"{case}.txt"
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


def _documented(variant: str) -> dict[str, frozenset[str]]:
    agent, _, details = VARIANTS[variant]
    if variant.startswith("copilot-vscode"):
        return agents.output_fields("copilot-vscode")
    return agents.output_fields(agent, details)


@pytest.mark.parametrize(
    ("variant", "case"),
    [pytest.param(v, c, id=f"{v}-{c}") for v in VARIANTS for c in CASES],
)
def test_output_has_only_documented_fields(variant: str, case: str) -> None:
    """Every key of every reply is in the agent's documented set (dcg.agents._fields)."""
    reply = _reply(variant, case)
    accepted = _documented(variant)
    if not accepted:
        assert reply.stdout == ""
        return
    if not reply.stdout:
        return
    body = json.loads(reply.stdout)
    assert isinstance(body, dict)
    assert _keys_outside(body, accepted, "") == []


@pytest.mark.parametrize("agent", [pytest.param(a, id=a) for a in agents.AGENTS])
def test_adapter_declares_the_table_entry(agent: str) -> None:
    spec = agents.spec(agent)
    assert agents.output_fields(agent) == agents.adapter(agent).OUTPUT_FIELDS == spec.fields
    assert spec.fields_source and spec.fields_date.startswith("20")


def test_field_check_catches_an_undocumented_key() -> None:
    body = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "responseLevel": "x"}}
    assert _keys_outside(body, agents.output_fields("claude"), "") == [
        "hookSpecificOutput.responseLevel"
    ]


def test_claude_without_details_has_no_draft_fields() -> None:
    body = json.loads(_reply("claude", "soft-block").stdout)
    assert set(body["hookSpecificOutput"]) == {
        "hookEventName",
        "permissionDecision",
        "permissionDecisionReason",
    }
    detailed = json.loads(_reply("claude-details", "soft-block").stdout)
    assert detailed["hookSpecificOutput"]["responseLevel"] == "soft_block"


def test_codex_never_gets_details() -> None:
    assert _reply("codex-details", "soft-block").stdout == _reply("codex", "soft-block").stdout


_CODES = ("7f3a", "9b2e")
# Where each agent's person, and only the person, reads text (hook-protocols.md).
_USER_ONLY = {
    "claude": "systemMessage",
    "codex": "systemMessage",
    "factory": "systemMessage",
    "auggie": "systemMessage",
    "gemini": "systemMessage",
    "cursor": "user_message",
    "opencode": "message",
}


@pytest.mark.parametrize(
    ("variant", "case"),
    [
        pytest.param(v, c, id=f"{v}-{c}")
        for v in VARIANTS
        for c in ("soft-block", "hard-block", "soft-ask")
    ],
)
def test_code_only_in_the_user_only_channel(variant: str, case: str) -> None:
    """decisions.md 10.2: no approval code where the model can read it."""
    agent = VARIANTS[variant][0]
    reply = _reply(variant, case)
    body = json.loads(reply.stdout) if reply.stdout else {}
    channel = _USER_ONLY.get(agent)
    rest = {k: v for k, v in body.items() if k != channel}
    model_side = json.dumps(rest) + reply.stderr
    assert not any(code in model_side for code in _CODES)
    if channel is not None and case != "soft-ask":
        assert any(code in str(body.get(channel)) for code in _CODES)


def test_claude_soft_block_code_only_in_system_message() -> None:
    body = json.loads(_reply("claude", "soft-block").stdout)
    assert "7f3a" in body["systemMessage"]
    reason = body["hookSpecificOutput"]["permissionDecisionReason"]
    assert "7f3a" not in reason
    assert "`dcg confirm`" in reason and "their own terminal" in reason
    assert _reply("claude", "soft-block").stderr == ""


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
    pytest.param("gemini", "soft-ask", "ask", id="gemini-soft-ask"),
    pytest.param("gemini", "soft-block", "deny", id="gemini-soft-deny"),
    pytest.param("factory", "warning", None, id="factory-warning-no-decision"),
    pytest.param("factory", "soft-ask", "ask", id="factory-soft-ask"),
    pytest.param("factory", "hard-block", "deny", id="factory-hard-deny"),
    pytest.param("auggie", "warning", None, id="auggie-warning-no-decision"),
    pytest.param("auggie", "soft-ask", "deny", id="auggie-ask-degrades"),
    pytest.param("auggie", "soft-block", "deny", id="auggie-soft-deny"),
    pytest.param("auggie", "hard-block", "deny", id="auggie-hard-deny"),
    pytest.param("copilot-vscode", "soft-block", "deny", id="copilot-vscode-soft-deny"),
    pytest.param("qwen", "warning", None, id="qwen-warning-no-decision"),
    pytest.param("qwen", "soft-ask", "ask", id="qwen-soft-ask"),
    pytest.param("qwen", "hard-block", "deny", id="qwen-hard-deny"),
    pytest.param("copilot-vscode", "soft-ask", "ask", id="copilot-vscode-soft-ask"),
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
    assert "7f3a" not in reason


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
