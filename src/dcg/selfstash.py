"""A stash of a whole work tree that holds HOME: dcg's settings and state stashed away.

``cd ~ && git stash -u``, ``git -C ~ stash --include-untracked``, ``git --git-dir=~/.dotfiles
--work-tree=~ stash -a``: in a repository whose work tree is HOME (a dotfiles repository),
a stash without pathspecs takes every changed file, with ``-u`` every untracked one and
with ``-a`` every ignored one too, out of HOME: the agent's hook settings and dcg's own
state among them. Self-protection judges such a stash as removing the work tree.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.shell.command import Command

# git stash subcommands that do not take the work tree's changes away.
_KEEPS = frozenset(("list", "show", "drop", "pop", "apply", "branch", "clear", "create",
                    "store", "export", "import"))  # fmt: skip
# Options of git stash push whose value is the next word.
_VALUED = frozenset(("-m", "--message", "--pathspec-from-file"))


def whole_tree(command: Command, where: str, home: str) -> bool:
    """Whether ``command`` (``git stash …`` run in ``where``) stashes the whole work tree
    of a repository whose work tree is HOME or holds it."""
    args = command.argv[2:]
    ops: list[str] = []
    k = 0
    while k < len(args):
        a = args[k]
        if a == "--":
            ops += ["--", *args[k + 1 :]]
            break
        if a.startswith("--pathspec-from-file"):
            return False  # paths: judged as written files (dcg.writes)
        if a.startswith("-"):
            k += 2 if a in _VALUED else 1
            continue
        ops.append(a)
        k += 1
    if ops[:1] and ops[0] in _KEEPS:
        return False
    if ops[:1] == ["save"]:
        ops = []  # its words are the message
    elif ops[:1] == ["push"]:
        ops = ops[1:]
    if [o for o in ops if o != "--"]:
        return False  # pathspecs: judged as written files (dcg.writes)
    if any(v.startswith(("git --work-tree ", "git --git-dir ")) for v in command.via):
        top: str | None = where  # the work tree named, or the directory with --git-dir
    else:
        from dcg.gitinfo import work_tree

        top = work_tree(where)
    if not top or not home:
        return False
    return top == home or home.startswith(top.rstrip("/") + "/")
