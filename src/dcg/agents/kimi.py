"""Kimi Code CLI ``PreToolUse`` adapter (``[[hooks]]`` in config.toml; shell tool ``Bash``).

Kimi Code reads ``[[hooks]]`` tables (``event``, ``matcher``, ``command``, ``timeout``, and
no other key) from ``~/.kimi-code/config.toml`` and sends the tool's ``tool_name``,
``tool_input`` and ``tool_call_id``; exit 2 blocks, and so does ``hookSpecificOutput`` with
``permissionDecision: "deny"`` and ``permissionDecisionReason``; other exit codes, errors
and time-outs let the tool run (moonshotai.github.io/kimi-code customization/hooks, read
2026-12; the JSON reply as integrations that read Kimi's hook runner describe it). No
channel only the person reads, nor a non-blocking one to the model, is documented: no
approval code is written and a warning is silent.
"""

from __future__ import annotations

from dcg import jsonfast
from dcg.agents._common import cap, error_reason, mark, text, tool_call
from dcg.hookio import WARNING, HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.agents._common import Mark
    from dcg.agents._spec import Agent
    from dcg.hookio import Outcome

NAME = "kimi"

# Its hot-path facts: see dcg.agents (the claude module says what each is).
ORDER = 170
_E, _I = "hook_event_name", "tool_input"
MARKS: tuple[Mark, ...] = (mark(0, (_E, None), ("tool_call_id", None), (_I, None)),)
HOOK_FILES: tuple[str, ...] = (".kimi-code/config.toml",)
OWN_DIRS: tuple[str, ...] = (".kimi-code",)

OUTPUT_FIELDS: dict[str, frozenset[str]] = {
    "": frozenset({"hookSpecificOutput"}),
    "hookSpecificOutput": frozenset({"permissionDecision", "permissionDecisionReason"}),
}

_SHELLS = {"Bash": "bash"}
FILE_TOOLS = frozenset({"WriteFile", "StrReplaceFile"})


def read(payload: dict[str, object]) -> HookRequest | None:
    # Kimi honours only `deny` from a hook: a soft block is a deny.
    mode = text(payload.get("permission_mode"))
    return tool_call(NAME, payload, _SHELLS, FILE_TOOLS, permission_mode=mode, interactive=False)


def render(request: HookRequest, outcome: Outcome, details: bool = False) -> Reply:
    if outcome.level == WARNING:
        return Reply()
    return _deny(cap(outcome.model_text))


def render_error(message: str) -> Reply:
    return _deny(error_reason(message))


def _deny(reason: str) -> Reply:
    specific = {"permissionDecision": "deny", "permissionDecisionReason": reason}
    return Reply(jsonfast.dumps({"hookSpecificOutput": specific}) + "\n", "", 0)


def spec() -> Agent:
    from dcg.agents import _spec, claude

    table = {"event": "PreToolUse", "matcher": "^(Bash|WriteFile|StrReplaceFile)$"}
    return _spec.Agent(
        name=NAME,
        title="Kimi Code CLI",
        shells=_SHELLS,
        file_tools=FILE_TOOLS,
        fields=OUTPUT_FIELDS,
        fields_source="moonshotai.github.io/kimi-code/en/customization/hooks; hookSpecificOutput "
        "as Kimi's hook runner parses it (third-party reading)",
        fields_date="2026-12",
        user_path=".kimi-code/config.toml",
        project_path=None,
        home_dirs=(".kimi-code",),
        binaries=("kimi",),
        layout=_spec.TomlTables("hooks", table | {"command": None, "timeout": 10}),
        probe=_spec.Probe(claude.probe_payload("Bash", tool_call_id="dcg-doctor")),
        fails=_spec.FAILS_OPEN,
        fail_text="errors, time-outs and exit codes other than 2 let the command run (Kimi "
        "calls it fail-open by design)",
        note="Restart kimi.",
    )
