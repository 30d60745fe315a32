"""What one agent is, as data: the spec each ``agents/<name>.py`` returns from ``spec()``.

Install, uninstall, doctor and the documented-fields check read everything about an
agent from here; the hook reads only the cheap facts its module declares as constants
(``MARKS``, ``HOOK_FILES``…: :data:`dcg.agents.REGISTRY`) and the adapter's
``read``/``render``. Off the hot path: this
module (and ``dataclasses``) is imported only by the commands and the tests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.agents._transcript import Command, Counts

# How a hook error (a crash, a missing interpreter, a time-out) ends for the command.
FAILS_OPEN = "open"  # the command runs
FAILS_CLOSED = "closed"  # the command is blocked
FAILS_MIXED = "mixed"  # some failures block, others let it run (see the spec's text)


@dataclass(frozen=True)
class Grouped:
    """Claude Code's layout: ``{"hooks": {EVENT: [{"matcher": M, "hooks": [HOOK]}]}}``.

    ``hook`` is dcg's hook object without its command (``{"type": "command",
    "timeout": 10}`` …); ``matcher`` None: the group has no matcher (every tool).
    ``wrapper`` False: the events sit at the top level of the file (no ``"hooks"`` key).
    """

    event: str
    matcher: str | None
    hook: Mapping[str, object]
    wrapper: bool = True
    # Keys dcg's hook object must carry in an existing entry too (install adds them).
    required: tuple[str, ...] = ()


@dataclass(frozen=True)
class Flat:
    """A list of hook objects under ``{"hooks": {EVENT: [HOOK]}}`` (Cursor, Windsurf,
    Crush), also registered under ``extra_events``; ``new_file`` is what a file dcg
    creates holds besides the hooks."""

    event: str
    hook: Mapping[str, object]
    extra_events: tuple[str, ...] = ()
    new_file: Mapping[str, object] = field(default_factory=lambda: {"hooks": {}})
    # Keys an older dcg wrote that must go (Cursor's failClosed), with why.
    drop: Mapping[str, str] = field(default_factory=dict)


# Where the hook command goes in a file dcg owns.
COMMAND = "$DCG_HOOK_COMMAND"


@dataclass(frozen=True)
class OwnedJson:
    """A JSON file dcg writes whole: ``document`` with :data:`COMMAND` wherever the hook
    command goes (a document without it, such as a plugin manifest, is recognised as
    dcg's by being exactly what dcg writes)."""

    document: Mapping[str, object]


@dataclass(frozen=True)
class OwnedScript:
    """A shell script dcg writes whole that runs the hook command (for agents that run
    only a script file, or a program with no arguments)."""


@dataclass(frozen=True)
class OwnedText:
    """A file dcg writes whole in a format of its own (OpenCode's plugin): ``text`` makes
    it for a command, ``command_of`` reads the command back (None: not dcg's file)."""

    text: Callable[[str], str]
    command_of: Callable[[str], str | None]
    # Whether a file dcg wrote sends every tool the agent's spec names (None: any does).
    covers: Callable[[str], bool] | None = None


Owned = OwnedJson | OwnedScript | OwnedText


@dataclass(frozen=True)
class TomlTables:
    """A ``[[KEY]]`` array of tables in a TOML file (Kimi Code); dcg appends its own
    table and removes exactly that text."""

    key: str
    table: Mapping[str, object]


@dataclass(frozen=True)
class Rules:
    """A JSON list of permission rules under ``key`` (Amp's ``amp.permissions``): dcg's
    rules go first, as the first matching rule wins; each names dcg's script."""

    key: str
    rules: tuple[Mapping[str, object], ...]


Layout = Grouped | Flat | OwnedJson | OwnedScript | OwnedText | TomlTables | Rules


@dataclass(frozen=True)
class Companion:
    """A file dcg writes beside the settings file (a script the agent runs, a manifest
    the agent needs), relative to the settings file's directory. ``runs`` True: the
    registered command is this script's path, and the script runs dcg's command."""

    path: str
    file: Owned
    runs: bool = True


@dataclass(frozen=True)
class Probe:
    """How doctor asks the registered hook about a destructive command: ``payload`` is
    the agent's stdin with ``{command}`` and ``{cwd}`` in its strings; the reply stops the
    command when its exit code is in ``exit_codes``, or when the JSON value at ``path`` is
    one of ``values`` (on exit 0)."""

    payload: Mapping[str, object]
    path: tuple[str, ...] = ("hookSpecificOutput", "permissionDecision")
    values: tuple[object, ...] = ("deny",)
    exit_codes: tuple[int, ...] = (2,)
    env: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Transcripts:
    """Where an agent keeps its session transcripts and how ``dcg replay`` reads them:
    ``find(home)`` the files in their default place; ``owns(path)`` whether a file given
    by path is one of them (an agent whose ``owns`` takes every file is asked last);
    ``read(path, lines, counts)`` its shell commands in order (``dcg.agents._transcript``
    has what readers share: ``Command``, ``Counts``, ``candidate``, ``decode``)."""

    find: Callable[[str], list[str]]
    owns: Callable[[str], bool]
    read: Callable[[str, Iterator[bytes], Counts], Iterator[Command]]


# A check doctor runs for one agent beyond its probe: (the settings file's text, its path)
# -> (check name, ok, fatal, detail); its fix is `dcg install --agent NAME`.
Check = Callable[[str | None, str | None], tuple[str, bool, bool, str]]


@dataclass(frozen=True)
class Agent:
    """One agent, everything dcg knows about it (its hot-path facts: the registry)."""

    name: str
    title: str
    # Tool name -> "bash"/"powershell"/"input" (text typed into a running shell).
    shells: Mapping[str, str]
    file_tools: frozenset[str]
    # Documented output keys per JSON object path ("" is the top level), their source.
    fields: Mapping[str, frozenset[str]]
    fields_source: str
    fields_date: str
    user_path: str | None  # relative to HOME; None: the agent reads no user-level file
    project_path: str | None  # relative to the project; None: no project-level file
    home_dirs: tuple[str, ...]  # any of these under HOME means the agent is installed
    binaries: tuple[str, ...]
    layout: Layout
    probe: Probe
    fails: str  # FAILS_OPEN / FAILS_CLOSED / FAILS_MIXED, with the registered entry
    fail_text: str  # what a hook error does, in a sentence (doctor prints it)
    note: str = ""  # what the person must do before the hook runs (install prints it)
    companions: tuple[Companion, ...] = ()
    legacy: tuple[tuple[str, str], ...] = ()  # older (user, project) paths of owned files
    details: bool = False  # tolerates the draft's extra fields with [hook] details
    # (binary, version): the agent fails closed only from this version on (doctor asks it).
    closed_since: tuple[str, str] | None = None
    # The tools the hook's matcher must cover (shell and file tools by default).
    covers: tuple[str, ...] | None = None
    # What starts the agent without the settings dcg's hook is registered in, besides HOME
    # and XDG_CONFIG_HOME (every agent's): environment variables that move or replace its
    # settings or switch its hooks off, options ("--…") that do, and options with the
    # values that do ("--disable=hooks", "-c=*hooks*": a shell pattern on the value).
    # (dcg.shell.agentenv; tests/bypass/test_agent_env.py.)
    unguarded: tuple[str, ...] = ()
    # npm packages that start the agent through npx, bunx, pnpm dlx, npm exec…
    packages: tuple[str, ...] = ()
    # Its registered command names no --agent: the payload `dcg hook` is documented for
    # (one agent; hand-written settings say `dcg hook`).
    bare: bool = False
    # Its session transcripts, for `dcg replay --agent` (None: dcg reads none).
    transcripts: Transcripts | None = None
    # A check of its own that doctor runs (OpenCode: whether its plugin loads).
    check: Check | None = None

    def tools(self) -> tuple[str, ...]:
        return self.covers if self.covers is not None else (*self.shells, *sorted(self.file_tools))
