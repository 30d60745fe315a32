"""Devin CLI ``PreToolUse`` adapter (Claude Code's hook format; shell tool ``exec``).

Devin for Terminal reads hooks from ``.devin/hooks.v1.json`` and the ``hooks`` key of
``.devin/config.json`` and ``~/.config/devin/config.json`` (JSON with comments allowed), in
Claude Code's layout, and also runs Claude Code's hooks. A PreToolUse hook gets
``tool_name`` (``exec``, ``edit``, MCP tools) and ``tool_input`` (``{"command",
"shell_id"}`` for ``exec``); it blocks with exit 2 or ``{"decision": "block", "reason"}``
on stdout, the reason "shown to the agent"; other exit codes are logged and the tool runs
(docs.devin.ai/cli/extensibility/hooks overview and lifecycle-hooks, read 2026-12). No
channel only the person reads is documented: no approval code is written, and a warning
is silent.
"""

from __future__ import annotations

from dcg.agents._common import (
    decision_reply,
    error_decision,
    mark,
    text,
    tool_call,
)
from dcg.hookio import HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.agents._common import Mark
    from dcg.agents._spec import Agent
    from dcg.hookio import Outcome

NAME = "devin"

# Its hot-path facts: see dcg.agents (the claude module says what each is).
ORDER = 150
_T, _I = "tool_name", "tool_input"
MARKS: tuple[Mark, ...] = (
    mark(0, (_I, None), (_T, "exec")),
    # Its file tools' lower-case names reach Claude Code's entry too (Devin runs it).
    mark(2, (_I, None), (_T, frozenset({"edit", "write"}))),
)
HOOK_FILES: tuple[str, ...] = (
    ".config/devin/config.json",
    ".devin/config.json",
    ".devin/config.local.json",
    ".devin/hooks.v1.json",
)
OWN_DIRS: tuple[str, ...] = ()

OUTPUT_FIELDS: dict[str, frozenset[str]] = {"": frozenset({"decision", "reason"})}

_SHELLS = {"exec": "bash"}
FILE_TOOLS = frozenset({"edit", "write"})


def read(payload: dict[str, object]) -> HookRequest | None:
    mode = text(payload.get("permission_mode"))
    # Devin documents no `ask` for a hook: a soft block is a deny.
    return tool_call(NAME, payload, _SHELLS, FILE_TOOLS, permission_mode=mode, interactive=False)


def render(request: HookRequest, outcome: Outcome, details: bool = False) -> Reply:
    return decision_reply(outcome, "block")


def render_error(message: str) -> Reply:
    return error_decision(message, "block")


def spec() -> Agent:
    from dcg.agents import _spec, claude

    return _spec.Agent(
        name=NAME,
        title="Devin CLI",
        shells=_SHELLS,
        file_tools=FILE_TOOLS,
        fields=OUTPUT_FIELDS,
        fields_source="docs.devin.ai/cli/extensibility/hooks/overview, Command Hooks output",
        fields_date="2026-12",
        user_path=".config/devin/config.json",
        project_path=".devin/config.json",
        home_dirs=(".config/devin",),
        binaries=("devin",),
        layout=_spec.Grouped(
            "PreToolUse", "^(exec|edit|write)$", {"type": "command", "command": None, "timeout": 10}
        ),
        probe=_spec.Probe(
            claude.probe_payload("exec", permission_mode=None)
            | {"tool_input": {"command": "{command}", "shell_id": "main"}},
            path=("decision",),
            values=("block",),
        ),
        fails=_spec.FAILS_OPEN,
        fail_text="any exit other than 0 or 2 is logged and the command runs; a time-out too",
        note="Restart devin. Devin also runs Claude Code's hooks: dcg's Claude Code entry "
        "covers its exec tool too.",
        covers=("exec", "edit"),
    )
