"""Bash's pattern and value operators on known text, for dcg.shell.params.

Glob patterns become regular expressions (quoted pieces literal); removal, substitution
(bash 5.2's ``&`` included) and case changes follow bash; ``escapes`` reads ``$'…'``
escapes; :func:`evaluate` is integer arithmetic on tokens (+ - * / % and parentheses).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    # (quoted, text) pieces of a pattern; text None: an expansion dcg could not know.
    Pieces = list[tuple[bool, str | None]]


def regex(pieces: Pieces) -> str | None:
    """A bash glob pattern's (quoted, text) pieces (quoted parts literal) as a regular
    expression; None when a piece is unknown."""
    import re

    out: list[str] = []
    k = 0
    while k < len(pieces):
        quoted, ch = pieces[k]
        if ch is None:
            return None
        if quoted or len(ch) != 1:
            out.append(re.escape(ch))
        elif ch == "*":
            out.append(".*")
        elif ch == "?":
            out.append(".")
        elif ch in "?*+@!" and k + 1 < len(pieces) and pieces[k + 1] == (False, "("):
            return None  # an extglob pattern (with `shopt -s extglob`): not modelled
        elif ch == "[":
            j = k + 1
            chars: list[str] = []
            while (j < len(pieces) and pieces[j][1] != "]") or j == k + 1:
                if j >= len(pieces):
                    break
                chars.append(pieces[j][1] or "")
                j += 1
            if j >= len(pieces):
                out.append(re.escape("["))
            else:
                body = "".join(chars)
                if "[:" in body or "[=" in body or "[." in body:
                    return None  # a character class: not modelled, the value is unknown
                if body[:1] in "!^":
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                k = j
        else:
            out.append(re.escape(ch))
        k += 1
    return "".join(out)


def remove(v: str, pat: str, prefix: bool, longest: bool) -> str:
    """``${v#p}`` ``${v##p}`` (prefix) and ``${v%p}`` ``${v%%p}`` (suffix)."""
    import re

    rx = re.compile(pat, re.S)
    n = len(v)
    if prefix:
        for i in range(n, -1, -1) if longest else range(n + 1):
            if rx.fullmatch(v[:i]):
                return v[i:]
    else:
        for i in range(n + 1) if longest else range(n, -1, -1):
            if rx.fullmatch(v[i:]):
                return v[:i]
    return v


def substitute(v: str, pat: str, rep: list[str | None], every: bool, anchor: str) -> str:
    """``${v/pat/rep}`` (``every``: ``//``; ``anchor`` ``#`` or ``%``): ``pat`` a regular
    expression from :func:`regex`, ``rep`` pieces where None is ``&`` (the match)."""
    import re

    if not pat:
        return v
    # Glob patterns have no alternation: a greedy match is the longest at its place.
    if anchor == "#":
        rx = re.compile(f"(?:{pat})", re.S)
        m = rx.match(v)
        spans = [m.span()] if m else []
    elif anchor == "%":
        rx = re.compile(f"(?:{pat})\\Z", re.S)
        m = rx.search(v)
        spans = [m.span()] if m else []
    else:
        rx = re.compile(pat, re.S)
        spans = []
        i = 0
        while i <= len(v):
            m = rx.search(v, i)
            if m is None:
                break
            if m.end() > m.start():
                spans.append(m.span())
            if not every:
                break
            i = m.end() if m.end() > m.start() else m.end() + 1
    out: list[str] = []
    last = 0
    for a, b in spans:
        out.append(v[last:a])
        out.append("".join(v[a:b] if piece is None else piece for piece in rep))
        last = b
    out.append(v[last:])
    return "".join(out)


def split_slash(spec: str) -> tuple[str, str, str]:
    """``pattern/replacement`` at the first unquoted, unescaped slash."""
    i, quote = 0, ""
    while i < len(spec):
        c = spec[i]
        if c == "\\":
            i += 2
            continue
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == "/":
            return spec[:i], "/", spec[i + 1 :]
        i += 1
    return spec, "", ""


def case(v: str, op: str, pat: str) -> str:
    """``${v^p}`` ``${v^^p}`` ``${v,p}`` ``${v,,p}`` ``${v~p}`` ``${v~~p}`` (``op``)."""
    import re

    rx = re.compile(pat, re.S)
    chars = list(v)
    for k, ch in enumerate(chars):
        if len(op) == 1 and k > 0:
            break
        if not rx.fullmatch(ch):
            continue
        if op[0] == "^":
            chars[k] = ch.upper()
        elif op[0] == ",":
            chars[k] = ch.lower()
        else:
            chars[k] = ch.lower() if ch.isupper() else ch.upper()
    return "".join(chars)


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
            "e": "\x1b", "E": "\x1b", "\\": "\\", "'": "'", '"': '"', "?": "?"}  # fmt: skip


def escapes(v: str) -> str:
    """Backslash escapes as ``$'…'`` reads them (``${x@E}``)."""
    return decode(v, "ansi")[0]


_HEX = "0123456789abcdefABCDEF"
_WIDE = {"x": 2, "u": 4, "U": 8}


def decode(v: str, mode: str) -> tuple[str, bool]:
    r"""``v`` with its backslash escapes resolved, and whether a ``\c`` ended the output.

    ``mode``: ``ansi`` (``$'…'``, ``${x@E}``: ``\nnn`` octal, ``\cX`` a control character),
    ``fmt`` (a printf format: ``\nnn``), ``b`` (printf's ``%b`` argument: ``\0nnn`` and
    ``\nnn``, ``\c`` stops all output), ``echo`` (``echo -e``: only ``\0nnn``, ``\c``
    stops). All read ``\xHH``, ``\uHHHH`` and ``\UHHHHHHHH`` as bash does.
    """
    if "\\" not in v:
        return v, False
    out: list[str] = []
    i, n = 0, len(v)
    while i < n:
        c = v[i]
        if c != "\\" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        nxt = v[i + 1]
        if (
            nxt in _ESCAPES
            and not (mode != "ansi" and nxt in "'?")
            and not (mode in ("b", "echo") and nxt == '"')
        ):
            out.append(_ESCAPES[nxt])
            i += 2
        elif nxt in _WIDE:
            j = i + 2
            while j < n and j < i + 2 + _WIDE[nxt] and v[j] in _HEX:
                j += 1
            if j == i + 2:
                out.append("\\" + nxt)
            else:
                code = int(v[i + 2 : j], 16)
                out.append(chr(code) if code <= 0x10FFFF else "")
            i = j
        elif nxt == "c":
            if mode in ("b", "echo"):
                return "".join(out), True
            if i + 2 < n:
                out.append(chr(ord(v[i + 2]) & 0x1F))
                i += 3
            else:
                out.append("\\c")
                i += 2
        elif nxt in "01234567" and (mode != "echo" or nxt == "0"):
            start = i + 2 if nxt == "0" and mode in ("b", "echo") else i + 1
            j = start
            while j < n and j < start + 3 and v[j] in "01234567":
                j += 1
            out.append(chr(int(v[start:j] or "0", 8) & 0xFF))
            i = j
        else:
            out.append(c + nxt)
            i += 2
    return "".join(out), False


def evaluate(tokens: list[str]) -> int | None:
    """The value of an arithmetic expression's tokens (integers and operators)."""
    try:
        result, k = _sum(tokens, 0)
    except (IndexError, ValueError, ZeroDivisionError):
        return None
    return result if k == len(tokens) else None


def _sum(tokens: list[str], k: int) -> tuple[int, int]:
    value, k = _product(tokens, k)
    while k < len(tokens) and tokens[k] in "+-":
        rhs, k2 = _product(tokens, k + 1)
        value = value + rhs if tokens[k] == "+" else value - rhs
        k = k2
    return value, k


def _product(tokens: list[str], k: int) -> tuple[int, int]:
    value, k = _unary(tokens, k)
    while k < len(tokens) and tokens[k] in ("*", "/", "%"):
        rhs, k2 = _unary(tokens, k + 1)
        if tokens[k] == "*":
            value *= rhs
        else:
            q = abs(value) // abs(rhs) * (1 if (value >= 0) == (rhs >= 0) else -1)
            value = q if tokens[k] == "/" else value - q * rhs
        k = k2
    return value, k


def _unary(tokens: list[str], k: int) -> tuple[int, int]:
    tok = tokens[k]
    if tok in ("-", "+"):
        value, k = _unary(tokens, k + 1)
        return (-value if tok == "-" else value), k
    if tok == "(":
        value, k = _sum(tokens, k + 1)
        if tokens[k] != ")":
            raise ValueError
        return value, k + 1
    return int(tok, 0) if not tok.startswith("0") or tok == "0" else int(tok, 8), k + 1
