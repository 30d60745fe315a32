"""Helpers shared by the agent adapters: payload field access and text limits."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.hookio import HookRequest, Outcome

# Claude Code caps hook text fields at 10,000 characters; the other agents document no
# limit, so the same cap keeps every adapter's output bounded.
MAX_TEXT = 10_000

# Shown to the model whenever dcg could not evaluate a command (decisions §6).
_ERROR_REASON = (
    "dcg could not check this command because of an internal error ({message}), so it "
    "was blocked to be safe. Do not work around this block with another tool, "
    "interpreter or script; ask the user to run `dcg doctor` or to run the command "
    "themselves."
)


def cap(text: str) -> str:
    """Cut ``text`` to the agents' field limit."""
    if len(text) <= MAX_TEXT:
        return text
    return text[: MAX_TEXT - 1] + "…"


def text(value: object) -> str | None:
    """A non-empty string, or None for anything else."""
    if isinstance(value, str) and value:
        return value
    return None


def command_text(value: object) -> str | None:
    """The command string of a payload; None when missing, blank or not a string."""
    if isinstance(value, str) and value.strip():
        return value
    return None


def error_reason(message: str) -> str:
    return cap(_ERROR_REASON.format(message=message.strip() or "unknown error"))


def human_stderr(outcome: Outcome) -> str:
    """The draft's human-facing block, newline-terminated, for stderr."""
    human = outcome.human_text
    if human and not human.endswith("\n"):
        human += "\n"
    return human


# The argument names under which the agents' file tools name the file they write.
_PATH_KEYS = ("file_path", "notebook_path", "path", "filePath", "absolute_path", "target_file")


def tool_call(
    agent: str,
    payload: dict[str, object],
    shells: dict[str, str],
    file_tools: frozenset[str],
    *,
    permission_mode: str | None = None,
    interactive: bool = True,
) -> HookRequest | None:
    """The request of a Claude-shaped payload (``tool_name``, ``tool_input``, ``cwd``,
    ``session_id``): a file tool's paths, or the command of a tool in ``shells`` (tool
    name -> ``bash``/``powershell``); None for any other tool or a missing command."""
    tool = payload.get("tool_name")
    if not isinstance(tool, str):
        return None
    tool_input = payload.get("tool_input")
    cwd, session = text(payload.get("cwd")), text(payload.get("session_id"))
    if tool in file_tools:
        return file_request(agent, tool, tool_input, cwd, session)
    shell = shells.get(tool)
    if shell is None or not isinstance(tool_input, dict):
        return None
    command = command_text(tool_input.get("command"))
    if command is None:
        return None
    from dcg.hookio import HookRequest

    return HookRequest(
        agent,
        command,
        cwd=cwd,
        session_id=session,
        tool=tool,
        shell=shell,
        permission_mode=permission_mode,
        interactive=interactive,
    )


def file_request(
    agent: str, tool: str, args: object, cwd: str | None, session_id: str | None
) -> HookRequest | None:
    """The request of a file-writing tool: the paths it changes, judged by dcg.selfguard."""
    if not isinstance(args, dict):
        return None
    found = [p for p in (text(args.get(k)) for k in _PATH_KEYS) if p is not None]
    edits = args.get("edits")
    if isinstance(edits, list):
        found += [p for e in edits if isinstance(e, dict) for p in [text(e.get("file_path"))] if p]
    for key in ("patch", "input", "command"):
        patch = args.get(key)
        if isinstance(patch, str) and "*** " in patch:
            found += patch_paths(patch)
    if not found:
        return None
    from dcg.hookio import HookRequest

    return HookRequest(
        agent,
        f"{tool} {' '.join(found)}",
        cwd=cwd,
        session_id=session_id,
        tool=tool,
        shell="file",
        paths=tuple(found),
    )


def patch_paths(patch: str) -> list[str]:
    """The files an ``apply_patch`` envelope adds, updates, deletes or moves to."""
    out = []
    for line in patch.splitlines():
        for head in ("*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "):
            if line.startswith(head):
                out.append(line[len(head) :].strip())
    return out


def user_text(outcome: Outcome) -> str:
    """What the person reads in an agent's user-only channel: the draft's human block
    (with the approval code), else the one-line summary; empty when dcg stays quiet."""
    return cap(outcome.human_text.strip() or outcome.summary)


def detail_fields(outcome: Outcome) -> dict[str, object]:
    """The draft's fields for ``[hook] details``, without the approval codes.

    An agent may show these fields to the model, which must never read a code
    (decisions.md 10.2); the remediation names the command without it.
    """
    from dcg.agents._fields import DETAILS

    out: dict[str, object] = {}
    for key, value in outcome.fields.items():
        if key not in DETAILS:
            continue
        if key == "remediation" and isinstance(value, dict):
            value = {k: _codeless(k, v) for k, v in value.items()}
        out[key] = value
    return out


def _codeless(key: str, value: object) -> object:
    if key == "confirmCommand":
        return "dcg confirm"
    if key == "allowOnceCommand":
        return "dcg allow-once"
    return value


def ask_text(outcome: Outcome) -> str:
    """The question of an agent's own permission prompt: for the person, without a code
    (approving in the prompt needs none, and some agents echo the reason to the model)."""
    match = outcome.match
    one = " ".join(outcome.command.split())
    if len(one) > 120:
        one = one[:119] + "…"
    if match is None:
        return cap(f"dcg: `{one}` is destructive. Run it anyway?")
    return cap(f"dcg: `{one}` matches {match.rule_id} ({match.severity}). Run it anyway?")
