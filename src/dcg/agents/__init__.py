"""Agent adapters: read each agent's hook payload and answer in its own protocol.

One module per agent, each with ``NAME``, ``OUTPUT_FIELDS`` (its documented keys, from
the one table in :mod:`dcg.agents._fields`), ``read(payload)``,
``render(request, outcome, details)`` and ``render_error(message)``. Modules are imported
only when needed: this runs on the hook's hot path.
"""

from __future__ import annotations

from dcg.hookio import Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType

    from dcg.hookio import HookRequest, Outcome

# The names users pass to `dcg hook --agent` (decisions §9).
AGENTS = (
    "claude",
    "codex",
    "gemini",
    "copilot",
    "cursor",
    "windsurf",
    "opencode",
    "factory",
    "qwen",
    "auggie",
)


def adapter(name: str) -> ModuleType:
    """The adapter module of agent ``name``; ValueError for an unknown name."""
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r} (known: {', '.join(AGENTS)})")
    # __import__ rather than importlib: importing importlib costs the hook half a millisecond.
    module: ModuleType = __import__(f"dcg.agents.{name}", fromlist=["read"])
    return module


_COPILOT_TOOLS = frozenset({"bash", "shell", "powershell"})
# Gemini CLI's tool ids, which Qwen Code keeps (its `edit` is also Copilot's: not here).
_GEMINI_TOOLS = frozenset({"run_shell_command", "write_file", "replace"})
# Factory Droid's tools that no other agent names (its Edit and MultiEdit are Claude's).
_FACTORY_TOOLS = frozenset({"Execute", "Create", "ApplyPatch"})
# Auggie's tool ids (kebab-case), which no other agent uses.
_AUGGIE_TOOLS = frozenset({"launch-process", "save-file", "str-replace-editor", "remove-files"})


def detect(payload: object) -> str | None:
    """The agent whose payload shape ``payload`` has, or None.

    Checked here rather than in each adapter so that detection imports no adapter.
    """
    if not isinstance(payload, dict):
        return None
    event = payload.get("hook_event_name")
    if "toolArgs" in payload or "tool_args" in payload:
        return "copilot"
    if "tool_info" in payload or payload.get("agent_action_name") == "pre_run_command":
        return "windsurf"
    if event == "beforeShellExecution" or ("conversation_id" in payload and "command" in payload):
        return "cursor"
    if event == "PreToolUse" and payload.get("tool_name") in _GEMINI_TOOLS:
        # Qwen Code, a Gemini CLI fork: Gemini's tool ids with Claude Code's event name.
        return "qwen"
    if event == "BeforeTool" or payload.get("tool_name") == "run_shell_command":
        return "gemini"
    if "tool_input" in payload:
        # Claude Code, Codex, Factory Droid, Auggie and Copilot's VS Code format share this
        # shape: Droid's shell tool is `Execute`, Auggie's `launch-process` (and only Auggie
        # sends workspace_roots with PreToolUse), Copilot's is lowercase, only Codex adds a
        # turn_id.
        tool = payload.get("tool_name")
        if tool in _AUGGIE_TOOLS or ("workspace_roots" in payload and event == "PreToolUse"):
            return "auggie"
        if tool in _FACTORY_TOOLS:
            return "factory"
        if tool in _COPILOT_TOOLS:
            return "copilot"
        return "codex" if "turn_id" in payload else "claude"
    if "sessionID" in payload and "command" in payload:
        return "opencode"
    return None


def read_request(payload: object, agent: str | None) -> HookRequest | None:
    """The shell command in ``payload``; None when dcg has no opinion about it.

    None for non-shell tools, a missing, empty or non-string command, and payloads
    whose shape no adapter recognises.
    """
    if not isinstance(payload, dict):
        return None
    name = agent if agent is not None else detect(payload)
    if name is None:
        return None
    request: HookRequest | None = adapter(name).read(payload)
    return request


def render(request: HookRequest, outcome: Outcome | None, details: bool = False) -> Reply:
    """The reply for ``outcome``; no opinion (empty, exit 0) when it is None.

    ``details`` adds the draft's fields where the agent tolerates them
    (``[hook] details``, decisions.md 10.9).
    """
    if outcome is None:
        return Reply()
    reply: Reply = adapter(request.agent).render(request, outcome, details)
    return reply


def render_malformed(agent: str | None) -> Reply:
    """Malformed JSON on stdin: no opinion, for every agent (decisions §6)."""
    return Reply()


def render_error(agent: str | None, message: str, dialect: str | None = None) -> Reply:
    """A fail-closed deny naming an internal error.

    With the agent unknown, exit 2 and the reason on stderr: that blocks in Claude
    Code, Codex, Gemini and Windsurf without knowing which one is asking. ``dialect``
    is the request's payload format where the agent has two (Copilot).
    """
    if agent is None or agent not in AGENTS:
        from dcg.agents._common import error_reason

        return Reply("", error_reason(message) + "\n", 2)
    module = adapter(agent)
    reply: Reply = (
        module.render_error(message, dialect) if dialect else module.render_error(message)
    )
    return reply
