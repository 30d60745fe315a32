"""Pure helper calls of embedded code (``os.path.join``, ``Dir.home``, ``shlex.quote``…) as values.

Each language spec maps its helper names to a kind (``helpers=``); :func:`helper`
evaluates the call on the analysed argument values, so a path built by helpers is known
when a deletion uses it.
"""

from __future__ import annotations

from dcg.embedded.render import argv_line, word
from dcg.embedded.values import (
    DYN,
    HOME,
    TMP,
    PathValue,
    Ref,
    as_str,
    dirname,
    env,
    expanduser,
    flatten,
    join,
    text,
)


def helper(kind: str, args: list[object], kwargs: dict[str, object]) -> object:
    """Evaluate a pure path/environment helper call (``os.path.join``, ``Dir.home``…)."""
    first = args[0] if args else kwargs.get("path")
    if kind == "join":
        return join(flatten(args))
    if kind == "path":
        return PathValue(join(flatten(args)) or ".") if args else PathValue(".")
    if kind == "expanduser":
        return expanduser(first)
    if kind == "expand_path":  # Ruby File.expand_path(p, dir)
        if len(args) > 1 and not (text(first) or "").startswith(("/", "~")):
            return join([args[1], first])
        return expanduser(first)
    if kind == "home":
        return HOME
    if kind == "cwd":
        return "."
    if kind == "tmp":
        return TMP
    if kind == "mktemp":
        # A fresh directory under the temp dir (or under dir= when given).
        base = kwargs.get("dir")
        return (TMP if base is None else as_str(base)) + "/" + DYN
    if kind == "mktemp_prefix":  # fs.mkdtempSync(prefix): the prefix is a path
        return as_str(first) + DYN if args else TMP + "/" + DYN
    if kind == "env":
        name = text(first)
        return env(name) if name and name.isidentifier() else None
    if kind == "identity":
        return first
    if kind == "dirname":
        return dirname(first)
    if kind == "quote":
        s = text(first)
        return None if s is None else word(s)
    if kind == "shlex_join":
        return argv_line(first) if isinstance(first, list) else None
    if kind == "implode":  # implode(sep, list) / join(sep, list)
        if len(args) == 2 and isinstance(args[1], list):
            return as_str(args[0]).join(as_str(x) for x in args[1])
        return None
    if kind == "archive":  # zipfile.ZipFile(f): the object stands for its file
        return PathValue(as_str(first)) if first is not None else PathValue(DYN)
    if kind == "chr":  # chr(100): code points spelled as numbers
        n = text(first)
        return chr(int(n)) if n is not None and n.isdigit() and int(n) < 0x110000 else None
    if kind == "module":
        name = text(first)
        return Ref(name) if name and DYN not in name else None
    return None
