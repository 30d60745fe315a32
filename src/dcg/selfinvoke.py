"""Every way a command reaches dcg's approving subcommands, its package or its services.

dcg is recognised by what runs, not by how it is spelled: any launcher named dcg, a
path to one, a copy or link of it (on the same line, or an existing file whose first
bytes are a dcg launcher), ``python`` running the package (``-m dcg``, ``-X dev -m dcg``,
``-Im dcg``, ``-m dcg.cli``, a script inside it) with any interpreter options, and the
global options before the subcommand (``dcg --mode strict confirm``).
"""

from __future__ import annotations

from dcg import oslite as os
from dcg.oslite import path as posixpath
from dcg.selfpaths import AGENT_LABEL, GLOB, UNIT, program_paths

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection

    from dcg.shell.command import Command

# Subcommands that approve, allowlist, reset, reconfigure, install or remove dcg, and the
# read-only actions of those that also have one. `audit ship` moves the shipping cursor:
# pointed at another collector, it would pass records the organisation never got.
PROTECTED_SUBCOMMANDS = frozenset(
    ("confirm", "allow-once", "allowlist", "session", "config", "install", "uninstall", "audit")
)
# Every subcommand: the first of these among the words is the one dcg runs.
SUBCOMMANDS = PROTECTED_SUBCOMMANDS | frozenset(
    ("hook", "test", "explain", "packs", "pack", "history", "stats", "doctor", "scan",
     "replay", "undo", "completions", "help", "version")
)  # fmt: skip
_VIEW_ACTIONS = {
    "allowlist": frozenset(("list",)),
    "session": frozenset(("",)),
    "config": frozenset(("", "response")),
    "audit": frozenset(("", "export")),
}
# dcg's global options that take a value (`dcg --mode strict confirm`).
_GLOBAL_VALUES = frozenset(("--mode", "--session-threshold", "--history-threshold", "--agent"))
_UNKNOWN = "\x00unknown"


def dcg_invocation(
    command: Command, cwd: str | None = None, aliases: Collection[str] = ()
) -> str | None:
    """The protected subcommand when ``command`` runs dcg (however spelled), else None.

    ``aliases`` are the names copies or links of dcg's launcher (or package) got earlier
    on the same line.
    """
    argv = command.argv
    if not argv:
        return None
    name = argv[0]
    rest: list[str] | None = None
    unknown_program = (command.dynamic and name.startswith(("$", "`"))) or name in (
        "{}",
        "<dynamic>",
    )
    if name in ("dcg", "dcg.exe") or name in aliases or unknown_program:
        rest = list(argv[1:])
    else:
        rest = _module_args(argv, aliases)
        if rest is None and (name.startswith(("python", "pypy")) or name == "py"):
            rest = _script_args(argv, cwd) or _code_args(argv, command.stdin)
        if rest is None and name in _RUNNERS:
            rest = _runner_args(argv)
        if rest is None and any(w in PROTECTED_SUBCOMMANDS for w in argv[1:4]):
            raw = getattr(command, "raw", "") or name
            if runs_dcg(raw, cwd):
                rest = list(argv[1:])
    if rest is None:
        return None
    return protected(rest)


def protected(rest: list[str]) -> str | None:
    """The protected ``subcommand [action]`` dcg's arguments ``rest`` run, else None."""
    words: list[str] = []
    skip = False
    for a in rest:
        if skip:
            skip = False
        elif a in _GLOBAL_VALUES:
            skip = True
        elif not a.startswith("-"):
            words.append(a)
    for k, word in enumerate(words):
        if word in SUBCOMMANDS:
            if word not in PROTECTED_SUBCOMMANDS:
                return None
            action = words[k + 1] if k + 1 < len(words) else ""
            if action in _VIEW_ACTIONS.get(word, ()):
                return None
            return " ".join(words[k : k + 2])
        if word.startswith("$") or "<dynamic>" in word or GLOB.intersection(word):
            return word  # a subcommand dcg cannot know
    return None


def _code_args(argv: tuple[str, ...], stdin: str | None) -> list[str] | None:
    """``python -c CODE ARGS`` / ``python - ARGS`` whose code imports dcg: ARGS are what
    dcg's entry point reads from ``sys.argv``."""
    for k, a in enumerate(argv[1:], 1):
        if a == "-c" and k + 1 < len(argv):
            code, args = argv[k + 1], argv[k + 2 :]
            break
        if a.startswith("-c") and len(a) > 2:
            code, args = a[2:], argv[k + 1 :]
            break
        if a == "-":
            code, args = stdin or "", argv[k + 1 :]
            break
        if not a.startswith("-"):
            return None
    else:
        if stdin is None:
            return None
        code, args = stdin, ()
    flat = code.replace(" ", "")
    if not any(s in flat for s in _DCG_IMPORTS):
        return None
    return list(args) or ["<dynamic>"]


_DCG_IMPORTS = ("importdcg", "fromdcg", "('dcg", '("dcg', "dcg.__main__", "dcg.cli")
# Programs that fetch a package and run its command: `pipx run dcg …`, `uvx dcg …`.
_RUNNERS = frozenset(("pipx", "uvx", "uv", "pip-run"))


def _runner_args(argv: tuple[str, ...]) -> list[str] | None:
    words = list(argv[1:])
    if argv[0] == "uv":
        if words[:2] != ["tool", "run"]:
            return None
        words = words[2:]
    elif argv[0] == "pipx":
        if words[:1] != ["run"]:
            return None
        words = words[1:]
    for k, w in enumerate(words):
        if w.startswith("-"):
            continue
        package = w.split("==")[0].split("@")[0].split("[")[0].lower()
        if package in ("dcg", "dcg-guard") or package.endswith("/dcg"):
            return words[k + 1 :]
        if "--spec" not in words and "--from" not in words:
            return None
    return None


def _module_args(argv: tuple[str, ...], aliases: Collection[str]) -> list[str] | None:
    """The arguments after ``-m dcg`` / ``-mdcg`` / ``-m dcg.cli`` / ``-X dev -Im dcg`` for
    any program (an interpreter copied under another name runs the same way)."""
    if not any(a[:1] == "-" and "m" in a for a in argv[1:]):
        return None
    from dcg.writes._tools import python_module

    module, args = python_module(argv)
    if module is None:
        return None
    top = module.split(".")[0]
    if top == "dcg" or top in aliases or top.startswith("$") or "<dynamic>" in module:
        return args
    return None


def _script_args(argv: tuple[str, ...], cwd: str | None) -> list[str] | None:
    """``python [options] SCRIPT ARGS`` where SCRIPT is dcg's launcher or a file of its package."""
    i = 1
    while i < len(argv):
        a = argv[i]
        if a in ("-X", "-W", "-Q"):
            i += 2
            continue
        if a.startswith("-c") or a == "-":
            return None
        if not a.startswith("-"):
            return list(argv[i + 1 :]) if runs_dcg(a, cwd) else None
        i += 1
    return None


def runs_dcg(path: str, cwd: str | None) -> bool:
    """Whether running ``path`` runs dcg: a file of its package, one of its launchers (or a
    link to one), or a script whose first bytes import dcg (a copied launcher)."""
    if not path or "\x00" in path:
        return False
    from dcg.selfpaths import normalise

    if "/" not in path:
        found = _on_path(path)
        if found is None:
            return False
        path = found
    full = normalise(path, cwd or os.getcwd())
    real = posixpath.realpath(full)
    package = program_paths()[0]
    for candidate in (full, real):
        head, _, base = candidate.rpartition("/")
        # The interpreter the hook runs on is dcg's to protect, but running it runs what
        # it is given (``python -m pip``): ``-m dcg``, a script and ``-c`` are judged apart.
        interpreter = base.startswith(("python", "pypy"))
        if candidate.startswith(package + "/") or (
            candidate in program_paths() and not interpreter
        ):
            return True
        # A launcher named dcg, a module of a package named dcg, the package itself.
        if base in ("dcg", "dcg.exe") or (head.endswith("/dcg") and base.endswith(".py")):
            return True
    # Another copy of the package (a checkout, a copied directory): what it runs is dcg.
    for d in (real, posixpath.dirname(real)):
        if posixpath.isfile(d + "/_fast.py") and posixpath.isfile(d + "/selfguard.py"):
            return True
    return _launcher_text(real)


def _on_path(name: str) -> str | None:
    for d in os.environ.get("PATH", "").split(":"):
        exe = posixpath.join(d, name)
        if d and os.access(exe, os.X_OK) and posixpath.isfile(exe):
            return exe
    return None


def _launcher_text(path: str) -> bool:
    """A script (at most 64 KiB, a regular file) whose text runs dcg's entry point."""
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except (OSError, ValueError):
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        head = os.read(fd, 65536)
    except OSError:
        return False
    finally:
        os.close(fd)
    text = head.replace(b" ", b"")
    return any(s in text for s in (b"fromdcg", b"importdcg", b"dcg.__main__", b"dcg.cli",
                                    b"-mdcg", b"run_module('dcg", b'run_module("dcg',
                                    b'dcg"$@"', b"dcg$@", b'dcg"$*"', b"dcg$*"))  # fmt: skip


# --- the package and the audit service -----------------------------------------------------

_PACKAGE_MANAGERS = frozenset(("pip", "pipx", "uv", "conda", "mamba", "brew", "apt", "apt-get"))
_PM_VERBS = frozenset(("uninstall", "remove", "install", "reinstall", "upgrade", "rm",
                       "uninstall-all", "reinstall-all", "upgrade-all"))  # fmt: skip
_ALL_VERBS = frozenset(("uninstall-all", "reinstall-all"))


def package_change(command: Command, where: str | None = None) -> bool:
    """``pip uninstall dcg``, ``pipx uninstall dcg``, ``uv tool uninstall dcg``, and an
    install of a local tree or archive whose project is named dcg (``pip install ./x``
    run in ``where``: it replaces dcg with whatever that tree holds)."""
    argv = list(command.argv)
    if argv and argv[0].startswith("python") and "-m" in argv:
        argv = argv[argv.index("-m") + 1 :]
    if not argv:
        return False
    name = argv[0]
    if not (name in _PACKAGE_MANAGERS or name.startswith("pip")):
        return False
    from dcg.writes import operands

    words = operands(argv)
    if any(w in _ALL_VERBS for w in words) or ("uninstall" in words and "--all" in argv):
        return True
    if not any(w in _PM_VERBS for w in words):
        return False
    return any(_names_dcg(w) or _local_dcg(w, where) for w in words)


def _local_dcg(word: str, where: str | None) -> bool:
    """A directory whose pyproject.toml, setup.cfg or setup.py names the project dcg."""
    if where is None or ("/" not in word and not word.startswith(".")):
        return False
    import re

    from dcg.selfpaths import normalise

    base = normalise(word.removeprefix("file://"), where)
    for name in ("pyproject.toml", "setup.cfg", "setup.py"):
        try:
            with open(f"{base}/{name}", encoding="utf-8", errors="replace") as f:
                text = f.read(1 << 16)
        except OSError:
            continue
        found = re.search(r"""(?m)^\s*name\s*[=:]\s*["']?([A-Za-z0-9_.-]+)""", text)
        if found and _names_dcg(found.group(1)):
            return True
    return False


def _names_dcg(word: str) -> bool:
    """``dcg``, ``dcg==1.2``, ``dcg[otel]``, or a path to a dcg source tree or archive."""
    name = word.rstrip("/").rpartition("/")[2].lower()
    name = name.split("==")[0].split("[")[0].split("@")[0]
    for suffix in (".tar.gz", ".zip", ".whl", ".tgz"):
        name = name.removesuffix(suffix)
    return name in ("dcg", "dcg-guard") or name.startswith(("dcg-0", "dcg-1", "dcg-2", "dcg_"))


# Version managers and where the Pythons they install live.
_MANAGED = {"pyenv": "/.pyenv/", "uv": "/uv/python/", "asdf": "/.asdf/", "mise": "/mise/",
            "rtx": "/rtx/", "conda": "conda"}  # fmt: skip


def interpreter_removal(command: Command) -> bool:
    """``pyenv uninstall 3.11.7``, ``uv python uninstall 3.12``: the Python the hook runs on."""
    argv = command.argv
    words = [a for a in argv[1:] if not a.startswith("-")]
    home = _MANAGED.get(argv[0]) if argv else None
    verbs = ("uninstall", "remove", "rm")
    if home is None or not any(w in verbs for w in words[:2]):
        return False
    import sys

    base = sys.base_prefix
    if home not in base:
        return False
    versions = [w.rpartition("@")[2] for w in words if any(c.isdigit() for c in w)]
    return any(v and (f"/{v}" in base or f"-{v}" in base) for v in versions)


_SERVICE_VERBS = {
    "systemctl": frozenset(("stop", "disable", "mask", "kill", "revert", "edit", "freeze")),
    "launchctl": frozenset(("unload", "bootout", "remove", "disable", "stop", "kill")),
}


def service_change(command: Command) -> bool:
    """``systemctl --user stop dcg-audit-ship.timer``, ``launchctl bootout … dev.dcg.…``."""
    argv = command.argv
    verbs = _SERVICE_VERBS.get(argv[0]) if argv else None
    if verbs is None or not any(w in verbs for w in argv[1:]):
        return False
    if any(UNIT in w or AGENT_LABEL in w for w in argv[1:]):
        return True
    globbed = [w for w in argv[1:] if GLOB.intersection(w)]
    if not globbed:
        return False
    from fnmatch import fnmatchcase

    names = (f"{UNIT}.timer", f"{UNIT}.service", AGENT_LABEL)
    return any(fnmatchcase(n, w.rpartition("/")[2]) for w in globbed for n in names)


def su_payload(command: Command) -> str | None:
    """The command ``su -c CMD`` / ``runuser -c CMD`` runs (the unwrapper leaves these)."""
    argv = command.argv
    if not argv or argv[0] not in ("su", "runuser", "sg"):
        return None
    for k, a in enumerate(argv[1:-1], 1):
        if a in ("-c", "--command") or (a.startswith("-") and not a.startswith("--") and "c" in a):
            return argv[k + 1]
        if a.startswith("--command="):
            return a[10:]
    return None
