"""The parsed form of a command line: simple commands with argv and context."""

from __future__ import annotations

from dcg.frozen import Frozen

# How much of a heredoc or here-string joins the match text.
STDIN_TEXT_LIMIT = 64 * 1024


class Command(Frozen):
    """One simple command that the shell would execute, after unwrapping.

    ``argv`` is the full argument vector as the shell would pass it (quotes removed,
    escapes resolved), with wrappers such as ``sudo``/``env``/``timeout`` removed and
    the command word normalised (basename, lower case, ``.exe`` stripped).

    ``words`` is ``argv`` without the arguments that are data rather than code (the
    arguments of ``echo``, a ``git commit -m`` message, a ``grep`` pattern, …); rules
    only ever see ``words``. ``data`` says which words were dropped and why, for
    ``dcg explain``.

    ``redirects`` are ``(operator, target)`` pairs (``(">", "out.txt")``); ``stdin`` is
    the text of a heredoc or here-string fed to the command, if any; ``via`` is the
    provenance chain (``("sudo",)``, ``("bash -c",)``, ``("$(…)",)``); ``dynamic`` is
    True when the command word or an argument came from an expansion that could not
    be resolved statically. ``cwd`` is the directory that ``cd``/``pushd`` earlier on the
    line moved to (as written, relative to the payload cwd when not absolute), None when
    there was none, ``"\\x00?"`` when it cannot be known; ``cwd_sure`` says the cd that
    made it certainly took effect before this command (it runs only if the cd succeeded,
    or the directory existed; see :mod:`dcg.shell.flow`). ``raw`` is the command word as
    written before it was normalised (``/tmp/x`` for ``x``), "" when not known.

    ``text`` is what rule patterns are matched against: ``" ".join(words)`` followed
    by `` >target`` for each output redirection and `` <<< stdin`` (whitespace folded)
    when the command is fed a heredoc or here-string.
    """

    __slots__ = ("argv", "cwd", "cwd_sure", "data", "dynamic", "raw", "redirects", "stdin",
                 "text", "via", "words")  # fmt: skip

    argv: tuple[str, ...]
    words: tuple[str, ...]
    data: tuple[tuple[str, str], ...]
    redirects: tuple[tuple[str, str], ...]
    stdin: str | None
    via: tuple[str, ...]
    dynamic: bool
    cwd: str | None
    cwd_sure: bool
    raw: str
    text: str

    def __init__(
        self,
        argv: tuple[str, ...],
        *,
        words: tuple[str, ...] | None = None,
        data: tuple[tuple[str, str], ...] = (),
        redirects: tuple[tuple[str, str], ...] = (),
        stdin: str | None = None,
        via: tuple[str, ...] = (),
        dynamic: bool = False,
        cwd: str | None = None,
        raw: str = "",
        cwd_sure: bool = False,
    ) -> None:
        if words is None:
            words = argv
        self._set("argv", argv)
        self._set("words", words)
        self._set("data", data)
        self._set("redirects", redirects)
        self._set("stdin", stdin)
        self._set("via", via)
        self._set("dynamic", dynamic)
        self._set("cwd", cwd)
        self._set("cwd_sure", cwd_sure and cwd is not None)
        self._set("raw", raw)
        text = " ".join(words)
        for op, target in redirects:
            if ">" in op:
                text += f" >{target}"
        if stdin:
            # What a client reads on stdin is what it executes (`psql <<< 'DROP …'`); the
            # command word anchors every rule, so a `cat` heredoc still matches nothing.
            text += " <<< " + " ".join(stdin[:STDIN_TEXT_LIMIT].split())
        self._set("text", text)

    @property
    def name(self) -> str:
        return self.argv[0] if self.argv else ""

    def __repr__(self) -> str:
        extra = f", via={self.via!r}" if self.via else ""
        return f"Command({self.argv!r}{extra})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Command):
            return NotImplemented
        return (self.argv, self.words, self.redirects, self.stdin, self.via) == (
            other.argv,
            other.words,
            other.redirects,
            other.stdin,
            other.via,
        )

    def __hash__(self) -> int:
        return hash((self.argv, self.words, self.redirects, self.stdin, self.via))
