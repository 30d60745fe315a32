"""The hook's start: the bundle's importer and ``main``, loaded by the entry file.

The registered command is ``<python> -I -S <package>/_entry.py [hook flags]``: isolated
mode (no ``PYTHON*`` variables, no script directory on ``sys.path``) and no ``site``
(which costs a bare start a third again, and more with ``.pth`` files). What ``site``
would have added is not needed: the hook imports only the standard library and this
package, and the package is found from this file's own location — the directory holding
``dcg/`` — whatever installed it (a venv, pipx, ``uv tool``, ``pip --user``, an editable
checkout's ``src/``).
Nothing but built-in modules is imported before the hook itself.

The package's modules are then loaded from its *bundle* when there is one: a single file,
``dcg/__pycache__/hook.<cache tag>.bundle`` (written by ``dcg install``, see
:mod:`dcg.bundle`), holding the bytecode of every module the hook can import. The path
finder spends more on each small module (directory listings, a ``stat`` of the source, the
``.pyc`` name, an open and a read) than the module's own code costs to run; the bundle is
one open, and each module one ``stat`` of its source. A module whose source is not the one
the bundle was built from (an edited checkout, an upgrade) is left to the normal import.

The registered file is not this one but :mod:`dcg._entry`, a few lines that load this
module's cached bytecode with Python's own source loader and call :func:`main`: Python
compiles a script it is given on every run (about 1.5 ms for this file), and only that
script. Run as a script itself (``python -I -S …/dcg/_fast.py``, what older installs
registered where they could not write their compiled entry) it works the same way, and so
it does when such a compiled entry, finding this file changed, runs it as ``__main__``.
"""

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec
    from types import ModuleType

    # (source relative to the package, st_mtime_ns, st_size, is_package, offset after the
    # index, length, the bundled modules its body imports unconditionally, how many of
    # those its leading import statements name); for an extension module, its absolute
    # file and EXTENSION as the offset, with no code.
    Entry = tuple[str, int, int, bool, int, int, tuple[str, ...], int]
    # name -> its Entry, marshalled: a call unmarshals only the entries of the modules it
    # imports (8 of 316 on a command with no keyword), not every entry's tuples.
    Index = dict[str, bytes]

ENTRY_SOURCE = "_entry.py"  # the registered entry file's name in the package
FAST_SOURCE = "_fast.py"  # this file's, which older installs registered
# What older installs registered where they could write it: this file compiled, with the
# stamp of its source, ``__pycache__/hook-entry.<cache tag>.pyc``. Nothing writes it now;
# uninstall, doctor and install recognise it (install replaces it).
OLD_ENTRY_PREFIX = "hook-entry."

# The bundle's first bytes: this format, then the interpreter's bytecode magic number.
FORMAT = b"dcg-bundle-4\n"
EXTENSION = -1  # the offset of an extension module's entry


def bundle_path(package: str) -> str:
    """Where the bundle of the package directory ``package`` lives for this interpreter."""
    return f"{package}/__pycache__/hook.{sys.implementation.cache_tag}.bundle"


def entry_source(package: str) -> str:
    """The registered entry file in the package directory ``package``."""
    return f"{package}/{ENTRY_SOURCE}"


def source_path(package: str, rel: str) -> str:
    """An index entry's source file: relative to the package, or absolute (the stdlib's)."""
    return rel if rel[:1] == "/" else f"{package}/{rel}"


def read_index(fd: int) -> "tuple[Index, int] | None":
    """The index of the open bundle ``fd`` and where its code starts; None when it is not
    a bundle of this format for this interpreter, or is damaged."""
    try:
        head = _os.pread(fd, len(FORMAT) + 8, 0)
        if head[: len(FORMAT)] != FORMAT or head[len(FORMAT) : len(FORMAT) + 4] != MAGIC:
            return None
        size = int.from_bytes(head[len(FORMAT) + 4 :], "little")
        index = _marshal.loads(_os.pread(fd, size, len(head)))
    except Exception:
        return None
    return (index, len(head) + size) if isinstance(index, dict) else None


class BundleFinder:
    """A meta path finder and loader for the modules of one bundle file.

    A module's code is unmarshalled only when it is imported. Before a module's body runs,
    the bundled modules it imports at its top level are loaded directly, each with its
    own dependencies first: their ``import`` statements then find them in ``sys.modules``
    instead of going through the import system's machinery (a module lock, the finders,
    the spec), which costs each small module more than its own code does. A module is
    loaded that way only where its body would see its package as a normal import would
    show it: the package is running, or it is the one about to run and the module is
    among the leading imports of its body (before any other statement). A module that
    fails is left to the normal import, whose statement then says why.
    """

    def __init__(self, package: str, fd: int, index: "Index", base: int) -> None:
        self.package = package
        self.fd = fd
        self.index = index
        self.entries: dict[str, Entry] = {}  # those unmarshalled so far
        self.base = base
        self.pending: set[str] = set()  # in sys.modules, body not started yet

    def entry(self, name: str) -> "Entry":
        """The index entry of bundled module ``name``."""
        found = self.entries.get(name)
        if found is None:
            found = self.entries[name] = _marshal.loads(self.index[name])
        return found

    def find_spec(
        self, name: str, path: object = None, target: object = None
    ) -> "ModuleSpec | None":
        if name not in self.index:
            return None
        try:
            entry = self.entry(name)
            rel, mtime_ns, size, is_package = entry[:4]
            origin = source_path(self.package, rel)
            st = _stat(origin)
        except (OSError, TypeError, ValueError, EOFError):
            return None
        if st.st_mtime_ns != mtime_ns or st.st_size != size:
            return None
        if entry[4] == EXTENSION:  # its shared library, found without a directory listing
            spec = _ModuleSpec(name, _external.ExtensionFileLoader(name, origin), origin=origin)
            spec.has_location = True
            return spec
        spec = _ModuleSpec(name, self, origin=origin, is_package=is_package)  # type: ignore[arg-type]
        spec.has_location = True
        if is_package:
            spec.submodule_search_locations = [origin.rpartition("/")[0]]
        return spec

    def create_module(self, spec: "ModuleSpec") -> None:
        return None

    def exec_module(self, module: "ModuleType") -> None:
        name = module.__name__
        entry = self.entry(name)
        self.pending.add(name)
        try:
            for i, dep in enumerate(entry[6]):
                if dep not in sys.modules:
                    self._load(dep, name if i < entry[7] else None)
        finally:
            self.pending.discard(name)
        try:
            code = _marshal.loads(_os.pread(self.fd, entry[5], self.base + entry[4]))
        except Exception:
            code = None
        if type(code) is not _CodeType:  # a damaged bundle: the module's own file
            code = _external.SourceFileLoader(name, module.__file__).get_code(name)
        exec(code, module.__dict__)

    def _load(self, name: str, starting: "str | None") -> None:
        """Import ``name`` without the import machinery, or leave it to a normal import.

        ``starting``: the module whose leading imports name it, which has not run yet.
        """
        parent, _, child = name.rpartition(".")
        if parent and (
            parent not in sys.modules or (parent in self.pending and parent != starting)
        ):
            return
        if self.entry(name)[4] == EXTENSION:  # the import statement loads its library
            return
        spec = self.find_spec(name)
        if spec is None:
            return
        module = _ModuleType(name)
        module.__spec__ = spec
        module.__loader__ = self  # type: ignore[assignment]
        module.__file__ = spec.origin
        if spec.submodule_search_locations is not None:
            module.__path__ = spec.submodule_search_locations
            module.__package__ = name
        else:
            module.__package__ = parent
        sys.modules[name] = module
        try:
            self.exec_module(module)
        except BaseException as exc:
            # Never left half-run in sys.modules: after the hook's CPU alarm (an Overrun,
            # a BaseException) fires inside its body, the stop's own reply imports it again.
            sys.modules.pop(name, None)
            if not isinstance(exc, Exception):
                raise
            return  # the import statement that needs it will say why
        if parent:
            setattr(sys.modules[parent], child, module)


def install_bundle(package: str) -> bool:
    """Put the bundle of ``package`` first on ``sys.meta_path``; False when there is none
    usable for this interpreter (missing, another format, another Python, damaged)."""
    if any(isinstance(f, BundleFinder) and f.package == package for f in sys.meta_path):
        return True
    if not hasattr(_os, "pread"):
        return False
    try:
        fd = _os.open(bundle_path(package), _os.O_RDONLY)
    except OSError:
        return False
    found = read_index(fd)
    if found is None:  # a damaged file: the normal import still works
        _os.close(fd)
        return False
    sys.meta_path.insert(0, BundleFinder(package, fd, *found))
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
    # Run without -I, Python puts the script's directory (the package) first. The directory
    # holding dcg/ goes last: a module dropped there (site-packages/tomllib.py) must not
    # shadow the standard library the hook uses.
    path = [p for p in sys.path if p not in (package, root)]
    path.append(root)
    sys.path[:] = path
    install_bundle(package)
    from dcg.hook import main as hook_main

    return hook_main(sys.argv[1:])


# Built-in modules only (already loaded by the interpreter's own start): no file is read.
import marshal as _marshal  # noqa: E402

try:
    import posix as _os
except ImportError:  # Windows: os.pread is missing, so no bundle; stat and _exit are there
    import nt as _os  # type: ignore[no-redef]
_stat = _os.stat
_ModuleSpec = type(sys.__spec__)
_ModuleType = type(sys)
_CodeType = type(package_dir.__code__)
_external = sys.modules["_frozen_importlib_external"]
MAGIC: bytes = _external.MAGIC_NUMBER  # this interpreter's bytecode magic number


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
    _os._exit(code)


if __name__ == "__main__":
    finish(main())
