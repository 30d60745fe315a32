"""Python code: commands and deletions found with the standard ``ast`` parser.

Code that does not parse (a truncated heredoc, Python 2) falls back to the shared
token scanner with the same call tables, which still finds ``os.system("…")``-style
calls with literal arguments.
"""

from __future__ import annotations

from dcg.embedded import actions, writecalls
from dcg.embedded.actions import MAX_DEPTH, Action, Sink
from dcg.embedded.helpers import helper
from dcg.embedded.python_tables import CALLS, CONSTS, HELPERS, RM_F, RMDIR
from dcg.embedded.render import rm_line
from dcg.embedded.values import (
    DYN,
    MARKERS,
    TMP,
    PathValue,
    Ref,
    as_str,
    concat,
    dirname,
    env,
    expanduser,
    format_fields,
    join,
    percent,
    text,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    import ast
    from collections.abc import Iterator

    from dcg.embedded.lang import Lang
else:
    # The node classes of the built-in _ast module are those of ast; importing ast itself
    # would cost more than the rest of the analysis (enum, contextlib, collections).
    import _ast as ast


def fallback_lang() -> Lang:
    """The token scanner's tables for Python code that does not parse.

    Built (and the scanner imported) only then: code that parses never needs them.
    """
    from dcg.embedded.lang import Lang, LexSpec

    return Lang(
        "python",
        lex=LexSpec(quotes={}, interp="py", line_comments=("#",), py_prefixes=True),
        calls=CALLS,
        helpers=HELPERS,
        methods={"unlink": (RM_F, False), "rmdir": (RMDIR, False)},
        path_class="Path",
        member_ops=frozenset({"."}),
        concat_ops=frozenset({"+"}),
        envs=frozenset({"os.environ"}),
        imports="py",
    )


def analyze(code: str, sink: Sink, depth: int = 0) -> None:
    if depth > MAX_DEPTH:
        return
    try:
        tree: ast.AST = compile(code, "<embedded>", "exec", ast.PyCF_ONLY_AST)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        from dcg.embedded.scanner import run as scan_tokens

        scan_tokens(fallback_lang(), code, sink, depth)
        return
    from dcg.embedded.pycalls import uncalled

    visitor = _Visitor(sink, depth)
    visitor.skip = uncalled(tree)  # functions nothing calls never run: not judged
    visitor.visit(tree)


def _walk(node: ast.AST) -> Iterator[ast.AST]:
    yield node
    for child in _children(node):
        yield from _walk(child)


def _children(node: ast.AST) -> Iterator[ast.AST]:
    for field in node._fields:
        value = getattr(node, field, None)
        if isinstance(value, list):
            yield from (item for item in value if isinstance(item, ast.AST))
        elif isinstance(value, ast.AST):
            yield value


class _Visitor:
    """Visits statements in source order, tracking imports and literal variables."""

    def visit(self, node: ast.AST) -> None:
        method = getattr(self, "visit_" + node.__class__.__name__, None)
        if method is None:
            self.generic_visit(node)
        else:
            method(node)

    def generic_visit(self, node: ast.AST) -> None:
        for child in _children(node):
            self.visit(child)

    def __init__(self, sink: Sink, depth: int) -> None:
        self.sink = sink
        self.depth = depth
        self.alias: dict[str, str] = {}
        self.env: dict[str, object] = {}
        self.star: list[str] = []
        self.roots: list[object] = []  # os.walk roots of the enclosing loops
        self.cwd: str | None = None  # where os.chdir() went, when known
        self.skip: set[int] = set()  # function definitions nothing reaches
        self.written: set[int] = set()  # open() calls whose literal write was reported

    # ----- bindings -----

    def visit_Import(self, node: ast.Import) -> None:
        for a in node.names:
            local = a.asname or a.name.split(".")[0]
            self.alias[local] = a.name if a.asname else local
            self.env.pop(local, None)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        mod = node.module or ""
        for a in node.names:
            if a.name == "*":
                self.star.append(mod)
            else:
                self.alias[a.asname or a.name] = f"{mod}.{a.name}"
                self.env.pop(a.asname or a.name, None)

    def visit_Assign(self, node: ast.Assign) -> None:
        self.visit(node.value)
        for target in node.targets:
            self.bind(target, node.value)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)
            self.bind(node.target, node.value)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self.visit(node.value)
        if isinstance(node.target, ast.Name):
            name = node.target.id
            ok = isinstance(node.op, ast.Add) and name in self.env
            self.env[name] = concat(self.env[name], self.eval(node.value)) if ok else None

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self.visit(node.value)
        self.bind(node.target, node.value)

    def visit_For(self, node: ast.For | ast.AsyncFor) -> None:
        self.visit(node.iter)
        self.unbind(node.target)
        walk = isinstance(node.iter, ast.Call) and self.ref(node.iter.func) == "os.walk"
        if walk and isinstance(node.iter, ast.Call):
            self.roots.append(self.eval(node.iter.args[0]) if node.iter.args else None)
        for stmt in [*node.body, *node.orelse]:
            self.visit(stmt)
        if walk and self.roots:
            self.roots.pop()

    visit_AsyncFor = visit_For

    def visit_With(self, node: ast.With | ast.AsyncWith) -> None:
        for item in node.items:
            self.visit(item.context_expr)
            if item.optional_vars is not None:
                self.bind(item.optional_vars, item.context_expr)
        for stmt in node.body:
            self.visit(stmt)

    visit_AsyncWith = visit_With

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        if id(node) in self.skip:
            return
        for arg in _walk(node.args):
            if isinstance(arg, ast.arg):
                self.env[arg.arg] = None
        self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def bind(self, target: ast.expr, value: ast.expr) -> None:
        if isinstance(target, (ast.Tuple, ast.List)):
            if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts):
                for t, v in zip(target.elts, value.elts, strict=True):
                    self.bind(t, v)
            else:
                self.unbind(target)
            return
        if not isinstance(target, ast.Name):
            return
        name = target.id
        if isinstance(value, (ast.Name, ast.Attribute)):
            q = self.ref(value)
            head = q.split(".")[0] if q else ""
            if q and (q in CALLS or q in HELPERS or q in CONSTS or head in self.alias):
                self.alias[name] = q
                self.env.pop(name, None)
                return
        val = self.eval(value)
        if isinstance(val, Ref):
            self.alias[name] = val.qual
            self.env.pop(name, None)
        else:
            self.env[name] = val
            self.alias.pop(name, None)

    def unbind(self, target: ast.expr) -> None:
        for node in _walk(target):
            if isinstance(node, ast.Name):
                self.env[node.id] = None
                self.alias.pop(node.id, None)

    # ----- names and values -----

    def ref(self, node: ast.expr) -> str | None:
        """The qualified name an expression refers to (``sp.run`` -> ``subprocess.run``)."""
        if isinstance(node, ast.Name):
            name = node.id
            if name in self.alias:
                return self.alias[name]
            if name in self.env:
                return None
            for mod in self.star:
                q = f"{mod}.{name}"
                if q in CALLS or q in HELPERS:
                    return q
            return name
        if isinstance(node, ast.Attribute):
            base = self.ref(node.value)
            return f"{base}.{node.attr}" if base else None
        if isinstance(node, ast.Call):
            callee = self.ref(node.func)
            args = node.args
            if callee == "getattr" and len(args) >= 2:
                attr = text(self.eval(args[1]))
                owner = self.ref(args[0])
                if owner in _RUNNERS and not attr:
                    return _COMPUTED  # getattr(os, 'metsys'[::-1]): a name dcg cannot know
                return f"{owner}.{attr}" if owner and attr and attr.isidentifier() else None
            if callee is not None and HELPERS.get(callee) == "module":
                v = self.eval(node)
                return v.qual if isinstance(v, Ref) else None
        return None

    def args(self, node: ast.Call) -> tuple[list[object], dict[str, object]]:
        args: list[object] = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                v = self.eval(a.value)
                args.extend(v if isinstance(v, list) else [None])
            else:
                args.append(self.eval(a))
        kwargs = {k.arg: self.eval(k.value) for k in node.keywords if k.arg}
        return args, kwargs

    def eval(self, node: ast.expr) -> object:
        self.sink.tick()
        if isinstance(node, ast.Constant):
            const = node.value
            if isinstance(const, bytes):
                return const.decode("latin-1")
            if isinstance(const, (int, float)) and not isinstance(const, bool):
                return str(const)
            return const if isinstance(const, (str, bool)) else None
        if isinstance(node, ast.JoinedStr):
            return "".join(as_str(self.eval(p)) for p in node.values)
        if isinstance(node, ast.FormattedValue):
            return self.eval(node.value)
        if isinstance(node, ast.BinOp):
            left, right = self.eval(node.left), self.eval(node.right)
            if isinstance(node.op, ast.Add):
                return concat(left, right)
            if isinstance(node.op, ast.Div) and isinstance(left, PathValue):
                return PathValue(join([left, right]) or DYN)
            if isinstance(node.op, ast.Mod) and isinstance(left, str):
                return percent(left, right)
            return None
        if isinstance(node, (ast.List, ast.Tuple)):
            out: list[object] = []
            for e in node.elts:
                if isinstance(e, ast.Starred):
                    v = self.eval(e.value)
                    out.extend(v if isinstance(v, list) else [None])
                else:
                    out.append(self.eval(e))
            return out
        if isinstance(node, ast.Dict):
            return {
                k.value: self.eval(v)
                for k, v in zip(node.keys, node.values, strict=True)
                if isinstance(k, ast.Constant) and isinstance(k.value, str)
            }
        if isinstance(node, ast.Name) and node.id in self.env:
            return self.env[node.id]
        if isinstance(node, (ast.Name, ast.Attribute)):
            q = self.ref(node)
            if q in CONSTS:
                return CONSTS[q]
            if isinstance(node, ast.Attribute):
                return self.attribute(node)
            return Ref(q) if q and (q in CALLS or q in HELPERS) else None
        if isinstance(node, ast.Subscript):
            if self.ref(node.value) == "os.environ":
                name = text(self.eval(node.slice))
                return env(name) if name and name.isidentifier() else None
            base, index = self.eval(node.value), self.eval(node.slice)
            if isinstance(base, list) and isinstance(index, str) and index.isdigit():
                return base[int(index)] if int(index) < len(base) else None
            return None
        if isinstance(node, ast.Call):
            return self.call_value(node)
        return None

    def attribute(self, node: ast.Attribute) -> object:
        base = self.eval(node.value)
        if not isinstance(base, str):
            return None
        if node.attr == "parent":
            return PathValue(as_str(dirname(base)))
        if node.attr == "name" and base.startswith(TMP + "/") and base.endswith(DYN):
            return base  # TemporaryDirectory().name
        return None

    def call_value(self, node: ast.Call) -> object:
        q = self.ref(node.func)
        if q is not None and q in HELPERS:
            args, kwargs = self.args(node)
            v = helper(HELPERS[q], args, kwargs)
            if q.endswith(("Path.home", "Path.cwd")) and isinstance(v, str):
                return PathValue(v)
            return v
        if not isinstance(node.func, ast.Attribute):
            return None
        base = self.eval(node.func.value)
        m = node.func.attr
        args, kwargs = self.args(node)
        if isinstance(base, PathValue):
            if m == "joinpath":
                return PathValue(join([base, *args]) or DYN)
            if m == "expanduser":
                return PathValue(as_str(expanduser(base)))
            if m in ("resolve", "absolute"):
                return base
        if isinstance(base, str):
            if m == "join" and args and isinstance(args[0], list):
                return base.join(as_str(x) for x in args[0])
            if m == "format":
                return format_fields(base, args, kwargs)
            if m in ("strip", "rstrip", "lstrip", "encode", "decode"):
                return base
            if m == "split" and DYN not in base:
                sep = text(args[0]) if args else None
                return list(base.split(sep)) if sep else list(base.split())
        return None

    # ----- calls -----

    def visit_Call(self, node: ast.Call) -> None:
        self.sink.tick()
        q = self.ref(node.func)
        if q == _COMPUTED or _namespace_lookup(self, node.func):
            self.sink.emit("python computed name", "'<dynamic>' code")
        act = CALLS.get(q) if q else None
        if isinstance(node.func, ast.Attribute) and node.func.attr == "write":
            writecalls.open_write(self, node.func.value, node)
        if act is not None and q is not None and id(node) not in self.written:
            args, kwargs = self.args(node)
            if act.kind == "eval":
                code = text(args[0]) if args else None
                if code is not None and not _marked(code) and self.depth < MAX_DEPTH:
                    analyze(code, self.sink, self.depth + 1)
                elif args:  # code computed at run time: decoded bytes, a variable
                    self.sink.emit(f"python {q}", "'<dynamic>' code")
            elif act.kind == "chdir":
                self.cwd = actions.chdir(self.cwd, act, args, kwargs)
            else:
                self.emit(f"python {q}", actions.apply(act, args, kwargs, self.cwd), act)
        elif isinstance(node.func, ast.Attribute) and node.func.attr in writecalls.METHOD_NAMES:
            # pathlib: Path(p).unlink(), p.rmdir(), p.write_text(…), p.rename(q), …
            writecalls.python_method(self, node.func.value, node, node.func.attr)
        self.generic_visit(node)

    def emit(self, label: str, lines: list[str], act: Action) -> None:
        for line in lines:
            if self.roots and act.kind in actions.DELETIONS and "'<dynamic>'" in line:
                # Deleting every entry that os.walk(root) yields deletes the tree.
                root = self.roots[-1]
                self.roots[-1] = DYN
                if root != DYN:
                    self.sink.emit("python recursive delete", rm_line("rm -rf", [root]))
            self.sink.emit(label, line)


# Modules whose attributes run commands or code: a call through a name computed at run
# time on one (getattr(os, x), vars(os)[x], os.__dict__[x], globals()[x]) is opaque.
_RUNNERS = frozenset(("os", "subprocess", "shutil", "pty", "posix", "builtins", "importlib",
                      "commands", "platform", "sys"))  # fmt: skip
_COMPUTED = "\x00computed"


def _namespace_lookup(visitor: _Visitor, func: ast.expr) -> bool:
    holder = func.value if isinstance(func, ast.Subscript) else None
    if isinstance(holder, ast.Attribute) and holder.attr == "__dict__":
        return visitor.ref(holder.value) in _RUNNERS
    if isinstance(holder, ast.Call) and isinstance(holder.func, ast.Name):
        name = holder.func.id
        return name in ("globals", "locals") or (
            name == "vars" and bool(holder.args) and visitor.ref(holder.args[0]) in _RUNNERS
        )
    return False


def _marked(code: str) -> bool:
    return any(m in code for m in MARKERS)  # an environment value, or text not known
