"""GitHub Copilot CLI ``preToolUse`` adapter (camelCase and snake_case payloads)."""

from __future__ import annotations

from dcg import jsonfast
from dcg.agents._common import cap, command_text, error_reason, file_request, human_stderr, text
from dcg.hookio import SOFT_BLOCK, WARNING, HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.hookio import Outcome

NAME = "copilot"

OUTPUT_FIELDS: dict[str, frozenset[str]] = {
    "": frozenset({"permissionDecision", "permissionDecisionReason"}),
}

_SHELLS = {"bash": "bash", "shell": "bash", "powershell": "powershell"}
# Copilot CLI\'s file-writing tools (toolArgs name the file as `path`).
FILE_TOOLS = frozenset(("edit", "create", "write", "str_replace_editor"))


def read(payload: dict[str, object]) -> HookRequest | None:
    tool = _pick(payload, "toolName", "tool_name")
    shell = _SHELLS.get(tool.lower()) if isinstance(tool, str) else None
    writes = isinstance(tool, str) and tool.lower() in FILE_TOOLS
    if (shell is None and not writes) or not isinstance(tool, str):
        return None
    args = _pick(payload, "toolArgs", "tool_args")
    if args is None:
        args = payload.get("tool_input")
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
    )


def _pick(payload: dict[str, object], camel: str, snake: str) -> object:
    value = payload.get(camel)
    return payload.get(snake) if value is None else value


def render(request: HookRequest, outcome: Outcome) -> Reply:
    if outcome.level == WARNING:
        # Nothing Copilot shows the model can carry a warning without deciding; an
        # empty stdout keeps Copilot's own permission flow.
        return Reply("", human_stderr(outcome), 0)
    if outcome.ask and outcome.level == SOFT_BLOCK:
        body = {
            "permissionDecision": "ask",
            "permissionDecisionReason": cap(outcome.summary or outcome.model_text),
        }
    else:
        body = {"permissionDecision": "deny", "permissionDecisionReason": cap(outcome.model_text)}
    return Reply(jsonfast.dumps(body) + "\n", human_stderr(outcome), 0)


def render_error(message: str) -> Reply:
    body = {"permissionDecision": "deny", "permissionDecisionReason": error_reason(message)}
    return Reply(jsonfast.dumps(body) + "\n", "", 0)
