"""Which functions of a Python program can run: those its code reaches by name.

A module-level function (or one nested in another) runs only when something calls it:
``def nuke(): shutil.rmtree("src")`` that no statement names is never run, so its body
is not judged. Reached means named anywhere outside its own body (a call, a callback
``atexit.register(f)``, a table ``{"clean": f}``), transitively from the module's own
statements. Everything is judged as before when a name could reach a function without
being written out (``eval``, ``exec``, ``getattr``, ``globals()``…), for decorated
functions, for ``test*``, ``pytest_*``, ``setup*`` and ``teardown*`` functions a runner finds by
name, and for methods of classes.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import ast
    from collections.abc import Iterator
else:
    # The node classes of the built-in _ast module are those of ast; importing ast itself
    # costs the hook (enum, contextlib, os…).
    import _ast as ast


# Functions a runner calls by their name: tests, pytest's hooks and xunit-style set-ups.
_BY_NAME = ("test", "pytest_", "setup", "teardown")


def _children(node: ast.AST) -> Iterator[ast.AST]:
    for field in node._fields:
        value = getattr(node, field, None)
        if isinstance(value, list):
            yield from (item for item in value if isinstance(item, ast.AST))
        elif isinstance(value, ast.AST):
            yield value


def _walk(node: ast.AST) -> Iterator[ast.AST]:
    stack = [node]
    while stack:
        cur = stack.pop()
        yield cur
        stack.extend(_children(cur))


# Names through which code reaches a function it does not name.
_REFLECTION = frozenset(("eval", "exec", "getattr", "globals", "locals", "vars", "compile",
                         "__import__", "__dict__", "modules", "import_module", "run_path",
                         "run_module", "__getattribute__", "attrgetter",
                         "methodcaller"))  # fmt: skip


def _names(node: ast.AST, skip: ast.AST | None = None) -> set[str]:
    """Identifiers and attribute names used in ``node`` (without ``skip``'s body)."""
    out: set[str] = set()
    stack = [node]
    while stack:
        cur = stack.pop()
        if cur is skip:
            continue
        if isinstance(cur, ast.Name):
            out.add(cur.id)
        elif isinstance(cur, ast.Attribute):
            out.add(cur.attr)
        elif isinstance(cur, ast.Constant) and isinstance(cur.value, str):
            out.add(cur.value)  # "main" in a table or __all__: may be looked up by name
        stack.extend(_children(cur))
    return out


def uncalled(tree: ast.AST) -> set[int]:
    """``id()`` of each function definition nothing in ``tree`` reaches."""
    funcs: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    methods: set[int] = set()
    for node in _walk(tree):
        if isinstance(node, ast.ClassDef):
            methods.update(id(n) for n in node.body)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            funcs.append(node)
    if not funcs:
        return set()
    every = _names(tree)
    if every & _REFLECTION:
        return set()
    pending = [
        f
        for f in funcs
        if id(f) not in methods and not f.decorator_list and not f.name.startswith(_BY_NAME)
    ]
    if not pending:
        return set()
    # What the program's own statements name, function bodies left out.
    bodies = {id(f) for f in funcs}
    reached: set[str] = set()
    stack: list[ast.AST] = [tree]
    while stack:
        cur = stack.pop()
        if id(cur) in bodies and cur is not tree:
            assert isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef))
            reached |= _names(cur.args) | set().union(*(_names(d) for d in cur.decorator_list))
            continue
        if isinstance(cur, ast.Name):
            reached.add(cur.id)
        elif isinstance(cur, ast.Attribute):
            reached.add(cur.attr)
        elif isinstance(cur, ast.Constant) and isinstance(cur.value, str):
            reached.add(cur.value)
        stack.extend(_children(cur))
    judged = [f for f in funcs if f not in pending or f.name in reached]
    left = [f for f in pending if f.name not in reached]
    while True:
        for f in judged:
            reached |= _names(f)
        now = [f for f in left if f.name in reached]
        if not now:
            break
        judged = now
        left = [f for f in left if f.name not in reached]
    return {id(f) for f in left}
