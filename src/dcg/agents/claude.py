"""Claude Code ``PreToolUse`` adapter (Bash and PowerShell tools)."""

from __future__ import annotations

from dcg import jsonfast
from dcg import oslite as os
from dcg.agents._common import (
    ask_text,
    cap,
    detail_fields,
    error_reason,
    mark,
    text,
    tool_call,
    user_text,
)
from dcg.hookio import SOFT_BLOCK, WARNING, HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from dcg.agents._common import Mark
    from dcg.agents._spec import Agent
    from dcg.agents._transcript import Command, Counts
    from dcg.hookio import Outcome

NAME = "claude"

# Its hot-path facts (dcg.agents derives the registry from them; dcg.bundle stores what it
# derived in the bundle): where it comes in the CLI's list and among marks of one rank,
# how its payload shows itself (dcg.agents._common.mark), the files it reads hooks from
# (relative to HOME and to any project, or absolute; a trailing "/" is the whole
# directory: self-protection and the keyword prefilter) and the directories its own
# payloads carry (matched only as a command spells a path).
ORDER = 10
_I = "tool_input"
MARKS: tuple[Mark, ...] = (mark(3, (_I, None)),)
HOOK_FILES: tuple[str, ...] = (
    ".claude/settings.json",
    ".claude/settings.local.json",
    "/etc/claude-code/managed-settings.json",
    # Drop-in managed settings, merged over the file above.
    "/etc/claude-code/managed-settings.d/",
)
OWN_DIRS: tuple[str, ...] = (".claude",)
# Its top-level `systemMessage` is shown to the person only and may stand alone: the
# safety net's notices go there (dcg.safety.notice).
SYSTEM_MESSAGE = True

# The keys Claude Code documents for a PreToolUse answer, per JSON object path ("" is the
# top level); code.claude.com/docs/en/hooks (read 2026-08). Factory Droid, Auggie and the
# agents that run Claude Code's settings share the shape.
OUTPUT_FIELDS: dict[str, frozenset[str]] = {
    "": frozenset({"hookSpecificOutput", "systemMessage"}),
    "hookSpecificOutput": frozenset(
        {"hookEventName", "permissionDecision", "permissionDecisionReason", "additionalContext"}
    ),
}
# Its implementation strips unknown keys today: the draft's fields with [hook] details.
TAKES_DETAILS = True

# Monitor runs a command in the background under Bash's permission rules (2.1.98).
_SHELLS = {"Bash": "bash", "PowerShell": "powershell", "Monitor": "bash"}
# Tools that write a file; dcg judges the paths they change (dcg.selfguard).
FILE_TOOLS = frozenset(("Write", "Edit", "MultiEdit", "NotebookEdit"))

# `ask` is only honoured in these modes; elsewhere it is ignored or auto-denied.
_ASK_MODES = frozenset({None, "default", "plan", "acceptEdits"})


def read(payload: dict[str, object], agent: str = NAME) -> HookRequest | None:
    """Codex sends the same shape; it reuses this reader with ``agent="codex"``."""
    mode = text(payload.get("permission_mode"))
    return tool_call(
        agent, payload, _SHELLS, FILE_TOOLS, permission_mode=mode, interactive=_interactive()
    )


def _interactive() -> bool:
    # Claude Code marks headless `claude -p` and SDK runs with an `sdk-*` entrypoint;
    # there an `ask` is denied, so dcg must deny itself and explain why.
    return not os.environ.get("CLAUDE_CODE_ENTRYPOINT", "").startswith("sdk")


def render(request: HookRequest, outcome: Outcome, details: bool = False) -> Reply:
    """Claude Code's answer. The person's text (with the code) goes only to the
    user-only ``systemMessage``; stderr on exit 0 reaches only Claude Code's debug log."""
    reply = reply_body(request, outcome)
    if details and TAKES_DETAILS:
        specific = reply["hookSpecificOutput"]
        assert isinstance(specific, dict)
        specific.update(detail_fields(outcome))
    return Reply(jsonfast.dumps(reply) + "\n", "", 0)


def reply_body(
    request: HookRequest, outcome: Outcome, *, context: bool = True
) -> dict[str, object]:
    """The documented body shared by Claude Code style agents (Claude Code, Factory).

    ``context`` False: the agent documents no ``additionalContext`` for PreToolUse, so a
    warning reaches only the person.
    """
    body: dict[str, object] = {}
    specific: dict[str, object] = {"hookEventName": "PreToolUse"}
    if outcome.level == WARNING:
        if context:
            specific["additionalContext"] = cap(outcome.model_text)
    elif can_ask(request, outcome):
        # The reason of an `ask` is shown to the person in the prompt, not to the model.
        specific["permissionDecision"] = "ask"
        specific["permissionDecisionReason"] = ask_text(outcome)
    else:
        specific["permissionDecision"] = "deny"
        specific["permissionDecisionReason"] = cap(outcome.model_text)
    body["hookSpecificOutput"] = specific
    notice = user_text(outcome)
    if notice and specific.get("permissionDecision") != "ask":
        body["systemMessage"] = notice
    return body


def can_ask(request: HookRequest, outcome: Outcome) -> bool:
    return (
        outcome.ask
        and outcome.level == SOFT_BLOCK
        and request.interactive
        and request.permission_mode in _ASK_MODES
    )


def render_no_context(request: HookRequest, outcome: Outcome, details: bool = False) -> Reply:
    """Claude Code's reply for agents that took its protocol without ``additionalContext``
    (Factory Droid, Auggie): a warning reaches only the person, in ``systemMessage``."""
    body = reply_body(request, outcome, context=False)
    return Reply(jsonfast.dumps(body) + "\n", "", 0)


def render_error(message: str) -> Reply:
    specific = {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": error_reason(message),
    }
    return Reply(jsonfast.dumps({"hookSpecificOutput": specific}) + "\n", "", 0)


# Claude Code's shell and file tools, and Devin CLI's (`exec`, `edit`): Devin runs Claude
# Code's hooks too, and its matchers are regular expressions on its own tool names.
MATCHER = "Bash|PowerShell|Monitor|Write|Edit|MultiEdit|NotebookEdit|exec|edit"


# Transcripts (`dcg replay`): ~/.claude/projects/*/*.jsonl, one event a line; an
# ``assistant`` event's ``message.content`` holds ``tool_use`` blocks, and those of a shell
# tool carry ``input.command``; the line has ``cwd``, ``sessionId`` and ``timestamp``.
_TRANSCRIPT_MARKERS = (b'"tool_use"',)
_TRANSCRIPT_TOOLS = {"Bash": "bash", "PowerShell": "powershell"}


def transcript_files(home: str) -> list[str]:
    """Claude Code's transcripts under ``home``, in their default place."""
    import os

    projects = os.path.join(home, ".claude", "projects")
    if not os.path.isdir(projects):
        return []
    out: list[str] = []
    for project in sorted(os.listdir(projects)):
        folder = os.path.join(projects, project)
        if os.path.isdir(folder):
            out += [
                os.path.join(folder, n) for n in sorted(os.listdir(folder)) if n.endswith(".jsonl")
            ]
    return out


def read_transcript(path: str, fh: Iterator[bytes], counts: Counts) -> Iterator[Command]:
    """The shell commands of one Claude Code transcript, in order."""
    from dcg.agents import _transcript as t

    for number, raw in enumerate(fh, start=1):
        if not t.candidate(raw, counts, _TRANSCRIPT_MARKERS):
            continue
        event = t.decode(raw, counts)
        if event is None or event.get("type") != "assistant":
            continue
        message = event.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, list):
            continue
        for block in content:
            if not isinstance(block, dict) or block.get("type") != "tool_use":
                continue
            shell = _TRANSCRIPT_TOOLS.get(str(block.get("name")))
            given = block.get("input")
            command = given.get("command") if isinstance(given, dict) else None
            if shell is None or not isinstance(command, str):
                continue
            yield t.Command(
                command,
                shell,
                NAME,
                str(event.get("sessionId") or ""),
                str(event.get("timestamp") or ""),
                str(event.get("cwd") or ""),
                f"{path}:{number}",
            )


def spec() -> Agent:
    from dcg.agents import _spec

    return _spec.Agent(
        name=NAME,
        title="Claude Code",
        shells=_SHELLS,
        file_tools=FILE_TOOLS,
        fields=OUTPUT_FIELDS,
        fields_source="code.claude.com/docs/en/hooks, PreToolUse decision control; top-level "
        "systemMessage",
        fields_date="2026-08",
        user_path=".claude/settings.json",
        project_path=".claude/settings.json",
        home_dirs=(".claude",),
        binaries=("claude",),
        # --bare and CLAUDE_CODE_SIMPLE skip hooks, safe mode and --restricted start without
        # them, --managed-settings replaces the managed policy (disableAllHooks).
        unguarded=(
            *("CLAUDE_CONFIG_DIR", "CLAUDE_CODE_SIMPLE", "CLAUDE_CODE_SAFE_MODE"),
            *("--settings", "--setting-sources", "--managed-settings"),
            *("--bare", "--safe-mode", "--restricted"),
        ),
        packages=("@anthropic-ai/claude-code",),
        # onFailure "block" (2.1.295): a hook that cannot start, times out or exits with an
        # unexpected code blocks the tool call. Older builds ignore the key and keep the
        # entry (2.0.0, 2.1.100, 2.1.200 and 2.1.294 run; tests/realagents proves the block).
        layout=_spec.Grouped(
            "PreToolUse",
            MATCHER,
            {"type": "command", "command": None, "timeout": 10, "onFailure": "block"},
            required=("onFailure",),
        ),
        probe=_spec.Probe(probe_payload()),
        # `dcg hook` with no --agent is documented for its payload.
        bare=True,
        # Any transcript no other agent claims is taken for one of Claude Code's.
        transcripts=_spec.Transcripts(transcript_files, lambda path: True, read_transcript),
        fails=_spec.FAILS_CLOSED,
        fail_text="with the onFailure: block dcg registers (Claude Code 2.1.295 and later) a "
        "hook that crashes, times out or cannot start blocks the command; older versions "
        "ignore it and let the command run",
        closed_since=("claude", "2.1.295"),
        note="Claude Code runs hooks only in a folder whose workspace-trust dialog you "
        "accepted (headless -p runs trust it). Restart running sessions.",
        details=TAKES_DETAILS,
        covers=("Bash", "PowerShell", "Monitor", "Write", "Edit", "MultiEdit", "NotebookEdit"),
    )


def probe_payload(tool: str = "Bash", **extra: object) -> dict[str, object]:
    """A PreToolUse payload of Claude Code's shape for doctor's self-test."""
    body: dict[str, object] = {
        "session_id": "dcg-doctor",
        "cwd": "{cwd}",
        "hook_event_name": "PreToolUse",
        "permission_mode": "default",
        "tool_name": tool,
        "tool_input": {"command": "{command}"},
    }
    return {k: v for k, v in (body | extra).items() if v is not None}
