"""Helpers shared by the agent adapters: payload field access and text limits."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.hookio import HookRequest, Outcome, Reply

    # (key, None): the key is present; (key, "v"): its value is "v"; (key, frozenset): its
    # value is one of them.
    Cond = tuple[str, str | frozenset[str] | None]
    Mark = tuple[int, tuple[Cond, ...]]

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


def mark(rank: int, *conds: Cond) -> Mark:
    """How a payload shows itself (an agent's ``MARKS``): every condition must hold. Lower
    ranks are tried first across all agents (dcg.agents.detect): 0 for what only that agent
    sends, 1-2 for shapes several agents share, 3 for the generic Claude Code shape."""
    return (rank, conds)


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


def error_exit2(message: str) -> Reply:
    """A fail-closed deny for an agent that blocks on exit 2 and shows stderr."""
    from dcg.hookio import Reply

    return Reply("", error_reason(message) + "\n", 2)


def error_decision(message: str, decision: str = "deny", exit_code: int = 0) -> Reply:
    """A fail-closed deny for an agent that reads ``{"decision": …, "reason": …}``."""
    return json_reply({"decision": decision, "reason": error_reason(message)}, exit_code)


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


def in_directory(
    request: HookRequest | None, payload: dict[str, object], key: str
) -> HookRequest | None:
    """A shell tool's request judged in the directory its ``tool_input[key]`` names (Gemini's
    ``dir_path``, Qwen's ``directory``: absolute or relative to the session's cwd), where
    the agent runs the command, not in the session's cwd."""
    args = payload.get("tool_input")
    where = args.get(key) if isinstance(args, dict) else None
    if request is None or request.shell == "file" or not isinstance(where, str) or not where:
        return request
    base = request.cwd or ""
    cwd = where if where.startswith("/") or not base else base.rstrip("/") + "/" + where
    from dcg.hookio import HookRequest

    return HookRequest(request.agent, request.command, cwd=cwd, session_id=request.session_id,
                       tool=request.tool, shell=request.shell,
                       permission_mode=request.permission_mode,
                       interactive=request.interactive)  # fmt: skip


def file_request(
    agent: str,
    tool: str,
    args: object,
    cwd: str | None,
    session_id: str | None,
    dialect: str | None = None,
    extra: list[str] | None = None,
) -> HookRequest | None:
    """The request of a file-writing tool: the paths it changes, judged by dcg.selfguard
    (``extra``: the same paths as the agent's side resolved them)."""
    if not isinstance(args, dict):
        return None
    found = [p for p in (text(args.get(k)) for k in _PATH_KEYS) if p is not None]
    for key in ("edits", "replacements"):  # MultiEdit's and VS Code's lists of edits
        edits = args.get(key)
        if isinstance(edits, list):
            found += [p for e in edits if isinstance(e, dict) for k in _PATH_KEYS
                      for p in [text(e.get(k))] if p]  # fmt: skip
    files = args.get("files")  # VS Code's editFiles
    if isinstance(files, list):
        found += [p for p in (text(f) for f in files) if p is not None]
    for key in ("patch", "patchText", "input", "command"):
        patch = args.get(key)
        if isinstance(patch, str) and "*** " in patch:
            found += patch_paths(patch)
    if not found:
        return None
    found += extra or ()
    from dcg.hookio import HookRequest

    return HookRequest(
        agent,
        f"{tool} {' '.join(found)}",
        cwd=cwd,
        session_id=session_id,
        tool=tool,
        shell="file",
        paths=tuple(found),
        dialect=dialect,
    )


def patch_paths(patch: str) -> list[str]:
    """The files an ``apply_patch`` envelope adds, updates, deletes or moves to."""
    out = []
    # No space is needed after the colon: OpenCode's parser takes `*** Add File:x` too;
    # Codex's parser takes a header line with white space before it.
    for line in patch.splitlines():
        line = line.lstrip()
        for head in ("*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:"):
            if line.startswith(head) and line[len(head) :].strip():
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
    from dcg.render import printable

    match = outcome.match
    one = printable(outcome.command)
    if len(one) > 120:
        one = one[:119] + "…"
    if match is None:
        return cap(f"dcg: `{one}` is destructive. Run it anyway?")
    return cap(f"dcg: `{one}` matches {match.rule_id} ({match.severity}). Run it anyway?")


def json_reply(body: dict[str, object], exit_code: int = 0, stderr: str = "") -> Reply:
    from dcg import jsonfast
    from dcg.hookio import Reply

    return Reply(jsonfast.dumps(body) + "\n", stderr, exit_code)


def decision_reply(
    outcome: Outcome,
    deny: str,
    *,
    context: str | None = None,
    exit_code: int = 0,
) -> Reply:
    """``{"decision": deny, "reason": …}`` for a stop; for a warning, the model's text under
    ``context`` where the agent has such a key, else no output. For agents that take only
    a decision and a reason (Goose, Crush, Devin, Grok, OpenHands): none of them documents
    a channel only the person reads, so no approval code is ever written."""
    from dcg.hookio import WARNING, Reply

    if outcome.level == WARNING:
        return json_reply({context: cap(outcome.model_text)}) if context else Reply()
    return json_reply({"decision": deny, "reason": cap(outcome.model_text)}, exit_code)


def exit2_reply(outcome: Outcome, *, warn_stderr: bool = False) -> Reply:
    """Exit 2 with the reason on stderr (which the model reads); a warning is silent, or
    the person's text on stderr with ``warn_stderr`` (it carries no code)."""
    from dcg.hookio import WARNING, Reply

    if outcome.level == WARNING:
        return Reply("", human_stderr(outcome) if warn_stderr else "", 0)
    reason = cap(outcome.model_text)
    return Reply("", reason if reason.endswith("\n") else reason + "\n", 2)
