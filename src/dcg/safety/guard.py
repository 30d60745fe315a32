"""Self-protection of the safety net's refs: what deletes or rewrites ``refs/dcg/*``.

The snapshot store itself lies in dcg's config directory and is guarded with the rest of
its state (``core.dcg:write-state``). Snapshots inside a repository are refs under
``refs/dcg/``; they are real refs, not reflog entries, so neither ``git reflog expire``
nor ``git gc`` drops them. What can: ``git update-ref`` naming them (``-d``, or a new
value), ``update-ref --stdin`` fed a deletion (or fed by a pipe or file whose content is
only known when it runs), and writes to the ref files themselves (``.git/refs/dcg``,
``.git/refs`` as a whole, ``packed-refs``). Checked by the ``core.dcg:snapshot-refs``
rule on every parsed command.
"""

from __future__ import annotations

from dcg.oslite import path as posixpath

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.shell.command import Command

PREFIX = "refs/dcg"
_GLOB = frozenset("*?[")


def _names_ours(word: str) -> bool:
    w = word.strip()
    return w.startswith(PREFIX) or (any(c in _GLOB for c in w) and _could_match(w))


def _could_match(pattern: str) -> bool:
    from fnmatch import fnmatchcase

    return fnmatchcase("refs/dcg/x/tree", pattern) or fnmatchcase("refs/dcg", pattern)


def _update_ref(command: Command) -> bool:
    argv = command.argv
    ops = [a for a in argv[2:] if not a.startswith("-")]
    if any(_names_ours(a) for a in ops):
        return True
    if "--stdin" in argv:
        stdin = command.stdin
        if stdin is None:
            return True  # fed by a pipe or a file: what it deletes is only known then
        return PREFIX in stdin
    # `… | xargs git update-ref -d`: the refs come from its input.
    return (
        "-d" in argv
        and not ops
        and any(v.split(" ")[0] in ("xargs", "parallel") for v in command.via)
    )


def _match(pattern: str, name: str) -> bool:
    """``name`` matched by one path component (a glob only costs ``fnmatch`` when it is one)."""
    if not _GLOB.intersection(pattern):
        return pattern == name
    from fnmatch import fnmatchcase

    return fnmatchcase(name, pattern)


def _parts_touch(parts: list[str], removal: bool, is_git_dir: object) -> bool:
    for i in range(len(parts) - 1):
        if _match(parts[i], "refs") and _match(parts[i + 1], "dcg"):
            return True
    if not parts:
        return False
    last = parts[-1]
    parent = "/" + "/".join(parts[:-1])
    assert callable(is_git_dir)
    if _match(last, "packed-refs") and is_git_dir(parent):
        return True
    return removal and _match(last, "refs") and bool(is_git_dir(parent))


def _is_git_dir(path: str) -> bool:
    if posixpath.basename(path) == ".git":
        return True
    return posixpath.isfile(posixpath.join(path, "HEAD")) and posixpath.isdir(
        posixpath.join(path, "refs")
    )


def touches_snapshots(command: Command, cwd: str) -> bool:
    """Rule check: ``command`` deletes or rewrites the safety net's refs."""
    argv = command.argv
    if argv[:1] == ("git",) and argv[1:2] == ("update-ref",):
        return _update_ref(command)
    from dcg.selfpaths import effective_cwd, normalise
    from dcg.writes import targets

    found = targets(command)
    if not found:
        return False
    here = effective_cwd(command, cwd or None) or "/"
    for word, how in found:
        for path in _expanded(normalise(word, here)):
            if _parts_touch([p for p in path.split("/") if p], bool(how), _is_git_dir):
                return True
    return False


def _expanded(path: str) -> list[str]:
    """The paths a glob target names, as bash expands it: the ones that exist.

    A pattern no file matches is passed on literally and deletes nothing of ours, so
    ``rm -rf node_modules/*/*`` is judged by what it reaches, not by whether ``*/*``
    could spell ``refs/dcg`` somewhere.
    """
    if not _GLOB.intersection(path):
        return [path]
    from glob import glob

    return glob(path)
