"""Tokenizer: shell text to words (with quoting and expansions), operators and heredocs."""

from __future__ import annotations

from dcg.shell.limits import MAX_DEPTH, TooComplex
from dcg.shell.words import Heredoc, Word

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from dcg.shell.limits import Budget
    from dcg.shell.words import Token

_BREAK = frozenset(" \t\r\n;&|()<>")
_STOP = _BREAK | frozenset("\\'\"$`")
_EXTGLOB = frozenset("@!+*?")
_NAME0 = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_NAME = _NAME0 | frozenset("0123456789")
_SPECIAL_PARAMS = frozenset("0123456789@*#?$!-")
_REDIRECTS = ("<<<", "<<-", "<<", "<&", "<>", "<", ">>", ">&", ">|", ">")
# After these reserved words the next word is again a command word.
_REOPEN = frozenset(("if", "then", "else", "elif", "do", "while", "until", "{", "!", "time"))
_ESC = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
        "e": "\x1b", "E": "\x1b", "\\": "\\", "'": "'", '"': '"', "?": "?"}  # fmt: skip
NEWLINE: Token = ("o", "\n", None, None)


def lex(text: str, budget: Budget, depth: int) -> list[Token]:
    """Tokenize a whole command line (or payload) at nesting ``depth``."""
    return Lexer(text, budget).tokens(0, depth, False)[0]


class Lexer:
    """Scans one string; nested $( … ) are lexed recursively in place."""

    __slots__ = ("budget", "n", "pending", "s")

    def __init__(self, s: str, budget: Budget) -> None:
        self.s = s
        self.n = len(s)
        self.budget = budget
        self.pending: list[Heredoc] = []

    def tokens(self, i: int, depth: int, stop: bool) -> tuple[list[Token], int]:
        """Tokens from ``i``; with ``stop``, up to the ``)`` closing a substitution."""
        if depth > MAX_DEPTH:
            raise TooComplex(f"nesting deeper than {MAX_DEPTH}")
        s, n, tick = self.s, self.n, self.budget.token
        out: list[Token] = []
        stack: list[str] = []  # open "(" and "case", to tell a pattern's ")" from ours
        cmd = True
        after_for = False
        while i < n:
            c = s[i]
            if c in " \t\r":
                i += 1
                continue
            if c == "\\" and s.startswith("\n", i + 1):
                i += 2
                continue
            if c == "#":
                j = s.find("\n", i)
                i = n if j < 0 else j
                continue
            tick()
            if c == "\n":
                out.append(NEWLINE)
                i += 1
                cmd = True
                if self.pending:
                    i = self.heredocs(i, depth)
                continue
            if c == ")":
                if stack and stack[-1] == "(":
                    stack.pop()
                elif stop and not stack:
                    return out, i + 1
                out.append(("o", ")", None, None))
                i += 1
                cmd = True
                continue
            if c == "(":
                if (cmd or after_for) and s.startswith("(", i + 1):
                    w = Word()
                    j = self.arith(i + 2, depth, w)
                    if j >= 0:
                        w.parts.append(("x", "", s[i:j], False))
                        out.append(("a", "", w, None))
                        i, cmd, after_for = j, False, False
                        continue
                stack.append("(")
                out.append(("o", "(", None, None))
                i += 1
                cmd = True
                continue
            if c in ";&|":
                op = _control(s, i)
                i += len(op)
                if op[0] == "&" and len(op) > 1 and op != "&&":
                    out.append(("r", op, None, None))
                    cmd = False
                else:
                    out.append(("o", op, None, None))
                    cmd = True
                continue
            if c in "<>" and not s.startswith("(", i + 1):
                i = self.redirect(i, "", out, depth)
                continue
            start = i
            w, i = self.word(i, depth)
            if i < n and s[i] in "<>" and not s.startswith("(", i + 1) and s[start:i].isdigit():
                i = self.redirect(i, s[start:i], out, depth)
                continue
            out.append(("w", "", w, None))
            kw = w.plain() if cmd else None
            if kw is None:
                cmd = after_for = False
                continue
            if kw == "case":
                stack.append("case")
            elif kw == "esac" and stack and stack[-1] == "case":
                stack.pop()
            cmd = kw in _REOPEN or (w.assign is not None)
            after_for = kw == "for"
        return out, n

    def redirect(self, i: int, fd: str, out: list[Token], depth: int) -> int:
        s = self.s
        op = next(o for o in _REDIRECTS if s.startswith(o, i))
        i += len(op)
        if op not in ("<<", "<<-"):
            out.append(("r", fd + op, None, None))
            return i
        while i < self.n and s[i] in " \t":
            i += 1
        w, i = self.word(i, depth)
        lit = w.literal()
        doc = Heredoc(w.source() if lit is None else lit, w.quoted, op == "<<-")
        self.pending.append(doc)
        out.append(("h", fd + op, None, doc))
        return i

    def heredocs(self, i: int, depth: int) -> int:
        """Read the bodies of the heredocs started on the line that just ended."""
        s, n = self.s, self.n
        for doc in self.pending:
            lines = []
            while i < n:
                j = s.find("\n", i)
                end = n if j < 0 else j
                line = s[i:end]
                i = end + 1 if j >= 0 else n
                if doc.strip:
                    line = line.lstrip("\t")
                if line == doc.delim or line.rstrip("\r") == doc.delim:
                    break
                lines.append(line)
            body = "\n".join(lines) + "\n" if lines else ""
            doc.body = body
            if not doc.quoted and ("$" in body or "`" in body):
                doc.word = Word()
                Lexer(body, self.budget).dquote(0, depth, doc.word, "")
        self.pending = []
        return i

    def word(self, i: int, depth: int) -> tuple[Word, int]:
        s, n = self.s, self.n
        w = Word()
        parts = w.parts
        start = i
        while i < n:
            c = s[i]
            if c not in _STOP:
                j = i + 1
                while j < n and s[j] not in _STOP:
                    j += 1
                parts.append(("s", s[i:j], s[i:j], False))
                i = j
            elif c in _BREAK:
                if c in "<>" and i == start and s.startswith("(", i + 1):
                    toks, j = self.tokens(i + 2, depth + 1, True)
                    w.subs.append((c + "(…)", toks))
                    parts.append(("x", "", c + "(…)", False))
                    i = j
                elif c == "(" and parts and parts[-1][0] == "s" and parts[-1][1][-1:] in _EXTGLOB:
                    j = _balanced(s, i)
                    parts.append(("s", s[i:j], s[i:j], False))
                    i = j
                else:
                    break
            elif c == "\\":
                w.quoted = True
                if i + 1 >= n:
                    parts.append(("s", "\\", "\\", True))
                elif s[i + 1] != "\n":
                    parts.append(("s", s[i + 1], s[i : i + 2], True))
                i += 2
            elif c == "'":
                w.quoted = True
                j = s.find("'", i + 1)
                j = n if j < 0 else j
                parts.append(("s", s[i + 1 : j], s[i : j + 1], True))
                i = j + 1
            elif c == '"':
                w.quoted = True
                i = self.dquote(i + 1, depth, w, '"')
            elif c == "`":
                i = self.backtick(i, w, False, True)
            else:
                i = self.dollar(i, depth, w, False)
        if parts and parts[0][0] == "s" and not parts[0][3]:
            name = parts[0][1].partition("=")[0].removesuffix("+")
            if name != parts[0][1] and name[:1] in _NAME0 and all(ch in _NAME for ch in name):
                w.assign = name
                if i < n and s[i] == "(" and len(parts) == 1 and parts[0][1].endswith("="):
                    w.array, i = self.array(i + 1, depth)
            elif "[" in parts[0][1] and parts[0][1][:1] in _NAME0:
                w.assign = _element(w)
        return w, min(i, n)

    def array(self, i: int, depth: int) -> tuple[list[Word], int]:
        """The element words of ``NAME=( … )`` from after its ``(`` (bash's compound
        assignment: words, ``[KEY]=value`` elements, newlines and comments between)."""
        s, n = self.s, self.n
        words: list[Word] = []
        while i < n:
            c = s[i]
            if c in " \t\r\n":
                i += 1
            elif c == "#":
                j = s.find("\n", i)
                i = n if j < 0 else j
            elif c == ")":
                return words, i + 1
            elif c in "(;&|<>":
                raise TooComplex("an array assignment dcg does not read")
            else:
                self.budget.token()
                w, i = self.word(i, depth)
                words.append(w)
        return words, i

    def dquote(self, i: int, depth: int, w: Word, end: str) -> int:
        """Scan a double-quoted string (or, with ``end`` empty, a heredoc body)."""
        s, n, parts = self.s, self.n, w.parts
        escapable = '$`"\\\n' if end else "$`\\\n"
        seg = i
        while i < n:
            c = s[i]
            if c != end and c not in "\\$`":
                i += 1
                continue
            if seg < i:
                parts.append(("s", s[seg:i], s[seg:i], True))
            if c == end:
                return i + 1
            if c == "\\":
                if i + 1 < n and s[i + 1] in escapable:
                    if s[i + 1] != "\n":
                        parts.append(("s", s[i + 1], s[i : i + 2], True))
                    i += 2
                else:
                    parts.append(("s", "\\", "\\", True))
                    i += 1
            elif c == "`":
                i = self.backtick(i, w, True, True)
            else:
                i = self.dollar(i, depth, w, True)
            seg = i
        if seg < n:
            parts.append(("s", s[seg:n], s[seg:n], True))
        return n

    def dollar(self, i: int, depth: int, w: Word, quoted: bool) -> int:
        s, parts = self.s, w.parts
        nxt = s[i + 1 : i + 2]
        if nxt == "(":
            if s.startswith("(", i + 2):
                mark = len(w.subs)
                j = self.arith(i + 3, depth, w)
                if j >= 0:
                    parts.append(("x", "", s[i:j], quoted))
                    return j
                del w.subs[mark:]
            toks, j = self.tokens(i + 2, depth + 1, True)
            w.subs.append(("$(…)", toks))
            parts.append(("c", str(len(w.subs) - 1), s[i:j], quoted))
            return j
        if nxt == "{":
            j = self.braced(i + 2, depth, w, quoted)
            inner = s[i + 2 : j - 1]
            simple = inner[:1] in _NAME0 and all(ch in _NAME for ch in inner)
            parts.append(("v" if simple else "x", inner, s[i:j], quoted))
            return j
        if nxt == "'" and not quoted:
            w.quoted = True
            text, j = _ansi_c(s, i + 2)
            parts.append(("s", text, s[i:j], True))
            return j
        if nxt == '"' and not quoted:
            w.quoted = True
            return self.dquote(i + 2, depth, w, '"')
        if nxt and nxt in _NAME0:
            j = i + 2
            while j < self.n and s[j] in _NAME:
                j += 1
            parts.append(("v", s[i + 1 : j], s[i:j], quoted))
            return j
        if nxt and nxt in _SPECIAL_PARAMS:
            parts.append(("x", "", s[i : i + 2], quoted))
            return i + 2
        parts.append(("s", "$", "$", quoted))
        return i + 1

    def braced(self, i: int, depth: int, w: Word, quoted: bool) -> int:
        """End of a ${ … } expansion; substitutions inside it are collected."""
        s, n = self.s, self.n
        level = 1
        while i < n:
            c = s[i]
            if c == "\\":
                i += 2
            elif c == "$" and s.startswith("(", i + 1):
                toks, i = self.tokens(i + 2, depth + 1, True)
                w.subs.append(("$(…)", toks))
            elif c == "`":
                i = self.backtick(i, w, quoted, False)
            elif c == "{":
                level += 1
                i += 1
            elif c == "}":
                level -= 1
                i += 1
                if not level:
                    return i
            else:
                i += 1
        return n

    def arith(self, i: int, depth: int, w: Word) -> int:
        """End of an arithmetic (( … )) starting after its "((", or -1 if it is not one."""
        s, n = self.s, self.n
        level = 0
        while i < n:
            c = s[i]
            if c == "(":
                level += 1
            elif c == ")":
                if not level:
                    return i + 2 if s.startswith(")", i + 1) else -1
                level -= 1
            elif c == "$" and s.startswith("(", i + 1) and not s.startswith("((", i + 1):
                toks, i = self.tokens(i + 2, depth + 1, True)
                w.subs.append(("$(…)", toks))
                continue
            elif c == "`":
                i = self.backtick(i, w, False, False)
                continue
            i += 1
        return -1

    def backtick(self, i: int, w: Word, quoted: bool, part: bool) -> int:
        s, n = self.s, self.n
        special = '`\\$"' if quoted else "`\\$"
        buf = []
        j = i + 1
        while j < n:
            c = s[j]
            if c == "\\" and j + 1 < n and s[j + 1] in special:
                buf.append(s[j + 1])
                j += 2
            elif c == "`":
                break
            else:
                buf.append(c)
                j += 1
        end = min(j + 1, n)
        w.subs.append(("`…`", "".join(buf)))
        if part:
            w.parts.append(("c", str(len(w.subs) - 1), s[i:end], quoted))
        return end


def _control(s: str, i: int) -> str:
    for op in (";;&", ";;", ";&", "&&", "&>>", "&>", "||", "|&"):
        if s.startswith(op, i):
            return op
    return s[i]


def _element(w: Word) -> str | None:
    """``NAME[SUBSCRIPT]`` when ``w`` is an element assignment ``NAME[SUBSCRIPT]=value``."""
    raw = "".join(p[2] for p in w.parts)
    k = raw.find("[")
    if not all(ch in _NAME for ch in raw[:k]):
        return None
    level = 0
    for j in range(k, len(raw)):
        if raw[j] == "[":
            level += 1
        elif raw[j] == "]":
            level -= 1
            if level == 0:
                rest = raw[j + 1 : j + 3]
                return raw[: j + 1] if rest[:1] == "=" or rest == "+=" else None
    return None


def _balanced(s: str, i: int) -> int:
    level = 0
    for j in range(i, len(s)):
        if s[j] == "(":
            level += 1
        elif s[j] == ")":
            level -= 1
            if not level:
                return j + 1
    return len(s)


def _ansi_c(s: str, i: int) -> tuple[str, int]:
    """Decode a $'…' string starting after the quote; returns (text, end)."""
    out: list[str] = []
    n = len(s)
    while i < n:
        c = s[i]
        if c == "'":
            # A NUL ends the string for bash: $'rm\0junk' is rm.
            return "".join(out).partition("\x00")[0], i + 1
        if c != "\\" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        d = s[i + 1]
        i += 2
        if d in _ESC:
            out.append(_ESC[d])
        elif d in "xuU0123456789" and d not in "89":
            octal = d not in "xuU"
            width = 3 if octal else {"x": 2, "u": 4, "U": 8}[d]
            start = i - 1 if octal else i
            digits = "01234567" if octal else "0123456789abcdefABCDEF"
            j = start
            while j < n and j - start < width and s[j] in digits:
                j += 1
            if j == start:
                out.append("\\" + d)
                continue
            code = int(s[start:j], 8 if octal else 16)
            out.append(chr(code) if code <= 0x10FFFF else "\ufffd")
            i = j
        elif d == "c" and i < n:
            out.append(chr(ord(s[i]) & 31))
            i += 1
        else:
            out.append("\\" + d)
    return "".join(out), n
