"""Which arguments are data, not code: the table rules rely on to stay quiet on text."""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from dcg.shell.unwrap import Work

# Every argument of these commands is data: they print, look up or test, never run.
ALL_ARGS: dict[str, str] = {
    "echo": "echo argument",
    "printf": "printf argument",
    "true": "true argument",
    "false": "false argument",
    ":": "no-op argument",
    "man": "manual page name",
    "help": "help topic",
    "info": "info topic",
    "which": "command lookup",
    "type": "command lookup",
    "whatis": "manual lookup",
    "apropos": "manual lookup",
    "whereis": "command lookup",
}

# Search tools: (why, options whose value is the pattern, options taking another value).
# The first operand is the pattern unless a pattern option was given.
SEARCH: dict[str, tuple[str, tuple[str, ...], str, tuple[str, ...]]] = {
    "grep": ("grep pattern", ("-e", "--regexp", "-f", "--file"), "ABCmdD",
             ("context", "after-context", "before-context", "max-count", "label", "include",
              "exclude", "exclude-dir", "devices", "directories", "binary-files")),
    "rg": ("rg pattern", ("-e", "--regexp", "-f", "--file"), "ABCmgtTjMEd",
           ("glob", "iglob", "type", "type-not", "threads", "max-columns", "encoding", "sort",
            "sortr", "max-depth", "max-count", "context", "after-context", "before-context",
            "replace", "type-add", "pre", "pre-glob", "ignore-file")),
    "ag": ("ag pattern", (), "ABCmGg",
           ("context", "after", "before", "max-count", "file-search-regex", "ignore", "depth")),
    "ack": ("ack pattern", ("--match",), "ABCm",
            ("context", "after-context", "before-context", "max-count", "type", "ignore-dir")),
}  # fmt: skip
SEARCH["egrep"] = SEARCH["fgrep"] = SEARCH["zgrep"] = SEARCH["grep"]

# Options whose value is data, per command (and per git subcommand).
OPTION_VALUES: dict[str, tuple[str, tuple[str, ...]]] = {
    "curl": ("request data", ("-d", "--data", "--data-raw", "--data-binary", "--data-ascii",
                              "--data-urlencode", "--json", "-F", "--form", "--form-string",
                              "-H", "--header", "-A", "--user-agent")),
    "gh": ("gh text", ("--body", "-b", "--title", "-t", "--message", "-m", "--notes", "-n",
                       "-f", "--raw-field", "-F", "--field")),
    "glab": ("glab text", ("--description", "-d", "--title", "-t", "--message", "-m",
                           "--body", "-b", "--notes", "-N")),
    "git commit": ("commit message", ("-m", "--message", "-F", "--file")),
    "git tag": ("tag message", ("-m", "--message", "-F", "--file")),
    "git log": ("log search", ("--grep", "-S", "-G", "--author", "--committer")),
    "git shortlog": ("log search", ("--grep", "--author")),
    "git notes": ("note text", ("-m", "--message")),
    "git stash": ("stash message", ("-m", "--message")),
    "git merge": ("merge message", ("-m", "--message")),
}  # fmt: skip


def classify(w: Work) -> None:
    """Mark the data words of the (unwrapped) command in ``w.data``."""
    argv = w.argv
    name = argv[0]
    data = w.data
    why = ALL_ARGS.get(name)
    if why is None and name == "command" and any(a in ("-v", "-V") for a in argv[1:3]):
        why = "command lookup"
    if why is None and "--help" in argv[1:] and name not in _NO_HELP:
        end = argv.index("--") if "--" in argv else len(argv)
        why = "--help invocation" if "--help" in argv[1:end] else None
    if why is not None:
        for k in range(1, len(argv)):
            data.setdefault(k, why)
        return
    if name in SEARCH:
        _search(w, *SEARCH[name])
    elif name == "git" and len(argv) > 1:
        if argv[1] == "grep":
            _search(w, "git grep pattern", ("-e", "-f"), "ABCm", ("max-count", "context"), 2)
        elif f"git {argv[1]}" in OPTION_VALUES:
            _values(w, *OPTION_VALUES[f"git {argv[1]}"], start=2)
    elif name in OPTION_VALUES:
        _values(w, *OPTION_VALUES[name])
    elif name == "jq" or name == "gojq":
        _jq(w)
    elif name in ("sed", "gsed"):
        _sed(w)
    elif name in ("awk", "gawk", "mawk", "nawk"):
        _awk(w)


# A shell or interpreter given --help still runs its script argument first.
_NO_HELP = frozenset(("bash", "sh", "zsh", "dash", "ksh", "python", "node", "env", "sudo"))


def _values(w: Work, why: str, options: tuple[str, ...], start: int = 1) -> None:
    argv = w.argv
    for k in range(start, len(argv)):
        a = argv[k]
        if a == "--":
            return
        if a in options:
            if k + 1 < len(argv):
                w.data[k + 1] = why
        elif a.startswith("--") and a.partition("=")[0] in options:
            w.data[k] = why
        elif not a.startswith("--") and len(a) > 2 and a[:2] in options:
            w.data[k] = why  # -mMESSAGE: the value is attached
        elif a[:1] == "-" and a[1:].isalpha() and "-" + a[-1] in options and k + 1 < len(argv):
            w.data[k + 1] = why  # -am MESSAGE: the last flag of a cluster takes it


def _search(
    w: Work, why: str, pattern_opts: tuple[str, ...], short: str, long: tuple[str, ...],
    start: int = 1,
) -> None:  # fmt: skip
    argv = w.argv
    given = False
    k, n = start, len(argv)
    while k < n:
        a = argv[k]
        if a == "--":
            k += 1
            break
        if len(a) < 2 or a[0] != "-":
            break
        if a in pattern_opts:
            given = True
            if k + 1 < n:
                w.data[k + 1] = why
            k += 2
            continue
        if a.startswith("--"):
            given = given or a.partition("=")[0] in pattern_opts
            if a.partition("=")[0] in pattern_opts:
                w.data[k] = why
            k += 2 if "=" not in a and a[2:] in long else 1
            continue
        if a[:2] in pattern_opts:
            given = True
            w.data[k] = why
        elif a[-1] in short and all(ch not in short for ch in a[1:-1]):
            k += 1
        k += 1
    if not given and k < n:
        w.data[k] = why


def _jq(w: Work) -> None:
    argv = w.argv
    k, n = 1, len(argv)
    filt = True
    while k < n:
        a = argv[k]
        if a in ("--arg", "--argjson", "--slurpfile", "--rawfile"):
            for j in (k + 1, k + 2):
                if j < n:
                    w.data[j] = "jq argument"
            k += 3
            continue
        if a in ("-f", "--from-file"):
            filt = False
        elif a in ("--args", "--jsonargs"):
            for j in range(k + 1, n):
                w.data.setdefault(j, "jq argument")
        elif filt and not a.startswith("-"):
            w.data[k] = "jq filter"
            filt = False
        k += 1 + (a in ("--indent", "-L"))


def _sed(w: Work) -> None:
    argv = w.argv
    flags = [a for a in argv[1:] if a.startswith("-") and not a.startswith("--")]
    quiet = any("n" in a for a in flags) or any(a in ("--quiet", "--silent") for a in argv)
    in_place = any("i" in a for a in flags) or any(a.startswith("--in-place") for a in argv)
    if not quiet or in_place:
        return  # a sed script can write files (w, e commands): keep it as code
    script = False
    for k in range(1, len(argv)):
        if argv[k] in ("-e", "--expression") and k + 1 < len(argv):
            w.data[k + 1] = "sed -n script"
            script = True
    if not script:
        k = next((k for k in range(1, len(argv)) if not argv[k].startswith("-")), 0)
        if k:
            w.data[k] = "sed -n script"


def _awk(w: Work) -> None:
    argv = w.argv
    k, n = 1, len(argv)
    while k < n and argv[k].startswith("-") and argv[k] != "--":
        if argv[k] in ("-f", "--file"):
            return
        k += 2 if argv[k] in ("-F", "-v", "--assign", "--field-separator") else 1
    k += k < n and argv[k] == "--"
    if k < n and "system" not in argv[k] and "|" not in argv[k]:
        w.data[k] = "awk program"
