"""The package's shape: no import circles among src/dcg modules, none over 500 lines, docstrings.

The import graph is read from the source with :mod:`ast`, not by importing it. Every
``import`` statement counts wherever it stands: at module level, inside a function (the
hook imports lazily, and a circle through a lazy import is still a circle: the two
modules cannot be understood, tested or moved apart) and under ``if TYPE_CHECKING:`` (a
circle of types is a circle of concepts). An edge goes to the module named: ``from
dcg.shell import walk`` is an edge to ``dcg.shell.walk`` when that is a module, else to
``dcg.shell``. The implicit import of a parent package (``dcg.shell`` runs before
``dcg.shell.walk``) is not an edge, nor are modules loaded by name at run time
(``__import__(f"dcg.packs.{pack_id}")``): those registries are plain tables of names.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "dcg"
MAX_LINES = 500

Graph = dict[str, set[str]]


def module_name(path: Path, root: Path) -> str:
    """``root/dcg/shell/walk.py`` -> ``dcg.shell.walk``; a package's ``__init__`` is the package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(package: Path) -> dict[str, Path]:
    root = package.parent
    return {module_name(p, root): p for p in sorted(package.rglob("*.py"))}


def _imported(tree: ast.AST, name: str, is_package: bool) -> list[tuple[str, str | None]]:
    """(module, name imported from it or None) for every import statement in ``tree``."""
    found: list[tuple[str, str | None]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((alias.name, None) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                # Relative: `from . import x` in a package's __init__ is the package itself.
                anchor = name.split(".")
                anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
                base = ".".join([*anchor, base] if base else anchor)
            found.extend((base, alias.name) for alias in node.names)
    return found


def import_graph(package: Path) -> Graph:
    """Edges from each module of ``package`` to the modules of it that it imports."""
    known = modules(package)
    graph: Graph = {name: set() for name in known}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for base, member in _imported(tree, name, path.name == "__init__.py"):
            target = f"{base}.{member}" if member and f"{base}.{member}" in known else base
            # `import a.b.c` names a.b.c; fall back to the longest prefix that is a module.
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                graph[name].add(target)
    return graph


def cycles(graph: Graph) -> list[list[str]]:
    """Each strongly connected component of more than one module, as one circle through it."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's algorithm; the graph is small
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(graph.get(node, ())):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(_circle(graph, set(component)))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(components)


def _circle(graph: Graph, component: set[str]) -> list[str]:
    """A shortest path from the component's first module back to itself, inside it."""
    start = min(component)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for succ in sorted(graph[node] & component):
                if succ == start:
                    return [*paths[node], start]
                if succ not in paths:
                    paths[succ] = [*paths[node], succ]
                    following.append(succ)
        frontier = following
    raise AssertionError(f"{sorted(component)} is not strongly connected")


def test_the_package_has_no_import_circle() -> None:
    found = cycles(import_graph(PACKAGE))
    assert not found, "import circles in src/dcg:\n" + "\n".join(" -> ".join(c) for c in found)


def test_no_module_is_over_500_lines() -> None:
    long = {
        name: n
        for name, path in modules(PACKAGE).items()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, f"modules over {MAX_LINES} lines (split them along their seams): {long}"


def test_every_module_starts_with_a_one_line_docstring() -> None:
    missing = []
    for name, path in modules(PACKAGE).items():
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        lines = (doc or "").splitlines()
        # A summary line of its own: the first line says what the module owns.
        if not lines or not lines[0].strip() or (len(lines) > 1 and lines[1].strip()):
            missing.append(name)
    assert not missing, f"modules without a one-line summary docstring: {missing}"


# The checks above must be able to fail: a synthetic package with each kind of circle.
SYNTHETIC = [
    pytest.param(
        {"a.py": "from pkg import b\n", "b.py": "from pkg.a import x\n"},
        [["pkg.a", "pkg.b", "pkg.a"]],
        id="module-level",
    ),
    pytest.param(
        {"a.py": "def f():\n    from pkg import b\n", "b.py": "import pkg.a\n"},
        [["pkg.a", "pkg.b", "pkg.a"]],
        id="lazy-import-in-a-function",
    ),
    pytest.param(
        {
            "a.py": "TYPE_CHECKING = False\nif TYPE_CHECKING:\n    from pkg.b import B\n",
            "b.py": "from .a import A\n",
        },
        [["pkg.a", "pkg.b", "pkg.a"]],
        id="type-checking-and-relative",
    ),
    pytest.param(
        {
            "__init__.py": "def parse():\n    from pkg.sub.walk import run\n",
            "sub/__init__.py": "",
            "sub/walk.py": "from pkg.sub import ps\n",
            "sub/ps.py": "from pkg import parse\n",
        },
        [["pkg", "pkg.sub.walk", "pkg.sub.ps", "pkg"]],
        id="three-modules-through-a-package",
    ),
    pytest.param(
        {"a.py": "from pkg import b\n", "b.py": "import os\n", "c.py": "from pkg.a import x\n"},
        [],
        id="no-circle-layers",
    ),
    pytest.param(
        {"__init__.py": "from pkg.a import x\n", "a.py": "x = 1\n"},
        [],
        id="child-does-not-import-parent-implicitly",
    ),
]


@pytest.mark.parametrize(("files", "expected"), SYNTHETIC)
def test_circles_are_found(
    files: dict[str, str], expected: list[list[str]], tmp_path: Path
) -> None:
    package = tmp_path / "pkg"
    for rel, text in {"__init__.py": "", **files}.items():
        (package / rel).parent.mkdir(parents=True, exist_ok=True)
        (package / rel).write_text(text)
    assert cycles(import_graph(package)) == expected
