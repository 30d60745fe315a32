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
from dcg.agents._common import error_reason, text, tool_call
from dcg.hookio import HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.hookio import Outcome

NAME = "factory"

OUTPUT_FIELDS: dict[str, frozenset[str]] = _fields.fields(NAME)

_SHELLS = {"Execute": "bash"}
# Droid's file-writing tools (its hooks reference names Create and Edit as matchers): dcg
# judges the paths they change, so a file tool cannot unhook dcg either (dcg.selfguard).
FILE_TOOLS = frozenset({"Create", "Edit", "MultiEdit", "ApplyPatch"})
# Droid's modes where its own permission prompt can show an `ask`.
_ASK_MODES = frozenset({None, "default", "plan"})


def read(payload: dict[str, object]) -> HookRequest | None:
    mode = text(payload.get("permission_mode"))
    # Droid's auto modes run without a prompt: an ask becomes a deny there.
    return tool_call(
        NAME, payload, _SHELLS, FILE_TOOLS, permission_mode=mode, interactive=mode in _ASK_MODES
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
