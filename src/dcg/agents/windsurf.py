"""Windsurf (Cascade) ``pre_run_command`` adapter: exit 2 blocks, stderr is the reason."""

from __future__ import annotations

from dcg.agents import _fields
from dcg.agents._common import cap, command_text, error_reason, file_request, human_stderr, text
from dcg.hookio import WARNING, HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.hookio import Outcome

NAME = "windsurf"

# Windsurf reads no JSON from a hook: stdout stays empty.
OUTPUT_FIELDS: dict[str, frozenset[str]] = _fields.fields(NAME)


def read(payload: dict[str, object]) -> HookRequest | None:
    action = payload.get("agent_action_name")
    info = payload.get("tool_info")
    if action == "pre_write_code" and isinstance(info, dict):
        # Cascade's file edits: tool_info.file_path is the file about to change.
        session = text(payload.get("trajectory_id"))
        return file_request(NAME, "pre_write_code", info, text(info.get("cwd")), session)
    if (action is not None and action != "pre_run_command") or not isinstance(info, dict):
        return None
    command = command_text(info.get("command_line"))
    if command is None:
        return None
    return HookRequest(
        NAME,
        command,
        cwd=text(info.get("cwd")),
        session_id=text(payload.get("trajectory_id")),
        tool="pre_run_command",
    )


def render(request: HookRequest, outcome: Outcome, details: bool = False) -> Reply:
    # Windsurf has no user-only channel: stderr with show_output is seen by the model too,
    # so no approval code is ever written (the reason tells the agent to ask the person).
    if outcome.level == WARNING:
        # With show_output the user sees it; the command proceeds.
        return Reply("", human_stderr(outcome), 0)
    # Cascade cannot prompt: an ask is a block like any other.
    reason = cap(outcome.model_text)
    return Reply("", reason if reason.endswith("\n") else reason + "\n", 2)


def render_error(message: str) -> Reply:
    return Reply("", error_reason(message) + "\n", 2)
