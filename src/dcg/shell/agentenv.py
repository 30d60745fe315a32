"""An agent CLI started where dcg's hook does not load: its settings moved or replaced.

An agent can start another one (``claude -p``, ``codex exec``, ``opencode run``) that runs
commands of its own. Started with its settings elsewhere (``HOME=/tmp/h``,
``CLAUDE_CONFIG_DIR=…``, ``CODEX_HOME=…``), replaced (``claude --settings
'{"disableAllHooks": true}'``) or with its hooks switched off (``claude --bare``,
``codex --disable hooks``), that agent runs them without dcg: the walker judges such a
start as the change of dcg's protection it is (core.dcg), like an edit of the settings.
Each agent's own variables and options are in its spec (``Agent.unguarded``), and so are
the npm packages that start it through a package runner (``Agent.packages``:
``npx @anthropic-ai/claude-code …`` is ``claude …``).
"""

from __future__ import annotations

from dcg.shell.unwrap import normalize

_EVERY = ("HOME", "XDG_CONFIG_HOME")
_table: dict[str, tuple[str, ...]] = {}
# The agents' names and their variables' prefix (CLAUDE_…), as tuples for str.startswith.
_prefixes: list[tuple[str, ...]] = []
_packages: dict[str, str] = {}

# Package runners: the words before the package they fetch and run.
_RUNNERS = {"npx": 1, "bunx": 1, "pnpx": 1, "npm": 2, "pnpm": 2, "yarn": 2, "bun": 2}
_SUBCOMMANDS = frozenset(("exec", "x", "dlx"))
# Runner options that take the next word (npx -p PKG, --package PKG, -c CMD, …).
_VALUE = frozenset(("-p", "--package", "-c", "--call", "-w", "--workspace", "--prefix"))


def _load() -> None:
    from dcg import agents

    for name, *_ in agents.REGISTRY:
        found = agents.spec(name)
        for binary in found.binaries:
            _table[binary] = (*_EVERY, *found.unguarded)
        for package in found.packages if found.binaries else ():
            # The walker hands an unwrapped `npm exec -- @scope/pkg` on as `pkg`.
            _packages[package] = _packages[normalize(package)] = found.binaries[0]


def may_start(argv: list[str], names: list[str]) -> bool:
    """The cheap test before the agents' specs are read (importing them all costs a tenth
    of a second): the environment moves a home or a configuration or names an agent
    (``CLAUDE_…``), or the command word is a package runner or starts with an agent's name
    and an argument has one of ``dcg.agents.START_KEYWORDS`` (every option a spec names
    has one: tests/bypass/test_agent_env.py)."""
    if not _prefixes:  # once per process: this runs for every simple command
        from dcg.agents import AGENTS

        _prefixes.extend((tuple(AGENTS), tuple(a.upper() + "_" for a in AGENTS)))
    starts, variables = _prefixes
    for n in names:
        if n in _EVERY or n.endswith(("_HOME", "_DIR")) or n.startswith(variables):
            return True
    word = normalize(argv[0]) if len(argv) > 1 else ""
    if not word or not (word in _RUNNERS or word.startswith(starts)):
        return False
    from dcg.agents import START_KEYWORDS
    from dcg.keywords import mentions, scan_text

    return mentions(scan_text(" ".join(argv[1:])), START_KEYWORDS)


def agent_argv(argv: list[str]) -> list[str]:
    """``argv`` with a package runner's start of an agent (``npx -y @openai/codex exec``,
    ``pnpm dlx @google/gemini-cli``, ``npm exec -- @qwen-code/qwen-code``) read as the
    agent's own command; anything else unchanged."""
    if not _table:
        _load()
    if argv and _package(argv[0]) in _packages:  # unwrapped from `npm exec -- PKG`
        return [_packages[_package(argv[0])], *argv[1:]]
    word = normalize(argv[0]) if argv else ""
    skip = _RUNNERS.get(word)
    if skip is None or (skip == 2 and (len(argv) < 2 or argv[1] not in _SUBCOMMANDS)):
        return argv
    i, package = skip, None
    while i < len(argv) and argv[i].startswith("-") and argv[i] != "--":
        if argv[i] in ("-p", "--package") and i + 1 < len(argv):
            package = argv[i + 1]
        elif argv[i].startswith("--package="):
            package = argv[i].partition("=")[2]
        i += 1 + (argv[i] in _VALUE)
    i += i < len(argv) and argv[i] == "--"
    if i >= len(argv):
        return argv
    spec = argv[i]
    if _package(spec) in _packages:
        return [_packages[_package(spec)], *argv[i + 1 :]]
    if package is not None and normalize(spec) in _table:  # npx -p PKG claude …
        return [spec, *argv[i + 1 :]]
    return argv


def _package(spec: str) -> str:
    """The package name of an npm spec (``@openai/codex@0.50`` is ``@openai/codex``)."""
    return spec.rpartition("@")[0] if spec.rfind("@") > 0 else spec


def unguarded(argv: list[str], names: list[str]) -> str | None:
    """The variable (of ``names``, those the command's environment gets from the line) or
    the option that starts the agent ``argv`` runs without its settings or its hooks.

    A way is a variable name, an option (``--settings``: given, with or without a value)
    or an option and the values that switch hooks off (``--disable=hooks``,
    ``-c=*hooks*``: a shell pattern on the option's value)."""
    argv = agent_argv(argv)
    for way in _table.get(normalize(argv[0]), ()) if argv else ():
        if not way.startswith("-"):
            if way in names:
                return way
        elif "=" not in way:
            if any(a == way or a.startswith(way + "=") for a in argv[1:]):
                return way
        elif any(_matches(way, value) for value in _values(argv, way.partition("=")[0])):
            return way.partition("=")[0] + " " + way.partition("=")[2]
    return None


def _values(argv: list[str], option: str) -> list[str]:
    """Every value ``option`` is given on ``argv`` (``-c V``, ``-cV``, ``--config=V``)."""
    found = []
    for k, a in enumerate(argv[1:], 1):
        if a == option and k + 1 < len(argv):
            found.append(argv[k + 1])
        elif a.startswith(option + "="):
            found.append(a[len(option) + 1 :])
        elif len(option) == 2 and a.startswith(option) and len(a) > 2:
            found.append(a[2:])
    return found


def _matches(way: str, value: str) -> bool:
    import fnmatch

    return fnmatch.fnmatchcase(value.lower(), way.partition("=")[2])
