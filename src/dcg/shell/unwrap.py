"""Wrappers that run another command (sudo, env, timeout, xargs, …) and git's global options."""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from collections.abc import Callable

    # (kind, via label, text, argv): kind "sh" parses ``text`` as shell, "argv" runs
    # ``argv`` as a command, a language name hands ``text`` to the embedded analyzer.
    Payload = tuple[str, str, str, list[str]]


class Work:
    """A simple command being unwrapped and classified; becomes a Command."""

    __slots__ = ("argv", "assigns", "data", "dynamic", "dyns", "fed", "feed_files", "feeder",
                 "feeder_argv", "hooks", "infile", "installer", "names", "opaque", "payloads",
                 "piped", "positional", "source", "stdin", "via")  # fmt: skip

    def __init__(
        self, argv: list[str], dyns: list[bool], via: tuple[str, ...], stdin: str | None
    ) -> None:
        self.argv = argv
        self.dyns = dyns  # per argv word: an expansion in it stayed unresolved
        self.via = via
        self.data: dict[int, str] = {}  # argv index -> why that word is data
        self.payloads: list[Payload] = []
        self.dynamic = False  # forced, e.g. an unknowable payload piped to a shell
        self.stdin = stdin
        self.piped = False  # stdin comes from a pipe
        self.fed: str | None = None  # the text that pipe carries, when known
        self.feeder = ""  # the command word of the command feeding that pipe
        self.feeder_argv: list[str] = []  # and its words
        self.feed_files: list[str] = []  # the files `cat FILE… |` feeds into the pipe
        # The words of the command whose output reaches stdin unchanged (through tee, cat,
        # a subshell, `sh -c`), or whose output a here-string holds (dcg.shell.gitstream).
        self.source: list[str] = []
        # What will run but cannot be seen (decoded text piped into a shell, a computed
        # script, a shell escape fed a computed string): becomes a core.shell finding.
        self.opaque: str | None = None
        self.infile: str | None = None  # the target of a `<` redirection
        self.installer = False  # every substitution in the words only fetches (curl)
        # "$@" of a script run by `sh -c SCRIPT NAME ARGS…`, once the handler saw ARGS.
        self.positional: list[str] | None = None
        # `NAME=VALUE` before the command (or given to `env`): what it alone sees; None
        # for a value computed at run time.
        self.assigns: dict[str, str | None] = {}
        self.hooks: list[str] | None = None  # where a git command finds its hooks on disk
        # Where the words hold file names read at run time (a loop over a command's output,
        # `read` input): "args" in the arguments, "out" also in a `>` target, "" nowhere.
        self.names = ""

    def drop(self, start: int) -> None:
        self.argv = self.argv[start:]
        self.dyns = self.dyns[start:]
        self.data = {}


def normalize(word: str) -> str:
    """Command word as rules see it: basename, lower case, no .exe suffix."""
    base = word.rpartition("/")[2] or word
    base = base.rpartition("\\")[2] or base
    base = base.lower()
    return base[:-4] if base.endswith(".exe") and len(base) > 4 else base


def skip_options(argv: list[str], i: int, short: str = "", long: tuple[str, ...] = ()) -> int:
    """Index of the first operand at or after ``i``.

    ``short`` lists the option letters that take a value (attached or next word),
    ``long`` the long options (without dashes) that take the next word as value.
    """
    n = len(argv)
    while i < n:
        a = argv[i]
        if a == "--":
            return i + 1
        if len(a) < 2 or a[0] != "-":
            return i
        i += 1
        if a[1] == "-":
            if "=" not in a and a[2:] in long:
                i += 1
            continue
        for j in range(1, len(a)):
            if a[j] in short:
                i += j == len(a) - 1
                break
    return i


def operand(start: int, argv: list[str]) -> int:
    """``start`` when a command follows there, else -1 (the wrapper runs nothing)."""
    return start if start < len(argv) else -1


def _sudo(w: Work) -> int:
    argv = w.argv
    if any(a in ("-e", "--edit", "-l", "--list", "-V", "-K") for a in argv[1:3]):
        return -1
    long = ("user", "group", "close-from", "chdir", "host", "prompt", "role", "type",
            "other-user", "command-timeout", "chroot")  # fmt: skip
    i = skip_options(argv, 1, "ugCDprtUTR", long)
    while i < len(argv) and argv[i].partition("=")[0].isidentifier() and "=" in argv[i]:
        name, _, value = argv[i].partition("=")  # `sudo NAME=VALUE cmd` sets its environment
        w.assigns[name] = None if w.dyns[i] else value
        i += 1
    return operand(i, argv)


def _env(w: Work) -> int:
    argv = w.argv
    i, n = 1, len(argv)
    while i < n:
        a = argv[i]
        if a in ("-S", "--split-string") or a.startswith(("-S", "--split-string=")):
            last = i + 1 if a in ("-S", "--split-string") else i
            if last > i:
                script = argv[last] if last < n else ""
            else:
                script = a[15:] if a.startswith("--") else a[2:]
            for k in range(i, min(last, n - 1) + 1):
                w.data[k] = "env -S string (parsed)"
            rest = " ".join(argv[last + 1 :])
            w.payloads.append(("sh", "env -S", f"{script} {rest}".strip(), []))
            for k in range(last + 1, n):
                w.data[k] = "env -S arguments (parsed)"
            return -1
        if a == "--":
            i += 1
            break
        if a.startswith("-") and len(a) > 1:
            i += 2 if a in ("-u", "-C", "-P", "--unset", "--chdir") else 1
            continue
        if "=" in a[1:]:  # env sets any NAME=VALUE: `BASH_FUNC_ls%%=() { …; }` too
            name, _, value = a.partition("=")
            w.assigns[name] = None if w.dyns[i] else value
            i += 1
            continue
        break
    while i < n and "=" in argv[i][1:]:
        name, _, value = argv[i].partition("=")
        w.assigns[name] = None if w.dyns[i] else value
        i += 1
    return operand(i, argv)


def _command(w: Work) -> int:
    i = 1
    while i < len(w.argv) and w.argv[i].startswith("-") and w.argv[i] != "--":
        if "v" in w.argv[i] or "V" in w.argv[i]:
            return -1  # command -v NAME is a query; context makes its arguments data
        i += 1
    return operand(i + (i < len(w.argv) and w.argv[i] == "--"), w.argv)


def _timeout(w: Work) -> int:
    i = skip_options(w.argv, 1, "ks", ("kill-after", "signal"))
    return operand(i + 1, w.argv)  # the DURATION operand


def _ionice(w: Work) -> int:
    if any(a.startswith("-p") or a.startswith("-P") or a == "--pid" for a in w.argv[1:3]):
        return -1
    return operand(skip_options(w.argv, 1, "cn", ("class", "classdata")), w.argv)


def _xargs(w: Work) -> int:
    long = ("max-args", "max-procs", "max-chars", "delimiter", "arg-file", "max-lines",
            "process-slot-var")  # fmt: skip
    return operand(skip_options(w.argv, 1, "InPsELdaR", long), w.argv)


def _flock(w: Work) -> int:
    """``flock [opts] FILE CMD…`` or ``flock [opts] FILE -c STRING``."""
    argv = w.argv
    for k in range(1, len(argv) - 1):
        if argv[k] in ("-c", "--command"):
            w.data[k + 1] = "command run by flock -c (parsed)"
            w.payloads.append(("sh", "flock -c", argv[k + 1], []))
            return -1
    i = skip_options(argv, 1, "wE", ("timeout", "conflict-exit-code"))
    return operand(i + 1, argv)  # the lock file, then the command


def _script(w: Work) -> int:
    """``script -c CMD`` (also ``-qc CMD``, ``--command=CMD``) runs CMD in a shell."""
    argv = w.argv
    for k in range(1, len(argv)):
        a = argv[k]
        if a.startswith("--command="):
            w.payloads.append(("sh", "script -c", a[10:], []))
            w.data[k] = "command run by script (parsed)"
            return -1
        if (a == "--command" or (a[:1] == "-" and a[1:2] != "-" and "c" in a)) and k + 1 < len(
            argv
        ):
            w.payloads.append(("sh", "script -c", argv[k + 1], []))
            w.data[k + 1] = "command run by script (parsed)"
            return -1
    return -1


def _simple(short: str = "", long: tuple[str, ...] = ()) -> Callable[[Work], int]:
    def unwrap(w: Work) -> int:
        return operand(skip_options(w.argv, 1, short, long), w.argv)

    return unwrap


# GNU parallel's replacement strings for a name made from the input: without extension,
# basename, dirname, basename without extension.
_DERIVED = ("{.}", "{/}", "{//}", "{/.}")


def parallel_braces(opts: list[str], cmd: str) -> str:
    """GNU parallel's command with its input written as ``{}``: ``-I STR``/``--replace STR``
    (``--replace=STR``), and ``{1}``, the first input source, is ``{}``."""
    for k, o in enumerate(opts):
        value = opts[k + 1] if k + 1 < len(opts) else ""
        replace = value if o == "-I" else ""
        replace = o.partition("=")[2] if o.startswith("--replace=") else replace
        replace = o[2:] if o.startswith("-I") and len(o) > 2 and "=" not in o else replace
        if replace and replace != "{}":
            cmd = cmd.replace(replace, "{}")
    return cmd.replace("{1}", "{}")


def parallel_arg(cmd: str, a: str) -> str:
    """The command one argument of ``:::`` runs: quoted in place of ``{}`` and of the names
    made from it (``{.}``, ``{/}``, ``{//}``, ``{/.}``), or after the command."""
    if not a:
        return cmd

    def q(x: str) -> str:
        return "'" + x.replace("'", "'\\''") + "'"

    if "{}" not in cmd and not any(d in cmd for d in _DERIVED):
        return f"{cmd} {q(a)}"
    base = a.rpartition("/")[2]
    stem = a[: len(a) - len(base)] + (base.rpartition(".")[0] or base)
    made = {"{//}": a.rpartition("/")[0] or ".", "{/.}": base.rpartition(".")[0] or base,
            "{/}": base, "{.}": stem}  # fmt: skip
    for brace, value in made.items():
        cmd = cmd.replace(brace, q(value))
    return cmd.replace("{}", q(a))
