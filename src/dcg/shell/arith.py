"""Values that run as code: arithmetic evaluation of ``a[$(…)]`` and commands split from unknowns.

Bash evaluates a variable's value as an arithmetic expression in ``(( x ))``,
``$(( x ))``, ``let``, the operands of ``[[ … -eq … ]]`` and assignments to a
``declare -i`` variable, recursively, and an array subscript in that expression runs its
command substitutions: with ``x='a[$(rm -rf ~)]'``, ``(( x ))`` deletes the home
directory. A value known on the line has its substitutions judged as commands; a value
that is the output of a command or of ``read`` (unknowable) makes the evaluation opaque.
A command word split from such a value, or from any unknown value under a changed
``IFS``, is opaque too. Values from the environment and loop variables are not judged
(that would stop every ``(( i++ ))``): a documented limit.
"""

from __future__ import annotations

from dcg.shell.opaque import LOOKUPS, SETUP, sub_programs

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from collections.abc import Callable

    from dcg.shell.command import Command
    from dcg.shell.parser import Simple
    from dcg.shell.runtext import Ctx, Walker
    from dcg.shell.state import Vars
    from dcg.shell.words import Word

_TESTS = frozenset(("-eq", "-ne", "-lt", "-le", "-gt", "-ge"))
# Builtins that take variable names (NAME[SUBSCRIPT] included) as operands.
NAME_TAKERS = frozenset(("unset", "test", "[", "read", "declare", "typeset", "local",
                         "export", "readonly", "mapfile", "readarray", "getopts", "wait",
                         "printf"))  # fmt: skip
_DEFAULT_IFS = (" \t\n", None)
# Programs whose output is a number or a date, never text an attacker chose.
_NUMERIC = frozenset(("wc", "nproc", "date", "id", "expr", "seq", "getconf", "stat", "bc",
                      "du", "df", "printf", "echo", "git", "tput", "ulimit"))  # fmt: skip


def values_as_code(
    simple: Simple,
    argv: list[str],
    ctx: Ctx,
    out: list[Command],
    sub_text: Callable[[Word, int], str | None],
    walker: Walker,
) -> None:
    """Arithmetic that runs a value's a[$(…)], a command word split from an unknown."""
    from dcg.shell.words import expand

    env = ctx.env
    note_origins(simple, argv, env)

    def text(word: Word) -> str:
        fields = expand(word, env, sub_text, split=False)[0]
        return fields[0] if fields else ""

    def run(code: str) -> None:
        walker.text(code, ctx.child((*ctx.via, "arithmetic a[$(…)]")), out)

    def emit(why: str) -> None:
        walker.emit(why, ctx, out)

    for expr, expanded in expressions(simple, argv, env, text):
        judge(expr, expanded, env, run, emit)
    _side_effects(simple, argv, env, text)
    why = split_word(simple, env)
    if why is not None:
        emit(why)


def note_origins(simple: Simple, argv: list[str], env: Vars) -> None:
    """Remember which unknown variables hold a command's output or read input."""
    for word in simple.assigns:
        name = word.assign or ""
        if word.subs and env.get(name) is None:
            names: list[str] = []
            for _, payload in word.subs:
                names.extend(sub_programs(payload) if not isinstance(payload, str) else ["`…`"])
            if names and not all(n in LOOKUPS or n in SETUP or n in _NUMERIC for n in names):
                env.state.origins[name] = f"the output of $({' | '.join(names)})"
        elif name:
            env.state.origins.pop(name, None)
    if argv[:1] in (["read"], ["mapfile"], ["readarray"]):
        for a in argv[1:]:
            if not a.startswith("-") and a.replace("_", "a").isalnum():
                env.state.origins[a] = f"input read by {argv[0]}"


_ASSIGN_OPS = ("=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|=")


def _side_effects(simple: Simple, argv: list[str], env: Vars, text: Callable[[Word], str]) -> None:
    """Variables arithmetic changes (``((c++))``, ``let c+=2``, ``c+=3`` on a ``declare -i``
    name) hold a value dcg does not compute: unknown from here on."""
    exprs = [text(w) for w in simple.extra]
    if argv[:1] == ["let"]:
        exprs += argv[1:]
    for expr in exprs:
        for name in _changed(expr):
            env[name] = None
    for word in simple.assigns:
        name = (word.assign or "").partition("[")[0]
        if name in env.state.int_vars and not (
            text(word).partition("=")[2].isdigit() and "+=" not in word.source()
        ):
            env[name] = None


def _changed(expr: str) -> list[str]:
    """Names an arithmetic expression assigns: ``c++``, ``--c``, ``c = …``, ``c += …``."""
    names: list[str] = []
    i, n = 0, len(expr)
    while i < n:
        if expr[i].isalpha() or expr[i] == "_":
            j = i
            while j < n and (expr[j].isalnum() or expr[j] == "_"):
                j += 1
            name, rest, before = expr[i:j], expr[j:].lstrip(), expr[:i].rstrip()
            if (
                rest.startswith(("++", "--"))
                or before.endswith(("++", "--"))
                or (rest.startswith(_ASSIGN_OPS) and not rest.startswith("=="))
            ):
                names.append(name)
            i = j
        else:
            i += 1
    return names


def expressions(
    simple: Simple, argv: list[str], env: Vars, expanded: Callable[[Word], str]
) -> list[tuple[str, bool]]:
    """The arithmetic expressions the command evaluates: (text, text came from expansion)."""
    out: list[tuple[str, bool]] = []
    for word in (*simple.extra, *simple.words, *simple.assigns):
        for part in word.parts:
            raw = part[2]
            if part[0] == "x" and raw.startswith("((") and raw.endswith("))"):
                out.append((raw[2:-2], False))
            elif part[0] == "x" and raw.startswith("$((") and raw.endswith("))"):
                out.append((raw[3:-2], False))
    extra = simple.extra
    for k, word in enumerate(extra):
        if word.plain() in _TESTS:
            for j in (k - 1, k + 1):
                if 0 <= j < len(extra):
                    out.append((expanded(extra[j]), True))
    if argv[:1] == ["let"]:
        out.extend((a, True) for a in argv[1:])
    elif argv and argv[0] in NAME_TAKERS:
        # A NAME[SUBSCRIPT] operand: bash evaluates the subscript (its $(…) runs), even
        # when the quotes kept the shell from expanding it (`unset 'a[$(…)]'`).
        named = argv[1:]
        if argv[0] in ("test", "[", "printf"):  # only the operand of -v (-R: a nameref)
            named = [a for k, a in enumerate(argv[2:], 2) if argv[k - 1] in ("-v", "-R")]
        out.extend((a[a.index("[") :], True) for a in named if "[" in a and _runs(a))
    for k, word in enumerate(extra[:-1]):
        if word.plain() in ("-v", "-R"):
            operand = expanded(extra[k + 1])
            if "[" in operand and _runs(operand):
                out.append((operand[operand.index("[") :], True))
    declared = argv[:1] in (["declare"], ["typeset"], ["local"]) and any(
        a.startswith("-") and "i" in a for a in argv[1:]
    )
    for a in argv[1:] if declared else ():
        name, eq, value = a.partition("=")
        if not name.startswith("-"):
            env.state.int_vars[name] = ""
            env.state.integers = True  # the walker's cheap test
            if eq:
                out.append((value, True))
    for word in (*simple.assigns, *(simple.words[1:] if declared else ())):
        name = word.assign or ""
        if "[" in name and name.endswith("]"):  # NAME[SUBSCRIPT]=: an indexed subscript
            out.append((name[name.index("[") + 1 : -1], False))
        if name.rstrip("+").partition("[")[0] not in env.state.int_vars:
            continue
        if word.array is not None:  # b=('x[$(…)]') of a `declare -ai b`: each element
            out.extend((expanded(e).rpartition("]=")[2] if e.source()[:1] == "[" else
                        expanded(e), True) for e in word.array)  # fmt: skip
        elif word in simple.assigns:
            out.append((expanded(word).partition("=")[2], True))
    out.extend(_read_into_integers(argv, env))
    return out


def _read_into_integers(argv: list[str], env: Vars) -> list[tuple[str, bool]]:
    """``read n``/``read -a a``/``mapfile a`` into a ``declare -i`` name: bash evaluates
    what is read as arithmetic (its ``a[$(…)]`` run); input dcg does not know is
    judged by its origin (:func:`judge` on the name)."""
    if argv[:1] not in (["read"], ["mapfile"], ["readarray"]) or not env.state.int_vars:
        return []
    from dcg.shell.params import UNKNOWN, get_array

    out: list[tuple[str, bool]] = []
    for a in argv[1:]:
        if a not in env.state.int_vars:
            continue
        entries = get_array(env, a)
        values = [env.get(a)] if entries is None else [v for _, v in entries]
        for value in values:
            if value is None or value == UNKNOWN:
                out.append((a, False))  # judged as the name: its origin says why
            else:
                out.append((value, True))
    return out


def judge(
    text: str,
    expanded_text: bool,
    env: Vars,
    run: Callable[[str], None],
    emit: Callable[[str], None],
    depth: int = 0,
) -> None:
    """Run the substitutions an evaluation of ``text`` would run; flag unknowable values."""
    if expanded_text or depth:
        i = text.find("$(")
        while i >= 0:
            end = _close(text, i + 1)
            run(text[i + 2 : end])
            i = text.find("$(", end)
        if "`" in text:
            parts = text.split("`")
            for inner in parts[1::2]:
                run(inner)
    for name in _names(text):
        if name not in env or depth > 8:
            continue
        value = env[name]
        if value is None:
            origin = env.state.origins.get(name)
            if origin:
                emit(
                    f"arithmetic evaluation of {name}, whose value is {origin}, runs any "
                    "a[$(…)] it holds"
                )
        elif value:
            judge(value, True, env, run, emit, depth + 1)


def _runs(text: str) -> bool:
    return "$(" in text or "`" in text


def _close(text: str, i: int) -> int:
    depth = 0
    for k in range(i, len(text)):
        if text[k] == "(":
            depth += 1
        elif text[k] == ")":
            depth -= 1
            if depth == 0:
                return k
    return len(text)


def _names(text: str) -> list[str]:
    names: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isalpha() or c == "_":
            j = i
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            if i == 0 or not text[i - 1].isalnum():
                names.append(text[i:j])
            i = j
        else:
            i += 1
    return names


def _unevaluated(raw: str, env: Vars) -> str | None:
    """Why a ``${…}`` in the command word on a variable the line set cannot be known."""
    from dcg.shell import params

    body = raw[2:-1].lstrip("!#")
    name = body[: next((k for k, c in enumerate(body) if not (c.isalnum() or c == "_")), len(body))]
    if not name or not params.known(env, name):
        return None
    runs, env.state.runs = env.state.runs, None
    got = params.expand(raw, env)
    env.state.runs = runs
    if got is not None:
        return None
    origin = env.state.origins.get(params.target(env, name))
    if origin:
        return f"the command is taken from {raw}, whose value is {origin}"
    return f"the command word {raw} is computed from ${name} in a way dcg cannot evaluate"


def split_word(simple: Simple, env: Vars) -> str | None:
    """Why the command word is opaque when it is an unquoted variable split at run time."""
    if not simple.words:
        return None
    word = simple.words[0]
    for part in word.parts:
        if part[0] == "x" and part[2][:2] == "${":
            why = _unevaluated(part[2], env)
            if why is not None:
                return why
    if len(word.parts) != 1 or word.parts[0][0] != "v" or word.parts[0][3]:
        return None
    name = word.parts[0][1]
    if name in env and env[name] is not None:
        return None
    origin = env.state.origins.get(name)
    if origin:
        return f"the command is split from ${name}, whose value is {origin}"
    ifs = env.get("IFS") if "IFS" in env else None
    if "IFS" in env and ifs not in _DEFAULT_IFS:
        return f"the command is split from ${name} by a changed IFS, and its value is unknown"
    return None
