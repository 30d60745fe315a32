"""Dispatch to the agent adapters: detect the agent, read its payload, render the reply.

Split from :mod:`dcg.agents` so that the hook's keyword prefilter, which reads only the
registry's data, loads none of this on a call that matches no keyword; ``dcg.agents``
hands these names out on first use (its ``__getattr__``).
"""

from __future__ import annotations

from dcg.agents import AGENTS, REGISTRY

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType

    from dcg.agents._spec import Agent
    from dcg.hookio import HookRequest, Outcome, Reply

    _Cond = tuple[str, str | frozenset[str] | None]


def adapter(name: str) -> ModuleType:
    """The adapter module of agent ``name``; ValueError for an unknown name."""
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r} (known: {', '.join(AGENTS)})")
    # __import__ rather than importlib: importing importlib costs the hook half a millisecond.
    module: ModuleType = __import__(f"dcg.agents.{name}", fromlist=["read"])
    return module


def spec(name: str) -> Agent:
    """Everything dcg knows about agent ``name`` (off the hot path)."""
    found: Agent = adapter(name).spec()
    return found


def shell_tools() -> frozenset[str]:
    """Every agent's tool names that run a command, lower-cased (for a payload that cannot
    be decoded: off the hot path, it imports every adapter)."""
    return frozenset(t.lower() for name in AGENTS for t in spec(name).shells)


def output_fields(agent: str, details: bool = False) -> dict[str, frozenset[str]]:
    """The documented output keys of ``agent`` (``<agent>-<dialect>`` for a second payload
    format of one agent), per JSON object path; with ``details``, those the agent may
    receive with ``[hook] details`` on (decisions.md 10.9)."""
    name, _, dialect = agent.partition("-")
    module = adapter(name)
    table = dict(module.DIALECT_FIELDS[dialect] if dialect else module.OUTPUT_FIELDS)
    if details and getattr(module, "TAKES_DETAILS", False):
        from dcg.agents._fields import DETAILS

        table["hookSpecificOutput"] = table["hookSpecificOutput"] | DETAILS
    return table


_order: list[tuple[int, str, tuple[_Cond, ...]]] = []


def _marks() -> list[tuple[int, str, tuple[_Cond, ...]]]:
    if not _order:
        flat = [(rank, name, conds) for name, marks, *_ in REGISTRY for rank, conds in marks]
        # Stable: within a rank, registry order.
        _order.extend(sorted(flat, key=lambda mark: mark[0]))
    return _order


def _holds(payload: dict[str, object], conds: tuple[_Cond, ...]) -> bool:
    for key, want in conds:
        if key not in payload:
            return False
        if want is None:
            continue
        value = payload[key]
        if isinstance(want, str):
            if value != want:
                return False
        elif not isinstance(value, str) or value not in want:
            return False
    return True


def detect(payload: object, strongest: int = 3) -> str | None:
    """The agent whose payload shape ``payload`` has, or None; only marks of rank up to
    ``strongest``. Checked here rather than in each adapter so that detection imports no
    adapter."""
    if not isinstance(payload, dict):
        return None
    for rank, name, conds in _marks():
        if rank > strongest:
            break
        if _holds(payload, conds):
            return name
    return None


def read_request(payload: object, agent: str | None) -> HookRequest | None:
    """The shell command in ``payload``; None when dcg has no opinion about it.

    None for non-shell tools, a missing, empty or non-string command, and payloads
    whose shape no adapter recognises. With ``agent`` named (``--agent``), a payload
    that shows another agent's own marks (rank 0: another agent running this agent's
    hook files, as Grok runs Cursor's) is read and answered as that agent's.
    """
    if not isinstance(payload, dict):
        return None
    name = detect(payload) if agent is None else (detect(payload, 0) or agent)
    if name is None:
        return None
    request: HookRequest | None = adapter(name).read(payload)
    tool = payload.get("tool_name")
    if request is None and name != "copilot" and isinstance(tool, str) and tool[:1].islower():
        # Copilot CLI and VS Code run Claude Code's hook files with their own tools
        # (write_bash, run_in_terminal, apply_patch, create_file) in Claude's payload shape.
        copilot = adapter("copilot")
        if tool.lower() in copilot.TOOLS:
            request = copilot.read(payload)
    return request


def render(request: HookRequest, outcome: Outcome | None, details: bool = False) -> Reply:
    """The reply for ``outcome``; no opinion (empty, exit 0) when it is None.

    ``details`` adds the draft's fields where the agent tolerates them
    (``[hook] details``, decisions.md 10.9).
    """
    if outcome is None:
        from dcg.hookio import Reply

        return Reply()
    reply: Reply = adapter(request.agent).render(request, outcome, details)
    return reply


def render_malformed(agent: str | None) -> Reply:
    """Malformed JSON on stdin: no opinion, for every agent (decisions §6)."""
    from dcg.hookio import Reply

    return Reply()


def render_error(agent: str | None, message: str, dialect: str | None = None) -> Reply:
    """A fail-closed deny naming an internal error.

    With the agent unknown, exit 2 and the reason on stderr: that blocks in Claude
    Code, Codex, Gemini and Windsurf without knowing which one is asking. ``dialect``
    is the request's payload format where the agent has two (Copilot).
    """
    if agent is None or agent not in AGENTS:
        from dcg.agents._common import error_exit2

        return error_exit2(message)
    module = adapter(agent)
    reply: Reply = (
        module.render_error(message, dialect) if dialect else module.render_error(message)
    )
    return reply
