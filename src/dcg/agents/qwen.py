"""Qwen Code ``PreToolUse`` adapter: a Gemini CLI fork with Claude Code's hook protocol.

Qwen Code sends ``hook_event_name: "PreToolUse"``, ``tool_name: "run_shell_command"``
(the runtime tool id, as in Gemini CLI) and ``tool_input.command``, and reads
``hookSpecificOutput`` with ``permissionDecision`` (``allow|deny|ask``; ``ask`` falls
back to ``deny`` where Qwen cannot prompt), ``permissionDecisionReason`` (required) and
``additionalContext`` (QwenLM/qwen-code docs/users/features/hooks.md, read 2026-12).
Its docs list ``systemMessage`` without saying who reads it, so no approval code is
written anywhere: the person finds the pending item with ``dcg confirm``.
"""

from __future__ import annotations

from dcg import jsonfast
from dcg.agents import _fields
from dcg.agents._common import cap, error_reason, text, tool_call
from dcg.hookio import SOFT_BLOCK, WARNING, HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.hookio import Outcome

NAME = "qwen"

OUTPUT_FIELDS: dict[str, frozenset[str]] = _fields.fields(NAME)

_SHELLS = {"run_shell_command": "bash"}
# Qwen Code's file-writing tools (Gemini CLI's, `replace` renamed `edit`): dcg judges the
# paths they change, so a file tool cannot unhook dcg either (dcg.selfguard).
FILE_TOOLS = frozenset({"write_file", "edit", "replace"})


def read(payload: dict[str, object]) -> HookRequest | None:
    mode = text(payload.get("permission_mode"))
    return tool_call(NAME, payload, _SHELLS, FILE_TOOLS, permission_mode=mode)


def render(request: HookRequest, outcome: Outcome, details: bool = False) -> Reply:
    specific: dict[str, object] = {"hookEventName": "PreToolUse"}
    if outcome.level == WARNING:
        specific["additionalContext"] = cap(outcome.model_text)
    else:
        # Qwen itself turns an `ask` into a deny where it cannot prompt.
        ask = outcome.ask and outcome.level == SOFT_BLOCK
        specific["permissionDecision"] = "ask" if ask else "deny"
        specific["permissionDecisionReason"] = cap(outcome.model_text)
    return Reply(jsonfast.dumps({"hookSpecificOutput": specific}) + "\n", "", 0)


def render_error(message: str) -> Reply:
    specific = {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": error_reason(message),
    }
    return Reply(jsonfast.dumps({"hookSpecificOutput": specific}) + "\n", "", 0)
