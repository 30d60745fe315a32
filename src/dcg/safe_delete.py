"""The core deletion checks: targets outside temp, regenerable output and what git ignores.

Called by the core deletion rules' checks, that is only after a pattern matched. Names
are judged on normalised paths; symlinks are resolved first, so a link in /tmp that
points into the project is not temp. Git is asked (bounded, see :mod:`dcg.gitinfo`)
whether the rest is ignored and whether build output holds tracked files; no answer
keeps a target unsafe, and a target that does not exist is judged like one that does.
"""

from __future__ import annotations

from dcg import gitinfo, regenerable
from dcg import oslite as os
from dcg.findexpr import selects_only_regenerable
from dcg.movedwork import moved_in
from dcg.oslite import path as posixpath
from dcg.shell.command import Command
from dcg.targets import (
    FEEDERS,
    find_deletes,
    find_roots,
    home,
    is_critical,
    is_temp,
    resolve,
    rm_operands,
    rm_recursive,
    targets,
    temp_roots,
)

TYPE_CHECKING = False  # typing costs ms at start-up; type checkers treat this as True
if TYPE_CHECKING:
    from collections.abc import Sequence


def _inside(path: str, base: str) -> bool:
    return path.startswith(base.rstrip("/") + "/")


def in_user_cache(path: str) -> bool:
    """Strictly inside one of the user's tool cache directories."""
    h = posixpath.normpath(home())
    for cache in regenerable.HOME_CACHES:
        base = posixpath.join(h, cache)
        if _inside(path, base) or (path == base and cache not in regenerable.SHARED_CACHE_ROOTS):
            return True
    xdg = posixpath.normpath(os.environ.get("XDG_CACHE_HOME") or "/")
    # XDG_CACHE_HOME=/ or =$HOME must not make everything a cache.
    return xdg.startswith("/") and not is_critical(xdg) and _inside(path, xdg)


def in_system_cache(path: str) -> bool:
    """A system package manager's cache or index (:data:`regenerable.SYSTEM_CACHES`)."""
    return any(path == c or _inside(path, c) for c in regenerable.SYSTEM_CACHES)


def _lexically_safe(path: str, cwd: str) -> tuple[bool, str | None]:
    """``(safe, project root)``: temp, a cache, or build output inside the project."""
    if is_temp(path) or in_user_cache(path) or in_system_cache(path):
        return True, None
    root = project_of(path, cwd)
    if (
        root is not None
        and path != root
        and regenerable.under_regenerable(posixpath.relpath(path, root))
    ):
        return True, root
    return False, None


def all_safe(paths: Sequence[str], cwd: str) -> bool:
    """Every path may be deleted without losing work (see the module docstring)."""
    regen: dict[str, list[str]] = {}
    rest: list[str] = []
    for path in paths:
        safe, root = _lexically_safe(path, cwd)
        real = os.path.realpath(path)
        if safe and real != path and not _lexically_safe(real, cwd)[0]:
            safe = False  # a symlink out of temp or build output
        if safe:
            if root is not None:
                regen.setdefault(root, []).append(path)
        else:
            rest.append(path)
    ignored_by_root: dict[str, list[str]] = {}
    for path in rest:
        root = gitinfo.work_tree(_existing_parent(path))
        if root is None or is_critical(root) or not _inside(path, root):
            return False
        if os.path.exists(os.path.join(path, ".git")):
            return False  # a repository of its own, with its own uncommitted work
        ignored_by_root.setdefault(root, []).append(path)
    for root, group in ignored_by_root.items():
        hits = gitinfo.ignored(root, group)
        if hits is None or len(hits) != len(group):
            return False
        regen.setdefault(root, []).extend(group)
    # Build output or ignored paths that hold tracked files are not only output.
    for root, group in regen.items():
        in_tree = [p for p in group if _inside(p, root) and gitinfo.work_tree(root) == root]
        if in_tree and (gitinfo.tracked_under(root, in_tree) or moved_in(root, in_tree)):
            return False
    return True


def _existing_parent(path: str) -> str:
    while not os.path.exists(path) and posixpath.dirname(path) != path:
        path = posixpath.dirname(path)
    return path


def project_of(path: str, cwd: str) -> str | None:
    """The project a path belongs to: the enclosing git work tree of cwd, else cwd.

    None when that is the home directory, a system directory, or does not contain ``path``.
    """
    base = posixpath.normpath(cwd or os.getcwd())
    root = gitinfo.work_tree(base) or base
    if is_critical(root):  # a dotfiles repository in the home directory is no project
        root = base
    if is_critical(root) or not (path == root or path.startswith(root.rstrip("/") + "/")):
        return None
    return root


def any_outside_temp(command: Command, cwd: str) -> bool:
    """Rule check: at least one target lies (or may lie) outside what is safe to delete.

    Safe: inside a temp directory (after resolving symlinks), well-known build or cache
    output (:mod:`dcg.regenerable`), or what the enclosing git repository ignores. A
    target that is only a variable the line never set (``"$d"``) is unknown and counts
    as outside; so does an rm whose operands come from ``xargs``/``parallel``/``find``.
    """
    argv = command.argv
    words = targets(argv)
    if not words and argv and argv[0] != "find":
        return _fed_by_other_than_find(command.via)
    paths: list[str] = []
    for word in words:
        path = resolve(word, cwd)
        if path is None:
            if "$" in word:
                return True
        elif _partial_glob(word) and not _guess_excused(word, path, cwd):
            return True  # `build*` may match build-scripts/
        elif _one_entry(word, path):
            continue  # `rm -rf pkg.lock`: one file or link goes, as with `rm -f`
        else:
            paths.append(path)
            paths.extend(_followed(word, cwd))
    return not all_safe(paths, cwd)


def _followed(word: str, cwd: str) -> list[str]:
    """What a glob reaches through links: ``rm -rf node_modules/*/`` with a workspace link
    ``node_modules/app -> ../src`` empties src, and so does ``node_modules/*/*``. A glob
    component followed by ``/`` is resolved on disk, and each match counts as a target
    (``all_safe`` then judges where it really is); a last component (``node_modules/*``)
    removes the links themselves."""
    parts = word.split("/")
    if not any(c in p for p in parts[:-1] for c in "*?["):
        return []
    from glob import glob

    pattern = word if word.startswith("/") else posixpath.join(cwd, word)
    return [posixpath.normpath(m) for m in glob(pattern)[:_MAX_MATCHES]]


_MAX_MATCHES = 2000


def _guess_excused(word: str, path: str, cwd: str) -> bool:
    """A glob inside a name matches only what may go: it lies in temp or a system cache,
    its literal directory is a cache or build output (``dist/*.map``), or a literal
    component after the glob names output (``**/node_modules``, ``packages/*/dist/*.map``)."""
    if is_temp(path) or in_system_cache(path):
        return True
    parts = word.rstrip("/").split("/")
    k = next((i for i, p in enumerate(parts) if any(c in p for c in "*?[")), len(parts))
    prefix = resolve("/".join(parts[:k]) or ("/" if word.startswith("/") else "."), cwd)
    if prefix is None or ".." in parts[k:]:
        return False
    if _lexically_safe(prefix, cwd)[0]:
        return True
    literal = [p for p in parts[k + 1 :] if not any(c in p for c in "*?[")]
    return project_of(prefix, cwd) is not None and any(
        map(regenerable.is_regenerable_name, literal)
    )


def _one_entry(word: str, path: str) -> bool:
    """The word names one existing entry that is no directory (a file, or a link that rm
    removes itself, unless it leads to a directory): -r changes nothing, and a single
    file's deletion is not stopped (issue 32's line). A critical path never passes; what
    an earlier ``mv``/``ln`` on the line put there is judged too (the walker state's
    ``moved`` table)."""
    if word.endswith("/") or any(c in word for c in "*?[") or is_critical(path):
        return False
    return os.path.lexists(path) and not os.path.isdir(path)


def _fed_by_other_than_find(via: Sequence[str]) -> bool:
    """rm's operands come from xargs, parallel or find at run time: the innermost feeder
    decides. Fed by find (``-exec rm -rf {} +``, ``find … | xargs rm``), the find is
    judged instead as ``find … -delete`` (its starting points and expression); fed by
    anything else, the names are unknown."""
    for v in reversed(via):
        if v.split(" ")[0] in FEEDERS:
            return not (v.startswith("find -") or "< find" in v)
    return False


def _partial_glob(word: str) -> bool:
    """A glob inside a name (``build*``, ``dist?``), not a whole ``dir/*`` component."""
    return any(
        c in part
        for part in word.split("/")
        if part not in ("*", ".*") and not regenerable.is_output_glob(part)
        for c in "*?["
    )


def find_delete_outside_temp(command: Command, cwd: str) -> bool:
    """Rule check for find: it deletes and a starting point lies outside temp.

    Unlike rm, find deletes only what it finds below its starting points, so starting at
    a temp directory itself (`find /tmp -mtime +3 -delete`) stays inside temp.
    """
    if not find_deletes(command.argv):
        return False
    roots = temp_roots()
    paths: list[str] = []
    follow = any(a in ("-H", "-L", "-follow") for a in command.argv)
    for word in find_roots(command.argv):
        path = resolve(word, cwd)
        if path is None:
            return True
        if follow or word.endswith("/"):  # find starts below where a linked root leads
            path = os.path.realpath(path)
        if not (is_temp(path) or path in roots):
            paths.append(path)
    if not paths:
        return False
    if any(a in ("-L", "-follow") for a in command.argv):
        linked = _links_below(paths)
        if linked is None:
            return True  # too large a tree to know where its links lead
        paths.extend(linked)
    from dcg.shell.moves import HOLDS_MOVED

    # `-delete` itself removes files and empty directories: leftovers by their extension
    # (`-name '*.orig'`) are litter, as `rm src/*.orig` is; `-exec rm -rf` is not judged so.
    plain = not any(a in _EXEC_WORDS for a in command.argv) and "find feeding rm" not in command.via
    if (
        selects_only_regenerable(command.argv, litter=plain)
        and all(project_of(p, cwd) for p in paths)
        and HOLDS_MOVED not in command.via
    ):
        return False
    return not all_safe(paths, cwd)


_EXEC_WORDS = frozenset(("-exec", "-execdir", "-ok", "-okdir"))


def _links_below(roots: Sequence[str]) -> list[str] | None:
    """``find -L`` deletes through links: where the links to directories below ``roots``
    lead (None past a bound of entries read)."""
    found: list[str] = []
    budget = _MAX_MATCHES * 5
    stack = list(roots)
    while stack:
        base = stack.pop()
        try:
            with os.scandir(base) as it:
                for entry in it:
                    budget -= 1
                    if budget < 0:
                        return None
                    if entry.is_symlink():
                        if entry.is_dir():
                            found.append(os.path.realpath(entry.path))
                    elif entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
        except OSError:
            continue
    return found


def rimraf_outside_temp(command: Command, cwd: str) -> bool:
    """Rule check for rimraf and the other Node deleters, however they are launched."""
    from dcg.shell.deleters import node_deleter_operands

    operands = node_deleter_operands(command.argv)
    if not operands or any(a in ("-d", "--dry-run") for a in command.argv):
        return False
    return any_outside_temp(Command(("rm", *operands), via=command.via), cwd)


def recursive_outside_temp(command: Command, cwd: str) -> bool:
    """Rule check for rm: recursive, and a target lies outside temp.

    Forced or not: an agent's shell has no terminal, so rm never asks (not even for
    write-protected files) and ``rm -r`` deletes exactly what ``rm -rf`` deletes.
    """
    return rm_recursive(rm_operands(command.argv)[0]) and any_outside_temp(command, cwd)


def _whole_dir_glob(word: str) -> bool:
    """``*``, ``dir/*``, ``.*``, ``*.*``, ``?*``: every file of a directory, not a name."""
    last = word.rstrip("/").rpartition("/")[2]
    return bool(last) and any(c in last for c in "*?") and all(c in "*?." for c in last)


def rm_files_outside_temp(command: Command, cwd: str) -> bool:
    """Rule check for rm without -r: a whole-directory glob (``rm -f *``) or a glob of two
    or more files (``rm src/*.py``) outside what is safe to delete, or operands fed by
    xargs/parallel from something other than find (whose own expression is judged as
    ``find -delete``)."""
    argv = command.argv
    opts, operands = rm_operands(argv)
    if rm_recursive(opts):
        return False
    if not operands or any(w.endswith(("$(…)", "`…`")) for w in operands):  # names fed at run time
        return any(
            v.split(" ")[0] in ("xargs", "parallel") and "< find" not in v for v in command.via
        ) or bool(operands)
    globs = [w for w in operands if _whole_dir_glob(w)]
    if globs and any_outside_temp(Command(("rm", *globs), via=command.via), cwd):
        return True
    return any(_glob_of_files(w, cwd) for w in operands if w not in globs)


def _glob_of_files(word: str, cwd: str) -> bool:
    """``rm src/*.py``: a glob of two or more files (on disk; any, without a cwd to look
    in) outside what is safe to delete, leftovers aside. Many files by pattern are a tree
    in effect; one named file is the safety net's (it keeps a copy)."""
    from dcg.shell.expand import disk_matches, has_glob

    path = (resolve(word + "/\x01", cwd) or "").removesuffix("/\x01")  # `src/f*` stays
    extglob = any(op in word for op in ("!(", "@(", "+(", "*(", "?("))  # `src/!(main.py)`
    last = path.rpartition("/")[2]
    if not last or not (extglob or has_glob(word)) or regenerable.is_litter_glob(last):
        return False
    if extglob or "$" in path or "`" in path or "**" in path or not os.path.isdir(cwd):
        return True  # a directory only known when it runs, a whole tree, bash's extglob
    matches = disk_matches(path)
    return len(matches) >= 2 and not all_safe(matches, cwd)


# shred's and truncate's options that take a value as the next word.
_SHRED_VALUES = ("-n", "-s", "--iterations", "--size", "--random-source")
_TRUNCATE_VALUES = ("-s", "--size", "-r", "--reference")


def _operands(argv: tuple[str, ...], values: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    it = iter(argv[1:])
    for arg in it:
        if arg == "--":
            out.extend(it)
        elif arg in values:
            next(it, None)
        elif not arg.startswith("-") or arg == "-":
            out.append(arg)
    return out


def _files_outside_temp(operands: list[str], command: Command, cwd: str) -> bool:
    if not operands:
        return False
    paths: list[str] = []
    for word in operands:
        path = resolve(word, cwd)
        if path is None:
            return True
        paths.append(path)
    return any(is_critical(p) for p in paths) or not all_safe(paths, cwd)


def shred_outside_temp(command: Command, cwd: str) -> bool:
    """Rule check for shred: a file it overwrites lies outside temp and build output."""
    operands = [w for w in _operands(command.argv, _SHRED_VALUES) if not w.startswith("/dev/")]
    return _files_outside_temp(operands, command, cwd)


def _shrinks(size: str) -> bool:
    """truncate's SIZE empties or shrinks a file: ``0``, ``-N``, ``<N``, ``/N``."""
    if size[:1] in "-</":
        return True
    digits = size.rstrip("KMGTPEZYkmgtpezyBbi")
    return digits.isdigit() and int(digits) == 0


def truncate_outside_temp(command: Command, cwd: str) -> bool:
    """Rule check for truncate: it empties or shrinks a file outside temp, or sizes one
    by another (``-r``), and the file lies outside temp and build output."""
    argv = command.argv
    shrink = False
    for k, arg in enumerate(argv[1:], 1):
        size = None
        if arg in ("-s", "--size") and k + 1 < len(argv):
            size = argv[k + 1]
        elif arg.startswith("--size="):
            size = arg[7:]
        elif arg.startswith("-s") and len(arg) > 2:
            size = arg[2:]
        elif arg in ("-r", "--reference") or arg.startswith("--reference="):
            shrink = True
        if size is not None and _shrinks(size):
            shrink = True
    if shrink and not (operands := _operands(argv, _TRUNCATE_VALUES)):  # `… | xargs truncate`
        return any(v.split(" ")[0] in ("xargs", "parallel") for v in command.via)
    return shrink and _files_outside_temp(operands, command, cwd)
