"""Well-known build and cache output: deleting it loses nothing a rebuild does not bring back.

Data only (decisions.md 10.7). A recursive delete passes when every target is such
output *inside the project* (the enclosing git work tree, else the cwd; never the home
directory or a system directory itself) or inside the user's cache directories. Names
are judged on the normalised path, so ``node_modules/../src`` is ``src``.
"""

from __future__ import annotations

# Directory (or file) names, per ecosystem. A path is regenerable when one of its
# components below the project root is one of these.
NAMES: dict[str, tuple[str, ...]] = {
    "js": ("node_modules", ".next", ".nuxt", ".svelte-kit", ".turbo", ".parcel-cache",
           ".vite", ".angular", ".expo", ".docusaurus", "storybook-static", ".nyc_output",
           "coverage", ".eslintcache", ".pnpm-store", "bower_components", "dist", "build",
           ".output"),
    "python": ("__pycache__", ".venv", "venv", ".tox", ".nox", ".pytest_cache", ".mypy_cache",
               ".ruff_cache", ".hypothesis", ".pytype", ".pyre", "htmlcov", ".eggs",
               ".coverage", "build", "dist"),
    "rust": ("target",),
    "go": ("_output",),
    "java": ("target", "build", ".gradle", "out"),
    "dotnet": ("obj", "TestResults"),
    "ruby": (".bundle", ".yardoc", "_site", ".sass-cache", ".jekyll-cache"),
    "elixir": ("_build", "deps", ".elixir_ls"),
    "ios": ("DerivedData", "Pods", ".build"),
    "c": ("CMakeFiles", "CMakeCache.txt", "builddir", "_build", ".ccls-cache"),
    "tools": (".cache", ".terraform", ".serverless", ".dart_tool", "elm-stuff", ".zig-cache",
              "zig-cache", "zig-out", ".stack-work", "dist-newstyle", ".direnv"),
}  # fmt: skip
# Name prefixes and suffixes: cmake-build-debug, foo.egg-info.
PREFIXES = ("cmake-build-",)
SUFFIXES = (".egg-info",)
# Multi-component outputs: vendor/bundle (Ruby), Carthage/Build (iOS), .yarn/cache.
SUBPATHS = ("vendor/bundle", "Carthage/Build", ".yarn/cache")

# Below the home directory: the user's tool caches (the whole cache, or anything inside
# it; for the shared roots in SHARED_CACHE_ROOTS only what is strictly inside).
HOME_CACHES = (
    ".cache",
    "Library/Caches",
    "Library/Developer/Xcode/DerivedData",
    ".npm/_cacache",
    ".yarn/berry/cache",
    ".cargo/registry",
    ".cargo/git",
    ".gradle/caches",
    ".m2/repository",
    "go/pkg/mod",
    ".nuget/packages",
    ".pub-cache",
    ".cocoapods/repos",
)

SHARED_CACHE_ROOTS = (".cache", "Library/Caches")

# The system package managers' caches and indexes, which a container build empties after
# installing (`rm -rf /var/lib/apt/lists/*`): the directory itself or anything inside it.
# The next `apt-get update`, `apk update`, `dnf makecache` fetches them again.
SYSTEM_CACHES = (
    "/var/lib/apt/lists",
    "/var/cache/apt",
    "/var/cache/apk",
    "/var/cache/yum",
    "/var/cache/dnf",
    "/var/cache/pacman/pkg",
    "/var/cache/zypp/packages",
    "/root/.cache",
)

# What `find … -name X -delete` may select and still be a routine cleanup.
FIND_NAMES = frozenset({"*.pyc", "*.pyo", "*.class", "*.o", ".DS_Store", "*.egg-info"})

ALL_NAMES = frozenset(n for names in NAMES.values() for n in names)


def is_regenerable_name(name: str) -> bool:
    return name in ALL_NAMES or name.startswith(PREFIXES) or name.endswith(SUFFIXES)


def under_regenerable(relpath: str) -> bool:
    """``relpath`` (relative to the project root, normalised) is or lies in build output."""
    parts = relpath.split("/")
    if any(is_regenerable_name(p) for p in parts if p not in ("", ".", "..")):
        return ".." not in parts
    rel = "/" + relpath + "/"
    return ".." not in parts and any(f"/{s}/" in rel for s in SUBPATHS)


def is_output_glob(part: str) -> bool:
    """A glob that only matches output names: ``*.egg-info``, ``cmake-build-*``."""
    if part.startswith("*") and part[1:] in SUFFIXES:
        return True
    return part.endswith("*") and part[:-1] in PREFIXES


# Extensions of what builds, test runs, editors and merges leave behind: a glob of these
# (`rm -f *.o`, `rm logs/*.log`, `rm *.orig *.rej`) clears litter, not work.
_LITTER = frozenset(
    (
        "o", "obj", "a", "so", "dylib", "dll", "lib", "exe", "pyc", "pyo", "pyd", "class",
        "log", "tmp", "temp", "bak", "old", "orig", "rej", "swp", "swo", "pid", "out", "gcda",
        "gcno", "gcov", "profraw", "lo", "la", "d", "map", "elc", "aux", "bbl", "blg", "toc",
        "fls", "fdb_latexmk", "synctex", "gz", "zip", "tgz", "whl", "deb", "rpm", "dmg",
    )
)  # fmt: skip


def is_litter_glob(last: str) -> bool:
    """A glob that names only leftovers by their extension (``*.o``, ``core.*`` is not)."""
    if last.endswith("~") or is_output_glob(last):
        return True
    stem, dot, ext = last.rpartition(".")
    return bool(dot and stem) and ext.lower() in _LITTER
