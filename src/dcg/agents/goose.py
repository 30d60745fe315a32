"""Goose ``PreToolUse`` adapter (Open Plugins hooks; shell tool ``developer__shell``).

Goose runs the hooks of plugins under ``~/.agents/plugins/<plugin>/`` and
``<project>/.agents/plugins/<plugin>/`` (a ``plugin.json`` and ``hooks/hooks.json``) and
sends ``event``, ``session_id``, ``tool_name``, ``tool_input``, ``working_dir`` and
``tool_call_id``. A hook denies with exit 2 or ``{"decision": "block", "reason": …}`` on
stdout; exit 0 with empty stdout allows; anything else is "no decision", which the
``on_failure: "block"`` dcg registers turns into a block (block/goose
documentation/docs/guides/context-engineering/hooks.md, read 2026-12). Goose shows the
reason to the model ("Tool call denied by policy hook `dcg`: …") and documents no channel
only the person reads, nor one for a warning: no approval code is written, and a warning
reaches the person on stderr only.
"""

from __future__ import annotations

from dcg.agents._common import (
    command_text,
    decision_reply,
    error_decision,
    file_request,
    human_stderr,
    mark,
    text,
)
from dcg.hookio import WARNING, HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.agents._common import Mark
    from dcg.agents._spec import Agent
    from dcg.hookio import Outcome

NAME = "goose"

# Its hot-path facts: see dcg.agents (the claude module says what each is).
ORDER = 110
MARKS: tuple[Mark, ...] = (mark(0, ("event", None), ("working_dir", None)),)
HOOK_FILES: tuple[str, ...] = (".agents/plugins/dcg/",)
OWN_DIRS: tuple[str, ...] = ()

OUTPUT_FIELDS: dict[str, frozenset[str]] = {"": frozenset({"decision", "reason"})}

_SHELLS = {"developer__shell": "bash"}
# developer__write and developer__edit name the file they change as `path`.
FILE_TOOLS = frozenset({"developer__write", "developer__edit"})


def read(payload: dict[str, object]) -> HookRequest | None:
    tool, args = payload.get("tool_name"), payload.get("tool_input")
    cwd, session = text(payload.get("working_dir")), text(payload.get("session_id"))
    if isinstance(tool, str) and tool in FILE_TOOLS:
        return file_request(NAME, tool, args, cwd, session)
    if tool not in _SHELLS or not isinstance(args, dict):
        return None
    command = command_text(args.get("command"))
    if command is None:
        return None
    # Goose cannot ask: a soft block is a deny.
    return HookRequest(NAME, command, cwd=cwd, session_id=session, tool=str(tool),
                       interactive=False)  # fmt: skip


def render(request: HookRequest, outcome: Outcome, details: bool = False) -> Reply:
    if outcome.level == WARNING:
        # stdout must stay empty (anything but a decision is "no decision", a block
        # under on_failure: block); stderr goes to the person.
        return Reply("", human_stderr(outcome), 0)
    return decision_reply(outcome, "block")


def render_error(message: str) -> Reply:
    return error_decision(message, "block")


def spec() -> Agent:
    from dcg.agents import _spec

    hook = {"type": "command", "command": _spec.COMMAND, "timeout": 10, "on_failure": "block"}
    group = {"matcher": "^(developer__shell|developer__write|developer__edit)$", "hooks": [hook]}
    manifest = {
        "name": "dcg",
        "version": "1.0.0",
        "description": "dcg (destructive command guard): written by `dcg install`, removed by "
        "`dcg uninstall`.",
    }
    return _spec.Agent(
        name=NAME,
        title="Goose",
        shells=_SHELLS,
        file_tools=FILE_TOOLS,
        fields=OUTPUT_FIELDS,
        fields_source="block/goose documentation/docs/guides/context-engineering/hooks.md, "
        "Blocking a Tool Call",
        fields_date="2026-12",
        user_path=".agents/plugins/dcg/hooks/hooks.json",
        project_path=".agents/plugins/dcg/hooks/hooks.json",
        home_dirs=(".config/goose",),
        binaries=("goose",),
        layout=_spec.OwnedJson({"hooks": {"PreToolUse": [group]}}),
        companions=(_spec.Companion("../plugin.json", _spec.OwnedJson(manifest), runs=False),),
        probe=_spec.Probe(
            {
                "event": "PreToolUse",
                "session_id": "dcg-doctor",
                "tool_name": "developer__shell",
                "tool_input": {"command": "{command}"},
                "working_dir": "{cwd}",
            },
            path=("decision",),
            values=("block",),
        ),
        fails=_spec.FAILS_CLOSED,
        fail_text="with the on_failure: block dcg registers, a crash, a time-out or a hook "
        "that cannot start blocks the command",
        note="Restart goose; project plugins load when goose starts in that project.",
    )
