"""A variable that holds one of a few known values after branches dcg cannot decide.

``PM=npm; [ -f pnpm-lock.yaml ] && PM=pnpm; $PM install`` or nvm's
``make=make; case $NVM_OS in freebsd) make=gmake;; esac; $make install``: whether the
branch runs is not known, so the variable's value is unknown (:mod:`dcg.shell.flow`),
and a program read from an unknown value is fail-closed (it may be ``dcg``). But every
value it can hold is known: the one before and the one each branch left. The walker
records them here (``WalkerState.choices``: name -> values joined by ``\\x1f``) and
judges a command that uses such a variable once per value — as bash would run one of
them. Any later assignment to the name drops its record (``Vars.__setitem__``); a branch
that made it unknown, unset it or set it from something unknown gives no record.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.shell.parser import Simple
    from dcg.shell.state import Vars

MAX = 8  # values judged one by one; more is an unknown value, as before
SEP = "\x1f"
_MISSING = object()
_PREFIXES = frozenset(("command", "exec", "builtin", "time", "nohup", "--", "-p"))


def _values(key: str, value: object, env: Vars) -> set[str] | None:
    if isinstance(value, str):
        return {value}
    if value is None:
        held = env.state.choices.get(key)
        return set(held.split(SEP)) if held else None
    return None  # unset: ${x-…} forms differ from any value


def gather(now: Vars, before: Vars, into: dict[str, set[str] | None]) -> None:
    """Fold the values a branch that may run leaves into ``into`` (None: not a choice)."""
    for key in {*now, *before}:
        new, old = now.get(key, _MISSING), before.get(key, _MISSING)
        if new is old or new == old or key[:1] == "\x00":
            continue
        if key in into and into[key] is None:
            continue
        got = into.setdefault(key, set())
        for value, table in ((new, now), (old, before)):
            if value is _MISSING and table is before:
                continue  # as dcg.shell.flow._merge: a name the line had not set
            more = _values(key, value, table)
            if more is None or got is None:
                into[key] = None
                break
            got |= more
        found = into[key]
        if found is not None and len(found) > MAX:
            into[key] = None


def record(env: Vars, found: dict[str, set[str] | None], changed: dict[str, str | None]) -> None:
    """After a construct: a name it left unknown keeps the values gathered for it."""
    table = env.state.choices
    for key in changed:
        values = found.get(key)
        if values and env.get(key, "") is None:
            table[key] = SEP.join(sorted(values))
        else:
            table.pop(key, None)


def _name(word: object, env: Vars) -> str | None:
    for kind, value, raw, _quoted in getattr(word, "parts", ()):
        if kind == "v":
            name = value
        elif kind == "x" and raw[:2] == "${" and raw[2:-1].isidentifier():
            name = raw[2:-1]
        else:
            continue
        if name in env.state.choices and env.get(name, "") is None:
            return str(name)
    return None


def used(simple: Simple, env: Vars, funcs: object = None) -> str | None:
    """The variable holding one of a few values that ``simple`` uses: its program's
    (``$PM install``, ``command "${tar}" -x…``), else the first in its words (``rm -rf
    "$OUT"``). Not for a call of a function the line defined, nor a program that may be
    one: its body would be walked with values that other variables, set in the same
    branch, contradict — that stays an unknown value."""
    program = next((w for w in simple.words if w.literal() not in _PREFIXES), None)
    if program is None or _function(program.literal(), funcs):
        return None
    name = _name(program, env)
    if name is not None:
        held = env.state.choices.get(name) or ""
        if any(_function((v.split() or [""])[0], funcs) for v in held.split(SEP)):
            return None
        return name
    return next((n for w in simple.words if (n := _name(w, env)) is not None), None)


def _function(word: str | None, funcs: object) -> bool:
    return bool(word and funcs and word in funcs)  # type: ignore[operator]
