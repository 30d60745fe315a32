"""UTC timestamps in the fixed ``YYYY-MM-DDTHH:MM:SSZ`` form, and durations like ``24h``.

The fixed width makes timestamps comparable as strings (and as bytes inside a JSONL
line), which is what lets the hook count a history window without parsing JSON.
``datetime`` and ``time.strptime`` are avoided: the first is slow to import and the
second imports ``re``.
"""

from __future__ import annotations

import time

from dcg import oslite as os

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


def iso(t: float) -> str:
    """Format a POSIX time as ``2026-01-19T10:30:00Z``."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def _days_from_civil(y: int, m: int, d: int) -> int:
    # Howard Hinnant's algorithm: days since 1970-01-01 of a proleptic Gregorian date.
    y -= m <= 2
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def parse_iso(text: str) -> float:
    """Inverse of :func:`iso`; raise ValueError for anything else."""
    if len(text) != 20 or text[4] != "-" or text[10] != "T" or text[19] != "Z":
        raise ValueError(f"not a UTC timestamp: {text!r}")
    y, mo, d = int(text[0:4]), int(text[5:7]), int(text[8:10])
    h, mi, s = int(text[11:13]), int(text[14:16]), int(text[17:19])
    return float(_days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s)


def parse_duration(text: str) -> int:
    """``90s``, ``15m``, ``24h``, ``7d``, ``2w`` (or plain seconds) to seconds."""
    raw = text.strip().lower()
    if raw.isdigit():
        return int(raw)
    number, unit = raw[:-1], raw[-1:]
    if unit not in _UNITS or not number.isdigit() or int(number) <= 0:
        raise ValueError(f"not a duration: {text!r} (use e.g. 30m, 24h, 7d)")
    return int(number) * _UNITS[unit]


def format_duration(seconds: float) -> str:
    """The largest whole unit: 86400 -> ``24h``, 604800 -> ``7d``, 90 -> ``90s``."""
    secs = int(seconds)
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if secs >= size and secs % size == 0:
            if unit == "d" and secs == 86400:
                return "24h"
            return f"{secs // size}{unit}"
    return f"{secs}s"


# The kernel's boot id and its clock since boot (CLOCK_BOOTTIME, suspend included): no
# change of the wall clock moves it, so it orders and ages what one boot wrote.
_BOOT_ID = "/proc/sys/kernel/random/boot_id"
_UPTIME = "/proc/uptime"
_boot: list[str] = []


def _read(path: str) -> str:
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        return os.read(fd, 128).decode("ascii", "replace")
    finally:
        os.close(fd)


def since_boot(now: float) -> tuple[str, float] | None:
    """``(boot id, seconds since boot)`` at the wall-clock time ``now``, or None (no /proc).

    The reading is the system's clock since boot moved by ``now - time.time()``: at
    the present moment it is the real time since boot whatever the wall clock says
    (a clock days behind, then corrected, moves the wall clock, not this), and for a
    ``now`` in the past or future (tests, a window's start) it moves along with it.
    The boot id is shortened to 12 hex digits.
    """
    try:
        if not _boot:
            _boot.append(_read(_BOOT_ID).strip().replace("-", "")[:12])
        up = float(_read(_UPTIME).split()[0])
    except (OSError, ValueError, IndexError):
        return None
    if not _boot[0]:
        return None
    return _boot[0], round(up + (now - time.time()), 2)
