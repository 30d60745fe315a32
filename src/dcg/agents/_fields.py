"""Every agent's documented hook-output fields, in one table (decisions.md 10.9).

An adapter writes only the keys listed here for its agent, per JSON object path (``""``
is the top level). Each entry names the documentation it rests on and when that was
read; tests/agents/test_adapters.py fails when an adapter writes anything else. The
draft's extra fields (:data:`DETAILS`) are added inside ``hookSpecificOutput`` only with
``[hook] details = true`` / ``DCG_HOOK_DETAILS=1``, and only for the agents in
:data:`DETAILS_AGENTS` (never for a strict schema such as Codex's).
"""

from __future__ import annotations

_CLAUDE_STYLE: dict[str, frozenset[str]] = {
    "": frozenset({"hookSpecificOutput", "systemMessage"}),
    "hookSpecificOutput": frozenset(
        {"hookEventName", "permissionDecision", "permissionDecisionReason", "additionalContext"}
    ),
}

# agent -> (fields per object path, source, date read)
DOCUMENTED: dict[str, tuple[dict[str, frozenset[str]], str, str]] = {
    "claude": (
        _CLAUDE_STYLE,
        "code.claude.com/docs/en/hooks, PreToolUse decision control; top-level systemMessage",
        "2026-08",
    ),
    "codex": (
        {
            "": frozenset(
                {"continue", "stopReason", "suppressOutput", "systemMessage", "hookSpecificOutput"}
            ),
            "hookSpecificOutput": frozenset(
                {
                    "hookEventName",
                    "permissionDecision",
                    "permissionDecisionReason",
                    "updatedInput",
                    "additionalContext",
                }
            ),
        },
        "openai/codex codex-rs/hooks output schema (deny_unknown_fields at every level)",
        "2026-12",
    ),
    "gemini": (
        {"": frozenset({"decision", "reason", "systemMessage"})},
        "google-gemini/gemini-cli packages/core/src/hooks (decision ask since 2026-03)",
        "2026-12",
    ),
    "qwen": (
        {
            "": frozenset({"hookSpecificOutput"}),
            "hookSpecificOutput": frozenset(
                {
                    "hookEventName",
                    "permissionDecision",
                    "permissionDecisionReason",
                    "additionalContext",
                }
            ),
        },
        "QwenLM/qwen-code docs/users/features/hooks.md, PreToolUse output options",
        "2026-12",
    ),
    "copilot": (
        {"": frozenset({"permissionDecision", "permissionDecisionReason"})},
        "docs.github.com Copilot CLI hooks reference, preToolUse output",
        "2026-12",
    ),
    # Copilot's second, "VS Code compatible" format (PascalCase PreToolUse).
    "copilot-vscode": (
        {
            "": frozenset({"hookSpecificOutput"}),
            "hookSpecificOutput": frozenset(
                {"hookEventName", "permissionDecision", "permissionDecisionReason"}
            ),
        },
        "code.visualstudio.com/docs/agents/reference/hooks-reference, PreToolUse output",
        "2026-12",
    ),
    "cursor": (
        {"": frozenset({"permission", "user_message", "agent_message"})},
        "third-party descriptions of Cursor beforeShellExecution (unverified)",
        "2026-12",
    ),
    "factory": (
        {
            "": frozenset({"hookSpecificOutput", "systemMessage"}),
            "hookSpecificOutput": frozenset(
                {"hookEventName", "permissionDecision", "permissionDecisionReason"}
            ),
        },
        "docs.factory.ai/reference/hooks-reference, PreToolUse JSON output",
        "2026-12",
    ),
    # Auggie documents only `deny` for PreToolUse (allow/ask "in a future release").
    "auggie": (
        {
            "": frozenset({"hookSpecificOutput", "systemMessage"}),
            "hookSpecificOutput": frozenset(
                {"hookEventName", "permissionDecision", "permissionDecisionReason"}
            ),
        },
        "docs.augmentcode.com/cli/hooks, Hook Output Reference (PreToolUse output)",
        "2026-12",
    ),
    "windsurf": ({}, "docs.windsurf.com Cascade hooks: exit 2 and stderr, no JSON", "2026-12"),
    "opencode": (
        {"": frozenset({"decision", "reason", "message"})},
        "dcg's own plugin protocol (src/dcg/agents/opencode.py)",
        "2026-12",
    ),
}

# The graduated-response draft's fields, without the approval codes (decisions.md 10.2).
DETAILS = frozenset(
    {
        "responseLevel",
        "sessionOccurrence",
        "sessionThreshold",
        "historyOccurrence",
        "historyThreshold",
        "ruleId",
        "packId",
        "severity",
        "warningMessage",
        "remediation",
    }
)
CODE_FIELDS = frozenset({"confirmCode", "allowOnceCode"})
# Agents whose implementation tolerates extra keys in hookSpecificOutput today.
DETAILS_AGENTS = frozenset({"claude"})


def fields(agent: str) -> dict[str, frozenset[str]]:
    """The documented output keys of ``agent``, per JSON object path."""
    return DOCUMENTED[agent][0]


def with_details(agent: str) -> dict[str, frozenset[str]]:
    """The keys ``agent`` may receive with ``[hook] details`` on."""
    table = dict(fields(agent))
    if agent in DETAILS_AGENTS:
        table["hookSpecificOutput"] = table["hookSpecificOutput"] | DETAILS
    return table
