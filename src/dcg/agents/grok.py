"""Grok CLI (xAI Grok Build) ``PreToolUse`` adapter (camelCase payload).

Grok reads hook files from ``~/.grok/hooks/*.json`` and ``<project>/.grok/hooks/*.json``
(project hooks after ``/hooks-trust``) in Claude Code's layout, and also runs Claude Code's
``.claude/settings.json`` and Cursor's ``.cursor/hooks.json`` hooks, mapping their tool and
event names to its own. The event arrives with ``hookEventName`` (``pre_tool_use``),
``sessionId``, ``cwd``, ``workspaceRoot``, ``toolName`` and ``toolInput``; a hook denies
with ``{"decision": "deny", "reason"}`` on stdout or exit 2; a time-out (5 s by default),
a crash or other output lets the tool run (docs.x.ai/build/features/hooks, read 2026-12;
the reply object and the tool names from third-party integrations that ran it, not from
that page). No channel only the person reads is documented: no approval code is
written, and a warning is silent.
"""

from __future__ import annotations

from dcg.agents._common import (
    command_text,
    decision_reply,
    error_decision,
    file_request,
    mark,
    text,
)
from dcg.hookio import HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.agents._common import Mark
    from dcg.agents._spec import Agent
    from dcg.hookio import Outcome

NAME = "grok"

# Its hot-path facts: see dcg.agents (the claude module says what each is).
ORDER = 160
MARKS: tuple[Mark, ...] = (
    mark(0, ("toolName", None), ("toolInput", None)),
    mark(0, ("hookEventName", "pre_tool_use")),
)
HOOK_FILES: tuple[str, ...] = (".grok/hooks/",)
OWN_DIRS: tuple[str, ...] = (".grok",)

OUTPUT_FIELDS: dict[str, frozenset[str]] = {"": frozenset({"decision", "reason"})}

# Grok's shell tool (an older spelling too), and Claude Code's name where a mapped hook
# reports it.
_SHELLS = {"run_terminal_command": "bash", "run_terminal_cmd": "bash", "Bash": "bash"}
FILE_TOOLS = frozenset({"write_file", "search_replace", "edit_file", "Write", "Edit"})


def read(payload: dict[str, object]) -> HookRequest | None:
    tool, args = payload.get("toolName"), payload.get("toolInput")
    cwd = text(payload.get("cwd")) or text(payload.get("workspaceRoot"))
    session = text(payload.get("sessionId"))
    if isinstance(tool, str) and tool in FILE_TOOLS:
        return file_request(NAME, tool, args, cwd, session)
    if not isinstance(tool, str) or tool not in _SHELLS or not isinstance(args, dict):
        return None
    command = command_text(args.get("command"))
    if command is None:
        return None
    mode = text(payload.get("permissionMode"))
    return HookRequest(
        NAME,
        command,
        cwd=cwd,
        session_id=session,
        tool=tool,
        permission_mode=mode,
        interactive=False,
    )


def render(request: HookRequest, outcome: Outcome, details: bool = False) -> Reply:
    return decision_reply(outcome, "deny")


def render_error(message: str) -> Reply:
    return error_decision(message)


def spec() -> Agent:
    from dcg.agents import _spec

    hook = {"type": "command", "command": _spec.COMMAND, "timeout": 10}
    return _spec.Agent(
        name=NAME,
        title="Grok CLI",
        shells=_SHELLS,
        file_tools=FILE_TOOLS,
        fields=OUTPUT_FIELDS,
        fields_source="docs.x.ai/build/features/hooks (script contract); the deny object as "
        "integrations that ran Grok describe it",
        fields_date="2026-12",
        user_path=".grok/hooks/dcg.json",
        project_path=".grok/hooks/dcg.json",
        home_dirs=(".grok",),
        binaries=("grok",),
        # No matcher: Grok maps matchers between tool names, and every tool it has asks
        # dcg, which answers only for shell and file tools.
        layout=_spec.OwnedJson({"hooks": {"PreToolUse": [{"hooks": [hook]}]}}),
        probe=_spec.Probe(
            {
                "hookEventName": "pre_tool_use",
                "sessionId": "dcg-doctor",
                "cwd": "{cwd}",
                "toolName": "run_terminal_command",
                "toolInput": {"command": "{command}"},
            },
            path=("decision",),
        ),
        fails=_spec.FAILS_OPEN,
        fail_text="a crash, a time-out (5 s by default; dcg registers 10 s) or output Grok "
        "cannot read lets the command run",
        note="Restart grok; a project's hooks run after you trust it with /hooks-trust.",
    )
