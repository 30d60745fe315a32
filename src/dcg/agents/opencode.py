"""OpenCode adapter: the small protocol between dcg and its JS plugin shim.

OpenCode has no stdin hook, so ``dcg install`` writes a plugin (``dcg.js``) whose
``tool.execute.before`` runs ``dcg hook --agent opencode`` with one JSON object::

    {"tool": "bash", "command": "git reset --hard", "cwd": "/repo", "sessionID": "ses_1"}

and, for a file-writing tool (:data:`FILE_TOOLS`), the tool's own arguments under ``args``
(OpenCode's names: ``filePath``, ``patchText``, a ``multiedit``'s ``edits``), without the
text it writes (``content``, ``oldString``, ``newString``: they never name a file)::

    {"tool": "write", "args": {"filePath": "/repo/x.py"}, "cwd": "/repo", "sessionID": "ses_1"}

A relative ``filePath`` is the session directory's (``cwd``), as OpenCode resolves it.
Where a named path leads elsewhere through a link, the plugin adds where it really leads
(``"resolved": ["/home/ana/.config/opencode/plugins/x.js"]``): the keyword prefilter reads
the payload's text, and a link the user made must not hide OpenCode's config from it.

dcg answers with nothing (no opinion) or one JSON object the shim acts on::

    {"decision": "deny", "reason": "<for the model>", "message": "<for the user>"}
    {"decision": "warn", "reason": "<for the model>", "message": "<for the user>"}

On ``deny`` the shim throws ``reason`` (OpenCode shows a thrown error to the model and
the command does not run); on ``warn`` it lets the command run and prepends ``reason``
to the tool's output.
"""

from __future__ import annotations

from dcg import jsonfast
from dcg.agents._common import cap, command_text, error_decision, mark, text, user_text
from dcg.hookio import WARNING, HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.agents._common import Mark
    from dcg.agents._spec import Agent
    from dcg.hookio import Outcome

NAME = "opencode"

# Its hot-path facts: see dcg.agents (the claude module says what each is).
ORDER = 70
MARKS: tuple[Mark, ...] = (
    # dcg's own plugin: a shell command, or a file tool's arguments.
    mark(0, ("sessionID", None), ("command", None)),
    mark(0, ("sessionID", None), ("args", None)),
)
HOOK_FILES: tuple[str, ...] = (
    # Its plugin and custom-tool directories (modules it imports: their code runs), and its
    # config files: their `plugin` list loads code at start (as do `mcp`, `formatter`, `lsp`
    # commands). A project's `opencode.json` is found in any directory up from the cwd: a
    # bare name is judged only as spelled.
    ".config/opencode/plugin/",
    ".config/opencode/plugins/",
    ".opencode/plugin/",
    ".opencode/plugins/",
    ".config/opencode/tool/",
    ".config/opencode/tools/",
    ".opencode/tool/",
    ".opencode/tools/",
    ".config/opencode/opencode.json",
    ".config/opencode/opencode.jsonc",
    ".config/opencode/config.json",
    ".config/opencode/config",
    ".opencode/opencode.json",
    ".opencode/opencode.jsonc",
    "opencode.json",
    "opencode.jsonc",
)
OWN_DIRS: tuple[str, ...] = ()

# dcg's own plugin protocol (this module's docstring).
OUTPUT_FIELDS: dict[str, frozenset[str]] = {"": frozenset({"decision", "reason", "message"})}


# OpenCode's tools that write files (1.18: `write`, `edit`, `apply_patch`; `patch` and
# `multiedit` in earlier 1.x); dcg judges the paths they change (dcg.selfguard).
FILE_TOOLS = frozenset(("write", "edit", "multiedit", "patch", "apply_patch"))


def read(payload: dict[str, object]) -> HookRequest | None:
    tool = payload.get("tool")
    if isinstance(tool, str) and tool.lower() in FILE_TOOLS:
        from dcg.agents._common import file_request

        cwd, session = text(payload.get("cwd")), text(payload.get("sessionID"))
        found = payload.get("resolved")
        extra = [p for p in found if isinstance(p, str) and p] if isinstance(found, list) else []
        return file_request(NAME, tool, payload.get("args"), cwd, session, extra=extra)
    if tool != "bash":
        return None
    command = command_text(payload.get("command"))
    if command is None:
        return None
    return HookRequest(
        NAME,
        command,
        cwd=text(payload.get("cwd")),
        session_id=text(payload.get("sessionID")),
        tool="bash",
    )


def render(request: HookRequest, outcome: Outcome, details: bool = False) -> Reply:
    # The plugin cannot prompt the user: ask is a deny. `message` is shown only as a
    # TUI toast, which the model does not read (the shim never throws it).
    decision = "warn" if outcome.level == WARNING else "deny"
    body = {"decision": decision, "reason": cap(outcome.model_text)}
    notice = user_text(outcome)
    if notice:
        body["message"] = notice
    return Reply(jsonfast.dumps(body) + "\n", "", 0)


def render_error(message: str) -> Reply:
    return error_decision(message)


def plugin_loads(text: str | None, path: str | None) -> tuple[str, bool, bool, str]:
    """Doctor's own check for OpenCode: whether the OpenCode found runs dcg's plugin."""
    from dcg.agents import _opencode

    return ("plugin loads", *_opencode.load_verdict(_opencode.version(), text, path))


def spec() -> Agent:
    from dcg.agents import _opencode, _spec

    return _spec.Agent(
        name=NAME,
        title="OpenCode",
        shells={"bash": "bash"},
        file_tools=FILE_TOOLS,
        fields=OUTPUT_FIELDS,
        fields_source="dcg's own plugin protocol (src/dcg/agents/opencode.py)",
        fields_date="2026-12",
        # plugins/ (plural) is the directory OpenCode's v1 docs name; v2 scans it too.
        user_path=".config/opencode/plugins/dcg.js",
        project_path=".opencode/plugins/dcg.js",
        home_dirs=(".config/opencode",),
        binaries=("opencode",),
        packages=("opencode-ai",),
        unguarded=("OPENCODE_CONFIG_DIR",),
        layout=_spec.OwnedText(
            _opencode.installed_plugin, _opencode.plugin_command, _opencode.plugin_covers
        ),
        probe=_spec.Probe(
            {"tool": "bash", "command": "{command}", "cwd": "{cwd}", "sessionID": "dcg-doctor"},
            path=("decision",),
            exit_codes=(),
        ),
        check=plugin_loads,
        fails=_spec.FAILS_MIXED,
        fail_text="the plugin blocks a command when dcg cannot start or answers nonsense; a "
        "plugin OpenCode cannot load guards nothing",
        note="Restart OpenCode to load the plugin. It is written for the OpenCode found here "
        "(v1 or v2; both when `opencode --version` cannot tell): run dcg install again after "
        "upgrading OpenCode from v1 to v2 (dcg doctor says whether it loads).",
        legacy=((".config/opencode/plugin/dcg.js", ".opencode/plugin/dcg.js"),),
    )
