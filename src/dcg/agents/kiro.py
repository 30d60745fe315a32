"""Kiro CLI ``PreToolUse`` adapter (standalone hook files; shell tool ``execute_bash``).

Kiro CLI v3 reads ``.kiro/hooks/<name>.json`` in a workspace and ``~/.kiro/hooks/`` (since
2.13, v3) for every agent: ``{"version": "v1", "hooks": [{name, trigger, matcher, action:
{type: "command", command}, timeout, enabled}]}``. A hook gets ``hook_event_name``,
``cwd``, ``tool_name`` and ``tool_input``; exit 2 blocks and its stderr goes to the model,
other exit codes are a warning to the person and the tool runs (kiro.dev/docs/cli/hooks,
/cli/v3/hooks and changelog 2.13, read 2026-12). Nothing on exit 0 reaches the model, and
no channel reaches only the person: a warning is silent and no approval code is written.
Kiro CLI 2.x without ``--v3`` reads hooks only from a custom agent's configuration
(``.kiro/agents/<agent>.json``), which dcg does not edit: the README shows the entry.
"""

from __future__ import annotations

from dcg.agents._common import error_exit2, exit2_reply, mark, tool_call
from dcg.hookio import HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.agents._common import Mark
    from dcg.agents._spec import Agent
    from dcg.hookio import Outcome

NAME = "kiro"

# Its hot-path facts: see dcg.agents (the claude module says what each is).
ORDER = 140
_E, _T, _I = "hook_event_name", "tool_name", "tool_input"
MARKS: tuple[Mark, ...] = (
    mark(0, (_E, "preToolUse")),
    mark(0, (_I, None), (_T, frozenset({"execute_bash", "fs_write", "fs_read"}))),
)
HOOK_FILES: tuple[str, ...] = (".kiro/hooks/", ".kiro/agents/")
OWN_DIRS: tuple[str, ...] = ()

# Kiro reads no JSON from a PreToolUse hook: exit 2 and stderr.
OUTPUT_FIELDS: dict[str, frozenset[str]] = {}

# The built-in tools' names (Amazon Q Developer CLI's, kept by Kiro) and v3's aliases.
_SHELLS = {"execute_bash": "bash", "execute_cmd": "bash", "shell": "bash"}
# fs_write names the file as `path` (its `command` is create/str_replace/append).
FILE_TOOLS = frozenset({"fs_write", "write", "str_replace"})


def read(payload: dict[str, object]) -> HookRequest | None:
    # Kiro cannot ask from a hook: a soft block is a deny.
    return tool_call(NAME, payload, _SHELLS, FILE_TOOLS, interactive=False)


def render(request: HookRequest, outcome: Outcome, details: bool = False) -> Reply:
    return exit2_reply(outcome)


def render_error(message: str) -> Reply:
    return error_exit2(message)


def spec() -> Agent:
    from dcg.agents import _spec

    hook = {
        "name": "dcg",
        "trigger": "PreToolUse",
        "action": {"type": "command", "command": _spec.COMMAND},
        "timeout": 10,
        "enabled": True,
    }
    return _spec.Agent(
        name=NAME,
        title="Kiro CLI",
        shells=_SHELLS,
        file_tools=FILE_TOOLS,
        fields=OUTPUT_FIELDS,
        fields_source="kiro.dev/docs/cli/hooks (Hook output: exit 2, stderr to the model)",
        fields_date="2026-12",
        user_path=".kiro/hooks/dcg.json",
        project_path=".kiro/hooks/dcg.json",
        home_dirs=(".kiro",),
        binaries=("kiro-cli",),
        # No matcher: every tool call asks dcg, which answers only for shell and file tools
        # (v3's tool names are not all documented).
        layout=_spec.OwnedJson({"version": "v1", "hooks": [hook]}),
        probe=_spec.Probe(
            {
                "hook_event_name": "preToolUse",
                "cwd": "{cwd}",
                "tool_name": "execute_bash",
                "tool_input": {"command": "{command}"},
            },
            path=(),
        ),
        fails=_spec.FAILS_OPEN,
        fail_text="any exit other than 2, and a time-out (30 s), only warn: the command runs",
        note="Kiro CLI v3 (kiro-cli --v3) reads ~/.kiro/hooks/ and .kiro/hooks/; Kiro CLI 2.x "
        "reads hooks only from a custom agent's configuration (see the README).",
    )
