"""Entry point: ``dcg hook`` (or bare ``dcg`` with piped stdin) runs the hook, else the CLI."""

from __future__ import annotations

import sys

# typing is not imported at run time: it costs more than the hook's whole budget.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


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


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    flags, rest = split_globals(args)
    if rest[:1] == ["hook"] or (not rest and _stdin_is_piped()):
        if argv is None:  # a process of its own (a launcher's `dcg hook`): use the bundle
            from dcg import _fast

            _fast.install_bundle(_fast.package_dir())
        from dcg.hook import main as hook_main

        return hook_main(flags + rest[1:])
    from dcg.cli import main as cli_main

    return cli_main(args)


def _stdin_is_piped() -> bool:
    try:
        return sys.stdin is not None and not sys.stdin.isatty()
    except (OSError, ValueError):
        return False


if __name__ == "__main__":
    sys.exit(main())
