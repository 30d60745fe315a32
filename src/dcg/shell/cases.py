"""A call of a function read from a script; its ``case`` on its arguments runs one branch.

A function's body is judged when it is called (once; once per arguments when they chose
a branch).
A library's dispatcher (nvm's ``nvm() { COMMAND="${1-}"; shift; case $COMMAND in 'use')
…;; 'uninstall') rm -rf …;; esac; }``) is judged, for ``nvm use 20``, by its ``use``
branch. The subject must be known for sure: a positional parameter of the call, or a
variable set from one (``X="${1-}"``) and changed nowhere else before the ``case``, with
``shift`` counted only at the body's top level. Anything else keeps every branch.
"""

from __future__ import annotations

from dcg.shell.expand import has_glob, match
from dcg.shell.limits import bounded
from dcg.shell.scripts import compounds
from dcg.shell.state import POSITIONAL

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection
    from typing import Any

    from dcg.shell.command import Command
    from dcg.shell.unwrap import Work
    from dcg.shell.words import Token, Word

Lines = list[tuple[int, list["Token"]]]
_OPEN = frozenset(("if", "while", "until", "for", "select", "case", "{"))
_CLOSE = frozenset(("fi", "done", "esac", "}"))
_CMD_AFTER = frozenset(("then", "do", "else", "elif", "{", "!", "if", "while", "until"))


def known_args(work: Work, start: int = 1, env: Any = None) -> list[str | None]:
    """The arguments from ``start`` on, None for one known only at run time (computed,
    or a glob that may match files). With ``env``, a lone ``"$@"`` is the caller's own
    arguments as the call received them (``nvm "$@"`` inside ``nvm use --silent "$V"``
    is ``use``, ``--silent`` and one unknown), not one unknown word."""
    if env is not None and work.argv[start:] in _ALL_ARGS and work.dyns[start]:
        count = env.get(POSITIONAL + "n")
        if count is not None and int(count) <= 9:
            return [env.get(f"{POSITIONAL}{k}") for k in range(1, int(count) + 1)]
    return [
        None if d or has_glob(a) else a
        for a, d in zip(work.argv[start:], work.dyns[start:], strict=False)
    ]


def judged(name: str, work: Work, ctx: Any) -> bool:
    """The function was already judged on this line (for these arguments; for these
    values too when its judging skipped a branch by a condition, dcg.shell.conds)."""
    called = ctx.files.called if ctx.files else ()
    key = f"{name}\x00{known_args(work, env=ctx.env)}"
    if name + "\x00busy" in called:  # a recursive call: judged by this reading if alike
        args, now, local, seen = ctx.files.entered.get(name, (None, None, (), None))
        same = known_args(work, env=ctx.env) == args or (
            work.argv[1:] in _ALL_ARGS and _args_now(ctx.env) == now
        )
        if same and _globals(ctx.env, local) == seen:
            return True  # `IFS=… nvm "$@"` inside nvm: this very call again
        if key in called and key + "\x00d" not in called:
            return True  # judged (or being judged) for these arguments whatever the values
        return f"{key}\x00{_values(name, ctx, work)}" in called
    if name in called:
        return True
    if key not in called:
        return False
    return key + "\x00d" not in called or f"{key}\x00{_values(name, ctx, work)}" in called


_ALL_ARGS = (["$@"], ["${@}"])
_ARG_KEYS = (
    POSITIONAL,
    POSITIONAL + "#",
    POSITIONAL + "n",
    *(f"{POSITIONAL}{k}" for k in range(1, 10)),
)


def _args_now(env: Any) -> tuple[str | None, ...]:
    return tuple(env.get(k) for k in _ARG_KEYS)


def _globals(env: Any, local: Collection[str] = (), extra: frozenset[object] = frozenset()) -> int:
    """What the variables are, positional parameters and ``local`` names left out, with
    ``extra``: a call of itself with the same arguments and these the same is the call
    being judged."""
    seen = frozenset(
        (k, v) for k, v in env.items() if not k.startswith(POSITIONAL) and k not in local
    )
    state = env.state
    return hash((seen, extra, state.aliases, state.namerefs, state.integers, state.nocase))


def _values(name: str, ctx: Any, work: Work) -> int:
    """What the variables are at the call, its prefix assignments included (its
    positional parameters are its arguments)."""
    prefix = frozenset((k, v) for k, v in work.assigns.items() if k[:1] != "\x00")
    return _globals(ctx.env, extra=prefix)


# Readings of one function with the same arguments that skipped branches by values: past
# this many, the next one decides nothing (it covers every value) and the function is
# judged for good.
DECIDED_READINGS = 4


_UNSET: Any = "\x00unset-before-call"


def _locals(body: list[tuple[int, list[Token]]]) -> set[str]:
    """The names a function body declares with ``local``/``declare``/``typeset``."""
    names: set[str] = set()
    for _, tokens in body:
        declaring = False
        for kind, _op, w, _ in tokens:
            if kind != "w" or w is None:
                declaring = False
                continue
            text = w.source()
            if text in ("local", "declare", "typeset"):
                declaring = True
            elif declaring and text[:1] != "-":
                name = text.partition("=")[0]
                if name.isidentifier():
                    names.add(name)
    return names


def call(name: str, work: Work, ctx: Any, out: list[Command], walker: Any) -> None:
    """A call of a function defined in a script read on this line: judge its body."""
    shown, body = ctx.funcs[name]
    args = known_args(work, env=ctx.env)
    taken = prune(body, args)
    key = f"{name}\x00{args}"
    called: set[str] = ctx.files.called if ctx.files is not None else set()
    # Being judged: a recursive call is judged by this reading when its values are these.
    fresh = {name if taken is body else key, f"{key}\x00{_values(name, ctx, work)}"} - called
    outermost = name + "\x00busy" not in called  # the reading a recursive call is part of
    fresh.add(name + "\x00busy")
    called.update(fresh)
    if key + "\x00d" in called:
        called.discard(name)
    decided = ctx.env.state.decided[0]
    readings = ctx.files.memo.get(key, 0) if ctx.files is not None else 0
    if ctx.files is not None:
        ctx.files.memo[key] = readings + 1
    base = ctx.shared(ctx.via)
    saved = {k: base.env.get(k, _UNSET) for k in _ARG_KEYS}  # none at the line's top
    in_function = base.env.state.in_function
    local = _locals(taken)  # they go back to their values when the function returns
    prefix = {k: v for k, v in work.assigns.items() if k[:1] != "\x00"}  # `IFS=… f`
    saved.update((k, base.env.get(k, _UNSET)) for k in (*local, *prefix))
    base.env.update(prefix)
    covering = base.env.state.covering
    if readings >= DECIDED_READINGS:
        base.env.state.covering = True
    walker.positional(base.env, args)
    entered = ctx.files.entered if ctx.files is not None else {}
    outer = entered.get(name)
    entered[name] = (args, _args_now(base.env), local, _globals(base.env, local))
    base.env.state.in_function = name  # `local` works here (dcg.shell.flow)

    def read() -> None:
        for number, tokens in compounds(taken):
            line_ctx = base.shared((*ctx.via, f"in {shown} line {number} (function {name})"))
            line_ctx.depth = base.depth
            walker.tokens(tokens, line_ctx, out)

    bounded(ctx.budget, ctx.files, f"{shown} (function {name})", read)
    if outer is None:
        entered.pop(name, None)
    else:
        entered[name] = outer
    if outermost:
        called.discard(name + "\x00busy")
    undecided = base.env.state.undecided or base.env.state.covering
    base.env.state.covering = covering  # what the body itself ends (undecided) stays
    if base.env.state.decided[0] != decided and not undecided:
        called.discard(name)  # judged for these values only
        called.update((key, key + "\x00d"))
    elif readings >= DECIDED_READINGS:
        called.discard(key + "\x00d")  # judged for every value
    for k, v in saved.items():
        if v is _UNSET:
            base.env.pop(k, None)
        else:
            base.env[k] = v
    base.env.state.in_function = in_function


def _param(text: str) -> str | None:
    """``$1``, ``${1}``, ``${1-}``, ``${1:-}`` -> ``"1"``; a name for ``$X``/``${X-}``."""
    if not text.startswith("$"):
        return None
    inner = text[1:]
    if inner.startswith("{") and inner.endswith("}"):
        inner = inner[1:-1]
        for op in (":-", "-"):
            if inner.endswith(op):
                inner = inner[: -len(op)]
    return inner if inner and (inner.isdigit() or inner.replace("_", "a").isalnum()) else None


def _value(word: Word, args: list[str | None], known: dict[str, str | None]) -> str | None:
    """The word's value when it is a plain literal or a known parameter (else None)."""
    literal = word.literal()
    if literal is not None:
        return literal
    if len(word.parts) != 1:
        return None
    name = _param(word.source())
    if name is None:
        return None
    if name.isdigit():
        k = int(name)
        return args[k - 1] if 0 < k <= len(args) else ""
    return known.get(name)


def _matches(word: Word, value: str) -> bool | None:
    """Whether a case pattern word matches ``value``; None when it cannot be told."""
    literal = word.literal()
    if literal is None:
        return None
    if not word.quoted and has_glob(literal):
        return match(literal, value)
    if word.quoted and any(p[0] == "s" and has_glob(p[1]) for p in word.parts):
        return None  # part quoted, part glob: not worth guessing
    return literal == value


def prune(body: Lines, args: list[str | None]) -> Lines:
    """``body`` without the branches of top-level-known ``case`` statements not taken."""
    flat = [(number, tok) for number, tokens in body for tok in tokens]
    if not any(tok[2] is not None and tok[2].plain() == "case" for _, tok in flat):
        return body
    drop: set[int] = set()
    positions: list[str | None] = list(args)
    known: dict[str, str | None] = {}
    depth, cmd = 0, True
    i = 0
    while i < len(flat):
        if i in drop:
            i += 1
            continue
        kind, op, w, _ = flat[i][1]
        word = w.plain() if (w is not None and kind == "w") else None
        if i and flat[i - 1][0] != flat[i][0]:
            cmd = True  # a new line (the body is kept line by line, without newlines)
        if kind == "o":
            cmd = op in (";", "\n", "&&", "||", "|", "&", "(", ")", ";;")
        elif cmd and word == "case" and w is not None:
            subject = flat[i + 1][1][2] if i + 1 < len(flat) else None
            value = _value(subject, positions, known) if subject is not None else None
            if value is not None:
                _case(flat, i + 2, value, drop)  # the branches kept are read on from here
            depth += 1
            cmd = False
        elif cmd and word in _OPEN:
            depth += 1
        elif cmd and word in _CLOSE:
            depth = max(depth - 1, 0)
        elif cmd and w is not None:
            _track(flat, i, w, word, depth, positions, known)
            cmd = w.assign is not None or word in _CMD_AFTER
        i += 1
    out: Lines = []
    for k, (number, tok) in enumerate(flat):
        if k in drop:
            continue
        if out and out[-1][0] == number:
            out[-1][1].append(tok)
        else:
            out.append((number, [tok]))
    return out


def _track(
    flat: list[tuple[int, Token]],
    i: int,
    w: Word,
    word: str | None,
    depth: int,
    args: list[str | None],
    known: dict[str, str | None],
) -> None:
    """Assignments from positional parameters and ``shift`` at the top level."""
    if w.assign is not None:
        name = w.assign
        if depth == 0 and name not in known:
            value = w.source()[len(name) + 1 :]
            param = _param(value)
            known[name] = (
                (args[int(param) - 1] if int(param) <= len(args) else "")
                if param is not None and param.isdigit() and int(param) > 0
                else None
            )
        else:
            known[name] = None  # set again, or inside a branch: no longer sure
        return
    if word == "shift":
        same = i + 1 < len(flat) and flat[i + 1][0] == flat[i][0]
        nxt = flat[i + 1][1][2] if same else None
        count = nxt.plain() if nxt is not None and flat[i + 1][1][0] == "w" else None
        if depth != 0:
            args[:] = [None] * 64  # a shift in a branch: no position is known any more
        elif count is None:
            del args[:1]
        elif count.isdigit():
            del args[: int(count)]
        else:
            args[:] = [None] * 64  # shift by something not known


def _case(flat: list[tuple[int, Token]], i: int, value: str, drop: set[int]) -> int:
    """Mark the branches of the ``case`` whose ``in`` is at ``i`` that ``value`` does not
    take; return the index after its ``esac``."""
    n = len(flat)
    head = flat[i][1][2] if i < n else None
    if head is None or head.plain() != "in":
        return i
    i += 1
    taken = False  # a branch was taken: the rest are not (unless ;& or ;;& continue)
    keep_next = False
    while i < n:
        while i < n and flat[i][1][:2] in (("o", "\n"), ("o", ";")):
            i += 1
        if i >= n:
            break
        tok = flat[i][1]
        if tok[2] is not None and tok[2].plain() == "esac":
            return i + 1
        start = i
        if tok[:2] == ("o", "("):
            i += 1
        hit: bool | None = False  # None: a pattern that cannot be told
        while i < n and flat[i][1][:2] != ("o", ")"):
            w = flat[i][1][2]
            m = _matches(w, value) if w is not None else False
            if m is True:
                hit = True
            elif m is None and hit is False:
                hit = None
            i += 1
        i += 1  # the ")"
        end, terminator = _branch_end(flat, i)
        take = keep_next or (not taken and hit is not False)
        if not take:
            drop.update(range(start, end))
        if hit is True and not keep_next:
            taken = True
        keep_next = take and terminator in (";&", ";;&")
        if terminator == ";;&":
            taken = False
        i = end
    return i


def _branch_end(flat: list[tuple[int, Token]], i: int) -> tuple[int, str]:
    """Index after the branch body starting at ``i`` (its ``;;`` included) and the
    terminator; a nested ``case`` is skipped whole."""
    nested = 0
    n = len(flat)
    while i < n:
        kind, op, w, _ = flat[i][1]
        word = w.plain() if (w is not None and kind == "w") else None
        if word == "case":
            nested += 1
        elif word == "esac":
            if nested == 0:
                return i, ""
            nested -= 1
        elif kind == "o" and op in (";;", ";&", ";;&") and nested == 0:
            return i + 1, op
        i += 1
    return n, ""
