"""The safety net: keep what a let-through command destroys, so that ``dcg undo`` brings it back.

Where the pieces are: :mod:`dcg.safety.plan` (what a matched rule or a file write can
destroy), :mod:`dcg.safety.keep` (the keep step the graduated response calls before it
lets a command run), :mod:`dcg.safety.gitsnap` and :mod:`dcg.safety.refsnap` (snapshots
inside a repository, under ``refs/dcg/``), :mod:`dcg.safety.filestore` (copies in dcg's
state directory), :mod:`dcg.safety.store` (snapshot manifests, listing, retention) and
:mod:`dcg.safety.restore` (``dcg undo``). Imported only after a rule matched or a
command writes a file that exists.
"""

from __future__ import annotations


class Unkept(Exception):
    """What a command destroys could not be kept; the message says why, for the texts."""


def dicts(value: object) -> list[dict[str, object]]:
    """The dicts of a manifest list (anything else read back from JSON is skipped)."""
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def strs(value: object) -> list[str]:
    """The strings of a manifest list."""
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
