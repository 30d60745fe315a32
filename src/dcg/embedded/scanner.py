"""The shared token scanner: finds recognised calls in a token stream and evaluates their arguments.

It is not a full parser. It walks statements, follows simple assignments
(``x = 'lit'``, ``const {execSync} = require('child_process')``), member chains
(``FileUtils.rm_rf``, ``File::Path::rmtree``, ``$obj->m``), calls with and without
parentheses, string concatenation and interpolation, list and hash literals, and
hands a recognised call's evaluated arguments to :func:`dcg.embedded.actions.apply`.
Everything it cannot follow evaluates to "unknown"; every token is still visited, so
a call nested in an expression it gave up on is found all the same.

This module walks statements (assignments, imports, destructuring); evaluating
expressions and calls is :mod:`dcg.embedded.expressions`, a language's tables are a
:class:`~dcg.embedded.lang.Lang`.
"""

from __future__ import annotations

from dcg.embedded.actions import MAX_DEPTH
from dcg.embedded.expressions import CLOSE, STOP_WORDS, Expressions
from dcg.embedded.values import Ref, concat

TYPE_CHECKING = False  # typing is not imported at run time: it costs start-up time
if TYPE_CHECKING:
    from dcg.embedded.actions import Sink
    from dcg.embedded.lang import Lang


def run(lang: Lang, code: str, sink: Sink, depth: int = 0) -> None:
    """Scan ``code`` and emit the commands and deletions it performs into ``sink``."""
    if depth > MAX_DEPTH:
        return
    Scanner(lang, sink, depth).run(code)


class Scanner(Expressions):
    """Walks one piece of code; variables and aliases are tracked in source order."""

    # ----- statements -----

    def scan(self, i: int, closers: str) -> int:
        """Visit every token from ``i`` up to an operator in ``closers`` (its index)."""
        self.enter()
        try:
            while i < self.n:
                self.sink.tick()
                k, t, _ = self.toks[i]
                if k == "o":
                    if t in closers:
                        return i
                    if t in CLOSE:
                        i = self.scan(i + 1, CLOSE[t]) + 1
                        continue
                j = self.statement(i)
                i = j if j > i else i + 1
            return i
        finally:
            self.nest -= 1

    def statement(self, i: int) -> int:
        k, t, _ = self.tok(i)
        lang = self.lang
        if k == "n" and t in lang.decl:
            if self.op(i + 1, "{") and lang.imports == "js":
                return self.destructure(i + 1)
            if self.tok(i + 1)[0] == "n" and self.op(i + 2, ":"):  # TypeScript annotation
                j = i + 3
                while j < self.n and not self.op(j, "=", ";") and self.tok(j)[0] != "l":
                    j += 1
                if self.op(j, "="):
                    return self.assign(self.tok(i + 1)[1], j + 1)
            return i + 1
        if k == "n" and lang.imports == "js" and t == "import" and not self.op(i + 1, "("):
            return self.js_import(i + 1)
        if k == "n" and lang.imports == "py" and t in ("import", "from"):
            return self.py_import(i)
        if k == "n" and t == "include" and lang.name == "ruby" and self.tok(i + 1)[0] == "n":
            self.star.append(self.resolve(self.tok(i + 1)[1]))
            return i + 2
        if k == "n" and self.op(i + 1, "="):
            return self.assign(t, i + 2)
        if k == "n" and self.op(i + 1, "+=", ".="):
            v, j = self.expr(self.nx(i + 2))
            old = self.env.get(t)
            self.env[t] = concat(old, v) if t in self.env and self.ends(j) else None
            return j
        _, j = self.expr(i)
        return j

    def assign(self, name: str, i: int) -> int:
        v, j = self.expr(self.nx(i))
        if j == self.nx(i):
            self.env[name] = None
            self.alias.pop(name, None)
            return j
        if not self.ends(j):
            v = None
        if isinstance(v, Ref):
            self.alias[name] = v.qual
            self.env.pop(name, None)
        else:
            self.env[name] = v
            self.alias.pop(name, None)
        return j

    def ends(self, j: int) -> bool:
        k, t, _ = self.tok(j)
        if j >= self.n or k == "l":
            return True
        if k == "o":
            return t in (";", ",", ")", "]", "}", "=>", ":")
        return k == "n" and t in STOP_WORDS

    def destructure(self, i: int) -> int:
        """``const {a, b: c} = require('m')``: alias each local name to ``m.key``."""
        end = i + 1
        names: list[tuple[str, str]] = []
        while end < self.n and not self.op(end, "}"):
            k, t, _ = self.tok(end)
            if k == "n":
                if self.op(end + 1, ":") and self.tok(end + 2)[0] == "n":
                    names.append((t, self.tok(end + 2)[1]))
                    end += 2
                else:
                    names.append((t, t))
            end += 1
        if not self.op(end + 1, "="):
            return end + 1
        v, j = self.expr(self.nx(end + 2))
        for key, local in names:
            if isinstance(v, Ref):
                self.alias[local] = f"{v.qual}.{key}"
                self.env.pop(local, None)
            else:
                self.env[local] = None
        return j

    def js_import(self, i: int) -> int:
        """``import X, {a as b} from 'm'`` / ``import * as X from 'm'``."""
        default: list[str] = []
        named: list[tuple[str, str]] = []
        j = i
        while j < self.n and self.tok(j)[0] not in ("s", "l") and not self.op(j, ";"):
            k, t, _ = self.tok(j)
            if self.op(j, "*") and self.tok(j + 2)[0] == "n":
                default.append(self.tok(j + 2)[1])
                j += 3
                continue
            if self.op(j, "{"):
                j += 1
                while j < self.n and not self.op(j, "}"):
                    k, t, _ = self.tok(j)
                    if k == "n" and t != "type":
                        if self.tok(j + 1)[1] == "as" and self.tok(j + 2)[0] == "n":
                            named.append((t, self.tok(j + 2)[1]))
                            j += 2
                        else:
                            named.append((t, t))
                    j += 1
            elif k == "n" and t not in ("from", "type"):
                default.append(t)
            j += 1
        _, _, parts = self.tok(j)
        if self.tok(j)[0] == "s":
            mod = self.module(self.strval(parts))
            if mod:
                for local in default:
                    self.alias[local] = mod
                for key, local in named:
                    self.alias[local] = f"{mod}.{key}"
        return j + 1

    def py_import(self, i: int) -> int:
        """``import a.b as c`` / ``from a import b as c, d`` in the Python fallback scan."""
        words: list[str] = []
        j = i
        while j < self.n and self.tok(j)[0] != "l" and not self.op(j, ";"):
            k, t, _ = self.tok(j)
            words.append(t if k in "no" else "")
            j += 1
        text_ = " ".join(words).replace(" . ", ".").replace("( ", "").replace(" )", "")
        if words[0] == "from" and " import " in text_:
            mod, _, names = text_[5:].partition(" import ")
            for item in names.split(" , "):
                name, _, local = item.strip().partition(" as ")
                if name == "*":
                    self.star.append(mod.strip())
                elif name:
                    self.alias[(local or name).strip()] = f"{mod.strip()}.{name.strip()}"
        elif words[0] == "import":
            for item in text_[7:].split(" , "):
                name, _, local = item.strip().partition(" as ")
                if name and local:
                    self.alias[local.strip()] = name.strip()
        return j

    # ----- expressions -----
