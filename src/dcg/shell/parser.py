"""Grammar: group tokens into the simple commands a line would run, in source order.

Compound commands need no tree here: their reserved words only separate the simple
commands inside them, so the result is a flat list that keeps source order.
"""

from __future__ import annotations

from dcg.shell.limits import MAX_DEPTH, TooComplex

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from dcg.shell.words import Heredoc, Token, Word

_SEPARATING = frozenset(
    ("if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!", "{", "}", "coproc")
)


class Simple:
    """One simple command before expansion; the walker fills ``fields`` and ``stdin``."""

    __slots__ = ("assigns", "extra", "fields", "forget", "pipe_in", "redirects", "stdin", "words")

    def __init__(self) -> None:
        self.words: list[Word] = []
        self.assigns: list[Word] = []
        self.redirects: list[tuple[str, Word | Heredoc | None]] = []
        # Words that run their substitutions but are not a command (for lists, case
        # subjects and patterns, [[ … ]], (( … ))).
        self.extra: list[Word] = []
        # Variables whose value becomes unknown here (for/select loop variables, read).
        self.forget: list[str] = []
        # The command whose output feeds this one through a pipe; OPAQUE when that is a
        # compound command.
        self.pipe_in: Simple | None = None
        self.fields: list[str] = []
        self.stdin: str | None = None

    def __bool__(self) -> bool:
        return bool(self.words or self.assigns or self.redirects or self.extra or self.forget)


OPAQUE = Simple()


def split(tokens: list[Token], depth: int) -> list[Simple]:
    out: list[Simple] = []
    cur = Simple()
    level = 0  # open ( and { inside this token list
    cases = 0
    in_pattern = False
    i, n = 0, len(tokens)
    while i < n:
        kind, op, w, doc = tokens[i]
        i += 1
        if kind == "o":
            if in_pattern:
                in_pattern = op != ")"
                continue
            last = cur if cur else None
            if last is not None:
                out.append(last)
                cur = Simple()
            cur.pipe_in = (last or OPAQUE) if op in ("|", "|&") else None
            if op == "(":
                if last and len(last.words) == 1 and i < n and tokens[i][:2] == ("o", ")"):
                    out.pop()  # "name ( )" defines a function: the name runs nothing
                    i += 1
                    continue
                level += 1
                if depth + level > MAX_DEPTH:
                    raise TooComplex(f"nesting deeper than {MAX_DEPTH}")
            elif op == ")":
                level = max(level - 1, 0)
            elif op in (";;", ";&", ";;&") and cases:
                in_pattern = True
            continue
        if kind == "r":
            if i < n and tokens[i][0] == "w":
                cur.redirects.append((op, tokens[i][2]))
                i += 1
            else:
                cur.redirects.append((op, None))
            continue
        if kind == "h":
            cur.redirects.append((op, doc))
            continue
        if w is None:
            continue
        if kind == "a":
            cur.extra.append(w)
            continue
        kw = w.plain()
        if in_pattern:
            if kw == "esac":
                in_pattern = False
                cases -= 1
            else:
                cur.extra.append(w)
            continue
        if cur.words or kw is None:
            if not cur.words and w.assign is not None:
                cur.assigns.append(w)
            else:
                cur.words.append(w)
            continue
        if kw in _SEPARATING:
            if cur:
                out.append(cur)
                pipe, cur = cur.pipe_in, Simple()
                cur.pipe_in = pipe
            if kw == "{":
                level += 1
                if depth + level > MAX_DEPTH:
                    raise TooComplex(f"nesting deeper than {MAX_DEPTH}")
            elif kw == "}":
                level = max(level - 1, 0)
        elif kw in ("for", "select", "case", "[[", "function"):
            head = Simple()
            i = _head(kw, tokens, i, head)
            if kw == "case":
                cases += 1
                in_pattern = True
            if head:
                out.append(head)
        elif kw == "esac":
            cases = max(cases - 1, 0)
        elif w.assign is not None:
            cur.assigns.append(w)
        else:
            cur.words.append(w)
    if cur:
        out.append(cur)
    return out


def _head(kw: str, tokens: list[Token], i: int, head: Simple) -> int:
    """Consume the non-command words after for/select/case/[[/function."""
    n = len(tokens)
    if kw == "[[":
        while i < n:
            w = tokens[i][2]
            i += 1
            if w is not None:
                if w.plain() == "]]":
                    break
                head.extra.append(w)
        return i
    if i < n and tokens[i][0] == "a":
        w = tokens[i][2]
        if w is not None:
            head.extra.append(w)
        return i + 1
    if i < n and tokens[i][0] == "w":
        w = tokens[i][2]
        i += 1
        if w is not None:
            if kw == "case":
                head.extra.append(w)
            elif kw != "function":
                head.forget.append(w.source())
    if kw == "function":
        if i + 1 < n and tokens[i][:2] == ("o", "(") and tokens[i + 1][:2] == ("o", ")"):
            i += 2
        return i
    while i < n and tokens[i][:2] == ("o", "\n"):
        i += 1
    nxt = tokens[i][2] if i < n and tokens[i][0] == "w" else None
    if nxt is not None and nxt.plain() == "in":
        i += 1
        if kw == "case":
            return i
        while i < n and tokens[i][0] == "w":
            w = tokens[i][2]
            if w is not None:
                head.extra.append(w)
            i += 1
    return i
