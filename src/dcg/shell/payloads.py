"""Commands that run a payload: shells, eval, interpreters, ssh, docker/kubectl exec, find -exec …

Each handler marks the payload words of its command as data (they are judged as
commands of their own instead) and queues the payload on the ``Work``.
"""

from __future__ import annotations

from dcg.shell.opaque import FETCHERS
from dcg.shell.optgrammar import parse, shell_options, timeit_code
from dcg.shell.unwrap import normalize, parallel_arg, parallel_braces, skip_options

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from dcg.shell.state import Vars
    from dcg.shell.unwrap import Work

SHELLS = frozenset(("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "fish", "busybox"))


def _fed(w: Work, kind: str, name: str) -> None:
    """Queue what a shell or interpreter reads on stdin, or flag it as unknowable."""
    text = w.stdin if w.stdin is not None else w.fed
    if text is not None:
        w.payloads.append((kind, f"stdin of {name}", text, []))
    elif w.piped:
        w.dynamic = True
        w.via = (*w.via, "pipe to sh" if kind == "sh" else f"pipe to {name}")
        if w.feeder not in FETCHERS:  # `curl … | sh` is the documented installer limit
            source = f"the output of {w.feeder}" if w.feeder else "the output of a compound command"
            w.opaque = f"{source} is piped into {name} as code"
    elif (
        w.infile is not None
        and w.infile.startswith(("<(", "/dev/fd/", "/proc/self/fd/"))
        and not w.installer
    ):
        w.opaque = f"{name} reads code from a process substitution"


def _shell(w: Work) -> None:
    argv = w.argv
    name = normalize(argv[0])
    i, n = 1, len(argv)
    if name == "busybox":
        if n < 2 or normalize(argv[1]) not in SHELLS:
            return
        i, name = 2, normalize(argv[1])
    i, cflag, sflag = shell_options(argv, i)
    if cflag:
        if (i >= n or argv[i].strip()[:2] in ("{}", "%")) and _fed_names(w):
            # `xargs sh -c`, `xargs -I{} sh -c {}`: the words read at run time are the code
            w.opaque = f"{name} -c runs what {w.via[-1].split(' ')[0]} reads from its input"
        if i < n:
            w.data[i] = f"script run by {name} -c (parsed)"
            if not (w.installer and "$(…)" in argv[i]):
                w.payloads.append(("sh", f"{name} -c", argv[i], []))
            _positional(w, i + 2, f"{name} -c")
    elif i >= n or sflag:
        _fed(w, "sh", name)
    elif argv[i].startswith(("<(", "/dev/fd/", "/proc/self/fd/", "/dev/stdin")):
        if argv[i].startswith("/dev/stdin"):
            _fed(w, "sh", name)
        elif not w.installer:
            w.opaque = f"{name} runs a script from a process substitution"


def _fed_names(w: Work) -> bool:
    """The command's words come from xargs, find -exec or parallel (a ``{}`` there is a
    name read at run time, so ``xargs -I{} bash -c {}`` runs its input as code)."""
    return any(v.split(" ")[0] in ("xargs", "find", "parallel") for v in w.via)


def _source(w: Work) -> None:
    """`source FILE` / `. FILE`: a process substitution or stdin as FILE is unseen code."""
    argv = w.argv
    if len(argv) < 2:
        return
    target = argv[1]
    if target.startswith(("/dev/stdin", "/dev/fd/0", "/proc/self/fd/0")):
        _fed(w, "sh", argv[0])
    elif target.startswith(("<(", "/dev/fd/", "/proc/self/fd/")) and not w.installer:
        w.opaque = f"{argv[0]} reads code from a process substitution"


def _positional(w: Work, start: int, label: str) -> None:
    """`bash -c 'SCRIPT' NAME ARGS…`: ARGS are the script's "$@"; remember them."""
    w.positional = w.argv[start:] if start <= len(w.argv) else []


def _eval(w: Work) -> None:
    if len(w.argv) > 1:
        for k in range(1, len(w.argv)):
            w.data[k] = "eval string (parsed)"
        text = " ".join(w.argv[1:])
        if not (w.installer and "$(…)" in text):
            w.payloads.append(("sh", "eval", text, []))


def _trap(w: Work) -> None:
    k = 2 if w.argv[1:2] == ["--"] else 1  # `trap -- ACTION SIGNAL…`
    if len(w.argv) > k + 1 and w.argv[k] not in ("-p", "-l", "-P", "--", "-"):
        w.data[k] = "trap action (parsed)"
        w.payloads.append(("sh", "trap", w.argv[k], []))


def _rest(w: Work, start: int, kind: str, label: str) -> None:
    """The words from ``start`` on are a command (``argv``) or shell text (``sh``)."""
    rest = w.argv[start:]
    if not rest:
        return
    for k in range(start, len(w.argv)):
        w.data[k] = f"command run by {label} (parsed)"
    if kind == "argv":
        w.payloads.append(("argv", label, "", rest))
    else:
        w.payloads.append(("sh", label, " ".join(rest), []))


def _ssh(w: Work) -> None:
    i = skip_options(w.argv, 1, "BbcDEeFIiJLlmOopQRSWw")
    start = i + 1
    if start < len(w.argv) and w.argv[start] == "--":  # `ssh host -- cmd`
        w.data[start] = "ssh end of options"
        start += 1
    _rest(w, start, "sh", "ssh")


def _pwsh(w: Work) -> None:
    """``pwsh -Command "…"`` / ``powershell -c …``: the script is PowerShell."""
    argv = w.argv
    for k in range(1, len(argv)):
        a = argv[k].lower()
        if len(a) > 1 and a[0] in "-/" and "-command".startswith("-" + a[1:]) and k + 1 < len(argv):
            for j in range(k + 1, len(argv)):
                w.data[j] = "PowerShell script (parsed)"
            w.payloads.append(
                ("powershell", f"{normalize(argv[0])} -Command", " ".join(argv[k + 1 :]), [])
            )
            return
        if (
            len(a) > 1
            and a[0] in "-/"
            and k + 1 < len(argv)
            and (a[1:] in ("e", "ec") or (len(a) > 3 and "encodedcommand".startswith(a[1:])))
        ):
            script = _utf16_base64(argv[k + 1])
            w.data[k + 1] = "PowerShell script, base64 (decoded and parsed)"
            if script is None:
                w.opaque = f"{normalize(argv[0])} -EncodedCommand text that does not decode"
            else:
                label = f"{normalize(argv[0])} -EncodedCommand"
                w.payloads.append(("powershell", label, script, []))
            return


def _utf16_base64(text: str) -> str | None:
    import base64
    import binascii

    try:
        return base64.b64decode(text, validate=False).decode("utf-16-le")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None


def _awk(w: Work) -> None:
    """``system("…")`` in an awk program runs its (literal) string as a shell command."""
    for program in w.argv[1:]:
        if "system" in program or "|" in program:
            from dcg.shell import escapes

            escapes.awk_program(w, program)


def _container(w: Work) -> None:
    argv = w.argv
    name = normalize(argv[0])
    i = skip_options(argv, 1, "Hc", ("context", "host", "config", "log-level", "url"))
    if name.endswith("-compose"):  # docker-compose, podman-compose
        i = skip_options(argv, 1, "fp", ("file", "project-name", "profile", "env-file"))
    elif i < len(argv) and argv[i] in ("compose", "container"):
        i = skip_options(argv, i + 1, "fp", ("file", "project-name", "profile", "env-file"))
    if i < len(argv) and argv[i] == "run":
        from dcg.shell import detached

        detached.container_run(w)
        return
    if i >= len(argv) or argv[i] != "exec":
        return
    long = ("env", "user", "workdir", "env-file", "detach-keys", "index")
    i = skip_options(argv, i + 1, "euw", long)
    _rest(w, i + 1, "argv", f"{name} exec")


def _kubectl(w: Work) -> None:
    argv = w.argv
    if "exec" in argv[1:4] and "--" in argv:
        _rest(w, argv.index("--") + 1, "argv", f"{normalize(argv[0])} exec")


def _su(w: Work) -> None:
    argv = w.argv
    for k in range(1, len(argv)):
        a = argv[k]
        if a in ("-c", "--command") and k + 1 < len(argv):
            w.data[k + 1] = "command run by su (parsed)"
            w.payloads.append(("sh", "su", argv[k + 1], []))
            return
        if a.startswith("--command="):
            w.data[k] = "command run by su (parsed)"
            w.payloads.append(("sh", "su", a[10:], []))
            return


def _watch(w: Work) -> None:
    i = skip_options(w.argv, 1, "nq", ("interval", "equexit"))
    execs = any(a in ("-x", "--exec") for a in w.argv[1:i])
    _rest(w, i, "argv" if execs else "sh", "watch")


def _parallel(w: Work) -> None:
    argv = w.argv
    long = ("jobs", "sshlogin", "max-args", "delay", "timeout", "joblog", "results",
            "arg-file", "delimiter", "colsep", "tmpdir", "workdir", "wd", "env", "memfree",
            "load", "retries")  # fmt: skip
    i = skip_options(argv, 1, "jSNaIdLnE", long)
    seps = (":::", "::::", ":::+", "::::+", "--")  # "--": moreutils' parallel
    end = next((k for k in range(i, len(argv)) if argv[k] in seps), len(argv))
    if end > i:
        for k in range(i, end):
            w.data[k] = "command run by parallel (parsed)"
        cmd = parallel_braces(argv[1:i], " ".join(argv[i:end]))
        args = argv[end + 1 :] if argv[end : end + 1] in ([":::"], ["--"]) else []
        # `parallel sh -c ::: 'rm -rf x'`: each argument, quoted, in place of {} or after
        # Names read from the input stay ``{}``, as xargs -I{} leaves them.
        for a in [x for x in args if x not in seps][:64] or [""]:
            w.payloads.append(("sh", "parallel", parallel_arg(cmd, a), []))
        return
    for k in range(end + 1, len(argv)):
        if argv[k] not in seps:
            w.data[k] = "command run by parallel (parsed)"
            w.payloads.append(("sh", "parallel", argv[k], []))


# How a feeder's via label says its names are only leftovers (dcg.manywrites).
LEFTOVERS = " of leftovers"


def leftovers(find: list[str]) -> str:
    """:data:`LEFTOVERS` when the find only selects build output or leftovers by their
    extension (``-name '*.orig'``), else ``""``."""
    from dcg.findexpr import selects_only_regenerable

    return LEFTOVERS if selects_only_regenerable(find, litter=True) else ""


def _find(w: Work) -> None:
    argv = w.argv
    i, n = 1, len(argv)
    while i < n:
        a = argv[i]
        i += 1
        if a not in ("-exec", "-execdir", "-ok", "-okdir"):
            continue
        j = i
        while j < n and not (argv[j] == ";" or (argv[j] == "+" and argv[j - 1] == "{}")):
            j += 1
        if j > i:
            for k in range(i, j):
                w.data[k] = f"command run by find {a} (parsed)"
            w.payloads.append(("argv", f"find {a}{leftovers(argv)}", "", argv[i:j]))
        i = j + 1


def _interpreter(lang: str) -> Callable[[Work], None]:
    """Handler for an interpreter: its inline code (:mod:`dcg.shell.optgrammar`) is judged
    as ``lang``; without code, module or script it reads its program from stdin."""

    def handle(w: Work) -> None:
        argv = w.argv
        p = parse(lang, argv)
        found = p.code
        if p.module == "timeit":  # python -m timeit -s SETUP STATEMENT…: both are code
            found = [*found, *timeit_code(argv, p.first)]
        name = normalize(argv[0])
        if found:
            for k, _ in found:
                w.data[k] = f"{lang} code (analyzed)"
            w.payloads.append((lang, f"{name} code", "\n".join(t for _, t in found), []))
        elif p.stdin and not p.inert:
            _fed(w, lang, name)

    return handle


def _escape(name: str) -> Callable[[Work], None]:
    """A handler of dcg.shell.escapes, imported only when such a tool runs."""

    def handle(w: Work) -> None:
        from dcg.shell import escapes

        handler: Callable[[Work], None] = getattr(escapes, name)
        handler(w)

    return handle


def _lang(name: str) -> Callable[[Work], None]:
    """A handler of dcg.shell.langescapes (gdb, m4, Lua), imported only when one runs."""

    def handle(w: Work) -> None:
        from dcg.shell import langescapes

        handler: Callable[[Work], None] = getattr(langescapes, name)
        handler(w)

    return handle


def _runner(name: str) -> Callable[[Work], None]:
    """A detached runner of dcg.shell.toolruns, imported only when one runs."""

    def handle(w: Work) -> None:
        from dcg.shell import toolruns

        toolruns.HANDLERS[name](w)

    return handle


_PYTHON = _interpreter("python")
HANDLERS: dict[str, Callable[[Work], None]] = {
    **{name: _shell for name in SHELLS},
    "eval": _eval,
    "source": _source,
    ".": _source,
    "trap": _trap,
    "ssh": _ssh,
    "docker": _container,
    "podman": _container,
    "nerdctl": _container,
    "docker-compose": _container,
    "podman-compose": _container,
    "kubectl": _kubectl,
    "oc": _kubectl,
    "su": _su,
    "runuser": _su,
    "watch": _watch,
    "parallel": _parallel,
    "find": _find,
    "pwsh": _pwsh,
    "powershell": _pwsh,
    "awk": _awk,
    "gawk": _awk,
    "mawk": _awk,
    "nawk": _awk,
    **{name: _escape("vim") for name in ("vim", "vi", "ex", "nvim", "view", "gvim", "vimdiff")},
    "ed": _escape("ed"),
    "red": _escape("ed"),
    "sqlite3": _escape("sqlite"),
    **{name: _escape("client") for name in ("psql", "mysql", "mariadb")},
    "less": _escape("less"),
    **{name: _runner(name) for name in ("tmux", "screen", "crontab", "sed", "gsed")},
    **{name: _escape("tcl") for name in ("tclsh", "wish", "expect", "tclsh8.6", "jimsh")},
    "m4": _lang("m4"),
    "lua": _lang("lua"),
    "luajit": _lang("lua"),
    "pypy": _PYTHON,
    "pypy3": _PYTHON,
    "node": _interpreter("javascript"),
    "nodejs": _interpreter("javascript"),
    "bun": _interpreter("javascript"),
    "ruby": _interpreter("ruby"),
    "perl": _interpreter("perl"),
    "php": _interpreter("php"),
}


def _with_options(first: Callable[[Work], None] | None) -> Callable[[Work], None]:
    """dcg.shell.cmdopts (options whose value runs as a command), after ``first``."""

    def handle(w: Work) -> None:
        if first is not None:
            first(w)
        from dcg.shell import cmdopts

        cmdopts.handle(w)

    return handle


_OPTION_RUNNERS = (
    "tar",
    "bsdtar",
    "rsync",
    "zip",
    "ssh",
    "scp",
    "sftp",
    "split",
    "sort",
    "git",
    "socat",
)
HANDLERS.update({n: _with_options(HANDLERS.get(n)) for n in _OPTION_RUNNERS})


def handler(name: str) -> Callable[[Work], None] | None:
    found = HANDLERS.get(name)
    if found is None and name.startswith("python"):
        tail = name[6:]
        if all(ch in "0123456789." for ch in tail):
            return _PYTHON
    return found


# Build tools whose file dcg reads only when the line wrote it (dcg.shell.runfiles.TOOLS).
BUILD_TOOLS = frozenset(("rake", "cargo", "makers", "gradle", "gradlew", "mvn", "mvnw", "ant",
    "mage", "mix", "sbt", "deno", "composer", "cmake", "meson", "vagrant", "thor", "snakemake",
    "lefthook", "earthly", "grunt", "gulp", "jake", "scons", "waf", "fab", "doit", "jest",
    "vite", "vitest", "eslint", "webpack", "rollup", "next", "nuxt", "astro", "prettier",
    "playwright", "karma", "mocha", "tailwindcss", "sphinx-build", "bundle", "pod",
    "fastlane", "danger", "tox", "go", "java", "tcc", "kotlin",
    "dotnet", "rust-script"))  # fmt: skip
# Commands that run a file, a package script or a recipe (dcg.shell.running), or load
# code without naming it (dcg.shell.implicit: git's installed pre-commit hooks too).
RUNS_FILES = frozenset((*SHELLS, *BUILD_TOOLS, "source", ".", "node", "nodejs", "bun", "ruby",
                        "perl", "php", "npm", "pnpm", "yarn", "make", "gmake", "just", "task",
                        "go-task", "nox", "invoke", "inv", "tox", "poe", "pytest", "py.test",
                        "npx", "bunx", "pnpx", "uv", "pre-commit", "pyproject-build",
                        "corepack", "tsx", "ts-node", "jest", "vitest", "mocha", "eslint",
                        "tsc", "next", "vite", "webpack", "prettier"))  # fmt: skip


def may_run_a_file(w: Work, raw: str, env: Vars, funcs: Mapping[str, object]) -> bool:
    """Cheap test before :mod:`dcg.shell.running` is imported: may the command read a file
    (a script, a package script, a function the line defined, a tool's command file) and
    run what it holds?"""
    name = w.argv[0]
    return (
        name in RUNS_FILES
        or (name in COMMAND_FILES and reads_commands(w))
        or name.startswith(("python", "pip"))
        or env.state.npm_bin  # a package script's words
        or "node_modules/.bin/" + name in env.state.files  # `pnpm exec NAME`, `bunx NAME`
        or ("/" in raw and not raw.endswith("/"))
        or name in funcs
        or (bool(w.via) and w.via[-1] in SCRIPT_RUNNERS)  # `pdm run NAME`: dcg.shell.pyscripts
        or (bool(w.via) and w.via[-1] in ("npm exec", "npx"))  # its script shell: pkgloads
        or "BASH_ENV" in env  # every bash started from here on reads it: dcg.shell.startup
        or any(v in env or v in w.assigns for v in PRELOADS)  # a library it loads: implicit
    )


# Variables naming libraries the dynamic loader runs in every program (dcg.shell.implicit).
PRELOADS = ("LD_PRELOAD", "LD_AUDIT")


# Wrappers whose operand may name a script of the project's configuration rather than a
# program (the rows of dcg.shell.pyscripts.TABLE).
SCRIPT_RUNNERS = frozenset(("pdm run", "hatch run", "rye run"))


# Tools that read commands from a file (sed -f, tmux source-file, sqlite3 < f / .read f,
# gdb -x, vim -S, awk -f, tclsh FILE, m4 FILE, lua FILE): the names of
# dcg.shell.cmdfiles.TABLE, which reads the file and judges its shell escapes.
COMMAND_FILES = frozenset(("sed", "gsed", "tmux", "screen", "sqlite3", "gdb", "vim", "vi",
                           "nvim", "ex", "view", "gvim", "vimdiff", "awk", "gawk", "mawk",
                           "nawk", "tclsh", "wish", "expect", "tclsh8.6", "jimsh", "m4", "lua",
                           "luajit"))  # fmt: skip


def reads_commands(w: Work) -> bool:
    argv = w.argv
    if argv[0] == "sqlite3":
        text = w.stdin if w.stdin is not None else w.fed
        return w.infile is not None or "-init" in argv or ".read" in " ".join([*argv, text or ""])
    if argv[0] == "tmux":
        return any(a in ("source-file", "source", "-f", "load-buffer", "loadb") for a in argv)
    if argv[0] not in ("sed", "gsed"):
        return len(argv) > 1 or w.infile is not None or w.stdin is not None or w.fed is not None
    return any(
        a in ("-f", "--file")
        or a.startswith("--file=")
        or (a[:1] == "-" and a[1:2] != "-" and "f" in a)
        for a in argv[1:]
    )
