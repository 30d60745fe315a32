"""Judge what a script file, a package script, a make recipe or a just recipe will run.

The walker calls :func:`run` for every command after unwrapping. A command that runs a
file (:func:`dcg.shell.scripts.target`) has that file's text judged as if it were on
the line, each command labelled ``in FILE line N`` (the reason names it); ``npm run``,
``yarn``/``pnpm`` scripts, ``make`` and ``just`` have the script or recipes they will run
resolved from the cwd's package.json, Makefile or justfile with :mod:`dcg.extract`. What
cannot be seen (a script too large to read, one written on this line by a command whose
output is unknown, a makefile read from an unknown stdin) is an opaque finding.
"""

from __future__ import annotations

from dcg import oslite as os
from dcg.shell import cases, implicit, linefiles, payloads, pkgloads, runtext, scripts
from dcg.shell.limits import bounded
from dcg.shell.payloads import BUILD_TOOLS
from dcg.shell.state import CWD

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from dcg.shell.command import Command
    from dcg.shell.runtext import Ctx, Walker
    from dcg.shell.unwrap import Work


_PKG = frozenset(("npm", "pnpm", "yarn", "bun"))
_STARTUP = frozenset(("bash", "sh", "dash", "ash", "ksh", "mksh", "yash", "zsh"))
_TASK_RUNNERS = frozenset(("task", "go-task", "nox", "invoke", "inv", "tox", "poe"))


def run(work: Work, raw: str, ctx: Ctx, out: list[Command], walker: Walker) -> bool:
    """Judge the file, package script or recipe that ``work``'s command runs, if any;
    True when a script file's text was read and judged."""
    name = work.argv[0]
    if name in ctx.funcs and not cases.judged(name, work, ctx):
        cases.call(name, work, ctx, out, walker)
        ctx.env.state.call_walked = name  # dcg.shell.flow: not replayed on top
        return False
    implicit.run(work, ctx, out, walker)
    if work.via and work.via[-1] in payloads.SCRIPT_RUNNERS:
        from dcg.shell import pyscripts

        pyscripts.run(work, ctx, out, walker)
    if ctx.env.state.npm_bin or pkgloads.via_node_runner(work):
        pkgloads.npm_bin(work, ctx, out, walker)
    if name in _PKG and not _bun_file(work.argv):
        _package(work, ctx, out, walker)
        return False
    if name in ("make", "gmake"):
        _make(work, ctx, out, walker)
        return False
    if name == "just":
        _just(work, ctx, out, walker)
        return False
    if name in BUILD_TOOLS:  # a build tool's file written on the line, then run
        from dcg.shell import runfiles

        runfiles.judge(name, work.argv, ctx, out, walker)
    if name in _TASK_RUNNERS:
        from dcg.shell import taskrunners

        taskrunners.run(work, ctx, out, walker)
        return False
    if name in payloads.COMMAND_FILES:
        from dcg.shell import cmdfiles

        cmdfiles.read(work, ctx, out, walker)
        return False

    if name == "git" and work.hooks:
        from dcg.shell import githooks

        githooks.judge(work, ctx, out, walker)
    if name in _STARTUP or "BASH_ENV" in ctx.env or "BASH_ENV" in work.assigns:
        from dcg.shell import startup

        startup.judge(work, ctx, out, walker)
    found = scripts.target(work, raw)
    if found is None or found[0] == scripts.COMPUTED:
        lang = scripts.interpreter_lang(name)
        if lang in ("python", "javascript", "ruby"):
            linefiles.modules(lang, work, ctx, out, walker)
        # `echo … > x.sh && sh $(ls *.sh)`, `find -exec bash {} ;`: which files run is
        # only known then (files written on the line; every file find or xargs names).
        if found is not None and (ctx.env.state.files or scripts.fed_file(work, found[1])):
            why = f"{name} runs a script named by {found[1]!r}, which dcg cannot expand"
            after = ", after files were written on this line" if ctx.env.state.files else ""
            walker.emit(why + after, ctx, out)
        return False
    lang, path, start = found
    # `for f in s/*.sh; do bash "$f"; done` runs each file the glob matches, not the first.
    paths = runtext.glob_matches(path, ctx) if "*" in path or "?" in path else [path]
    return any([_file(name, work, lang, p, start, ctx, out, walker) for p in paths or [path]])


def _file(
    name: str, work: Work, lang: str, path: str, start: int, ctx: Ctx, out: list[Command],
    walker: Walker,
) -> bool:  # fmt: skip
    from dcg.shell.runfiles import python_archive  # a zip archive's __main__.py

    text, shown = python_archive(path, ctx, out, walker) if lang == "python" else ("", "")
    if not shown:
        text, shown = runtext.file_text(path, ctx, out, walker)
    if text is None and lang == "python":  # `python3 DIR`: DIR/__main__.py runs
        text, shown = runtext.file_text(os.path.join(path, "__main__.py"), ctx, out, walker)
    if name in ("source", ".") and not text:
        ctx.env.state.undecided = True  # not read (no keyword, missing): it may set anything
    if text is None:
        return False
    lang = (scripts.shebang_lang(text) or "") if lang == "exec" else lang
    args = cases.known_args(work, start)

    def read() -> None:
        if lang == "sh":
            sourced = name in ("source", ".")
            runtext.run_sh(
                text, shown, ctx, out, walker, args=None if sourced else args, shared=sourced
            )
        elif lang:
            # A program read from disk: its own eval/exec is not hiding a command (setup.py's
            # exec(open(…).read())); a file written or edited on this line is judged like a
            # one-liner.
            via = (*ctx.via, f"in {shown}", f"{lang} script")
            walker.embedded(lang, text, ctx.child(via), out, shown.endswith("on this line)"))

    unread = len(ctx.files.unread) if ctx.files is not None else 0
    bounded(ctx.budget, ctx.files, shown, read)
    if name in ("source", ".") and ctx.files is not None and len(ctx.files.unread) > unread:
        ctx.env.state.undecided = True  # read in part: the rest may set anything
    return True


# npm subcommands that run a script of package.json, and the script names they run.
_NPM_ALIASES = {"test": "test", "t": "test", "tst": "test", "start": "start", "stop": "stop",
                "restart": "restart"}  # fmt: skip
_NPM_RUN = frozenset(("run", "run-script", "rum", "urn"))
_INSTALL = frozenset(("install", "i", "ci", "isntall", "add"))
_LIFECYCLE = ("preinstall", "install", "postinstall", "preprepare", "prepare", "postprepare")
# Built-in commands of yarn and pnpm: any other first word runs the script of that name.
_BUILTINS = frozenset((
    "add", "audit", "autoclean", "bin", "cache", "check", "config", "create", "dedupe", "dlx",
    "exec", "explain", "generate-lock-entry", "global", "help", "import", "info", "init",
    "install", "i", "licenses", "link", "list", "ls", "login", "logout", "node", "outdated",
    "owner", "pack", "patch", "plugin", "policies", "publish", "rebuild", "remove", "rm",
    "set", "tag", "team", "unlink", "unplug", "up", "update", "upgrade", "version",
    "versions", "why", "workspace", "workspaces", "prune", "fetch", "store", "env", "setup",
    "root", "server", "deploy", "doctor", "recursive", "approve-builds", "constraints",
    "npm", "search", "stage", "import", "outdated", "about",
))  # fmt: skip
# bun's own commands (`bun x` is bunx), beside the ones above.
_BUN = frozenset(("x", "test", "repl", "pm", "build", "a", "c", "upgrade", "run"))


def _bun_file(argv: list[str]) -> bool:
    """``bun x.js``, ``bun ./tool``: bun runs the file, not a package script."""
    sub = next((a for a in argv[1:] if not a.startswith("-")), "")
    return argv[0] == "bun" and ("/" in sub or sub.endswith(_FILE_EXTS))


_FILE_EXTS = (".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx")
_PKG_DIR = ("--prefix", "-C", "--dir", "--cwd")


def _package(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    from dcg.shell.pkgflags import workspace_args

    argv, selectors = workspace_args(list(work.argv))
    name = argv[0]
    directory: str | None = None
    i = 1
    while i < len(argv) and argv[i].startswith("-"):
        a = argv[i]
        if a in _PKG_DIR and i + 1 < len(argv):
            directory = argv[i + 1]
            i += 2
            continue
        key, eq, value = a.partition("=")
        if eq and key in _PKG_DIR:
            directory = value
        i += 1
    sub = argv[i] if i < len(argv) else ""
    rest = argv[i + 1 :]
    names: list[str]
    if sub in _NPM_RUN or (name == "bun" and sub == "run"):
        k = 0
        while k < len(rest) and rest[k].startswith("-") and rest[k] != "--":
            if rest[k] in _PKG_DIR and k + 1 < len(rest):  # npm run --prefix DIR NAME
                directory = rest[k + 1]
            k += 1 + (rest[k] in (*_PKG_DIR, "--script-shell"))  # npm run -s --ws=false NAME
        if k >= len(rest) or rest[k] == "--":
            return
        names, rest = [rest[k]], rest[k + 1 :]
    elif sub in _NPM_ALIASES:
        names = [_NPM_ALIASES[sub]]
    elif (sub in _INSTALL or (not sub and name == "yarn")) and not [
        a for a in rest if not a.startswith("-")
    ]:
        names = list(_LIFECYCLE)
    elif (
        name in ("yarn", "pnpm", "bun")
        and sub
        and sub not in _BUILTINS
        and not (name == "bun" and sub in _BUN)
    ):
        names = [sub]
    elif name == "npm" and (events := pkgloads.npm_events(sub, [a for a in rest if a[:1] != "-"])):
        names = events
    else:
        return
    if work.dyns and any(work.dyns):
        return
    start = runtext.here(ctx, directory)
    if selectors is not None:
        _workspaces(start, selectors, names, rest, ctx, out, walker)
        return
    hit = runtext.written_first(ctx, directory, ("package.json",), out, walker)
    rc = pkgloads.npmrc(ctx, directory, out, walker)
    if hit is not None:  # package.json written or edited earlier on the line
        text, shown = hit
        if text is None:
            return
    else:
        found = runtext.find_up(ctx, start, ("package.json",))
        if found is None:
            return
        path, text = found
        if text == scripts.TOO_BIG or not ctx.files:
            return
        # A package.json naming no guarded tool runs one all the same through npm start's
        # default (node server.js) or a script shell.
        if (
            not ctx.files.wanted(text)
            and "start" not in names
            and pkgloads.script_shell(argv, work, ctx, rc) is None
        ):
            return
        shown = scripts.display(path, ctx.files.cwd)
    shell = pkgloads.script_shell(argv, work, ctx, rc)
    ctx.env.state.npm_bin = True
    try:
        cwd = runtext.run_dir(ctx, directory)
        _scripts(shown, text, names, rest, ctx, out, walker, cwd=cwd, shell=shell)
    finally:
        ctx.env.state.npm_bin = False


def _workspaces(
    start: str | None,
    selectors: list[str],
    names: list[str],
    rest: list[str],
    ctx: Ctx,
    out: list[Command],
    walker: Walker,
) -> None:
    """A run across workspace packages: each selected package's scripts, in its directory."""
    from dcg.shell import workspaces

    top = workspaces.root(start) if start else None
    if top is None or ctx.files is None:
        return
    for d in workspaces.select(workspaces.packages(top), top, selectors):
        path = os.path.join(d, "package.json")
        text = scripts.read(ctx.files, path)
        if text is None or text == scripts.TOO_BIG or not ctx.files.wanted(text):
            continue
        shown = scripts.display(path, ctx.files.cwd)
        _scripts(shown, text, names, rest, ctx, out, walker, d)


def _scripts(
    shown: str,
    text: str,
    names: list[str],
    rest: list[str],
    ctx: Ctx,
    out: list[Command],
    walker: Walker,
    cwd: str | None = None,
    shell: str | None = None,
) -> None:
    """Judge the scripts ``names`` of package.json ``text`` (named ``shown``) will run,
    in ``shell`` when .npmrc's ``script-shell`` (or the option) names one."""
    from shlex import quote

    from dcg.extract import packagejson

    extra = [a for a in rest if a != "--"]
    every = packagejson.scripts(text, shown)
    for script in names:
        if script in _LIFECYCLE or len(names) > 1:
            order = [every[script]] if script in every else []
        else:
            order = packagejson.run_order(text, script)
        if pkgloads.default_start([script], dict(every), ctx, cwd):
            runtext.project(
                "node server.js", shown, ctx, out, walker, 1, "npm start (default)", cwd
            )
        for f in order:
            line = f.text + (" " + " ".join(extra) if extra and f.label == script else "")
            if shell:
                line = f"{quote(shell)} -c {quote(line)}"
            runtext.project(line, shown, ctx, out, walker, f.line, f"script {f.label}", cwd)


_MAKE_DRY = frozenset(("-n", "--just-print", "--dry-run", "--recon", "-q", "--question", "-p",
                       "--print-data-base", "-v", "--version", "-h", "--help"))  # fmt: skip
_MAKE_VALUE = frozenset(("-C", "-f", "-I", "-j", "-l", "-o", "-W", "--directory", "--file",
                         "--makefile", "--include-dir", "--jobs", "--load-average",
                         "--old-file", "--what-if", "--assume-old", "--assume-new", "-E",
                         "--eval"))  # fmt: skip


_MAKEFILES = ("GNUmakefile", "makefile", "Makefile")


def _make(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    argv = work.argv
    directory: str | None = None
    makefile: str | None = None
    evals: list[str] = []
    targets: list[str] = []
    overrides: dict[str, str] = {}
    i = 1
    while i < len(argv):
        a = argv[i]
        i += 1
        if a in _MAKE_DRY or (a[:1] == "-" and a[1:2] != "-" and "n" in a[1:] and "=" not in a):
            return
        opt, eq, value = a.partition("=")
        if a in _MAKE_VALUE or (eq and opt in _MAKE_VALUE and opt.startswith("--")):
            if not eq:
                if a in ("-j", "--jobs", "-l") and (i >= len(argv) or not argv[i].isdigit()):
                    continue
                value = argv[i] if i < len(argv) else ""
                i += 1
            key = opt if eq else a
            if key in ("-C", "--directory"):
                directory = os.path.join(directory, value) if directory else value
            elif key in ("-f", "--file", "--makefile"):
                makefile = value
            elif key in ("-E", "--eval"):
                evals.append(value)
            continue
        if a.startswith(("-C", "-f")) and len(a) > 2:
            if a[1] == "C":
                directory = a[2:]
            else:
                makefile = a[2:]
            continue
        if a.startswith("-"):
            continue
        if eq and opt.lstrip(".").replace("_", "a").isalnum():  # .SHELLFLAGS=…
            overrides[opt] = value
            continue
        targets.append(a)
    from dcg.extract import makefile as mk

    pkgloads.makeflags(work, ctx, overrides)
    more = pkgloads.makefiles_env(work, ctx, out, walker)  # $MAKEFILES, read first by make
    if more:
        evals.append(more)
    if makefile in ("-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"):
        text = work.stdin if work.stdin is not None else work.fed
        if text is None:
            if work.piped or work.infile is not None:
                walker.emit("make reads its makefile from stdin, which dcg cannot see", ctx, out)
            return
        shown = "the makefile on stdin"
    elif makefile is not None and makefile.startswith(("<(", "/dev/fd/", "/proc/")):
        walker.emit("make reads its makefile from a process substitution", ctx, out)
        return
    elif (hit := runtext.written_first(ctx, directory, (makefile,) if makefile else _MAKEFILES, out,
                                walker)) is not None:  # fmt: skip
        text, shown = hit
        if text is None:
            return
    else:
        if ctx.files is None:
            if not evals:
                return
            text, shown = "", "make --eval"
        else:
            base = runtext.here(ctx, directory)
            if base is None:
                return
            names = (makefile,) if makefile else _MAKEFILES
            path = next((os.path.join(base, n) for n in names if os.path.isfile(
                os.path.join(base, n))), None)  # fmt: skip
            text = scripts.read(ctx.files, path) if path else None
            if text == scripts.TOO_BIG:
                walker.emit(f"{path} is too large to read", ctx, out)
                return
            if text is None and not evals:
                return
            text = text or ""
            shown = scripts.display(path, ctx.files.cwd) if path else "make --eval"
    text = pkgloads.make_includes(text + "".join("\n" + e for e in evals), directory, ctx, out,
                                  walker)  # fmt: skip
    if ctx.files is not None and not ctx.files.wanted(text) and "SHELL" not in f"{text}{overrides}":
        return
    found = mk.plan(text, targets, shown, overrides)
    if found:
        runtext.recipes(found, shown, ctx, out, walker, "target", runtext.run_dir(ctx, directory))


_JUST_QUERY = frozenset(("-n", "--dry-run", "-l", "--list", "--summary", "--show", "-s",
                         "--evaluate", "--dump", "--choose", "--edit", "-e", "--init",
                         "--fmt", "--help", "-h", "--version", "-V", "--variables",
                         "--completions", "--groups"))  # fmt: skip


def _just(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    argv = work.argv
    justfile: str | None = None
    directory: str | None = None
    recipe = ""
    i = 1
    while i < len(argv):
        a = argv[i]
        i += 1
        if a in _JUST_QUERY:
            return
        if a in ("-f", "--justfile", "-d", "--working-directory") and i < len(argv):
            if a in ("-f", "--justfile"):
                justfile = argv[i]
            else:
                directory = argv[i]
            i += 1
            continue
        if a == "--set":
            i += 2
            continue
        if a.startswith("-") or "=" in a:
            continue
        recipe = a
        break
    names = (justfile,) if justfile else ("justfile", "Justfile", ".justfile", "JUSTFILE")
    hit = runtext.written_first(ctx, directory, names, out, walker)
    if hit is not None:
        if hit[0] is not None:
            from dcg.extract import justfile as jf

            plan = jf.plan(hit[0], recipe, hit[1])
            if plan:
                runtext.recipes(plan, hit[1], ctx, out, walker, "recipe",
                                runtext.run_dir(ctx, directory))  # fmt: skip
        return
    if ctx.files is None:
        return
    if justfile is not None:
        where = scripts.where(ctx.files, justfile, ctx.env.get(CWD))
        text = scripts.read(ctx.files, where) if where else None
        found = (where, text) if where and text is not None else None
    else:
        names = ("justfile", "Justfile", ".justfile", "JUSTFILE")
        found = runtext.find_up(ctx, runtext.here(ctx, directory), names)
    if found is None or found[1] == scripts.TOO_BIG or not ctx.files.wanted(found[1]):
        return
    from dcg.extract import justfile as jf

    shown = scripts.display(found[0], ctx.files.cwd)
    plan = jf.plan(found[1], recipe, shown)
    if plan:
        runtext.recipes(plan, shown, ctx, out, walker, "recipe", runtext.run_dir(ctx, directory))
