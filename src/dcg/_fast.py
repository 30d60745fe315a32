"""The hook's fast entry file: what ``dcg install`` registers, run as a script.

The registered command is ``<python> -I -S <this file> [hook flags]``: isolated mode (no
``PYTHON*`` variables, no script directory on ``sys.path``) and no ``site`` (which costs a
bare start a third again, and more with ``.pth`` files). What ``site`` would have added is
not needed: the hook imports only the standard library and this package, and the package
is found from this file's own location — the directory holding ``dcg/`` — whatever
installed it (a venv, pipx, ``uv tool``, ``pip --user``, an editable checkout's ``src/``).
Nothing but built-in modules is imported before the hook itself.

The package's modules are then loaded from its *bundle* when there is one: a single file,
``dcg/__pycache__/hook.<cache tag>.bundle`` (written by ``dcg install``, see
:mod:`dcg.bundle`), holding the bytecode of every module the hook can import. The path
finder spends more on each small module (directory listings, a ``stat`` of the source, the
``.pyc`` name, an open and a read) than the module's own code costs to run; the bundle is
one open, and each module one ``stat`` of its source. A module whose source is not the one
the bundle was built from (an edited checkout, an upgrade) is left to the normal import.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec
    from types import ModuleType
    from typing import BinaryIO

    # name -> (source relative to the package, st_mtime_ns, st_size, is_package, offset, length)
    Index = dict[str, tuple[str, int, int, bool, int, int]]

# The bundle's first bytes: this format, then the interpreter's bytecode magic number.
FORMAT = b"dcg-bundle-1\n"


def bundle_path(package: str) -> str:
    """Where the bundle of the package directory ``package`` lives for this interpreter."""
    return f"{package}/__pycache__/hook.{sys.implementation.cache_tag}.bundle"


class BundleFinder:
    """A meta path finder and loader for the modules of one bundle file.

    The index maps a module name to ``(source path relative to the package, st_mtime_ns,
    st_size, is_package, offset after the index, length)``; a module's code is unmarshalled
    only when it is imported.
    """

    def __init__(self, package: str, stream: BinaryIO, index: Index, base: int) -> None:
        self.package = package
        self.stream = stream
        self.index = index
        self.base = base

    def find_spec(self, name: str, path: object = None, target: object = None) -> ModuleSpec | None:
        entry = self.index.get(name)
        if entry is None:
            return None
        try:
            rel, mtime_ns, size, is_package, _offset, _length = entry
            origin = f"{self.package}/{rel}"
            st = _stat(origin)
        except (OSError, TypeError, ValueError):
            return None
        if st.st_mtime_ns != mtime_ns or st.st_size != size:
            return None
        spec = _ModuleSpec(name, self, origin=origin, is_package=is_package)  # type: ignore[arg-type]
        spec.has_location = True
        if is_package:
            spec.submodule_search_locations = [origin.rpartition("/")[0]]
        return spec

    def create_module(self, spec: ModuleSpec) -> None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        name = module.__name__
        entry = self.index[name]
        try:
            self.stream.seek(self.base + entry[4])
            code = _marshal.loads(self.stream.read(entry[5]))
        except Exception:
            code = None
        if type(code) is not _CodeType:  # a damaged bundle: the module's own file
            code = _external.SourceFileLoader(name, module.__file__).get_code(name)
        exec(code, module.__dict__)


def install_bundle(package: str) -> bool:
    """Put the bundle of ``package`` first on ``sys.meta_path``; False when there is none
    usable for this interpreter (missing, another format, another Python, damaged)."""
    try:
        stream = _io.open(bundle_path(package), "rb")
    except OSError:
        return False
    try:
        head = stream.read(len(FORMAT) + 8)
        magic = _external.MAGIC_NUMBER
        if head[: len(FORMAT)] != FORMAT or head[len(FORMAT) : len(FORMAT) + 4] != magic:
            stream.close()
            return False
        size = int.from_bytes(head[len(FORMAT) + 4 :], "little")
        index = _marshal.loads(stream.read(size))
        if not isinstance(index, dict):
            stream.close()
            return False
    except Exception:  # a damaged file: the normal import still works
        stream.close()
        return False
    if any(isinstance(f, BundleFinder) and f.package == package for f in sys.meta_path):
        stream.close()
        return True
    sys.meta_path.insert(0, BundleFinder(package, stream, index, len(head) + size))
    return True


def package_dir() -> str:
    """.../<root>/dcg/_fast.py -> .../<root>/dcg, by string work: nothing is imported."""
    here = __file__
    return here[: max(here.rfind("/"), here.rfind("\\"))]


def main() -> int:
    # One short-lived call allocates many objects and frees them by reference counting;
    # the cyclic collector's passes over the imported modules' tables cost it 5-10% (a
    # stopped command: 2.20 -> 2.08 CPU ratio, 60 interleaved rounds).
    import gc

    gc.disable()
    package = package_dir()
    cut = max(package.rfind("/"), package.rfind("\\"))
    root = package[:cut] or package[: cut + 1]
    # Run without -I, Python puts this file's directory (the package itself) first.
    path = [p for p in sys.path if p != package]
    if root not in path:
        path.insert(0, root)
    sys.path[:] = path
    install_bundle(package)
    from dcg.hook import main as hook_main

    return hook_main(sys.argv[1:])


# Built-in modules only (already loaded by the interpreter's own start): no file is read.
import _io  # noqa: E402
import marshal as _marshal  # noqa: E402

try:
    from posix import _exit
    from posix import stat as _stat
except ImportError:  # Windows
    from nt import _exit  # type: ignore[attr-defined,no-redef]
    from nt import stat as _stat  # type: ignore[attr-defined,no-redef]
_ModuleSpec = type(sys.__spec__)
_CodeType = type(package_dir.__code__)
_external = sys.modules["_frozen_importlib_external"]


def finish(code: int) -> None:
    """Exit with ``code`` once the answer is out, skipping the interpreter's teardown.

    Freeing every module and object of a process that is about to end costs a stopped
    command about 2 ms; the hook holds nothing that needs it (its state files are written
    with ``os.write`` and closed, its only open file is the bundle, read-only).
    """
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    _exit(code)


if __name__ == "__main__":
    finish(main())
