"""Claude Code ``PreToolUse`` adapter (Bash and PowerShell tools)."""

from __future__ import annotations

import os

from dcg import jsonfast
from dcg.agents._common import cap, command_text, error_reason, file_request, human_stderr, text
from dcg.hookio import SOFT_BLOCK, WARNING, HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.hookio import Outcome

NAME = "claude"

# The graduated-response draft's fields (dcg.hookio.Outcome.fields). Claude Code tolerates
# extra keys inside hookSpecificOutput, but dcg only sends the ones it documents.
DRAFT_FIELDS = frozenset(
    {
        "responseLevel",
        "sessionOccurrence",
        "sessionThreshold",
        "historyOccurrence",
        "historyThreshold",
        "confirmCode",
        "allowOnceCode",
        "ruleId",
        "packId",
        "severity",
        "warningMessage",
        "remediation",
    }
)

# Every key dcg may write, per JSON object path ("" is the top level).
OUTPUT_FIELDS: dict[str, frozenset[str]] = {
    "": frozenset({"hookSpecificOutput", "systemMessage"}),
    "hookSpecificOutput": frozenset(
        {"hookEventName", "permissionDecision", "permissionDecisionReason", "additionalContext"}
    )
    | DRAFT_FIELDS,
}

_SHELLS = {"Bash": "bash", "PowerShell": "powershell"}
# Tools that write a file; dcg judges the paths they change (dcg.selfguard).
FILE_TOOLS = frozenset(("Write", "Edit", "MultiEdit", "NotebookEdit"))

# `ask` is only honoured in these modes; elsewhere it is ignored or auto-denied.
_ASK_MODES = frozenset({None, "default", "plan", "acceptEdits"})


def read(payload: dict[str, object], agent: str = NAME) -> HookRequest | None:
    """Codex sends the same shape; it reuses this reader with ``agent="codex"``."""
    tool = payload.get("tool_name")
    shell = _SHELLS.get(tool) if isinstance(tool, str) else None
    tool_input = payload.get("tool_input")
    if tool in FILE_TOOLS and isinstance(tool, str):
        return file_request(
            agent, tool, tool_input, text(payload.get("cwd")), text(payload.get("session_id"))
        )
    if shell is None or not isinstance(tool_input, dict):
        return None
    command = command_text(tool_input.get("command"))
    if command is None or not isinstance(tool, str):
        return None
    mode = text(payload.get("permission_mode"))
    return HookRequest(
        agent,
        command,
        cwd=text(payload.get("cwd")),
        session_id=text(payload.get("session_id")),
        tool=tool,
        shell=shell,
        permission_mode=mode,
        interactive=_interactive(),
    )


def _interactive() -> bool:
    # Claude Code marks headless `claude -p` and SDK runs with an `sdk-*` entrypoint;
    # there an `ask` is denied, so dcg must deny itself and explain why.
    return not os.environ.get("CLAUDE_CODE_ENTRYPOINT", "").startswith("sdk")


def render(request: HookRequest, outcome: Outcome) -> Reply:
    fields = {k: v for k, v in outcome.fields.items() if k in DRAFT_FIELDS}
    if outcome.level == WARNING:
        specific: dict[str, object] = {
            "hookEventName": "PreToolUse",
            "additionalContext": cap(outcome.model_text),
        }
        specific.update(fields)
        body: dict[str, object] = {"hookSpecificOutput": specific}
        if outcome.summary:
            body["systemMessage"] = cap(outcome.summary)
        return Reply(jsonfast.dumps(body) + "\n", human_stderr(outcome), 0)
    if can_ask(request, outcome):
        specific = {
            "hookEventName": "PreToolUse",
            "permissionDecision": "ask",
            "permissionDecisionReason": cap(outcome.summary or outcome.model_text),
        }
    else:
        specific = {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": cap(outcome.model_text),
        }
    specific.update(fields)
    return Reply(jsonfast.dumps({"hookSpecificOutput": specific}) + "\n", human_stderr(outcome), 0)


def can_ask(request: HookRequest, outcome: Outcome) -> bool:
    return (
        outcome.ask
        and outcome.level == SOFT_BLOCK
        and request.interactive
        and request.permission_mode in _ASK_MODES
    )


def render_error(message: str) -> Reply:
    specific = {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": error_reason(message),
    }
    return Reply(jsonfast.dumps({"hookSpecificOutput": specific}) + "\n", "", 0)
