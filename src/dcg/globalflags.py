"""The draft's global flags (section 4.3) ahead of a subcommand, found without argparse.

A leaf: ``python -m dcg`` (:mod:`dcg.__main__`) and the CLI (:mod:`dcg.cli`) both use it
to hand ``dcg [GLOBAL FLAGS] hook ...`` to the hook, which parses them once itself.
"""

from __future__ import annotations

# The draft's global flags (section 4.3), which the hook also takes.
_VALUE_FLAGS = ("--mode", "--session-threshold", "--history-threshold")
_BOOL_FLAGS = ("--no-warnings", "--quiet")


def split_globals(args: list[str]) -> tuple[list[str], list[str]]:
    """Leading global flags (``dcg --mode=paranoid hook``) and the rest of the line."""
    i = 0
    while i < len(args):
        name, eq, _ = args[i].partition("=")
        if name in _VALUE_FLAGS:
            i += 1 if eq else 2
        elif args[i] in _BOOL_FLAGS:
            i += 1
        else:
            break
    return args[:i], args[i:]
