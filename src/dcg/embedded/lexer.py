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

from dcg.embedded.literals import (
    delimited,
    doc_block,
    heredoc_bodies,
    heredoc_start,
    ident_end,
    ident_start,
    match_close,
    parts_of,
    percent_literal,
    perl_q,
    py_string,
    regex_end,
)

TYPE_CHECKING = False  # typing is not imported at run time: it costs start-up time
if TYPE_CHECKING:
    from dcg.embedded.actions import Sink
    from dcg.embedded.lang import LexSpec, Tok

_OPS = (
    "===", "!==", "**=", "...", "?->", "<=>", "::", "->", "=>", "==", "!=", "<=", ">=",
    "&&", "||", "+=", "-=", ".=", "?.", "..", "<<", ">>", "=~", "!~", "**", "//",
)  # fmt: skip
_OP_PREFIXES = frozenset(o[:2] for o in _OPS)
_SPACE = " \t\r\f\v"
_TERM_OPS = frozenset({")", "]", "}"})

_PY_PREFIXES = frozenset({"r", "u", "b", "f", "br", "rb", "fr", "rf"})
_Q_WORDS = frozenset({"q", "qq", "qw", "qx", "m", "qr", "s", "tr", "y"})


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
                i = heredoc_bodies(code, i, heredocs, toks, spec)
            if spec.docs and code.startswith("=", i) and i + 1 < n and code[i + 1].isalpha():
                i = doc_block(code, i, spec.docs) or i
            continue
        if i == 0 and spec.docs and c == "=" and nxt.isalpha() and doc_block(code, 0, spec.docs):
            i = doc_block(code, i, spec.docs)
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
        if ident_start(c) or (c in spec.sigils and (ident_start(nxt) or nxt == "{")):
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
            i = py_string(code, i, "", toks)
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
            raw, i = delimited(code, i)
            style = spec.interp
            if mode == "cmd":
                toks.append(("c", "backticks", parts_of(raw, mode, style)))
            else:
                toks.append(("s", c, parts_of(raw, mode, style)))
            continue
        if spec.heredoc and c == "<" and nxt == "<":
            j = heredoc_start(code, i, spec, toks, heredocs)
            if j > i:
                i = j
                continue
        if spec.percent and c == "%" and _operand_expected(code, i, toks, spec):
            j = percent_literal(code, i, spec, toks)
            if j > i:
                i = j
                continue
        if spec.symbols and c == ":" and ident_start(nxt) and not _is_term(toks, spec):
            j = ident_end(code, i + 1)
            toks.append(("s", ":", (("s", code[i + 1 : j]),)))
            i = j
            continue
        if spec.slash_regex and c == "/" and _operand_expected(code, i, toks, spec):
            j = regex_end(code, i)
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
            end = match_close(code, i, "{", "}")
            toks.append(("n", code[start] + code[i + 1 : end].strip(), ()))
            return end + 1
        i = ident_end(code, i)
        while spec.qlike and code.startswith("::", i) and i + 2 < n and ident_start(code[i + 2]):
            i = ident_end(code, i + 2)
        toks.append(("n", code[start:i], ()))
        return i
    i = ident_end(code, i)
    word = code[start:i]
    nxt = code[i] if i < n else ""
    if spec.py_prefixes and nxt and nxt in "'\"" and word.lower() in _PY_PREFIXES:
        return py_string(code, i, word.lower(), toks)
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
            return perl_q(code, j, word, toks, spec)
    toks.append(("n", word, ()))
    return i
