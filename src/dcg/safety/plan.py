"""What a matched command can destroy, as keep tasks: a rule's ``keep`` kind read on its argv.

A task is one of: a git snapshot of what a scope reaches in a repository
(:class:`~dcg.safety.gitsnap.Scope`), a refs snapshot
(:class:`~dcg.safety.refsnap.RefScope`), or paths for the file store. Where what would be
destroyed cannot be told or cannot be copied, :class:`~dcg.safety.Unkept` says why.
Paths are resolved as the shell would: against the payload's cwd and any ``cd`` before
the command, ``git -C``, ``~`` and known variables, globs expanded.
"""

from __future__ import annotations

import os

from dcg.safety import Unkept, deletions
from dcg.safety.argv import Task, git_operands, option_value, where
from dcg.safety.gitsnap import Scope
from dcg.safety.refsnap import RefScope

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from dcg.model import Match


# Why a rule whose kind is "none" cannot be kept, by rule id (the rest: _ELSEWHERE).
_WHY_NOT = {
    "core.git:push-force": "it rewrites history on a remote, which dcg cannot copy",
    "core.git:push-delete": "it deletes branches on a remote, which dcg cannot copy",
    "core.git:gc-prune-now": "it deletes git objects nothing refers to, which dcg cannot list "
    "in time",
    "core.git:history-rewrite": "it rewrites every ref, dcg's own snapshots included",
    "strict.git:push-force-with-lease": "it rewrites history on a remote",
    "strict.git:push-delete": "it deletes branches on a remote",
    "strict.git:filter-branch": "it rewrites every ref, dcg's own snapshots included",
    "strict.git:prune-now": "it deletes git objects nothing refers to",
}
_ELSEWHERE = "what it destroys is not a file on this machine (a database, a remote, an account)"
_UNSEEN = "what it changes is only known when it runs"


def tasks(match: Match, cwd: str, line: str = "") -> list[Task]:
    """The keep tasks for ``match``; :class:`Unkept` where what it destroys cannot be kept."""
    rule = match.rule
    kind = rule.keep
    command = match.command
    if kind == "none":
        if match.pack.id == "core.shell":
            raise Unkept(_UNSEEN)
        raise Unkept(_WHY_NOT.get(match.rule_id, _ELSEWHERE))
    if command.dynamic:
        raise Unkept(_UNSEEN)
    here = where(command, cwd, line)
    argv = command.argv
    if kind == "worktree":
        return _worktree(rule.name, argv, here)
    if kind == "refs":
        return [Task("refs", here, _refs(rule.name, argv, here))]
    return deletions.tasks(rule.name, command, here, link_ok=kind == "files")


def _worktree(name: str, argv: Sequence[str], here: str) -> list[Task]:
    sub = argv[1] if len(argv) > 1 else ""
    opts, ops, after = git_operands(argv, sub)
    if name == "clean-force":
        return deletions.clean_task(opts, [*ops, *after], here)
    if name == "rm-force":
        specs = [*ops, *after]
        if not specs:
            return []
        return [Task("git", here, Scope(specs, tracked_all=True, index_head=True))]
    source: str | None = None
    specs_: list[str] | None = None
    if name in ("patch-reverse", "sequencer-abort"):  # the whole work tree, no revision
        return [Task("git", here, Scope(None, untracked="no", index_head=True, perms=True))]
    if sub == "restore":
        source = option_value(opts, ("-s", "--source"))
        specs_ = [*ops, *after] or None
    elif sub == "checkout" and (after or name == "checkout-discard"):
        if after:
            source, specs_ = (ops[0] if ops else None), after
        elif ops and not _path_like(ops[0], here):
            source, specs_ = ops[0], ops[1:] or None
        else:
            specs_ = ops or None
    else:
        source = ops[0] if ops else None
    if name in ("switch-discard", "checkout-force") and not after:
        new_start = option_value(opts, ("-c", "-C", "-b", "-B", "--create", "--force-create"))
        source = ops[0] if ops else None
        if new_start is not None and not ops:
            source = None
    scope = Scope(
        specs_,
        untracked="target" if source else "no",
        target=source,
        index_head=True,
        perms=True,
    )
    return [Task("git", here, scope)]


def _path_like(word: str, here: str) -> bool:
    return (
        word in (".", "..")
        or word.startswith(("./", "../", "/", ":"))
        or (os.path.lexists(os.path.join(here, word)))
    )


def _refs(name: str, argv: Sequence[str], here: str) -> RefScope:
    sub = argv[1] if len(argv) > 1 else ""
    opts, ops, after = git_operands(argv, sub)
    names = [*ops, *after]
    if not names and name in ("branch-force-delete", "tag-delete", "update-ref-delete"):
        raise Unkept("the refs it deletes come from its input")
    if name == "branch-force-delete":
        remote = any(o in ("-r", "--remotes") or (o[1:2] != "-" and "r" in o[1:]) for o in opts)
        prefix = "refs/remotes/" if remote else "refs/heads/"
        return RefScope([prefix + n for n in names], branches=() if remote else names)
    if name == "tag-delete":
        over = [o.partition("=")[2] for o in opts if o.startswith("--overwrites-tag=")]
        return RefScope([f"refs/tags/{n}" for n in (over or names)])
    if name == "update-ref-delete":
        return RefScope(names[:1])
    if name == "branch-overwrite":
        marked = [o.partition("=")[2] for o in opts if o.startswith("--overwrites-branch=")]
        return RefScope([f"refs/heads/{n}" for n in marked if "*" not in n])
    if name == "ref-files":
        return RefScope(reflogs=True, stash="all")
    if name == "reflog-expire":
        return RefScope(reflogs=True)
    if name == "stash-clear":
        return RefScope(stash="all")
    if name == "stash-drop":
        which = names[1:2] if names[:1] == ["drop"] else names[:1]
        return RefScope(stash=[_stash_index(which[0] if which else "0")])
    if name in ("rebase", "rebase-drop"):
        from dcg.safety.refsnap import current_branch

        return RefScope([current_branch(here, None)])
    raise Unkept(f"dcg does not know which refs {name} drops")


def _stash_index(word: str) -> int:
    w = word.removeprefix("stash@{").removesuffix("}")
    if not w.isdigit():
        raise Unkept(f"dcg cannot tell which stash entry {word} is")
    return int(w)
