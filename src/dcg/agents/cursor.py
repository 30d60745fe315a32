"""Cursor ``beforeShellExecution`` adapter."""

from __future__ import annotations

from dcg import jsonfast
from dcg.agents._common import cap, command_text, error_reason, human_stderr, text
from dcg.hookio import SOFT_BLOCK, WARNING, HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.hookio import Outcome

NAME = "cursor"

OUTPUT_FIELDS: dict[str, frozenset[str]] = {
    "": frozenset({"permission", "user_message", "agent_message"}),
}


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


def render(request: HookRequest, outcome: Outcome) -> Reply:
    if outcome.level == WARNING:
        # No `permission`: "allow" would skip Cursor's own approval of the command.
        body = {"agent_message": cap(outcome.model_text)}
        if outcome.summary:
            body["user_message"] = cap(outcome.summary)
        return Reply(jsonfast.dumps(body) + "\n", human_stderr(outcome), 0)
    permission = "ask" if outcome.ask and outcome.level == SOFT_BLOCK else "deny"
    body = {"permission": permission}
    if outcome.summary:
        body["user_message"] = cap(outcome.summary)
    body["agent_message"] = cap(outcome.model_text)
    return Reply(jsonfast.dumps(body) + "\n", human_stderr(outcome), 0)


def render_error(message: str) -> Reply:
    reason = error_reason(message)
    body = {"permission": "deny", "user_message": reason, "agent_message": reason}
    return Reply(jsonfast.dumps(body) + "\n", "", 0)
