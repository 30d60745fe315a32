"""What a recursive copy into the home directory (or ``/``) plants there.

``cp -r evil/.config ~/``, ``cp -a evil/. ~``, ``rsync -a evil/ ~/``: the destination is
as wide as HOME, so it is not judged by itself (every write would be); what lands in it is
the source tree's content, each file at its place below the destination. That content is
read from disk (bounded) and from what earlier commands of the line wrote below the
source, and each landing path is judged like a written file (:mod:`dcg.selfguard`):
an allowlist or a hooks file planted this way is dcg's state or an agent's settings.
"""

from __future__ import annotations

from dcg import oslite as os
from dcg.oslite import path as posixpath
from dcg.shell.limits import cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from dcg.selfline import Line
    from dcg.shell.command import Command

# What the line's commands write, per line (emptied for each line: dcg.shell.limits).
_MADE: dict[tuple[int, str], list[str]] = cache()
# Entries of a source tree read before the copy is judged as unknown content.
MAX_ENTRIES = 5000
_COPIERS = frozenset(("cp", "rsync", "gcp"))


def reach(
    command: Command, where: str, line: Line | None, judge: Callable[[str], str | None]
) -> str | None:
    """The kind (``"state"``, ``"hooks"``…) of the first protected path, as ``judge``
    sees it, that a recursive copy run in ``where`` plants below its destination; what
    earlier commands of the ``line`` wrote below a source counts. None: nothing."""
    argv = command.argv
    if not argv or argv[0] not in _COPIERS:
        return None
    from dcg.selfpaths import effective_cwd, normalise
    from dcg.writes import copy_operands, targets
    from dcg.writes._opts import given, values

    opts, ops = copy_operands(argv)
    if argv[0] != "rsync" and not given(opts, "-r", "-R", "-a", "--recursive", "--archive"):
        return None
    dirs = values(opts, "-t", "--target-directory")
    sources, dest = (ops, dirs[-1]) if dirs else (ops[:-1], ops[-1] if ops else "")
    if not sources:
        return None
    into = normalise(dest, where).rstrip("/") or "/"
    # Into an existing directory (or `-t`) the copy lands inside it, else it becomes it.
    whole = given(opts, "-T", "--no-target-directory") or not (dirs or os.path.isdir(into))
    key = (id(line), where)
    made = _MADE.get(key)
    if made is None:  # once per line: a build script copies hundreds of times
        made = _MADE[key] = [
            normalise(p, effective_cwd(c, where) or where)
            for c in (line.commands if line else ())
            for p, _ in targets(c)
        ]
    for word in sources:
        src = normalise(word, where).rstrip("/") or "/"
        # `SRC/.`, rsync's `SRC/` and `cp -T` copy the content; else the directory itself.
        content = whole or word.endswith("/.") or (argv[0] == "rsync" and word.endswith("/"))
        base = into if content else posixpath.join(into, posixpath.basename(src))
        kind = judge(base)
        if kind is not None:
            return kind
        for rel in (*_tree(src), *(p[len(src) + 1 :] for p in made if p.startswith(src + "/"))):
            if rel is None:
                return "state"  # too large a tree to know what it plants
            if not _suspect(rel):
                continue
            kind = judge(posixpath.join(base, rel))
            if kind is not None:
                return kind
    return None


# Names in the paths dcg protects (its state, system policy): a copied path with none of
# them, no dot-directory and no component that starts as an agent's hook files do, is not
# judged one by one.
_NAMES = ("dcg", "hooks", "settings", "config")


def _agent_starts() -> tuple[str, ...]:
    """Lower-case starts of a component every agent hook file has (dcg.agents: the name
    after any generic parent, ``Documents/Cline/Hooks`` -> ``cline``; a system file's own
    name), so that ``~/opencode.json`` or ``~/Documents/Cline/Hooks/`` is judged."""
    if not _starts:
        from dcg.agents import keyword_dirs, protected_files

        bare, carried = keyword_dirs()
        system = [p.rstrip("/").rpartition("/")[2].lower() for p in protected_files()[1]]
        _starts.append(tuple(dict.fromkeys((*bare, *carried, *system))))
    return _starts[0]


_starts: list[tuple[str, ...]] = []


def _suspect(rel: str) -> bool:
    starts = _agent_starts()
    return any(
        p.startswith(".") or any(n in p for n in _NAMES) or p.lower().startswith(starts)
        for p in rel.split("/")
    )


def _tree(root: str) -> list[str | None]:
    """Paths below ``root`` relative to it (directories too); None last past the bound."""
    out: list[str | None] = []
    stack = [root]
    while stack:
        base = stack.pop()
        try:
            with os.scandir(base) as it:
                for entry in it:
                    if len(out) >= MAX_ENTRIES:
                        return [*out, None]
                    out.append(entry.path[len(root) + 1 :])
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
        except OSError:
            continue
    return out


# Lines of a diff that name the file it changes (`+++ b/x`, `diff --git a/x b/x`, renames).
_HEADS = ("+++ ", "--- ", "diff --git ", "rename to ", "copy to ", "*** ")
MAX_PATCH = 1 << 20


def patched(
    command: Command, where: str, into: str, judge: Callable[[str], str | None], wide: bool
) -> str | None:
    """``cd ~ && patch -p1 < p.diff``, ``git apply p.diff`` in HOME: the files the diff
    names, at every strip level (``-p``), are judged like written files; a diff read from
    a pipe or a file that cannot be read into a ``wide`` directory (HOME, ``/``) plants
    what dcg cannot see (``"state"``); elsewhere the other rules judge it."""
    argv = command.argv
    if argv[:1] == ("git",):
        if "apply" not in argv[1:3] and "am" not in argv[1:3]:
            return None
        sub = argv.index("apply") if "apply" in argv[1:3] else argv.index("am")
        files = [a for a in argv[sub + 1 :] if not a.startswith("-")]
    elif argv[:1] == ("patch",):
        from dcg.writes._opts import values

        opts = [(a, argv[k + 1] if k + 1 < len(argv) else None) for k, a in enumerate(argv)]
        files = values(opts, "-i", "--input") or [a[8:] for a in argv if a.startswith("--input=")]
    else:
        return None
    files += [t for op, t in command.redirects if op in ("<", "0<")]
    texts = [command.stdin] if command.stdin is not None and not files else []
    from dcg.selfpaths import normalise

    for name in files:
        try:
            with open(normalise(name, where), encoding="utf-8", errors="replace") as f:
                texts.append(f.read(MAX_PATCH))
        except OSError:
            return "state" if wide else None
    if not texts:
        return "state" if wide else None  # `curl … | patch -p1 -d ~`: a diff dcg cannot see
    for text in texts:
        for line in text.splitlines():
            if not line.startswith(_HEADS):
                continue
            for word in line.split()[1:]:
                steps = word.strip('"').split("/")
                for k in range(len(steps)):
                    kind = judge(posixpath.join(into, *steps[k:]))
                    if kind is not None:
                        return kind
    return None
