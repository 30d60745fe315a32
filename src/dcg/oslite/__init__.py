"""The part of ``os`` the hook uses, without importing ``os``.

``import os`` runs ``_collections_abc``, whose abstract classes ``os`` needs for
``os.environ``: without it a keyword or stopped hook call took 0.8 ms less (a tenth of a
bare interpreter start; 80 interleaved rounds of the registered command). A
bare start pays that inside ``site``, which the registered hook command skips (``-S``);
the hook itself needs only system calls, which the built-in ``posix`` module has, the
environment as strings, and POSIX path arithmetic (:mod:`dcg.oslite.path`). Modules on
the hook's path import this as ``from dcg import oslite as os``: the names, arguments
and behaviour are those of ``os``, so the code reads as ``os`` code. The hook only runs
on POSIX systems (its state files are locked with ``fcntl``).

Where ``os`` is already imported (the command-line interface, tests), ``environ`` is
``os.environ`` itself (:mod:`dcg.oslite.env`).
"""

from __future__ import annotations

from posix import (
    O_APPEND,
    O_CLOEXEC,
    O_CREAT,
    O_NOFOLLOW,
    O_NONBLOCK,
    O_RDONLY,
    O_RDWR,
    O_TRUNC,
    O_WRONLY,
    X_OK,
    access,
    chmod,
    close,
    fchmod,
    fspath,
    fstat,
    getcwd,
    getpid,
    getppid,
    getuid,
    killpg,
    listdir,
    lstat,
    mkdir,
    open,
    pread,
    read,
    replace,
    scandir,
    stat,
    stat_result,
    ttyname,
    uname,
    unlink,
    urandom,
    utime,
    write,
)

from dcg.oslite import path
from dcg.oslite.env import environ

__all__ = [
    "O_APPEND", "O_CLOEXEC", "O_CREAT", "O_NOFOLLOW", "O_NONBLOCK", "O_RDONLY", "O_RDWR",
    "O_TRUNC", "O_WRONLY", "X_OK", "access", "chmod", "close", "environ", "fchmod", "fspath",
    "fstat", "getcwd", "getpid", "getppid", "getuid", "killpg", "listdir", "lstat",
    "makedirs", "mkdir", "open", "path", "pathsep", "pread", "read", "replace", "scandir",
    "sep", "stat", "stat_result", "ttyname", "uname", "unlink", "urandom", "utime", "write",
]  # fmt: skip

sep = "/"
pathsep = ":"


def makedirs(name: str, mode: int = 0o777, exist_ok: bool = False) -> None:
    """``os.makedirs``: ``name`` and every missing parent; FileExistsError when ``name``
    exists and ``exist_ok`` is false (or it exists and is not a directory)."""
    head, tail = path.split(name)
    if not tail:
        head, tail = path.split(head)
    if head and tail and not path.exists(head):
        try:
            makedirs(head, exist_ok=exist_ok)
        except FileExistsError:  # another process made it meanwhile
            if not path.isdir(head):
                raise
        if tail == ".":
            return
    try:
        mkdir(name, mode)
    except OSError:
        if not exist_ok or not path.isdir(name):
            raise
