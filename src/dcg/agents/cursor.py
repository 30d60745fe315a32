"""Cursor ``beforeShellExecution`` adapter."""

from __future__ import annotations

from dcg import jsonfast
from dcg.agents._common import cap, command_text, error_reason, mark, text, user_text
from dcg.hookio import SOFT_BLOCK, WARNING, HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.agents._common import Mark
    from dcg.agents._spec import Agent
    from dcg.hookio import Outcome

NAME = "cursor"

# Its hot-path facts: see dcg.agents (the claude module says what each is).
ORDER = 50
_E = "hook_event_name"
MARKS: tuple[Mark, ...] = (
    mark(0, (_E, "beforeShellExecution")),
    mark(0, ("conversation_id", None), ("command", None)),
)
HOOK_FILES: tuple[str, ...] = (".cursor/hooks.json",)
OWN_DIRS: tuple[str, ...] = ()

# Third-party descriptions of Cursor's beforeShellExecution output (unverified).
OUTPUT_FIELDS: dict[str, frozenset[str]] = {
    "": frozenset({"permission", "user_message", "agent_message"})
}


def read(payload: dict[str, object]) -> HookRequest | None:
    event = payload.get("hook_event_name")
    if event is not None and event != "beforeShellExecution":
        return None
    command = command_text(payload.get("command"))
    if command is None:
        return None
    cwd = text(payload.get("cwd"))
    roots = payload.get("workspace_roots")
    if cwd is None and isinstance(roots, list) and roots:
        cwd = text(roots[0])
    return HookRequest(
        NAME,
        command,
        cwd=cwd,
        session_id=text(payload.get("conversation_id")),
        tool="beforeShellExecution",
    )


def render(request: HookRequest, outcome: Outcome, details: bool = False) -> Reply:
    """``user_message`` is the person's channel (with the code); ``agent_message`` the model's."""
    notice = user_text(outcome)
    if outcome.level == WARNING:
        # No `permission`: "allow" would skip Cursor's own approval of the command.
        body = {"agent_message": cap(outcome.model_text)}
        if notice:
            body["user_message"] = notice
        return Reply(jsonfast.dumps(body) + "\n", "", 0)
    permission = "ask" if outcome.ask and outcome.level == SOFT_BLOCK else "deny"
    body = {"permission": permission}
    if notice:
        body["user_message"] = notice
    body["agent_message"] = cap(outcome.model_text)
    return Reply(jsonfast.dumps(body) + "\n", "", 0)


def render_error(message: str) -> Reply:
    reason = error_reason(message)
    body = {"permission": "deny", "user_message": reason, "agent_message": reason}
    return Reply(jsonfast.dumps(body) + "\n", "", 0)


def spec() -> Agent:
    from dcg.agents import _spec

    return _spec.Agent(
        name=NAME,
        title="Cursor",
        shells={"beforeShellExecution": "bash"},
        file_tools=frozenset(),
        fields=OUTPUT_FIELDS,
        fields_source="third-party descriptions of Cursor beforeShellExecution (unverified)",
        fields_date="2026-12",
        user_path=".cursor/hooks.json",
        project_path=".cursor/hooks.json",
        home_dirs=(".cursor",),
        binaries=("cursor", "cursor-agent"),
        # No failClosed: by two third-party descriptions, with failClosed a permission hook
        # that prints nothing blocks — and dcg prints nothing for every command it does not
        # match. Without it, an empty answer is no opinion under either reading; dcg's own
        # failures still answer `permission: deny` (render_error), so nothing relies on it.
        layout=_spec.Flat(
            "beforeShellExecution",
            {"command": None, "timeout": 30},
            new_file={"version": 1, "hooks": {}},
            drop={"failClosed": "removed failClosed (empty output must stay no opinion)"},
        ),
        probe=_spec.Probe(
            {
                "hook_event_name": "beforeShellExecution",
                "conversation_id": "dcg-doctor",
                "command": "{command}",
                "cwd": "{cwd}",
            },
            path=("permission",),
            exit_codes=(),
        ),
        fails=_spec.FAILS_OPEN,
        fail_text="without failClosed (deliberately off) a crash, a time-out or a missing "
        "dcg lets the command run",
        note="Restart Cursor (or reload the window) to load the hook.",
    )
