"""The safety net's settings (``[safety_net]``): switch, size and time budgets, retention."""

from __future__ import annotations

from dcg.frozen import Frozen

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

DEFAULTS: dict[str, object] = {
    "enabled": True,
    "max_size": "200MB",
    "max_time": "2s",
    "keep": "7d",
}
_SIZE_UNITS = {"": 1, "b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
               "k": 10**3, "m": 10**6, "g": 10**9, "kib": 1 << 10, "mib": 1 << 20,
               "gib": 1 << 30}  # fmt: skip
_TIME_UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0}
_AGE_UNITS = {"": 1.0, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0, "w": 604800.0}


def _split(text: str) -> tuple[float, str] | None:
    t = text.strip().lower().replace(" ", "")
    i = 0
    while i < len(t) and (t[i].isdigit() or t[i] == "."):
        i += 1
    try:
        number = float(t[:i])
    except ValueError:
        return None
    return number, t[i:]


def parse_size(value: object) -> int:
    """``"200MB"``, ``"1.5GB"``, ``"512MiB"`` → bytes (decimal units, as ``du --si``)."""
    got = _split(str(value)) if isinstance(value, str) else None
    if got is None or got[1] not in _SIZE_UNITS or got[0] <= 0:
        raise ValueError(f"invalid size {value!r} (use e.g. 200MB, 1GB)")
    return int(got[0] * _SIZE_UNITS[got[1]])


def parse_time(value: object) -> float:
    """``"2s"``, ``"1500ms"``, ``"0.5s"`` → seconds."""
    got = _split(str(value)) if isinstance(value, str) else None
    if got is None or got[1] not in _TIME_UNITS or got[0] <= 0:
        raise ValueError(f"invalid time {value!r} (use e.g. 2s, 500ms)")
    return got[0] * _TIME_UNITS[got[1]]


def parse_age(value: object) -> float:
    """The retention: seconds, or ``"7d"``, ``"12h"``, ``"2w"``."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
        return float(value)
    got = _split(str(value)) if isinstance(value, str) else None
    if got is None or got[1] not in _AGE_UNITS or got[0] <= 0:
        raise ValueError(f"invalid duration {value!r} (use e.g. 7d, 12h)")
    return got[0] * _AGE_UNITS[got[1]]


def problem(key: str, value: object) -> str | None:
    """Why ``[safety_net] key = value`` cannot be used, or None (for the config checks)."""
    parse = {"max_size": parse_size, "max_time": parse_time}.get(key)
    if parse is None:
        return None
    try:
        parse(value)
    except ValueError as exc:
        return str(exc)
    return None


def format_size(n: int) -> str:
    """Bytes for people: ``300 MB``, ``12 kB``, ``5 bytes``."""
    for unit, size in (("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if n >= size:
            value = n / size
            return f"{value:.0f} {unit}" if value >= 10 else f"{value:.1f} {unit}"
    return f"{n} byte{'' if n == 1 else 's'}"


def format_time(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:g} s"


class Settings(Frozen):
    """The merged ``[safety_net]`` section, parsed: ``keep`` is the retention in seconds."""

    __slots__ = ("enabled", "keep", "max_size", "max_time")

    enabled: bool
    max_size: int
    max_time: float
    keep: float

    def __init__(self, enabled: bool, max_size: int, max_time: float, keep: float) -> None:
        self._set("enabled", enabled)
        self._set("max_size", max_size)
        self._set("max_time", max_time)
        self._set("keep", keep)


def from_config(section: Mapping[str, object] | None) -> Settings:
    """Settings from a config section (missing or unusable values take the defaults)."""
    s = dict(DEFAULTS)
    s.update(section or {})

    def pick(key: str, parse: object) -> float:
        assert callable(parse)
        try:
            return float(parse(s[key]))
        except (ValueError, TypeError):
            return float(parse(DEFAULTS[key]))

    return Settings(
        s.get("enabled") is not False,
        int(pick("max_size", parse_size)),
        pick("max_time", parse_time),
        pick("keep", parse_age),
    )
