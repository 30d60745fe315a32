"""Which git config files a command reads, as its environment and the line leave them.

``HOME=h git x``, ``GIT_CONFIG_GLOBAL=cfg git x``, ``XDG_CONFIG_HOME=…``,
``GIT_CONFIG_SYSTEM=…``, ``GIT_CONFIG=…`` and ``git -c include.path=cfg x`` choose other
files; ``printf '[alias]…' >> .git/config`` earlier on the line changes what a file holds
(:mod:`dcg.shell.linefiles` keeps that text). :func:`files` reads them as git would and
says why when one cannot be known (a computed path, a file written with unknown text, a
file that exists but cannot be read): an alias it might define is then code dcg cannot see.
"""

from __future__ import annotations

from dcg import oslite as os
from dcg.shell.limits import cache
from dcg.shell.state import BASE as _BASE
from dcg.shell.state import CWD as _CWD

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from dcg.shell.state import Vars

# The variables that choose git's config files.
NAMES = ("HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM",
         "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG", "GIT_DIR")  # fmt: skip


def files(
    variable: Callable[[str], tuple[bool, str | None]],
    start: str | None,
    git_dir: str | None,
    settings: list[tuple[str, str | None]],
    env: Vars,
) -> tuple[list[tuple[str, str]], str]:
    """``(entries, why)``: the config entries the command sees (lowest precedence first)
    and, when some file cannot be known, why ("" otherwise).

    ``variable(name)`` is ``(set, value)`` for the command's environment (value None:
    computed); ``settings`` are its ``-c`` settings, whose ``include.path`` files it reads.
    """

    chosen = tuple(variable(name) for name in NAMES)
    memo_key = None
    if not env.state.files:  # nothing written on the line: the disk
        memo_key = (start, git_dir, tuple(settings), chosen)
        if memo_key in _FILES:
            return _FILES[memo_key]
    found_files = _files(chosen, start, git_dir, settings, env)
    if memo_key is not None:
        _FILES[memo_key] = found_files
    return found_files


# files()'s answers in this process, for lines that wrote no file (the disk cannot change
# while one line is judged).
_FILES: dict[object, tuple[list[tuple[str, str]], str]] = cache()


def _files(
    chosen: tuple[tuple[bool, str | None], ...],
    start: str | None,
    git_dir: str | None,
    settings: list[tuple[str, str | None]],
    env: Vars,
) -> tuple[list[tuple[str, str]], str]:
    from dcg.shell import gitconfig

    environ: dict[str, str | None] = {}
    for name, (found, value) in zip(NAMES, chosen, strict=True):
        if found and value is None:
            return [], f"${name} is computed at run time"
        if found and value is not None and (value == "~" or value.startswith("~/")):
            value = (os.environ.get("HOME") or "") + value[1:]  # the shell expands ~ in =…
        if found:
            environ[name] = value
    includes: list[str] = []
    for key, value in settings:
        if key == "include.path" or (key.startswith("includeif.") and key.endswith(".path")):
            if value is None:
                return [], "-c include.path names a file computed at run time"
            includes.append(value)
    if git_dir is None:
        git_dir = environ.get("GIT_DIR")
    texts = written(env)
    unknown: list[str] = []
    entries = gitconfig.entries(start, git_dir, environ, texts, unknown, tuple(includes))
    if unknown:
        return entries, f"the config file {unknown[0]} holds settings dcg cannot know"
    return entries, ""


def written(env: Vars) -> dict[str, str | None]:
    """What files written earlier on the line will hold, by absolute normalised path."""
    files = env.state.files
    if not files:
        return {}
    here = _here(env)
    out: dict[str, str | None] = {}
    for key, value in files.items():
        where = absolute(env, key)
        out[where] = _text(value, where, env, here)
    return out


def _here(env: Vars) -> str:
    here = env.get(_BASE) or "/"
    moved = env.get(_CWD)
    if moved and not moved.startswith("\x00"):  # `cd` earlier on the line
        here = os.path.normpath(os.path.join(here, moved))
    return here


def absolute(env: Vars, path: str) -> str:
    """The absolute, normalised path a file written on the line (``FILE`` key) names."""
    home = os.environ.get("HOME") or ""
    if home and (path == "~" or path.startswith("~/")):  # the shell expanded it
        path = home + path[1:]
    return os.path.normpath(path if os.path.isabs(path) else os.path.join(_here(env), path))


def _text(value: str | None, where: str, env: Vars, here: str) -> str | None:
    from dcg.shell import edits, gitconfig

    if value is None:
        return None
    if value.startswith(edits.EDIT):  # appended to or edited: applied to the disk's text
        disk = gitconfig._read(where) if os.path.lexists(where) else ""
        if disk is None:
            return None
        return edits.apply(disk, value[len(edits.EDIT) :].split("\x1e"))
    if value.startswith("\x00copy:"):
        source = value[len("\x00copy:") :]
        full = os.path.normpath(source if os.path.isabs(source) else os.path.join(here, source))
        files = env.state.files
        key = source
        if key not in files:  # `ln -s "$PWD/h.sh" …` of a file written as h.sh
            key = next((k for k in files if absolute(env, k) == full), key)
        if key in files:
            inner = files[key]
            return None if inner is None or inner.startswith("\x00") else inner
        return gitconfig._read(full)
    if value.startswith("\x00"):  # downloaded, or a program's output
        return None
    return value
