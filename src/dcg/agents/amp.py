"""Amp adapter: a permission rule that delegates the decision to dcg (no hook events).

Amp checks every tool call against the ordered rules of its ``amp.permissions`` setting
(``~/.config/amp/settings.json``); a rule ``{"tool": "Bash", "action": "delegate", "to":
PROGRAM}`` runs the program (on PATH or an absolute path, no arguments) with the tool's
arguments as JSON on stdin (``{"cmd", "cwd"}`` for Bash; ``path`` for the file tools) and
``AGENT_TOOL_NAME``, ``AMP_THREAD_ID`` and ``AGENT=amp`` in its environment; exit 0
allows, 1 asks the person, 2 or more rejects with stderr shown to the model (ampcode.com
manual, appendix "Permissions", read 2026-12). There is no "no opinion": dcg's 0 for a
command it does not stop *allows* it, skipping Amp's own prompt (a departure from
decisions §3 that Amp's protocol leaves no way around; see the README). Nothing reaches
only the person: no approval code is written, and a warning is silent.
"""

from __future__ import annotations

from dcg import oslite as os
from dcg.agents._common import cap, command_text, error_exit2, file_request, mark, text
from dcg.hookio import SOFT_BLOCK, WARNING, HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.agents._common import Mark
    from dcg.agents._spec import Agent
    from dcg.hookio import Outcome

NAME = "amp"

# Its hot-path facts: see dcg.agents (the claude module says what each is).
ORDER = 200
MARKS: tuple[Mark, ...] = (mark(2, ("cmd", None)),)
HOOK_FILES: tuple[str, ...] = (
    ".config/amp/settings.json",
    ".config/amp/dcg-hook.sh",
    ".amp/settings.json",
    ".amp/dcg-hook.sh",
)
OWN_DIRS: tuple[str, ...] = ()

# Amp reads no JSON from a delegate: its exit code and stderr.
OUTPUT_FIELDS: dict[str, frozenset[str]] = {}

SHELL_TOOL = "Bash"
FILE_TOOLS = frozenset({"edit_file", "create_file"})


def read(payload: dict[str, object]) -> HookRequest | None:
    env = os.environ
    # The rule dcg installs delegates only Bash and the file tools; without the variable
    # (run by hand) a `cmd` says Bash.
    tool = env.get("AGENT_TOOL_NAME") or (SHELL_TOOL if "cmd" in payload else "")
    cwd, session = text(payload.get("cwd")), text(env.get("AMP_THREAD_ID"))
    if tool in FILE_TOOLS:
        return file_request(NAME, tool, payload, cwd, session)
    if tool != SHELL_TOOL:
        return None
    command = command_text(payload.get("cmd"))
    if command is None:
        return None
    return HookRequest(NAME, command, cwd=cwd, session_id=session, tool=SHELL_TOOL)


def render(request: HookRequest, outcome: Outcome, details: bool = False) -> Reply:
    if outcome.level == WARNING:
        return Reply()
    reason = cap(outcome.model_text)
    if outcome.ask and outcome.level == SOFT_BLOCK:
        # Exit 1: Amp asks the person (a sub-agent, which cannot ask, rejects).
        return Reply("", reason + "\n", 1)
    return Reply("", reason + "\n", 2)


def render_error(message: str) -> Reply:
    return error_exit2(message)


def spec() -> Agent:
    from dcg.agents import _spec

    cmd = _spec.COMMAND
    rules = tuple(
        {"tool": tool, "action": "delegate", "to": cmd}
        for tool in (SHELL_TOOL, *sorted(FILE_TOOLS))
    )
    return _spec.Agent(
        name=NAME,
        title="Amp",
        shells={SHELL_TOOL: "bash"},
        file_tools=FILE_TOOLS,
        fields=OUTPUT_FIELDS,
        fields_source="ampcode.com/manual/appendix#permissions-configuration (delegate)",
        fields_date="2026-12",
        user_path=".config/amp/settings.json",
        project_path=".amp/settings.json",
        home_dirs=(".config/amp",),
        binaries=("amp",),
        packages=("@sourcegraph/amp",),
        layout=_spec.Rules("amp.permissions", rules),
        # `to` is a program without arguments: dcg's script beside the settings runs dcg.
        companions=(_spec.Companion("dcg-hook.sh", _spec.OwnedScript()),),
        probe=_spec.Probe(
            {"cmd": "{command}", "cwd": "{cwd}"},
            path=(),
            env={"AGENT_TOOL_NAME": SHELL_TOOL, "AGENT": "amp"},
        ),
        fails=_spec.FAILS_MIXED,
        fail_text="a crash with exit 1 makes Amp ask you; exit 2 or more rejects the "
        "command; a missing program or a time-out is not documented",
        note="Amp now lets every shell command and file edit dcg does not stop run without "
        'its own prompt (its delegate protocol has no "no opinion"); dcg\'s rules go first '
        "in amp.permissions.",
    )
