"""Workspace options of npm, pnpm, yarn and bun runs: the packages they select."""

from __future__ import annotations

# Options that select workspace packages, and whether they take a value.
_ALL = {
    "pnpm": ("-r", "--recursive"),
    "npm": ("--workspaces", "-ws", "--workspaces=true"),
    "bun": (),
    "yarn": (),
}
_ONE = {
    "pnpm": ("--filter", "-F", "--filter-prod"),
    "npm": ("--workspace", "-w"),
    "bun": ("--filter", "-F"),
    "yarn": (),
}
# yarn workspaces foreach options (berry): flags, and those that take a value.
_FOREACH_FLAGS = frozenset(("-A", "--all", "-R", "--recursive", "-p", "--parallel", "-v",
                            "--verbose", "-i", "--interlaced", "-t", "--topological",
                            "--topological-dev", "-W", "--worktree", "--since", "--dry-run",
                            "--no-private"))  # fmt: skip
_FOREACH_VALUE = frozenset(("--include", "--exclude", "--from", "-j", "--jobs"))


def workspace_args(argv: list[str]) -> tuple[list[str], list[str] | None]:
    """``argv`` without its workspace options, and the selectors those options give."""
    name = argv[0]
    if name == "yarn":
        return _yarn(argv)
    every, one = _ALL.get(name, ()), _ONE.get(name, ())
    selectors: list[str] | None = None
    kept = [name]
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--":
            kept += argv[i:]
            break
        key, eq, value = a.partition("=")
        if a in every:
            selectors = selectors or []
        elif key in one and eq:
            selectors = [*(selectors or []), value]
        elif a in one and i + 1 < len(argv):
            selectors = [*(selectors or []), argv[i + 1]]
            i += 1
        else:
            kept.append(a)
        i += 1
    return kept, selectors


def _yarn(argv: list[str]) -> tuple[list[str], list[str] | None]:
    if argv[1:3] == ["workspaces", "foreach"]:
        rest = argv[3:]
        selectors: list[str] = []
        i = 0
        while i < len(rest) and rest[i].startswith("-"):
            key, eq, value = rest[i].partition("=")
            if key in ("--include", "--from") and (eq or i + 1 < len(rest)):
                selectors.append(value if eq else rest[i + 1])
            if key in _FOREACH_VALUE and not eq:
                i += 1
            i += 1
        rest = rest[i:]
        if rest[:1] == ["run"]:
            rest = rest[1:]
        return ["yarn", "run", *rest], selectors
    if len(argv) > 3 and argv[1] == "workspace":
        return ["yarn", *argv[3:]], [argv[2]]
    return argv, None
