"""Tools that delete trees as a side effect: ``rsync --delete`` and ``tar --remove-files``.

``rsync -a --delete empty/ src/`` empties ``src`` (every file the source does not hold is
deleted at the destination); ``tar --remove-files -cf /dev/null src`` deletes ``src``
once it is "archived" nowhere. Both are judged like ``rm -rf`` of what they delete, with
the same safe places (:func:`dcg.safe_delete.all_safe`: temp, build output, what git
ignores). A tar archive written to a real file keeps what it removes, so that is a move,
not a loss.
"""

from __future__ import annotations

from dcg.safe_delete import all_safe
from dcg.targets import is_critical, resolve
from dcg.writes._opts import given, parse, values

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.shell.command import Command

_RSYNC_DELETES = ("--delete", "--del", "--delete-before", "--delete-during",
                  "--delete-delay", "--delete-after", "--delete-excluded",
                  "--delete-missing-args")  # fmt: skip
_RSYNC_FLAGS = (*_RSYNC_DELETES, "--recursive", "--archive", "--remove-source-files")
_TAR_VALUES = ("--file", "--directory", "--exclude", "--files-from", "--use-compress-program",
               "--to-command", "--checkpoint-action", "--transform", "--owner", "--group",
               "--mode", "--mtime", "--newer", "--after-date", "--format", "--blocking-factor",
               "--record-size", "--label", "--exclude-from", "--rsh-command", "--info-script",
               "--new-volume-script", "--tape-length", "--volno-file", "--level",
               "--suffix")  # fmt: skip
_NOWHERE = ("/dev/null", "-", "/dev/stdout", "/dev/zero")


def _outside(words: list[str], cwd: str) -> bool:
    paths: list[str] = []
    for word in words:
        path = resolve(word, cwd)
        if path is None:
            return True
        paths.append(path)
    return bool(paths) and (any(is_critical(p) for p in paths) or not all_safe(paths, cwd))


def rsync_delete_outside_temp(command: Command, cwd: str) -> bool:
    """Rule check: rsync deletes at its destination (``--delete`` and kin), and the
    destination is a local tree outside temp and build output."""
    from dcg.writes import _RSYNC_LONG

    argv = command.argv
    opts, ops = parse(argv, "efTBM@", _RSYNC_LONG, flags=_RSYNC_FLAGS)
    if not given(opts, *_RSYNC_DELETES) or len(ops) < 2:
        return False
    dest = ops[-1]
    head, colon, _ = dest.partition(":")
    if colon and head and "/" not in head and not dest.startswith((".", "~")):
        return False  # a remote copy: the opt-in `remote` pack's rsync --delete rule
    return _outside([dest], cwd)


def tar_remove_outside_temp(command: Command, cwd: str) -> bool:
    """Rule check: ``tar --remove-files`` with the archive going nowhere (``/dev/null``,
    stdout) or not named, and members outside temp and build output."""
    argv = command.argv
    if len(argv) > 1 and argv[1][:1] not in ("-", ""):  # `tar cf ARCHIVE …`: old-style letters
        argv = (argv[0], "-" + argv[1], *argv[2:])
    opts, ops = parse(argv, "fCXTIbLVKNgH", _TAR_VALUES, flags=("--remove-files",))
    if not given(opts, "--remove-files"):
        return False
    archive = values(opts, "-f", "--file")
    if archive and archive[-1] not in _NOWHERE:
        return False
    if archive[-1:] != ["/dev/null"] and any(
        op in (">", ">|", ">>", "1>") and t not in _NOWHERE for op, t in command.redirects
    ):
        return False  # the archive on stdout goes to a file
    directory = values(opts, "-C", "--directory")
    base = resolve(directory[-1], cwd) if directory else cwd
    return _outside(ops, base or cwd)
