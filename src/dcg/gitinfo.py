"""Ask git, after a match and within a few milliseconds, what a command would really touch.

Only ever called once a rule matched (never on the no-match path): whether targets are
ignored or tracked, and which modified, staged and untracked files a matched command
reaches, named in the texts (decisions.md 10.7). Every call is bounded by
:data:`TIMEOUT`; a git that is missing, fails or is slower than that gives no answer
(None), and no answer never lowers a decision.
"""

from __future__ import annotations

from dcg import oslite as os

TYPE_CHECKING = False  # typing costs ms at start-up; type checkers treat this as True
if TYPE_CHECKING:
    from collections.abc import Sequence

# Seconds one git call may take before dcg stops waiting.
TIMEOUT = 0.05
# Paths named in a text; the rest are counted.
SHOWN = 3
# A repository's config must not run programs when dcg merely asks about it: no fsmonitor,
# hooks, pager, external diff or ssh; filters are switched off by name (see _filters).
SAFE_CONFIG = ("-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null",
                "-c", "core.pager=cat", "-c", "diff.external=", "-c", "core.sshCommand=",
                "-c", "core.askPass=", "-c", "core.untrackedCache=false")  # fmt: skip
# Where git is installed: never a `git` found first on a PATH the agent can write to.
_GIT_PLACES = ("/usr/bin/git", "/bin/git", "/usr/local/bin/git", "/opt/homebrew/bin/git",
               "/usr/local/git/bin/git", "/opt/local/bin/git",
               "/run/current-system/sw/bin/git")  # fmt: skip


def work_tree(path: str) -> str | None:
    """The nearest directory at or above ``path`` that holds a ``.git``; no subprocess."""
    d = os.path.abspath(path)
    for _ in range(128):
        if os.path.exists(os.path.join(d, ".git")):
            return d
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent
    return None


_program: list[str | None] = []


def program() -> str | None:
    """The git to run: an installed one at a fixed place, else the first on PATH in a
    directory the user cannot write (a shim dropped into ~/.local/bin is never run)."""
    if _program:
        return _program[0]
    from posix import W_OK

    found = None
    for place in _GIT_PLACES:
        if os.access(place, os.X_OK):
            found = place
            break
    else:
        for d in os.environ.get("PATH", "").split(":"):
            exe = os.path.join(d, "git")
            mine = os.access(d, W_OK) or os.access(exe, W_OK)
            if d.startswith("/") and os.access(exe, os.X_OK) and not mine:
                found = exe
                break
    _program.append(found)
    return found


def environment() -> dict[str, str]:
    """A fresh environment: nothing of the agent's GIT_* variables, PAGER or PATH."""
    env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "GIT_OPTIONAL_LOCKS": "0",
           "GIT_TERMINAL_PROMPT": "0", "GIT_CONFIG_NOSYSTEM": "1", "GIT_NO_REPLACE_OBJECTS": "1",
           "GIT_PAGER": "cat", "PAGER": "cat"}  # fmt: skip
    for key in ("HOME", "XDG_CONFIG_HOME", "USER", "LOGNAME"):
        value = os.environ.get(key)
        if value:
            env[key] = value
    return env


def git(root: str, args: Sequence[str], ok: tuple[int, ...] = (0,)) -> str | None:
    """Standard output of ``git -C root ARGS``; None if git is absent, fails or is too slow.

    git runs with a configuration that executes nothing (:data:`SAFE_CONFIG`, and for
    ``status`` every filter driver the repository names switched off), a fresh
    environment, its stdin closed, in a session of its own, and is killed with whatever
    it started when it takes longer than :data:`TIMEOUT`.
    """
    exe = program()
    if exe is None:
        return None
    extra: list[str] = []
    if args[:1] == ["status"]:
        off = filters_off(exe, root)
        if off is None:
            return None
        extra = off
        args = [args[0], "--ignore-submodules=all", *args[1:]]
    env = environment()
    if args[:1] != ["check-ignore"]:  # which rejects pathspec magic; its paths are plain
        env["GIT_LITERAL_PATHSPECS"] = "1"
    return _run([exe, *SAFE_CONFIG, *extra, "-C", root, *args], env, ok)


def filters_off(exe: str, root: str, timeout: float = TIMEOUT) -> list[str] | None:
    """``-c`` options switching off every filter driver the repository's and the user's
    config define, so that reading or adding work-tree files runs none (None: no answer)."""
    out = _run([exe, *SAFE_CONFIG, "-C", root, "config", "--name-only", "-z",
                "--get-regexp", r"^filter\."], environment(), (0, 1), timeout)  # fmt: skip
    if out is None:
        return None
    names = []
    for key in out.split("\0"):
        head, _, rest = key.partition(".")
        name = rest.rpartition(".")[0]
        if head.lower() == "filter" and name and "\n" not in name and name not in names:
            names.append(name)
    off: list[str] = []
    for name in names:
        for key, value in (("clean", ""), ("smudge", ""), ("process", ""), ("required", "false")):
            off += ["-c", f"filter.{name}.{key}={value}"]
    return off


def _run(
    cmd: list[str], env: dict[str, str], ok: tuple[int, ...], timeout: float = TIMEOUT
) -> str | None:
    import signal
    import subprocess

    try:
        proc = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            start_new_session=True,
            close_fds=True,
        )
    except (OSError, ValueError):
        return None
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        # The whole process group: a wrapper script's children must not linger. What
        # left the group may hold the pipe open: do not wait for its end.
        try:  # noqa: SIM105 (contextlib would be one more import on the hook path)
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            pass
        if proc.stdout is not None:
            proc.stdout.close()
        try:  # noqa: SIM105
            proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            pass
        return None
    if proc.returncode not in ok:
        return None
    return out.decode("utf-8", "surrogateescape")


def _rel(root: str, paths: Sequence[str]) -> list[str]:
    return [os.path.relpath(p, root) for p in paths]


def ignored(root: str, paths: Sequence[str]) -> set[str] | None:
    """The ``paths`` (absolute, inside ``root``) that the repository ignores; None: no answer."""
    pairs = list(zip(paths, _rel(root, paths), strict=True))
    rel = [r + "/" if os.path.isdir(p) else r for p, r in pairs]
    if any("\n" in r for r in rel):
        return None  # check-ignore answers one line per path
    out = git(root, ["check-ignore", "--", *rel], ok=(0, 1))
    if out is None:
        return None
    hits = {h.rstrip("/") for h in out.splitlines() if h}
    return {p for p, r in pairs if r in hits}


def tracked_under(root: str, paths: Sequence[str]) -> bool | None:
    """Whether git tracks any file at or below ``paths``; None: no answer."""
    out = git(root, ["ls-files", "-z", "--", *_rel(root, paths)])
    return None if out is None else bool(out.strip("\0"))


def status(
    root: str, pathspecs: Sequence[str] = (), with_untracked: bool = True
) -> tuple[list[str], list[str]] | None:
    """``(changed tracked, untracked)`` paths under ``pathspecs``; None: no answer."""
    spec = ["--", *pathspecs] if pathspecs else []
    which = "--untracked-files=all" if with_untracked else "--untracked-files=no"
    out = git(root, ["status", "--porcelain=v1", "-z", which, *spec])
    if out is None:
        return None
    changed: list[str] = []
    untracked: list[str] = []
    entries = out.split("\0")
    i = 0
    while i < len(entries):
        entry = entries[i]
        i += 1
        if len(entry) < 4:
            continue
        xy, path = entry[:2], entry[3:]
        if xy == "??":
            untracked.append(path)
        elif xy != "!!":
            changed.append(path + ("" if xy[1] != " " else " (staged)"))
        if xy[0] in "RC":
            i += 1  # the rename's original path
    return changed, untracked


def clean_preview(root: str, argv: Sequence[str]) -> list[str] | None:
    """What ``git clean`` with the user's selection flags would remove (``git clean -n``)."""
    args = ["clean", "-n"]
    pathspecs: list[str] = []
    rest = list(argv[argv.index("clean") + 1 :]) if "clean" in argv else []
    while rest:
        arg = rest.pop(0)
        if arg == "--":
            pathspecs += rest
            break
        if arg in ("-e", "--exclude") and rest:
            args += ["-e", rest.pop(0)]
        elif arg.startswith("--exclude="):
            args.append(arg)
        elif arg.startswith("--"):
            continue
        elif arg.startswith("-"):
            args += [f"-{c}" for c in arg[1:] if c in "dxX"]
        else:
            pathspecs.append(arg)
    out = git(root, [*args, "--", *pathspecs] if pathspecs else args)
    if out is None:
        return None
    prefix = "Would remove "
    return [line[len(prefix) :] for line in out.splitlines() if line.startswith(prefix)]


def _listed(paths: list[str], what: str) -> str:
    n = len(paths)
    shown = ", ".join(paths[:SHOWN]) + (f", … ({n - SHOWN} more)" if n > SHOWN else "")
    return f"{n} {what}{'' if n == 1 else 's'} ({shown})"


def describe(changed: list[str] | None, untracked: list[str] | None) -> str:
    """One sentence naming what would be lost."""
    parts = []
    if changed:
        parts.append(_listed(changed, "modified file"))
    if untracked:
        parts.append(_listed(untracked, "untracked file"))
    if not parts:
        return "Nothing uncommitted would be lost here (git shows no modified or untracked files)."
    return "Uncommitted work it would destroy: " + " and ".join(parts) + "."


COULD_NOT_LOOK = (
    f"dcg could not ask git within {int(TIMEOUT * 1000)} ms which uncommitted files this "
    "reaches; assume uncommitted work may be lost."
)


# Which lookup answers "what is at risk" for a rule.
_TRACKED = ("reset-hard", "reset-merge", "checkout-force", "switch-discard")
_UNSTAGED = ("checkout-discard", "restore-worktree")
_DELETES = ("core.filesystem:rm-rf", "core.filesystem:rimraf", "core.filesystem:find-delete")


def _git_dir_arg(argv: Sequence[str], cwd: str) -> str:
    """``git -C DIR …`` runs in DIR."""
    for i, arg in enumerate(argv[:-1]):
        if arg == "-C":
            return os.path.join(cwd, argv[i + 1])
    return cwd


def _pathspecs(argv: Sequence[str]) -> list[str]:
    if "--" in argv:
        return list(argv[argv.index("--") + 1 :])
    sub = next((a for a in argv[1:] if a in ("checkout", "restore")), None)
    after = argv[argv.index(sub) + 1 :] if sub else ()
    return [a for a in after if not a.startswith("-")][1 if sub == "checkout" else 0 :]


def at_risk(rule_id: str, argv: Sequence[str], cwd: str) -> str:
    """A sentence naming the uncommitted files the matched command reaches ("" if none apply).

    Only after a match; at most one bounded git call.
    """
    pack, _, name = rule_id.partition(":")
    if pack == "core.git" and name in (*_TRACKED, *_UNSTAGED, "clean-force"):
        root = work_tree(_git_dir_arg(argv, cwd))
        if root is None:
            return ""
        if name == "clean-force":
            removed = clean_preview(root, argv)
            return COULD_NOT_LOOK if removed is None else describe(None, removed)
        specs = [os.path.relpath(os.path.join(cwd, p), root) for p in _pathspecs(argv)]
        got = status(root, specs if name in _UNSTAGED else (), with_untracked=False)
        if got is None:
            return COULD_NOT_LOOK
        changed = [c for c in got[0] if not (name in _UNSTAGED and c.endswith(" (staged)"))]
        return describe(changed, None)
    if rule_id in _DELETES:
        from dcg.targets import resolve, targets

        if "rimraf" in argv:
            words = [a for a in argv[argv.index("rimraf") + 1 :] if not a.startswith("-")]
        else:
            words = targets(tuple(argv))
        paths = [p for p in (resolve(w, cwd) for w in words) if p]
        roots = {work_tree(_existing(p)) for p in paths}
        roots.discard(None)
        if len(roots) != 1:
            return ""
        root = roots.pop()
        assert root is not None
        inside = [p for p in paths if p == root or p.startswith(root.rstrip("/") + "/")]
        got = status(root, [os.path.relpath(p, root) for p in inside])
        if got is None:
            return COULD_NOT_LOOK
        return describe(*got)
    return ""


def _existing(path: str) -> str:
    """``path`` or its nearest existing ancestor."""
    while not os.path.exists(path) and os.path.dirname(path) != path:
        path = os.path.dirname(path)
    return path
