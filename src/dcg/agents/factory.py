"""Factory Droid ``PreToolUse`` adapter: Claude Code's protocol, shell tool ``Execute``.

Droid reads ``~/.factory/hooks.json`` (or ``.factory/hooks.json``); its payload is Claude
Code's shape (``tool_name``, ``tool_input.command``, ``session_id``, ``cwd``,
``permission_mode``) and its output is Claude Code's ``hookSpecificOutput`` with a
top-level ``systemMessage`` shown to the user (docs.factory.ai hooks reference, read
2026-12). Droid documents no ``additionalContext`` for PreToolUse, so a warning reaches
only the person.
"""

from __future__ import annotations

from dcg.agents import _fields, claude
from dcg.agents._common import text, tool_call
from dcg.hookio import HookRequest

TYPE_CHECKING = False
if TYPE_CHECKING:
    pass

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


# Claude Code's reply without additionalContext, and its error deny.
render = claude.render_no_context
render_error = claude.render_error
