"""What bash's builtins do to variables: arrays, namerefs, read, mapfile, printf -v, alias.

The walker (:mod:`dcg.shell.walk`) calls these so that a value built with bash's own
machinery is known when a later command runs it: ``a[0]=rm; "${a[@]}"``,
``a=(git reset --hard)``, ``read -a a <<< "…"``, ``declare -n r=x``, ``printf -v c …``,
``alias x='…'`` (aliases are expanded for every later command of the line, as a login
shell with ``expand_aliases`` would). A value it cannot know is marked unknown, never
guessed. Code such a builtin runs (``mapfile -C``, a prompt variable) is queued with
:func:`dcg.shell.params.run_later`.
"""

from __future__ import annotations

from dcg.shell.params import (
    UNKNOWN,
    arith,
    code_in,
    get_array,
    put_array,
    run_later,
    target,
)
from dcg.shell.shellvars import apply_pins

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from dcg.shell.parser import Simple
    from dcg.shell.state import Vars as Env
    from dcg.shell.words import Word

    # Expand an element word into its fields and whether any stayed unresolved.
    Expander = Callable[[Word], tuple[list[str], bool]]

# Variables whose value bash runs or prompt-expands (command substitutions run).
_PROMPTS = frozenset(("PS0", "PS1", "PS2", "PS4"))
_READ_VALUE_OPTS = frozenset("adinNptu")  # read's options that take a value
_MAPFILE_VALUE_OPTS = frozenset("dnOsuCc")
_NO_IFS = "\x00unset"


def assign(word: Word, value: str, dyn: bool, env: Env, expand: Expander) -> None:
    """An assignment statement ``NAME=v``, ``NAME+=v``, ``NAME[K]=v`` or ``NAME=( … )``."""
    name = word.assign or ""
    append = word.parts[0][1].startswith(name + "+=") if word.parts else False
    base, _, sub = name.partition("[")
    base = target(env, base)
    if env.state.refs.get(base) == "" and not sub and word.array is None:
        env.state.refs[base] = UNKNOWN if dyn else value  # `declare -n r; r=x`: r names x
        return
    if "[" in base:  # a nameref to an element
        base, _, sub = base.partition("[")
        sub = sub + "]" if sub and not sub.endswith("]") else sub
    if base == "BASH_ALIASES":  # its elements are aliases (see aliased)
        env.state.aliases = True
    if word.array is not None:
        set_array(base, word.array, append, env, expand)
        return
    val = UNKNOWN if dyn else value
    if sub:
        key = _element_key(sub[:-1], env, base)
        entries = get_array(env, base)
        if entries is None:
            old = env.get(base)
            entries = [] if old is None and base not in env else [("0", old or "")]
        if key is None:  # which element changed is unknown: so is every element
            env.state.arrays.pop(base, None)
            env[base] = None
            return
        entries = [(k, v) for k, v in entries if k != key] + [
            (key, _join(dict(entries).get(key, ""), val) if append else val)
        ]
        put_array(env, base, entries)
        return
    if base in env.state.arrays:
        entries = [(k, v) for k, v in get_array(env, base) or [] if k != "0"]
        old = env.get(base) or ""
        put_array(env, base, [("0", _join(old, val) if append else val), *entries])
        return
    if base in _PROMPTS and ("$(" in value or "`" in value):
        code_in(value, env)
    elif base == "PROMPT_COMMAND" and value:
        run_later(env, value)
    if append:
        old = env.get(base)
        env[base] = None if dyn or old is None else old + value
    else:
        env[base] = None if dyn else value


def _join(old: str, new: str) -> str:
    return UNKNOWN if UNKNOWN in (old, new) else old + new


_ASSOCIATIVE = frozenset(("BASH_CMDS", "BASH_ALIASES"))


def _element_key(sub: str, env: Env, base: str) -> str | None:
    if "$(" in sub or "`" in sub:
        return None
    entries = get_array(env, base)
    if base in _ASSOCIATIVE or (entries and not all(k.isdigit() for k, _ in entries)):
        return sub  # associative (bash's own tables are, undeclared)
    n = arith(sub, env)
    return None if n is None else str(n)


def set_array(name: str, elems: list[Word], append: bool, env: Env, expand: Expander) -> None:
    """``name=( … )`` / ``name+=( … )``: each element word expanded and split."""
    entries = (get_array(env, name) or []) if append else []
    nxt = max((int(k) for k, _ in entries if k.isdigit()), default=-1) + 1
    for w in elems:
        lit = w.parts[0][1] if w.parts and w.parts[0][0] == "s" and not w.parts[0][3] else ""
        if lit.startswith("[") and "]=" in "".join(p[2] for p in w.parts):
            raw = "".join(p[2] for p in w.parts)
            key_text, _, _ = raw[1:].partition("]=")
            fields, dyn = expand(w)
            value = fields[0].partition("]=")[2] if fields else ""
            num = arith(key_text, env) if "$(" not in key_text and "`" not in key_text else None
            key = str(num) if num is not None else key_text if key_text.isidentifier() else UNKNOWN
            if key.isdigit():
                nxt = int(key) + 1
            entries = [(k, v) for k, v in entries if k != key] + [(key, UNKNOWN if dyn else value)]
            continue
        fields, dyn = expand(w)
        for f in fields or ([] if not dyn else [""]):
            entries.append((str(nxt), UNKNOWN if dyn else f))
            nxt += 1
    put_array(env, name, entries)


def declare(
    argv: list[str], words: list[Word], dyns: list[bool], env: Env, expand: Expander
) -> str | None:
    """declare/typeset/local -n (namerefs) and -a/-A with ``NAME=( … )``; the text
    ``NAME=( … )`` bash evaluates for a quoted ``declare -a NAME='( … )'`` is returned."""
    flags = "".join(a[1:] for a in argv[1:] if a.startswith("-"))
    for w in words[1:]:
        if w.array is not None and w.assign:
            set_array(w.assign, w.array, False, env, expand)
    compound = None
    if "a" in flags or "A" in flags:  # the value is a compound assignment, expanded again
        literal = {w.assign for w in words[1:] if w.array is not None}
        texts = [a for a in argv[1:] if _compound(a) and a.partition("=")[0] not in literal]
        compound = "\n".join(texts) or None
    if "n" not in flags:
        return compound
    for a, dyn in zip(argv[1:], dyns[1:], strict=False):
        if a.startswith("-"):
            continue
        name, eq, ref = a.partition("=")
        if not eq:  # `declare -n r`: its first assignment names its target
            env.state.refs.setdefault(name, "") if name.isidentifier() else None
            env.state.namerefs = True
            continue
        if dyn:
            env[name] = None
            env.state.refs.pop(name, None)
            continue
        env.state.refs[name] = ref
        env.state.namerefs = True
        env.pop(name, None)
        if "[" in ref:
            code_in(ref[ref.index("[") :], env)
    return compound


def _compound(arg: str) -> bool:
    name, eq, value = arg.partition("=")
    return bool(eq) and name.isidentifier() and value[:1] == "(" and value[-1:] == ")"


def _values(argv: list[str], takes_value: frozenset[str]) -> tuple[dict[str, str], list[str]]:
    """Options (with their values) and operands of a builtin's argv."""
    opts: dict[str, str] = {}
    rest: list[str] = []
    k = 1
    while k < len(argv):
        a = argv[k]
        if a == "--":
            rest.extend(argv[k + 1 :])
            break
        if a.startswith("-") and len(a) > 1 and not rest:
            j = 1
            while j < len(a):
                ch = a[j]
                if ch in takes_value:
                    if j + 1 < len(a):
                        opts[ch] = a[j + 1 :]
                    elif k + 1 < len(argv):
                        k += 1
                        opts[ch] = argv[k]
                    break
                opts[ch] = ""
                j += 1
        else:
            rest.append(a)
        k += 1
    return opts, rest


def read(argv: list[str], stdin: str | None, env: Env) -> None:
    """``read`` and ``mapfile``/``readarray`` fed a here-string or here-document."""
    if argv[0] == "read":
        _read(argv, stdin, env)
    else:
        _mapfile(argv, stdin, env)


def _ifs(env: Env) -> str:
    ifs = env.get("IFS", " \t\n")
    return " \t\n" if ifs is None else ifs


def _read(argv: list[str], stdin: str | None, env: Env) -> None:
    opts, names = _values(argv, _READ_VALUE_OPTS)
    array = opts.get("a")
    if stdin is None or ("IFS" in env and env["IFS"] is None):
        if array:
            put_array(env, array, [("0", UNKNOWN)])
        return
    delim = opts.get("d", "\n")[:1] or "\0"
    count = opts.get("N") or opts.get("n")
    if count is not None and not count.isdigit():
        return _unknown_read(names, array, env)
    if opts.get("N") is not None:  # exactly N characters, delimiters included, no splitting
        value = stdin[: int(count or 0)]
        if array:
            put_array(env, array, [("0", value)])
        for k, name in enumerate(names or ["REPLY"]):
            env[target(env, name)] = value if k == 0 else ""
        return
    if "r" not in opts:  # a backslash-newline continues the line
        stdin = stdin.replace("\\\n", "")
    line = stdin.split(delim, 1)[0]
    if count is not None:  # at most N characters, up to the delimiter
        line = line[: int(count)]
    if "r" not in opts:
        line = "".join(ch for k, ch in enumerate(line) if ch != "\\" or line[k - 1 : k] == "\\")
    ifs = _ifs(env)
    if array:
        fields = _ifs_fields(line, ifs)
        put_array(env, array, [(str(k), f) for k, f in enumerate(fields)])
        return
    if not names:
        env["REPLY"] = line
        return
    rest = line.strip(" \t\n") if ifs == " \t\n" else line
    for k, name in enumerate(names):
        if k == len(names) - 1:
            env[target(env, name)] = rest.strip(ifs) if ifs.isspace() else rest
            break
        fields = _ifs_fields(rest, ifs)
        env[target(env, name)] = fields[0] if fields else ""
        rest = rest[rest.find(fields[0]) + len(fields[0]) :].lstrip(ifs) if fields else ""


def _unknown_read(names: list[str], array: str | None, env: Env) -> None:
    if array:
        put_array(env, array, [("0", UNKNOWN)])
    for name in names or ["REPLY"]:
        env[target(env, name)] = None


def _ifs_fields(text: str, ifs: str) -> list[str]:
    if not ifs:
        return [text]
    out: list[str] = []
    cur: list[str] = []
    for ch in text:
        if ch in ifs:
            if cur or not ch.isspace():
                out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if cur:
        out.append("".join(cur))
    return [f for f in out if f or not ifs.isspace()]


def _mapfile(argv: list[str], stdin: str | None, env: Env) -> None:
    opts, names = _values(argv, _MAPFILE_VALUE_OPTS)
    name = names[0] if names else "MAPFILE"
    callback = opts.get("C")
    if stdin is None:
        put_array(env, name, [("0", UNKNOWN)])
        if callback:
            run_later(env, f"{callback} 0 line")
        return
    delim = opts.get("d", "\n")[:1] or "\0"
    lines = stdin.split(delim)
    if lines and lines[-1] == "":
        lines.pop()
    if "t" not in opts:
        lines = [ln + delim for ln in lines]
    numbers = [opts.get(o) or "0" for o in "Osn"]
    if not all(v.isdigit() for v in numbers):
        put_array(env, name, [("0", UNKNOWN)])
        return
    origin, skip, most = (int(v) for v in numbers)
    lines = lines[skip : skip + most] if most else lines[skip:]
    # -O starts at that index and keeps the elements below it (without -O it starts anew)
    kept = [e for e in get_array(env, name) or [] if e[0].isdigit() and int(e[0]) < origin]
    fresh = [(str(origin + k), ln) for k, ln in enumerate(lines)]
    put_array(env, name, (kept if "O" in opts else []) + fresh)
    if callback:
        import shlex

        for k, ln in enumerate(lines):
            run_later(env, f"{callback} {k} {shlex.quote(ln)}")


def alias(argv: list[str], env: Env) -> None:
    """``alias NAME=VALUE …`` and ``unalias NAME`` (``-a``: all)."""
    if argv[0] == "unalias":
        for a in argv[1:]:
            if a == "-a":
                env.state.alias_defs.clear()
            else:
                env.state.alias_defs.pop(a, None)
        return
    for a in argv[1:]:
        name, eq, value = a.partition("=")
        if eq and name and not name.startswith("-"):
            env.state.alias_defs[name] = value
            env.state.aliases = True


def aliased(word: Word, env: Env) -> tuple[str, str] | None:
    """(name, value) when the command word is an alias defined earlier on the line."""
    name = word.plain()
    if name is None:
        return None
    value = env.state.alias_defs.get(name)
    if value is None and name in env.state.alias_defs:
        value = "$(…)"  # defined on a branch that may have run, with another value before
    if value is None and env.state.arrays.get("BASH_ALIASES") is not None:
        value = dict(get_array(env, "BASH_ALIASES") or []).get(name)
        value = "$(…)" if value == UNKNOWN else value  # an unknown alias: a computed word
    if value is None or name in env.state.in_alias:
        return None
    return name, value


def array_unknown(env: Env, name: str) -> bool:
    """Whether array ``name`` set on the line holds an element dcg cannot know."""
    entries = get_array(env, target(env, name))
    return entries is not None and any(v == UNKNOWN for _, v in entries)


def builtin(
    simple: Simple,
    argv: list[str],
    dyns: list[bool],
    env: Env,
    stdin: str | None,
    expand: Expander,
) -> str | None:
    """What a declaring builtin does to the walker's variable table; the text it has
    the shell evaluate, if any (``declare -a a='(…)'``)."""
    name = argv[0]
    if name in ("declare", "typeset", "local", "readonly"):
        compound = declare(argv, simple.words, dyns, env, expand)
        if name == "readonly" or any(a[:1] == "-" and "r" in a for a in argv[1:]):
            pin("readonly", argv, env)
        return compound
    elif name in ("read", "mapfile", "readarray"):
        ifs = [w.literal() for w in simple.assigns if w.assign == "IFS"]
        if ifs:  # IFS=: read …: for this read only
            old = env.get("IFS", _NO_IFS)
            env["IFS"] = None if ifs[-1] is None else ifs[-1].partition("=")[2]
            read(argv, stdin, env)
            if old is _NO_IFS:
                del env["IFS"]
            else:
                env["IFS"] = old
        else:
            read(argv, stdin, env)
    elif name == "printf":
        from dcg.shell.printfmt import printf_v

        printf_v(argv, dyns, env)
    elif name == "unset":
        unset(argv, env)
    elif name == "trap":
        pin(name, argv, env)
    elif name == "shopt":
        if "-s" in argv and "nocasematch" in argv:
            env.state.nocase = True
    elif name == "hash":
        from dcg.shell.cmdnames import hash_p

        hash_p(argv, env)
    else:
        alias(argv, env)
    return None


def unset(argv: list[str], env: Env) -> None:
    """``unset NAME…``: the variable is empty from here on; an unset IFS splits as the
    default does (``IFS=$'\\n'; …; unset IFS`` restores it)."""
    if "-f" in argv[1:]:
        return  # functions
    for a in argv[1:]:
        if "[" in a and a.endswith("]") and a[: a.index("[")].isidentifier():
            base = a[: a.index("[")]
            key = _element_key(a[a.index("[") + 1 : -1], env, base)
            entries = get_array(env, base)
            if key is None or entries is None:
                env.state.arrays.pop(base, None)
                env[base] = None
            else:  # the array is sparse from here on
                put_array(env, base, [(k, v) for k, v in entries if k != key])
            continue
        if a.startswith("-") or not a.isidentifier():
            continue
        if "-n" not in argv[1:]:
            a = target(env, a)
        elif a not in env.state.refs:
            continue  # unset -n of a plain variable does nothing
        env.state.arrays.pop(a, None)
        env.state.refs.pop(a, None)
        if a == "IFS":
            env.pop("IFS", None)
        else:
            env[a] = ""
            env.state.unset[a] = ""


def alias_text(
    simple: Simple, env: Env, expand: Callable[..., tuple[list[str], bool]]
) -> tuple[str, str] | None:
    """(alias name, text to run) when the command word is an alias set on the line: its
    value followed by the command's other words."""
    found = aliased(simple.words[0], env)
    if found is None:
        return None
    import shlex

    name, value = found
    # An alias whose value ends in a blank has bash check the next word for an alias too
    # (`alias s='sudo '; alias r='rm -rf'` then `s r src`), and so on along the chain.
    values, words, seen = [value], list(simple.words[1:]), {name}
    while values[-1][-1:] in (" ", "\t") and words:
        nxt = aliased(words[0], env)
        if nxt is None or nxt[0] in seen:
            break
        seen.add(nxt[0])
        values.append(nxt[1])
        words.pop(0)
    rest: list[str] = []
    for word in words:
        rest.extend(expand(word, env, lambda w, k: None)[0])
    return name, " ".join([*values, *(shlex.quote(a) for a in rest)])


def pin(name: str, argv: list[str], env: Env) -> None:
    """``readonly NAME[=V]`` (or ``declare -r``): later assignments and ``unset`` fail, so
    the value stays; a ``trap`` action's assignments may run before any later command
    (``trap 'c=rm' DEBUG``), so those names stay unknown. Kept in the walker state's
    ``pins`` table, which :func:`dcg.shell.shellvars.apply_pins` puts back before every
    command."""
    pins = env.state.pins
    if name == "trap":
        argv = argv[:1] + argv[2:] if argv[1:2] == ["--"] else argv
        if len(argv) < 3 or argv[1] in ("-p", "-l", "-P", "--", "-"):
            return
        for word in argv[1].replace(";", " ").replace("&", " ").split():
            var, eq, _ = word.partition("=")
            if eq and var.isidentifier():
                pins[var] = "\x00?"
    else:
        for a in argv[1:]:
            var = a.partition("=")[0]
            if a[:1] != "-" and var.isidentifier():
                value = env.get(var)
                pins[var] = "\x00?" if value is None else value
    apply_pins(env)
