"""OpenAI Codex CLI ``PreToolUse`` adapter: Claude Code's shape with a closed schema."""

from __future__ import annotations

from dcg import jsonfast
from dcg.agents import claude
from dcg.agents._common import cap, error_reason, file_request, mark, text, user_text
from dcg.hookio import WARNING, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from dcg.agents._common import Mark
    from dcg.agents._spec import Agent
    from dcg.agents._transcript import Command, Counts
    from dcg.hookio import HookRequest, Outcome

NAME = "codex"

# Its hot-path facts: see dcg.agents (the claude module says what each is).
ORDER = 20
_I = "tool_input"
MARKS: tuple[Mark, ...] = (mark(2, (_I, None), ("turn_id", None)),)
HOOK_FILES: tuple[str, ...] = (".codex/hooks.json", ".codex/config.toml", "/etc/codex/config.toml")
OWN_DIRS: tuple[str, ...] = (".codex",)
# Its top-level `systemMessage` is shown to the person only and may stand alone: the
# safety net's notices go there (dcg.safety.notice).
SYSTEM_MESSAGE = True

# Codex's output schema rejects unknown fields, and a rejected output lets the command
# run: never the draft's details, only the documented keys.
OUTPUT_FIELDS: dict[str, frozenset[str]] = {
    "": frozenset(
        {"continue", "stopReason", "suppressOutput", "systemMessage", "hookSpecificOutput"}
    ),
    "hookSpecificOutput": frozenset(
        {
            "hookEventName",
            "permissionDecision",
            "permissionDecisionReason",
            "updatedInput",
            "additionalContext",
        }
    ),
}

# Codex names its shell tool "Bash" in hook payloads; older builds used "shell".
_TOOLS = frozenset({"Bash", "shell", "local_shell", "exec_command"})
# apply_patch sends the patch envelope; dcg judges the files it names.
FILE_TOOLS = frozenset(("apply_patch", "Edit", "Write"))


def read(payload: dict[str, object]) -> HookRequest | None:
    tool = payload.get("tool_name")
    tool_input = payload.get("tool_input")
    if tool in FILE_TOOLS and isinstance(tool, str):
        return file_request(
            NAME, tool, tool_input, text(payload.get("cwd")), text(payload.get("session_id"))
        )
    if tool not in _TOOLS or not isinstance(tool_input, dict):
        return None
    command = tool_input.get("command")
    if isinstance(command, list):
        # The exec tool sends an argv; turn it back into a line the parser reads.
        if not command or not all(isinstance(w, str) for w in command):
            return None
        tool_input = {"command": " ".join(_quote(w) for w in command)}
    return claude.read({**payload, "tool_name": "Bash", "tool_input": tool_input}, NAME)


def _quote(word: str) -> str:
    if word and all(c.isalnum() or c in "@%+=:,./-_" for c in word):
        return word
    return "'" + word.replace("'", "'\"'\"'") + "'"


def render(request: HookRequest, outcome: Outcome, details: bool = False) -> Reply:
    # `details` is ignored: Codex's closed schema would fail the hook and run the command.
    notice = user_text(outcome)
    if outcome.level == WARNING:
        body: dict[str, object] = {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "additionalContext": cap(outcome.model_text),
            }
        }
        if notice:
            body["systemMessage"] = notice
        return Reply(jsonfast.dumps(body) + "\n", "", 0)
    # `ask` marks the hook failed and the command runs: always deny. systemMessage is
    # shown to the user only and is allowed next to a deny: the code goes there.
    return _deny(cap(outcome.model_text), notice)


def render_error(message: str) -> Reply:
    return _deny(error_reason(message), "")


def _deny(reason: str, notice: str) -> Reply:
    specific = {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": reason,
    }
    body: dict[str, object] = {"hookSpecificOutput": specific}
    if notice:
        body["systemMessage"] = notice
    return Reply(jsonfast.dumps(body) + "\n", "", 0)


# Transcripts (`dcg replay`): ~/.codex/sessions/**/rollout-*.jsonl, lines of
# ``{"timestamp", "type", "payload"}``; ``session_meta`` gives the session ``id`` and
# ``cwd``, ``turn_context`` a later ``cwd``; a ``response_item`` whose payload is a
# ``function_call`` named ``shell`` (``arguments`` a JSON string with ``command`` as an
# argv and ``workdir``), ``shell_command`` (``command`` a string), ``exec_command``
# (``cmd``), or a ``local_shell_call`` (``action.command`` argv,
# ``action.working_directory``) is a shell command. Older rollouts put those items on the
# line itself, without the wrapper, after a first line with the session ``id``.
_CALL_NAMES = ("shell", "shell_command", "exec_command", "container.exec")
_TRANSCRIPT_MARKERS = (b"function_call", b"local_shell_call", b"session_meta", b"turn_context")


def transcript_files(home: str) -> list[str]:
    """Codex's rollout files under ``home``, in their default place."""
    from dcg.agents._transcript import jsonl_under

    return jsonl_under(f"{home}/.codex/sessions", lambda name: name.startswith("rollout-"))


def owns_transcript(path: str) -> bool:
    """A rollout file, or a file under a ``.codex`` directory."""
    parts = path.split("/")
    return parts[-1].startswith("rollout-") or ".codex" in parts


def read_transcript(path: str, fh: Iterator[bytes], counts: Counts) -> Iterator[Command]:
    """The shell commands of one Codex rollout, in order."""
    from dcg.agents import _transcript as t

    session_id, cwd = "", ""
    for number, raw in enumerate(fh, start=1):
        if not t.candidate(raw, counts, _TRANSCRIPT_MARKERS, number == 1):
            continue
        line = t.decode(raw, counts)
        if line is None:
            continue
        kind = line.get("type")
        payload = line.get("payload")
        if not isinstance(payload, dict):
            payload = line  # older rollouts: the item is the line itself
        if kind == "session_meta" or (number == 1 and "id" in line and "payload" not in line):
            session_id = str(payload.get("id") or session_id)
            cwd = str(payload.get("cwd") or cwd)
            continue
        if kind == "turn_context":
            cwd = str(payload.get("cwd") or cwd)
            continue
        found = _shell_call(payload)
        if found is None:
            continue
        text, workdir = found
        stamp = line.get("timestamp") or payload.get("timestamp") or ""
        yield t.Command(
            text, "bash", NAME, session_id, str(stamp), workdir or cwd, f"{path}:{number}"
        )


def _shell_call(item: dict[str, object]) -> tuple[str, str] | None:
    """``(command line, workdir)`` of a shell call item, or None."""
    from dcg.agents._transcript import command_of

    kind = item.get("type")
    if kind == "local_shell_call":
        action = item.get("action")
        if not isinstance(action, dict):
            return None
        return command_of(action.get("command")), str(action.get("working_directory") or "")
    if kind != "function_call" or item.get("name") not in _CALL_NAMES:
        return None
    arguments = item.get("arguments")
    if isinstance(arguments, str):
        import json

        try:
            arguments = json.loads(arguments)
        except ValueError:
            return None
    if not isinstance(arguments, dict):
        return None
    text = command_of(arguments.get("command", arguments.get("cmd")))
    if not text:
        return None
    return text, str(arguments.get("workdir") or arguments.get("cwd") or "")


def spec() -> Agent:
    from dcg.agents import _spec

    return _spec.Agent(
        name=NAME,
        title="OpenAI Codex CLI",
        shells={t: "bash" for t in sorted(_TOOLS)},
        file_tools=FILE_TOOLS,
        fields=OUTPUT_FIELDS,
        fields_source="openai/codex codex-rs/hooks output schema (deny_unknown_fields at every "
        "level)",
        fields_date="2026-12",
        user_path=".codex/hooks.json",
        project_path=".codex/hooks.json",
        home_dirs=(".codex",),
        binaries=("codex",),
        # `--disable hooks` (or the older feature name codex_hooks) and a `-c` override of
        # any hooks key (`features.hooks=false`) switch the hooks off for that run.
        unguarded=("CODEX_HOME", "--disable=*hooks", "-c=*hooks*", "--config=*hooks*"),
        packages=("@openai/codex",),
        layout=_spec.Grouped(
            "PreToolUse",
            "^(Bash|apply_patch)$",
            {"type": "command", "command": None, "timeout": 10},
        ),
        probe=_spec.Probe(claude.probe_payload(turn_id="dcg-doctor")),
        transcripts=_spec.Transcripts(transcript_files, owns_transcript, read_transcript),
        fails=_spec.FAILS_OPEN,
        fail_text="any exit other than 0 or 2, a time-out or output it rejects lets the "
        "command run (Codex has no setting to change that)",
        note="Codex runs a new or changed hook only after you trust it: start codex, open "
        "/hooks and trust the dcg hook. Needed again whenever the hook entry changes (a new "
        "dcg path).",
        covers=("Bash", "apply_patch"),
    )
