"""Rule checks that need more than a regex: SQL string literals blanked, git's ref files.

SQL text is matched with its string literals blanked; a deletion or write is matched by
the git ref and reflog files it reaches.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.model import Check
    from dcg.shell.command import Command


def strip_sql_strings(text: str) -> str:
    """``text`` with every closed SQL string literal ('…', "…", doubled quotes) emptied.

    An unterminated literal is left as it is: SQL that the server would reject anyway
    must not hide a statement from the rules.
    """
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c not in "'\"":
            out.append(c)
            i += 1
            continue
        j = i + 1
        while j < n:
            if text[j] == c:
                if j + 1 < n and text[j + 1] == c:
                    j += 2
                    continue
                break
            j += 2 if text[j] == "\\" else 1
        if j >= n:
            out.append(text[i:])
            break
        out.append(c + c)
        i = j + 1
    return "".join(out)


def outside_sql_strings(pattern: str) -> Check:
    """A check that ``pattern`` also matches once SQL string literals are blanked, so that
    `INSERT … VALUES ('remember to DROP TABLE x')` is data, not a DROP."""

    def check(command: Command, cwd: str) -> bool:
        from dcg.engine import compiled

        return compiled(pattern).search(strip_sql_strings(command.text)) is not None

    return check


_REF_FILES = frozenset(("refs", "logs", "packed-refs"))


def git_ref_files(command: Command, cwd: str) -> bool:
    """``command`` deletes or writes ``.git/refs/…``, ``.git/logs/…`` or
    ``.git/packed-refs`` (of a git dir: ``.git`` or a directory with HEAD and refs)."""
    argv = command.argv
    if argv[:1] == ("git",) or not (argv or command.redirects):
        return False  # `> .git/logs/refs/stash` alone empties the stash's log
    from dcg.oslite import path as posixpath
    from dcg.selfpaths import effective_cwd, normalise
    from dcg.writes import targets

    found = targets(command)
    if not found:
        return False
    here = effective_cwd(command, cwd or None) or "/"
    for word, _how in found:
        parts = [p for p in normalise(word, here).split("/") if p]
        for i in range(1, len(parts)):
            if parts[i] not in _REF_FILES:
                continue
            git_dir = "/" + "/".join(parts[:i])
            if parts[i - 1] == ".git" or (
                posixpath.isfile(posixpath.join(git_dir, "HEAD"))
                and posixpath.isdir(posixpath.join(git_dir, "refs"))
            ):
                return True
    return False
