"""Writing and checking the hook's module bundle (read by :mod:`dcg._fast`).

The bundle is one file beside the package's bytecode, ``dcg/__pycache__/hook.<cache
tag>.bundle``: the format line, the interpreter's bytecode magic number, the length of a
marshalled index, the index, then each module's marshalled code (its offset counted from
the end of the index). The index records each module's source path, modification time
(ns) and size, so the reader uses a module's code only while its source is unchanged.
``dcg install`` writes it; ``dcg doctor`` reports a hook whose bundle is missing or out
of date; ``python -I -m dcg.bundle`` writes it by hand.

Every module of the package is bundled except the command-line interface (``dcg.cli``,
``dcg.commands``), which the hook never imports, and so is ``__future__``. The index also
names the file of each standard library extension module the package imports (``_json``,
``fcntl``, …), with no code: the reader loads it from there, checked the same way, so that
finding it costs no listing of the standard library's directories.
"""

from __future__ import annotations

import ast
import contextlib
import marshal
import os
import sys

from dcg._fast import EXTENSION, FORMAT, MAGIC, bundle_path, source_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg._fast import Entry

# The entry file and dcg._fast are loaded before the bundle is open.
_SKIPPED = ("dcg.cli", "dcg.commands", "dcg.__main__", "dcg._fast", "dcg._entry")
# Standard library modules the hook imports that are neither built in nor frozen (every
# dcg module starts with ``from __future__ import annotations``): found in the bundle,
# they cost no listing of the standard library's directory. Stored with their absolute
# path and checked against it like the package's own.
_STDLIB = ("__future__",)


def modules(package: str) -> dict[str, tuple[str, bool]]:
    """Module name -> (source path relative to ``package``, is a package), hook modules only."""
    found: dict[str, tuple[str, bool]] = {}
    top = os.path.basename(package)
    for root, dirs, files in os.walk(package):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        rel_dir = os.path.relpath(root, package)
        parts = [] if rel_dir == "." else rel_dir.split(os.sep)
        if parts and "__init__.py" not in files:
            dirs[:] = []
            continue
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            stem = name[:-3]
            is_package = stem == "__init__"
            dotted = ".".join([top, *parts] + ([] if is_package else [stem]))
            if any(dotted == s or dotted.startswith(s + ".") for s in _SKIPPED):
                continue
            found[dotted] = ("/".join([*parts, name]), is_package)
    for name in _STDLIB:
        source = _stdlib_source(name)
        if source is not None:
            found[name] = (source, False)
    return found


def extensions(package: str, found: dict[str, tuple[str, bool]] | None = None) -> dict[str, str]:
    """Top-level name -> absolute file of each extension module (a shared library) that a
    hook module of ``package`` imports anywhere, its functions included."""
    names: set[str] = set()
    for rel, _is_package in (modules(package) if found is None else found).values():
        try:
            with open(source_path(package, rel), "rb") as f:
                names |= imported_names(ast.parse(f.read()))
        except (OSError, SyntaxError, ValueError):
            continue
    return extension_files(names)


def imported_names(tree: ast.Module) -> set[str]:
    """The top-level names of every absolute import in ``tree``, functions included."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.partition(".")[0])
    return names


def extension_files(names: set[str]) -> dict[str, str]:
    """Name -> absolute file of those of ``names`` that are extension modules."""
    import importlib.machinery
    import importlib.util

    out: dict[str, str] = {}
    for name in sorted(names - set(sys.builtin_module_names)):
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        if spec is None or not isinstance(spec.loader, importlib.machinery.ExtensionFileLoader):
            continue
        if spec.origin is not None and os.path.isabs(spec.origin):
            out[name] = spec.origin.replace(os.sep, "/")
    return out


def _stdlib_source(name: str) -> str | None:
    """The source file of a pure-Python standard library module, absolute; None when this
    interpreter has it built in or frozen."""
    import importlib.util

    spec = importlib.util.find_spec(name)
    origin = spec.origin if spec is not None else None
    if origin is None or not origin.endswith(".py") or not os.path.isabs(origin):
        return None
    return origin.replace(os.sep, "/")


def build(package: str) -> str:
    """Compile every hook module of ``package`` into its bundle, atomically; the path.

    Raises OSError when the file cannot be written, SyntaxError when a module does not
    compile (the bundle is then left as it was).
    """
    found = modules(package)
    index: dict[str, Entry] = {}
    blobs: list[bytes] = []
    offset = 0
    imported: set[str] = set()  # for the extension modules' entries
    for dotted, (rel, is_package) in found.items():
        source = source_path(package, rel)
        st = os.stat(source)
        with open(source, "rb") as f:
            data = f.read()
        tree = ast.parse(data, source)
        imported |= imported_names(tree)
        set_derived(tree, package, dotted)
        names, leading = top_level_imports(tree, dotted, is_package)
        # Its own packages are always imported before it: only other modules count.
        wanted = [d in found and not (dotted == d or dotted.startswith(d + ".")) for d in names]
        deps = tuple(d for d, keep in zip(names, wanted, strict=True) if keep)
        lead = sum(wanted[:leading])
        if dotted in _STDLIB:  # compiled as importlib would
            code = compile(data, source, "exec", dont_inherit=True)
        else:
            code = compile(without_docstrings(tree), source, "exec", dont_inherit=True)
        blob = marshal.dumps(code)
        entry = (rel, st.st_mtime_ns, st.st_size, is_package, offset, len(blob), deps, lead)
        index[dotted] = entry
        blobs.append(blob)
        offset += len(blob)
    for dotted, origin in extension_files(imported).items():
        st = os.stat(origin)
        index[dotted] = (origin, st.st_mtime_ns, st.st_size, False, EXTENSION, 0, (), 0)
    head = pack_index(index)
    path = bundle_path(package)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    _write_atomically(path, [FORMAT + MAGIC + len(head).to_bytes(4, "little") + head, *blobs])
    return path


def pack_index(index: dict[str, Entry]) -> bytes:
    """The index as the bundle stores it: each entry marshalled on its own (read_index)."""
    return marshal.dumps({name: marshal.dumps(entry) for name, entry in index.items()})


# A module that says ``DERIVED: … = None`` at its top level gets, in its bundled code, what
# its ``derive()`` returns (dcg.agents: the registry read from every agent module).
DERIVED = "DERIVED"
_DERIVE = (
    "import marshal, sys; sys.path.insert(0, sys.argv[1]); "
    "module = __import__(sys.argv[2], fromlist=['derive']); "
    "sys.stdout.buffer.write(marshal.dumps(module.derive()))"
)


def set_derived(tree: ast.Module, package: str, dotted: str) -> bool:
    """Put what module ``dotted`` of ``package`` derives into its ``DERIVED`` assignment in
    ``tree``; False when it has none. Derived in a fresh interpreter that imports that
    package (not the one running this, which may be another copy), as the hook would."""
    for node in tree.body:
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and node.target.id == DERIVED
        ):
            break
    else:
        return False
    import subprocess

    root = os.path.dirname(os.path.abspath(package))
    run = subprocess.run(
        [sys.executable, "-I", "-S", "-c", _DERIVE, root, dotted],
        capture_output=True,
        timeout=120,
        check=False,
    )
    try:
        value = marshal.loads(run.stdout) if run.returncode == 0 else None
    except (EOFError, ValueError, TypeError):
        value = None
    if value is None:
        why = run.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["no output"]
        raise SyntaxError(f"{dotted}.derive() failed in {package}: {why[0]}")
    node.value = ast.copy_location(ast.Constant(value), node)
    return True


def _write_atomically(path: str, parts: list[bytes]) -> None:
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as f:
            for part in parts:
                f.write(part)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def without_docstrings(tree: ast.Module) -> ast.Module:
    """``tree`` without its docstrings (module, classes, functions), which the hook never
    reads: a tenth less code to unmarshal on every call. Line numbers are kept."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        body = node.body
        first = body[0].value if body and isinstance(body[0], ast.Expr) else None
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            node.body = body[1:] or [ast.copy_location(ast.Pass(), body[0])]
    return tree


def top_level_imports(tree: ast.Module, name: str, is_package: bool) -> tuple[list[str], int]:
    """The modules a module's body imports whenever it runs, in order, and how many of
    them its leading import statements name (those before any other statement).

    Counted are its top-level ``import`` and ``from`` statements and those of top-level
    ``try`` blocks, never those under an ``if`` (``TYPE_CHECKING``) or in a function. Each
    module comes after its packages; a ``from P import x`` names ``P`` and, where ``x`` is a
    submodule, ``P.x``: the caller keeps the names that are modules.
    """
    here = name if is_package else name.rpartition(".")[0]
    out: list[str] = []
    leading: int | None = None
    statements = list(tree.body)
    first = True
    while statements:
        node = statements.pop(0)
        if isinstance(node, ast.Try):
            statements[:0] = node.body
            continue
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            base = here
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            module = node.module or ""
            target = (f"{base}.{module}" if module else base) if node.level else module
            names = [target] + [f"{target}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.ImportFrom) or (
            first and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        ):
            first = False
            continue  # the docstring and ``from __future__``
        elif leading is None:
            leading = len(out)
        first = False
        for dotted in names:
            parts = dotted.split(".")
            out += [".".join(parts[: i + 1]) for i in range(len(parts))]
    deps = list(dict.fromkeys(out))
    if leading is None:
        return deps, len(deps)
    return deps, len(dict.fromkeys(out[:leading]))


def stale(package: str) -> list[str]:
    """The hook modules of ``package`` the bundle would not serve: all of them when there is
    no usable bundle, else those whose source changed or that it lacks."""
    hook_modules = modules(package)
    wanted = {dotted: rel for dotted, (rel, _is_package) in hook_modules.items()}
    wanted.update(extensions(package, hook_modules))
    index = read_index(package)
    if index is None:
        return sorted(wanted)
    out: list[str] = []
    for dotted, rel in wanted.items():
        found = index.get(dotted)
        try:
            st = os.stat(source_path(package, rel))
        except OSError:
            continue
        if found is None or (found[1], found[2]) != (st.st_mtime_ns, st.st_size):
            out.append(dotted)
    return out


def read_index(package: str) -> dict[str, Entry] | None:
    """The index of ``package``'s bundle for this interpreter; None when there is none."""
    from dcg import _fast

    try:
        fd = os.open(bundle_path(package), os.O_RDONLY)
    except OSError:
        return None
    try:
        found = _fast.read_index(fd)
    finally:
        os.close(fd)
    if found is None:
        return None
    try:
        return {name: marshal.loads(raw) for name, raw in found[0].items()}
    except (EOFError, ValueError, TypeError):
        return None


def main() -> int:
    """``python -I -m dcg.bundle``: write the bundle of the dcg this interpreter imports."""
    import dcg

    package = os.path.dirname(os.path.abspath(dcg.__file__))
    try:
        path = build(package)
    except (OSError, SyntaxError) as exc:
        sys.stderr.write(f"dcg.bundle: could not write the bundle of {package}: {exc}\n")
        return 1
    sys.stdout.write(f"wrote {path}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
