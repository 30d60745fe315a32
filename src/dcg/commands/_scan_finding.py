"""The value ``dcg scan`` reports: one destructive command written in a file."""

from __future__ import annotations

from typing import NamedTuple


class Finding(NamedTuple):
    """One destructive command written in a file."""

    path: str
    line: int
    column: int
    rule_id: str
    severity: str
    command: str
    segment: str
    reason: str
    explanation: str
    alternative: str
    source: str
    label: str
    fingerprint: str
