"""GitHub Copilot CLI ``preToolUse`` adapter, in both of Copilot's payload formats.

The default format sends ``toolName`` and ``toolArgs`` (a JSON document in a string)
and reads a flat ``permissionDecision``. The second, "VS Code compatible" format is
selected by the PascalCase event ``PreToolUse``, sends ``tool_name`` and ``tool_input``
(an object), and is answered with ``hookSpecificOutput`` as VS Code documents it.
Copilot has no user-only channel: no approval code is ever written.
"""

from __future__ import annotations

from dcg import jsonfast
from dcg.agents._common import cap, command_text, error_reason, file_request, mark, text
from dcg.hookio import SOFT_BLOCK, WARNING, HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.agents._common import Mark
    from dcg.agents._spec import Agent
    from dcg.hookio import Outcome

NAME = "copilot"

# Its hot-path facts: see dcg.agents (the claude module says what each is).
ORDER = 40
_T, _I = "tool_name", "tool_input"
MARKS: tuple[Mark, ...] = (
    mark(0, ("toolArgs", None)),
    mark(0, ("tool_args", None)),
    # VS Code agent mode (it runs Copilot's and Claude Code's hook files).
    mark(0, ("hookEventName", None), (_I, None)),
    mark(1, (_I, None), (_T, frozenset({"bash", "shell", "powershell"}))),
)
HOOK_FILES: tuple[str, ...] = (".copilot/hooks/", ".github/hooks/")
OWN_DIRS: tuple[str, ...] = ()
VSCODE = "vscode"

# docs.github.com Copilot CLI hooks reference, preToolUse output (read 2026-12).
OUTPUT_FIELDS: dict[str, frozenset[str]] = {
    "": frozenset({"permissionDecision", "permissionDecisionReason"})
}
# The "VS Code compatible" format (PascalCase PreToolUse), answered as VS Code documents it
# (code.visualstudio.com/docs/agents/reference/hooks-reference, PreToolUse output).
VSCODE_FIELDS: dict[str, frozenset[str]] = {
    "": frozenset({"hookSpecificOutput"}),
    "hookSpecificOutput": frozenset(
        {"hookEventName", "permissionDecision", "permissionDecisionReason"}
    ),
}
DIALECT_FIELDS = {VSCODE: VSCODE_FIELDS}

# Copilot CLI's shell tools, the tools that type into a shell it started (write_bash:
# judged as the command the text runs), and VS Code agent mode's terminal tool.
_SHELLS = {
    "bash": "bash",
    "shell": "bash",
    "powershell": "powershell",
    "write_bash": "bash",
    "write_powershell": "powershell",
    "run_in_terminal": "bash",
    "create_and_run_task": "bash",
    "run_task": "bash",
}
_TYPED = frozenset({"write_bash", "write_powershell"})
# Copilot CLI's file-writing tools (`path`; apply_patch's patch text), and VS Code agent
# mode's (camelCase `filePath`, lists of edits, editFiles' `files`).
FILE_TOOLS = frozenset(
    {
        "edit",
        "create",
        "write",
        "str_replace_editor",
        "apply_patch",
        "create_file",
        "replace_string_in_file",
        "multi_replace_string_in_file",
        "insert_edit_into_file",
        "editfiles",
    }
)


# Every tool this adapter reads (the dispatcher offers it these in other agents' payloads).
TOOLS = frozenset((*_SHELLS, *FILE_TOOLS))


def read(payload: dict[str, object]) -> HookRequest | None:
    tool = _pick(payload, "toolName", "tool_name")
    if not isinstance(tool, str):
        return None
    shell = _SHELLS.get(tool.lower())
    writes = tool.lower() in FILE_TOOLS
    if shell is None and not writes:
        return None
    vscode = (
        payload.get("hook_event_name") == "PreToolUse"
        or "hookEventName" in payload
        or (("tool_input" in payload or "toolInput" in payload) and "toolArgs" not in payload)
    )
    args = (
        _pick(payload, "tool_input", "toolInput")
        if vscode
        else _pick(payload, "toolArgs", "tool_args")
    )
    if isinstance(args, str):
        # Copilot sends the tool's arguments as a JSON document inside a string; a
        # freeform tool (apply_patch) may send its text as it is.
        try:
            args = jsonfast.loads(args)
        except jsonfast.JSONError:
            args = {"input": args} if writes else None
    if not isinstance(args, dict):
        return None
    session = text(_pick(payload, "sessionId", "session_id"))
    if writes:
        dialect = VSCODE if vscode else None
        return file_request(NAME, tool, args, text(payload.get("cwd")), session, dialect)
    if tool == "create_and_run_task":
        # VS Code runs the task it creates: its command and arguments are the command line.
        task = args.get("task")
        args = {"command": _task_line(task)} if isinstance(task, dict) else {}
    cwd = text(payload.get("cwd"))
    if tool == "run_task":
        # VS Code runs a task of the workspace's tasks.json: its command lines.
        from dcg.agents._vstasks import task_lines

        line, cwd = task_lines(args, cwd)
        args = {"command": line}
    command = command_text(args.get("input" if tool.lower() in _TYPED else "command"))
    if command is None or shell is None:
        return None
    if tool.lower() in _TYPED:
        command = typed(command)
        if not command.strip():
            return None
    return HookRequest(
        NAME,
        command,
        cwd=cwd,
        session_id=session,
        tool=tool,
        shell=shell,
        dialect=VSCODE if vscode else None,
    )


def _task_line(task: dict[str, object]) -> str | None:
    command = task.get("command")
    if not isinstance(command, str):
        return None
    args = task.get("args")
    words = [a for a in args if isinstance(a, str)] if isinstance(args, list) else []
    return " ".join([command, *words])


def typed(keys: str) -> str:
    """The text ``keys`` leaves in a shell: ``{enter}`` ends a line, ``{backspace}`` takes
    the character before it back; arrow keys move no text in. ``{tab}`` lets the shell
    complete a word (``git res{tab}`` runs ``git reset``), so a line with one becomes a
    command whose program is computed at run time, which dcg stops as such."""
    lines: list[str] = []
    out: list[str] = []
    completed = False

    def end_line() -> None:
        nonlocal completed
        line = "".join(out)
        lines.append(f"$(shell-completion) {line}" if completed else line)
        out.clear()
        completed = False

    i = 0
    while i < len(keys):
        if keys[i] == "{":
            end = keys.find("}", i)
            name = keys[i + 1 : end].lower() if end > 0 else ""
            if name in ("enter", "backspace", "up", "down", "left", "right", "tab", "esc"):
                if name == "enter":
                    end_line()
                elif name == "backspace" and out:
                    out.pop()
                elif name == "tab":
                    completed = True
                i = end + 1
                continue
        out.append(keys[i])
        i += 1
    end_line()
    return "\n".join(lines)


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


def spec() -> Agent:
    from dcg.agents import _spec

    cmd = _spec.COMMAND
    hook = {"type": "command", "bash": cmd, "powershell": cmd, "timeoutSec": 10}
    return _spec.Agent(
        name=NAME,
        title="GitHub Copilot CLI",
        shells=_SHELLS,
        file_tools=FILE_TOOLS,
        fields=OUTPUT_FIELDS,
        fields_source="docs.github.com Copilot CLI hooks reference, preToolUse output",
        fields_date="2026-12",
        user_path=".copilot/hooks/dcg.json",
        project_path=".github/hooks/dcg.json",
        home_dirs=(".copilot",),
        binaries=("copilot",),
        packages=("@github/copilot",),
        layout=_spec.OwnedJson({"version": 1, "hooks": {"preToolUse": [hook]}}),
        probe=_spec.Probe(
            {
                "sessionId": "dcg-doctor",
                "cwd": "{cwd}",
                "toolName": "bash",
                "toolArgs": '{"command": "{command}"}',
            },
            path=("permissionDecision",),
            exit_codes=(),
        ),
        fails=_spec.FAILS_MIXED,
        fail_text="a crash or any non-zero exit blocks the command; a time-out (30 s by "
        "default) lets it run",
        note="Copilot CLI loads .github/hooks/*.json from the working directory at start.",
    )
