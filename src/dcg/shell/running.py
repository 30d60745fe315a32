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
from dcg.shell import opaque, scripts
from dcg.shell.lexer import lex
from dcg.shell.parser import OPAQUE
from dcg.shell.static import piped_text
from dcg.shell.unwrap import normalize

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from typing import Any, Protocol

    from dcg.extract.found import Found
    from dcg.shell.command import Command
    from dcg.shell.limits import Budget, Files
    from dcg.shell.parser import Simple
    from dcg.shell.unwrap import Work
    from dcg.shell.words import Token

    class Ctx(Protocol):
        via: tuple[str, ...]
        depth: int
        env: dict[str, str | None]
        files: Files | None
        funcs: dict[str, tuple[str, list[tuple[int, list[Token]]]]]
        budget: Budget

        def child(self, via: tuple[str, ...]) -> Ctx: ...
        def shared(self, via: tuple[str, ...]) -> Ctx: ...

    class Walker(Protocol):
        def tokens(self, tokens: list[Token], ctx: Any, out: list[Command]) -> None: ...
        def embedded(
            self, lang: str, code: str, ctx: Any, out: list[Command], computed: bool
        ) -> None: ...
        def positional(self, env: dict[str, str | None], args: list[str]) -> None: ...
        def emit(self, why: str, ctx: Any, out: list[Command]) -> None: ...


FILE = "\x00file:"  # the text a file was given earlier on the line (the walker writes it)
CWD = "\x00cwd"
_PKG = frozenset(("npm", "pnpm", "yarn", "bun"))


def run(work: Work, raw: str, ctx: Ctx, out: list[Command], walker: Walker) -> bool:
    """Judge the file, package script or recipe that ``work``'s command runs, if any;
    True when a script file's text was read and judged."""
    name = work.argv[0]
    if name in ctx.funcs and name not in (ctx.files.called if ctx.files else ()):
        _call(name, work, ctx, out, walker)
        return False
    if name in _PKG:
        _package(work, ctx, out, walker)
        return False
    if name in ("make", "gmake"):
        _make(work, ctx, out, walker)
        return False
    if name == "just":
        _just(work, ctx, out, walker)
        return False
    found = scripts.target(work, raw)
    if found is None:
        return False
    lang, path, start = found
    text, shown = _text(path, ctx, out, walker)
    if text is None:
        return False
    if lang == "exec":
        lang = scripts.shebang_lang(text) or ""
    args = work.argv[start:]
    if lang == "sh":
        sourced = name in ("source", ".")
        run_sh(text, shown, ctx, out, walker, args=None if sourced else args, shared=sourced)
    elif lang:
        via = (*ctx.via, f"in {shown}", f"{lang} script")
        # A program read from disk: its own eval/exec is not hiding a command (setup.py's
        # exec(open(…).read())); a file written on this line is judged like a -c one-liner.
        written = shown.endswith("(written on this line)")
        walker.embedded(lang, text, ctx.child(via), out, written)
    return True


def _text(path: str, ctx: Ctx, out: list[Command], walker: Walker) -> tuple[str | None, str]:
    """The text the file will hold when it runs, and how the reason names it."""
    env = ctx.env
    for key in (FILE + path, FILE + os.path.normpath(path)):
        if key in env:
            text = env[key]
            if text is None:
                why = f"{path} is written earlier on this line with text dcg cannot know"
                walker.emit(why, ctx, out)
                return None, path
            if text == scripts.FETCHED:
                return None, path  # a downloaded installer: the documented known limit
            if text.startswith("\x00copy:"):
                return _text(text[7:], ctx, out, walker)
            return text, f"{path} (written on this line)"
    files = ctx.files
    if files is None:
        return None, path
    where = scripts.where(files, path, env.get(CWD))
    if where is None or scripts.installed(where):
        return None, path
    text = scripts.read(files, where)
    shown = scripts.display(where, files.cwd)
    if text == scripts.TOO_BIG:
        why = f"{shown} is larger than {scripts.MAX_SCRIPT // 1024} KiB, too large to read"
        walker.emit(why, ctx, out)
        return None, shown
    if text is None:
        return None, shown
    return (text if files.wanted(text) else ""), shown


def run_sh(
    text: str,
    shown: str,
    ctx: Ctx,
    out: list[Command],
    walker: Walker,
    *,
    args: list[str] | None = None,
    shared: bool = False,
    first: int = 1,
    label: str = "",
) -> None:
    """Judge shell ``text`` from ``shown`` line by line; functions only when called.

    ``shared``: the text runs in the caller's shell (``source``), so its variables, cd
    and functions stay for the rest of the line; otherwise it is a new shell whose
    ``"$@"`` is ``args``.
    """
    from dcg.extract.script import split

    base = ctx.shared(ctx.via) if shared else ctx.child(ctx.via)
    if args is not None:
        walker.positional(base.env, args)
    lines: list[tuple[int, list[Token]]] = []
    for found in split(text, path=shown, source="shell", line=first):
        lines.append((found.line, lex(found.text, ctx.budget, base.depth)))
    top, funcs = scripts.split_functions(lines)
    for fname, body in funcs.items():
        base.funcs[fname] = (shown, body)
    suffix = f" ({label})" if label else ""
    for number, tokens in top:
        line_ctx = base.shared((*ctx.via, f"in {shown} line {number}{suffix}"))
        line_ctx.depth = base.depth
        walker.tokens(tokens, line_ctx, out)


def _call(name: str, work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """A call of a function defined in a script read on this line: judge its body once."""
    shown, body = ctx.funcs[name]
    if ctx.files is not None:
        ctx.files.called.add(name)
    base = ctx.shared(ctx.via)
    saved = {k: base.env.get(k) for k in ("\x00@", *(f"\x00@{k}" for k in range(1, 10)))}
    walker.positional(base.env, work.argv[1:])
    for number, tokens in body:
        line_ctx = base.shared((*ctx.via, f"in {shown} line {number} (function {name})"))
        line_ctx.depth = base.depth
        walker.tokens(tokens, line_ctx, out)
    for k, v in saved.items():
        base.env[k] = v


def _here(ctx: Ctx, directory: str | None) -> str | None:
    files = ctx.files
    if files is None:
        return None
    return scripts.where(files, directory or ".", ctx.env.get(CWD))


def _find_up(ctx: Ctx, start: str | None, names: tuple[str, ...]) -> tuple[str, str] | None:
    """The first of ``names`` in ``start`` or a directory above it: (path, text)."""
    files = ctx.files
    if files is None or start is None:
        return None
    here = start
    for _ in range(32):
        for n in names:
            path = os.path.join(here, n)
            if os.path.isfile(path):
                text = scripts.read(files, path)
                return (path, text) if text is not None else None
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent
    return None


def _recipes(
    found: list[Found], shown: str, ctx: Ctx, out: list[Command], walker: Walker, what: str
) -> None:
    for f in found:
        run_sh(f.text, shown, ctx, out, walker, first=f.line, label=f"{what} {f.label}")


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
    "root", "server", "deploy", "doctor", "recursive", "approve-builds", "x", "constraints",
    "npm", "search", "stage", "import", "outdated", "about",
))  # fmt: skip
_PKG_DIR = ("--prefix", "-C", "--dir", "--cwd")


def _package(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    argv = work.argv
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
        rest = [a for a in rest if a not in ("--if-present", "--silent", "-s")]
        if not rest or rest[0].startswith("-"):
            return
        names, rest = [rest[0]], rest[1:]
    elif sub in _NPM_ALIASES:
        names = [_NPM_ALIASES[sub]]
    elif (sub in _INSTALL or (not sub and name == "yarn")) and not [
        a for a in rest if not a.startswith("-")
    ]:
        names = list(_LIFECYCLE)
    elif name in ("yarn", "pnpm") and sub and sub not in _BUILTINS:
        names = [sub]
    else:
        return
    if work.dyns and any(work.dyns):
        return
    found = _find_up(ctx, _here(ctx, directory), ("package.json",))
    if found is None:
        return
    path, text = found
    if text == scripts.TOO_BIG or not ctx.files or not ctx.files.wanted(text):
        return
    from dcg.extract import packagejson

    extra = [a for a in rest if a != "--"]
    shown = scripts.display(path, ctx.files.cwd)
    every = packagejson.scripts(text, shown)
    for script in names:
        if script in _LIFECYCLE:
            order = [every[script]] if script in every else []
        else:
            order = packagejson.run_order(text, script)
        for f in order:
            line = f.text + (" " + " ".join(extra) if extra and f.label == script else "")
            run_sh(line, shown, ctx, out, walker, first=f.line, label=f"script {f.label}")


_MAKE_DRY = frozenset(("-n", "--just-print", "--dry-run", "--recon", "-q", "--question", "-p",
                       "--print-data-base", "-v", "--version", "-h", "--help"))  # fmt: skip
_MAKE_VALUE = frozenset(("-C", "-f", "-I", "-j", "-l", "-o", "-W", "--directory", "--file",
                         "--makefile", "--include-dir", "--jobs", "--load-average",
                         "--old-file", "--what-if", "--assume-old", "--assume-new", "-E",
                         "--eval"))  # fmt: skip


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
        if eq and opt.replace("_", "a").isalnum():
            overrides[opt] = value
            continue
        targets.append(a)
    from dcg.extract import makefile as mk

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
    else:
        if ctx.files is None:
            if not evals:
                return
            text, shown = "", "make --eval"
        else:
            base = _here(ctx, directory)
            if base is None:
                return
            names = (makefile,) if makefile else ("GNUmakefile", "makefile", "Makefile")
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
    text = text + "".join("\n" + e for e in evals)
    if ctx.files is not None and not ctx.files.wanted(text):
        return
    found = mk.plan(text, targets, shown, overrides)
    if found:
        _recipes(found, shown, ctx, out, walker, "target")


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
    if ctx.files is None:
        return
    if justfile is not None:
        where = scripts.where(ctx.files, justfile, ctx.env.get(CWD))
        text = scripts.read(ctx.files, where) if where else None
        found = (where, text) if where and text is not None else None
    else:
        names = ("justfile", "Justfile", ".justfile", "JUSTFILE")
        found = _find_up(ctx, _here(ctx, directory), names)
    if found is None or found[1] == scripts.TOO_BIG or not ctx.files.wanted(found[1]):
        return
    from dcg.extract import justfile as jf

    shown = scripts.display(found[0], ctx.files.cwd)
    plan = jf.plan(found[1], recipe, shown)
    if plan:
        _recipes(plan, shown, ctx, out, walker, "recipe")


_COPIERS = frozenset(("cp", "mv", "install", "ln"))


def remember_written(
    simple: Simple, redirects: list[tuple[str, str]], env: dict[str, str | None]
) -> None:
    """`echo '…' > x.sh`, `cat <<EOF > x.sh`, `… | tee x.sh`, `cp a.sh x.sh`: remember
    what x.sh will hold (None: text dcg cannot know), for a later `sh x.sh` on the line."""
    argv = simple.fields
    if not argv:
        return
    name = normalize(argv[0])
    pipe = simple.pipe_in
    written: list[tuple[str, bool]] = [
        (t, op == ">>") for op, t in redirects if op in (">", ">|", "&>", ">>", "&>>") and t
    ]
    if name == "tee":
        append = any(a in ("-a", "--append") for a in argv[1:])
        written += [(a, append) for a in argv[1:] if not a.startswith("-")]
        source = pipe if pipe is not None and pipe is not OPAQUE else None
        feeder = normalize(source.fields[0]) if source and source.fields else ""
        text = scripts.FETCHED if feeder in opaque.FETCHERS else (
            piped_text(source) if source is not None else None)  # fmt: skip
    elif name in opaque.FETCHERS:
        text = scripts.FETCHED
        for k, a in enumerate(argv[:-1]):
            if a in ("-o", "-O", "--output", "--output-document"):
                written.append((argv[k + 1], False))
    elif name in _COPIERS:
        args = [a for a in argv[1:] if not a.startswith("-")]
        if len(args) == 2:
            env[FILE + args[1]] = env.get(FILE + args[0], "\x00copy:" + args[0])
        text = piped_text(simple)
    else:
        text = piped_text(simple)
    for target, append in written:
        old = env.get(FILE + target, "") if append else ""
        if append and (old is None or text is None):
            env[FILE + target] = None
        else:
            env[FILE + target] = text if not append else f"{old or ''}\n{text or ''}\n"
