"""The walker's variable table beyond plain variables: cd, declarations, "$@".

Keys that start with a NUL are dcg's own (no shell variable can have one).
"""

from __future__ import annotations

from dcg.shell.state import BASE, CWD, POSITIONAL
from dcg.shell.state import BASE as START

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from dcg.shell.command import Command
    from dcg.shell.state import Vars

# The directory `cd`/`pushd` moved to earlier on the line, kept in the variable table
# (dcg.selfguard resolves it against the payload cwd); UNKNOWN when it cannot be known.
UNKNOWN = "\x00?"
CHDIR = frozenset(("cd", "pushd", "popd"))
_OLD = "\x00oldcwd"  # where the line was before its last cd (for `cd -`)


# Variables whose value dcg.selfguard knows (the hook runs in the agent's environment) and
# that relocate dcg's own files: `d=$XDG_CONFIG_HOME; … $d/dcg` stays judged as dcg's.
KNOWN_VARS = ("HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME",
              "DCG_SESSION_DIR", "DCG_CONFIG", "DCG_SYSTEM_DIR")  # fmt: skip


_ENV_BUILTINS = frozenset(("export", "declare", "typeset", "local", "readonly", "unset"))


def policy_env(names: list[str], argv: list[str], via: tuple[str, ...], out: list[Command]) -> None:
    """A command that sets or removes one of dcg's policy variables (``dcg.paths.POLICY_ENV``)
    for what it starts (``DCG_PACKS=none codex …``, ``env``/``sudo DCG_X=… cmd``,
    ``export``/``declare``/``unset`` of one, ``env -u NAME``) changes dcg's protection: it
    is judged as the ``dcg config`` change it amounts to (core.dcg)."""
    if argv[:1] == ["env"]:
        names = names + [argv[k + 1] for k in range(1, len(argv) - 1) if argv[k] == "-u"]
        names += [a.partition("=")[2] for a in argv[1:] if a.startswith("--unset=")]
    elif argv[:1] and argv[0] in _ENV_BUILTINS:
        names = names + [a.partition("=")[0] for a in argv[1:] if a[:1] != "-"]
    for name in names:
        if name[:4] == "DCG_":
            from dcg.paths import POLICY_ENV

            if name in POLICY_ENV:
                from dcg.shell.command import Command

                out.append(Command(("dcg", "config", "set-env", name), via=(*via, name)))
                return


def started_env(argv: list[str], assigns: dict[str, str | None], env: Vars,
                via: tuple[str, ...], out: list[Command]) -> None:  # fmt: skip
    """What a command's environment (``env``/``sudo``/prefix assignments, and variables the
    line set before it) and options do to dcg: one of its policy variables
    (:func:`policy_env`), or an agent started without the settings dcg's hook is in
    (dcg.shell.agentenv)."""
    if assigns:
        policy_env(list(assigns), [], via, out)
    names = [*assigns, *env]
    from dcg.shell import agentenv

    if not agentenv.may_start(argv, names):
        return
    if how := agentenv.unguarded(argv, names):
        from dcg.shell.command import Command

        out.append(Command(("dcg", "config", "set-env", how), via=(*via, f"{argv[0]} {how}")))


def known(name: str, value: str) -> bool:
    """A value computed from variables that stays as written: :func:`home_only`, or a
    ``PATH=bin:$PATH`` whose directories put in front are known (dcg.shell.gitexternal)."""
    if name.rstrip("+") == "PATH" and ":" in value:
        parts = value.split(":")
        return all(p in ("$PATH", "${PATH}") or not ("$" in p or "`" in p) for p in parts)
    return home_only(value)


def home_only(word: str) -> bool:
    """`$HOME/…` (or another of :data:`KNOWN_VARS`) with no other expansion, also each
    element of a `:` list such as a CDPATH: dcg.selfguard knows what it is."""
    if ":" in word:
        parts = word.split(":")
        return any(parts) and all(home_only(p) or not ("$" in p or "`" in p) for p in parts)
    for var in KNOWN_VARS:
        for prefix in (f"${var}", f"${{{var}}}"):
            if word == prefix or word.startswith(prefix + "/"):
                return "$" not in word[len(prefix) :] and "`" not in word
    return False


def chdir(
    argv: list[str],
    dyns: list[bool],
    env: Vars,
    assigns: dict[str, str | None] | None = None,
    before: Sequence[Command] = (),
) -> None:
    """Where ``cd``/``pushd``/``popd`` moves the line (``before``: the commands that ran
    earlier on the line, for :func:`_sure`)."""
    args = [(a, d) for a, d in zip(argv[1:], dyns[1:], strict=True) if not a.startswith("-")]
    old = env.get(CWD)
    if args and args[0][1] and home_only(args[0][0]):
        args[0] = (args[0][0], False)
    elif args and args[0][1] and "TMPDIR" not in env:  # the agent's own, as bash has it
        args[0] = _tmpdir(args[0])
    back = env.get(_OLD) if argv[0] == "cd" and argv[1:] == ["-"] and _OLD in env else None
    if back is not None and back != UNKNOWN:  # `cd -`: back where the line was
        env[_OLD] = old if old is not None else env.get(BASE)
        env[CWD] = back
        _pwd(env)
        return
    if argv[0] == "popd" or any(a == "-" for a in argv[1:]) or (args and args[0][1]):
        env[CWD] = UNKNOWN
        _pwd(env)
        return
    target = args[0][0] if args else "~"
    target = _cdpath(target, old, env, assigns) or target
    if old == UNKNOWN and not target.startswith(("/", "~")):
        return
    env[_OLD] = old if old is not None else env.get(BASE)
    if old is None or target.startswith(("/", "~", "$HOME")):
        env[CWD] = target
    else:
        env[CWD] = old.rstrip("/") + "/" + target
    _pwd(env)
    if _sure(env, before):
        env.state.cwd_sure = env[CWD]


# Commands before a cd that cannot make its directory go away (`mkdir -p d; cd d; …`).
_STEADY = frozenset(("cd", "pushd", "mktemp", "mkdir", "echo", "printf", "pwd", "true", ":",
                     "export", "ls", "set"))  # fmt: skip


def _sure(env: Vars, before: Sequence[Command]) -> bool:
    """A cd on its own (``cd D; rm -rf x``) certainly succeeds when D is a directory now and
    nothing earlier on the line could have removed it: the later commands run in D."""
    if any(c.argv[:1] and c.argv[0] not in _STEADY for c in before):
        return False
    where, start = env.get("PWD"), env.get(START)
    from dcg.oslite import path

    return bool(where and start and path.isdir(where) and (env.get(CWD) or "")[:1] != "~")


def _tmpdir(arg: tuple[str, bool]) -> tuple[str, bool]:
    """``cd "$TMPDIR"``/``cd "$TMPDIR/x"``: the agent's temp directory, which the hook's
    environment holds (an empty or unset one leaves the cd unknown)."""
    word = arg[0]
    for name in ("$TMPDIR", "${TMPDIR}"):
        rest = word[len(name) :]
        if word.startswith(name) and rest[:1] in ("", "/") and "$" not in rest and "`" not in rest:
            from dcg.oslite import environ

            tmp = environ.get("TMPDIR", "")
            return (tmp.rstrip("/") + rest, False) if tmp.startswith("/") else arg
    return arg


def _pwd(env: dict[str, str | None]) -> None:
    """``$PWD`` after a cd: the payload's cwd joined with where the line moved (None when
    that is unknown, or a home-relative path dcg leaves to its readers)."""
    if "PWD" not in env:
        return
    here, start = env.get(CWD), env.get(START)
    if here is None or here == UNKNOWN or here.startswith(("~", "$")) or start is None:
        env["PWD"] = None
        return
    from dcg.oslite import path

    env["PWD"] = path.normpath(path.join(start, here))


def _cdpath(
    target: str,
    old: str | None,
    env: dict[str, str | None],
    assigns: dict[str, str | None] | None,
) -> str | None:
    """Where ``cd DIR`` goes through ``CDPATH`` (set for this cd, on the line, or in the
    environment): the first entry holding DIR, as bash looks (None: CDPATH not used)."""
    if target.startswith(("/", "~", "$", "./", "../")) or target in (".", ".."):
        return None
    if assigns is not None and "CDPATH" in assigns:
        cdpath = assigns["CDPATH"]
    elif "CDPATH" in env:
        cdpath = env["CDPATH"]
    else:
        from dcg.oslite import environ

        cdpath = environ.get("CDPATH")
    if not cdpath:
        return None
    from dcg import oslite as os

    here = old if old not in (None, UNKNOWN) else None
    base = env.get(BASE) or os.getcwd()
    from dcg.oslite import environ

    for entry in cdpath.split(":"):
        entry = entry or "."
        for var in ("$HOME", "${HOME}"):
            if entry.startswith(var) and environ.get("HOME"):
                entry = environ["HOME"] + entry[len(var) :]
        if not entry.startswith(("/", "~")) and here is not None:
            entry = here.rstrip("/") + "/" + entry
        candidate = entry.rstrip("/") + "/" + target
        full = os.path.expanduser(candidate) if candidate.startswith("~") else candidate
        if os.path.isdir(os.path.join(base, full)):
            return candidate
    return None


# The payload's cwd (dcg.shell.gitalias keeps it in the table under this key).
# Options of wrappers (and git) that run the wrapped command in another directory.
_WRAPPER_DIRS = {
    "env": ("-C", "--chdir"),
    "sudo": ("-D", "--chdir"),
    "run0": ("-D", "--chdir"),
    "nsenter": ("-w", "--wd"),
    "unshare": ("--wd",),
    "start-stop-daemon": ("-d", "--chdir"),
    "git": ("-C", "--work-tree"),
}


def wrapper_dir(name: str, argv: list[str], assigns: dict[str, str | None]) -> None:
    """``env -C DIR``, ``sudo -D DIR``, ``git -C DIR``: the wrapped command's own directory,
    kept in ``assigns`` (relative to any such directory before it)."""
    options = _WRAPPER_DIRS.get(name)
    if options is None:
        return
    if name == "git" and assigns.get("GIT_WORK_TREE"):  # `GIT_WORK_TREE=~ git …`
        argv = [argv[0], "--work-tree", str(assigns["GIT_WORK_TREE"]), *argv[1:]]
    skip = False
    for k, a in enumerate(argv[1:], 1):
        if skip:
            skip = False
            continue
        if name == "git" and not a.startswith("-"):
            break  # git's own options end at the subcommand
        skip = name == "git" and a in ("-C", "-c", "--git-dir", "--work-tree", "--namespace")
        value = None
        for opt in options:
            if a == opt and k + 1 < len(argv):
                value = argv[k + 1]
            elif a.startswith(opt + "=") or (len(opt) == 2 and a.startswith(opt) and len(a) > 2):
                value = a[len(opt) + (a[len(opt)] == "=") :]
        if value is None:
            continue
        own = assigns.get(CWD)
        if value.startswith(("/", "~", "$")) or own is None:
            assigns[CWD] = value
        elif own != UNKNOWN:
            assigns[CWD] = own.rstrip("/") + "/" + value


def command_cwd(assigns: dict[str, str | None], env: dict[str, str | None]) -> str | None:
    """The directory a command runs in: the line's (``cd``), then its wrappers' own."""
    line = env.get(CWD)
    if CWD not in assigns:
        return line
    own = assigns[CWD]
    if own is None or own == UNKNOWN:
        return UNKNOWN
    if own.startswith(("/", "~", "$")) or line is None:
        return own
    return UNKNOWN if line == UNKNOWN else line.rstrip("/") + "/" + own


def set_positional(env: dict[str, str | None], args: Sequence[str | None]) -> None:
    """Remember "$@" / "$1"… (after `set -- ARGS` or for `sh -c SCRIPT NAME ARGS`); None
    is an argument known only at run time."""
    env[POSITIONAL] = None if None in args else " ".join(a for a in args if a is not None)
    for k in range(1, 10):
        env[POSITIONAL + str(k)] = args[k - 1] if k <= len(args) else ""
    env[POSITIONAL + "#"] = None if None in args else str(len(args))  # $#
    env[POSITIONAL + "n"] = str(len(args))  # the words dcg saw (dcg.shell.cases.known_args)


def positional_builtin(argv: list[str], dyns: list[bool], env: dict[str, str | None]) -> None:
    """``set -- ARGS`` (or ``set ARGS``) and ``shift [N]`` on the positional parameters."""
    if argv[0] == "set":
        if len(argv) > 1 and (argv[1] == "--" or argv[1][:1] not in "-+"):
            set_positional(env, argv[2:] if argv[1] == "--" else argv[1:])
        return
    if POSITIONAL not in env:
        return  # the agent's shell's own: unknown already
    count = env.get(POSITIONAL + "#")
    by = argv[1] if len(argv) > 1 else "1"
    if count is None or int(count) > 9 or any(dyns[1:]) or not by.isdigit() or len(argv) > 2:
        for key in ("", "#", "n", *(str(k) for k in range(1, 10))):
            env[POSITIONAL + key] = None
    elif int(by) <= int(count):  # shifting more than there are fails and changes nothing
        args = [env.get(POSITIONAL + str(k)) for k in range(1, int(count) + 1)]
        set_positional(env, args[int(by) :])


def positional_args(env: dict[str, str | None]) -> list[str] | None:
    """ "$1" "$2" … as the line set them (``set --``), None when unknown; none before
    (agents run the line as ``bash -c LINE``)."""
    if POSITIONAL not in env:
        return []
    full = env.get(POSITIONAL)
    if full is None:
        return None
    args = [env.get(POSITIONAL + str(k)) or "" for k in range(1, 10)]
    while args and not args[-1]:
        args.pop()
    return args if " ".join(args) == full else full.split(" ") if full else []


def declare(argv: list[str], dyns: list[bool], env: dict[str, str | None]) -> None:
    for a, dyn in zip(argv[1:], dyns[1:], strict=True):
        name, eq, value = a.partition("=")
        if name.startswith("-") or not name:
            continue
        if not eq and argv[0] in ("export", "readonly", "declare", "typeset") and name in env:
            continue  # `readonly c`, `export c`: the value stays
        unknown = (dyn and not known(name, value)) or not eq or argv[0] == "read"
        env[name] = None if unknown else value


def apply_pins(env: Vars) -> None:
    """Put back, before a command, the readonly values and the unknown trap-set names."""
    for var, value in env.state.pins.items():
        env[var] = None if value is None or value == "\x00?" else value
