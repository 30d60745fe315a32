"""What dcg guards about itself: its state, its program and every agent's hook settings.

The rules of ``core.dcg`` call the functions here on each parsed simple command; a file
tool's request (Claude Code's ``Write``/``Edit``, …) is judged by :func:`file_kind`. A
command is judged on what it writes (:func:`dcg.writes.targets`, one table for every
program), each target resolved the ways :mod:`dcg.selfpaths` knows (the payload cwd and
``cd``/``CDPATH``/``env -C``/``git -C`` earlier on the line, ``/proc`` aliases, links,
globs); reading and searching dcg's files is never judged. How dcg itself is reached is
:mod:`dcg.selfinvoke`. Imported only after the keyword prefilter passed; stdlib only.
"""

from __future__ import annotations

from dcg import oslite as os
from dcg import selfpaths
from dcg.agents import protected_files
from dcg.selfcopy import patched, reach
from dcg.selfinvoke import PROTECTED_SUBCOMMANDS as PROTECTED
from dcg.selfinvoke import (
    dcg_invocation,
    interpreter_removal,
    package_change,
    service_change,
    su_payload,
)
from dcg.selfpaths import GLOB, component, covers, effective_cwd, home, normalise, parts, prefix
from dcg.selfstash import whole_tree
from dcg.writes import INTO, operands, targets

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.selfline import Line
    from dcg.shell.command import Command

# Hook settings of every agent (the files each agent reads hooks from, dcg's own among
# them), from each agent module's HOOK_FILES (dcg.agents; tests/test_selfprotect.py fails when
# a place dcg installs into is missing). Relative: they count under HOME and under any
# project directory. A trailing slash protects the whole directory.
AGENT_FILES, _SYSTEM_AGENT_FILES = protected_files()
_AGENT_DIRS = frozenset(rel.partition("/")[0] for rel in AGENT_FILES)
# dcg's file names that give a write away even when the directory is unknown (`cd "$X"`).
_STATE_NAMES = frozenset(
    ("allowlist.toml", "history.jsonl", "pending_confirmations.jsonl", "allow_once.jsonl",
     "audit-cursor.json", "approval_attempts.json")
)  # fmt: skip
# Names of files dcg keeps in its directories (a session file stands for every one), and
# of the agents' settings: what a `find … -name PATTERN` may find inside them.
_KEPT_NAMES = frozenset(
    (*_STATE_NAMES, "config.toml", "managed.toml", "error.log", "allowlist-cache.json",
     "0123456789abcdef.json", *(rel.rstrip("/").rpartition("/")[2] for rel in AGENT_FILES),
     *(f.rpartition("/")[2] for f in _SYSTEM_AGENT_FILES), "dcg.js", "dcg.json")
)  # fmt: skip
# What a session directory holds: one `<id>.json` per session (and their atomic temps).
_SESSION_NAMES = frozenset(("0123456789abcdef.json", "0123456789abcdef.json.tmp.1"))


def _sessions() -> tuple[str, ...]:
    from dcg import paths

    return (paths.session_dir(), f"/tmp/dcg-sessions-{os.getuid()}")


# Agent files under a directory as generic as `.config`: removing some project's `.config`
# (`chown -R www-data /var/www/.config`) is not removing the user's.
_USER_ONLY = (".config/",)

_INTERPRETERS = ("python", "node", "ruby", "perl", "php", "deno", "bun", "osascript", "lua",
                 "luajit", "rscript", "julia", "tclsh", "pwsh", "powershell", "groovy")  # fmt: skip
_WRITE_WORDS = (
    "'w", '"w', "'a", '"a', "'x", '"x', "+'", '+"', "write", "unlink", "remove", "rmtree",
    "rename", "replace", "move", "chmod",
    "truncate", "dump", "system", "subprocess", "spawn", "exec", "popen", "rm(", "rmsync",
    "copy", "symlink", "mkdir", "touch", "delete", "run(", "call(",
)  # fmt: skip


def classify(
    path: str,
    cwd: str | None,
    remove: int = False,
    links: dict[str, str] | None = None,
    aged: bool = False,
) -> str | None:
    """``"state"``, ``"hooks"``, ``"program"`` or None: what writing ``path`` would reach.

    ``cwd`` None means the directory is unknown (a dynamic ``cd``): only names that are
    dcg's alone, and paths that do not depend on the directory, are judged. ``links`` are
    the links made earlier on the line (link -> target, absolute). ``aged``: only entries
    older than a day are reached (``find -mtime +1``), never a live session's file.
    """
    expanded = selfpaths.expand(path)
    if cwd is None and not expanded.startswith("/"):
        name = expanded.rpartition("/")[2]
        return "state" if name in _STATE_NAMES else _agent_suffix(parts(expanded), remove)
    for full in selfpaths.spellings(path, cwd or "/", links):
        kind = _classify(full, remove, aged)
        if kind is not None:
            return kind
    return None


def _classify(full: str, remove: int, aged: bool = False) -> str | None:
    target = parts(full)
    if remove == INTO and len(target) <= len(parts(home())):
        remove = False
    found = "**" in target
    globbed = found or bool(GLOB.intersection(full))
    sessions = _sessions()
    if not globbed:
        protected_paths = _plain(full, remove)
    elif found:
        protected_paths = _near(target)
    else:
        protected_paths = _protected()
    split = _parts
    for kind, protected in protected_paths:
        if kind == "program" and _outside_stdlib(full, protected):
            continue
        if aged and protected in sessions:
            continue  # a session untouched for a day has expired (decisions §8.1)
        if found:
            names = _SESSION_NAMES if protected in sessions else _KEPT_NAMES
            if selfpaths.found_covers(target, split[protected], remove, names):
                return kind
        elif globbed:
            if covers(target, split[protected], remove):
                return kind
        elif selfpaths.plain_covers(full, protected, remove):
            return kind
    hooks = _agent_suffix(target, remove)
    if hooks:
        return hooks
    if not globbed and selfpaths.shadows(full):
        return "program"
    # Any path to a dcg executable: `~/.local/bin/dcg`, `/usr/local/bin/dc*`.
    if len(target) >= 2 and target[-2] in ("bin", "Scripts") and component(target[-1], "dcg"):
        return "program"
    return None


def _outside_stdlib(full: str, protected: str) -> bool:
    """A path in the standard library directory's site-packages is not the stdlib."""
    if "/lib/python" not in protected or protected.endswith(".zip"):
        return False
    return any(full.startswith(f"{protected}/{d}") for d in selfpaths.SITE_DIRS)


def _protected() -> list[tuple[str, str]]:
    """``(kind, absolute path)`` of every fixed protected location, computed once per env."""
    return _index()[0]


# (the cached strings, their (kind, path) pairs, each protected path and each of its
# ancestors -> the positions in the pairs of the paths at or below it)
_indexed: list[tuple[list[str], list[tuple[str, str]], dict[str, list[int]]]] = []


def _index() -> tuple[list[tuple[str, str]], dict[str, list[int]]]:
    pairs = selfpaths.cached("protected", _protected_paths)
    if not _indexed or _indexed[0][0] is not pairs:
        split = [(k, p) for k, _, p in (x.partition("\x00") for x in pairs)]
        below: dict[str, list[int]] = {}
        for n, (_, p) in enumerate(split):
            path = p
            while True:
                below.setdefault(path, []).append(n)
                if path in ("/", "") or "/" not in path:
                    break
                path = path.rsplit("/", 1)[0] or "/"
        _indexed[:] = [(pairs, split, below)]
        _parts.clear()
        _parts.update((p, parts(p)) for _, p in split)
    return _indexed[0][1], _indexed[0][2]


_parts: dict[str, list[str]] = {}  # each protected path's components (set by _index)


def _near(target: list[str]) -> list[tuple[str, str]]:
    """The protected locations ``ROOT/**/NAME`` may reach: inside or around a ROOT without
    glob characters (what selfpaths.found_covers can match), else all of them."""
    pairs = _protected()
    at = target.index("**")
    root = target[:at]
    if len(target) - at != 2 or any(GLOB.intersection(r) for r in root):
        return pairs
    above = "/" + "/".join(root)
    if above == "/":
        return pairs
    return [
        (k, p) for k, p in pairs
        if p == above or p.startswith(above + "/") or above.startswith(p + "/")
    ]  # fmt: skip


def _plain(full: str, remove: int) -> list[tuple[str, str]]:
    """The protected locations a plain path may cover, in their order: those at ``full`` or
    above it, and (for a removal) those below it; the caller checks each as before."""
    pairs, below = _index()
    if remove and full == "/":
        return pairs
    hits: set[int] = set()
    path = full
    while True:
        for n in below.get(path, ()):
            if pairs[n][1] == path:
                hits.add(n)
        if path in ("/", "") or "/" not in path:
            break
        path = path.rsplit("/", 1)[0] or "/"
    if remove:
        hits.update(below.get(full, ()))
    return [pairs[n] for n in sorted(hits)]


def _protected_paths() -> list[str]:
    h = home()
    found = [f"state\x00{d}" for d in selfpaths.state_dirs()]
    hooks = [normalise(f"{h}/{rel}", "/") for rel in AGENT_FILES]
    hooks += [normalise(f"{os.environ.get('XDG_CONFIG_HOME')}/{rel[8:]}", "/")
              for rel in AGENT_FILES
              if rel.startswith(".config/") and os.environ.get("XDG_CONFIG_HOME")]  # fmt: skip
    system = [normalise(f, "/") for f in _SYSTEM_AGENT_FILES]  # absolute, or `~/…`
    found += [f"hooks\x00{p}" for p in selfpaths.with_real([*hooks, *system])]
    found += [f"program\x00{p}" for p in selfpaths.program_paths()]
    return found


def _agent_suffix(target: list[str], remove: int) -> str | None:
    """A project-level hook settings file (or its directory) at the end of ``target``."""
    if "**" in target:
        return _agent_found(target[-1], remove)
    if not any(t in _AGENT_DIRS or GLOB.intersection(t) for t in target):
        return None
    for rel in AGENT_FILES:
        if "/" not in rel:
            # A bare name (OpenCode's `opencode.json`, read in any directory up from the
            # cwd): judged as spelled, never through a glob (`rm *.json` is everyday).
            if target[-1] == rel:
                return "hooks"
            continue
        rel_parts = parts(rel)
        directory = rel.endswith("/")
        # A project's own `.config` is not the user's: only its opencode part counts there.
        generic = 1 if rel.startswith(_USER_ONLY) else 0
        for k in range(len(target)):
            tail = target[k:]
            n = min(len(tail), len(rel_parts))
            if not tail or not prefix(tail[:n], rel_parts[:n]):
                continue
            if len(tail) >= len(rel_parts) and (directory or len(tail) == len(rel_parts)):
                return "hooks"
            if remove and generic < len(tail) < len(rel_parts):
                return "hooks"
    return None


_found_memo: dict[tuple[str, bool], str | None] = {}


def _agent_found(pattern: str, remove: int) -> str | None:
    """``find … -name PATTERN`` may reach a project's hook settings: PATTERN names one of
    their directories (a removal) or files (the answer depends on nothing else)."""
    key = (pattern, bool(remove))
    if key not in _found_memo:
        if len(_found_memo) > 256:
            _found_memo.clear()
        _found_memo[key] = _agent_found_uncached(pattern, remove)
    return _found_memo[key]


def _agent_found_uncached(pattern: str, remove: int) -> str | None:
    for rel in AGENT_FILES:
        if rel.startswith(_USER_ONLY):
            continue
        if "/" not in rel:  # a bare name: only a `-name` that spells it
            if pattern == rel:
                return "hooks"
            continue
        names = parts(rel)
        if any(component(pattern, n) for n in (names if remove else names[-1:])):
            return "hooks"
    return None


def interpreter_code(command: Command) -> str | None:
    """What an interpreter one-liner that touches dcg does: "state", "hooks", "invoke"."""
    argv = command.argv
    if not argv or not argv[0].startswith(_INTERPRETERS):
        return None
    code = " ".join(argv[1:]) + ("\n" + command.stdin if command.stdin else "")
    low = code.lower()
    if "dcg" in low and any(f"{q}{s}{q}" in low for s in PROTECTED for q in ("'", '"')):
        return "invoke"
    if not any(w in low for w in _WRITE_WORDS):
        return None
    # A string that names a protected file or a path inside a protected directory (what
    # the code builds from pieces, the embedded analysis of dcg.embedded evaluates).
    for word in _string_paths(code):
        if word.strip("/.~"):
            kind = classify(word, None if not word.startswith(("/", "~", "$")) else "/")
            if kind is not None:
                return kind
    # A path built from pieces (`Path.home() / ".claude" / "settings.json"`).
    for rel in AGENT_FILES:
        if all(part in code for part in parts(rel)):
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


# --- the line a command is part of --------------------------------------------------------


_line: list[Line] = []
# ids of the line's commands: finding a command's line is one look-up, not a scan (a line
# of 10,000 commands would otherwise cost 10,000 squared).
_members: set[int] = set()


def begin_line(commands: list[Command], cwd: str | None) -> None:
    """Called by the engine with every simple command of a line before any is judged."""
    if len(commands) > 1:
        from dcg.selfline import Line

        _line[:] = [Line(commands, cwd, _needs_context(commands))]
        _members.clear()
        _members.update(map(id, commands))
    else:
        _line.clear()
        _members.clear()
    _last.clear()


def _needs_context(commands: list[Command]) -> bool:
    names = ("ln", "cp", "install", "mount", "bindfs", "rsync", "cat", "mv")
    return any(c.argv[:1] and c.argv[0] in names for c in commands)


def _context(command: Command) -> Line | None:
    if _line and id(command) in _members:
        return _line[0]
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
    line = _context(command)
    where = effective_cwd(command, cwd)
    if dcg_invocation(command, where, line.aliases if line else ()) is not None:
        return "invoke"
    if package_change(command, where) or service_change(command) or interpreter_removal(command):
        return "package"
    inner = su_payload(command)
    if inner is not None:
        from dcg.shell import parse

        for c in parse(inner, deadline=None):
            found = judge(c, cwd)
            if found:
                return found
    links = line.links if line else None
    aged = False
    if command.argv[:1] == ("find",):
        from dcg.writes._tools import older_than_a_day

        aged = older_than_a_day(command.argv)
    written = targets(command)
    if line is not None and any("find -exec" in v or "find -ok" in v for v in command.via):
        written = _found_by_find(command, line, written)
    for path, removes in written:
        kind = classify(path, where, removes, links, aged)
        if kind is not None:
            return kind
    if command.argv[1:2] == ("stash",) and where and whole_tree(command, where, home()):
        return classify(home(), "/", True, links)  # `cd ~ && git stash -u`: HOME's files go
    judged = lambda p: classify(p, "/", False, links)  # noqa: E731
    kind = reach(command, where, line, judged) if where else None  # what a copy plants
    if kind is not None:
        return kind
    diff = command.argv[:1] in (("patch",), ("git",))  # judged by the files it names anywhere
    wide = [
        p for p, how in written if how == INTO and where and (diff or _wide(normalise(p, where)))
    ]
    if wide and where is not None:
        into = normalise(wide[0], where)
        kind = _extraction(command, where, into, line) or patched(
            command, where, into, judged, _wide(into)
        )
        if kind is not None:
            return kind
    if command.argv[:1] in (("ln",), ("mount",), ("bindfs",)):
        # A link to dcg's files is a second name to write them through (`ln -s ~/.claude x`).
        for path in operands(command.argv)[:-1]:
            kind = classify(path, where, True, links)
            if kind is not None:
                return kind
    return interpreter_code(command)


def _found_by_find(
    command: Command, line: Line, written: list[tuple[str, int]]
) -> list[tuple[str, int]]:
    """In a command ``find -exec`` runs (``sh -c ': > "$1"' _ {}``), ``{}`` is what the
    find finds: the nearest find before it on the line says where."""
    if not any("{}" in p for p, _ in written):
        return written
    index = next((k for k, c in enumerate(line.commands) if c is command), -1)
    finder = next((c for c in reversed(line.commands[:index]) if c.argv[:1] == ("find",)), None)
    if finder is None:
        return written
    from dcg.writes._tools import found_paths

    out = [(p, how) for p, how in written if "{}" not in p]
    for p, how in written:
        if "{}" in p:
            out += [
                (p.replace("{}", f), True if how is True else how) for f in found_paths(finder.argv)
            ]
    return out


def _wide(full: str) -> bool:
    """A directory as wide as HOME or ``/`` (where an INTO write is not judged by itself)."""
    h = home()
    return full == h or h.startswith(full.rstrip("/") + "/")


def _extraction(command: Command, where: str, into: str, line: Line | None) -> str | None:
    from dcg.writes._archives import extracted_archive

    archive = extracted_archive(command.argv)
    if archive is None or archive == "-":  # from its input: what it plants is unknown
        return None if archive is None else "state"
    from dcg import selfarchive

    full = normalise(archive, where)
    created = line is not None and any(
        normalise(p, effective_cwd(c, where) or where) == full
        for c in line.commands
        if c is not command
        for p, how in targets(c)
        if how is False
    )
    links = line.links if line else None
    return selfarchive.reach(full, into, created, lambda p: classify(p, "/", False, links))


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
