"""Entry point: ``dcg hook`` (or bare ``dcg`` with piped stdin) runs the hook, else the CLI."""

from __future__ import annotations

import sys

# typing is not imported at run time: it costs more than the hook's whole budget.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["hook"] or (not args and _stdin_is_piped()):
        from dcg.hook import main as hook_main

        return hook_main(args[1:])
    from dcg.cli import main as cli_main

    return cli_main(args)


def _stdin_is_piped() -> bool:
    try:
        return sys.stdin is not None and not sys.stdin.isatty()
    except (OSError, ValueError):
        return False


if __name__ == "__main__":
    sys.exit(main())
