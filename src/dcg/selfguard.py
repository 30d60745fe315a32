"""What dcg guards about itself: its state, its program and every agent's hook settings.

The rules of ``core.dcg`` call the functions here on each parsed simple command; a file
tool's request (Claude Code's ``Write``/``Edit``, …) is judged by :func:`file_kind`. Paths
are compared after normalisation (``~``, ``$HOME``, ``//``, ``/./``, ``..``, the payload
cwd and ``cd``/``pushd`` earlier on the line), and a glob is judged by what it could
match. Imported only after the keyword prefilter passed; stdlib only.
"""

from __future__ import annotations

from dcg import oslite as os
from dcg import paths
from dcg.oslite import path as posixpath
from dcg.writes import INTO, operands, targets

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from dcg.shell.command import Command

# Hook settings of every agent dcg installs into (dcg.commands._hooks.SPECS: their user and
# project files, older locations and hook scripts; tests/test_selfprotect.py fails when one
# is missing here) and the files the agents read hooks from besides those. Relative: they
# count under HOME and under any project directory. A trailing slash protects the whole directory.
AGENT_FILES = (
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".codex/hooks.json",
    ".codex/config.toml",
    ".gemini/settings.json",
    ".copilot/hooks/",
    ".github/hooks/",
    ".cursor/hooks.json",
    ".codeium/windsurf/hooks.json",
    ".windsurf/hooks.json",
    ".config/opencode/plugin/",
    ".config/opencode/plugins/",
    ".opencode/plugin/",
    ".opencode/plugins/",
    ".factory/hooks.json",
    ".factory/settings.json",
    ".factory/settings.local.json",
    ".qwen/settings.json",
    ".augment/settings.json",
    ".augment/settings.local.json",
    ".augment/hooks/dcg-hook.sh",
)
_AGENT_DIRS = frozenset(rel.partition("/")[0] for rel in AGENT_FILES)
# System-level agent settings.
_SYSTEM_AGENT_FILES = (
    "/etc/windsurf/hooks.json",
    "/etc/claude-code/managed-settings.json",
    "/etc/augment/settings.json",
)
# dcg's file names that give a write away even when the directory is unknown (`cd "$X"`).
_STATE_NAMES = frozenset(
    ("allowlist.toml", "history.jsonl", "pending_confirmations.jsonl", "allow_once.jsonl",
     "audit-cursor.json")
)  # fmt: skip

# Subcommands that approve, allowlist, reset, reconfigure, install or remove dcg, and the
# read-only actions of those that also have one. `audit ship` moves the shipping cursor:
# pointed at another collector, it would pass records the organisation never got.
PROTECTED_SUBCOMMANDS = frozenset(
    ("confirm", "allow-once", "allowlist", "session", "config", "install", "uninstall", "audit")
)
_VIEW_ACTIONS = {
    "allowlist": frozenset(("list",)),
    "session": frozenset(("",)),
    "config": frozenset(("", "response")),
    "audit": frozenset(("", "export")),
}
_PACKAGE_MANAGERS = frozenset(("pip", "pipx", "uv", "conda", "mamba", "brew", "apt", "apt-get"))
_PM_VERBS = frozenset(("uninstall", "remove", "install", "reinstall", "upgrade", "rm"))

_INTERPRETERS = ("python", "node", "ruby", "perl", "php", "deno", "bun", "osascript")
_WRITE_WORDS = (
    "'w", '"w', "'a", '"a', "'x", '"x', "+'", '+"', "write", "unlink", "remove", "rmtree",
    "rename", "replace", "move", "chmod",
    "truncate", "dump", "system", "subprocess", "spawn", "exec", "popen", "rm(", "rmsync",
    "copy", "symlink", "mkdir", "touch", "delete", "run(", "call(",
)  # fmt: skip
_GLOB = frozenset("*?[")


def home() -> str:
    return os.path.expanduser("~")


# The protected locations depend only on these variables; computed once per value (the
# program lookup walks PATH, which a line with many paths must not pay for each time).
_ENV_KEYS = ("HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "DCG_SESSION_DIR",
             "DCG_SYSTEM_CONFIG", "DCG_SYSTEM_DIR", "PATH")  # fmt: skip
_cache: dict[tuple[str, tuple[str | None, ...]], list[str]] = {}


def _cached(name: str, compute: Callable[[], list[str]]) -> list[str]:
    key = (name, tuple(os.environ.get(k) for k in _ENV_KEYS))
    found = _cache.get(key)
    if found is None:
        found = _cache[key] = compute()
    return found


def state_dirs() -> list[str]:
    """dcg's own directories: config, cache, sessions (default and DCG_SESSION_DIR), system."""
    return _cached("state", _state_dirs)


def program_paths() -> list[str]:
    """The dcg executable and the installed package directory."""
    return _cached("program", _program_paths)


def _state_dirs() -> list[str]:
    h = home()
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(h, ".cache")
    found = [
        paths.config_dir(),
        os.path.join(h, ".config", "dcg"),
        os.path.join(cache, "dcg"),
        os.path.join(h, ".cache", "dcg"),
        paths.session_dir(),
        f"/tmp/dcg-sessions-{os.getuid()}",
        os.path.dirname(paths.system_config()),
        os.environ.get("DCG_SYSTEM_DIR") or "/etc/dcg",
        "/etc/dcg",
    ]
    found.extend(os.path.dirname(p) for p in (paths.history_file(), paths.allowlist_file()))
    # The audit shipper's timer units (contrib/): stopping them stops the organisation's audit.
    config = os.environ.get("XDG_CONFIG_HOME") or os.path.join(h, ".config")
    for base in (os.path.join(config, "systemd", "user"), os.path.join(h, ".config/systemd/user")):
        found.extend(os.path.join(base, f"{_UNIT}.{kind}") for kind in ("service", "timer"))
    found.append(os.path.join(h, "Library", "LaunchAgents", f"{_AGENT_LABEL}.plist"))
    return [normalise(p, "/") for p in dict.fromkeys(found)]


# `dcg audit ship`'s timer (contrib/systemd, contrib/launchd) and what stops or unloads it.
_UNIT = "dcg-audit-ship"
_AGENT_LABEL = "dev.dcg.audit-ship"
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
    if any(_UNIT in w or _AGENT_LABEL in w for w in argv[1:]):
        return True
    globbed = [w for w in argv[1:] if _GLOB.intersection(w)]
    if not globbed:
        return False
    from fnmatch import fnmatchcase

    names = (f"{_UNIT}.timer", f"{_UNIT}.service", _AGENT_LABEL)
    return any(fnmatchcase(n, w.rpartition("/")[2]) for w in globbed for n in names)


def _program_paths() -> list[str]:
    import sys

    found = [posixpath.dirname(posixpath.abspath(__file__))]
    # shutil.which would cost the file-tool path more than the whole judgement.
    for d in os.environ.get("PATH", "").split(os.pathsep):
        exe = posixpath.join(d, "dcg")
        if d and os.access(exe, os.X_OK):
            found += [exe, os.path.realpath(exe)]
            break
    found.append(posixpath.join(posixpath.dirname(sys.executable), "dcg"))
    return [normalise(p, "/") for p in dict.fromkeys(found)]


def normalise(path: str, cwd: str) -> str:
    """``path`` made absolute against ``cwd``; ``~``, ``$HOME``, ``//``, ``.``, ``..`` folded."""
    if path.startswith(("~", "$")):
        path = _expand_prefix(path)
    if not path.startswith("/"):
        path = posixpath.join(cwd, path)
    path = posixpath.normpath(path)
    return "/" + path.lstrip("/")


# Variables a command may start a path with whose value dcg knows: the hook runs in the
# agent's environment, which is the one the command will run in.
_KNOWN_VARS = ("HOME", "DCG_SESSION_DIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "TMPDIR")


def _expand_prefix(path: str) -> str:
    if path == "~" or path.startswith("~/"):
        return home() + path[1:]
    for var in _KNOWN_VARS:
        for prefix in (f"${var}", f"${{{var}}}"):
            if path == prefix or path.startswith(prefix + "/"):
                value = home() if var == "HOME" else os.environ.get(var)
                return value + path[len(prefix) :] if value else path
    return path


def _parts(path: str) -> list[str]:
    return [p for p in path.split("/") if p]


def _component(pattern: str, name: str) -> bool:
    if not _GLOB.intersection(pattern):
        return pattern == name
    # A shell glob matches a leading dot only when the pattern spells it.
    if name.startswith(".") and not pattern.startswith("."):
        return False
    import fnmatch

    return fnmatch.fnmatchcase(name, pattern)


def _prefix(pattern: list[str], target: list[str]) -> bool:
    """Whether ``pattern`` (possibly globbed) could name ``target`` or one of its ancestors."""
    if len(pattern) > len(target):
        return False
    return all(_component(p, t) for p, t in zip(pattern, target, strict=False))


def _covers(target: list[str], protected: list[str], remove: int) -> bool:
    """A write to ``target`` reaches ``protected`` (a removal also reaches what is inside)."""
    if remove and _prefix(target, protected):
        return True
    return len(target) >= len(protected) and _prefix(protected, target[: len(protected)])


def classify(path: str, cwd: str | None, remove: int = False) -> str | None:
    """``"state"``, ``"hooks"``, ``"program"`` or None: what writing ``path`` would reach.

    ``cwd`` None means the directory is unknown (a dynamic ``cd``): only names that are
    dcg's alone, and paths that do not depend on the directory, are judged.
    """
    path = _expand_prefix(path) if path.startswith(("~", "$")) else path
    if cwd is None and not path.startswith("/"):
        name = path.rpartition("/")[2]
        return "state" if name in _STATE_NAMES else _agent_suffix(_parts(path), remove)
    full = normalise(path, cwd or "/")
    target = _parts(full)
    if remove == INTO and len(target) <= len(_parts(home())):
        remove = False
    globbed = bool(_GLOB.intersection(full))
    for kind, protected in _protected():
        if globbed:
            if _covers(target, _parts(protected), remove):
                return kind
        elif _plain_covers(full, protected, remove):
            return kind
    found = _agent_suffix(target, remove)
    if found:
        return found
    # Any path to a dcg executable: `~/.local/bin/dcg`, `/usr/local/bin/dc*`.
    if len(target) >= 2 and target[-2] in ("bin", "Scripts") and _component(target[-1], "dcg"):
        return "program"
    # Every program path ends in a component named dcg (the package dir, the executable).
    maybe = any("dcg" in t or _GLOB.intersection(t) for t in target)
    if maybe and any(_covers(target, _parts(p), remove) for p in program_paths()):
        return "program"
    return None


def _protected() -> list[tuple[str, str]]:
    """``(kind, absolute path)`` of every fixed protected location, computed once per env."""
    pairs = _cached("protected", _protected_paths)
    return [(k, p) for k, _, p in (x.partition("\x00") for x in pairs)]


def _protected_paths() -> list[str]:
    h = home()
    found = [f"state\x00{d}" for d in state_dirs()]
    found += [f"hooks\x00{normalise(posixpath.join(h, rel), '/')}" for rel in AGENT_FILES]
    found += [f"hooks\x00{f}" for f in _SYSTEM_AGENT_FILES]
    return found


def _plain_covers(target: str, protected: str, remove: int) -> bool:
    """:func:`_covers` for a path without glob characters, on strings."""
    if target == protected or target.startswith(protected + "/"):
        return True
    return bool(remove) and (target == "/" or protected.startswith(target + "/"))


def _agent_suffix(target: list[str], remove: int) -> str | None:
    """A project-level hook settings file (or its directory) at the end of ``target``."""
    if not any(t in _AGENT_DIRS or _GLOB.intersection(t) for t in target):
        return None
    for rel in AGENT_FILES:
        rel_parts = _parts(rel)
        directory = rel.endswith("/")
        for k in range(len(target)):
            tail = target[k:]
            n = min(len(tail), len(rel_parts))
            if not tail or not _prefix(tail[:n], rel_parts[:n]):
                continue
            if len(tail) >= len(rel_parts) and (directory or len(tail) == len(rel_parts)):
                return "hooks"
            if remove and len(tail) < len(rel_parts):
                return "hooks"
    return None


def effective_cwd(command: Command, cwd: str | None) -> str | None:
    """The directory ``command`` runs in: the payload cwd, then any ``cd`` before it."""
    base = cwd or os.getcwd()
    if command.cwd is None:
        return base
    if command.cwd == UNKNOWN_CWD:
        return None
    return normalise(command.cwd, base)


UNKNOWN_CWD = "\x00?"


def dcg_invocation(command: Command) -> str | None:
    """The protected subcommand when ``command`` runs dcg (however spelled), else None."""
    argv = command.argv
    if not argv:
        return None
    name = argv[0]
    rest: list[str] | None = None
    if name in ("dcg", "dcg.exe") or (command.dynamic and argv[0].startswith("$")):
        rest = list(argv[1:])
    elif name.startswith(("python", "pypy")) or name == "py":
        rest = _python_module_args(argv)
    if rest is None:
        return None
    words = [a for a in rest if not a.startswith("-")]
    if not words or words[0] not in PROTECTED_SUBCOMMANDS:
        return None
    action = words[1] if len(words) > 1 else ""
    if action in _VIEW_ACTIONS.get(words[0], ()):
        return None
    return " ".join(words[:2])


def _python_module_args(argv: tuple[str, ...]) -> list[str] | None:
    """The arguments after ``-m dcg`` / ``-mdcg`` / ``-m dcg.__main__`` / ``-m dcg.cli``."""
    for k, a in enumerate(argv[1:], 1):
        module = None
        if a == "-m" and k + 1 < len(argv):
            module, start = argv[k + 1], k + 2
        elif a.startswith("-m") and not a.startswith("--"):
            module, start = a[2:], k + 1
        elif not a.startswith("-"):
            return None
        if module is not None:
            return list(argv[start:]) if module.split(".")[0] == "dcg" else None
    return None


def package_change(command: Command) -> bool:
    """``pip uninstall dcg``, ``pipx uninstall dcg``, ``uv tool uninstall dcg``, …"""
    argv = list(command.argv)
    if argv and argv[0].startswith("python") and "-m" in argv:
        argv = argv[argv.index("-m") + 1 :]
    if not argv:
        return False
    name = argv[0]
    if not (name in _PACKAGE_MANAGERS or name.startswith("pip")):
        return False
    words = operands(argv)
    if not any(w in _PM_VERBS for w in words):
        return False
    return any(w.split("==")[0].split("[")[0].lower() in ("dcg", "dcg-guard") for w in words)


def interpreter_code(command: Command) -> str | None:
    """What an interpreter one-liner that touches dcg does: "state", "hooks", "invoke"."""
    argv = command.argv
    if not argv or not argv[0].startswith(_INTERPRETERS):
        return None
    code = " ".join(argv[1:])
    low = code.lower()
    if "dcg" in low and any(f"{q}{s}{q}" in low for s in PROTECTED_SUBCOMMANDS for q in ("'", '"')):
        return "invoke"
    if not any(w in low for w in _WRITE_WORDS):
        return None
    for word in _string_paths(code):
        kind = classify(word, None if not word.startswith(("/", "~", "$")) else "/", True)
        if kind is not None:
            return kind
    # A path built from pieces (`Path.home() / ".claude" / "settings.json"`).
    for rel in AGENT_FILES:
        if all(part in code for part in _parts(rel)):
            return "hooks"
    if "dcg" in low and any(n in low for n in (*_STATE_NAMES, "dcg-sessions", ".config")):
        return "state"
    return None


def _string_paths(code: str) -> list[str]:
    """Every path-like run of the code (between quotes, spaces and brackets)."""
    for sep in "'\"()[],;+`":
        code = code.replace(sep, " ")
    out = []
    for w in code.split():
        if "expanduser" in w:
            continue
        if "/" in w or w in _STATE_NAMES:
            out.append(w)
    return out


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


_last: list[tuple[Command, str | None, str | None]] = []


def judge(command: Command, cwd: str | None) -> str | None:
    """``"invoke"``, ``"package"``, ``"state"``, ``"hooks"``, ``"program"`` or None.

    Each rule of core.dcg asks about the same command in turn; the last answer is kept.
    """
    if _last and _last[0][0] is command and _last[0][1] == cwd:
        return _last[0][2]
    found = _judge(command, cwd)
    _last[:] = [(command, cwd, found)]
    return found


def _judge(command: Command, cwd: str | None) -> str | None:
    sub = dcg_invocation(command)
    if sub is not None:
        return "invoke"
    if package_change(command) or service_change(command):
        return "package"
    inner = su_payload(command)
    if inner is not None:
        from dcg.shell import parse

        for c in parse(inner, deadline=None):
            found = judge(c, cwd)
            if found:
                return found
    where = effective_cwd(command, cwd)
    for path, removes in targets(command):
        kind = classify(path, where, removes)
        if kind is not None:
            return kind
    if command.argv[:1] == ("ln",):
        # A link to dcg's files is a second name to write them through (`ln -s ~/.claude x`).
        for path in operands(command.argv)[:-1]:
            kind = classify(path, where, True)
            if kind is not None:
                return kind
    return interpreter_code(command)


def is_invocation(command: Command, cwd: str) -> bool:
    return judge(command, cwd or None) == "invoke"


def is_disable(command: Command, cwd: str) -> bool:
    return judge(command, cwd or None) in ("package", "program")


def is_state_write(command: Command, cwd: str) -> bool:
    return judge(command, cwd or None) == "state"


def is_hooks_write(command: Command, cwd: str) -> bool:
    return judge(command, cwd or None) == "hooks"


def file_kind(paths_written: list[str], cwd: str | None) -> str | None:
    """What a file tool's write reaches: ``"state"``, ``"hooks"``, ``"program"`` or None."""
    for p in paths_written:
        kind = classify(p, cwd or os.getcwd(), False)
        if kind is not None:
            return kind
    return None
