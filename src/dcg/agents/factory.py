"""Factory Droid ``PreToolUse`` adapter: Claude Code's protocol, shell tool ``Execute``.

Droid reads ``~/.factory/hooks.json`` (or ``.factory/hooks.json``); its payload is Claude
Code's shape (``tool_name``, ``tool_input.command``, ``session_id``, ``cwd``,
``permission_mode``) and its output is Claude Code's ``hookSpecificOutput`` with a
top-level ``systemMessage`` shown to the user (docs.factory.ai hooks reference, read
2026-12). Droid documents no ``additionalContext`` for PreToolUse, so a warning reaches
only the person.
"""

from __future__ import annotations

from dcg import jsonfast
from dcg.agents import _fields, claude
from dcg.agents._common import command_text, error_reason, file_request, text
from dcg.hookio import HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.hookio import Outcome

NAME = "factory"

OUTPUT_FIELDS: dict[str, frozenset[str]] = _fields.fields(NAME)

_TOOLS = frozenset({"Execute"})
# Droid's file-writing tools (its hooks reference names Create and Edit as matchers): dcg
# judges the paths they change, so a file tool cannot unhook dcg either (dcg.selfguard).
FILE_TOOLS = frozenset({"Create", "Edit", "MultiEdit", "ApplyPatch"})
# Droid's modes where its own permission prompt can show an `ask`.
_ASK_MODES = frozenset({None, "default", "plan"})


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
    mode = text(payload.get("permission_mode"))
    return HookRequest(
        NAME,
        command,
        cwd=text(payload.get("cwd")),
        session_id=text(payload.get("session_id")),
        tool="Execute",
        permission_mode=mode,
        # Droid's auto modes run without a prompt: an ask becomes a deny there.
        interactive=mode in _ASK_MODES,
    )


def render(request: HookRequest, outcome: Outcome, details: bool = False) -> Reply:
    body = claude.reply_body(request, outcome, context=False)
    return Reply(jsonfast.dumps(body) + "\n", "", 0)


def render_error(message: str) -> Reply:
    specific = {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": error_reason(message),
    }
    return Reply(jsonfast.dumps({"hookSpecificOutput": specific}) + "\n", "", 0)
