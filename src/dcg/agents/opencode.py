"""OpenCode adapter: the small protocol between dcg and its JS plugin shim.

OpenCode has no stdin hook, so ``dcg install`` writes a plugin (``dcg.js``) whose
``tool.execute.before`` runs ``dcg hook --agent opencode`` with one JSON object::

    {"tool": "bash", "command": "git reset --hard", "cwd": "/repo", "sessionID": "ses_1"}

dcg answers with nothing (no opinion) or one JSON object the shim acts on::

    {"decision": "deny", "reason": "<for the model>", "message": "<for the user>"}
    {"decision": "warn", "reason": "<for the model>", "message": "<for the user>"}

On ``deny`` the shim throws ``reason`` (OpenCode shows a thrown error to the model and
the command does not run); on ``warn`` it lets the command run and prepends ``reason``
to the tool's output.
"""

from __future__ import annotations

from dcg import jsonfast
from dcg.agents import _fields
from dcg.agents._common import cap, command_text, error_reason, text, user_text
from dcg.hookio import WARNING, HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.hookio import Outcome

NAME = "opencode"

OUTPUT_FIELDS: dict[str, frozenset[str]] = _fields.fields(NAME)


def read(payload: dict[str, object]) -> HookRequest | None:
    tool = payload.get("tool")
    if tool != "bash":
        return None
    command = command_text(payload.get("command"))
    if command is None:
        return None
    return HookRequest(
        NAME,
        command,
        cwd=text(payload.get("cwd")),
        session_id=text(payload.get("sessionID")),
        tool="bash",
    )


def render(request: HookRequest, outcome: Outcome, details: bool = False) -> Reply:
    # The plugin cannot prompt the user: ask is a deny. `message` is shown only as a
    # TUI toast, which the model does not read (the shim never throws it).
    decision = "warn" if outcome.level == WARNING else "deny"
    body = {"decision": decision, "reason": cap(outcome.model_text)}
    notice = user_text(outcome)
    if notice:
        body["message"] = notice
    return Reply(jsonfast.dumps(body) + "\n", "", 0)


def render_error(message: str) -> Reply:
    body = {"decision": "deny", "reason": error_reason(message)}
    return Reply(jsonfast.dumps(body) + "\n", "", 0)
