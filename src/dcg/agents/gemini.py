"""Gemini CLI ``BeforeTool`` adapter."""

from __future__ import annotations

from dcg import jsonfast
from dcg.agents._common import cap, command_text, error_reason, file_request, human_stderr, text
from dcg.hookio import WARNING, HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.hookio import Outcome

NAME = "gemini"

# `continue` is deliberately absent: `continue: false` stops the whole agent loop.
OUTPUT_FIELDS: dict[str, frozenset[str]] = {
    "": frozenset({"decision", "reason", "systemMessage"}),
}

_TOOLS = frozenset({"run_shell_command"})
# Gemini CLI\'s file-writing tools.
FILE_TOOLS = frozenset(("write_file", "replace"))


def read(payload: dict[str, object]) -> HookRequest | None:
    tool = payload.get("tool_name")
    tool_input = payload.get("tool_input")
    if tool in FILE_TOOLS and isinstance(tool, str):
        return file_request(
            NAME, tool, tool_input, text(payload.get("cwd")), text(payload.get("session_id"))
        )
    if tool not in _TOOLS or not isinstance(tool_input, dict):
        return None
    command = command_text(tool_input.get("command"))
    if command is None:
        return None
    return HookRequest(
        NAME,
        command,
        cwd=text(payload.get("cwd")),
        session_id=text(payload.get("session_id")),
        tool="run_shell_command",
    )


def render(request: HookRequest, outcome: Outcome) -> Reply:
    if outcome.level == WARNING:
        # Gemini has no channel for a non-blocking note to the model; tell the user.
        if not outcome.summary:
            return Reply("", human_stderr(outcome), 0)
        body = {"systemMessage": cap(outcome.summary)}
        return Reply(jsonfast.dumps(body) + "\n", human_stderr(outcome), 0)
    # No `ask` in Gemini: every block is a deny.
    body = {"decision": "deny", "reason": cap(outcome.model_text)}
    if outcome.summary:
        body["systemMessage"] = cap(outcome.summary)
    return Reply(jsonfast.dumps(body) + "\n", human_stderr(outcome), 0)


def render_error(message: str) -> Reply:
    body = {"decision": "deny", "reason": error_reason(message)}
    return Reply(jsonfast.dumps(body) + "\n", "", 0)
