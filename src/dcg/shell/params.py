"""Bash's parameter expansion on values the line set: operators, arrays, indirection.

:func:`dcg.shell.words.expand` hands a ``${…}`` it cannot resolve itself here. For a
variable set earlier on the line (or an array, or a nameref) the expansion is evaluated
as bash does it: substrings ``${x:1:2}``, pattern removal ``${x#p}`` ``${x%%p}``,
substitution ``${x//p/r}`` (with bash 5.2's ``&``), case ``${x^^}`` ``${x,,}``
``${x~}``, transforms ``${x@U}`` ``${x@Q}`` ``${x@E}``, lengths, ``${a[@]}``
``${a[*]}`` ``${a[N]}`` slices and keys, indirection ``${!ref}``. What cannot be
evaluated is unknown (None): the walker then treats a command word built from it as
opaque execution.

Prompt expansion ``${x@P}`` and a subscript met through indirection or a nameref
(``x='a[$(…)]'; ${!x}``) run code: its text is queued in the walker state's ``runs`` for the
walker to judge as commands.

Arrays live in the walker state's ``arrays`` table as ``key\\x1evalue`` entries joined
by ``\\x1f`` (:func:`get_array`, :func:`put_array`); an element dcg cannot know holds
:data:`UNKNOWN`. Namerefs are its ``refs`` table: name → target.
"""

from __future__ import annotations

from dcg.shell import patterns
from dcg.shell.shellvars import positional_args

UNKNOWN = "\x00?"
_NAME0 = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_NAME = _NAME0 | frozenset("0123456789")

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.shell.state import Vars as Env


def get_array(env: Env, name: str) -> list[tuple[str, str]] | None:
    """The (key, value) entries of array ``name`` set on the line, None when it is none."""
    raw = env.state.arrays.get(name)
    if raw is None:
        return None
    if not raw:
        return []
    return [tuple(e.split("\x1e", 1)) for e in raw.split("\x1f")]  # type: ignore[misc]


def put_array(env: Env, name: str, entries: list[tuple[str, str]]) -> None:
    """Store ``entries`` as array ``name``; ``$name`` is its element 0 as in bash."""
    if any("\x1f" in v or "\x1e" in v for _, v in entries):
        entries = [(k, UNKNOWN) for k, _ in entries]
    env.state.arrays[name] = "\x1f".join(f"{k}\x1e{v}" for k, v in entries)
    first = dict(entries).get("0")
    env[name] = None if first == UNKNOWN else (first or "")


def target(env: Env, name: str) -> str:
    """``name`` after its nameref chain (``declare -n r=x``: r stands for x)."""
    for _ in range(8):
        nxt = env.state.refs.get(name)
        if not nxt:
            break
        name = nxt
    return name


def run_later(env: Env, code: str) -> None:
    """Queue ``code`` that an expansion runs (the walker judges it as commands)."""
    old = env.state.runs
    env.state.runs = code if not old else old + "\n" + code


def code_in(text: str, env: Env) -> None:
    """Queue the command substitutions in ``text`` (a subscript bash evaluates)."""
    i = text.find("$(")
    while i >= 0:
        level, j = 0, i + 1
        while j < len(text):
            level += {"(": 1, ")": -1}.get(text[j], 0)
            if level == 0:
                break
            j += 1
        run_later(env, text[i + 2 : j])
        i = text.find("$(", j)
    for inner in text.split("`")[1::2]:
        run_later(env, inner)


def known(env: Env, name: str) -> bool:
    """Whether ``${name…}`` is one this module can evaluate (set on the line)."""
    name = target(env, name)
    return name in env or name in env.state.arrays


def expand(raw: str, env: Env) -> tuple[list[str], bool] | None:
    """The values of the expansion ``raw`` (``${…}``) and whether they are separate
    words (``${a[@]}``); None when dcg cannot evaluate it."""
    if raw[:2] != "${" or raw[-1:] != "}" or len(raw) < 4:
        return None
    body = raw[2:-1]
    if body[0] == "#" and len(body) > 1 and body[1] not in "#%:}":
        values = _param(body[1:], env)
        if values is None or values[2]:
            return None
        vals, many, _ = values
        return [str(len(vals) if many else len(vals[0]) if vals else 0)], False
    if body[0] == "!" and len(body) > 1:
        return _indirect(body[1:], env)
    got = _param(body, env)
    if got is None:
        return None
    vals, many, rest = got
    if body[0] in "@*" and rest[:1] == ":" and rest[1:2] not in ("-", "=", "?", "+"):
        # ${@:1:2}: offset 0 is $0 (unknown here), 1 is $1
        sliced = _slice([UNKNOWN, *vals], rest[1:], env)
        if sliced is None or UNKNOWN in sliced:
            return None
        return (sliced, True) if body[0] == "@" else ([_ifs_first(env).join(sliced)], False)
    if rest and rest[0] == ":" and rest[1:2] not in ("-", "=", "?", "+") and many:
        entries = get_array(env, target(env, _leading_name(body)))
        if entries and [k for k, _ in entries] != [str(i) for i in range(len(entries))]:
            return None  # a sparse array slices by index: not modelled
        sliced = _slice(vals, rest[1:], env)
        return None if sliced is None else (sliced, True)
    out: list[str] = []
    for v in vals:
        r = operate(v, rest, env, set_name=body)
        if r is None:
            return None
        out.append(r)
    if many:
        return out, True
    return (out[:1] or [""]), False


def _split_param(body: str) -> tuple[str, str, str] | None:
    """(name, subscript or "", operator rest) of a parameter expression's body."""
    if body[0] in "0123456789":
        j = 1
        while j < len(body) and body[j].isdigit():
            j += 1
        return body[:j], "", body[j:]
    if body[0] in "@*#?$!-":
        return body[0], "", body[1:]
    if body[0] not in _NAME0:
        return None
    j = 1
    while j < len(body) and body[j] in _NAME:
        j += 1
    name, rest = body[:j], body[j:]
    if rest[:1] != "[":
        return name, "", rest
    level = 0
    for k, ch in enumerate(rest):
        level += {"[": 1, "]": -1}.get(ch, 0)
        if level == 0:
            return name, rest[1:k], rest[k + 1 :]
    return None


def _param(body: str, env: Env) -> tuple[list[str], bool, str] | None:
    """The parameter's values, whether it is ``[@]``/``[*]`` (many), and the rest."""
    split = _split_param(body)
    if split is None:
        return None
    name, sub, rest = split
    if name[0] not in _NAME0:
        return _positional(name, sub, rest, env)
    name = target(env, name)
    if "[" in name:  # a nameref to an element: `declare -n r='a[2]'`
        code_in(name, env)
        inner = _split_param(name)
        if inner is None or sub:
            return None
        name, sub = inner[0], inner[1]
    entries = get_array(env, name)
    if sub in ("@", "*"):
        if entries is None:
            if name not in env or env[name] is None:
                return None
            return [env.get(name) or ""], True, rest
        if any(v == UNKNOWN for _, v in entries):
            return None
        vals = [v for _, v in _ordered(entries)]
        if sub == "*":
            return [_ifs_first(env).join(vals)], False, rest
        return vals, True, rest
    if sub:
        key = _key(sub, env, entries)
        if key is None:
            return None
        if entries is None:
            if key != "0" or name not in env or env[name] is None:
                return None
            return [env.get(name) or ""], False, rest
        value = dict(entries).get(key, "")
        return None if value == UNKNOWN else ([value], False, rest)
    scalar = env.get(name, " \t\n" if name == "IFS" else None)  # an unset IFS: the default
    return None if scalar is None else ([scalar], False, rest)


def _positional(name: str, sub: str, rest: str, env: Env) -> tuple[list[str], bool, str] | None:
    """``${@…}``, ``${*…}``, ``${1…}`` after ``set --`` on the line."""
    args = positional_args(env)
    if args is None or sub:
        return None
    if name in ("@", "*"):
        return args, True, rest
    if not name.isdigit() or name == "0":
        return None
    k = int(name)
    return [args[k - 1] if k <= len(args) else ""], False, rest


def _ordered(entries: list[tuple[str, str]]) -> list[tuple[str, str]]:
    if all(k.lstrip("-").isdigit() for k, _ in entries):
        return sorted(entries, key=lambda e: int(e[0]))
    return entries


def _ifs_first(env: Env) -> str:
    ifs = env.get("IFS", " \t\n")
    return " " if ifs is None else ifs[:1]


def _key(sub: str, env: Env, entries: list[tuple[str, str]] | None) -> str | None:
    """The key a subscript names: arithmetic for an indexed array, text for associative."""
    if "$(" in sub or "`" in sub:
        return None  # its own command substitution is judged where it is written
    if entries is not None and not all(k.lstrip("-").isdigit() for k, _ in entries):
        return words(sub, env)
    n = arith(sub, env)
    if n is None:
        return None
    if n < 0 and entries:
        n += max(int(k) for k, _ in entries) + 1
    return str(n)


def _indirect(body: str, env: Env) -> tuple[list[str], bool] | None:
    split = _split_param(body)
    if split is None:
        return None
    name, sub, rest = split
    if sub in ("@", "*") and not rest:  # ${!a[@]}: the keys
        entries = get_array(env, target(env, name))
        if entries is None:
            return None
        keys = [k for k, _ in _ordered(entries)]
        return (keys, True) if sub == "@" else ([" ".join(keys)], False)
    if rest in ("*", "@") and not sub:
        return None  # ${!prefix*}: names of the environment too
    got = _param(body[: len(body) - len(rest)], env)
    if got is None or got[1]:
        return None
    ref = got[0][0]
    code_in(ref, env) if "[" in ref else None
    if not ref or not (ref[0] in _NAME0 or ref.isdigit()):
        return None
    return expand("${" + ref + rest + "}", env)


def _slice(vals: list[str], spec: str, env: Env) -> list[str] | None:
    off_text, _, length_text = spec.partition(":")
    off = arith(off_text or "0", env)
    if off is None:
        return None
    if off < 0:
        off += len(vals)
    if not length_text and ":" not in spec:
        return vals[max(off, 0) :]
    n = arith(length_text or "0", env)
    if n is None:
        return None
    return vals[max(off, 0) : (max(off, 0) + n if n >= 0 else len(vals) + n)]


# Pattern operators try every span of the value: past this length the value is unknown
# (the walker then treats a command built from it as opaque) rather than slow.
MAX_PATTERN_VALUE = 4096


def operate(v: str, rest: str, env: Env, set_name: str = "") -> str | None:
    """Apply the operator text ``rest`` (after the parameter) to the value ``v``."""
    if not rest:
        return v
    if rest[0] in "#%/" and len(v) > MAX_PATTERN_VALUE:
        return None
    op2, op1 = rest[:2], rest[:1]
    if op2 in (":-", ":=", ":?", ":+") or op1 in ("-", "=", "?", "+"):
        colon = op1 == ":"
        word = rest[2:] if colon else rest[1:]
        name = _leading_name(set_name)
        is_set = v != "" or not (colon or name in env.state.unset)
        kind = rest[1] if colon else op1
        if kind == "+":
            return words(word, env) if is_set else ""
        if is_set:
            return v
        value = words(word, env)
        if kind == "=" and name:  # ${v:=x} assigns as well
            env[target(env, name)] = value
            env.state.unset.pop(name, None)
        return value
    if op1 == ":":
        off_text, sep, length_text = rest[1:].partition(":")
        off = arith(off_text or "0", env)  # ${x::2}: an empty offset is 0
        if off is None:
            return None
        if off < 0:
            off = max(len(v) + off, 0)
        if not sep:
            return v[off:]
        n = arith(length_text or "0", env)
        if n is None:
            return None
        return v[off : off + n] if n >= 0 else v[off : len(v) + n]
    if op1 in "#%":
        longest = op2 in ("##", "%%")
        pat = _regex(rest[2:] if longest else rest[1:], env)
        if pat is None:
            return None
        return patterns.remove(v, pat, prefix=op1 == "#", longest=longest)
    if op1 == "/":
        return _substitute(v, rest[1:], env)
    if op1 in "^,~":
        op = rest[:2] if rest[:2] in ("^^", ",,", "~~") else rest[:1]
        pat = _regex(rest[len(op) :], env) if rest[len(op) :] else "."
        return None if pat is None else patterns.case(v, op, pat)
    if op1 == "@" and len(rest) == 2:
        return _transform(v, rest[1], env, set_name)
    return None


def words(text: str, env: Env) -> str | None:
    """An operand's text after quote removal and expansion of what the line set."""
    out: list[str] = []
    for _, piece in _pieces(text, env):
        if piece is None:
            return None
        out.append(piece)
    return "".join(out)


def _leading_name(text: str) -> str:
    end = 0
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    return text[:end]


def _regex(text: str, env: Env) -> str | None:
    """A pattern's regular expression; None under ``shopt -s nocasematch`` (not modelled)."""
    return None if env.state.nocase else patterns.regex(_pieces(text, env))


def _pieces(text: str, env: Env) -> list[tuple[bool, str | None]]:
    """(quoted, text) pieces of an operand: quotes removed, variables expanded."""
    out: list[tuple[bool, str | None]] = []
    i, n, dq = 0, len(text), False
    while i < n:
        c = text[i]
        if c == "'" and not dq:
            j = text.find("'", i + 1)
            j = n if j < 0 else j
            out.append((True, text[i + 1 : j]))
            i = j + 1
        elif c == '"':
            dq = not dq
            i += 1
        elif c == "\\" and i + 1 < n:
            out.append((True, text[i + 1]))
            i += 2
        elif c == "`" or text.startswith("$(", i):
            return [(False, None)]
        elif text.startswith("$'", i) and not dq:  # ANSI-C quoting: ${x:-$'\x72m'}
            j = i + 2
            while j < n and text[j] != "'":
                j += 2 if text[j] == "\\" else 1
            out.append((True, patterns.escapes(text[i + 2 : j])))
            i = j + 1
        elif text.startswith('$"', i) and not dq:  # locale translation: the text itself
            i += 1
        elif c == "$" and i + 1 < n and (text[i + 1] in _NAME0 or text[i + 1] == "{"):
            if text[i + 1] == "{":
                j = _close_brace(text, i + 1)
                got = expand(text[i : j + 1], env)
                value = None if got is None else " ".join(got[0])
                i = j + 1
            else:
                j = i + 1
                while j < n and text[j] in _NAME:
                    j += 1
                value = env.get(target(env, text[i + 1 : j])) if text[i + 1 : j] in env else None
                i = j
            out.append((True, value))
        else:
            out.append((dq, c))
            i += 1
    return out


def _substitute(v: str, spec: str, env: Env) -> str | None:
    """``${v/pat/rep}`` forms (``spec`` after the first ``/``)."""
    every = spec[:1] == "/"
    anchor = spec[:1] if spec[:1] in "#%" else ""
    if every or anchor:
        spec = spec[1:]
    pat_text, _, rep_text = patterns.split_slash(spec)
    pat = _regex(pat_text, env)
    rep: list[str | None] = []
    for quoted, piece in _pieces(rep_text, env):
        if piece is None:
            return None
        rep.append(None if piece == "&" and not quoted else piece)  # & is the match
    if pat is None:
        return None
    return patterns.substitute(v, pat, rep, every, anchor)


def _close_brace(text: str, i: int) -> int:
    level = 0
    for j in range(i, len(text)):
        level += {"{": 1, "}": -1}.get(text[j], 0)
        if level == 0:
            return j
    return len(text) - 1


def _transform(v: str, op: str, env: Env, set_name: str) -> str | None:
    if op == "U":
        return v.upper()
    if op == "u":
        return v[:1].upper() + v[1:]
    if op == "L":
        return v.lower()
    if op == "Q":
        return "'" + v.replace("'", "'\\''") + "'"
    if op == "E":
        return patterns.escapes(v)
    if op == "P":
        # Prompt expansion runs the value's command substitutions (promptvars is on).
        if "$(" in v or "`" in v:
            code_in(v, env)
            return None
        return None if "$" in v or "\\" in v else v
    if op == "A":
        return f"{set_name.partition('@')[0]}='{v}'"
    return None  # @a (attributes) and the rest: not modelled


def arith(text: str, env: Env) -> int | None:
    """A small arithmetic expression (integers, known variables, + - * / % and
    parentheses), None when it holds anything else."""
    tokens: list[str] = []
    i, t = 0, text.strip()
    while i < len(t):
        c = t[i]
        if c.isspace():
            i += 1
        elif c.isdigit():
            j = i
            while j < len(t) and t[j].isalnum():
                j += 1
            tokens.append(t[i:j])
            i = j
        elif c in _NAME0 or c == "$":
            j = i + 1 + (c == "$" and t[i + 1 : i + 2] == "{")
            while j < len(t) and t[j] in _NAME:
                j += 1
            name = t[i:j].lstrip("${")
            if t[i : i + 2] == "${":
                j += 1 if t[j : j + 1] == "}" else 0
            value = env.get(target(env, name)) if name in env else None
            if value is not None and "[" in value:
                code_in(value, env)  # evaluated as an expression: a[$(…)] runs
            if value is None or not value.strip().lstrip("-").isdigit():
                return None
            tokens.append(value.strip())
            i = j
        elif c in "+-*/%()":
            tokens.append(c)
            i += 1
        else:
            return None
    return patterns.evaluate(tokens)
