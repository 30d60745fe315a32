"""OpenHands ``PreToolUse`` adapter (``.openhands/hooks.json``; shell tool ``terminal``).

OpenHands (CLI, local GUI and Cloud, through its agent SDK) loads the first of
``.openhands/hooks.json`` in the working directory and ``~/.openhands/hooks.json``, in
Claude Code's layout, and sends ``event_type``, ``tool_name``, ``tool_input``,
``session_id`` and ``working_dir``. Exit 2 blocks (``reason``/stderr is the feedback);
exit 0 may print ``decision``, ``reason`` and ``additionalContext``; any other exit code is
a logged error and the tool runs (docs.openhands.dev/openhands/usage/customization/hooks,
OpenHands/software-agent-sdk openhands/sdk/hooks, read 2026-12). No channel only the person
reads is documented: no approval code is written.
"""

from __future__ import annotations

from dcg.agents._common import (
    cap,
    decision_reply,
    error_decision,
    json_reply,
    mark,
    text,
    tool_call,
)
from dcg.hookio import WARNING, HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.agents._common import Mark
    from dcg.agents._spec import Agent
    from dcg.hookio import Outcome

NAME = "openhands"

# Its hot-path facts: see dcg.agents (the claude module says what each is).
ORDER = 190
MARKS: tuple[Mark, ...] = (mark(0, ("event_type", None), ("working_dir", None)),)
HOOK_FILES: tuple[str, ...] = (".openhands/hooks.json",)
OWN_DIRS: tuple[str, ...] = ()

OUTPUT_FIELDS: dict[str, frozenset[str]] = {
    "": frozenset({"decision", "reason", "additionalContext", "continue"})
}

# OpenHands' terminal tool (and its older name); file_editor names the file as `path`.
_SHELLS = {"terminal": "bash", "execute_bash": "bash"}
FILE_TOOLS = frozenset({"file_editor", "str_replace_editor"})


def read(payload: dict[str, object]) -> HookRequest | None:
    body = {**payload, "cwd": text(payload.get("working_dir"))}
    # A hook cannot make OpenHands ask: a soft block is a deny.
    return tool_call(NAME, body, _SHELLS, FILE_TOOLS, interactive=False)


def render(request: HookRequest, outcome: Outcome, details: bool = False) -> Reply:
    if outcome.level == WARNING:
        return json_reply({"additionalContext": cap(outcome.model_text)})
    # Exit 2 is the documented block; the JSON names the reason as well.
    return decision_reply(outcome, "deny", exit_code=2)


def render_error(message: str) -> Reply:
    return error_decision(message, exit_code=2)


def spec() -> Agent:
    from dcg.agents import _spec

    return _spec.Agent(
        name=NAME,
        title="OpenHands",
        shells=_SHELLS,
        file_tools=FILE_TOOLS,
        fields=OUTPUT_FIELDS,
        fields_source="docs.openhands.dev/sdk/guides/hooks, Exit Codes (structured output)",
        fields_date="2026-12",
        user_path=".openhands/hooks.json",
        project_path=".openhands/hooks.json",
        home_dirs=(".openhands",),
        binaries=("openhands",),
        layout=_spec.Grouped(
            "PreToolUse",
            "terminal|execute_bash|file_editor|str_replace_editor",
            {"type": "command", "command": None, "timeout": 10},
        ),
        probe=_spec.Probe(
            {
                "event_type": "PreToolUse",
                "tool_name": "terminal",
                "tool_input": {"command": "{command}"},
                "session_id": "dcg-doctor",
                "working_dir": "{cwd}",
            },
            path=("decision",),
        ),
        fails=_spec.FAILS_OPEN,
        fail_text="any exit other than 0 or 2, and a time-out, is logged and the command runs",
        note="OpenHands reads the first of .openhands/hooks.json in the project and "
        "~/.openhands/hooks.json: a project file replaces yours, so install into the "
        "project too (dcg install --project --agent openhands).",
    )
