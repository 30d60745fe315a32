"""What flows through the hook: the request read from an agent and the outcome sent back.

Agent adapters (``dcg.agents``) turn a payload into a :class:`HookRequest` and an
:class:`Outcome` into that agent's stdout, stderr and exit code; the engine and the
graduated response in between never see agent-specific shapes.
"""

from __future__ import annotations

from dcg.frozen import Frozen

# typing is not imported at run time: it costs more than the hook's whole budget.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.model import Match


class HookRequest(Frozen):
    """A shell command an agent is about to run.

    ``shell`` is ``"bash"`` for POSIX shells and ``"powershell"`` for PowerShell tools.
    ``permission_mode`` is the agent's mode where it sends one (Claude Code:
    ``default``, ``plan``, ``acceptEdits``, ``auto``, ``dontAsk``,
    ``bypassPermissions``); ``interactive`` is False when the agent runs headless and
    cannot show a prompt. ``paths`` are the files a file-writing tool (Claude Code's
    ``Write``/``Edit``, Gemini's ``write_file``, …) is about to change; such a request
    has ``shell == "file"`` and ``command`` says in words what the tool does.
    ``dialect`` names a second payload format of the same agent (Copilot's
    ``"vscode"``), answered in that format.
    """

    __slots__ = (
        "agent",
        "command",
        "cwd",
        "dialect",
        "interactive",
        "paths",
        "permission_mode",
        "session_id",
        "shell",
        "tool",
    )

    agent: str
    command: str
    cwd: str | None
    session_id: str | None
    tool: str
    shell: str
    permission_mode: str | None
    interactive: bool
    paths: tuple[str, ...]
    dialect: str | None

    def __init__(
        self,
        agent: str,
        command: str,
        *,
        cwd: str | None = None,
        session_id: str | None = None,
        tool: str = "Bash",
        shell: str = "bash",
        permission_mode: str | None = None,
        interactive: bool = True,
        paths: tuple[str, ...] = (),
        dialect: str | None = None,
    ) -> None:
        self._set("agent", agent)
        self._set("command", command)
        self._set("cwd", cwd)
        self._set("session_id", session_id)
        self._set("tool", tool)
        self._set("shell", shell)
        self._set("permission_mode", permission_mode)
        self._set("interactive", interactive)
        self._set("paths", paths)
        self._set("dialect", dialect)


# Response levels, lowest to highest: plain strings everywhere (config.LEVELS validates
# them), as enum would cost the hook its start-up budget.
WARNING = "warning"
SOFT_BLOCK = "soft_block"
HARD_BLOCK = "hard_block"


class Outcome(Frozen):
    """How dcg answers one matched command.

    ``level`` is ``warning``, ``soft_block`` or ``hard_block``. ``ask`` is True when a
    soft block should use the agent's own permission prompt (``soft_block_action =
    "ask"``) instead of a deny with a confirm code; adapters degrade it to a deny where
    the agent cannot ask. ``fields`` are the draft's JSON fields in order
    (``responseLevel``, ``sessionOccurrence``, …, ``ruleId``, ``packId``, ``severity``,
    ``confirmCode``/``allowOnceCode``, ``remediation``). ``model_text`` is what the
    model reads (the deny reason or the warning context) and never holds an approval
    code; ``human_text`` (the draft's human block) and ``summary`` (one line) may hold the
    code and go only to an agent's user-only channel (decisions.md 10.2).
    """

    __slots__ = (
        "ask",
        "command",
        "fields",
        "human_text",
        "level",
        "match",
        "model_text",
        "summary",
    )

    level: str
    ask: bool
    match: Match | None
    command: str
    fields: dict[str, object]
    model_text: str
    human_text: str
    summary: str

    def __init__(
        self,
        level: str,
        *,
        match: Match | None,
        command: str,
        fields: dict[str, object],
        model_text: str,
        human_text: str,
        summary: str,
        ask: bool = False,
    ) -> None:
        self._set("level", level)
        self._set("ask", ask)
        self._set("match", match)
        self._set("command", command)
        self._set("fields", fields)
        self._set("model_text", model_text)
        self._set("human_text", human_text)
        self._set("summary", summary)

    @property
    def blocks(self) -> bool:
        return self.level != WARNING


class Reply(Frozen):
    """What an adapter writes back: stdout, stderr and the exit code."""

    __slots__ = ("exit_code", "stderr", "stdout")

    stdout: str
    stderr: str
    exit_code: int

    def __init__(self, stdout: str = "", stderr: str = "", exit_code: int = 0) -> None:
        self._set("stdout", stdout)
        self._set("stderr", stderr)
        self._set("exit_code", exit_code)
