"""An archive on disk that ``git archive`` wrote, extracted back over its own work tree.

``git archive`` stores the commit it archived in the archive: a tar's pax global header
``comment=<id>`` (compressed or not), a zip's comment. Extracting such an archive in a
directory of a repository that has that commit, over files it holds, writes each
committed file over its uncommitted change (``tar -xf ../x.tar`` after ``git archive -o
../x.tar HEAD`` in an earlier call). Read only for an extraction of an existing file dcg
saw no writer of on the line, a bounded number of members.
"""

from __future__ import annotations

from dcg import oslite as os

_MEMBERS = 64  # members read at most


def archived_commit(path: str) -> tuple[str, list[str]] | None:
    """(commit id, names of its first files) of an archive ``git archive`` wrote at
    ``path``; None for any other file, or one that cannot be read."""
    import tarfile
    import zipfile

    comment = ""
    names: list[str] = []
    try:
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as z:
                comment = z.comment.decode("ascii", "replace")
                names = [n for n in z.namelist()[:_MEMBERS] if not n.endswith("/")]
        else:
            with tarfile.open(path) as t:
                for _ in range(_MEMBERS):
                    member = t.next()
                    if member is None:
                        break
                    if member.isfile():
                        names.append(member.name)
                comment = t.pax_headers.get("comment", "")
    except (OSError, EOFError, ValueError, tarfile.TarError, zipfile.BadZipFile):
        return None
    comment = comment.strip()
    if len(comment) not in (40, 64) or any(c not in "0123456789abcdef" for c in comment):
        return None
    return comment, names


def over_its_tree(path: str, into: str) -> bool:
    """Whether extracting the archive ``path`` into ``into`` writes a commit's files back
    over files of a repository that has the commit."""
    from dcg import gitinfo

    if not os.path.isfile(path) or not os.path.isdir(into) or gitinfo.work_tree(into) is None:
        return False
    found = archived_commit(path)
    if found is None:
        return False
    commit, names = found
    if not any(os.path.isfile(os.path.join(into, n)) for n in names):
        return False
    return gitinfo.git(into, ["cat-file", "-e", f"{commit}^{{commit}}"]) is not None
