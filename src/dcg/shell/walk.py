"""Walk parsed simple commands: expand words, run payloads recursively, build Commands."""

from __future__ import annotations

from dcg.shell import (
    clients,
    cmdnames,
    context,
    flow,
    gitalias,
    gitargs,
    opaque,
    payloads,
    shellvars,
    unwrap,
    wrappers,
)
from dcg.shell.command import Command
from dcg.shell.lexer import lex
from dcg.shell.limits import MAX_DEPTH, MAX_SIZE, Budget, TooComplex
from dcg.shell.parser import split
from dcg.shell.shellvars import CHDIR as _CHDIR
from dcg.shell.shellvars import declare as _declare
from dcg.shell.state import BASE, Vars
from dcg.shell.state import CWD as _CWD
from dcg.shell.static import bind_loop, static_output
from dcg.shell.stdin import stdin_of, unwrapped, written_into
from dcg.shell.toolruns import TOOL_ENV
from dcg.shell.words import Heredoc
from dcg.shell.words import expand as expand_word

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from dcg.shell.limits import Files
    from dcg.shell.parser import Simple
    from dcg.shell.words import Token, Word

_DECLARE = frozenset(("export", "declare", "typeset", "local", "readonly"))


def parse(
    line: str, deadline: float | None, cwd: str | None = None, files: Files | None = None
) -> list[Command]:
    """The simple commands of a POSIX shell line (what :func:`dcg.shell.parse` returns).
    ``cwd`` is where it runs (``$PWD``; git reads its repository's config there). With
    ``files``, script files, package scripts and recipes the line runs are read and
    judged too (:mod:`dcg.shell.running`); without, nothing is read from disk."""
    if len(line) > MAX_SIZE:
        raise TooComplex(f"command line longer than {MAX_SIZE} characters")
    out: list[Command] = []
    env = Vars({BASE: cwd, "PWD": cwd} if cwd else None)
    try:
        run_text(line, Ctx((), 0, env, Budget(deadline, files), files, {}), out)
    except RecursionError:
        raise TooComplex("nesting too deep") from None
    return out


class Ctx:
    """Where a token list came from: provenance, nesting depth, known variables, file
    access (None: read nothing) and the functions scripts read on this line defined."""

    __slots__ = ("budget", "depth", "env", "files", "funcs", "via")

    def __init__(
        self,
        via: tuple[str, ...],
        depth: int,
        env: Vars,
        budget: Budget,
        files: Files | None = None,
        funcs: dict[str, tuple[str, list[tuple[int, list[Token]]]]] | None = None,
    ) -> None:
        if depth > MAX_DEPTH:
            raise TooComplex(f"nesting deeper than {MAX_DEPTH}")
        self.via = via
        self.depth = depth
        self.env = env
        self.budget = budget
        self.files = files
        self.funcs = {} if funcs is None else funcs

    def child(self, via: tuple[str, ...]) -> Ctx:
        return Ctx(via, self.depth + 1, self.env.copy(), self.budget, self.files, self.funcs)

    def shared(self, via: tuple[str, ...]) -> Ctx:
        """A nested context in the same shell: variables and cd carry back (source)."""
        return Ctx(via, self.depth + 1, self.env, self.budget, self.files, self.funcs)


def run_text(text: str, ctx: Ctx, out: list[Command]) -> None:
    run_tokens(lex(text, ctx.budget, ctx.depth), ctx, out)


def run_tokens(tokens: list[Token], ctx: Ctx, out: list[Command]) -> None:
    flow.run(split(tokens, ctx.depth), ctx.env, lambda simple: _simple(simple, ctx, out), ctx.funcs)


def _subs(word: Word, ctx: Ctx, out: list[Command], into: Simple | None = None) -> tuple[str, ...]:
    """Commands inside the word's substitutions run first: emit them first. Returns the
    words of the command whose output the last substitution is (dcg.shell.gitstream);
    ``into``: the command whose output a ``>(…)`` in the word reads."""
    last: tuple[str, ...] = ()
    for k, (label, payload) in enumerate(word.subs):
        child = ctx.child((*ctx.via, label))
        if label == ">(…)" and into is not None:
            child.env.state.feed = written_into(into, word)
        if isinstance(payload, str):
            payload = lex(payload, ctx.budget, child.depth)
            word.subs[k] = (label, payload)
        mark = len(out)
        run_tokens(payload, child, out)
        last = next((c.argv for c in reversed(out[mark:]) if c.via == child.via), ())
    return last


def _simple(simple: Simple, ctx: Ctx, out: list[Command]) -> None:
    env = ctx.env
    if env.state.pins:  # readonly values, names a trap assigns
        shellvars.apply_pins(env)
    for word in (*simple.assigns, *simple.words, *simple.extra):
        if word.subs:
            last = _subs(word, ctx, out, simple)
            if len(word.parts) <= 2:  # <(git diff), p=$(git diff): dcg.shell.gitstream
                from dcg.shell.gitstream import substituted

                substituted(word, last, env)
        if word.array is not None:
            for element in word.array:
                if element.subs:
                    _subs(element, ctx, out)
    made: tuple[str, ...] = ()  # the command whose output a here-string is: <<< "$(git diff)"
    for op, target in simple.redirects:
        sub = target.word if isinstance(target, Heredoc) else target
        if sub is not None and sub.subs:
            last = _subs(sub, ctx, out, simple if ">" in op else None)
            made = last if op == "<<<" and len(sub.parts) == 1 else made
    for name in simple.forget:  # a loop variable
        bind_loop(name, simple.extra, env)
    if env.state.aliases and simple.words:
        from dcg.shell.bashvars import alias_text

        found = alias_text(simple, env, expand_word)
        if found is not None:
            env.state.in_alias[found[0]] = ""  # no alias expands inside itself
            run_text(found[1], ctx.shared((*ctx.via, "alias " + found[0])), out)
            env.state.in_alias.pop(found[0], None)
            return

    def sub_text(word: Word, k: int) -> str | None:
        payload = word.subs[k][1]
        return None if isinstance(payload, str) else static_output(payload, env)

    def elements(word: Word) -> tuple[list[str], bool]:
        return expand_word(word, env, sub_text)

    # Arrays, elements, namerefs, prompt variables: dcg.shell.bashvars (loaded only then).
    vars_wanted = env.state.namerefs or any(
        w.array is not None or "[" in (w.assign or "") or w.assign in _RUN_VARS
        for w in simple.assigns
    )
    for word in simple.assigns:
        fields, dyn = expand_word(word, env, sub_text, split=False)
        name = word.assign or ""
        value = fields[0].partition("=")[2] if fields else ""
        if not simple.words and vars_wanted:
            from dcg.shell.bashvars import assign

            assign(word, value, dyn and not shellvars.known(name, value), env, elements)
        elif not simple.words:
            if fields and fields[0].startswith(name + "+="):
                old = env.get(name)
                env[name] = None if dyn or old is None else old + value
            else:
                # `h=$HOME` stays `$HOME`: dcg.targets knows what the home directory is.
                env[name] = None if dyn and not shellvars.known(name, value) else value
    argv: list[str] = []
    dyns: list[bool] = []
    for word in simple.words:
        # Brace expansion first, as in bash; dcg.shell.expand is loaded only for a word
        # with an unquoted "{".
        if any(p[0] == "s" and not p[3] and "{" in p[1] for p in word.parts):
            from dcg.shell.expand import braces

            words = braces(word)
        else:
            words = [word]
        for braced in words:
            keep = bool(argv) and argv[0] in _DECLARE and braced.assign is not None  # r=$x
            fields, dyn = expand_word(braced, env, sub_text, split=not keep)
            argv.extend(fields)
            dyns.extend([dyn] * len(fields))
    redirects: list[tuple[str, str]] = []
    stdin = None
    for op, target in simple.redirects:
        if isinstance(target, Heredoc):
            stdin = target.body or "" if target.quoted else (target.body or "").replace("\\\n", "")
            redirects.append((op, target.delim))
            continue
        text = ""
        if target is not None:
            fields, _ = expand_word(target, env, sub_text, split=False)
            text = fields[0] if fields else ""
        if op == "<<<":
            stdin = text + "\n"
        redirects.append((op, text))
    simple.fields, simple.dyns = argv, dyns
    simple.stdin = stdin
    if (
        any(">" in op for op, _ in redirects)
        or (argv and unwrap.normalize(argv[0]) in _WRITERS)
        or (argv[:1] == ["git"] and any(a[:8] == "--output" or a in _GIT_WRITES for a in argv))
        or argv[1:3] == ["-m", "zipapp"]
    ):
        __import__("dcg.shell.linefiles").shell.linefiles.remember_written(simple, redirects, env)
        __import__("dcg.shell.pername").shell.pername.record(simple, redirects, env)
    if (argv and argv[0] in _DECLARE) or argv[:1] == ["read"]:
        _declare(argv, dyns, env)
    if argv and argv[0] in _BASHVARS:
        from dcg.shell.bashvars import builtin

        shared = builtin(simple, argv, dyns, env, stdin, elements)
        run_text(shared, ctx.shared((*ctx.via, argv[0])), out) if shared else None
    if env.state.runs is not None:  # code an expansion runs (dcg.shell.params)
        runs, env.state.runs = env.state.runs, None
        run_text(runs, ctx.child((*ctx.via, "expansion")), out)
    if _values_need_a_look(simple, argv, env):
        from dcg.shell.arith import values_as_code

        values_as_code(simple, argv, ctx, out, sub_text, WALKER)
    if argv[:1] == ["set"] or argv[:1] == ["shift"]:
        shellvars.positional_builtin(argv, dyns, env)
    shellvars.policy_env([w.assign or "" for w in simple.assigns], argv, ctx.via, out)
    if not argv:
        if any(op != "<<<" and target is not None for op, target in simple.redirects):
            ctx.budget.command()
            out.append(Command((), redirects=tuple(redirects), via=ctx.via, cwd=env.get(_CWD)))
        return
    dyns[0] = cmdnames.rename(argv, env, simple.assigns) or dyns[0]  # hash -p, BASH_CMDS…
    work = unwrap.Work(argv, dyns, ctx.via, stdin)
    for word in simple.assigns:
        fields, dyn = expand_word(word, env, sub_text, split=False)
        name, _, value = (fields[0] if fields else "").partition("=")
        work.assigns[name.rstrip("+")] = None if dyn and not shellvars.known(name, value) else value
    if argv[0] in _CHDIR and not dyns[0]:
        shellvars.chdir(argv, dyns, env, work.assigns, out)
    stdin_of(work, simple, redirects, made, env, ctx.via)
    _command(work, tuple(redirects), ctx, out)
    why = opaque.computed_word(simple) if dyns and dyns[0] else None
    if why is not None:
        ctx.budget.command()
        out.append(opaque.command(why, ctx.via))


# Builtins and variables dcg.shell.bashvars models (bash runs the latter's value).
_BASHVARS = frozenset(("declare", "typeset", "local", "read", "mapfile", "readarray", "printf",
    "alias", "unalias", "unset", "hash", "readonly", "trap", "shopt"))  # fmt: skip
_RUN_VARS = frozenset(("PS0", "PS1", "PS2", "PS4", "PROMPT_COMMAND"))
# Commands whose writes the walker remembers besides redirections (tee, copies, fetches,
# git apply).
_WRITERS = frozenset(("tee", "cp", "mv", "install", "ln", "mkfifo", "mknod", "dd", "sponge",
    "mount", "rsync", "zip", "rename", "prename", "file-rename", "perl-rename", "rename.ul",
    "mmv", *opaque.FETCHERS, *opaque.EDITORS, *opaque.COMPILERS))  # fmt: skip
_GIT_WRITES = frozenset(("mv", "apply", "archive"))  # and --output; `git diff > p` too
_ARITH_WORDS = frozenset(("let", "declare", "typeset", "local", "read", "mapfile", "readarray",
    "unset", "test", "[", "export", "readonly", "getopts", "wait", "printf"))  # fmt: skip


def _values_need_a_look(simple: Simple, argv: list[str], env: Vars) -> bool:
    """Cheap test before dcg.shell.arith is imported: could a value run as code here?"""
    if simple.extra or (argv and argv[0] in _ARITH_WORDS) or env.state.integers:
        return True
    if any(w.subs or "[" in (w.assign or "") or "$((" in w.source() for w in simple.assigns):
        return True
    words = simple.words
    if words and any(p[0] == "v" or p[2][:2] == "${" for p in words[0].parts):
        return True
    return any(p[0] == "x" and p[2].startswith("$((") for w in words for p in w.parts)


def _command(
    work: unwrap.Work, redirects: tuple[tuple[str, str], ...], ctx: Ctx, out: list[Command]
) -> None:
    # Unwrap wrappers until a command that is not one (a dynamic word stays as written).
    mark = len(out)
    raw = work.argv[0] if work.argv else ""
    while work.argv and not work.dyns[0]:
        raw = work.argv[0]
        if any(c in work.argv[0] for c in "*?[") and _glob_command(work, redirects, ctx, out):
            break
        name = unwrap.normalize(work.argv[0])
        wrapper = wrappers.lookup(name, work.argv)
        start = wrapper(work) if wrapper is not None else -1
        if start <= 0:
            break
        if name in wrappers.SUBCOMMAND_WRAPPERS and wrappers.TABLE.get(name) is not wrapper:
            name = f"{name} {work.argv[1]}"
        via = name
        if name in ("xargs", "parallel"):
            from dcg.shell.derived import label as feeding_label

            via = feeding_label(name, work, start, (ctx, out, WALKER))
        shellvars.wrapper_dir(name, work.argv[:start], work.assigns)
        work.drop(start)
        work.via = (*work.via, via)
        work.payloads = []
    if not work.argv:
        return
    if not work.dyns[0]:
        work.argv[0] = unwrap.normalize(work.argv[0])
        unwrapped(work, ctx.env)  # moves, files made and archives on the line: stdin.py
        if work.argv[0].startswith("git-"):
            work.argv, work.dyns = gitargs.split_dashed(work.argv, work.dyns)
        if work.argv[0] == "git":
            shellvars.wrapper_dir("git", work.argv, work.assigns)
            gitalias.resolve(work, ctx.env)
            work.argv = gitargs.expand_prefixes(work.argv)
        elif work.argv[0] == "patch":
            gitalias.patch(work, ctx.env)
        elif clients.is_client(work.argv[0]):
            work.argv, work.dyns = clients.rewrite(work.argv, work.dyns)
            work.stdin = clients.code(work.argv[0], work.stdin)
            work.fed = clients.code(work.argv[0], work.fed)
        handle = payloads.handler(work.argv[0])
        if handle is not None:
            handle(work)
        if work.argv[0] in TOOL_ENV:
            from dcg.shell import toolruns

            toolruns.tool_env(work, ctx.env)
        context.classify(work)
    shellvars.started_env(work.argv, work.assigns, ctx.env, work.via, out)
    data = work.data
    argv = tuple(work.argv)
    words = tuple(a for k, a in enumerate(argv) if k not in data)
    dynamic = work.dynamic or any(d for k, d in enumerate(work.dyns) if k not in data)
    ctx.budget.command()
    out.append(
        Command(
            argv,
            words=words,
            data=tuple((argv[k], why) for k, why in sorted(data.items())),
            redirects=redirects,
            # Text piped in from echo/printf is what a client such as psql executes.
            stdin=work.stdin if work.stdin is not None else work.fed,
            via=work.via,
            dynamic=dynamic,
            cwd=shellvars.command_cwd(work.assigns, ctx.env),
            cwd_sure=ctx.env.state.cwd_sure == ctx.env.get(_CWD) and _CWD not in work.assigns,
            raw=raw,
        )
    )
    # `cat FILE | sh` reads FILE: once it was read and judged, it is not opaque.
    seen = False
    if not work.dyns[0] and (
        work.hooks is not None or payloads.may_run_a_file(work, raw, ctx.env, ctx.funcs)
    ):
        from dcg.shell import running

        seen = running.run(work, raw, ctx, out, WALKER)
    if work.opaque is not None and not (seen and work.feed_files):
        ctx.budget.command()
        out.append(opaque.command(work.opaque, work.via))
    _unknown_wrapper(work, redirects, ctx, out)
    for kind, label, text, args in work.payloads:
        child = ctx.child((*work.via, label))
        if work.positional is not None and kind == "sh":
            shellvars.set_positional(child.env, work.positional)
        if kind == "sh":  # the payload's environment has the prefix assignments
            child.env.update((k, v) for k, v in work.assigns.items() if k[:1] != "\x00")
            if not label.startswith("stdin of") and (work.piped or work.stdin is not None):
                fed = work.stdin if work.stdin is not None else work.fed
                child.env.state.feed = (tuple(work.source), fed)
            unseen = opaque.whole_unknown(text, child.env)
            if unseen is not None:
                WALKER.emit(f"{label} runs {unseen}, which dcg cannot know", child, out)
            run_text(text, child, out)
        elif kind == "argv":
            _command(unwrap.Work(list(args), [False] * len(args), child.via, None), (), child, out)
        elif kind == "powershell":
            from dcg.shell.derived import powershell

            powershell(text, child, out, parse)
        else:
            _embedded(kind, text, child, out)
        # Files the payload wrote stay written (dcg.shell.linefiles keys), for what runs next.
        __import__("dcg.shell.moves").shell.moves.carry(child.env, ctx.env)
    if work.feeder == "find" or work.argv[:1] == ["find"]:  # dcg.shell.derived, loaded then
        __import__("dcg.shell.derived").shell.derived.find_feeding(work, out, mark, ctx.env)


def _glob_command(
    work: unwrap.Work, redirects: tuple[tuple[str, str], ...], ctx: Ctx, out: list[Command]
) -> bool:
    """A glob in the command word (dcg.shell.derived); False when it is none after all."""
    from dcg.shell import derived, expand

    if not expand.has_glob(work.argv[0]):
        return False
    derived.globbed(work, redirects, ctx, out, _command)
    return True


def _embedded(lang: str, code: str, ctx: Ctx, out: list[Command], computed: bool = True) -> None:
    """The commands ``code`` runs (and modules written on the line it loads); ``computed=False``
    (a file from disk) drops code computed at run time: a program's own eval hides nothing."""
    import dcg.embedded as embedded

    analyze = embedded.analyze
    try:
        found: list[tuple[str, str]] = analyze(lang, code)
    except Exception:
        # A bug in the analyzer must not break the parse, nor let the code through
        # unseen: a dynamic command word makes the core.shell pack look at it.
        found = [(f"{lang} (analysis failed)", "$DCG_UNANALYZED_CODE")]
    via = ctx.via[:-1]
    for label, line in found:
        if line.startswith(("'<dynamic>'", "${")):
            if not computed:
                continue
            # The code runs a command whose text it computes (a decoded string, an
            # environment variable, a concatenation dcg could not evaluate).
            ctx.budget.command()
            what = "code" if line == "'<dynamic>' code" else "a command"
            why = f"{label} runs {what} computed at run time ({line[:40]})"
            out.append(opaque.command(why, (*via, label)))
            continue
        child = Ctx((*via, label), ctx.depth, ctx.env.copy(), ctx.budget, ctx.files, ctx.funcs)
        run_text(line, child, out)
        __import__("dcg.shell.moves").shell.moves.carry(child.env, ctx.env)
    if ctx.env.state.files:  # a module written on the line
        __import__("dcg.shell.modloads").shell.modloads.follow(lang, code, ctx, out, WALKER)


class _Walker:
    """What :mod:`dcg.shell.running` calls back into (it cannot import this module)."""

    @staticmethod
    def tokens(tokens: list[Token], ctx: Ctx, out: list[Command]) -> None:
        run_tokens(tokens, ctx, out)

    @staticmethod
    def embedded(lang: str, code: str, ctx: Ctx, out: list[Command], computed: bool) -> None:
        _embedded(lang, code, ctx, out, computed)

    @staticmethod
    def positional(env: dict[str, str | None], args: list[str | None]) -> None:
        shellvars.set_positional(env, args)

    @staticmethod
    def text(code: str, ctx: Ctx, out: list[Command]) -> None:
        run_text(code, ctx, out)

    @staticmethod
    def emit(why: str, ctx: Ctx, out: list[Command]) -> None:
        ctx.budget.command()
        out.append(opaque.command(why, ctx.via))


WALKER = _Walker()
# Commands whose arguments mention commands without running them (never unknown wrappers).
_NOT_WRAPPERS = frozenset((*context.ALL_ARGS, "alias", "unalias", "tldr", "cheat", "complete",
    "compgen", "hash", "history", "fc", "bind", "set", "unset", "dcg", "git", "export",
    "declare", "typeset", "local", "readonly", "read", "test", "[", "cd", "pushd", "ls",
    "cat", "less", "more", "head", "tail", "wc", "touch", "mkdir", "cp", "mv", "ln", "grep",
    "rg", "sed", "awk", "sort", "uniq", "tr", "cut", "jq", "yq", "tee", "diff", "file",
    "stat", "du", "df", "chmod", "chown", "rm", "rmdir", "find", "xargs", "make", "npm",
    "pnpm", "yarn", "pip", "pip3", "cargo", "go", "docker", "kubectl", "ssh", "scp"))  # fmt: skip
# Command words whose arguments a wrapper dcg does not know would run destructively.
_DESTRUCTIVE_HEADS = frozenset(("rm", "shred", "dd", "mkfs", "wipefs", "truncate", "find",
    "git", "rimraf", "unlink", "rmdir", "srm", "blkdiscard"))  # fmt: skip
UNKNOWN_WRAPPER_REACH = 4  # the destructive command word is at most this many words in


def _unknown_wrapper(
    work: unwrap.Work, redirects: tuple[tuple[str, str], ...], ctx: Ctx, out: list[Command]
) -> None:
    """An unknown command word followed (within a few words) by a known destructive
    command: judge the tail as the command it would run (`mywrap -q rm -rf src`).

    A tail whose arguments are harmless matches no rule, so only a destructive tail
    stops the line; the tail never starts at an option value of a known command."""
    argv, name = work.argv, work.argv[0]
    if work.dyns[0] or work.data or name in _NOT_WRAPPERS or len(argv) < 3:
        return
    if payloads.handler(name) is not None:
        return
    for k in range(1, min(len(argv) - 1, UNKNOWN_WRAPPER_REACH + 1)):
        head = unwrap.normalize(argv[k])
        if head in _DESTRUCTIVE_HEADS or head.startswith("mkfs."):
            tail = argv[k:]
            child = ctx.child((*work.via, f"{name} (unknown wrapper)"))
            sub = unwrap.Work(tail, work.dyns[k:], child.via, work.stdin)
            _command(sub, redirects, child, out)
            return
