"""What a deletion could reach: resolve rm/find targets against cwd and $HOME.

Targets are judged by the worst thing they could expand to: ``~``, ``$HOME`` and
``${HOME}`` are the home directory, ``.``/``..`` are resolved against the payload's
cwd, ``*`` at a directory root is that directory, and a variable the command line
never set may be empty (``"$BUILD_DIR/"`` may be ``/``).
"""

from __future__ import annotations

from dcg import oslite as os
from dcg.oslite import path as posixpath
from dcg.shell.expand import has_glob, path_match

# typing is not imported at run time: it costs more than the hook's whole budget.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.shell.command import Command

# Deleting these, or the home directory, is unrecoverable for the machine or the user.
SYSTEM_DIRS = frozenset(
    {
        "/",
        "/bin",
        "/boot",
        "/dev",
        "/etc",
        "/home",
        "/lib",
        "/lib32",
        "/lib64",
        "/libx32",
        "/media",
        "/mnt",
        "/opt",
        "/proc",
        "/root",
        "/run",
        "/sbin",
        "/snap",
        "/srv",
        "/sys",
        "/usr",
        "/var",
        "/Users",
        "/Applications",
        "/Library",
        "/System",
        "/Volumes",
        "/private",
        "/private/etc",
        "/private/var",
        "/nix",
        "/nix/store",
        "/usr/bin",
        "/usr/sbin",
        "/usr/lib",
        "/usr/lib64",
        "/usr/local",
        "/usr/local/bin",
        "/usr/local/lib",
        "/usr/share",
        "/usr/include",
        "/var/lib",
        "/var/log",
        "/var/cache",
        "/var/spool",
        "/var/mail",
        "/var/www",
        "/var/backups",
    }
)
# Everything below these belongs to the operating system.
SYSTEM_TREES = (
    "/bin/",
    "/boot/",
    "/dev/",
    "/etc/",
    "/lib/",
    "/lib32/",
    "/lib64/",
    "/proc/",
    "/sbin/",
    "/sys/",
    "/usr/",
    "/System/",
    "/private/etc/",
)
# Directories in a home whose loss is as bad as losing the home itself.
HOME_CRITICAL = frozenset(
    {".ssh", ".gnupg", ".aws", ".kube", ".config", ".local", ".docker", "Documents", "Desktop"}
)
TEMP_ROOTS = ("/tmp", "/var/tmp", "/dev/shm", "/private/tmp", "/private/var/tmp")

HOME_TOKEN = "\x00home"


def home() -> str:
    return os.environ.get("HOME") or os.path.expanduser("~")


def temp_roots() -> tuple[str, ...]:
    tmpdir = os.environ.get("TMPDIR", "").rstrip("/")
    return (*TEMP_ROOTS, tmpdir) if tmpdir else TEMP_ROOTS


def _expand(word: str) -> str:
    """Expand the parts of a target word that have a known worst case."""
    # PowerShell paths: C:\x, $env:TEMP\x, ~\x.
    w = (
        word.replace("\\", "/")
        if (":" in word[:3] or "$env:" in word or word[:2] == "~\\")
        else word
    )
    if len(w) >= 2 and w[1] == ":" and w[0].isalpha():  # C:\ from PowerShell
        w = "/" + w[2:].lstrip("/")
    for token in ("${HOME}", "$HOME", "$env:USERPROFILE", "$env:HOME", "${env:USERPROFILE}"):
        w = w.replace(token, HOME_TOKEN)
    if w == "~" or w.startswith("~/"):
        w = HOME_TOKEN + w[1:]
    elif w.startswith("~"):  # ~user: someone's home
        w = "/home/" + w[1:]
    for token in ("$env:TEMP", "$env:TMP", "${env:TEMP}", "${env:TMP}"):
        w = w.replace(token, "/tmp")
    if "${" in w:
        w = _temp_defaults(w)
    if "$T" in w or "${T" in w:
        w = _temp_vars(w)
    # Any other variable may be unset or empty: drop it and judge what remains.
    while "$" in w:
        i = w.index("$")
        j = i + 1
        if j < len(w) and w[j] == "{":
            k = w.find("}", j)
            j = len(w) if k < 0 else k + 1
        else:
            while j < len(w) and (w[j].isalnum() or w[j] == "_"):
                j += 1
            if j == i + 1:  # a lone "$"
                j += 1
        w = w[:i] + w[j:]
    return w


# ${TMPDIR:-/tmp}, ${TMPDIR:=/var/tmp}, ${TMP-/tmp}, ${TMPDIR:?}: a temp directory either way.
_TEMP_VARS = ("TMPDIR", "TMP", "TEMP", "TEMPDIR")


def _temp_defaults(w: str) -> str:
    for var in _TEMP_VARS:
        start = w.find("${" + var)
        while start >= 0:
            end = w.find("}", start)
            if end < 0:
                break
            op = w[start + 2 + len(var) : end]
            default = op.lstrip(":")[1:] if op[:1] in (":", "-", "=", "?") else None
            if op and default is None:
                break
            if not op:  # plain ${TMPDIR}: the hook's own value (_temp_vars)
                start = w.find("${" + var, end)
                continue
            # The variable is temp; a default that is not a temp root is judged as written.
            if default and op.lstrip(":")[:1] in "-=" and default.rstrip("/") not in TEMP_ROOTS:
                value = default
            else:
                value = "/tmp"
            w = w[:start] + value + w[end + 1 :]
            start = w.find("${" + var, start + len(value))
    return w


def _temp_vars(w: str) -> str:
    """``$TMPDIR``/``${TMP}``…: the hook's own value, and nothing when it is unset (the
    shell expands an unset variable to nothing: ``$TMPDIR/home`` is then ``/home``)."""
    for var in _TEMP_VARS:
        for token in ("${" + var + "}", "$" + var):
            start = w.find(token)
            while start >= 0:
                end = start + len(token)
                if token[1] != "{" and end < len(w) and (w[end].isalnum() or w[end] == "_"):
                    start = w.find(token, end)
                    continue
                value = os.environ.get(var, "")
                w = w[:start] + value + w[end:]
                start = w.find(token, start + len(value))
    return w


def mktemp_output(args: list[str]) -> str | None:
    """What ``$(mktemp ARGS)`` prints, as far as it matters: a path in a temp directory.

    With ``-p DIR``/``--tmpdir=DIR`` the name is in DIR; a template without ``-t``/``-p``
    is relative to the cwd (judged like any other path). None when it cannot be told.
    """
    tmpdir: str | None = None
    template = ""
    it = iter(args)
    for arg in it:
        if arg in ("-p", "--tmpdir"):
            tmpdir = next(it, None)
            if tmpdir is None:
                return None
        elif arg.startswith("--tmpdir="):
            tmpdir = arg.partition("=")[2] or "/tmp"
        elif arg.startswith("-p") and len(arg) > 2:
            tmpdir = arg[2:]
        elif arg == "-t" or (arg[:1] == "-" and arg[1:2] != "-" and "t" in arg[1:]):
            tmpdir = tmpdir or "/tmp"
        elif arg.startswith("--suffix="):
            continue
        elif not arg.startswith("-"):
            template = arg
    if not template:
        return posixpath.join(tmpdir or "/tmp", "tmp.XXXXXXXXXX")
    if tmpdir is None:
        return template
    return posixpath.join(tmpdir, posixpath.basename(template))


def resolve(word: str, cwd: str) -> str | None:
    """Absolute, normalised path a target word could name; None for an empty word."""
    w = _expand(word)
    if not w:
        return None
    h = home()
    w = w.replace(HOME_TOKEN, h)
    # A trailing glob at a directory deletes that directory's content: judge the directory.
    while w.endswith("*") or w.endswith("/*") or w.endswith("/.*"):
        # `*` alone is the cwd's content; `/*` the root's
        w = w.rstrip("*").rstrip(".").rstrip("/") or ("/" if w.startswith("/") else ".")
    if not w.startswith("/"):
        w = posixpath.join(cwd or os.getcwd(), w)
    return posixpath.normpath(w).replace("//", "/")


def is_critical(path: str) -> bool:
    """Root, the home directory (and its key subdirectories), or a system directory."""
    h = posixpath.normpath(home())
    if path in SYSTEM_DIRS or path == h:
        return True
    if path.startswith(SYSTEM_TREES):
        return True
    parent, name = posixpath.split(path)
    return parent == h and name in HOME_CRITICAL


def is_temp(path: str) -> bool:
    """Strictly inside a temp directory (the temp directory itself does not count).

    The home directory is never temp, even where it lives below one (a CI runner's or a
    test's HOME under /tmp): what is in it is the user's.
    """
    h = posixpath.normpath(home())
    if path == h or path.startswith(h.rstrip("/") + "/"):
        return False
    return any(path.startswith(root.rstrip("/") + "/") for root in temp_roots())


_RM_LONG = ("--recursive", "--force", "--interactive", "--one-file-system", "--no-preserve-root",
            "--preserve-root", "--dir", "--verbose", "--help", "--version")  # fmt: skip


def _long_option(arg: str) -> str:
    """GNU tools accept any unambiguous prefix of a long option (`--recur` = `--recursive`)."""
    name = arg.partition("=")[0]
    hits = [o for o in _RM_LONG if o.startswith(name)]
    return hits[0] if len(hits) == 1 else name


def rm_operands(argv: tuple[str, ...]) -> tuple[set[str], list[str]]:
    """Split an rm argv into its option letters/names and its operands."""
    opts: set[str] = set()
    operands: list[str] = []
    end_of_opts = False
    for arg in argv[1:]:
        if end_of_opts or arg == "-" or not arg.startswith("-"):
            operands.append(arg)
        elif arg == "--":
            end_of_opts = True
        elif arg.startswith("--"):
            opts.add(_long_option(arg))
        else:
            opts.update(arg[1:])
    return opts, operands


def rm_recursive(opts: set[str]) -> bool:
    return bool(opts & {"r", "R", "--recursive"})


def rm_forced(opts: set[str]) -> bool:
    return bool(opts & {"f", "--force"})


def find_roots(argv: tuple[str, ...]) -> list[str]:
    """The starting points of a find command (words before the first expression)."""
    roots: list[str] = []
    for arg in argv[1:]:
        if arg.startswith("-") or arg in ("(", "!", ")"):
            if arg in ("-H", "-L", "-P") and not roots:
                continue
            break
        roots.append(arg)
    return roots or ["."]


def targets(argv: tuple[str, ...]) -> list[str]:
    if argv and argv[0] == "find":
        return find_roots(argv)
    # `{}` is find -exec's placeholder: the find command itself is judged by its roots.
    return [t for t in rm_operands(argv)[1] if t != "{}"]


_DELETERS = frozenset({"rm", "shred", "unlink", "rmdir"})


def find_deletes(argv: tuple[str, ...]) -> bool:
    """find with -delete, or -exec/-execdir/-ok running a deleting program."""
    for i, arg in enumerate(argv):
        if arg == "-delete":
            return True
        if arg in ("-exec", "-execdir", "-ok", "-okdir") and i + 1 < len(argv):
            program = argv[i + 1].rsplit("/", 1)[-1].lower()
            if program in _DELETERS:
                return True
    return False


def find_delete_critical(command: Command, cwd: str) -> bool:
    """Rule check for find: it deletes and a starting point is critical."""
    return find_deletes(command.argv) and any_critical(command, cwd)


def any_critical(command: Command, cwd: str) -> bool:
    """Rule check: a target of this rm/find could be root, home or a system directory.

    A glob is judged by what it could match (``/h*`` may be ``/home``), and a path in a
    temp directory by where its symlinks lead (``/tmp/x/*`` with ``/tmp/x -> ~``).
    """
    argv = command.argv
    if argv and argv[0] == "rm" and "--no-preserve-root" in rm_operands(argv)[0]:
        return True
    for word in targets(argv):
        path = resolve(word, cwd)
        if path is None:
            continue
        if is_critical(path) or (is_temp(path) and is_critical(os.path.realpath(path))):
            return True
        if has_glob(word) and glob_critical(word, cwd):
            return True
    return False


def glob_critical(word: str, cwd: str) -> bool:
    """A glob target that could match root, the home directory, a directory in it that
    matters as much, or a system directory."""
    w = _expand(word).replace(HOME_TOKEN, home())
    if not w.startswith("/"):
        w = posixpath.join(cwd or os.getcwd(), w)
    pattern = posixpath.normpath(w)
    if not has_glob(pattern):
        return False
    h = posixpath.normpath(home())
    candidates = [*SYSTEM_DIRS, h, *(posixpath.join(h, d) for d in HOME_CRITICAL)]
    return any(path_match(pattern, c) for c in candidates if c != "/")


# Wrappers that hand the deleting command its operands at run time.
FEEDERS = ("xargs", "parallel", "find")


def recursive_critical(command: Command, cwd: str) -> bool:
    """Rule check for rm: recursive (forced or not) and a target is critical."""
    argv = command.argv
    return rm_recursive(rm_operands(argv)[0]) and any_critical(command, cwd)


def over_ssh(command: Command, cwd: str) -> bool:
    """Rule check: the command is the payload of an ssh call (it runs on another host)."""
    # The parser unwraps the remote payload into its own simple commands; only those
    # concern the remote packs (local ones belong to the core and system packs).
    return "ssh" in command.via
