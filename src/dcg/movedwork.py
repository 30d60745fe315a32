"""Work moved into output: a tree gone from the work tree that build output now holds."""

from __future__ import annotations

from dcg import gitinfo
from dcg import oslite as os
from dcg.oslite import path as posixpath

TYPE_CHECKING = False  # typing costs ms at start-up; type checkers treat this as True
if TYPE_CHECKING:
    from collections.abc import Sequence


def moved_in(root: str, paths: Sequence[str]) -> bool:
    """Tracked files are missing from the work tree while build output that git does not
    ignore holds untracked files: ``mv src build`` (an earlier call), then ``rm -rf build``.
    Asked only when the work tree has deletions; no answer leaves the output judged by name."""
    deleted = gitinfo.git(root, ["ls-files", "--deleted", "-z"])
    if not deleted or not deleted.strip("\0"):
        return False
    if _holds_deleted(root, paths, [d for d in deleted.split("\0") if d][:_MAX_DELETED]):
        return True
    found = gitinfo.status(root, [posixpath.relpath(p, root) for p in paths])
    return bool(found and found[1])


_MAX_DELETED = 200


def _holds_deleted(root: str, paths: Sequence[str], deleted: Sequence[str]) -> bool:
    """Output (ignored or not) holds files where tracked files gone from the work tree
    would be after a move into it: ``mv src build`` (build/a) or ``mv src node_modules/``
    (node_modules/src/a) in an earlier call. Two files, or one whose whole directory is
    gone: one file moved and deleted is a single-file deletion."""
    hits: dict[tuple[str, int], int] = {}
    for rel in deleted:
        parts = rel.split("/")
        gone = len(parts) > 1 and not os.path.lexists(posixpath.join(root, parts[0]))
        for path in paths:
            for k in range(len(parts)):
                if os.path.lexists(posixpath.join(path, *parts[k:])):
                    hits[path, k] = hits.get((path, k), 0) + 1
                    if gone or hits[path, k] >= 2:
                        return True
    return False
