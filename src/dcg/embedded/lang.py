"""A language's tables for the embedded lexer and scanner, and the token shapes between them.

:class:`LexSpec` drives :func:`dcg.embedded.lexer.tokenize`; :class:`Lang` (its call
tables, with a LexSpec) drives :mod:`dcg.embedded.scanner`. A language module
(``javascript.py``, ``ruby.py``…) is one ``Lang`` and an ``analyze`` function.
"""

from __future__ import annotations

from dcg.frozen import Frozen

TYPE_CHECKING = False  # typing is not imported at run time: it costs start-up time
if TYPE_CHECKING:
    from dcg.embedded.actions import Action

    # A string literal's pieces: ("s", literal text) or ("i", interpolated source).
    Part = tuple[str, str]
    # (kind, text, parts); the kinds are listed in dcg.embedded.lexer.
    Tok = tuple[str, str, tuple[Part, ...]]


class LexSpec(Frozen):
    """The lexical tables of one language.

    ``quotes`` maps a quote character to its mode: ``raw`` (no escapes), ``single``
    (only ``\\\\`` and ``\\'``), ``esc`` (escapes, no interpolation), ``interp``
    (escapes and interpolation) or ``cmd`` (an executed command literal). ``interp`` is
    the interpolation syntax (``js``, ``ruby``, ``perl``, ``php``, ``py``). ``docs`` is
    ``ruby`` (``=begin``/``=end``) or ``perl`` (POD) line-start blocks.
    """

    __slots__ = ("block_comments", "docs", "heredoc", "interp", "line_comments",
                 "percent", "py_prefixes", "qlike", "quotes", "regex_after", "sigils",
                 "slash_regex", "symbols")  # fmt: skip

    block_comments: tuple[tuple[str, str], ...]
    docs: str
    heredoc: str
    interp: str
    line_comments: tuple[str, ...]
    percent: bool
    py_prefixes: bool
    qlike: bool
    quotes: dict[str, str]
    regex_after: frozenset[str]
    sigils: str
    slash_regex: bool
    symbols: bool

    def __init__(
        self,
        *,
        quotes: dict[str, str],
        interp: str,
        line_comments: tuple[str, ...] = (),
        block_comments: tuple[tuple[str, str], ...] = (),
        docs: str = "",
        heredoc: str = "",
        sigils: str = "",
        percent: bool = False,
        qlike: bool = False,
        py_prefixes: bool = False,
        slash_regex: bool = False,
        regex_after: frozenset[str] = frozenset(),
        symbols: bool = False,
    ) -> None:
        for name, value in locals().items():
            if name != "self":
                self._set(name, value)


class Lang(Frozen):
    """The call tables of one language for the token scanner.

    ``calls`` maps a qualified name (members joined with ``.``) to an action or to the
    kinds ``eval`` (analyse the string argument as code of this language) and
    ``walker`` (a recursive directory walk whose root stands for the dynamic targets of
    later deletions); ``helpers`` maps names to a :func:`dcg.embedded.helpers.helper`
    kind; ``methods`` maps a method name called on a path value (an
    instance of ``path_class``) to a deletion and whether an unknown receiver counts;
    ``envs`` are the names that index environment variables (``ENV``, ``$ENV``);
    ``modules`` canonicalises module names (``node:fs`` -> ``fs``); ``defaults`` give
    conventional module aliases used without an import (``fse``).
    """

    __slots__ = ("calls", "concat_ops", "decl", "defaults", "envs", "helpers", "imports",
                 "lex", "member_ops", "methods", "modules", "name", "paren_less",
                 "path_class")  # fmt: skip

    name: str
    lex: LexSpec
    calls: dict[str, Action]
    helpers: dict[str, str]
    methods: dict[str, tuple[Action, bool]]
    path_class: str
    member_ops: frozenset[str]
    concat_ops: frozenset[str]
    decl: frozenset[str]
    paren_less: bool
    envs: frozenset[str]
    modules: dict[str, str]
    defaults: dict[str, str]
    imports: str

    def __init__(
        self,
        name: str,
        *,
        lex: LexSpec,
        calls: dict[str, Action],
        helpers: dict[str, str],
        member_ops: frozenset[str],
        concat_ops: frozenset[str],
        methods: dict[str, tuple[Action, bool]] | None = None,
        path_class: str = "",
        decl: frozenset[str] = frozenset(),
        paren_less: bool = False,
        envs: frozenset[str] = frozenset(),
        modules: dict[str, str] | None = None,
        defaults: dict[str, str] | None = None,
        imports: str = "",
    ) -> None:
        self._set("name", name)
        self._set("lex", lex)
        self._set("calls", calls)
        self._set("helpers", helpers)
        self._set("methods", methods or {})
        self._set("path_class", path_class)
        self._set("member_ops", member_ops)
        self._set("concat_ops", concat_ops)
        self._set("decl", decl)
        self._set("paren_less", paren_less)
        self._set("envs", envs)
        self._set("modules", modules or {})
        self._set("defaults", defaults or {})
        self._set("imports", imports)
