"""Gemini CLI ``BeforeTool`` adapter."""

from __future__ import annotations

from dcg import jsonfast
from dcg.agents import _fields
from dcg.agents._common import cap, error_reason, tool_call, user_text
from dcg.hookio import SOFT_BLOCK, WARNING, HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.hookio import Outcome

NAME = "gemini"

# `continue` is deliberately never sent: `continue: false` stops the whole agent loop.
OUTPUT_FIELDS: dict[str, frozenset[str]] = _fields.fields(NAME)

_SHELLS = {"run_shell_command": "bash"}
# Gemini CLI\'s file-writing tools.
FILE_TOOLS = frozenset(("write_file", "replace"))


def read(payload: dict[str, object]) -> HookRequest | None:
    return tool_call(NAME, payload, _SHELLS, FILE_TOOLS)


def render(request: HookRequest, outcome: Outcome, details: bool = False) -> Reply:
    """Gemini's answer; ``systemMessage`` is the user-only channel (and the text of the
    confirmation dialog with ``ask``). Stderr is not shown next to JSON output."""
    notice = user_text(outcome)
    if outcome.level == WARNING:
        # Gemini has no channel for a non-blocking note to the model; tell the user.
        if not notice:
            return Reply()
        return Reply(jsonfast.dumps({"systemMessage": notice}) + "\n", "", 0)
    if outcome.ask and outcome.level == SOFT_BLOCK:
        # `decision: "ask"` (since 2026-03) forces Gemini's confirmation dialog.
        body = {"decision": "ask", "reason": cap(outcome.model_text)}
    else:
        body = {"decision": "deny", "reason": cap(outcome.model_text)}
    if notice:
        body["systemMessage"] = notice
    return Reply(jsonfast.dumps(body) + "\n", "", 0)


def render_error(message: str) -> Reply:
    body = {"decision": "deny", "reason": error_reason(message)}
    return Reply(jsonfast.dumps(body) + "\n", "", 0)
