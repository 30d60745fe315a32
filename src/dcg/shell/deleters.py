"""Programs that delete the trees they are given besides rm: the Node deleters, however run."""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from collections.abc import Sequence

# Node packages whose command deletes the trees it is given, like rm -rf (del-cli's
# command is `del`, trash-cli's `trash`), and the runners that start them.
NODE_DELETERS = frozenset(("rimraf", "del-cli", "del", "trash-cli", "trash", "premove"))
_NODE_RUNNERS = frozenset(("npx", "pnpx", "bunx", "npm", "pnpm", "yarn", "bun", "exec", "dlx",
                           "x", "--"))  # fmt: skip


def node_deleter_operands(argv: Sequence[str]) -> list[str] | None:
    """What a Node deleter (``rimraf``, ``npx del-cli``, ``pnpm dlx rimraf``, ``bunx trash``,
    ``npx -p del-cli del``) is given to delete; None when ``argv`` runs none. A version
    (``del-cli@5``) or a path (``node_modules/.bin/rimraf``) names the same program; a
    ``!pattern`` of del-cli excludes what it matches."""
    value = False
    for k, arg in enumerate(argv):
        if value:
            value = False
        elif arg.rpartition("/")[2].partition("@")[0] in NODE_DELETERS:
            return [a for a in argv[k + 1 :] if a[:1] not in ("-", "!")]  # `!x`: kept
        elif arg in ("-p", "--package"):
            value = True
        elif not (arg.startswith("-") or arg in _NODE_RUNNERS):
            return None
    return None
