"""Where dcg's own files are, and every name a command may reach them by.

dcg's files are its state (config, history, codes, allowlists, caches, sessions, under
every variable that relocates them), its program (the package, its launchers) and the
runtime of the hook itself: the interpreter the registered hook command runs, its venv or
pipx/uv home, and the standard library on its ``sys.path``. A path a command writes is
compared in each spelling it may resolve to: ``~``/``~user``, any ``$VAR`` the hook's
environment knows (with the defaults of the variables that relocate dcg's state),
``/proc/self/root``, ``/proc/<pid>/cwd``, symbolic links (existing ones, and those made
earlier on the same line), then ``..`` as the kernel applies it. Stdlib only.
"""

from __future__ import annotations

from dcg import oslite as os
from dcg import paths
from dcg.oslite import path as posixpath

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from dcg.shell.command import Command

GLOB = frozenset("*?[")


def home() -> str:
    return os.path.expanduser("~")


# The protected locations depend only on these variables; computed once per value (the
# program lookup walks PATH, which a line with many paths must not pay for each time).
_ENV_KEYS = ("HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME",
             "DCG_SESSION_DIR", "DCG_SYSTEM_CONFIG", "DCG_SYSTEM_DIR", "DCG_CONFIG",
             "PIPX_HOME", "UV_TOOL_DIR", "PATH")  # fmt: skip
_cache: dict[tuple[str, tuple[object, ...]], list[str]] = {}


_ENV_BYTES = tuple(k.encode() for k in _ENV_KEYS)


def cached(name: str, compute: Callable[[], list[str]]) -> list[str]:
    # os.environ (where os is loaded) decodes on every lookup: its bytes table is read
    # directly for the key; the hook's own environ is a plain dict.
    data = getattr(os.environ, "_data", None)
    if isinstance(data, dict):
        values: tuple[object, ...] = tuple(map(data.get, _ENV_BYTES))
    else:
        values = tuple(map(os.environ.get, _ENV_KEYS))
    key = (name, values)
    found = _cache.get(key)
    if found is None:
        found = _cache[key] = compute()
    return found


# Variables that relocate dcg's files, and where they point when unset: a path built on
# one is dcg's whatever the agent's shell sets it to.
def _defaults() -> dict[str, str]:
    h = home()
    return {
        "HOME": h,
        "XDG_CONFIG_HOME": h + "/.config",
        "XDG_CACHE_HOME": h + "/.cache",
        "XDG_STATE_HOME": h + "/.local/state",
        "XDG_DATA_HOME": h + "/.local/share",
        "DCG_SESSION_DIR": f"/tmp/dcg-sessions-{os.getuid()}",
        "DCG_SYSTEM_DIR": "/etc/dcg",
    }


def state_dirs() -> list[str]:
    """dcg's own directories and files: config, cache, state, sessions, system, timers."""
    return cached("state", _state_dirs)


def _state_dirs() -> list[str]:
    h = home()
    env = os.environ
    found = [paths.config_dir(), paths.session_dir(), os.path.dirname(paths.system_config()),
             paths.system_dir(), "/etc/dcg", f"/tmp/dcg-sessions-{os.getuid()}"]  # fmt: skip
    for var, default in _defaults().items():
        if var.startswith("XDG_"):
            found += [posixpath.join(env.get(var) or default, "dcg"), default + "/dcg"]
    if env.get("DCG_CONFIG"):
        found.append(env["DCG_CONFIG"])
    found.extend(os.path.dirname(p) for p in (paths.history_file(), paths.allowlist_file()))
    # The audit shipper's timer units (contrib/): stopping them stops the organisation's audit.
    config = env.get("XDG_CONFIG_HOME") or os.path.join(h, ".config")
    for base in (os.path.join(config, "systemd", "user"), os.path.join(h, ".config/systemd/user")):
        found.extend(os.path.join(base, f"{UNIT}.{kind}") for kind in ("service", "timer"))
    found.append(os.path.join(h, "Library", "LaunchAgents", f"{AGENT_LABEL}.plist"))
    return with_real([normalise(p, "/") for p in found])


UNIT = "dcg-audit-ship"
AGENT_LABEL = "dev.dcg.audit-ship"


def program_paths() -> list[str]:
    """dcg's program and the hook's runtime: the package, its launchers, the interpreter,
    the venv it lives in, the standard library that interpreter imports from."""
    return cached("program", _program_paths)


def _program_paths() -> list[str]:
    import sys

    package = posixpath.dirname(posixpath.abspath(__file__))
    found = [package]
    # shutil.which would cost the file-tool path more than the whole judgement.
    for d in os.environ.get("PATH", "").split(os.pathsep):
        exe = posixpath.join(d, "dcg")
        if d and os.access(exe, os.X_OK):
            found.append(exe)
            break
    exe = sys.executable
    if exe:
        found += [exe, posixpath.join(posixpath.dirname(exe), "dcg")]
    # A venv (pipx, uv tool, a project's .venv) is the hook's: removing or moving it makes
    # the registered command fail to start, which the agents take for "no objection". The
    # places pipx and uv keep a tool named dcg are its too, whichever Python runs now.
    if sys.prefix != sys.base_prefix:
        found.append(sys.prefix)
    env, h = os.environ, home()
    data = env.get("XDG_DATA_HOME") or h + "/.local/share"
    for base in (env.get("PIPX_HOME"), f"{data}/pipx", f"{h}/.local/pipx"):
        if base:
            found.append(f"{base}/venvs/dcg")
    found += [f"{env.get('UV_TOOL_DIR') or data + '/uv/tools'}/dcg", f"{data}/uv/tools/dcg"]
    version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    for base in dict.fromkeys((sys.base_prefix, sys.prefix)):
        found += [f"{base}/lib/{version}", f"{base}/lib/python{sys.version_info[0]}"
                  f"{sys.version_info[1]}.zip"]  # fmt: skip
    return with_real([normalise(p, "/") for p in found])


def shadow_dirs() -> list[str]:
    """Directories on the hook's ``sys.path`` where a file named like a standard module
    would be imported instead of it: the one holding dcg/ (site-packages, a checkout's
    src/) and, for a launcher, the launcher's own directory."""
    return cached("shadow", _shadow_dirs)


def _shadow_dirs() -> list[str]:
    found = [posixpath.dirname(program_paths()[0])]
    found += [posixpath.dirname(p) for p in program_paths() if posixpath.basename(p) == "dcg"]
    return with_real(found)


def shadows(full: str) -> bool:
    """Writing ``full`` puts a module where the hook would import it instead of the
    standard library's (``site-packages/tomllib.py``), or a ``.pth`` that ``site`` runs."""
    import sys

    head, _, name = full.rpartition("/")
    if head not in shadow_dirs():
        return False
    stem = name.partition(".")[0]
    return name.endswith(".pth") or stem in sys.stdlib_module_names or stem in (
        "sitecustomize", "usercustomize")  # fmt: skip


# Subtrees of the standard library's directory that are not the standard library.
SITE_DIRS = ("site-packages", "dist-packages")


def with_real(found: list[str]) -> list[str]:
    """``found`` and, after it, what each resolves to through symbolic links (each shared
    parent directory looked at once: a line's protected paths share most of theirs)."""
    out = dict.fromkeys(found)
    memo: dict[str, str] = {"": ""}
    for p in found:
        if "\x00" not in p and p.startswith("/"):
            out.setdefault(_real(p.rstrip("/") or "/", memo) or "/")
    return list(out)


def _real(path: str, memo: dict[str, str]) -> str:
    """``realpath`` of an absolute, normalised ``path``, its prefixes memoised in ``memo``."""
    found = memo.get(path)
    if found is not None:
        return found
    head, _, name = path.rpartition("/")
    base = _real(head, memo)
    full = f"{base}/{name}"
    from _stat import S_ISLNK

    try:
        link = S_ISLNK(os.lstat(full).st_mode)
    except (OSError, ValueError):
        link = False
    resolved = posixpath.realpath(full) if link else full
    memo[path] = resolved
    return resolved


def effective_cwd(command: Command, cwd: str | None) -> str | None:
    """The directory ``command`` runs in: the payload cwd, then any ``cd`` before it (and
    its wrappers' ``-C DIR``); None when it cannot be known."""
    base = cwd or os.getcwd()
    if command.cwd is None:
        return base
    if command.cwd == UNKNOWN_CWD:
        return None
    return normalise(command.cwd, base)


UNKNOWN_CWD = "\x00?"


# --- a written path in each spelling it resolves to ---------------------------------------


def normalise(path: str, cwd: str) -> str:
    """``path`` made absolute against ``cwd``; ``~``, ``$VAR``, ``//``, ``.``, ``..`` folded."""
    path = expand(path)
    if not path.startswith("/"):
        path = posixpath.join(cwd, path)
    path = posixpath.normpath(path)
    return "/" + path.lstrip("/")


def expand(path: str) -> str:
    """``~``, ``~user`` and every ``$VAR``/``${VAR}`` whose value the hook knows (its own
    environment, else the default of a variable that relocates dcg's files)."""
    if path.startswith("~"):
        name, _, rest = path[1:].partition("/")
        if not name:
            path = home() + ("/" + rest if rest or path.endswith("/") else "")
        elif name.replace("-", "_").replace(".", "_").isalnum():
            expanded = os.path.expanduser("~" + name)
            if not expanded.startswith("~"):
                path = expanded + ("/" + rest if rest or path.endswith("/") else "")
    if "$" not in path:
        return path
    out: list[str] = []
    i = 0
    defaults: dict[str, str] | None = None
    while i < len(path):
        c = path[i]
        if c != "$":
            out.append(c)
            i += 1
            continue
        braced = path.startswith("${", i)
        j = i + 2 if braced else i + 1
        k = j
        while k < len(path) and (path[k].isalnum() or path[k] == "_"):
            k += 1
        name = path[j:k]
        fallback = None
        if braced and (path[k : k + 2] in (":-", ":=") or path[k : k + 1] in ("-", "=")):
            # ${NAME:-word}: the word when NAME is unset (or empty); nested braces end it.
            start = k + (2 if path[k] == ":" else 1)
            end = path.find("}", start)
            if braced and end > 0:
                fallback, k = path[start:end], end
        if not name or (braced and path[k : k + 1] != "}"):
            out.append(c)
            i += 1
            continue
        value = os.environ.get(name) or (expand(fallback) if fallback is not None else None)
        if value is None:
            defaults = defaults if defaults is not None else _defaults()
            value = defaults.get(name)
        if value is None:
            out.append(path[i : k + braced])
        else:
            out.append(value)
        i = k + braced
    return "".join(out)


def spellings(path: str, cwd: str, links: dict[str, str] | None = None) -> list[str]:
    """The absolute paths ``path`` (as written, run in ``cwd``) may name: lexically folded,
    through ``/proc`` aliases, the line's own links, and existing symbolic links."""
    full = expand(path)
    if not full.startswith("/"):
        full = posixpath.join(cwd, full)
    full = _proc_alias(full, cwd)
    lexical = normalise(full, "/")
    out = [lexical]
    physical = _physical(full, links or {})
    if physical != lexical:
        out.append(physical)
    if "\x00" not in physical and not GLOB.intersection(physical):
        real = posixpath.realpath(physical)
        if real not in out:
            out.append(real)
    return out


def _proc_alias(path: str, cwd: str) -> str:
    """``/proc/self/root/x`` is ``/x``; ``/proc/self/cwd/x`` (also ``thread-self``, a pid,
    ``$$``) is ``x`` in the directory the command runs in."""
    for _ in range(8):
        if not path.startswith("/proc/"):
            return path
        parts = path.split("/", 4)  # "", "proc", who, what, rest
        if len(parts) < 4 or parts[3] not in ("root", "cwd"):
            return path
        who = parts[2]
        if not (who in ("self", "thread-self", "$$", "$PPID", "$BASHPID") or who.isdigit()):
            return path
        rest = parts[4] if len(parts) > 4 else ""
        path = ("/" if parts[3] == "root" else cwd.rstrip("/") + "/") + rest
    return path


def _physical(path: str, links: dict[str, str]) -> str:
    """``path`` resolved the way the kernel walks it, for the links made on this line:
    each prefix that is such a link is replaced by its target before ``..`` applies."""
    cur = ""
    for comp in path.split("/"):
        if comp in ("", "."):
            continue
        if comp == "..":
            cur = cur.rpartition("/")[0]
            continue
        cur = cur + "/" + comp
        for _ in range(8):
            target = links.get(cur)
            if target is None:
                break
            cur = target.rstrip("/")
    return cur or "/"


# --- matching a written path against a protected one ---------------------------------------


def parts(path: str) -> list[str]:
    return [p for p in path.split("/") if p]


def component(pattern: str, name: str) -> bool:
    if not GLOB.intersection(pattern):
        return pattern == name
    # A shell glob matches a leading dot only when the pattern spells it.
    if name.startswith(".") and not pattern.startswith("."):
        return False
    import fnmatch

    return fnmatch.fnmatchcase(name, pattern)


def prefix(pattern: list[str], target: list[str]) -> bool:
    """Whether ``pattern`` (possibly globbed) could name ``target`` or one of its ancestors."""
    if len(pattern) > len(target):
        return False
    return all(component(p, t) for p, t in zip(pattern, target, strict=False))


def covers(target: list[str], protected: list[str], remove: int) -> bool:
    """A write to ``target`` reaches ``protected`` (a removal also reaches what is inside)."""
    if remove and prefix(target, protected):
        return True
    return len(target) >= len(protected) and prefix(target[: len(protected)], protected)


def plain_covers(target: str, protected: str, remove: int) -> bool:
    """:func:`covers` for a path without glob characters, on strings."""
    if target == protected or target.startswith(protected + "/"):
        return True
    return bool(remove) and (target == "/" or protected.startswith(target + "/"))


def found_covers(
    target: list[str], protected: list[str], remove: int, names: frozenset[str]
) -> bool:
    """``ROOT/**/NAME`` (what ``find ROOT -name NAME`` finds) reaches ``protected``: an
    ancestor of it or itself below ROOT is named NAME, or NAME matches a file dcg keeps
    (``names``) and ROOT is above ``protected``; a ROOT inside ``protected`` always does."""
    at = target.index("**")
    root, name = target[:at], target[at + 1 :]
    if len(name) != 1:
        return covers([t for t in target if t != "**"], protected, remove)
    pattern = name[0]
    if len(root) >= len(protected):
        return prefix(root[: len(protected)], protected)
    if not prefix(root, protected):
        return False
    below = protected[len(root) :]
    if remove and any(component(pattern, p) for p in below):
        return True
    if not remove and component(pattern, below[-1]):
        return True
    return any(component(pattern, n) for n in names)
