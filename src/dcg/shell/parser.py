"""Grammar: group tokens into the simple commands a line would run, in source order.

Compound commands need no tree here: their reserved words only separate the simple
commands inside them, so the result is a flat list that keeps source order. Each simple
command carries the frames around it that decide whether its assignments reach the rest
of the line (subshells, branches, function bodies: :class:`Frames`, applied by
:mod:`dcg.shell.flow`).
"""

from __future__ import annotations

from dcg.shell.limits import MAX_DEPTH, TooComplex

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from dcg.shell.words import Heredoc, Token, Word

_SEPARATING = frozenset(
    ("if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!", "{", "}", "coproc")
)

_NOT_SIMPLE = _SEPARATING | {"for", "select", "case", "[[", "function", "esac"}


class Simple:
    """One simple command before expansion; the walker fills ``fields`` and ``stdin``."""

    __slots__ = ("assigns", "dyns", "extra", "fields", "flow", "forget", "group", "grouped", "link",
                 "pipe_in", "redirects", "solo", "stdin", "words")  # fmt: skip

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
        self.dyns: list[bool] = []  # which fields are known only at run time
        # Its place in an and-or list (dcg.shell.conds): "&&"/"||" when the pipeline before
        # the operator was one plain simple command; ``solo``: 1 when it is a whole pipeline
        # on its own, -1 when negated by `!`, 0 otherwise (its status tells nothing).
        self.link = ""
        self.solo = 0
        self.stdin: str | None = None
        # The frames around it whose variables do not simply carry on (dcg.shell.flow):
        # subshells, branches that may not run, function bodies.
        self.flow: list[Frame] = []
        # For the stand-in pipe_in of `{ …; } | cmd` and `( … ) | cmd`: the group's commands.
        self.group: list[Simple] | None = None
        # Redirections of the compound command just closed (`{ …; } > f`, `done > f`).
        self.grouped = False

    def __bool__(self) -> bool:
        return bool(self.words or self.assigns or self.redirects or self.extra or self.forget)


OPAQUE = Simple()


class Frame:
    """``kind``: ``sub`` (a subshell), ``arm`` (a branch of construct ``cid``), ``func``."""

    __slots__ = ("body", "cid", "kind", "label")

    def __init__(self, kind: str, cid: int, label: str = "") -> None:
        self.kind, self.cid, self.label = kind, cid, label
        self.body: list[Token] = []  # a function's tokens, for its calls (dcg.shell.cases)


class _Entry:
    __slots__ = ("cid", "cid_token", "closer", "frame", "kind", "label", "start")

    def __init__(self, kind: str, closer: str, frame: Frame | None, start: int, cid: int) -> None:
        self.kind, self.closer, self.frame, self.start, self.cid = kind, closer, frame, start, cid
        self.label = ""
        self.cid_token = 0  # a function body's first token


class Frames:
    """The parser's side: which frames are open as each simple command is added."""

    __slots__ = ("at", "closed_at", "func", "ids", "just_closed", "out", "stack", "tokens")

    def function(self, name: str) -> None:
        """``name ( )`` or ``function name``: the next ``{`` opens its body."""
        self.func = name or "?"

    def __init__(self, out: list[Simple], tokens: list[Token]) -> None:
        self.out = out
        self.tokens = tokens
        self.at = 0  # the index of the token being read
        self.stack: list[_Entry] = []
        self.ids = 0
        self.func = ""  # `name ( )` or `function name` seen: the next `{` is its body
        self.just_closed = False
        self.closed_at = 0

    def _new(self) -> int:
        self.ids += 1
        return self.ids

    def add(self, simple: Simple) -> None:
        if self.stack:
            simple.flow = [e.frame for e in self.stack if e.frame is not None]
        self.out.append(simple)
        self.just_closed = False

    def push(self, kind: str, closer: str, frame: Frame | None = None) -> _Entry:
        entry = _Entry(kind, closer, frame, len(self.out), frame.cid if frame else self._new())
        self.stack.append(entry)
        return entry

    def subshell(self) -> None:
        self.push("sub", ")", Frame("sub", self._new()))

    def _pop(self) -> None:
        entry = self.stack.pop()
        if entry.kind == "func" and entry.frame is not None:  # its body: after `{`, before `}`
            entry.frame.body = self.tokens[entry.cid_token : self.at - 1]
        if entry.kind in ("sub", "group", "func", "if", "loop", "case"):
            self.just_closed, self.closed_at = True, entry.start

    def close(self, closer: str, keep: bool = False) -> None:
        """Pop to the frame ``closer`` ends (with ``keep``, to just above a ``case``)."""
        if not any(e.closer == closer for e in self.stack):
            return
        while self.stack:
            top = self.stack[-1]
            if keep and top.kind == "case":
                return
            self._pop()
            if top.closer == closer and top.kind != "arm":
                return

    def _above(self, kind: str) -> _Entry | None:
        """Pop the frames above the innermost ``kind`` frame and return it."""
        if not any(e.kind == kind for e in self.stack):
            return None
        while self.stack[-1].kind != kind:
            self._pop()
        return self.stack[-1]

    def arm(self, label: str, closer: str) -> None:
        owner = self._above({"esac": "case", "fi": "if", "done": "loop"}[closer])
        if owner is not None:
            self.push("arm", closer, Frame("arm", owner.cid, label or owner.label))
            self.just_closed = False

    def _wrap(self) -> None:
        """The element before ``|`` or ``&`` runs in a subshell."""
        start = self.closed_at if self.just_closed else len(self.out) - 1
        if start < 0 or start >= len(self.out):
            return
        depth = sum(1 for e in self.stack if e.frame is not None)
        frame = Frame("sub", self._new())
        for simple in self.out[start:]:
            simple.flow.insert(min(depth, len(simple.flow)), frame)

    def op(self, op: str) -> None:
        # `;`, a newline and `&` end and-or lists and pipelines; `&&`, `||` and `|` end a
        # pipeline element (`a && b | c` is `a && (b | c)`).
        ends = ("list", "pipe") if op in (";", "\n", "&") else ("pipe",)
        while self.stack and self.stack[-1].closer in ends:
            self._pop()
        if op in ("|", "|&", "&"):
            self._wrap()
        if op in ("|", "|&"):
            self.push("sub", "pipe", Frame("sub", self._new()))
        elif op in ("&&", "||") and not (self.stack and self.stack[-1].closer == "list"):
            # What follows the first `&&`/`||` may not run; within the list each command
            # runs after the one before it (`cd d && sh x.sh` runs x.sh in d): one arm.
            self.push("arm", "list", Frame("arm", self._new(), op))
        self.just_closed = False

    def keyword(self, kw: str) -> None:
        if kw == "{":
            func, self.func = self.func, ""
            body = Frame("func", self._new(), func) if func else None
            self.push("func" if func else "group", "}", body).cid_token = self.at
        elif kw == "}":
            self.close("}")
        elif kw == "if":
            self.push("if", "fi")
        elif kw in ("then", "elif", "else"):
            self.arm(kw, "fi")
        elif kw == "fi":
            self.close("fi")
        elif kw in ("while", "until", "for", "select"):
            self.push("loop", "done").label = kw
        elif kw == "do":
            self.arm("", "done")
        elif kw == "done":
            self.close("done")
        elif kw == "case":
            self.push("case", "esac")
        elif kw == "coproc":  # a subshell whose stdin the line writes to later
            self.push("sub", "list", Frame("sub", self._new(), "coproc"))


def split(tokens: list[Token], depth: int) -> list[Simple]:
    out: list[Simple] = []
    cur = Simple()
    level = 0  # open ( and { inside this token list
    cases = 0
    in_pattern = False
    fl = Frames(out, tokens)
    # The pipe feeding each open ( … ) or { … }: every command inside reads from it.
    groups: list[Simple | None] = []
    opened: list[int] = []  # where in ``out`` each open group's commands start
    closed: tuple[int, list[Simple]] = (-1, [])  # the token after a closed group, its commands
    bang, piped, link = False, False, ""  # for dcg.shell.conds (Simple.link, Simple.solo)
    i, n = 0, len(tokens)
    while i < n:
        kind, op, w, doc = tokens[i]
        i += 1
        fl.at = i
        if kind == "o":
            if in_pattern:
                in_pattern = op != ")"
                if not in_pattern:
                    fl.arm("case", "esac")
                continue
            last = cur if cur else None
            pending = cur.pipe_in if last is None else None  # `… | (` feeds the subshell
            if last is not None:
                if not piped and op not in ("|", "|&", "(", "&"):
                    last.solo = -1 if last.solo < 0 else 1
                else:
                    last.solo = 0
                fl.add(last)
                cur = Simple()
            link = op if op in ("&&", "||") and last is not None and not piped else ""
            piped = op in ("|", "|&")
            bang = False
            inherited = groups[-1] if groups else None
            cur.pipe_in = (last or OPAQUE) if op in ("|", "|&") else inherited
            if last is None and op in ("|", "|&") and closed[0] == i - 1:
                cur.pipe_in = Simple()  # the group's output: its text stays unknown
                cur.pipe_in.group = closed[1]
            if op == "(":
                if last and len(last.words) == 1 and i < n and tokens[i][:2] == ("o", ")"):
                    out.pop()  # "name ( )" defines a function: the name runs nothing
                    fl.function(last.words[0].source())
                    i += 1
                    continue
                level += 1
                if depth + level > MAX_DEPTH:
                    raise TooComplex(f"nesting deeper than {MAX_DEPTH}")
                fl.subshell()
                groups.append(pending if pending is not None else inherited)
                opened.append(len(out))
                cur.pipe_in = groups[-1]
            elif op == ")":
                level = max(level - 1, 0)
                fl.close(")")
                if groups:
                    groups.pop()
                    closed = (i, out[opened.pop() :])
                cur.pipe_in = groups[-1] if groups else None
            elif op in (";;", ";&", ";;&") and cases:
                in_pattern = True
                fl.close("esac", keep=True)
            else:
                fl.op(op)
            continue
        if kind == "r":
            cur.grouped = cur.grouped or (not cur and fl.just_closed)
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
                fl.close("esac")
            else:
                cur.extra.append(w)
            continue
        if not cur and (link or bang) and (kw is None or kw not in _NOT_SIMPLE):
            cur.link, cur.solo, link, bang = link, -1 if bang else 0, "", False
        if cur.words or kw is None:
            if not cur.words and w.assign is not None:
                cur.assigns.append(w)
            else:
                cur.words.append(w)
            continue
        if kw in _SEPARATING:
            link, bang = "", kw == "!" and not bang
            if cur:
                fl.add(cur)
                pipe, cur = cur.pipe_in, Simple()
                cur.pipe_in = pipe
            if kw == "{":
                level += 1
                if depth + level > MAX_DEPTH:
                    raise TooComplex(f"nesting deeper than {MAX_DEPTH}")
                groups.append(cur.pipe_in)
                opened.append(len(out))
            elif kw == "}":
                level = max(level - 1, 0)
                if groups:
                    groups.pop()
                    closed = (i, out[opened.pop() :])
                cur.pipe_in = groups[-1] if groups else None
            elif kw == "coproc" and i + 1 < n and tokens[i][0] == "w":
                body = tokens[i + 1][2]  # `coproc NAME { …; }`: NAME names it, runs nothing
                i += tokens[i + 1][:2] == ("o", "(") or (body is not None and body.plain() == "{")
            fl.keyword(kw)
        elif kw in ("for", "select", "case", "[[", "function"):
            link, bang, piped = "", False, False
            named = tokens[i][2] if kw == "function" and i < n else None
            if named is not None:
                fl.function(named.source())
            head = Simple()
            i = _head(kw, tokens, i, head)
            if kw == "case":
                cases += 1
                in_pattern = True
            if head:
                fl.add(head)
            fl.keyword(kw)
        elif kw == "esac":
            cases = max(cases - 1, 0)
            fl.close("esac")
        elif w.assign is not None:
            cur.assigns.append(w)
        else:
            cur.words.append(w)
    if cur:
        fl.add(cur)
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
