"""find's expression, read for one question: does it select only build output?

``find . -name '*.pyc' -delete`` and ``find . ( -name __pycache__ -o -name '*.pyc' )
-exec rm -rf {} +`` delete only what a build makes again (dcg.safe_delete exempts them);
``find . ! -name keep -delete`` does not. :data:`NAME_TESTS` and :data:`PATH_TESTS` are
the tests that look at a file's name or path (dcg.shell.patchsets reads them too).
"""

from __future__ import annotations

from dcg import regenerable

TYPE_CHECKING = False  # typing costs ms at start-up; type checkers treat this as True
if TYPE_CHECKING:
    from collections.abc import Sequence

# find's primaries that take one argument (two for -fprintf); -exec and its kin run to `;`/`+`.
_ONE_ARG = frozenset(("-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename",
    "-regex", "-iregex", "-type", "-xtype", "-mtime", "-mmin", "-atime", "-amin", "-ctime",
    "-cmin", "-size", "-user", "-group", "-uid", "-gid", "-perm", "-newer", "-maxdepth",
    "-mindepth", "-links", "-inum", "-samefile", "-lname", "-ilname", "-fstype",
    "-regextype", "-printf", "-fprint", "-fprint0", "-fls", "-used", "-context",
    "-files0-from"))  # fmt: skip
_EXECS = ("-exec", "-execdir", "-ok", "-okdir")
NAME_TESTS = ("-name", "-iname")
PATH_TESTS = ("-path", "-ipath", "-wholename", "-iwholename")


def _regenerable_test(test: str, value: str, litter: bool = False) -> bool:
    """A name or path test that only output can pass: ``-name __pycache__``,
    ``-name '*.pyc'``, ``-path '*/node_modules/*'``; with ``litter``, also what edits,
    merges and builds leave beside the work: ``-name '*.orig'``, ``-name '*~'``."""
    last = value.rpartition("/")[2]
    if litter and last and regenerable.is_litter_glob(last):
        return True
    if test in NAME_TESTS:
        return value in regenerable.FIND_NAMES or regenerable.is_regenerable_name(value)
    parts = value.split("/")
    return ".." not in parts and any(regenerable.is_regenerable_name(p) for p in parts)


class _Expr:
    """find's expression read for one question: is every path it selects (the ones an
    action at its end reaches) build output? ``-a`` holds when one side does, ``-o`` and
    ``,`` when every side does, ``!`` never."""

    def __init__(self, words: Sequence[str], litter: bool = False) -> None:
        self.words = words
        self.i = 0
        self.litter = litter

    def _peek(self) -> str | None:
        return self.words[self.i] if self.i < len(self.words) else None

    def alternatives(self) -> bool:
        ok = self.conjunction()
        while self._peek() in ("-o", "-or", ","):
            self.i += 1
            ok = self.conjunction() and ok
        return ok

    def conjunction(self) -> bool:
        ok = self.primary()
        while self._peek() not in (None, "-o", "-or", ",", ")"):
            if self._peek() in ("-a", "-and"):
                self.i += 1
            ok = self.primary() or ok
        return ok

    def primary(self) -> bool:
        word = self._peek()
        self.i += 1
        if word in ("!", "-not"):
            self.primary()
            return False
        if word == "(":
            ok = self.alternatives()
            if self._peek() != ")":
                raise ValueError(word)
            self.i += 1
            return ok
        if word in _EXECS:
            while self._peek() not in (None, ";", "+") or (
                self._peek() == "+" and self.words[self.i - 1] != "{}"
            ):
                self.i += 1
            if self._peek() is None:
                raise ValueError(word)
            self.i += 1
            return False
        if word in _ONE_ARG or word == "-fprintf" or (word or "").startswith("-newer"):
            value = self._peek()
            if value is None:
                raise ValueError(word)
            self.i += 2 if word == "-fprintf" else 1
            tests = (*NAME_TESTS, *PATH_TESTS)
            return word in tests and _regenerable_test(word, value, self.litter)
        if word is None or word == ")":
            raise ValueError(word)
        return False  # an action, option or test without an argument


def selects_only_regenerable(argv: Sequence[str], litter: bool = False) -> bool:
    """``find … -name '*.pyc' -delete``, ``find . ( -name __pycache__ -o -name '*.pyc' )
    -exec rm -rf {} +``: whatever the expression selects is build output (each
    alternative tests for an output name, nothing negates it); with ``litter``, or
    leftovers by their extension (``-name '*.orig'``, ``-name '*.bak'``)."""
    start = 1
    while start < len(argv) and argv[start] in ("-H", "-L", "-P"):
        start += 1
    while start < len(argv) and not argv[start].startswith("-") and argv[start] not in ("(", "!"):
        start += 1
    expr = _Expr(argv[start:], litter)
    try:
        ok = expr.alternatives()
    except ValueError:
        return False
    return ok and expr.i == len(argv) - start
