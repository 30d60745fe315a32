"""Deriving the agent registry from the agent modules (off the hot path: see dcg.agents).

Each ``agents/<name>.py`` without a leading underscore is an agent; its ``ORDER``,
``MARKS``, ``HOOK_FILES`` and ``OWN_DIRS`` are its line of :data:`dcg.agents.REGISTRY`.
What self-protection and the keyword prefilter need from the lines is worked out here
too, once, so that the bundle stores it ready-made.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.agents._common import Mark

    # name, marks, files the agent reads hooks from, directories its own payloads carry.
    Line = tuple[str, tuple[Mark, ...], tuple[str, ...], tuple[str, ...]]
    Pair = tuple[tuple[str, ...], tuple[str, ...]]
    # The registry, protected_files(), keyword_dirs(), the agents directory's st_mtime_ns,
    # and (module, st_mtime_ns, st_size) of every agent module it was read from.
    Derived = tuple[tuple[Line, ...], Pair, Pair, int, tuple[tuple[str, int, int], ...]]

_PACKAGE = __name__.rpartition(".")[0]
# Parent directories that say nothing about the agent: the next component names it.
_GENERIC_DIRS = frozenset({".config", "Documents", ".local", "share"})


def module_names(entries: list[str]) -> list[str]:
    """The agent modules among a listing of the agents directory, sorted."""
    return sorted(e[:-3] for e in entries if e.endswith(".py") and not e.startswith("_"))


def derive() -> Derived:
    """Import every agent module and read its hot-path facts: the registry (in ``ORDER``,
    then by name; the registered name is the module's), what it makes of them, and the
    stamps that tell whether it is still what those modules say."""
    try:  # the built-in module os wraps (dcg is POSIX only; the CLI still starts elsewhere)
        os = __import__("posix")
    except ImportError:  # pragma: no cover
        os = __import__("nt")
    here = __file__.rpartition("/")[0]
    names = module_names(os.listdir(here))
    modules = {n: __import__(f"{_PACKAGE}.{n}", fromlist=["MARKS"]) for n in names}
    order = sorted(names, key=lambda n: (modules[n].ORDER, n))
    registry = tuple(
        (n, tuple(modules[n].MARKS), tuple(modules[n].HOOK_FILES), tuple(modules[n].OWN_DIRS))
        for n in order
    )
    stamps = []
    for n in names:
        st = os.stat(f"{here}/{n}.py")
        stamps.append((n, st.st_mtime_ns, st.st_size))
    files = protected_files(registry)
    # The directory last: importing the modules may have made its __pycache__.
    directory = os.stat(here).st_mtime_ns
    return registry, files, keyword_dirs(registry, files), directory, tuple(stamps)


def protected_files(registry: tuple[Line, ...]) -> Pair:
    """Every agent's hook files: (relative to HOME or any project; absolute system files
    and ``~/`` files, which count under HOME only)."""
    fixed = ("/", "~/")
    relative = tuple(p for _, _, files, _ in registry for p in files if not p.startswith(fixed))
    system = tuple(p for _, _, files, _ in registry for p in files if p.startswith(fixed))
    return relative, system


def keyword_dirs(registry: tuple[Line, ...], files: Pair) -> Pair:
    """Lower-case names that give an agent's hook files away in a command: (names no
    payload carries, matched anywhere; names the agents' own payloads carry, matched only
    where a command spells a path with them)."""
    carried = tuple(dict.fromkeys(d.lower() for *_, dirs in registry for d in dirs))
    bare: dict[str, None] = {}
    relative, fixed = files
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
