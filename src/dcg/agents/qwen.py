"""Qwen Code ``PreToolUse`` adapter: a Gemini CLI fork with Claude Code's hook protocol.

Qwen Code sends ``hook_event_name: "PreToolUse"``, ``tool_name: "run_shell_command"``
(the runtime tool id, as in Gemini CLI) and ``tool_input.command``, and reads
``hookSpecificOutput`` with ``permissionDecision`` (``allow|deny|ask``; ``ask`` falls
back to ``deny`` where Qwen cannot prompt), ``permissionDecisionReason`` (required) and
``additionalContext`` (QwenLM/qwen-code docs/users/features/hooks.md, read 2026-12).
Its docs list ``systemMessage`` without saying who reads it, so no approval code is
written anywhere: the person finds the pending item with ``dcg confirm``.
"""

from __future__ import annotations

from dcg import jsonfast
from dcg.agents._common import cap, error_reason, in_directory, mark, text, tool_call
from dcg.hookio import SOFT_BLOCK, WARNING, HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.agents._common import Mark
    from dcg.agents._spec import Agent
    from dcg.hookio import Outcome

NAME = "qwen"

# Its hot-path facts: see dcg.agents (the claude module says what each is).
ORDER = 90
_E, _T = "hook_event_name", "tool_name"
MARKS: tuple[Mark, ...] = (
    mark(
        0,
        (_E, "PreToolUse"),
        (_T, frozenset({"run_shell_command", "write_file", "replace", "monitor"})),
    ),
)
HOOK_FILES: tuple[str, ...] = (".qwen/settings.json",)
OWN_DIRS: tuple[str, ...] = (".qwen",)

# QwenLM/qwen-code docs/users/features/hooks.md, PreToolUse output options (read 2026-12).
OUTPUT_FIELDS: dict[str, frozenset[str]] = {
    "": frozenset({"hookSpecificOutput"}),
    "hookSpecificOutput": frozenset(
        {"hookEventName", "permissionDecision", "permissionDecisionReason", "additionalContext"}
    ),
}

# monitor (parameters `command`, `directory`) runs a shell command in the background.
_SHELLS = {"run_shell_command": "bash", "monitor": "bash"}
# Qwen Code's file-writing tools (Gemini CLI's, `replace` renamed `edit`): dcg judges the
# paths they change, so a file tool cannot unhook dcg either (dcg.selfguard).
FILE_TOOLS = frozenset({"write_file", "edit", "replace"})


def read(payload: dict[str, object]) -> HookRequest | None:
    mode = text(payload.get("permission_mode"))
    request = tool_call(NAME, payload, _SHELLS, FILE_TOOLS, permission_mode=mode)
    # Its shell tools run the command in `directory` (Gemini's dir_path, renamed).
    return in_directory(request, payload, "directory")


def render(request: HookRequest, outcome: Outcome, details: bool = False) -> Reply:
    specific: dict[str, object] = {"hookEventName": "PreToolUse"}
    if outcome.level == WARNING:
        specific["additionalContext"] = cap(outcome.model_text)
    else:
        # Qwen itself turns an `ask` into a deny where it cannot prompt.
        ask = outcome.ask and outcome.level == SOFT_BLOCK
        specific["permissionDecision"] = "ask" if ask else "deny"
        specific["permissionDecisionReason"] = cap(outcome.model_text)
    return Reply(jsonfast.dumps({"hookSpecificOutput": specific}) + "\n", "", 0)


def render_error(message: str) -> Reply:
    specific = {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": error_reason(message),
    }
    return Reply(jsonfast.dumps({"hookSpecificOutput": specific}) + "\n", "", 0)


def spec() -> Agent:
    from dcg.agents import _spec, claude

    return _spec.Agent(
        name=NAME,
        title="Qwen Code",
        shells=_SHELLS,
        file_tools=FILE_TOOLS,
        fields=OUTPUT_FIELDS,
        fields_source="QwenLM/qwen-code docs/users/features/hooks.md, PreToolUse output options",
        fields_date="2026-12",
        user_path=".qwen/settings.json",
        project_path=".qwen/settings.json",
        home_dirs=(".qwen",),
        binaries=("qwen",),
        # Gemini CLI's, renamed: its home and the system settings file that overrides all.
        unguarded=("QWEN_HOME", "QWEN_CODE_SYSTEM_SETTINGS_PATH"),
        packages=("@qwen-code/qwen-code",),
        # Qwen's timeout is in milliseconds.
        layout=_spec.Grouped(
            "PreToolUse",
            "^(run_shell_command|monitor|write_file|edit|replace)$",
            {"type": "command", "command": None, "name": "dcg", "timeout": 10000},
        ),
        probe=_spec.Probe(claude.probe_payload("run_shell_command"), exit_codes=()),
        fails=_spec.FAILS_OPEN,
        fail_text="other exit codes and time-outs (60 s) let the command run",
        note="Restart qwen; project settings apply only in a folder you trusted.",
        covers=("run_shell_command", "monitor", "write_file", "edit", "replace"),
    )
