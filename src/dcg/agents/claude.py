"""Claude Code ``PreToolUse`` adapter (Bash and PowerShell tools)."""

from __future__ import annotations

from dcg import jsonfast
from dcg import oslite as os
from dcg.agents import _fields
from dcg.agents._common import (
    ask_text,
    cap,
    detail_fields,
    error_reason,
    text,
    tool_call,
    user_text,
)
from dcg.hookio import SOFT_BLOCK, WARNING, HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.hookio import Outcome

NAME = "claude"

# Documented fields only (dcg.agents._fields); the draft's extra fields only with details.
OUTPUT_FIELDS: dict[str, frozenset[str]] = _fields.fields(NAME)

_SHELLS = {"Bash": "bash", "PowerShell": "powershell"}
# Tools that write a file; dcg judges the paths they change (dcg.selfguard).
FILE_TOOLS = frozenset(("Write", "Edit", "MultiEdit", "NotebookEdit"))

# `ask` is only honoured in these modes; elsewhere it is ignored or auto-denied.
_ASK_MODES = frozenset({None, "default", "plan", "acceptEdits"})


def read(payload: dict[str, object], agent: str = NAME) -> HookRequest | None:
    """Codex sends the same shape; it reuses this reader with ``agent="codex"``."""
    mode = text(payload.get("permission_mode"))
    return tool_call(
        agent, payload, _SHELLS, FILE_TOOLS, permission_mode=mode, interactive=_interactive()
    )


def _interactive() -> bool:
    # Claude Code marks headless `claude -p` and SDK runs with an `sdk-*` entrypoint;
    # there an `ask` is denied, so dcg must deny itself and explain why.
    return not os.environ.get("CLAUDE_CODE_ENTRYPOINT", "").startswith("sdk")


def render(request: HookRequest, outcome: Outcome, details: bool = False) -> Reply:
    """Claude Code's answer. The person's text (with the code) goes only to the
    user-only ``systemMessage``; stderr on exit 0 reaches only Claude Code's debug log."""
    reply = reply_body(request, outcome)
    if details and NAME in _fields.DETAILS_AGENTS:
        specific = reply["hookSpecificOutput"]
        assert isinstance(specific, dict)
        specific.update(detail_fields(outcome))
    return Reply(jsonfast.dumps(reply) + "\n", "", 0)


def reply_body(
    request: HookRequest, outcome: Outcome, *, context: bool = True
) -> dict[str, object]:
    """The documented body shared by Claude Code style agents (Claude Code, Factory).

    ``context`` False: the agent documents no ``additionalContext`` for PreToolUse, so a
    warning reaches only the person.
    """
    body: dict[str, object] = {}
    specific: dict[str, object] = {"hookEventName": "PreToolUse"}
    if outcome.level == WARNING:
        if context:
            specific["additionalContext"] = cap(outcome.model_text)
    elif can_ask(request, outcome):
        # The reason of an `ask` is shown to the person in the prompt, not to the model.
        specific["permissionDecision"] = "ask"
        specific["permissionDecisionReason"] = ask_text(outcome)
    else:
        specific["permissionDecision"] = "deny"
        specific["permissionDecisionReason"] = cap(outcome.model_text)
    body["hookSpecificOutput"] = specific
    notice = user_text(outcome)
    if notice and specific.get("permissionDecision") != "ask":
        body["systemMessage"] = notice
    return body


def can_ask(request: HookRequest, outcome: Outcome) -> bool:
    return (
        outcome.ask
        and outcome.level == SOFT_BLOCK
        and request.interactive
        and request.permission_mode in _ASK_MODES
    )


def render_no_context(request: HookRequest, outcome: Outcome, details: bool = False) -> Reply:
    """Claude Code's reply for agents that took its protocol without ``additionalContext``
    (Factory Droid, Auggie): a warning reaches only the person, in ``systemMessage``."""
    body = reply_body(request, outcome, context=False)
    return Reply(jsonfast.dumps(body) + "\n", "", 0)


def render_error(message: str) -> Reply:
    specific = {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": error_reason(message),
    }
    return Reply(jsonfast.dumps({"hookSpecificOutput": specific}) + "\n", "", 0)
