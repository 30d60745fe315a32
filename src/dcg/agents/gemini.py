"""Gemini CLI ``BeforeTool`` adapter."""

from __future__ import annotations

from dcg import jsonfast
from dcg.agents._common import cap, error_decision, in_directory, mark, tool_call, user_text
from dcg.hookio import SOFT_BLOCK, WARNING, HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.agents._common import Mark
    from dcg.agents._spec import Agent
    from dcg.hookio import Outcome

NAME = "gemini"

# Its hot-path facts: see dcg.agents (the claude module says what each is).
ORDER = 30
_E, _T = "hook_event_name", "tool_name"
MARKS: tuple[Mark, ...] = (mark(0, (_E, "BeforeTool")), mark(1, (_T, "run_shell_command")))
HOOK_FILES: tuple[str, ...] = (".gemini/settings.json", "/etc/gemini-cli/settings.json")
OWN_DIRS: tuple[str, ...] = (".gemini",)
# Its top-level `systemMessage` is shown to the person only and may stand alone: the
# safety net's notices go there (dcg.safety.notice).
SYSTEM_MESSAGE = True

# `continue` is deliberately never sent: `continue: false` stops the whole agent loop.
OUTPUT_FIELDS: dict[str, frozenset[str]] = {"": frozenset({"decision", "reason", "systemMessage"})}

_SHELLS = {"run_shell_command": "bash"}
# Gemini CLI\'s file-writing tools.
FILE_TOOLS = frozenset(("write_file", "replace"))


def read(payload: dict[str, object]) -> HookRequest | None:
    # run_shell_command runs the command in dir_path (relative to the project): judge it
    # there, not in the session's cwd.
    return in_directory(tool_call(NAME, payload, _SHELLS, FILE_TOOLS), payload, "dir_path")


def render(request: HookRequest, outcome: Outcome, details: bool = False) -> Reply:
    """Gemini's answer; ``systemMessage`` is the user-only channel (and the text of the
    confirmation dialog with ``ask``). Stderr is not shown next to JSON output."""
    notice = user_text(outcome)
    if outcome.level == WARNING:
        # Gemini has no channel for a non-blocking note to the model; tell the user.
        if not notice:
            return Reply()
        return Reply(jsonfast.dumps({"systemMessage": notice}) + "\n", "", 0)
    if outcome.ask and outcome.level == SOFT_BLOCK:
        # `decision: "ask"` (since 2026-03) forces Gemini's confirmation dialog.
        body = {"decision": "ask", "reason": cap(outcome.model_text)}
    else:
        body = {"decision": "deny", "reason": cap(outcome.model_text)}
    if notice:
        body["systemMessage"] = notice
    return Reply(jsonfast.dumps(body) + "\n", "", 0)


def render_error(message: str) -> Reply:
    return error_decision(message)


def spec() -> Agent:
    from dcg.agents import _spec, claude

    return _spec.Agent(
        name=NAME,
        title="Gemini CLI",
        shells=_SHELLS,
        file_tools=FILE_TOOLS,
        fields=OUTPUT_FIELDS,
        fields_source="google-gemini/gemini-cli packages/core/src/hooks (decision ask since "
        "2026-03)",
        fields_date="2026-12",
        user_path=".gemini/settings.json",
        project_path=".gemini/settings.json",
        home_dirs=(".gemini",),
        binaries=("gemini",),
        # Its home (.gemini moves with it) and the system settings file that overrides all.
        unguarded=("GEMINI_CLI_HOME", "GEMINI_CLI_SYSTEM_SETTINGS_PATH"),
        packages=("@google/gemini-cli",),
        layout=_spec.Grouped(
            "BeforeTool",
            "run_shell_command|write_file|replace",
            {"name": "dcg", "type": "command", "command": None, "timeout": 5000},
        ),
        probe=_spec.Probe(
            claude.probe_payload("run_shell_command", hook_event_name="BeforeTool"),
            path=("decision",),
        ),
        fails=_spec.FAILS_MIXED,
        fail_text="a time-out or a hook that cannot start lets the command run; a crash "
        "(exit other than 0, 1 or 2, 127 for a missing interpreter included) blocks it; "
        "exit 1 lets it run with a warning",
        note="Gemini asks you to accept a new or changed project hook (fingerprinted by name "
        "and command) before it runs; user-level hooks run at the next start.",
        covers=("run_shell_command", "write_file", "replace"),
    )
