"""Hooks git runs for a command, read from disk when the command runs.

A hook written in an earlier call, or by the agent's file tool (``.git/hooks/pre-commit``,
a ``core.hooksPath`` directory), runs on the next ``git commit``, ``merge``, ``checkout``,
``push``…: its text is judged like a script the command runs. Only what it plainly does
counts: code a hook computes at run time (``. "$(dirname "$0")/h"``, as husky's hooks do)
is the project's own tooling, not an agent hiding a command, so it is not a finding here.
Hooks written earlier on the same line are judged by :mod:`dcg.shell.toolruns`.
"""

from __future__ import annotations

from dcg import oslite as os
from dcg.shell import runtext
from dcg.shell.limits import bounded, cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.shell.command import Command
    from dcg.shell.runtext import Ctx, Walker
    from dcg.shell.unwrap import Work

# Subcommands that run no hook (reading and plumbing that changes nothing).
NO_HOOKS = frozenset(("log", "show", "diff", "grep", "blame", "ls-files", "ls-tree",
    "ls-remote", "rev-parse", "rev-list", "cat-file", "describe", "shortlog", "help",
    "version", "config", "var", "whatchanged", "count-objects", "check-ignore", "check-attr",
    "name-rev", "for-each-ref", "show-ref", "remote", "--version", "--help", "-h",
    "difftool", "range-diff", "show-branch", "cherry", "annotate", "verify-commit",
    "verify-tag", "fsck", "hash-object", "mktree", "instaweb"))  # fmt: skip
_MAX_HOOK = 64 * 1024
_OPAQUE = "<opaque>"  # dcg.shell.opaque.WORD


def dirs(start: str | None, settings: list[tuple[str, str | None]]) -> list[str]:
    """Where git looks for hooks for a command run in ``start``: ``core.hooksPath`` (the
    last setting wins), else the repository's ``hooks`` directory."""
    if not start:
        return []
    path = next((v for k, v in reversed(settings) if k == "core.hookspath"), None)
    key = (start, path)
    if key not in _DIRS:
        _DIRS[key] = _dirs(start, path)
    return _DIRS[key]


_DIRS: dict[tuple[str, str | None], list[str]] = cache()  # dirs() for this line
_LISTED: dict[str, list[str]] = cache()  # _hooks() for this line


def _dirs(start: str, path: str | None) -> list[str]:
    if path:
        from dcg.selfpaths import expand

        path = expand(path)
        return [path if os.path.isabs(path) else os.path.join(start, path)]
    from dcg.shell.gitconfig import repository_config

    configs = repository_config(start)
    return [os.path.join(os.path.dirname(configs[0]), "hooks")] if configs else []


def _hooks(directory: str) -> list[str]:
    if directory not in _LISTED:
        _LISTED[directory] = _list(directory)
    return _LISTED[directory]


def _list(directory: str) -> list[str]:
    try:
        with os.scandir(directory) as it:
            names = sorted(e.name for e in it if not e.name.endswith(".sample") and e.is_file())
    except OSError:
        return []
    return [p for p in (os.path.join(directory, n) for n in names) if os.access(p, os.X_OK)]


def judge(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """Judge the hooks on disk that ``work``'s git command may run."""
    for directory in work.hooks or ():
        for path in _hooks(directory)[:32]:
            shown = f"git hook {path}"
            if shown in ctx.via or any(k in ctx.env for k in runtext.keys_of(path, ctx)):
                continue  # being read (a hook's own git command), or written on this line
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read(_MAX_HOOK)
            except OSError:
                continue
            if ctx.files is not None and not ctx.files.wanted(text):
                continue
            found: list[Command] = []

            def read(text: str = text, shown: str = shown, found: list[Command] = found) -> None:
                runtext.run_sh(text, shown, ctx.child((*ctx.via, shown)), found, walker)

            bounded(ctx.budget, ctx.files, shown, read)
            out.extend(c for c in found if c.argv[:1] != (_OPAQUE,))
