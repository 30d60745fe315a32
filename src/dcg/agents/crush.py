"""Crush ``PreToolUse`` adapter (shell tool ``bash``).

Crush (charmbracelet/crush) reads hooks from ``crush.json`` or ``.crush.json`` in a project
and ``~/.config/crush/crush.json``, sends ``event``, ``session_id``, ``cwd``,
``tool_name`` and ``tool_input``, and reads ``{"decision": "deny", "reason": …}`` (the
reason goes to the model) and ``context`` (appended to what the model sees) on exit 0;
exit 2 with stderr also denies, exit 49 halts the turn, other exits and time-outs are no
opinion (docs/hooks/README.md, read 2026-12). Crush documents no channel only the person
reads: no approval code is written. Only the top-level agent's tool calls are hooked.
"""

from __future__ import annotations

from dcg.agents._common import decision_reply, error_decision, mark, tool_call
from dcg.hookio import HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.agents._common import Mark
    from dcg.agents._spec import Agent
    from dcg.hookio import Outcome

NAME = "crush"

# Its hot-path facts: see dcg.agents (the claude module says what each is).
ORDER = 120
_I = "tool_input"
MARKS: tuple[Mark, ...] = (mark(0, ("event", None), ("cwd", None), (_I, None)),)
HOOK_FILES: tuple[str, ...] = (
    # Crush reads a project's `crush.json` beside `.crush.json` (dcg writes the latter): a
    # bare name, judged only as spelled (no `*` reaches it).
    ".config/crush/crush.json",
    ".crush.json",
    "crush.json",
)
OWN_DIRS: tuple[str, ...] = ()

OUTPUT_FIELDS: dict[str, frozenset[str]] = {
    "": frozenset({"version", "decision", "halt", "reason", "context", "updated_input"})
}

_SHELLS = {"bash": "bash"}
FILE_TOOLS = frozenset({"edit", "write", "multiedit"})


def read(payload: dict[str, object]) -> HookRequest | None:
    # Crush cannot ask from a hook (allow, deny or no opinion): a soft block is a deny.
    return tool_call(NAME, payload, _SHELLS, FILE_TOOLS, interactive=False)


def render(request: HookRequest, outcome: Outcome, details: bool = False) -> Reply:
    return decision_reply(outcome, "deny", context="context")


def render_error(message: str) -> Reply:
    return error_decision(message)


def spec() -> Agent:
    from dcg.agents import _spec

    matcher = "^(bash|edit|write|multiedit)$"
    return _spec.Agent(
        name=NAME,
        title="Crush",
        shells=_SHELLS,
        file_tools=FILE_TOOLS,
        fields=OUTPUT_FIELDS,
        fields_source="charmbracelet/crush docs/hooks/README.md, Output envelope — PreToolUse",
        fields_date="2026-12",
        user_path=".config/crush/crush.json",
        project_path=".crush.json",
        home_dirs=(".config/crush",),
        binaries=("crush",),
        packages=("@charmland/crush",),
        layout=_spec.Flat(
            "PreToolUse",
            {"name": "dcg", "matcher": matcher, "command": None, "timeout": 10},
        ),
        probe=_spec.Probe(
            {
                "event": "PreToolUse",
                "session_id": "dcg-doctor",
                "cwd": "{cwd}",
                "tool_name": "bash",
                "tool_input": {"command": "{command}"},
            },
            path=("decision",),
        ),
        fails=_spec.FAILS_OPEN,
        fail_text="any exit other than 0, 2 or 49, and a time-out, let the command run "
        "(Crush has no setting to change that)",
        note="Restart crush. Crush hooks only the top-level agent: sub-agents' tool calls "
        "are not checked.",
    )
