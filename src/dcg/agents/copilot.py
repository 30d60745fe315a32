"""GitHub Copilot CLI ``preToolUse`` adapter, in both of Copilot's payload formats.

The default format sends ``toolName`` and ``toolArgs`` (a JSON document in a string)
and reads a flat ``permissionDecision``. The second, "VS Code compatible" format is
selected by the PascalCase event ``PreToolUse``, sends ``tool_name`` and ``tool_input``
(an object), and is answered with ``hookSpecificOutput`` as VS Code documents it.
Copilot has no user-only channel: no approval code is ever written.
"""

from __future__ import annotations

from dcg import jsonfast
from dcg.agents import _fields
from dcg.agents._common import cap, command_text, error_reason, file_request, text
from dcg.hookio import SOFT_BLOCK, WARNING, HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.hookio import Outcome

NAME = "copilot"
VSCODE = "vscode"

OUTPUT_FIELDS: dict[str, frozenset[str]] = _fields.fields(NAME)
VSCODE_FIELDS: dict[str, frozenset[str]] = _fields.fields("copilot-vscode")

_SHELLS = {"bash": "bash", "shell": "bash", "powershell": "powershell"}
# Copilot CLI\'s file-writing tools (toolArgs name the file as `path`).
FILE_TOOLS = frozenset(("edit", "create", "write", "str_replace_editor"))


def read(payload: dict[str, object]) -> HookRequest | None:
    tool = _pick(payload, "toolName", "tool_name")
    shell = _SHELLS.get(tool.lower()) if isinstance(tool, str) else None
    writes = isinstance(tool, str) and tool.lower() in FILE_TOOLS
    if (shell is None and not writes) or not isinstance(tool, str):
        return None
    vscode = payload.get("hook_event_name") == "PreToolUse" or (
        "tool_input" in payload and "toolArgs" not in payload
    )
    args = payload.get("tool_input") if vscode else _pick(payload, "toolArgs", "tool_args")
    if isinstance(args, str):
        # Copilot sends the tool's arguments as a JSON document inside a string.
        try:
            args = jsonfast.loads(args)
        except jsonfast.JSONError:
            return None
    if not isinstance(args, dict):
        return None
    if writes:
        session = text(_pick(payload, "sessionId", "session_id"))
        return file_request(NAME, tool, args, text(payload.get("cwd")), session)
    command = command_text(args.get("command"))
    if command is None or shell is None:
        return None
    return HookRequest(
        NAME,
        command,
        cwd=text(payload.get("cwd")),
        session_id=text(_pick(payload, "sessionId", "session_id")),
        tool=tool,
        shell=shell,
        dialect=VSCODE if vscode else None,
    )


def _pick(payload: dict[str, object], camel: str, snake: str) -> object:
    value = payload.get(camel)
    return payload.get(snake) if value is None else value


def render(request: HookRequest, outcome: Outcome, details: bool = False) -> Reply:
    if outcome.level == WARNING:
        # Nothing Copilot shows the model can carry a warning without deciding; an
        # empty stdout keeps Copilot's own permission flow.
        return Reply()
    decision = "ask" if outcome.ask and outcome.level == SOFT_BLOCK else "deny"
    return _answer(request.dialect, decision, cap(outcome.model_text))


def _answer(dialect: str | None, decision: str, reason: str) -> Reply:
    if dialect == VSCODE:
        body: dict[str, object] = {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": decision,
                "permissionDecisionReason": reason,
            }
        }
    else:
        body = {"permissionDecision": decision, "permissionDecisionReason": reason}
    return Reply(jsonfast.dumps(body) + "\n", "", 0)


def render_error(message: str, dialect: str | None = None) -> Reply:
    return _answer(dialect, "deny", error_reason(message))
