"""Windsurf (Cascade) ``pre_run_command`` adapter: exit 2 blocks, stderr is the reason."""

from __future__ import annotations

from dcg.agents._common import (
    cap,
    command_text,
    error_exit2,
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

NAME = "windsurf"

# Its hot-path facts: see dcg.agents (the claude module says what each is).
ORDER = 60
MARKS: tuple[Mark, ...] = (
    mark(0, ("tool_info", None)),
    mark(0, ("agent_action_name", "pre_run_command")),
)
HOOK_FILES: tuple[str, ...] = (
    ".codeium/windsurf/hooks.json",
    ".windsurf/hooks.json",
    "/etc/windsurf/hooks.json",
)
OWN_DIRS: tuple[str, ...] = ()

# Windsurf reads no JSON from a hook: stdout stays empty.
# Windsurf reads no JSON from a hook: stdout stays empty (docs.windsurf.com Cascade hooks).
OUTPUT_FIELDS: dict[str, frozenset[str]] = {}


def read(payload: dict[str, object]) -> HookRequest | None:
    action = payload.get("agent_action_name")
    info = payload.get("tool_info")
    if action == "pre_write_code" and isinstance(info, dict):
        # Cascade's file edits: tool_info.file_path is the file about to change.
        session = text(payload.get("trajectory_id"))
        return file_request(NAME, "pre_write_code", info, text(info.get("cwd")), session)
    if (action is not None and action != "pre_run_command") or not isinstance(info, dict):
        return None
    command = command_text(info.get("command_line"))
    if command is None:
        return None
    return HookRequest(
        NAME,
        command,
        cwd=text(info.get("cwd")),
        session_id=text(payload.get("trajectory_id")),
        tool="pre_run_command",
    )


def render(request: HookRequest, outcome: Outcome, details: bool = False) -> Reply:
    # Windsurf has no user-only channel: stderr with show_output is seen by the model too,
    # so no approval code is ever written (the reason tells the agent to ask the person).
    if outcome.level == WARNING:
        # With show_output the user sees it; the command proceeds.
        return Reply("", human_stderr(outcome), 0)
    # Cascade cannot prompt: an ask is a block like any other.
    reason = cap(outcome.model_text)
    return Reply("", reason if reason.endswith("\n") else reason + "\n", 2)


def render_error(message: str) -> Reply:
    return error_exit2(message)


def spec() -> Agent:
    from dcg.agents import _spec

    return _spec.Agent(
        name=NAME,
        title="Windsurf (Cascade)",
        shells={"pre_run_command": "bash"},
        file_tools=frozenset({"pre_write_code"}),
        fields=OUTPUT_FIELDS,
        fields_source="docs.windsurf.com Cascade hooks: exit 2 and stderr, no JSON",
        fields_date="2026-12",
        user_path=".codeium/windsurf/hooks.json",
        project_path=".windsurf/hooks.json",
        home_dirs=(".codeium/windsurf",),
        binaries=("windsurf",),
        layout=_spec.Flat(
            "pre_run_command",
            {"command": None, "show_output": True},
            extra_events=("pre_write_code",),
        ),
        probe=_spec.Probe(
            {
                "agent_action_name": "pre_run_command",
                "trajectory_id": "dcg-doctor",
                "tool_info": {"command_line": "{command}", "cwd": "{cwd}"},
            },
            path=(),
        ),
        fails=_spec.FAILS_OPEN,
        fail_text="Windsurf documents no failure behaviour: only exit 2 is a block, so a "
        "crash or a time-out is taken to let the command run",
        note="Restart Windsurf to load the hook.",
    )
