"""``os.path`` for POSIX (``posixpath``), without importing ``os``: see :mod:`dcg.oslite`.

The same functions with the same results for ``str`` paths, including ``posixpath``'s
edge cases (a path of two leading slashes stays so, ``split("//")`` keeps its head,
``expanduser("~user")`` asks the password database, ``realpath`` gives up resolving at
a link loop and keeps what is missing as written).
"""

from __future__ import annotations

import posix
from _stat import S_ISDIR, S_ISLNK, S_ISREG

_fspath = posix.fspath
_normpath = getattr(posix, "_path_normpath", None)


def join(a: str, *p: str) -> str:
    path = _fspath(a)
    for b in map(_fspath, p):
        if b.startswith("/"):
            path = b
        elif not path or path.endswith("/"):
            path += b
        else:
            path += "/" + b
    return path


def split(p: str) -> tuple[str, str]:
    p = _fspath(p)
    i = p.rfind("/") + 1
    head, tail = p[:i], p[i:]
    if head and head != "/" * len(head):
        head = head.rstrip("/")
    return head, tail


def dirname(p: str) -> str:
    return split(p)[0]


def basename(p: str) -> str:
    p = _fspath(p)
    return p[p.rfind("/") + 1 :]


def isabs(s: str) -> bool:
    return _fspath(s).startswith("/")


def normpath(path: str) -> str:
    path = _fspath(path)
    if _normpath is not None:  # the C function posixpath uses too
        done: str = _normpath(path)
        return done or "."
    return normpath_python(path)


def normpath_python(path: str) -> str:
    """``posixpath.normpath`` where the interpreter has no C one."""
    if not path:
        return "."
    # POSIX keeps exactly two leading slashes; three or more are one.
    initial = 2 if path.startswith("//") and not path.startswith("///") else int(path[:1] == "/")
    comps: list[str] = []
    for comp in path.split("/"):
        if comp in ("", "."):
            continue
        if comp != ".." or (not initial and not comps) or (comps and comps[-1] == ".."):
            comps.append(comp)
        elif comps:
            comps.pop()
    return "/" * initial + "/".join(comps) or "."


def abspath(path: str) -> str:
    path = _fspath(path)
    if not path.startswith("/"):
        path = join(posix.getcwd(), path)
    return normpath(path)


def relpath(path: str, start: str | None = None) -> str:
    if not path:
        raise ValueError("no path specified")
    start_list = [x for x in abspath("." if start is None else start).split("/") if x]
    path_list = [x for x in abspath(path).split("/") if x]
    i = 0
    for a, b in zip(start_list, path_list, strict=False):
        if a != b:
            break
        i += 1
    rel = [".."] * (len(start_list) - i) + path_list[i:]
    return join(*rel) if rel else "."


def expanduser(path: str) -> str:
    path = _fspath(path)
    if not path.startswith("~"):
        return path
    i = path.find("/", 1)
    if i < 0:
        i = len(path)
    from dcg.oslite.env import environ

    if i == 1 and "HOME" in environ:
        home = environ["HOME"]
    else:
        import pwd

        try:
            entry = pwd.getpwuid(posix.getuid()) if i == 1 else pwd.getpwnam(path[1:i])
        except KeyError:
            return path
        home = entry.pw_dir
    return (home.rstrip("/") + path[i:]) or "/"


def _mode(path: str, follow: bool = True) -> int | None:
    """``st_mode`` of ``path`` (of a link itself unless ``follow``); None when it cannot be
    had (missing, unreadable, a NUL in the name)."""
    try:
        return (posix.stat(path) if follow else posix.lstat(path)).st_mode
    except (OSError, ValueError):
        return None


def exists(path: str) -> bool:
    return _mode(path) is not None


def lexists(path: str) -> bool:
    return _mode(path, follow=False) is not None


def isfile(path: str) -> bool:
    mode = _mode(path)
    return mode is not None and S_ISREG(mode)


def isdir(path: str) -> bool:
    mode = _mode(path)
    return mode is not None and S_ISDIR(mode)


def realpath(path: str) -> str:
    """``posixpath.realpath`` (not strict): symbolic links resolved component by
    component, a loop or a missing part left as it is from there on."""
    resolved, _ = _resolve("", _fspath(path), {})
    return abspath(resolved)


def _resolve(base: str, rest: str, seen: dict[str, str | None]) -> tuple[str, bool]:
    """``base`` (already resolved) joined with ``rest``, links resolved; False once a link
    loop was met (the rest is then appended unresolved)."""
    if rest.startswith("/"):
        base, rest = "/", rest[1:]
    while rest:
        name, _, rest = rest.partition("/")
        if not name or name == ".":
            continue
        if name == "..":
            if not base:
                base = ".."
            else:
                base, last = split(base)
                if last == "..":
                    base = join(base, "..", "..")
            continue
        step = join(base, name)
        try:
            is_link = S_ISLNK(posix.lstat(step).st_mode)
        except OSError:
            is_link = False
        if not is_link:
            base = step
            continue
        if step in seen:
            known = seen[step]
            if known is None:  # a loop: stop resolving here
                return join(step, rest), False
            base = known
            continue
        seen[step] = None
        base, ok = _resolve(base, posix.readlink(step), seen)
        if not ok:
            return join(base, rest), False
        seen[step] = base
    return base, True
