"""Entry point: ``dcg hook`` (or bare ``dcg`` with piped stdin) runs the hook, else the CLI."""

from __future__ import annotations

import sys

from dcg.globalflags import split_globals

# typing is not imported at run time: it costs more than the hook's whole budget.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


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
