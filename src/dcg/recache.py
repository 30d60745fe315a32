"""Compiled regular expressions without importing ``re``: a per-interpreter cache of sre code.

``re.compile`` parses a pattern into ``_sre`` byte code in pure Python; the C engine
then only needs that code. The code of every pattern compiled once is kept in
``$XDG_CACHE_HOME/dcg/`` (marshal, keyed by pattern, one file per interpreter
version), so later hooks call ``_sre.compile`` directly. Anything unexpected (another
Python, a damaged file, ``_sre`` refusing the code) falls back to ``re``.
"""

from __future__ import annotations

import sys

from dcg import oslite as os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from re import Pattern
    from typing import Any

    # pattern -> (flags, code, groups, groupindex, indexgroup), as _sre.compile takes them
    Entry = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]

_cache: dict[str, Entry] | None = None
_added: dict[str, Entry] = {}


def cache_file() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    tag = sys.implementation.cache_tag or "unknown"
    return os.path.join(base, "dcg", f"sre-{tag}-{sys.hexversion:x}.marshal")


def _load() -> dict[str, Entry]:
    global _cache
    if _cache is None:
        _cache = {}
        try:
            import marshal

            # loads(read()), not load(f): load reads a file object item by item, which
            # made this 12 KB file cost 1-2 ms.
            with open(cache_file(), "rb") as f:
                data = marshal.loads(f.read())
            if isinstance(data, dict):
                _cache = data
        except (OSError, EOFError, ValueError, TypeError):
            pass
    return _cache


def _sre() -> Any:
    return __import__("_sre")


def compile(pattern: str) -> Pattern[str]:
    entry = _load().get(pattern)
    if entry is not None:
        try:
            rx: Pattern[str] = _sre().compile(pattern, *entry)
            return rx
        except Exception:  # a damaged or foreign entry: compile it properly below
            pass
    return _compile_with_re(pattern)


def _compile_with_re(pattern: str) -> Pattern[str]:
    import re

    rx = re.compile(pattern)
    try:
        # Private modules of re, named through __import__ as typeshed does not know them.
        _parser: Any = __import__("re._parser", fromlist=["parse"])
        _compiler: Any = __import__("re._compiler", fromlist=["_code"])
        parsed = _parser.parse(pattern, 0)
        code = [int(c) for c in _compiler._code(parsed, 0)]
        groupindex = dict(parsed.state.groupdict)
        indexgroup: list[str | None] = [None] * parsed.state.groups
        for name, index in groupindex.items():
            indexgroup[index] = name
        entry = (
            int(parsed.state.flags),
            code,
            parsed.state.groups - 1,
            groupindex,
            tuple(indexgroup),
        )
        if _sre().compile(pattern, *entry).pattern == rx.pattern:
            _added[pattern] = entry
    except Exception:  # private API changed: just do without the cache
        pass
    return rx


def save() -> None:
    """Write newly compiled patterns to the cache (atomically); never raises."""
    if not _added:
        return
    try:
        import marshal

        merged = dict(_load())
        merged.update(_added)
        path = cache_file()
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, marshal.dumps(merged))
        finally:
            os.close(fd)
        os.replace(tmp, path)
        _added.clear()
    except (OSError, ValueError):
        pass
