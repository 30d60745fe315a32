"""The value domain of embedded-code analysis: strings with placeholders, paths, lists.

An analysed expression evaluates to a ``str`` (possibly holding placeholders for an
environment variable or an unknown piece), a :class:`PathValue` (a string known to be
a path object, e.g. ``Path('x')``, whose ``.unlink()`` deletes), a ``list`` (argv, word
lists), a ``dict`` (an options object), a ``bool``, a :class:`Ref` (a module or function
that can be aliased), or ``None`` when nothing is known.
"""

from __future__ import annotations

from dcg.frozen import Frozen

# Placeholders are private-use characters; analyze() strips them from the input so the
# code under analysis cannot forge them.
ENV = "\ue000"  # starts an environment-variable reference; ENV_END closes it
ENV_END = "\ue001"
DYN = "\ue002"  # a piece of text whose value is not known statically
MARKERS = ENV + ENV_END + DYN


def env(name: str) -> str:
    return f"{ENV}{name}{ENV_END}"


HOME = env("HOME")
TMP = "/tmp"


class PathValue(str):
    """A string that came from a path constructor, so path methods apply to it."""

    __slots__ = ()


class Ref(Frozen):
    """A qualified name (module, function or unknown variable) not evaluated to data."""

    __slots__ = ("qual",)

    qual: str

    def __init__(self, qual: str) -> None:
        self._set("qual", qual)

    def __repr__(self) -> str:
        return f"Ref({self.qual!r})"


def text(v: object) -> str | None:
    """The string value of ``v``, or None when it is not a (partly) known string."""
    return v if isinstance(v, str) else None


def as_str(v: object) -> str:
    """``v`` as text for concatenation; unknown values become a DYN placeholder."""
    if isinstance(v, str):
        return v
    if isinstance(v, list):
        return " ".join(as_str(x) for x in v)
    return DYN


def concat(a: object, b: object) -> object:
    if isinstance(a, list) and isinstance(b, list):
        return a + b
    if a is None and b is None:
        return None
    return as_str(a) + as_str(b)


def flatten(items: list[object]) -> list[object]:
    out: list[object] = []
    for x in items:
        if isinstance(x, list):
            out.extend(flatten(x))
        else:
            out.append(x)
    return out


def join(parts: list[object]) -> str | None:
    """``os.path.join`` semantics over partly known parts (an absolute part restarts)."""
    if parts and all(not isinstance(p, str) for p in parts):
        return None
    out = ""
    for p in parts:
        s = as_str(p)
        if s in (".", "./") and out:
            continue
        if s.startswith(("/", ENV)) or not out:
            out = s
        elif out.endswith("/"):
            out += s
        else:
            out += "/" + s
    return out


def expanduser(v: object) -> object:
    s = text(v)
    if s is not None and (s == "~" or s.startswith("~/")):
        return HOME + s[1:]
    return v


def dirname(v: object) -> object:
    s = text(v)
    if s is None:
        return None
    s = s.rstrip("/") or s
    head, sep, _ = s.rpartition("/")
    if not sep:
        return "."
    return head or "/"


def percent(fmt: str, arg: object) -> str:
    """Python's ``fmt % arg`` for ``%s``-style conversions; unknown values become placeholders."""
    items = arg if isinstance(arg, list) else [arg]
    out, k, i = [], 0, 0
    while i < len(fmt):
        c = fmt[i]
        if c == "%" and i + 1 < len(fmt):
            d = fmt[i + 1]
            if d == "%":
                out.append("%")
            else:
                out.append(as_str(items[k]) if k < len(items) else DYN)
                k += 1
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def format_fields(fmt: str, args: list[object], kwargs: dict[str, object]) -> str:
    """``fmt.format(...)`` for plain ``{}``, ``{0}`` and ``{name}`` fields."""
    out: list[str] = []
    auto, i, n = 0, 0, len(fmt)
    while i < n:
        c = fmt[i]
        if c in "{}" and fmt.startswith(c * 2, i):
            out.append(c)
            i += 2
            continue
        if c == "{":
            end = fmt.find("}", i)
            end = n if end < 0 else end
            field = fmt[i + 1 : end]
            for stop in "!:.[":
                field = field.split(stop, 1)[0]
            if not field:
                v = args[auto] if auto < len(args) else None
                auto += 1
            elif field.isdigit():
                v = args[int(field)] if int(field) < len(args) else None
            else:
                v = kwargs.get(field)
            out.append(as_str(v))
            i = end + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)
