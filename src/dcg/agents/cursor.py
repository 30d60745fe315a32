"""Cursor ``beforeShellExecution`` adapter."""

from __future__ import annotations

from dcg import jsonfast
from dcg.agents import _fields
from dcg.agents._common import cap, command_text, error_reason, text, user_text
from dcg.hookio import SOFT_BLOCK, WARNING, HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.hookio import Outcome

NAME = "cursor"

OUTPUT_FIELDS: dict[str, frozenset[str]] = _fields.fields(NAME)


def read(payload: dict[str, object]) -> HookRequest | None:
    event = payload.get("hook_event_name")
    if event is not None and event != "beforeShellExecution":
        return None
    command = command_text(payload.get("command"))
    if command is None:
        return None
    cwd = text(payload.get("cwd"))
    roots = payload.get("workspace_roots")
    if cwd is None and isinstance(roots, list) and roots:
        cwd = text(roots[0])
    return HookRequest(
        NAME,
        command,
        cwd=cwd,
        session_id=text(payload.get("conversation_id")),
        tool="beforeShellExecution",
    )


def render(request: HookRequest, outcome: Outcome, details: bool = False) -> Reply:
    """``user_message`` is the person's channel (with the code); ``agent_message`` the model's."""
    notice = user_text(outcome)
    if outcome.level == WARNING:
        # No `permission`: "allow" would skip Cursor's own approval of the command.
        body = {"agent_message": cap(outcome.model_text)}
        if notice:
            body["user_message"] = notice
        return Reply(jsonfast.dumps(body) + "\n", "", 0)
    permission = "ask" if outcome.ask and outcome.level == SOFT_BLOCK else "deny"
    body = {"permission": permission}
    if notice:
        body["user_message"] = notice
    body["agent_message"] = cap(outcome.model_text)
    return Reply(jsonfast.dumps(body) + "\n", "", 0)


def render_error(message: str) -> Reply:
    reason = error_reason(message)
    body = {"permission": "deny", "user_message": reason, "agent_message": reason}
    return Reply(jsonfast.dumps(body) + "\n", "", 0)
