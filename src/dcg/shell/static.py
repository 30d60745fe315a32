"""What echo and printf print, and what a loop variable stands for, when known statically."""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path
if TYPE_CHECKING:
    from collections.abc import Sequence

    from dcg.shell.parser import Simple
    from dcg.shell.state import Vars
    from dcg.shell.words import Token, Word


def echo_text(args: list[str]) -> str:
    """The output of ``echo ARGS`` (bash builtin), without the final newline."""
    i = 0
    escapes = False
    while (
        i < len(args) and len(args[i]) > 1 and args[i][0] == "-" and set(args[i][1:]) <= set("neE")
    ):
        escapes = "e" in args[i] or escapes
        i += 1
    text = " ".join(args[i:])
    if not escapes:
        return text
    from dcg.shell.patterns import decode

    return decode(text, "echo")[0]


def printf_text(args: list[str]) -> str | None:
    """The output of ``printf FORMAT ARGS`` when it is known (dcg.shell.printfmt), else None."""
    dashdash = args[:1] == ["--"]  # printf -- '-include x.mk': the format may start with "-"
    if dashdash:
        args = args[1:]
    if not args or (not dashdash and args[0].startswith("-")):
        return None
    from dcg.shell.printfmt import format_text

    text = format_text(args[0], args[1:])
    return None if text is None else text.rstrip("\n")


def piped_text(pipe: Simple) -> str | None:
    argv = pipe.fields
    from dcg.shell.unwrap import normalize

    name = normalize(argv[0]) if argv else ""
    if name == "echo":
        return echo_text(argv[1:])
    if name == "printf":
        return printf_text(argv[1:])
    if name == "cat" and pipe.stdin is not None and all(a.startswith("-") for a in argv[1:]):
        return pipe.stdin
    return None


def static_output(tokens: list[Token], env: Vars) -> str | None:
    """The output of $(echo WORDS), $(printf %s WORD), $(mktemp …) or a program looked up
    on PATH ($(which dcg), $(command -v dcg), $(type -P dcg)), when it is known; of
    alternatives (`$(command -v pnpm || echo npm)`) the first that succeeds."""
    if any(kind == "o" for kind, *_ in tokens):
        return _first_found(tokens, env)
    from dcg.shell.words import expand

    args: list[str] = []
    for kind, _, word, _ in tokens:
        if kind != "w" or word is None:
            return None
        fields, dyn = expand(word, env, lambda _w, _k: None)
        if dyn:
            return None
        args.extend(fields)
    if not args:
        return None
    if args[0] == "echo":
        return echo_text(args[1:])
    if args[0] == "printf":
        return printf_text(args[1:])
    if args[0] == "mktemp":
        from dcg.targets import mktemp_output

        return mktemp_output(args[1:])
    if args[0] == "pwd" and all(a in ("-L", "-P") for a in args[1:]) and env.get("PWD"):
        return str(env.get("PWD"))  # `$(pwd)/x.sh` is `$PWD/x.sh`
    if args[:2] in (["command", "-v"], ["type", "-P"], ["type", "-p"]) or args[:1] == ["which"]:
        names = [a for a in args[1:] if not a.startswith("-")]
        return on_path(names[0], env) if len(names) == 1 else None
    return None


def _first_found(tokens: list[Token], env: Vars) -> str | None:
    """``A || B || …`` where each is a lookup on PATH (it fails when nothing is found) or
    an echo/printf (it succeeds): the output of the first that succeeds."""
    parts: list[list[Token]] = [[]]
    for token in tokens:
        if token[0] != "o":
            parts[-1].append(token)
        elif token[1] == "||" and parts[-1]:
            parts.append([])
        else:
            return None
    for part in parts:
        first = part[0][2]
        name = first.literal() if first is not None else None
        lookup = name in ("command", "type", "which")
        if not lookup and name not in ("echo", "printf"):
            return None
        out = static_output(part, env)
        if out is not None or not lookup:
            return out
        looked = [a for a in (w.literal() for _, _, w, _ in part[1:] if w) if a and a[0] != "-"]
        if not looked or _may_launch(looked[-1]) or _made(looked[-1], env):
            return None  # found by the agent's shell, it might start dcg: unknown
    return None


# Programs that can start any other (dcg included) from their arguments: a lookup of one
# that fails in the hook's PATH may still succeed in the agent's shell.
_LAUNCHERS = frozenset(("uv", "uvx", "pipx", "pip-run", "sh", "bash", "dash", "zsh", "ksh",
    "fish", "busybox", "env", "sudo", "doas", "su", "nohup", "setsid", "timeout", "nice",
    "script", "xargs", "perl", "ruby", "node", "deno", "bun", "php", "lua", "tclsh",
    "pwsh", "exec", "command", "builtin"))  # fmt: skip


def _made(name: str, env: Vars) -> bool:
    """The line changed PATH, hashed a name, or wrote, copied, linked or moved a file of
    that name: the lookup may find it when the line runs (dcg.shell.cmdnames)."""
    state = env.state
    made = [*state.files, *state.moved]
    return "PATH" in env or bool(state.hashes) or any(p.rpartition("/")[2] == name for p in made)


def _may_launch(name: str) -> bool:
    return "dcg" in name or name.startswith(("python", "pypy", "py")) or name in _LAUNCHERS


def on_path(name: str, env: Vars) -> str | None:
    """Where ``name`` is found on ``$PATH`` (the line's value, else the hook's), like
    ``command -v`` (None: not found, or a PATH computed at run time)."""
    from dcg import oslite as os

    if "/" in name or not name:
        return None
    path = env["PATH"] if "PATH" in env else os.environ.get("PATH")
    for d in (path or "").split(":"):
        full = os.path.join(d or ".", name)
        if d.startswith("/") and os.path.isfile(full) and os.access(full, os.X_OK):
            return full
    return None


def bind_loop(name: str, words: Sequence[Word], env: Vars) -> None:
    """Set a ``for``/``select`` variable for the loop's body: unknown, except when the
    list holds an unquoted glob (``for f in src/*.py``): then the glob itself, so that
    ``rm "$f"`` is judged as the delete of every file the glob matches. A list that is a
    command's output or a variable dcg does not know makes it one of the names those
    hold (:data:`dcg.shell.words.NAMES`). A loop over the positional parameters is one
    over a glob or find's ``{}`` among them."""
    from dcg.shell.expand import has_glob
    from dcg.shell.words import expand

    env[name] = None
    env.state.origins.pop(name, None)
    if all(w.source() in ('"$@"', "$@", "$*", '"$*"') for w in words):  # `for f; do`
        from dcg.shell.shellvars import positional_args

        many = [a for a in positional_args(env) or () if a == "{}" or has_glob(a)]
        env[name] = many[0] if many else None  # `sh -c 'for f; do …' _ {} +`, `_ src/*`
        return
    for word in words:
        if any(k == "s" and not q and has_glob(v) for k, v, _raw, q in word.parts):
            fields = expand(word, env, lambda _w, _k: None)[0]
            env[name] = next((f for f in fields if has_glob(f)), None)
            return
    for w in words:  # `$(git ls-files)`, `$files` holding something unknown
        if w.subs or any(p[0] == "v" and not p[3] and env.get(p[1]) is None for p in w.parts):
            env.state.origins[name] = "one of the names a command prints" + _printer(w)
            return
    # `for d in build dist`: one of those words each time (dcg.shell.choices)
    from dcg.shell import choices

    values: list[str] = []
    for w in words:
        fields, dynamic = expand(w, env, lambda _w, _k: None)
        if dynamic:
            return
        values.extend(fields)
    if 0 < len(set(values)) <= choices.MAX:
        env.state.choices[name] = choices.SEP.join(sorted(set(values)))


def _printer(word: Word) -> str:
    """`` (git branch)``: the program and subcommand whose output a loop list is."""
    from dcg.shell.parser import split

    for _, payload in word.subs[:1]:
        if isinstance(payload, str):
            return ""
        for simple in split(payload, 0)[:1]:
            lits = [w.literal() or "?" for w in simple.words[:2]]
            return f" ({' '.join(lits)})" if lits else ""
    return ""
