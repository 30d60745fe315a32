"""Augment's Auggie CLI ``PreToolUse`` adapter (shell tool ``launch-process``).

Auggie reads hooks from ``~/.augment/settings.json`` (and ``.augment/settings.json`` in a
workspace, ``/etc/augment/settings.json`` system-wide) and sends ``hook_event_name``,
``conversation_id``, ``workspace_roots``, ``tool_name`` and ``tool_input`` (no ``cwd``).
It reads Claude Code's ``hookSpecificOutput`` on exit 0, but documents only
``permissionDecision: "deny"`` for PreToolUse (``allow`` and ``ask`` "in a future
release"); ``permissionDecisionReason`` is shown to the agent and the user, the top-level
``systemMessage`` to the user only, and no ``additionalContext`` reaches the model before
a tool runs (docs.augmentcode.com/cli/hooks, read 2026-12). So a soft block is a deny
whatever ``soft_block_action`` says, and a warning reaches only the person.
"""

from __future__ import annotations

from dcg.agents import claude
from dcg.agents._common import command_text, file_request, mark, text
from dcg.hookio import HookRequest

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.agents._common import Mark
    from dcg.agents._spec import Agent

NAME = "auggie"

# Its hot-path facts: see dcg.agents (the claude module says what each is).
ORDER = 100
_E, _T, _I = "hook_event_name", "tool_name", "tool_input"
MARKS: tuple[Mark, ...] = (
    mark(
        0,
        (_I, None),
        (_T, frozenset({"launch-process", "save-file", "str-replace-editor", "remove-files"})),
    ),
    mark(0, (_I, None), ("workspace_roots", None), (_E, "PreToolUse")),
)
HOOK_FILES: tuple[str, ...] = (
    ".augment/settings.json",
    ".augment/settings.local.json",
    ".augment/hooks/dcg-hook.sh",
    "/etc/augment/settings.json",
)
OWN_DIRS: tuple[str, ...] = (".augment",)
# Its top-level `systemMessage` is shown to the person only and may stand alone: the
# safety net's notices go there (dcg.safety.notice).
SYSTEM_MESSAGE = True

# docs.augmentcode.com/cli/hooks, Hook Output Reference (PreToolUse output), read 2026-12.
OUTPUT_FIELDS: dict[str, frozenset[str]] = {
    "": frozenset({"hookSpecificOutput", "systemMessage"}),
    "hookSpecificOutput": frozenset(
        {"hookEventName", "permissionDecision", "permissionDecisionReason"}
    ),
}

SHELL_TOOL = "launch-process"
# Tools that write or delete files; dcg judges the paths they change (dcg.selfguard).
FILE_TOOLS = frozenset(("save-file", "str-replace-editor", "remove-files"))


def read(payload: dict[str, object]) -> HookRequest | None:
    tool = payload.get("tool_name")
    tool_input = payload.get("tool_input")
    if not isinstance(tool, str) or not isinstance(tool_input, dict):
        return None
    roots = payload.get("workspace_roots")
    root = text(roots[0]) if isinstance(roots, list) and roots else None
    session = text(payload.get("conversation_id"))
    if tool in FILE_TOOLS:
        args = dict(tool_input)
        listed = args.pop("file_paths", None)
        if isinstance(listed, list):
            args["edits"] = [{"file_path": p} for p in listed if isinstance(p, str)]
        return file_request(NAME, tool, args, root, session)
    if tool != SHELL_TOOL:
        return None
    command = command_text(tool_input.get("command"))
    if command is None:
        return None
    return HookRequest(
        NAME,
        command,
        cwd=text(tool_input.get("cwd")) or root,
        session_id=session,
        tool=SHELL_TOOL,
        # Auggie documents no `ask` for PreToolUse: a soft block is a deny.
        interactive=False,
    )


# Claude Code's reply without additionalContext, and its error deny.
render = claude.render_no_context
render_error = claude.render_error


def spec() -> Agent:
    from dcg.agents import _spec

    return _spec.Agent(
        name=NAME,
        title="Auggie (Augment CLI)",
        shells={SHELL_TOOL: "bash"},
        file_tools=FILE_TOOLS,
        fields=OUTPUT_FIELDS,
        fields_source="docs.augmentcode.com/cli/hooks, Hook Output Reference (PreToolUse output)",
        fields_date="2026-12",
        user_path=".augment/settings.json",
        project_path=".augment/settings.json",
        home_dirs=(".augment",),
        binaries=("auggie",),
        packages=("@augmentcode/auggie",),
        # Auggie's timeout is in milliseconds, and it runs only `.sh` files: dcg's script
        # (beside the settings) runs the hook command.
        layout=_spec.Grouped(
            "PreToolUse",
            "^(launch-process|save-file|str-replace-editor|remove-files)$",
            {"type": "command", "command": None, "timeout": 10000},
        ),
        companions=(_spec.Companion("hooks/dcg-hook.sh", _spec.OwnedScript()),),
        probe=_spec.Probe(
            {
                "hook_event_name": "PreToolUse",
                "conversation_id": "dcg-doctor",
                "workspace_roots": ["{cwd}"],
                "tool_name": "launch-process",
                "tool_input": {"command": "{command}", "cwd": "{cwd}"},
            },
            exit_codes=(),
        ),
        fails=_spec.FAILS_OPEN,
        fail_text="Auggie documents no failure behaviour (not re-verified): a crash or a "
        "time-out is taken to let the command run",
        note="Restart auggie. Auggie documents only `deny` for PreToolUse: soft blocks are "
        "denies (approve with dcg confirm) and warnings reach only you.",
        covers=("launch-process", "save-file", "str-replace-editor", "remove-files"),
    )
