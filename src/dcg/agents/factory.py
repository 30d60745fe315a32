"""Factory Droid ``PreToolUse`` adapter: Claude Code's protocol, shell tool ``Execute``.

Droid reads ``~/.factory/hooks.json`` (or ``.factory/hooks.json``); its payload is Claude
Code's shape (``tool_name``, ``tool_input.command``, ``session_id``, ``cwd``,
``permission_mode``) and its output is Claude Code's ``hookSpecificOutput`` with a
top-level ``systemMessage`` shown to the user (docs.factory.ai hooks reference, read
2026-12). Droid documents no ``additionalContext`` for PreToolUse, so a warning reaches
only the person.
"""

from __future__ import annotations

from dcg.agents import claude
from dcg.agents._common import mark, text, tool_call
from dcg.hookio import HookRequest

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.agents._common import Mark
    from dcg.agents._spec import Agent

NAME = "factory"

# Its hot-path facts: see dcg.agents (the claude module says what each is).
ORDER = 80
_T, _I = "tool_name", "tool_input"
MARKS: tuple[Mark, ...] = (
    mark(0, (_I, None), (_T, frozenset({"Execute", "Create", "ApplyPatch"}))),
)
HOOK_FILES: tuple[str, ...] = (
    ".factory/hooks.json",
    ".factory/settings.json",
    ".factory/settings.local.json",
)
OWN_DIRS: tuple[str, ...] = (".factory",)
# Its top-level `systemMessage` is shown to the person only and may stand alone: the
# safety net's notices go there (dcg.safety.notice).
SYSTEM_MESSAGE = True

# docs.factory.ai/reference/hooks-reference, PreToolUse JSON output (read 2026-12).
OUTPUT_FIELDS: dict[str, frozenset[str]] = {
    "": frozenset({"hookSpecificOutput", "systemMessage"}),
    "hookSpecificOutput": frozenset(
        {"hookEventName", "permissionDecision", "permissionDecisionReason"}
    ),
}

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


def spec() -> Agent:
    from dcg.agents import _spec

    return _spec.Agent(
        name=NAME,
        title="Factory Droid",
        shells=_SHELLS,
        file_tools=FILE_TOOLS,
        fields=OUTPUT_FIELDS,
        fields_source="docs.factory.ai/reference/hooks-reference, PreToolUse JSON output",
        fields_date="2026-12",
        user_path=".factory/hooks.json",
        project_path=".factory/hooks.json",
        home_dirs=(".factory",),
        binaries=("droid",),
        layout=_spec.Grouped(
            "PreToolUse",
            "Execute|Create|Edit|MultiEdit|ApplyPatch",
            {"type": "command", "command": None, "timeout": 10},
        ),
        probe=_spec.Probe(claude.probe_payload("Execute"), exit_codes=()),
        fails=_spec.FAILS_OPEN,
        fail_text="Droid takes Claude Code's protocol: only exit 2 or a deny blocks, so a "
        "crash or a time-out lets the command run (not re-verified)",
        note="Restart droid; check the hook under /hooks.",
        covers=("Execute", "Create", "Edit", "MultiEdit", "ApplyPatch"),
    )
