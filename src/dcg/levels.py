"""Response levels and graduation modes as enums, for config validation and the CLI.

The hook itself works with the plain strings (``dcg.hookio.WARNING`` …) that these
enums carry as values, so it never imports ``enum``.
"""

from __future__ import annotations

from enum import StrEnum


class ResponseLevel(StrEnum):
    """How dcg answers a matched command, mildest first."""

    WARNING = "warning"
    SOFT_BLOCK = "soft_block"
    HARD_BLOCK = "hard_block"

    @property
    def rank(self) -> int:
        return LEVEL_RANK[self.value]

    @property
    def label(self) -> str:
        return self.value.upper()


class GraduationMode(StrEnum):
    """How quickly repeated matches escalate (decisions.md section 1)."""

    PARANOID = "paranoid"
    STRICT = "strict"
    STANDARD = "standard"
    LENIENT = "lenient"


LEVEL_RANK = {"warning": 0, "soft_block": 1, "hard_block": 2}
DEFAULT_MODE = GraduationMode.STANDARD


def parse_level(value: str) -> ResponseLevel:
    """A config value to a level; ValueError names the accepted values."""
    try:
        return ResponseLevel(value.strip().lower())
    except ValueError:
        names = ", ".join(level.value for level in ResponseLevel)
        raise ValueError(f"unknown response level {value!r} (use one of: {names})") from None


def parse_mode(value: str) -> GraduationMode:
    """A config value to a mode; ValueError names the accepted values."""
    try:
        return GraduationMode(value.strip().lower())
    except ValueError:
        names = ", ".join(mode.value for mode in GraduationMode)
        raise ValueError(f"unknown graduation mode {value!r} (use one of: {names})") from None
