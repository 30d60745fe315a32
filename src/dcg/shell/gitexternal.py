"""``git SUB`` that git runs as a program ``git-SUB`` from its exec path or ``PATH``.

A subcommand that is no builtin and no alias (and git's own scripts, such as ``mergetool``
or ``subtree``) runs ``git-SUB`` from ``--exec-path=DIR``, ``GIT_EXEC_PATH`` or ``PATH``.
A ``git-SUB`` the line writes, or one on disk in a directory the line puts there
(``PATH=bin:$PATH git foo``), is judged as the script it is; a directory computed at run
time makes the program code dcg cannot see.
"""

from __future__ import annotations

from dcg import oslite as os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from dcg.shell.state import Vars
    from dcg.shell.unwrap import Work

UNKNOWN = "\x00?"
# Git commands that are scripts or programs in the exec path, not compiled into git.
SCRIPTS = frozenset(("mergetool", "filter-branch", "instaweb", "request-pull", "quiltimport",
    "submodule", "subtree", "send-email", "svn", "p4", "cvsimport", "archimport",
    "cvsexportcommit", "cvsserver", "web--browse", "merge-octopus", "merge-one-file",
    "merge-resolve", "gui", "citool", "difftool--helper"))  # fmt: skip


def _quote(word: str) -> str:
    if word and all(c.isalnum() or c in "-_./=:@%+," for c in word):
        return word
    return "'" + word.replace("'", "'\\''") + "'"


def external(
    w: Work,
    sub: str,
    env: Vars,
    variable: Callable[[str], str | None],
    exec_path: str | None,
    start: str | None,
    builtin: bool,
) -> None:
    """Queue what ``git SUB`` runs when git looks ``git-SUB`` up (``variable``: a variable
    as git sees it; ``exec_path``: the ``--exec-path=`` given, UNKNOWN when computed;
    ``builtin``: git has SUB itself)."""
    if builtin and sub not in SCRIPTS:
        return
    name = "git-" + sub
    dirs: list[str] = []
    if exec_path is None and ("GIT_EXEC_PATH" in w.assigns or "GIT_EXEC_PATH" in env):
        exec_path = variable("GIT_EXEC_PATH")
        exec_path = UNKNOWN if exec_path is None else exec_path
    if exec_path == UNKNOWN:
        w.opaque = w.opaque or f"git {sub} runs {name} from an exec path computed at run time"
        return
    if exec_path:
        dirs.append(exec_path)
    path_set = not builtin and ("PATH" in w.assigns or "PATH" in env)

    if path_set:
        path = variable("PATH") or ""
        dirs += [d for d in path.split(":") if d and "$" not in d]
    found = next((os.path.join(d, name) for d in dirs if _made(os.path.join(d, name), env, start)),
                 None)  # fmt: skip
    if found is None and path_set:  # a PATH with parts computed at run time
        found = next((k for k in env.state.files if k.endswith("/" + name)), None)
    if found is not None:
        args = " ".join(_quote(a) for a in w.argv[2:])
        target = found if "/" in found else "./" + found
        w.payloads.append(("sh", f"git {sub} ({name})", f"{_quote(target)} {args}".strip(), []))


def _made(path: str, env: Vars, start: str | None) -> bool:
    """``path`` was written earlier on the line, or is a file on disk (from ``start``)."""
    from dcg.shell import runtext

    if path in env.state.files or any(k in env.state.files for k in runtext.line_keys(env, path)):
        return True
    if start and not os.path.isabs(path):
        path = os.path.join(start, path)
    return os.path.isfile(path)
