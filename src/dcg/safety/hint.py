"""Whether a parsed command may overwrite or delete a file: the silent keep's first gate.

Checked on every parsed line that matched nothing, before anything else of the safety
net is imported; only a command that passes it has its targets resolved and stat'ed
(:mod:`dcg.safety.overwrites`). A redirection that appends, duplicates a descriptor or
goes to ``/dev/null`` writes nothing that was there.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from dcg.shell.command import Command

# Programs that delete, rename over or overwrite their operands (dcg.writes.targets has
# the details); ":" is the interpreters' writes (open(p, "w") is ``: > p``).
WRITERS = frozenset(
    ("rm", "unlink", "mv", "cp", "ln", "tee", "sed", "gsed", "perl", "truncate", "shred",
     "srm", "dd", "install", "rsync", "patch", "curl", "wget", "trash", "gio")
)  # fmt: skip


def overwrite_redirect(op: str, target: str) -> bool:
    """``> f``, ``>| f``, ``&> f``, ``2> f``: not ``>>``, ``>&2``, ``> /dev/null``."""
    return (
        ">" in op
        and not op.endswith((">>", ">&"))
        and bool(target)
        and target[0] != "&"
        and target != "/dev/null"
    )


def may_overwrite(commands: Sequence[Command]) -> bool:
    for c in commands:
        if c.argv and (c.argv[0] in WRITERS or c.argv[:2] == ("git", "mv")):
            return True
        if any(overwrite_redirect(op, t) for op, t in c.redirects):
            return True
    return False
