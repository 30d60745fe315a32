"""Command-line options as the programs read them: clusters, attached values, long prefixes."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

# (option as written canonically, its value or None) and the operands, in order.
Parsed = tuple[list[tuple[str, str | None]], list[str]]


def parse(
    argv: Sequence[str],
    short: str = "",
    long: Sequence[str] = (),
    start: int = 1,
    flags: Sequence[str] = (),
) -> Parsed:
    """The options and operands of ``argv[start:]`` the way getopt_long reads them.

    ``short`` lists the option letters that take a value (attached, ``-ofile``, or the next
    word); ``long`` the long options (with their dashes) that take one (``--out=f`` or
    ``--out f``). A long option may be abbreviated to any prefix, as GNU programs allow:
    it is read as the first of ``long`` and ``flags`` it begins, so a prefix of an option
    that writes counts as that option. Everything after ``--`` is an operand.
    """
    opts: list[tuple[str, str | None]] = []
    ops: list[str] = []
    i, n = start, len(argv)
    while i < n:
        a = argv[i]
        i += 1
        if a == "--":
            ops.extend(argv[i:])
            break
        if a.startswith("--") and len(a) > 2:
            name, eq, value = a.partition("=")
            full = _long(name, long, flags)
            if eq:
                opts.append((full, value))
            elif full in long and i < n:
                opts.append((full, argv[i]))
                i += 1
            else:
                opts.append((full, None))
        elif a.startswith("-") and len(a) > 1:
            for k in range(1, len(a)):
                ch = a[k]
                if ch in short:
                    if k + 1 < len(a):
                        opts.append(("-" + ch, a[k + 1 :]))
                    elif i < n:
                        opts.append(("-" + ch, argv[i]))
                        i += 1
                    else:
                        opts.append(("-" + ch, None))
                    break
                opts.append(("-" + ch, None))
        else:
            ops.append(a)
    return opts, ops


def _long(name: str, long: Sequence[str], flags: Sequence[str]) -> str:
    if name in long or name in flags:
        return name
    for known in (*long, *flags):
        if known.startswith(name):
            return known
    return name


def values(opts: list[tuple[str, str | None]], *names: str) -> list[str]:
    """The values given to any of ``names``."""
    return [v for k, v in opts if k in names and v is not None]


def given(opts: list[tuple[str, str | None]], *names: str) -> bool:
    return any(k in names for k, _ in opts)
