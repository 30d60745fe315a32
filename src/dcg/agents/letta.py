"""Letta Code ``PreToolUse`` adapter (Claude Code's settings layout; exit 2 blocks).

Letta Code reads hooks from ``~/.letta/settings.json`` and ``.letta/settings.json`` (and
``.local.json``) in Claude Code's layout (timeout in milliseconds) and sends
``event_type``, ``working_directory``, ``session_id``, ``tool_name``, ``tool_input`` and
``tool_call_id``; tool names follow the agent's toolset (``Bash``, or Codex's ``shell``, or
Gemini's ``run_shell_command``). Exit 2 blocks and its stderr goes back to the agent; any
other exit, a time-out or a hook that cannot start only logs an error and the tool runs;
stdout is not read for PreToolUse (docs.letta.com/letta-code/hooks, letta-ai/letta-code
src/hooks/executor.ts and types.ts, read 2026-12). No channel only the person reads, nor a
non-blocking one to the model: no approval code is written and a warning is silent.
"""

from __future__ import annotations

from dcg.agents._common import error_exit2, exit2_reply, mark, text, tool_call
from dcg.hookio import HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.agents._common import Mark
    from dcg.agents._spec import Agent
    from dcg.hookio import Outcome

NAME = "letta"

# Its hot-path facts: see dcg.agents (the claude module says what each is).
ORDER = 180
MARKS: tuple[Mark, ...] = (mark(0, ("event_type", None), ("working_directory", None)),)
HOOK_FILES: tuple[str, ...] = (".letta/settings.json", ".letta/settings.local.json")
OWN_DIRS: tuple[str, ...] = ()

# Letta reads no JSON from a PreToolUse hook: exit 2 and stderr.
OUTPUT_FIELDS: dict[str, frozenset[str]] = {}

# The shell tool of each toolset Letta offers (Claude Code's, Codex's, Gemini's).
_SHELLS = {"Bash": "bash", "shell": "bash", "shell_command": "bash", "run_shell_command": "bash"}
FILE_TOOLS = frozenset({"Write", "Edit", "MultiEdit", "write_file", "replace", "apply_patch"})


def read(payload: dict[str, object]) -> HookRequest | None:
    body = {**payload, "cwd": text(payload.get("working_directory"))}
    # A hook cannot make Letta ask: a soft block is a deny.
    return tool_call(NAME, body, _SHELLS, FILE_TOOLS, interactive=False)


def render(request: HookRequest, outcome: Outcome, details: bool = False) -> Reply:
    return exit2_reply(outcome)


def render_error(message: str) -> Reply:
    return error_exit2(message)


def spec() -> Agent:
    from dcg.agents import _spec

    return _spec.Agent(
        name=NAME,
        title="Letta Code",
        shells=_SHELLS,
        file_tools=FILE_TOOLS,
        fields=OUTPUT_FIELDS,
        fields_source="letta-ai/letta-code src/hooks/executor.ts (exit 2 blocks, stderr is "
        "the feedback)",
        fields_date="2026-12",
        user_path=".letta/settings.json",
        project_path=".letta/settings.json",
        home_dirs=(".letta",),
        binaries=("letta",),
        # "*": every tool asks dcg (the toolsets name their tools differently); dcg answers
        # only for shell and file tools. Letta's timeout is in milliseconds.
        layout=_spec.Grouped(
            "PreToolUse", "*", {"type": "command", "command": None, "timeout": 10000}
        ),
        probe=_spec.Probe(
            {
                "event_type": "PreToolUse",
                "working_directory": "{cwd}",
                "session_id": "dcg-doctor",
                "tool_name": "Bash",
                "tool_input": {"command": "{command}"},
            },
            path=(),
        ),
        fails=_spec.FAILS_OPEN,
        fail_text="any exit other than 0 or 2, a time-out or a hook that cannot start is "
        "logged and the command runs",
        note="Restart letta.",
    )
