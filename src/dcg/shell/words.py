"""Shell words, heredocs and tokens as the lexer makes them, and words' expansion into fields."""

from __future__ import annotations

from dcg.shell.state import POSITIONAL

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path


class Word:
    """One shell word: its parts, the command substitutions inside it, and quoting."""

    __slots__ = ("array", "assign", "parts", "quoted", "subs")

    def __init__(self) -> None:
        self.parts: list[Part] = []
        self.subs: list[Sub] = []
        # True when any quote or backslash appeared: such a word is never a keyword.
        self.quoted = False
        # The variable name when the word is an assignment NAME=value (or NAME+=value),
        # NAME[SUBSCRIPT] for an element assignment NAME[SUBSCRIPT]=value.
        self.assign: str | None = None
        # The element words of an array assignment NAME=( … ) (the word itself is NAME=).
        self.array: list[Word] | None = None

    def plain(self) -> str | None:
        """The text of an unquoted word without expansions, else None (for keywords)."""
        if self.quoted or len(self.parts) != 1 or self.parts[0][0] != "s":
            return None
        return self.parts[0][1]

    def literal(self) -> str | None:
        """The text after quote removal when the word has no expansion, else None."""
        if any(p[0] != "s" for p in self.parts):
            return None
        return "".join(p[1] for p in self.parts)

    def source(self) -> str:
        """The word with quotes removed but expansions kept as written."""
        return "".join(p[1] if p[0] == "s" else p[2] for p in self.parts)

    def __repr__(self) -> str:
        return f"Word({self.source()!r})"


class Heredoc:
    """A here-document: its delimiter, and its body once the lexer has read it."""

    __slots__ = ("body", "delim", "quoted", "strip", "word")

    def __init__(self, delim: str, quoted: bool, strip: bool) -> None:
        self.delim = delim
        self.quoted = quoted
        self.strip = strip
        self.body: str | None = None
        # For an unquoted delimiter the body is expanded: its substitutions run.
        self.word: Word | None = None


if TYPE_CHECKING:
    from collections.abc import Callable

    from dcg.shell.state import Vars

    # (kind, operator, word, heredoc). Kinds: "w" word, "o" control operator or newline,
    # "r" redirection operator (its target is the next token), "h" heredoc operator,
    # "a" arithmetic command (( … )) kept as a word so its substitutions are seen.
    Token = tuple[str, str, Word | None, Heredoc | None]
    # (kind, value, raw source, quoted). Kinds: "s" literal text, "v" a simple variable
    # ($X, ${X}; value is the name), "x" an expansion that is never resolved ($1,
    # ${X:-y}, $((…)); value is unused), "c" a command substitution (value is the index
    # of its entry in Word.subs).
    Part = tuple[str, str, str, bool]
    # (via label, payload): tokens already lexed for $( … ) and <( … ), source text for
    # backticks (their body is unescaped before it can be lexed).
    Sub = tuple[str, list[Token] | str]


DEFAULT_IFS = " \t\n"


def ifs_split(text: str, ifs: str) -> tuple[list[str], bool, bool]:
    """Fields of an unquoted expansion's ``text``, and whether a separator starts and
    ends it (so that it splits from what is next to it)."""
    if ifs == DEFAULT_IFS:
        return text.split(), text[:1].isspace(), text[-1:].isspace()
    if not ifs:
        return [text], False, False
    pieces: list[str] = []
    cur: list[str] = []
    for ch in text:
        if ch in ifs:
            if cur:
                pieces.append("".join(cur))
                cur = []
        else:
            cur.append(ch)
    if cur:
        pieces.append("".join(cur))
    return pieces, text[:1] in ifs, text[-1:] in ifs


# Names whose usual value dcg's target resolution assumes (dcg.targets).
_MEANINGFUL = frozenset({"HOME", "TMPDIR", "TMP", "TEMP", "TEMPDIR"})


# Why a variable is unknown, when its value is a name read at run time: the words of a
# command's output (a for loop's list, dcg.shell.static.bind_loop) or input read
# (dcg.shell.arith.note_origins). Such a variable expands to what an unknown command
# substitution does, so `for f in $(git ls-files); do rm "$f"; done` is `rm $(…)`.
NAMES = ("one of the names", "input read by")


def _names(env: Vars, name: str) -> bool:
    """``name`` holds names read at run time (:data:`NAMES`)."""
    origin = env.state.origins.get(name) if env.state.origins else None
    return origin is not None and origin.startswith(NAMES)


def _default_form(raw: str, env: Vars) -> tuple[str, bool]:
    """``${NAME:-x}``/``${NAME-x}``/``${NAME:=x}``/``${NAME:?}`` of a NAME set in the line."""
    if raw[:2] != "${":
        return raw, True
    i = 2
    while i < len(raw) and (raw[i].isalnum() or raw[i] == "_"):
        i += 1
    name, op = raw[2:i], raw[i : i + 2]
    if not name or name not in env or op[:1] not in (":", "-", "=", "?"):
        return raw, True
    if op[:1] == ":" and op[1:2] not in ("-", "=", "?"):
        return raw, True  # ${x:1:2}, ${x:+y}: dcg.shell.params
    if op in (":+", "+") or op[:1] == "+":
        return raw, True
    got = env[name]
    if got is None:
        return "$(…)", True
    if got or (op[:1] in ("-", "=", "?") and name not in env.state.unset):
        return got, False
    return raw, True  # empty, or unset (the state's ``unset`` table): dcg.shell.params decides


# Positional parameters the walker may know, and their key in the variable table.
_POSITIONAL = {"$@": POSITIONAL, "${@}": POSITIONAL, "$*": POSITIONAL, "${*}": POSITIONAL}
_POSITIONAL.update({f"${k}": f"{POSITIONAL}{k}" for k in range(1, 10)})
_POSITIONAL.update({f"${{{k}}}": f"{POSITIONAL}{k}" for k in range(1, 10)})
_POSITIONAL.update({"$#": POSITIONAL + "#", "${#}": POSITIONAL + "#"})
_ALL_POSITIONAL = frozenset(("$@", "${@}"))


def _separate(out: list[str], values: list[str], split: bool, ifs: str, brk: bool) -> bool:
    """Append ``"${a[@]}"``'s elements to ``out`` as separate fields (each split by
    ``ifs`` too when unquoted); the result is whether the next text starts a new field."""
    trail = False
    for k, v in enumerate(values):
        if split:
            pieces, lead, trail = ifs_split(v, ifs)
            brk = brk or lead
        else:
            pieces, trail = [v], False
        for j, piece in enumerate(pieces):
            if ((k or j) and (out[-1] or not split)) or (brk and out[-1]):
                out.append("")
            brk = False
            out[-1] += piece
        brk = split
    return trail


def expand(
    word: Word,
    env: Vars,
    sub_text: Callable[[Word, int], str | None],
    split: bool = True,
) -> tuple[list[str], bool]:
    """Expand ``word`` into fields; the flag says an expansion stayed unresolved.

    Variables assigned earlier in the line (``env``) and trivially static command
    substitutions are substituted; anything else is kept as written. Unquoted
    substituted text is split on whitespace like the shell does; globs are not expanded.
    """
    out = [""]
    dynamic = False
    brk = False
    # The shell's own default when the line never set IFS; unknown when set from an
    # expansion dcg could not resolve (whitespace is then the best guess).
    ifs = env.get("IFS", DEFAULT_IFS)
    if ifs is None:
        ifs = DEFAULT_IFS
    for kind, value, raw, quoted in word.parts:
        splittable = False
        if kind == "s":
            text = value
        elif kind == "x":
            if raw in _POSITIONAL:
                key = _POSITIONAL[raw]
                # None set them: the line's own, and agents run it as `bash -c LINE`
                # with none (`source lib.sh` passes them on: nvm's `… "$@"`).
                got = env.get(key) if key in env else "0" if key[-1] == "#" else ""
                if got is None:
                    text, dynamic = raw, True
                else:  # "$@" / "$1" after `set --` or in `sh -c SCRIPT NAME ARGS`
                    text, splittable = got, split and (not quoted or raw in _ALL_POSITIONAL)
            else:
                text, unresolved = _default_form(raw, env)
                if unresolved and raw[:2] == "${":
                    # Operators, arrays, indirection on what the line set (dcg.shell.params).
                    from dcg.shell import params

                    got_many = params.expand(raw, env)
                    if got_many is not None and got_many[1]:
                        brk = _separate(out, got_many[0], split and not quoted, ifs, brk)
                        continue
                    if got_many is not None:
                        text, unresolved = got_many[0][0], False
                        splittable = split and not quoted
                if unresolved and _names(env, raw[2:].lstrip("!#").partition("[")[0]):
                    text = "$(…)"  # "${files[@]}" after `mapfile -t files`
                dynamic = dynamic or unresolved
        else:
            if kind == "v" and env.state.namerefs:
                from dcg.shell.params import target

                value = target(env, value)
            got = env.get(value) if kind == "v" else sub_text(word, int(value))
            if got is None and kind == "v" and value == "IFS" and "IFS" not in env:
                got = DEFAULT_IFS
            if (
                got is None
                and kind == "v"
                and ((value in _MEANINGFUL and value in env) or _names(env, value))
            ):
                # Reassigned earlier in the line from something unknown: not what the
                # name usually holds ($TMPDIR after TMPDIR=$(pwd) is not a temp dir); or
                # a name read at run time (NAMES).
                text, dynamic = "$(…)", True
            elif got is None:
                # A placeholder, not the source: the substitution's own commands are
                # judged on their own, and its quoted data must not leak into this word.
                text, dynamic = ("`…`" if raw[:1] == "`" else "$(…)") if kind == "c" else raw, True
            else:
                text, splittable = got, split and not quoted
        if splittable:
            pieces, lead, trail = ifs_split(text, ifs)
            if not pieces:
                brk = brk or bool(text)
                continue
            if (brk or lead) and out[-1]:
                out.append("")
            out[-1] += pieces[0]
            out.extend(pieces[1:])
            brk = trail
        else:
            if brk and out[-1] and text:
                out.append("")
            brk = False
            out[-1] += text
    if out == [""] and not word.quoted:
        return [], dynamic
    return out, dynamic
