"""Where a command's redirections send what it writes, descriptor by descriptor.

Bash applies redirections left to right: ``3>f >&3`` and ``2>f >&2`` send standard output
to ``f``, ``>&f`` is ``>f 2>&1``, ``1<>f`` opens ``f`` read-write as standard output and
``9>f >&9-`` moves descriptor 9 onto it. :func:`fd_writes` follows them so that
:mod:`dcg.shell.linefiles` knows which file gets the command's output.
"""

from __future__ import annotations

_OPENS = frozenset((">", ">|", ">>", "<>"))


def fd_writes(redirects: list[tuple[str, str]]) -> tuple[list[tuple[str, bool]], list[str]]:
    """The files a command's redirections open for writing, in bash's order: ``(file,
    append)`` for those its standard output reaches (``3>f >&3``, ``2>f >&2``, ``>&f``,
    ``1<>f``, ``9>f >&9-``), and the others (``2>f``: what goes there is not known)."""
    fds: dict[str, tuple[str, bool]] = {}
    opened: list[str] = []
    for op, target in redirects:
        if op in ("&>", "&>>"):
            if target:
                fds["1"] = fds["2"] = (target, op == "&>>")
                opened.append(target)
            continue
        base = op.lstrip("0123456789")
        fd = op[: len(op) - len(base)]
        if base in _OPENS and target:
            fds[fd or ("0" if base == "<>" else "1")] = (target, base == ">>")
            if base != "<>":  # `bash <> f` reads f: written only when output goes there
                opened.append(target)
        elif base in (">&", "<&"):
            fd = fd or ("1" if base == ">&" else "0")
            src = target[:-1] if target.endswith("-") else target
            if target == "-":
                fds.pop(fd, None)
            elif src.isdigit():
                if src in fds:
                    fds[fd] = fds[src]
                else:
                    fds.pop(fd, None)  # the terminal, or a descriptor opened before
                if target.endswith("-") and src != fd:
                    fds.pop(src, None)
            elif base == ">&" and op == ">&" and target:  # `>&f`: `>f 2>&1`
                fds["1"] = fds["2"] = (target, False)
                opened.append(target)
    out = [fds["1"]] if "1" in fds else []
    others = [t for t in dict.fromkeys(opened) if (not out or t != out[0][0]) and t[:5] != "/dev/"]
    return out, others
