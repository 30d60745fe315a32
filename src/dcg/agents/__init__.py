"""Agent adapters: read each agent's hook payload and answer in its own protocol.

An agent is one module, ``agents/<name>.py``, and nothing else: its hot-path half
(``NAME``, ``read(payload)``, ``render(request, outcome, details)``,
``render_error(message)``), the facts the hook needs before it imports any adapter
(``ORDER``, ``MARKS``, ``HOOK_FILES``, ``OWN_DIRS``: how its payload shows itself, which
files it reads hooks from, which directories its payloads carry) and ``spec()``, the
declaration of everything else (:class:`dcg.agents._spec.Agent`: tool names, documented
output fields, settings files and format, install entry, doctor probe, failure mode).

:data:`REGISTRY` is derived from those modules (every ``agents/<name>.py`` whose name has
no leading underscore), and everything that lists agents (the CLI, install, uninstall,
doctor, ``dcg hook --help``, self-protection, the keyword prefilter) from it. Importing
every adapter costs the hook about 2 ms, more than its whole no-keyword path: so
``dcg install`` derives the registry once, when it writes the hook's module bundle, and
stores it in this module's bundled code (:data:`DERIVED`, see :mod:`dcg.bundle`) with
the stamps of the modules it read; the hook checks those (a ``stat`` each) and derives
it again by import only when one changed, or when it runs from source.
"""

from __future__ import annotations

# Imported on every hook call (the keyword prefilter reads the registry): nothing here may
# import another module at load time; hookio and the adapters are imported when used.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType

    from dcg.agents._derive import Derived, Pair
    from dcg.agents._spec import Agent
    from dcg.hookio import HookRequest, Outcome, Reply

# What derive() returned when `dcg install` wrote the bundle: dcg.bundle sets it in this
# module's bundled code (a constant, unmarshalled with the code). None from the source.
DERIVED: Derived | None = None


def derive() -> Derived:
    """The registry read from every agent module now (dcg.agents._derive: it imports them)."""
    found: Derived = __import__("dcg.agents._derive", fromlist=["derive"]).derive()
    return found


def fresh(derived: Derived) -> bool:
    """Whether ``derived`` is what the agent modules say now: none changed (a ``stat``
    each), none was added or removed (looked for only when the directory changed)."""
    # The built-in module os wraps, already loaded (importing os costs the hook 1.5 ms).
    os = __import__("posix")
    here = __path__[0]
    *_, directory, stamps = derived
    try:
        if os.stat(here).st_mtime_ns != directory:
            from dcg.agents._derive import module_names

            if module_names(os.listdir(here)) != [name for name, _, _ in stamps]:
                return False
        for name, mtime_ns, size in stamps:
            st = os.stat(f"{here}/{name}.py")
            if st.st_mtime_ns != mtime_ns or st.st_size != size:
                return False
    except OSError:
        return False
    return True


_DERIVED = DERIVED if DERIVED is not None and fresh(DERIVED) else derive()

# Per agent: name, marks, hook files, own directories (see each module's constants). The
# names users pass to `dcg hook --agent` (decisions §9); this order is the CLI's.
REGISTRY = _DERIVED[0]
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


def protected_files() -> Pair:
    """Every agent's hook files: (relative to HOME or any project; absolute system files
    and ``~/`` files, which count under HOME only)."""
    return _DERIVED[1]


def keyword_dirs() -> Pair:
    """Lower-case names that give an agent's hook files away in a command: (names no
    payload carries, matched anywhere; names the agents' own payloads carry, matched only
    where a command spells a path with them)."""
    return _DERIVED[2]


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
