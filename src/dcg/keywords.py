"""Keyword tests of the prefilter: the scan text, a pack keyword at the start of a word, braces."""

from __future__ import annotations

# Characters the shell removes or that split a word without the word changing meaning
# (`g'i't`, `\rm`, `"git"`); removing them before the keyword scan keeps the prefilter
# from being fooled by quoting.
_STRIP = str.maketrans("", "", "'\"\\")


def scan_text(line: str) -> str:
    """The text the keyword prefilter looks at: lower case, quotes, backslashes and line
    continuations removed (``r\\<newline>m`` is ``rm`` to the shell)."""
    return line.replace("\\\n", "").translate(_STRIP).lower()


# A pseudo keyword: the text has a brace expansion (`r{m,x}`, `{a..c}`), whose words are
# only known after expanding it.
BRACE = "\x00brace"


def _has_brace(text: str) -> bool:
    """``{…}`` with a ``,`` or ``..`` and nothing a brace expansion word cannot hold
    unquoted (space, newline) or that marks JSON (``:``), in scan-normalised text.

    Each ``}`` is paired with the last ``{`` before it (after the ``}`` before that): one
    pass, linear in the text however many braces it holds.
    """
    prev = -1
    j = text.find("}")
    while j >= 0:
        k = text.rfind("{", prev + 1, j)
        if k >= 0:
            inner = text[k + 1 : j]
            if ("," in inner or ".." in inner) and not any(c in inner for c in " \t\n:"):
                return True
        prev = j
        j = text.find("}", j + 1)
    return False


# A pseudo keyword: the text may empty or replace many files at once (dcg.manywrites): a
# write (a truncating `>`, tee, cp, mv, ln, dd, install, sponge) and many names (a loop, find
# -exec, xargs, a glob, the names a loop or `read` holds; an empty source, for a command
# xargs gives its names to: `… | xargs -n1 cp /dev/null`).
MANY_WRITES = "\x00many-writes"
_WRITE_WORDS = ("tee", "cp", "dd", "install", "sponge", "mv", "ln")
_LOOPS = ("for", "while", "until", "select")  # with a `done`: "echo build done" is no loop
_MANY_WORDS = (
    "xargs",
    "parallel",
    "-exec",
    "-ok",
    "{}",
    "$(…)",
    "`…`",
    "*",
    "/dev/null",
    "/dev/zero",
)


def redirects_over(text: str) -> bool:
    """The (scan-normalised) text has a ``>`` that is not an append or to ``/dev/null``."""
    i = text.find(">")
    while i >= 0:
        j = i + 1
        if text[j : j + 1] == ">":  # an append destroys nothing
            i = text.find(">", j + 1)
            continue
        rest = text[j : j + 12].lstrip(" ")
        if not rest.startswith(("&", "/dev/null")):
            return True
        i = text.find(">", j)
    return False


def _many_writes(text: str) -> bool:
    def any_of(words: tuple[str, ...]) -> bool:
        return any(has_keyword(text, k) for k in words if k in text)

    many = any_of(_MANY_WORDS) or (has_keyword(text, "done") and any_of(_LOOPS))
    return many and (redirects_over(text) or any_of(_WRITE_WORDS))


def has_keyword(text: str, keyword: str) -> bool:
    """True when ``keyword`` occurs in ``text`` at the start of a word.

    A keyword that starts with a letter or digit must not be preceded by one, so that
    ``rm`` is found in ``/bin/rm -rf`` and ``$(rm …)`` but not in ``permission_mode``.
    """
    if keyword == BRACE:
        return _has_brace(text)
    if keyword == MANY_WRITES:
        return _many_writes(text)
    if not keyword[0].isalnum():
        return keyword in text
    i = text.find(keyword)
    while i >= 0:
        if i == 0:
            return True
        before = text[i - 1]
        if not (before.isalnum() or before == "_"):
            return True
        i = text.find(keyword, i + 1)
    return False


def mentions(text: str, keywords: tuple[str, ...]) -> bool:
    """``has_keyword(text, k)`` for some ``k`` of ``keywords``.

    Most keywords are absent from a command, so one substring test per keyword runs
    first inside ``any(map(...))``, in C; the word-start check of :func:`has_keyword` runs
    only for the keywords that do occur.
    """
    if len(text) > _LONG_TEXT:
        return _mentions_long(text, keywords)
    if any(map(text.__contains__, keywords)) and any(
        has_keyword(text, k) for k in keywords if k in text
    ):
        return True
    if BRACE in keywords and _has_brace(text):
        return True
    return MANY_WRITES in keywords and _many_writes(text)


# A long text is indexed once: the characters it holds and its sorted distinct words
# (ASCII text), so a keyword costs a set test or a bisection, not a pass over a megabyte
# for each pack and rule that names it (issue 32: a 1 MB word answered in < 1 s).
_LONG_TEXT = 1 << 14
_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_TO_SPACE = {c: " " for c in range(128) if chr(c) not in _WORD_CHARS}


class _LongIndex:
    __slots__ = ("chars", "memo", "words", "wordset")

    def __init__(self, text: str) -> None:
        self.chars = frozenset(text)
        self.memo: dict[str, bool] = {}
        self.words: list[str] | None = None
        self.wordset: frozenset[str] = frozenset()
        if text.isascii():
            found = frozenset(text.translate(_TO_SPACE).split())
            self.wordset, self.words = found, sorted(found)

    def has(self, text: str, keyword: str) -> bool:
        if keyword == BRACE:
            return _has_brace(text)
        if keyword == MANY_WRITES:
            return _many_writes(text)
        if not self.chars.issuperset(keyword):
            return False
        words = self.words
        if words is None or keyword[0] not in _WORD_CHARS:
            return has_keyword(text, keyword)
        head = keyword
        for n, c in enumerate(keyword):
            if c not in _WORD_CHARS:
                head = keyword[:n]
                break
        if head != keyword:  # a word, then what follows it
            return head in self.wordset and has_keyword(text, keyword)
        from bisect import bisect_left

        i = bisect_left(words, keyword)
        return i < len(words) and words[i].startswith(keyword)


_LONG_MEMO: dict[str, _LongIndex] = {}


def _mentions_long(text: str, keywords: tuple[str, ...]) -> bool:
    index = _LONG_MEMO.get(text)
    if index is None:
        if len(_LONG_MEMO) >= 4:
            _LONG_MEMO.clear()
        index = _LONG_MEMO[text] = _LongIndex(text)
    memo = index.memo
    for k in keywords:
        hit = memo.get(k)
        if hit is None:
            hit = memo[k] = index.has(text, k)
        if hit:
            return True
    return False
