"""Cline ``PreToolUse`` adapter (an executable hook file; shell tool ``execute_command``).

Cline runs an executable file named ``PreToolUse`` from ``~/Documents/Cline/Hooks/`` and
``<workspace>/.clinerules/hooks/`` (with "Enable Hooks" on; Unix only) and sends
``clineVersion``, ``hookName``, ``taskId``, ``workspaceRoots`` and ``preToolUse:
{toolName, parameters}``. It reads ``{"cancel": true, "errorMessage": …}`` to block and
``contextModification`` as context for the model's next request; exit 0 without JSON is
"no cancellation", and a script that fails does not block (cline/cline
.clinerules/hooks/README.md and src/core/hooks/hook-factory.ts, read 2026-12). The error
message is shown to the person and not documented as hidden from the model: no approval
code is written.
"""

from __future__ import annotations

from dcg.agents._common import cap, command_text, error_reason, file_request, json_reply, mark, text
from dcg.hookio import WARNING, HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.agents._common import Mark
    from dcg.agents._spec import Agent
    from dcg.hookio import Outcome

NAME = "cline"

# Its hot-path facts: see dcg.agents (the claude module says what each is).
ORDER = 130
MARKS: tuple[Mark, ...] = (mark(0, ("preToolUse", None)), mark(0, ("clineVersion", None)))
HOOK_FILES: tuple[str, ...] = (
    # "~/": only under HOME (as a project path, `Documents` would match any `*`).
    "~/Documents/Cline/Hooks/",
    ".clinerules/hooks/",
)
OWN_DIRS: tuple[str, ...] = ()

OUTPUT_FIELDS: dict[str, frozenset[str]] = {
    "": frozenset({"cancel", "contextModification", "errorMessage"})
}

SHELL_TOOL = "execute_command"
# write_to_file and replace_in_file name the file as `path`.
FILE_TOOLS = frozenset({"write_to_file", "replace_in_file"})


def read(payload: dict[str, object]) -> HookRequest | None:
    call = payload.get("preToolUse")
    if not isinstance(call, dict):
        return None
    tool, args = call.get("toolName"), call.get("parameters")
    roots = payload.get("workspaceRoots")
    cwd = text(roots[0]) if isinstance(roots, list) and roots else None
    session = text(payload.get("taskId"))
    if isinstance(tool, str) and tool in FILE_TOOLS:
        return file_request(NAME, tool, args, cwd, session)
    if tool != SHELL_TOOL or not isinstance(args, dict):
        return None
    command = command_text(args.get("command"))
    if command is None:
        return None
    # A hook cannot make Cline ask: a soft block is a deny.
    return HookRequest(NAME, command, cwd=cwd, session_id=session, tool=SHELL_TOOL,
                       interactive=False)  # fmt: skip


def render(request: HookRequest, outcome: Outcome, details: bool = False) -> Reply:
    reason = cap(outcome.model_text)
    if outcome.level == WARNING:
        return json_reply({"cancel": False, "contextModification": reason})
    return json_reply({"cancel": True, "errorMessage": reason, "contextModification": reason})


def render_error(message: str) -> Reply:
    reason = error_reason(message)
    return json_reply({"cancel": True, "errorMessage": reason, "contextModification": reason})


def spec() -> Agent:
    from dcg.agents import _spec

    return _spec.Agent(
        name=NAME,
        title="Cline",
        shells={SHELL_TOOL: "bash"},
        file_tools=FILE_TOOLS,
        fields=OUTPUT_FIELDS,
        fields_source="cline/cline .clinerules/hooks/README.md, Output (via stdout as JSON)",
        fields_date="2026-12",
        user_path="Documents/Cline/Hooks/PreToolUse",
        project_path=".clinerules/hooks/PreToolUse",
        home_dirs=("Documents/Cline",),
        binaries=(),
        layout=_spec.OwnedScript(),
        probe=_spec.Probe(
            {
                "clineVersion": "dcg-doctor",
                "hookName": "PreToolUse",
                "taskId": "dcg-doctor",
                "workspaceRoots": ["{cwd}"],
                "preToolUse": {"toolName": SHELL_TOOL, "parameters": {"command": "{command}"}},
            },
            path=("cancel",),
            values=(True,),
            exit_codes=(),
        ),
        fails=_spec.FAILS_OPEN,
        fail_text="a hook that fails or times out (30 s) does not block: the command runs",
        note='Turn on "Enable Hooks" in Cline\'s settings (Feature Settings); Cline runs '
        "hooks on Linux and macOS only.",
    )
