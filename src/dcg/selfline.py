"""What a command line makes for its later commands: links to paths, copies of dcg.

``ln -s ~/.config /tmp/c; sort -o /tmp/c/dcg/allowlist.toml …`` writes dcg's state
through a link made on the same line; ``cp "$(which dcg)" /tmp/x; /tmp/x confirm …`` runs
dcg under another name. :func:`scan` notes both for dcg.selfguard.
"""

from __future__ import annotations

from dcg.oslite import path as posixpath
from dcg.selfpaths import effective_cwd, normalise

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.shell.command import Command


class Line:
    """What earlier commands of the line made that later ones may use: links (a second
    name for a protected path) and copies of dcg's launcher or package (a second name for
    dcg)."""

    __slots__ = ("aliases", "commands", "links")

    def __init__(self, commands: list[Command], cwd: str | None, makes: bool = True) -> None:
        self.commands = commands
        self.links: dict[str, str] = {}
        self.aliases: set[str] = set()
        if makes:
            scan(self, cwd)


def scan(line: Line, cwd: str | None) -> None:
    located = False  # a `$(which dcg)` was just seen
    for command in line.commands:
        argv = command.argv
        if not argv:
            continue
        here = effective_cwd(command, cwd) or "/"
        substituted = bool(command.via) and command.via[-1] == "$(…)"
        if substituted and any("dcg" in a for a in argv[1:]):
            # `$(which dcg)`, `$(python3 -c 'import dcg…')`: a path of dcg's, used next.
            located = True
            continue
        pairs = _pairs(command, here)
        if argv[0] in ("ln", "mount", "bindfs") or (argv[0] == "cp" and _linking(argv)):
            for name, target in pairs:
                line.links[name] = target
        for name, source in pairs:
            if (located and "$(" in source) or _is_dcg(source):
                line.aliases.add(posixpath.basename(name.rstrip("/")))
        copied = argv[0] == "cat" and any(_is_dcg(normalise(a, here)) for a in argv[1:])
        for op, target in command.redirects:
            if ">" in op and copied:
                line.aliases.add(posixpath.basename(target.rstrip("/")))
        if "$(…)" in argv:
            located = False


def _linking(argv: tuple[str, ...]) -> bool:
    return any(a in ("--symbolic-link", "--link") or (a[:1] == "-" and a[1:2] != "-" and
               ("s" in a or "l" in a)) for a in argv[1:])  # fmt: skip


def _pairs(command: Command, here: str) -> list[tuple[str, str]]:
    """``(new name, what it names)`` for a copy, link, move or bind mount (absolute)."""
    argv = command.argv
    if argv[0] not in ("ln", "cp", "install", "mv", "rsync", "mount", "bindfs"):
        return []
    from dcg.writes._opts import parse, values

    opts, ops = parse(argv, "Stmog" if argv[0] != "mount" else "otO",
                      ("--target-directory", "--suffix", "--options"))  # fmt: skip
    ops = [o for o in ops if o not in ("bind", "rbind")]
    dirs = values(opts, "-t", "--target-directory")
    symbolic = argv[0] == "ln" and any(k in ("-s", "--symbolic") for k, _ in opts)
    if dirs:
        dest, sources, into = dirs[-1], ops, True
    elif len(ops) >= 2:
        dest, sources = ops[-1], ops[:-1]
        into = argv[0] not in ("mount", "bindfs") and (
            len(ops) > 2 or posixpath.isdir(normalise(dest, here)))  # fmt: skip
    elif len(ops) == 1 and argv[0] == "ln":
        dest, sources, into = ".", ops, True
    else:
        return []
    out = []
    base = normalise(dest, here)
    for source in sources:
        name = posixpath.join(base, posixpath.basename(source.rstrip("/"))) if into else base
        where = posixpath.dirname(name) if symbolic else here
        out.append((name, source if "$(" in source else normalise(source, where)))
    return out


def _is_dcg(path: str) -> bool:
    """A path that is dcg's launcher or package (or inside it)."""
    if "$(" in path:
        return False
    from dcg.selfpaths import program_paths

    package = program_paths()[0]
    if path == package or path.startswith(package + "/"):
        return True
    base = posixpath.basename(path)
    return base in ("dcg", "dcg.exe") or path in program_paths()
