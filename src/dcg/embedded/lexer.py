"""One tokenizer for JavaScript, Ruby, Perl, PHP (and Python as a fallback), driven by tables.

It knows what matters for finding calls: string literals of every form (with their
interpolations kept as source text), command literals (backticks, ``qx``, ``%x``),
comments, heredocs, regex literals (so their quotes do not open strings), names, numbers
and operators. Tokens are ``(kind, text, parts)`` tuples:

- ``n`` name (sigils included: ``$x``, ``@x``), ``9`` number, ``o`` operator,
  ``l`` end of line, ``r`` regex or other ignored literal;
- ``s`` string and ``c`` command: ``parts`` are ``("s", literal)`` and
  ``("i", source)`` pieces; ``text`` is the opening delimiter (``"`"`` for JS templates)
  or the command literal's name (``backticks``, ``qx``, ``%x``);
- ``w`` word list (``qw()``, ``%w[]``): ``parts`` are ``("s", word)``.
"""

from __future__ import annotations

from dcg.frozen import Frozen

TYPE_CHECKING = False  # typing is not imported at run time: it costs start-up time
if TYPE_CHECKING:
    from dcg.embedded.actions import Sink

    Part = tuple[str, str]
    Tok = tuple[str, str, tuple[Part, ...]]

_OPS = (
    "===", "!==", "**=", "...", "?->", "<=>", "::", "->", "=>", "==", "!=", "<=", ">=",
    "&&", "||", "+=", "-=", ".=", "?.", "..", "<<", ">>", "=~", "!~", "**", "//",
)  # fmt: skip
_OP_PREFIXES = frozenset(o[:2] for o in _OPS)
_PAIRS = {"(": ")", "[": "]", "{": "}", "<": ">"}
_ESC = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "a": "\a", "b": "\b", "f": "\f",
        "v": "\v", "e": "\x1b"}  # fmt: skip
_SPACE = " \t\r\f\v"
_TERM_OPS = frozenset({")", "]", "}"})


class LexSpec(Frozen):
    """The lexical tables of one language.

    ``quotes`` maps a quote character to its mode: ``raw`` (no escapes), ``single``
    (only ``\\\\`` and ``\\'``), ``esc`` (escapes, no interpolation), ``interp``
    (escapes and interpolation) or ``cmd`` (an executed command literal). ``interp`` is
    the interpolation syntax (``js``, ``ruby``, ``perl``, ``php``, ``py``). ``docs`` is
    ``ruby`` (``=begin``/``=end``) or ``perl`` (POD) line-start blocks.
    """

    __slots__ = ("block_comments", "docs", "heredoc", "interp", "line_comments",
                 "percent", "py_prefixes", "qlike", "quotes", "regex_after", "sigils",
                 "slash_regex", "symbols")  # fmt: skip

    block_comments: tuple[tuple[str, str], ...]
    docs: str
    heredoc: str
    interp: str
    line_comments: tuple[str, ...]
    percent: bool
    py_prefixes: bool
    qlike: bool
    quotes: dict[str, str]
    regex_after: frozenset[str]
    sigils: str
    slash_regex: bool
    symbols: bool

    def __init__(
        self,
        *,
        quotes: dict[str, str],
        interp: str,
        line_comments: tuple[str, ...] = (),
        block_comments: tuple[tuple[str, str], ...] = (),
        docs: str = "",
        heredoc: str = "",
        sigils: str = "",
        percent: bool = False,
        qlike: bool = False,
        py_prefixes: bool = False,
        slash_regex: bool = False,
        regex_after: frozenset[str] = frozenset(),
        symbols: bool = False,
    ) -> None:
        for name, value in locals().items():
            if name != "self":
                self._set(name, value)


def _ident_start(c: str) -> bool:
    return c.isalpha() or c == "_"


def _ident_end(code: str, i: int) -> int:
    n = len(code)
    while i < n and (code[i].isalnum() or code[i] == "_"):
        i += 1
    return i


def _match(code: str, i: int, open_: str, close: str) -> int:
    """Index of the ``close`` balancing ``code[i] == open_`` (len(code) if none)."""
    depth, n = 0, len(code)
    while i < n:
        c = code[i]
        if c == "\\":
            i += 2
            continue
        if c == open_:
            depth += 1
        elif c == close:
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return n


def _delimited(code: str, i: int) -> tuple[str, int]:
    """The body of a literal whose opening delimiter is ``code[i]``, and the end index."""
    if i >= len(code):  # `q`/`y:` cut off before its delimiter
        return "", len(code)
    open_ = code[i]
    close = _PAIRS.get(open_, open_)
    if close != open_:
        end = _match(code, i, open_, close)
        return code[i + 1 : end], end + 1
    j, n = i + 1, len(code)
    while j < n and code[j] != close:
        j += 2 if code[j] == "\\" else 1
    return code[i + 1 : j], j + 1


def _var(raw: str, i: int, style: str) -> tuple[str, int]:
    """A ``$name`` interpolation at ``raw[i]``: its source ('' when not simple) and end."""
    sigil = raw[i]
    n = len(raw)
    if i + 1 < n and raw[i + 1] == "{":
        end = _match(raw, i + 1, "{", "}")
        inner = raw[i + 2 : end].strip()
        ok = inner.isidentifier()
        return (sigil + inner if ok else ""), end + 1
    j = _ident_end(raw, i + 1)
    while style == "perl" and raw.startswith("::", j) and j + 2 < n and _ident_start(raw[j + 2]):
        j = _ident_end(raw, j + 2)
    name = raw[i:j]
    if j < n and (raw[j] in "[{" if style == "perl" else raw[j] == "["):
        # An element: kept as source, so $ENV{HOME} / $_SERVER[HOME] can be resolved.
        end = _match(raw, j, raw[j], _PAIRS[raw[j]]) + 1
        return raw[i:end], end
    if raw.startswith("->", j):  # a member or dereference: not statically known
        j = _ident_end(raw, j + 2) if style == "php" else j + 2
        if j < n and raw[j] in "[{":
            j = _match(raw, j, raw[j], _PAIRS[raw[j]]) + 1
        return "", j
    return name, j


def parts_of(raw: str, mode: str, style: str) -> tuple[Part, ...]:
    """Split a literal's body into literal text and interpolated source pieces."""
    out: list[Part] = []
    buf: list[str] = []
    interp = style if mode in ("interp", "cmd") else ""
    i, n = 0, len(raw)

    def flush() -> None:
        if buf:
            out.append(("s", "".join(buf)))
            buf.clear()

    while i < n:
        c = raw[i]
        nxt = raw[i + 1] if i + 1 < n else ""
        if c == "\\" and nxt and mode != "raw":
            if mode == "single":
                buf.append(nxt if nxt in "\\'" else c + nxt)
            elif nxt == "\n":
                pass
            elif nxt == "x" and i + 3 < n + 1 and _is_hex(raw[i + 2 : i + 4]):
                buf.append(chr(int(raw[i + 2 : i + 4], 16)))
                i += 2
            elif nxt == "u" and _is_hex(raw[i + 2 : i + 6]):
                buf.append(chr(int(raw[i + 2 : i + 6], 16)))
                i += 4
            else:
                buf.append(_ESC.get(nxt, nxt))
            i += 2
            continue
        if interp in ("js", "ruby") and c == ("$" if interp == "js" else "#") and nxt == "{":
            end = _match(raw, i + 1, "{", "}")
            flush()
            out.append(("i", raw[i + 2 : end]))
            i = end + 1
            continue
        if interp == "py" and c in "{}":
            if nxt == c:
                buf.append(c)
                i += 2
                continue
            if c == "{":
                end = _match(raw, i, "{", "}")
                src = raw[i + 1 : end]
                for stop in ("!", ":", "="):
                    src = src.split(stop, 1)[0] if stop in src and "[" not in src else src
                flush()
                out.append(("i", src))
                i = end + 1
                continue
        if interp == "php" and c == "{" and nxt == "$":
            end = _match(raw, i, "{", "}")
            flush()
            out.append(("i", raw[i + 1 : end]))
            i = end + 1
            continue
        if interp == "perl" and c == "$" and nxt.isdigit():  # $0, $1: not known statically
            flush()
            out.append(("i", ""))
            i = _ident_end(raw, i + 1)
            continue
        if (
            interp in ("perl", "php")
            and (c == "$" or (c == "@" and interp == "perl"))
            and (_ident_start(nxt) or (nxt == "{" and c == "$"))
        ):
            src, i = _var(raw, i, interp)
            flush()
            out.append(("i", src))
            continue
        buf.append(c)
        i += 1
    flush()
    return tuple(out)


def _is_hex(s: str) -> bool:
    return bool(s) and all(c in "0123456789abcdefABCDEF" for c in s)


def _is_term(toks: list[Tok], spec: LexSpec) -> bool:
    """Whether the previous token ends an operand (so ``/`` or ``%`` is an operator)."""
    for kind, text, _ in reversed(toks):
        if kind == "l":
            continue
        if kind == "n":
            return text not in spec.regex_after
        if kind == "o":
            return text in _TERM_OPS
        return True
    return False


def _operand_expected(code: str, i: int, toks: list[Tok], spec: LexSpec) -> bool:
    """Whether ``code[i]`` starts a literal rather than an infix operator.

    Ruby and Perl also read ``f /re/`` and ``f %w[]`` (space before, none after) as a
    literal argument of a call without parentheses.
    """
    if not _is_term(toks, spec):
        return True
    if not (spec.percent or spec.qlike) or not toks or toks[-1][0] != "n":
        return False
    return i > 0 and code[i - 1] in _SPACE and i + 1 < len(code) and not code[i + 1].isspace()


def tokenize(code: str, spec: LexSpec, sink: Sink) -> list[Tok]:
    toks: list[Tok] = []
    heredocs: list[tuple[int, str, bool, str, str]] = []  # tok index, id, indent, mode, kind
    i, n = 0, len(code)
    while i < n:
        sink.tick()
        c = code[i]
        nxt = code[i + 1] if i + 1 < n else ""
        if c == "\n":
            toks.append(("l", "\n", ()))
            i += 1
            if heredocs:
                i = _heredoc_bodies(code, i, heredocs, toks, spec)
            if spec.docs and code.startswith("=", i) and i + 1 < n and code[i + 1].isalpha():
                i = _doc_block(code, i, spec.docs) or i
            continue
        if i == 0 and spec.docs and c == "=" and nxt.isalpha() and _doc_block(code, 0, spec.docs):
            i = _doc_block(code, i, spec.docs)
            continue
        if c in _SPACE or (c == "\\" and nxt == "\n"):
            i += 1 if c in _SPACE else 2
            continue
        if c in "/#" and any(code.startswith(p, i) for p in spec.line_comments):
            end = code.find("\n", i)
            i = n if end < 0 else end
            continue
        block = next((b for b in spec.block_comments if code.startswith(b[0], i)), None)
        if block is not None:  # only JS/PHP have these, so the cost is theirs
            end = code.find(block[1], i + len(block[0]))
            i = n if end < 0 else end + len(block[1])
            continue
        if _ident_start(c) or (c in spec.sigils and (_ident_start(nxt) or nxt == "{")):
            i = _name(code, i, spec, toks)
            continue
        if c in spec.sigils and nxt and nxt in "$0!@&":
            toks.append(("n", c + nxt, ()))
            i += 2
            continue
        if c == "$" and "$" in spec.sigils:  # zx's `$` tag, PHP's `$$name`
            toks.append(("n", "$", ()))
            i += 1
            continue
        if spec.py_prefixes and c in "'\"":
            i = _py_string(code, i, "", toks)
            continue
        if c.isdigit():
            j = i + 1
            while j < n and (code[j].isalnum() or code[j] == "_" or (
                code[j] == "." and j + 1 < n and code[j + 1].isdigit()
            )):  # fmt: skip
                j += 1
            toks.append(("9", code[i:j], ()))
            i = j
            continue
        if c in spec.quotes:
            mode = spec.quotes[c]
            raw, i = _delimited(code, i)
            style = spec.interp
            if mode == "cmd":
                toks.append(("c", "backticks", parts_of(raw, mode, style)))
            else:
                toks.append(("s", c, parts_of(raw, mode, style)))
            continue
        if spec.heredoc and c == "<" and nxt == "<":
            j = _heredoc_start(code, i, spec, toks, heredocs)
            if j > i:
                i = j
                continue
        if spec.percent and c == "%" and _operand_expected(code, i, toks, spec):
            j = _percent(code, i, spec, toks)
            if j > i:
                i = j
                continue
        if spec.symbols and c == ":" and _ident_start(nxt) and not _is_term(toks, spec):
            j = _ident_end(code, i + 1)
            toks.append(("s", ":", (("s", code[i + 1 : j]),)))
            i = j
            continue
        if spec.slash_regex and c == "/" and _operand_expected(code, i, toks, spec):
            j = _regex_end(code, i)
            if j > i:
                toks.append(("r", "/", ()))
                i = j
                continue
        op = c
        if code[i : i + 2] in _OP_PREFIXES:
            op = next((o for o in _OPS if code.startswith(o, i)), c)
        toks.append(("o", op, ()))
        i += len(op)
    return toks


def _name(code: str, i: int, spec: LexSpec, toks: list[Tok]) -> int:
    n = len(code)
    start = i
    if code[i] in spec.sigils:
        i += 1
        if code[i] == "{":  # ${name}
            end = _match(code, i, "{", "}")
            toks.append(("n", code[start] + code[i + 1 : end].strip(), ()))
            return end + 1
        i = _ident_end(code, i)
        while spec.qlike and code.startswith("::", i) and i + 2 < n and _ident_start(code[i + 2]):
            i = _ident_end(code, i + 2)
        toks.append(("n", code[start:i], ()))
        return i
    i = _ident_end(code, i)
    word = code[start:i]
    nxt = code[i] if i < n else ""
    if spec.py_prefixes and nxt in "'\"" and word.lower() in _PY_PREFIXES:
        return _py_string(code, i, word.lower(), toks)
    if spec.qlike and word in _Q_WORDS:
        j = i
        while j < n and code[j] in _SPACE:
            j += 1
        d = code[j] if j < n else ""
        if (
            d
            and not (d.isalnum() or d in "_,;)=" or d.isspace())
            and not (d == "=" and code.startswith("=>", j))
        ):
            return _perl_q(code, j, word, toks, spec)
    toks.append(("n", word, ()))
    return i


_PY_PREFIXES = frozenset({"r", "u", "b", "f", "br", "rb", "fr", "rf"})
_Q_WORDS = frozenset({"q", "qq", "qw", "qx", "m", "qr", "s", "tr", "y"})


def _py_string(code: str, i: int, prefix: str, toks: list[Tok]) -> int:
    q = code[i]
    triple = code.startswith(q * 3, i)
    delim = q * 3 if triple else q
    j, n = i + len(delim), len(code)
    while j < n and not code.startswith(delim, j):
        if code[j] == "\\":
            j += 1
        elif code[j] == "\n" and not triple:
            break
        j += 1
    raw = code[i + len(delim) : j]
    if "f" in prefix:
        toks.append(("s", q, parts_of(raw, "interp", "py")))
    else:
        toks.append(("s", q, parts_of(raw, "raw" if "r" in prefix else "esc", "")))
    return min(n, j + len(delim))


def _perl_q(code: str, j: int, word: str, toks: list[Tok], spec: LexSpec) -> int:
    raw, end = _delimited(code, j)
    if word in ("s", "tr", "y"):  # a second part: replacement
        if code[j] in _PAIRS:
            k = end
            while k < len(code) and code[k].isspace():
                k += 1
            if k < len(code):
                _, end = _delimited(code, k)
        else:
            _, end = _delimited(code, end - 1)
    if word in ("m", "qr", "s", "tr", "y"):
        end = _ident_end(code, end)
        toks.append(("r", word, ()))
    elif word == "qw":
        toks.append(("w", word, tuple(("s", w) for w in raw.split())))
    elif word == "qx":
        mode = "single" if code[j] == "'" else "cmd"
        toks.append(("c", "qx", parts_of(raw, mode, spec.interp)))
    else:
        mode = "interp" if word == "qq" else "single"
        toks.append(("s", word, parts_of(raw, mode, spec.interp)))
    return end


def _percent(code: str, i: int, spec: LexSpec, toks: list[Tok]) -> int:
    """Ruby ``%q() %Q() %() %w[] %i[] %x() %r{}`` literals; returns i when not one."""
    n = len(code)
    j = i + 1
    letter = code[j] if j < n and code[j] in "qQwWiIxrs" else ""
    j += len(letter)
    if j >= n or code[j] not in "([{<|!/^":
        return i
    raw, end = _delimited(code, j)
    if letter in ("w", "W", "i", "I"):
        toks.append(("w", "%" + letter, tuple(("s", w) for w in raw.split())))
    elif letter == "x":
        toks.append(("c", "%x", parts_of(raw, "cmd", spec.interp)))
    elif letter == "r":
        end = _ident_end(code, end)
        toks.append(("r", "%r", ()))
    else:
        toks.append(("s", "%", parts_of(raw, "single" if letter == "q" else "interp", "ruby")))
    return end


def _regex_end(code: str, i: int) -> int:
    """End of a ``/…/flags`` literal at ``i``, or ``i`` when the line ends first."""
    j, n, in_class = i + 1, len(code), False
    while j < n:
        c = code[j]
        if c == "\n":
            return i
        if c == "\\":
            j += 2
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        elif c == "/" and not in_class:
            return _ident_end(code, j + 1)
        j += 1
    return i


def _doc_block(code: str, i: int, docs: str) -> int:
    """The end of a Ruby ``=begin…=end`` or Perl POD ``=head…=cut`` block at ``i`` (0: none)."""
    if docs == "ruby" and not code.startswith("=begin", i):
        return 0
    end_marker = "\n=end" if docs == "ruby" else "\n=cut"
    end = code.find(end_marker, i)
    if end < 0:
        return len(code)
    return _skip_line(code, end + 1)


def _skip_line(code: str, i: int) -> int:
    end = code.find("\n", i)
    return len(code) if end < 0 else end


def _heredoc_start(
    code: str,
    i: int,
    spec: LexSpec,
    toks: list[Tok],
    pending: list[tuple[int, str, bool, str, str]],
) -> int:
    n = len(code)
    j = i + 2
    if spec.heredoc == "php":
        if not code.startswith("<<<", i):
            return i
        j = i + 3
    indent = spec.heredoc == "php"
    if spec.heredoc != "php" and j < n and code[j] in "~-":
        indent = True
        if spec.heredoc == "perl" and code[j] == "-":
            return i
        j += 1
    while spec.heredoc == "php" and j < n and code[j] in " \t":
        j += 1
    quote = code[j] if j < n and code[j] in "'\"`" else ""
    j += len(quote)
    k = _ident_end(code, j)
    ident = code[j:k]
    if not ident or not _ident_start(ident[0]):
        return i
    if quote:
        if not code.startswith(quote, k):
            return i
        k += 1
    elif spec.heredoc == "ruby" and not indent and not (ident[0].isupper() or ident[0] == "_"):
        return i  # `a <<b` is an append, not a heredoc
    mode = {"'": "single", "`": "cmd"}.get(quote, "interp")
    kind = "c" if quote == "`" else "s"
    pending.append((len(toks), ident, indent, mode, kind))
    toks.append((kind, "heredoc", ()))
    return k


def _heredoc_bodies(
    code: str, i: int, pending: list[tuple[int, str, bool, str, str]], toks: list[Tok],
    spec: LexSpec,
) -> int:  # fmt: skip
    n = len(code)
    for index, ident, indent, mode, kind in pending:
        start = i
        while i < n:
            eol = code.find("\n", i)
            eol = n if eol < 0 else eol
            line = code[i:eol]
            probe = line.strip() if indent else line.rstrip("\r")
            if spec.heredoc == "php":
                ok = probe.startswith(ident) and not probe[len(ident) :][:1].isalnum()
            else:
                ok = probe == ident
            if ok:
                body = code[start:i]
                i = min(n, eol + 1)
                break
            i = eol + 1
        else:
            body = code[start:]
            i = n
        label = "heredoc" if kind == "s" else "backticks heredoc"
        toks[index] = (kind, label, parts_of(body, mode, spec.interp))
    pending.clear()
    return i
