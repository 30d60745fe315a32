"""Agent adapters: read each agent's hook payload and answer in its own protocol.

One module per agent, ``agents/<name>.py``: its hot-path half (``NAME``, ``read(payload)``,
``render(request, outcome, details)``, ``render_error(message)``) and ``spec()``, the
single declaration of everything else (:class:`dcg.agents._spec.Agent`: tool names,
documented output fields, settings files and format, install entry, doctor probe, failure
mode). The hand-written :data:`REGISTRY` below holds, per agent, only the facts the hook
needs before it imports any adapter: how its payload shows itself and which files it
reads hooks from (self-protection and the keyword prefilter read those). Everything else
that lists agents (the CLI, install, uninstall, doctor, ``dcg hook --help``) derives from
this registry. Modules are imported only when needed: this runs on the hook's hot path.
"""

from __future__ import annotations

# Imported on every hook call (the keyword prefilter reads the registry): nothing here may
# import another module at load time; hookio and the adapters are imported when used.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType

    from dcg.agents._spec import Agent
    from dcg.hookio import HookRequest, Outcome, Reply

    _Cond = tuple[str, str | frozenset[str] | None]
    _Mark = tuple[int, tuple[_Cond, ...]]

# A mark is how a payload shows itself: (rank, conditions). Every condition must hold:
# (key, None) the key is present, (key, "v") it equals "v", (key, frozenset) its value is
# one of them. Lower ranks are tried first across all agents: 0 for what only that agent
# sends, 1-2 for shapes several agents share, 3 for the generic Claude Code shape.


def _m(rank: int, *conds: _Cond) -> _Mark:
    return (rank, conds)


_EVENT, _TOOL, _INPUT = "hook_event_name", "tool_name", "tool_input"
_GEMINI_TOOLS = frozenset({"run_shell_command", "write_file", "replace"})

# name, marks, files the agent reads hooks from (relative to HOME and to any project,
# or absolute; a trailing "/" is the whole directory), directories its own payloads
# carry (keyword prefilter: these are matched only as a command spells a path). The
# names users pass to `dcg hook --agent` (decisions §9); this order is the CLI's.
REGISTRY: tuple[tuple[str, tuple[_Mark, ...], tuple[str, ...], tuple[str, ...]], ...] = (
    (
        "claude",
        (_m(3, (_INPUT, None)),),
        (
            ".claude/settings.json",
            ".claude/settings.local.json",
            "/etc/claude-code/managed-settings.json",
            # Drop-in managed settings, merged over the file above.
            "/etc/claude-code/managed-settings.d/",
        ),
        (".claude",),
    ),
    (
        "codex",
        (_m(2, (_INPUT, None), ("turn_id", None)),),
        (".codex/hooks.json", ".codex/config.toml", "/etc/codex/config.toml"),
        (".codex",),
    ),
    (
        "gemini",
        (_m(0, (_EVENT, "BeforeTool")), _m(1, (_TOOL, "run_shell_command"))),
        (".gemini/settings.json", "/etc/gemini-cli/settings.json"),
        (".gemini",),
    ),
    (
        "copilot",
        (
            _m(0, ("toolArgs", None)),
            _m(0, ("tool_args", None)),
            # VS Code agent mode (it runs Copilot's and Claude Code's hook files).
            _m(0, ("hookEventName", None), (_INPUT, None)),
            _m(1, (_INPUT, None), (_TOOL, frozenset({"bash", "shell", "powershell"}))),
        ),
        (".copilot/hooks/", ".github/hooks/"),
        (),
    ),
    (
        "cursor",
        (
            _m(0, (_EVENT, "beforeShellExecution")),
            _m(0, ("conversation_id", None), ("command", None)),
        ),
        (".cursor/hooks.json",),
        (),
    ),
    (
        "windsurf",
        (_m(0, ("tool_info", None)), _m(0, ("agent_action_name", "pre_run_command"))),
        (".codeium/windsurf/hooks.json", ".windsurf/hooks.json", "/etc/windsurf/hooks.json"),
        (),
    ),
    (
        "opencode",
        # dcg's own plugin: a shell command, or a file tool's arguments.
        (_m(0, ("sessionID", None), ("command", None)), _m(0, ("sessionID", None), ("args", None))),
        # Its plugin and custom-tool directories (modules it imports: their code runs),
        # and its config files: their `plugin` list loads code at start (as do `mcp`,
        # `formatter`, `lsp` commands). A project's `opencode.json` is found in any
        # directory up from the cwd: a bare name is judged only as spelled.
        (
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
        ),
        (),
    ),
    (
        "factory",
        (_m(0, (_INPUT, None), (_TOOL, frozenset({"Execute", "Create", "ApplyPatch"}))),),
        (".factory/hooks.json", ".factory/settings.json", ".factory/settings.local.json"),
        (".factory",),
    ),
    (
        "qwen",
        (_m(0, (_EVENT, "PreToolUse"), (_TOOL, _GEMINI_TOOLS | {"monitor"})),),
        (".qwen/settings.json",),
        (".qwen",),
    ),
    (
        "auggie",
        (
            _m(
                0,
                (_INPUT, None),
                (
                    _TOOL,
                    frozenset(
                        {"launch-process", "save-file", "str-replace-editor", "remove-files"}
                    ),
                ),
            ),
            _m(0, (_INPUT, None), ("workspace_roots", None), (_EVENT, "PreToolUse")),
        ),
        (
            ".augment/settings.json",
            ".augment/settings.local.json",
            ".augment/hooks/dcg-hook.sh",
            "/etc/augment/settings.json",
        ),
        (".augment",),
    ),
    ("goose", (_m(0, ("event", None), ("working_dir", None)),), (".agents/plugins/dcg/",), ()),
    (
        "crush",
        (_m(0, ("event", None), ("cwd", None), (_INPUT, None)),),
        # Crush reads a project's `crush.json` beside `.crush.json` (dcg writes the
        # latter): a bare name, judged only as spelled (no `*` reaches it).
        (".config/crush/crush.json", ".crush.json", "crush.json"),
        (),
    ),
    (
        "cline",
        (_m(0, ("preToolUse", None)), _m(0, ("clineVersion", None))),
        # "~/": only under HOME (as a project path, `Documents` would match any `*`).
        ("~/Documents/Cline/Hooks/", ".clinerules/hooks/"),
        (),
    ),
    (
        "kiro",
        (
            _m(0, (_EVENT, "preToolUse")),
            _m(0, (_INPUT, None), (_TOOL, frozenset({"execute_bash", "fs_write", "fs_read"}))),
        ),
        (".kiro/hooks/", ".kiro/agents/"),
        (),
    ),
    (
        "devin",
        # Its file tools' lower-case names reach Claude Code's entry too (Devin runs it).
        (
            _m(0, (_INPUT, None), (_TOOL, "exec")),
            _m(2, (_INPUT, None), (_TOOL, frozenset({"edit", "write"}))),
        ),
        (
            ".config/devin/config.json",
            ".devin/config.json",
            ".devin/config.local.json",
            ".devin/hooks.v1.json",
        ),
        (),
    ),
    (
        "grok",
        (_m(0, ("toolName", None), ("toolInput", None)), _m(0, ("hookEventName", "pre_tool_use"))),
        (".grok/hooks/",),
        (".grok",),
    ),
    (
        "kimi",
        (_m(0, (_EVENT, None), ("tool_call_id", None), (_INPUT, None)),),
        (".kimi-code/config.toml",),
        (".kimi-code",),
    ),
    (
        "letta",
        (_m(0, ("event_type", None), ("working_directory", None)),),
        (".letta/settings.json", ".letta/settings.local.json"),
        (),
    ),
    (
        "openhands",
        (_m(0, ("event_type", None), ("working_dir", None)),),
        (".openhands/hooks.json",),
        (),
    ),
    (
        "amp",
        (_m(2, ("cmd", None)),),
        (
            ".config/amp/settings.json",
            ".config/amp/dcg-hook.sh",
            ".amp/settings.json",
            ".amp/dcg-hook.sh",
        ),
        (),
    ),
)

AGENTS = tuple(name for name, *_ in REGISTRY)

# What gives an agent started without dcg's hook away (dcg.shell.agentenv; core.dcg's
# prefilter has them all): HOME or an XDG directory, an agent's own variable (its name and
# "_", which no payload carries: a bare name is in every payload's paths), an option that
# names settings or hooks, or one that skips them. tests/bypass/test_agent_env.py checks
# every way a spec names (`Agent.unguarded`) against these.
START_KEYWORDS = (
    *("home=", "xdg_", "setting", "hooks", "--bare", "--safe-mode", "--restricted"),
    *(f"{name}_" for name in AGENTS),
)

# Parent directories that say nothing about the agent: the next component names it.
_GENERIC_DIRS = frozenset({".config", "Documents", ".local", "share"})


def protected_files() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Every agent's hook files: (relative to HOME or any project; absolute system files
    and ``~/`` files, which count under HOME only)."""
    fixed = ("/", "~/")
    relative = tuple(p for _, _, files, _ in REGISTRY for p in files if not p.startswith(fixed))
    system = tuple(p for _, _, files, _ in REGISTRY for p in files if p.startswith(fixed))
    return relative, system


def keyword_dirs() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Lower-case names that give an agent's hook files away in a command: (names no
    payload carries, matched anywhere; names the agents' own payloads carry, matched only
    where a command spells a path with them)."""
    carried = tuple(dict.fromkeys(d.lower() for *_, dirs in REGISTRY for d in dirs))
    bare: dict[str, None] = {}
    relative, fixed = protected_files()
    for rel in (*relative, *(p[2:] for p in fixed if p.startswith("~/"))):
        parts = [p for p in rel.split("/") if p]
        while len(parts) > 1 and parts[0] in _GENERIC_DIRS:
            parts = parts[1:]
        name = parts[0].lower()
        if name not in carried:
            bare[name] = None
    # A name that starts with another (`opencode.json`, `opencode`) is found wherever that
    # one is (a keyword counts at the start of a word): one substring test fewer per payload.
    return tuple(n for n in bare if not any(n != b and n.startswith(b) for b in bare)), carried


_LAZY = frozenset(
    {
        "adapter",
        "spec",
        "shell_tools",
        "output_fields",
        "detect",
        "read_request",
        "render",
        "render_malformed",
        "render_error",
    }
)


def __getattr__(name: str) -> object:
    # The dispatch functions live in dcg.agents._dispatch, loaded on first use: a hook call
    # that matches no keyword reads only the registry above. (__import__, not importlib:
    # importing importlib costs the hook half a millisecond.)
    if name in _LAZY:
        return getattr(__import__("dcg.agents._dispatch", fromlist=[name]), name)
    raise AttributeError(f"module 'dcg.agents' has no attribute {name!r}")


if TYPE_CHECKING:  # what __getattr__ hands out, for the type checker

    def adapter(name: str) -> ModuleType: ...
    def spec(name: str) -> Agent: ...
    def shell_tools() -> frozenset[str]: ...
    def output_fields(agent: str, details: bool = False) -> dict[str, frozenset[str]]: ...
    def detect(payload: object, strongest: int = 3) -> str | None: ...
    def read_request(payload: object, agent: str | None) -> HookRequest | None: ...
    def render(request: HookRequest, outcome: Outcome | None, details: bool = False) -> Reply: ...
    def render_malformed(agent: str | None) -> Reply: ...
    def render_error(agent: str | None, message: str, dialect: str | None = None) -> Reply: ...
