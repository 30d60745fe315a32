"""JSON without importing ``json``: the hook path cannot afford ``re``.

``json.decoder`` and ``json.encoder`` import ``re`` at module level, which alone
costs more than half a bare interpreter start. CPython's C accelerator ``_json`` does
the real work without it; this module drives ``_json`` directly and falls back to
``json`` where the accelerator is missing.
"""

from __future__ import annotations

# typing is not imported at run time: it costs more than the hook's whole budget.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

try:
    import _json
except ImportError:  # pragma: no cover - non-CPython
    _json = None  # type: ignore[assignment]

_WS = " \t\n\r"


class JSONError(ValueError):
    """Raised for input that is not one JSON document."""


class JSONTooDeep(JSONError):
    """Raised for a document nested deeper than the decoder can follow."""


def _raise_constant(name: str) -> Any:
    raise JSONError(f"invalid constant {name}")


class _Context:
    # The attributes _json.make_scanner reads from a json.JSONDecoder.
    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = staticmethod(_raise_constant)
    memo: ClassVar[dict[str, str]] = {}


_scanner: Any = None


def raw_decode(text: str, i: int) -> tuple[Any, int]:
    """The JSON value starting at ``text[i]`` and the offset just after it (JSONError if none)."""
    global _scanner
    if _json is None:  # pragma: no cover
        import json

        try:
            value, end = json.JSONDecoder().raw_decode(text, i)
        except ValueError as exc:
            raise JSONError(str(exc)) from None
        return value, end
    if _scanner is None:
        _scanner = _json.make_scanner(_Context())  # type: ignore[arg-type]
    try:
        value, end = _scanner(text, i)
    except StopIteration as stop:
        raise JSONError(f"invalid JSON at offset {stop.value}") from None
    except (ValueError, RecursionError, SystemError) as exc:
        raise JSONError(str(exc) or "invalid JSON") from None
    finally:
        _Context.memo.clear()
    return value, end


def loads(text: str) -> Any:
    """Parse one JSON document; raise JSONError for anything else."""
    global _scanner
    if _json is None:  # pragma: no cover
        import json

        try:
            return json.loads(text)
        except ValueError as exc:
            raise JSONError(str(exc)) from None
    if _scanner is None:
        # The scanner reads a json.JSONDecoder's attributes; _Context provides exactly those.
        _scanner = _json.make_scanner(_Context())  # type: ignore[arg-type]
    n = len(text)
    i = 0
    while i < n and text[i] in _WS:
        i += 1
    try:
        value, end = _scanner(text, i)
    except StopIteration as stop:
        raise JSONError(f"invalid JSON at offset {stop.value}") from None
    except RecursionError:
        raise JSONTooDeep("JSON nested too deeply to decode") from None
    except (ValueError, SystemError) as exc:
        # SystemError: CPython's scanner reports some truncated documents that way.
        raise JSONError(str(exc) or "invalid JSON") from None
    finally:
        _Context.memo.clear()
    while end < n and text[end] in _WS:
        end += 1
    if end != n:
        raise JSONError("extra data after JSON value")
    return value


def _encode_str(s: str) -> str:
    if _json is None:  # pragma: no cover
        import json

        return json.dumps(s)
    result: str = _json.encode_basestring_ascii(s)
    return result


def dumps(value: Any, indent: int | None = None, _level: int = 0) -> str:
    """Serialise dicts, lists, strings, numbers, booleans and None.

    Keys keep their insertion order; output is ASCII (non-ASCII is ``\\u`` escaped),
    so what the hook prints is byte-for-byte stable for golden tests.
    """
    if isinstance(value, str):
        return _encode_str(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, float):
        return repr(value)
    if indent is None:
        if isinstance(value, dict):
            return (
                "{" + ",".join(f"{_encode_str(str(k))}:{dumps(v)}" for k, v in value.items()) + "}"
            )
        if isinstance(value, (list, tuple)):
            return "[" + ",".join(dumps(v) for v in value) + "]"
    else:
        pad = "\n" + " " * (indent * (_level + 1))
        end = "\n" + " " * (indent * _level)
        if isinstance(value, dict):
            if not value:
                return "{}"
            items = (
                f"{_encode_str(str(k))}: {dumps(v, indent, _level + 1)}" for k, v in value.items()
            )
            return "{" + pad + ("," + pad).join(items) + end + "}"
        if isinstance(value, (list, tuple)):
            if not value:
                return "[]"
            return (
                "["
                + pad
                + ("," + pad).join(dumps(v, indent, _level + 1) for v in value)
                + end
                + "]"
            )
    raise TypeError(f"cannot serialise {type(value).__name__}")


def record(raw: bytes, key: str) -> dict[str, Any] | None:
    """One line of a JSON-lines state file as a record: an object whose ``key`` is a
    string; None for a blank line, a torn fragment or garbage."""
    if not raw.strip():
        return None
    try:
        rec = loads(raw.decode())
    except (ValueError, UnicodeDecodeError):
        return None
    return rec if isinstance(rec, dict) and isinstance(rec.get(key), str) else None
