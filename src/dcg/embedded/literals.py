"""The embedded lexer's literal forms: string bodies and interpolation, quote-likes, heredocs.

Each function reads one literal form at ``code[i]`` (Python prefixed strings, Perl
``q``/``qq``/``qw``/``qx``/``m``/``s``, Ruby ``%`` literals, ``/regex/``, heredocs,
Ruby and Perl doc blocks), appends its token and returns where it ends;
:func:`parts_of` splits a literal's body into text and interpolated source.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported at run time: it costs start-up time
if TYPE_CHECKING:
    from dcg.embedded.lang import LexSpec, Part, Tok

_PAIRS = {"(": ")", "[": "]", "{": "}", "<": ">"}
_ESC = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "a": "\a", "b": "\b", "f": "\f",
        "v": "\v", "e": "\x1b"}  # fmt: skip


def ident_start(c: str) -> bool:
    return c.isalpha() or c == "_"


def ident_end(code: str, i: int) -> int:
    n = len(code)
    while i < n and (code[i].isalnum() or code[i] == "_"):
        i += 1
    return i


def match_close(code: str, i: int, open_: str, close: str) -> int:
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


def delimited(code: str, i: int) -> tuple[str, int]:
    """The body of a literal whose opening delimiter is ``code[i]``, and the end index."""
    if i >= len(code):  # `q`/`y:` cut off before its delimiter
        return "", len(code)
    open_ = code[i]
    close = _PAIRS.get(open_, open_)
    if close != open_:
        end = match_close(code, i, open_, close)
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
        end = match_close(raw, i + 1, "{", "}")
        inner = raw[i + 2 : end].strip()
        ok = inner.isidentifier()
        return (sigil + inner if ok else ""), end + 1
    j = ident_end(raw, i + 1)
    while style == "perl" and raw.startswith("::", j) and j + 2 < n and ident_start(raw[j + 2]):
        j = ident_end(raw, j + 2)
    name = raw[i:j]
    if j < n and (raw[j] in "[{" if style == "perl" else raw[j] == "["):
        # An element: kept as source, so $ENV{HOME} / $_SERVER[HOME] can be resolved.
        end = match_close(raw, j, raw[j], _PAIRS[raw[j]]) + 1
        return raw[i:end], end
    if raw.startswith("->", j):  # a member or dereference: not statically known
        j = ident_end(raw, j + 2) if style == "php" else j + 2
        if j < n and raw[j] in "[{":
            j = match_close(raw, j, raw[j], _PAIRS[raw[j]]) + 1
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
            end = match_close(raw, i + 1, "{", "}")
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
                end = match_close(raw, i, "{", "}")
                src = raw[i + 1 : end]
                for stop in ("!", ":", "="):
                    src = src.split(stop, 1)[0] if stop in src and "[" not in src else src
                flush()
                out.append(("i", src))
                i = end + 1
                continue
        if interp == "php" and c == "{" and nxt == "$":
            end = match_close(raw, i, "{", "}")
            flush()
            out.append(("i", raw[i + 1 : end]))
            i = end + 1
            continue
        if interp == "perl" and c == "$" and nxt.isdigit():  # $0, $1: not known statically
            flush()
            out.append(("i", ""))
            i = ident_end(raw, i + 1)
            continue
        if (
            interp in ("perl", "php")
            and (c == "$" or (c == "@" and interp == "perl"))
            and (ident_start(nxt) or (nxt == "{" and c == "$"))
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


def py_string(code: str, i: int, prefix: str, toks: list[Tok]) -> int:
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


def perl_q(code: str, j: int, word: str, toks: list[Tok], spec: LexSpec) -> int:
    raw, end = delimited(code, j)
    if word in ("s", "tr", "y"):  # a second part: replacement
        if code[j] in _PAIRS:
            k = end
            while k < len(code) and code[k].isspace():
                k += 1
            if k < len(code):
                _, end = delimited(code, k)
        else:
            _, end = delimited(code, end - 1)
    if word in ("m", "qr", "s", "tr", "y"):
        end = ident_end(code, end)
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


def percent_literal(code: str, i: int, spec: LexSpec, toks: list[Tok]) -> int:
    """Ruby ``%q() %Q() %() %w[] %i[] %x() %r{}`` literals; returns i when not one."""
    n = len(code)
    j = i + 1
    letter = code[j] if j < n and code[j] in "qQwWiIxrs" else ""
    j += len(letter)
    if j >= n or code[j] not in "([{<|!/^":
        return i
    raw, end = delimited(code, j)
    if letter in ("w", "W", "i", "I"):
        toks.append(("w", "%" + letter, tuple(("s", w) for w in raw.split())))
    elif letter == "x":
        toks.append(("c", "%x", parts_of(raw, "cmd", spec.interp)))
    elif letter == "r":
        end = ident_end(code, end)
        toks.append(("r", "%r", ()))
    else:
        toks.append(("s", "%", parts_of(raw, "single" if letter == "q" else "interp", "ruby")))
    return end


def regex_end(code: str, i: int) -> int:
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
            return ident_end(code, j + 1)
        j += 1
    return i


def doc_block(code: str, i: int, docs: str) -> int:
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


def heredoc_start(
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
    k = ident_end(code, j)
    ident = code[j:k]
    if not ident or not ident_start(ident[0]):
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


def heredoc_bodies(
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
