"""PowerShell's lexer: statements, pipelines, blocks, quoting and escapes, to words per command.

The lexer knows PowerShell's syntax, not what commands mean: each simple command it finds
(its words, redirections, the command before it in a pipeline) is handed to the ``emit``
function it was given, which returns the :class:`~dcg.shell.command.Command` objects
for it (see :mod:`dcg.shell.powershell._map`). Script blocks and subexpressions are lexed
by recursion, their commands emitted before the command that contains them.
"""

from __future__ import annotations

import time

from dcg.shell.limits import TooComplex

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path
if TYPE_CHECKING:
    from collections.abc import Callable

    from dcg.shell.command import Command

    # (words, redirections, the pipeline's previous command, depth, via) -> its Commands
    Emit = Callable[
        [list["Word"], tuple[tuple[str, str], ...], "list[Word] | None", int, tuple[str, ...]],
        list[Command],
    ]

# Nesting bound for blocks, subexpressions and recursive shells (cf. dcg.shell.TooComplex).
MAX_DEPTH = 32

_SPACE = " \t\r\f\v\u00a0"
# Characters that end an unquoted word in argument mode.
_WORD_END = _SPACE + "\n;|&(){},<>"
_ESCAPES = {"0": "\0", "a": "\a", "b": "\b", "e": "\x1b", "f": "\f", "n": "\n", "r": "\r"}
_ESCAPES |= {"t": "\t", "v": "\v"}


class Word:
    """One argument: its array elements (``a,b``), source text and whether it is computed."""

    __slots__ = ("dynamic", "parts", "source")

    def __init__(self, parts: list[str], source: str, dynamic: bool) -> None:
        self.parts = parts
        self.source = source
        self.dynamic = dynamic

    @property
    def text(self) -> str:
        return ",".join(self.parts)


def lex(
    line: str,
    deadline: float | None,
    depth: int,
    via: tuple[str, ...],
    emit: Emit,
    variables: dict[str, str] | None = None,
) -> list[Command]:
    """What ``emit`` returns for each simple command of ``line``, in execution order.

    ``variables`` receives ``$name = …`` assignments as they are met (lower-case name ->
    the source text of the value), for the caller to resolve splats and ``$x.Delete()``.
    """
    if depth > MAX_DEPTH:
        raise TooComplex("PowerShell nesting too deep")
    lexer = _Lexer(line, deadline, depth, via, emit)
    if variables is not None:
        lexer.vars = variables
    lexer.sequence("")
    return lexer.out


class _Lexer:
    """A single pass over PowerShell source; nested code is lexed by recursion."""

    def __init__(
        self, src: str, deadline: float | None, depth: int, via: tuple[str, ...], emit: Emit
    ) -> None:
        self.src = src
        self.pos = 0
        self.deadline = deadline
        self.depth = depth
        self.via = via
        self.emit = emit
        self.out: list[Command] = []
        self.vars: dict[str, str] = {}
        # The command before the block being lexed in its pipeline (`gci | % { … }`): what
        # `$_` stands for inside that block.
        self.outer: list[Word] | None = None
        self.upstream: list[Word] | None = None

    def _tick(self) -> None:
        if self.deadline is not None and time.thread_time() > self.deadline:
            raise TooComplex("PowerShell parse exceeded its time budget")

    def sequence(self, end: str) -> None:
        """Lex statements until ``end`` (``)`` or ``}``, empty for end of input)."""
        src, n = self.src, len(self.src)
        pipeline: list[list[Word]] = []
        words: list[Word] = []
        redirects: list[tuple[str, str]] = []

        def flush_command() -> None:
            nonlocal words, redirects
            if words:
                pipeline.append(words)
                self._emit(words, redirects, pipeline)
            words, redirects = [], []

        def flush_pipeline() -> None:
            flush_command()
            pipeline.clear()

        while self.pos < n:
            self._tick()
            c = src[self.pos]
            nxt = src[self.pos + 1] if self.pos + 1 < n else ""
            if c in _SPACE:
                self.pos += 1
            elif c == "`" and nxt in ("\n", "\r"):
                self.pos += 2  # line continuation
            elif c in "\n;":
                flush_pipeline()
                self.pos += 1
            elif c == "|":
                if nxt == "|":
                    flush_pipeline()
                    self.pos += 2
                else:
                    flush_command()
                    self.pos += 1
            elif c == "&":
                if nxt == "&":
                    flush_pipeline()
                    self.pos += 2
                elif words:
                    flush_pipeline()  # trailing `&`: run as a background job
                    self.pos += 1
                else:
                    self.pos += 1  # call operator: the next word is the command
            elif c == "#":
                end_of_line = src.find("\n", self.pos)
                self.pos = n if end_of_line < 0 else end_of_line
            elif c == "<" and nxt == "#":
                close = src.find("#>", self.pos + 2)
                self.pos = n if close < 0 else close + 2
            elif end and c == end:
                self.pos += 1
                flush_pipeline()
                return
            elif c in ")}":
                self.pos += 1  # unbalanced closer: ignore, as PowerShell would error
                flush_pipeline()
            elif c == ",":
                self.pos += 1
                if words:
                    # `a, b` with spaces: still one array argument.
                    follow = self._word()
                    if follow is not None:
                        last = words[-1]
                        words[-1] = Word(
                            last.parts + follow.parts,
                            f"{last.source},{follow.source}",
                            last.dynamic or follow.dynamic,
                        )
            elif c in "<>" or (c in "0123456*" and nxt == ">"):
                redirect = self._redirect()
                if redirect is not None:
                    redirects.append(redirect)
            else:
                self.upstream = pipeline[-1] if pipeline else None
                word = self._word()
                if word is not None:
                    words.append(word)
        flush_pipeline()

    def _redirect(self) -> tuple[str, str] | None:
        src, start = self.src, self.pos
        while self.pos < len(src) and src[self.pos] in "0123456*>&<":
            self.pos += 1
        op = src[start : self.pos]
        if op.endswith("&1") or op.endswith("&2"):
            return None  # stream merge, no file
        while self.pos < len(src) and src[self.pos] in _SPACE:
            self.pos += 1
        target = self._word()
        return (op, target.text if target else "")

    def _nested(self, end: str) -> str:
        """Lex the code up to ``end`` as commands of their own; return its source text."""
        start = self.pos
        if self.depth >= MAX_DEPTH:
            raise TooComplex("PowerShell nesting too deep")
        tag = "{…}" if end == "}" else "$(…)"
        inner = _Lexer(self.src, self.deadline, self.depth + 1, (*self.via, tag), self.emit)
        inner.vars = self.vars
        inner.outer = self.upstream if end == "}" else self.outer
        inner.pos = self.pos
        inner.sequence(end)
        self.out.extend(inner.out)
        self.pos = inner.pos
        return self.src[start : self.pos]

    def _word(self) -> Word | None:
        src, n = self.src, len(self.src)
        start = self.pos
        parts: list[str] = []
        buf: list[str] = []
        dynamic = False
        while self.pos < n:
            c = src[self.pos]
            nxt = src[self.pos + 1] if self.pos + 1 < n else ""
            if c == "{" and self.pos == start:
                self.pos += 1
                body = self._nested("}")
                buf.append("{" + body)
                dynamic = True
                break
            if c in _WORD_END and not (c == "(" and self.pos == start):
                if c == "," and buf:
                    # `a,b` and `'a', 'b'`: one array argument.
                    parts.append("".join(buf))
                    buf = []
                    self.pos += 1
                    while self.pos < n and src[self.pos] in _SPACE:
                        self.pos += 1
                    continue
                break
            if c == "'":
                self.pos += 1
                buf.append(self._single_quoted())
            elif c == '"':
                self.pos += 1
                text, computed = self._double_quoted()
                buf.append(text)
                dynamic = dynamic or computed
            elif c == "`":
                buf.append(nxt)
                self.pos += 2
            elif c in "$@" and nxt in "({":
                self.pos += 2
                body = self._nested(")" if nxt == "(" else "}")
                buf.append(c + nxt + body)
                dynamic = True
            elif c == "(":
                self.pos += 1
                buf.append("(" + self._nested(")"))
                dynamic = True
            else:
                buf.append(c)
                self.pos += 1
        if self.pos == start:
            self.pos += 1  # a lone terminator the caller did not consume
            return None
        if buf or not parts:
            parts.append("".join(buf))
        return Word(parts, src[start : self.pos].rstrip(), dynamic)

    def _single_quoted(self) -> str:
        src, n = self.src, len(self.src)
        buf: list[str] = []
        while self.pos < n:
            c = src[self.pos]
            self.pos += 1
            if c == "'":
                if self.pos < n and src[self.pos] == "'":
                    buf.append("'")
                    self.pos += 1
                    continue
                break
            buf.append(c)
        return "".join(buf)

    def _double_quoted(self) -> tuple[str, bool]:
        src, n = self.src, len(self.src)
        buf: list[str] = []
        computed = False
        while self.pos < n:
            c = src[self.pos]
            nxt = src[self.pos + 1] if self.pos + 1 < n else ""
            if c == '"':
                self.pos += 1
                if nxt == '"':
                    buf.append('"')
                    self.pos += 1
                    continue
                break
            if c == "`":
                buf.append(_ESCAPES.get(nxt, nxt))
                self.pos += 2
            elif c == "$" and nxt == "(":
                self.pos += 2
                buf.append("$(" + self._nested(")"))
                computed = True
            else:
                buf.append(c)
                self.pos += 1
        return "".join(buf), computed

    def _assignment(self, words: list[Word]) -> None:
        """Remember ``$name = VALUE`` (also ``$name=VALUE`` as one word) by its source."""
        first = words[0].source
        if not first.startswith("$") or (
            "=" not in first and (len(words) < 2 or not words[1].source.startswith("="))
        ):
            return
        name, eq, value = first.partition("=")
        rest = " ".join(w.source for w in words[1:])
        if not eq:
            rest = rest[1:]
        source = (value + " " + rest).strip() if eq else rest.strip()
        name = name.strip().lower()
        if name[1:].replace("_", "a").replace(":", "a").isalnum():
            self.vars[name[1:]] = source

    def _emit(
        self, words: list[Word], redirects: list[tuple[str, str]], pipeline: list[list[Word]]
    ) -> None:
        # `$x = cmd …`: the command is what follows the assignment.
        self._assignment(words)
        while len(words) >= 2 and words[0].text.startswith("$") and words[1].text.endswith("="):
            words = words[2:]
        if not words:
            return
        upstream = pipeline[-2] if len(pipeline) >= 2 else None
        if upstream is None and self.outer is not None and _uses_item(words):
            upstream = self.outer
        self.out.extend(self.emit(words, tuple(redirects), upstream, self.depth, self.via))


def _uses_item(words: list[Word]) -> bool:
    """The command names the pipeline's current item (``$_``, ``$PSItem``)."""
    return any(w.source.lower().startswith(("$_", "$psitem")) for w in words)
