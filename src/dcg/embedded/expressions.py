"""The token scanner's expressions: literals, names, member chains, calls and their values.

:class:`Expressions` is the half of :class:`dcg.embedded.scanner.Scanner` that
evaluates: it turns the tokens of an expression into a value of
:mod:`dcg.embedded.values` and hands a recognised call's evaluated arguments to
:func:`dcg.embedded.actions.apply`. Blocks nested in an expression (a lambda body, a
hash of code) are walked by the statement scanner, :meth:`Expressions.scan`.
"""

from __future__ import annotations

from dcg.embedded import actions
from dcg.embedded.actions import MAX_DEPTH, MAX_NEST, Limit, Sink
from dcg.embedded.helpers import helper
from dcg.embedded.lexer import tokenize
from dcg.embedded.render import command_line, rm_line
from dcg.embedded.values import DYN, MARKERS, PathValue, Ref, as_str, concat, env, join, text

TYPE_CHECKING = False  # typing is not imported at run time: it costs start-up time
if TYPE_CHECKING:
    from dcg.embedded.actions import Action
    from dcg.embedded.lang import Lang, Part, Tok

CLOSE = {"(": ")", "[": "]", "{": "}"}
_EOF: Tok = ("l", "", ())
# Words that end an argument list written without parentheses (Ruby, Perl).
STOP_WORDS = frozenset({"if", "unless", "while", "until", "and", "or", "not", "do", "then",
                         "end", "rescue", "else", "elsif", "for", "foreach", "x"})  # fmt: skip
_CONST = {"true": True, "True": True, "false": False, "False": False,
          "null": None, "nil": None, "None": None, "undefined": None}  # fmt: skip
_PREFIX_WORDS = frozenset({"new", "await", "typeof", "void", "yield", "return", "not"})
# Methods that keep a known string as it is (whitespace trimming, conversions).
_SAME = frozenset({"strip", "trim", "chomp", "to_s", "toString", "to_str", "to_path", "resolve",
                   "absolute", "realpath", "expand_path", "cleanpath", "normalize", "valueOf",
                   "as_posix", "__str__", "freeze", "dup"})  # fmt: skip


class Expressions:
    """Token access and expression evaluation over one piece of code; see the module doc."""

    def __init__(self, lang: Lang, sink: Sink, depth: int) -> None:
        self.lang = lang
        self.sink = sink
        self.depth = depth
        self.env: dict[str, object] = {}
        self.alias: dict[str, str] = {}
        self.star: list[str] = []
        self.roots: list[object] = []
        self.cwd: str | None = None
        self.toks: list[Tok] = []
        self.n = 0
        self.nest = 0

    # ----- token access -----

    def run(self, code: str) -> None:
        self.toks = tokenize(code, self.lang.lex, self.sink)
        self.n = len(self.toks)
        self.scan(0, "")

    def tok(self, i: int) -> Tok:
        return self.toks[i] if i < self.n else _EOF

    def op(self, i: int, *ops: str) -> bool:
        k, t, _ = self.tok(i)
        return k == "o" and t in ops

    def nx(self, i: int) -> int:
        """The first index >= i that is not an end of line."""
        while i < self.n and self.toks[i][0] == "l":
            i += 1
        return i

    def enter(self) -> None:
        self.nest += 1
        if self.nest > MAX_NEST:
            raise Limit("nesting")

    def scan(self, i: int, closers: str) -> int:
        """Walk statements from ``i`` up to an operator in ``closers``: the Scanner's part."""
        raise NotImplementedError

    # ----- expressions -----

    def expr(self, i: int) -> tuple[object, int]:
        v, j = self.term(i)
        if j == i:
            return None, i
        while self.op(j, *self.lang.concat_ops):
            k = self.nx(j + 1)
            w, e = self.term(k)
            if e == k:
                break
            v, j = concat(v, w), e
        return v, j

    def term(self, i: int) -> tuple[object, int]:
        self.enter()
        try:
            v, j = self.primary(i)
            if j == i:
                return v, i
            return self.postfix(v, j)
        finally:
            self.nest -= 1

    def primary(self, i: int) -> tuple[object, int]:
        k, t, parts = self.tok(i)
        if k == "s":
            v: object = self.strval(parts)
            j = i + 1
            while self.tok(j)[0] == "s" and self.lang.imports == "py":  # 'a' 'b'
                v = concat(v, self.strval(self.tok(j)[2]))
                j += 1
            return v, j
        if k == "w":
            return [p[1] for p in parts], i + 1
        if k == "c":
            self.emit(f"{t}", command_line(self.strval(parts)), None)
            return None, i + 1
        if k == "9":
            return t, i + 1
        if k == "r":
            return None, i + 1
        if k == "o":
            if t in ("[", "("):
                items, j = self.seq(self.nx(i + 1), CLOSE[t])
                return (items[0] if t == "(" and len(items) == 1 else items), j
            if t == "{":
                return self.hash(self.nx(i + 1))
            if t == "-" and self.tok(i + 1)[0] == "9":
                return "-" + self.tok(i + 1)[1], i + 2
            if t in ("!", "...", "*", "**", "\\", "&"):
                _, j = self.term(i + 1)
                return None, j
            return None, i
        if k == "n":
            return self.name(i)
        return None, i

    def name(self, i: int) -> tuple[object, int]:
        t = self.tok(i)[1]
        if t in _CONST and self.lang.name != "perl":
            return _CONST[t], i + 1
        if t in _PREFIX_WORDS and self.tok(i + 1)[0] in ("n", "s", "o", "c"):
            return self.term(i + 1)
        if t == "import" and self.op(i + 1, "("):  # dynamic import('m')
            t = "require"
        if t in self.env and t not in self.alias:
            return self.env[t], i + 1
        return self.chain(self.resolve(t), i + 1)

    def chain(self, qual: str, j: int) -> tuple[object, int]:
        """Follow members, subscripts and calls of the name ``qual`` from token ``j``."""
        while True:
            self.sink.tick()
            if len(qual) > 256:  # no real module path is this long
                return None, j
            if self.op(j, *self.lang.member_ops) and self.tok(j + 1)[0] == "n":
                qual = f"{qual}.{self.tok(j + 1)[1]}"
                j += 2
                continue
            if (
                self.op(j, "[", "{")
                and self.tok(j + 1)[0] in ("s", "n")
                and self.op(j + 2, "]", "}")
            ):
                kk, key, parts = self.tok(j + 1)
                if self.op(j, "{") and self.lang.name != "perl":
                    break
                name = self.strval(parts) if kk == "s" else key
                if qual in self.lang.envs and isinstance(name, str):
                    return self.postfix(env(name), j + 3)
                if kk == "s" and self.op(j, "[") and isinstance(name, str):
                    qual = f"{qual}.{name}"
                    j += 3
                    continue
                break
            if self.op(j, "("):
                args, kwargs, e = self.call_args(self.nx(j + 1))
                return self.call(qual, args, kwargs), e
            if self.tok(j)[1] == "`" and self.tok(j)[0] == "s" and qual in self.lang.calls:
                return self.call(qual, [self.strval(self.tok(j)[2])], {}), j + 1
            if (
                self.lang.paren_less
                and self.arg_start(j)
                and (qual in self.lang.calls or self.lang.helpers.get(qual) == "module")
            ):
                args, kwargs, e = self.bare_args(j)
                return self.call(qual, args, kwargs), e
            if self.op(j, "[") or (
                self.op(j, "{") and qual[:1] == "$" and self.lang.name == "perl"
            ):
                # An element of something unknown: unknown, but its index is still visited.
                return None, self.scan(j + 1, CLOSE[self.tok(j)[1]]) + 1
            break
        return self.constant(qual), j

    def constant(self, qual: str) -> object:
        """A name used without a call: an environment variable, a helper or a reference."""
        head, _, last = qual.rpartition(".")
        if head in self.lang.envs:
            return env(last)
        kind = self.lang.helpers.get(qual)
        if kind in ("home", "cwd", "tmp", "mktemp"):
            return helper(kind, [], {})
        if qual in self.lang.calls and self.lang.paren_less and self.lang.calls[qual].kind == "rm":
            return self.call(qual, [], {})  # Perl's bare `unlink;` deletes $_
        return Ref(qual)

    def resolve(self, name: str) -> str:
        if name in self.alias:
            return self.alias[name]
        for mod in self.star:
            q = f"{mod}.{name}"
            if q in self.lang.calls or q in self.lang.helpers:
                return q
        return self.lang.defaults.get(name, name)

    def module(self, name: object) -> str:
        s = text(name)
        if s is None or DYN in s:
            return ""
        s = s.removeprefix("node:")
        return self.lang.modules.get(s, s)

    def postfix(self, v: object, j: int) -> tuple[object, int]:
        lang = self.lang
        while self.op(j, *lang.member_ops) and self.tok(j + 1)[0] == "n":
            self.sink.tick()
            m = self.tok(j + 1)[1]
            if isinstance(v, Ref):
                v, j = self.chain(f"{v.qual}.{m}", j + 2)
                continue
            args: list[object] = []
            e = j + 2
            if self.op(e, "("):
                args, _, e = self.call_args(self.nx(e + 1))
            act, any_receiver = lang.methods.get(m, (None, False))
            if act is not None and (isinstance(v, PathValue) or (v is None and any_receiver)):
                for line in actions.apply(act, [v], {}, self.cwd):
                    self.emit(f"{lang.name} {lang.path_class}.{m}", line, act)
                v = None
            elif m in ("join", "joinpath") and isinstance(v, PathValue):
                v = PathValue(join([v, *args]) or DYN)
            elif m == "join" and isinstance(v, list):
                sep = as_str(args[0]) if args else ("," if lang.name == "javascript" else "")
                v = sep.join(as_str(x) for x in v)
            elif m in _SAME and isinstance(v, str):
                pass
            elif m == "split" and isinstance(v, str) and DYN not in v:
                by = text(args[0]) if args else None
                v = v.split(by) if by and by != " " else v.split()
            elif m == "parent" and isinstance(v, str):
                v = PathValue(helper("dirname", [v], {}) or DYN)
            else:
                v = None
            j = e
        return v, j

    def seq(self, i: int, closer: str) -> tuple[list[object], int]:
        """Items of a list literal up to ``closer``; returns them and the index past it."""
        items: list[object] = []
        i = self.nx(i)
        while i < self.n and not self.op(i, closer):
            v, e = self.expr(i)
            if e == i or not self.op(self.nx(e), ",", closer):
                v = None
                e = self.scan(max(e, i), "," + closer)
            items.append(v)
            i = self.nx(e)
            if self.op(i, ","):
                i = self.nx(i + 1)
        return items, i + 1

    def hash(self, i: int) -> tuple[object, int]:
        """An object/hash literal ``{k: v, "k" => v}``; a block evaluates to None."""
        out: dict[str, object] = {}
        while i < self.n and not self.op(i, "}"):
            k, t, parts = self.tok(i)
            key: str | None = None
            if k == "n" and self.op(i + 1, ":", "=>"):
                key, e = t, i + 2
            elif k == "s" and self.op(i + 1, ":", "=>"):
                key, e = text(self.strval(parts)), i + 2
            else:
                return None, self.scan(i, "}") + 1
            v, e2 = self.expr(self.nx(e))
            if e2 == self.nx(e):
                return None, self.scan(e, "}") + 1
            if key is not None:
                out[key] = v
            i = self.nx(e2)
            if self.op(i, ","):
                i = self.nx(i + 1)
        return out, i + 1

    def arg_start(self, j: int) -> bool:
        k, t, _ = self.tok(j)
        if k in ("s", "c", "w", "9"):
            return True
        if k == "n":
            return t not in STOP_WORDS
        return k == "o" and t in ("[", "\\")

    def call_args(self, i: int) -> tuple[list[object], dict[str, object], int]:
        args: list[object] = []
        kwargs: dict[str, object] = {}
        while i < self.n and not self.op(i, ")"):
            self.sink.tick()
            k, t, _ = self.tok(i)
            key = None
            if k == "n" and (
                (self.op(i + 1, ":") and self.lang.name in ("ruby", "php"))
                or (self.op(i + 1, "=") and self.lang.imports == "py")
            ):
                key, i = t, self.nx(i + 2)
            spread = self.op(i, "*", "...")
            v, e = self.expr(i + 1 if spread else i)
            done = self.nx(e) >= self.n  # unterminated call in code that does not parse
            if e == (i + 1 if spread else i) or not (done or self.op(self.nx(e), ",", ")", "=>")):
                v = None
                e = self.scan(max(e, i), ",)")
            e = self.nx(e)
            if self.op(e, "=>"):
                key = text(v)
                v, e2 = self.expr(self.nx(e + 1))
                if not self.op(self.nx(e2), ",", ")"):
                    v = None
                    e2 = self.scan(e2, ",)")
                e = self.nx(e2)
            if key is not None:
                kwargs[key] = v
            elif spread and isinstance(v, list):
                args.extend(v)
            else:
                args.append(v)
            i = e
            if self.op(i, ","):
                i = self.nx(i + 1)
        return args, kwargs, i + 1

    def bare_args(self, i: int) -> tuple[list[object], dict[str, object], int]:
        """Arguments of a call without parentheses, up to the end of the statement."""
        args: list[object] = []
        kwargs: dict[str, object] = {}
        while True:
            self.sink.tick()
            k, t, _ = self.tok(i)
            if k == "n" and self.op(i + 1, ":") and self.lang.name == "ruby":
                v, e = self.expr(self.nx(i + 2))
                kwargs[t] = v
            else:
                v, e = self.expr(i)
                if e == i:
                    break
                if self.op(e, "=>"):
                    key = text(v)
                    v, e = self.expr(self.nx(e + 1))
                    if key is not None:
                        kwargs[key] = v
                else:
                    args.append(v)
            i = e
            if not self.op(i, ","):
                break
            i = self.nx(i + 1)
        return args, kwargs, i

    def strval(self, parts: tuple[Part, ...]) -> object:
        if len(parts) == 1 and parts[0][0] == "s":
            return parts[0][1]
        out = ""
        for kind, val in parts:
            out += val if kind == "s" else as_str(self.sub_eval(val))
        return out

    def sub_eval(self, src: str) -> object:
        """Evaluate an interpolated expression (its calls are found too)."""
        if not src.strip() or self.depth >= MAX_DEPTH:
            return None
        toks = tokenize(src, self.lang.lex, self.sink)
        saved = self.toks, self.n
        self.toks, self.n = toks, len(toks)
        self.depth += 1
        try:
            v, j = self.expr(0)
            if j < self.n:
                v = None
                self.scan(j, "")
            return v
        finally:
            self.toks, self.n = saved
            self.depth -= 1

    # ----- calls -----

    def call(self, qual: str, args: list[object], kwargs: dict[str, object]) -> object:
        lang = self.lang
        act = lang.calls.get(qual)
        if act is not None:
            if act.kind == "eval":
                pos = len(args) - 1 if act.pos < 0 else act.pos
                code = text(args[pos]) if 0 <= pos < len(args) else None
                if code is not None and not _marked(code) and self.depth < MAX_DEPTH:
                    # A scanner of the same kind, one level deeper (scanner.run's work).
                    type(self)(lang, self.sink, self.depth + 1).run(code)
                elif 0 <= pos < len(args):
                    # Code computed at run time (a decoded string, pack("H*"), a variable).
                    self.sink.emit(f"{lang.name} {qual}", "'<dynamic>' code")
            elif act.kind == "walker":
                if len(args) > act.pos:
                    self.roots.append(args[act.pos])
            elif act.kind == "chdir":
                self.cwd = actions.chdir(self.cwd, act, args, kwargs)
            else:
                for line in actions.apply(act, args, kwargs, self.cwd):
                    self.emit(f"{lang.name} {qual}", line, act)
            return None
        kind = lang.helpers.get(qual)
        if kind == "module":
            mod = self.module(args[0] if args else None)
            return Ref(mod) if mod else None
        if kind is not None:
            return helper(kind, args, kwargs)
        return None

    def emit(self, label: str, line: str, act: Action | None) -> None:
        if act is None:
            label = f"{self.lang.name} {label}"
        elif self.roots and act.kind in actions.DELETIONS and "'<dynamic>'" in line:
            # A deletion of each entry of a recursive walk deletes the walked tree.
            root = self.roots.pop()
            self.sink.emit(f"{self.lang.name} recursive delete", rm_line("rm -rf", [root]))
        self.sink.emit(label, line)


def _marked(code: str) -> bool:
    """The code holds an environment variable's value or text not known statically."""
    return any(m in code for m in MARKERS)
