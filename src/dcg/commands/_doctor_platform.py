"""dcg's platform scope for ``dcg doctor``: POSIX systems only (README, Set-up).

The hook's stand-in for ``os`` (:mod:`dcg.oslite`) is the built-in ``posix`` module and
its state files are locked with ``fcntl``: neither exists elsewhere.
"""

from __future__ import annotations

import os


def problem() -> tuple[str, str] | None:
    """``(detail, fix)`` when this system is not POSIX, else None."""
    if os.name == "posix":
        return None
    detail = (
        "dcg supports POSIX systems only (the hook's fast path, dcg.oslite, is the built-in "
        f"posix module, and its state files are locked with fcntl); this one is {os.name!r}"
    )
    return detail, "run dcg under WSL"
