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

    from dcg.shell.parser import Simple
    from dcg.shell.words import Word

ORIGIN = "\x00from:"  # why a variable's value is unknown: the output of a command, read
INTEGER = "\x00int:"  # declared with declare -i: assignments evaluate arithmetic
_TESTS = frozenset(("-eq", "-ne", "-lt", "-le", "-gt", "-ge"))
_DEFAULT_IFS = (" \t\n", None)
# Programs whose output is a number or a date, never text an attacker chose.
_NUMERIC = frozenset(("wc", "nproc", "date", "id", "expr", "seq", "getconf", "stat", "bc",
                      "du", "df", "printf", "echo", "git", "tput", "ulimit"))  # fmt: skip


def note_origins(simple: Simple, argv: list[str], env: dict[str, str | None]) -> None:
    """Remember which unknown variables hold a command's output or read input."""
    for word in simple.assigns:
        name = word.assign or ""
        if word.subs and env.get(name) is None:
            names: list[str] = []
            for _, payload in word.subs:
                names.extend(sub_programs(payload) if not isinstance(payload, str) else ["`…`"])
            if names and not all(n in LOOKUPS or n in SETUP or n in _NUMERIC for n in names):
                env[ORIGIN + name] = f"the output of $({' | '.join(names)})"
        elif name:
            env.pop(ORIGIN + name, None)
    if argv[:1] in (["read"], ["mapfile"], ["readarray"]):
        for a in argv[1:]:
            if not a.startswith("-") and a.replace("_", "a").isalnum():
                env[ORIGIN + a] = f"input read by {argv[0]}"


def expressions(
    simple: Simple, argv: list[str], env: dict[str, str | None], expanded: Callable[[Word], str]
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
    declared = argv[:1] in (["declare"], ["typeset"], ["local"]) and any(
        a.startswith("-") and "i" in a for a in argv[1:]
    )
    for a in argv[1:] if declared else ():
        name, eq, value = a.partition("=")
        if not name.startswith("-"):
            env[INTEGER + name] = ""
            env["\x00int"] = ""  # the walker's cheap test: some variable is an integer
            if eq:
                out.append((value, True))
    for word in simple.assigns:
        if INTEGER + (word.assign or "") in env:
            out.append((expanded(word).partition("=")[2], True))
    return out


def judge(
    text: str,
    expanded_text: bool,
    env: dict[str, str | None],
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
            origin = env.get(ORIGIN + name)
            if origin:
                emit(
                    f"arithmetic evaluation of {name}, whose value is {origin}, runs any "
                    "a[$(…)] it holds"
                )
        elif value:
            judge(value, True, env, run, emit, depth + 1)


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


def split_word(simple: Simple, env: dict[str, str | None]) -> str | None:
    """Why the command word is opaque when it is an unquoted variable split at run time."""
    if not simple.words:
        return None
    word = simple.words[0]
    if len(word.parts) != 1 or word.parts[0][0] != "v" or word.parts[0][3]:
        return None
    name = word.parts[0][1]
    if name in env and env[name] is not None:
        return None
    origin = env.get(ORIGIN + name)
    if origin:
        return f"the command is split from ${name}, whose value is {origin}"
    ifs = env.get("IFS") if "IFS" in env else None
    if "IFS" in env and ifs not in _DEFAULT_IFS:
        return f"the command is split from ${name} by a changed IFS, and its value is unknown"
    return None
