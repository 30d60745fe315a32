"""Paths a move made earlier on the line: what each now holds, for the deletions after it.

``mv src node_modules; rm -rf node_modules`` deletes src, ``ln -s ~/proj /tmp/p; rm -rf
/tmp/p/`` deletes ~/proj, whatever exemption the made path's name would have:
:mod:`dcg.shell.linefiles` records each ``mv``, ``ln -s``, ``git mv``, ``mount --bind``
and ``rsync --remove-source-files`` (:func:`record_move`) in the walker state's ``moved``
table, and the walker adds to a later deletion the paths its targets stand for
(:func:`stands_for`), and to a tool that deletes an output directory without naming it
(``npm ci``, ``cargo clean``) an ``rm -rf`` of each tree moved there.
"""

from __future__ import annotations

from dcg import oslite as os
from dcg.shell.state import BASE as _START
from dcg.shell.state import CWD

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from dcg.shell.state import Vars
    from dcg.shell.unwrap import Work

# A path `mv` or `ln -s` made earlier on the line -> the path whose content it now holds:
# `mv src node_modules; rm -rf node_modules` deletes src, `ln -s ~/proj /tmp/p; rm -rf
# /tmp/p/` deletes ~/proj, whatever exemption the made path's name would have.
_DELETERS = frozenset(("rm", "rimraf", "rmdir", "unlink", "shred", "find", "srm"))


def _norm(path: str) -> str:
    return os.path.normpath(path.rstrip("/") or "/")


# Besides mv and ln -s: what leaves a path holding another's content.
MOVERS = frozenset(("git", "mount", "rsync"))


def is_move(name: str, argv: list[str]) -> bool:
    """`git mv`, `mount --bind` (`-B`, `--rbind`, `-o bind`), `rsync --remove-source-files`."""
    if name == "git":
        return argv[1:2] == ["mv"]
    if name == "mount":
        return any(a in ("--bind", "--rbind", "-B", "-R") or "bind" in a.split(",")
                   for a in argv[1:])  # fmt: skip
    return any(a.startswith("--remove-source") for a in argv[1:])


_VALUED = frozenset(("-o", "--suffix", "-e", "--rsh", "--exclude", "--include", "--filter",
                     "--target-directory"))  # fmt: skip


def move_args(argv: list[str], target_opt: bool = True) -> list[str]:
    """The operands of a move, the destination last: ``-t DIR``, ``-vtDIR`` or
    ``--target-directory`` (of mv, cp, ln, git mv) name it before the sources."""
    args: list[str] = []
    dest = None
    k, ends = 0, False
    while k < len(argv):
        a = argv[k]
        if ends or a[:1] != "-" or a == "-":
            args.append(a)
        elif a == "--":
            ends = True
        elif a.startswith("--target-directory="):
            dest = a.partition("=")[2]
        elif a == "--target-directory" or (target_opt and a[1:2] != "-" and "t" in a):
            value = a.partition("t")[2] if a[1:2] != "-" else ""
            dest = value or (argv[k + 1] if k + 1 < len(argv) else None)
            k += not value
        elif a in _VALUED:
            k += 1
        k += 1
    return [*args, dest] if dest is not None else args


def _place(path: str, env: Vars) -> str:
    """Where ``path`` is, as far as the line tells: against the directory the line moved
    to and the payload's, ``$TMPDIR``/``$HOME``/``~`` as the hook's environment has them
    (``mv src "$TMPDIR/x"; cd "$TMPDIR" && rm -rf x`` names one place twice)."""
    from dcg.oslite import environ

    for name in ("TMPDIR", "HOME"):
        for token in (f"${name}", f"${{{name}}}", *(("~",) if name == "HOME" else ())):
            value = environ.get(name, "")
            rest = path[len(token) :]
            if path.startswith(token) and rest[:1] in ("", "/") and name not in env and value:
                path = value.rstrip("/") + rest
    here, start = env.get(CWD), env.get(_START)
    if not path.startswith("/") and here is not None and here != "\x00?":
        path = here.rstrip("/") + "/" + path
    if not path.startswith("/") and start:
        path = start.rstrip("/") + "/" + path
    return _norm(path)


def carry(child: Vars, env: Vars) -> None:
    """What code an interpreter ran wrote and moved (``os.rename('src', 'build')``), kept
    for the rest of the line."""
    env.state.files.update(child.state.files)
    env.state.moved.update(child.state.moved)


# The destination of a move into a place named at run time (`mv src "$(mktemp -d)"`, a
# temp directory as often as not): a later deletion of a glob or of a computed path may be
# a deletion of it.
SOMEWHERE = "\x00somewhere"


def record_move(args: list[str], env: Vars) -> None:
    if len(args) < 2:
        return
    dest = SOMEWHERE if args[-1].startswith(("$(…)", "`…`")) else _place(args[-1], env)
    env.state.moved[dest] = "\x1f".join(_place(a, env) for a in args[:-1])


# Programs that rename the files they are given: perl's rename (`rename 's/a/b/' FILES`,
# also prename, file-rename), util-linux's (`rename FROM TO FILES`, rename.ul), mmv.
RENAMERS = frozenset(("rename", "prename", "file-rename", "perl-rename", "rename.ul", "mmv"))
_REGEX = frozenset("\\^$.*+?()[]{}|")


def _perl_subst(expr: str) -> tuple[str, str, bool] | None:
    """``s/FROM/TO/g`` (any delimiter) with a literal FROM: (FROM, TO, every occurrence)."""
    if len(expr) < 4 or expr[0] != "s" or expr[1].isalnum():
        return None
    parts = expr[2:].split(expr[1])
    if len(parts) != 3 or not parts[0] or any(c in _REGEX for c in parts[0] + parts[1]):
        return None
    return parts[0], parts[1], "g" in parts[2]


def record_renames(argv: list[str], env: Vars) -> None:
    """Record what a rename tool moves: each file's new name from a literal ``s/FROM/TO/``
    or util-linux's ``FROM TO`` (an expression dcg cannot apply renames each path named,
    not globbed, to a name of its directory: ``DIR/*`` then stands for it); mmv's ``FROM
    TO`` with its wildcards cut at the first one (``mmv 'src/*' 'lib/#1'``: src's files to
    lib)."""
    ops = [a for a in argv[1:] if a[:1] != "-"]
    if argv[0] == "mmv":
        if len(ops) == 2:
            src, dest = ops[0].split("*")[0].split("?")[0], ops[1].split("#")[0]
            record_move([src.rstrip("/") or ".", dest.rstrip("/") or "."], env)
        return
    perl = argv[0] != "rename.ul" and ops[:1] != [] and ops[0][:2] in ("s/", "s|", "s#", "y/")
    if perl or argv[0] in ("prename", "file-rename", "perl-rename"):
        subst, files = _perl_subst(ops[0]) if ops else None, ops[1:]
    elif len(ops) >= 3:
        subst, files = (ops[0], ops[1], "-a" in argv or "--all" in argv), ops[2:]
    else:
        return
    for name in files:
        if subst is None and any(c in name for c in "*?["):
            continue  # files of a pattern renamed by an expression: files, not a tree
        if subst is None:
            head = name.rstrip("/").rpartition("/")[0]
            new = f"{head}/*" if head else "*"
        else:
            new = name.replace(subst[0], subst[1], -1 if subst[2] else 1)
        if new != name:
            record_move([name, new], env)


# A find whose starting points hold work the line moved under a build-output name: its
# name tests for output (`-name build`, `-path ./dist`) now select that work.
HOLDS_MOVED = "holds work moved on this line under an output name"


def _output_name(rel: str) -> bool:
    from dcg.regenerable import is_regenerable_name

    return any(is_regenerable_name(p) for p in rel.split("/") if p)


# Tools that delete a build-output directory of the project without naming it: (program,
# subcommand, directory). A tree the line moved there is deleted with it (`mv src
# node_modules; npm ci`).
_CLEANERS = (
    ("npm", "ci", "node_modules"),
    ("cargo", "clean", "target"),
    ("mvn", "clean", "target"),
    ("mvnw", "clean", "target"),
    ("gradle", "clean", "build"),
    ("gradlew", "clean", "build"),
    ("flutter", "clean", "build"),
    ("flutter", "clean", ".dart_tool"),
)


def _cleaned(work: Work, env: Vars) -> None:
    """Queue ``rm -rf SOURCE`` for each tree the line moved into the output directory a
    cleaning command deletes (and for ``python3 -m venv --clear DIR``)."""
    argv = work.argv
    dirs = [d for p, sub, d in _CLEANERS if argv[0] == p and sub in argv[1:]]
    if argv[0].startswith("python") and argv[1:3] == ["-m", "venv"] and "--clear" in argv:
        dirs += [a for a in argv[3:] if a[:1] != "-"]
    for directory in dirs:
        place = _place(directory, env)
        for dest, sources in env.state.moved.items():
            if (
                sources
                and not dest.startswith(SAME)
                and (dest == place or dest.startswith(place + "/"))
            ):
                why = f"{argv[0]} {directory} deletes what the line moved there"
                work.payloads += [
                    ("argv", why, "", ["rm", "-rf", s]) for s in sources.split("\x1f")
                ]


def _matched(target: str, dest: str) -> str | None:
    """The path a deletion of ``target`` deletes that ``dest`` is or lies under: the target
    itself, or the ancestor of ``dest`` its glob matches (``rm -rf /tmp/tmp.*`` after
    ``mv src $(mktemp -d)``, whose name stands as ``tmp.XXXXXXXXXX``); None if neither."""
    from dcg.shell.expand import has_glob, path_match

    bare = target.rstrip("/")
    if dest == SOMEWHERE:
        from dcg.shell.expand import has_glob

        return dest if has_glob(target) or "$" in target else None
    if target == "/" or dest == target or dest.startswith(bare + "/"):
        return bare
    if dest.endswith("/*") and path_match(dest, bare):  # renamed by an expression: any name
        return bare
    if not has_glob(target):
        return None
    depth = len(bare.strip("/").split("/"))
    above = "/" + "/".join(dest.strip("/").split("/")[:depth])
    return above if path_match(bare, above) else None


def stands_for(work: Work, env: Vars) -> None:
    """Add to a deletion the paths whose content its targets hold since an earlier ``mv`` or
    ``ln -s`` on the line, so that they are judged as the deletion's targets too."""
    from dcg.shell.deleters import node_deleter_operands

    argv = work.argv
    if argv[0] not in _DELETERS and node_deleter_operands(argv) is None:
        if len(argv) > 1:
            _cleaned(work, env)
        return
    made = [(k, v) for k, v in env.state.moved.items() if v and not k.startswith(SAME)]
    extra: list[str] = []
    holds = False
    first = 0
    for k in range(1, len(argv)):
        a = argv[k]
        if a.startswith("-") or (argv[0] == "find" and a[:1] in ("(", "!")):
            if argv[0] == "find" and first:
                break
            continue
        first = first or k
        n = _place(a, env)
        for dest, sources in made:
            for src in (sources or "").split("\x1f") if sources else ():
                under = _matched(n, dest)
                if under is not None:
                    extra.append(src)
                    holds = holds or _output_name(dest[len(under) :])
                elif n.startswith(dest + "/"):
                    extra.append(src.rstrip("/") + n[len(dest) :])
    if holds and argv[0] == "find":  # `mv src build; find . -name build -exec rm -rf {} +`
        work.via = (*work.via, HOLDS_MOVED)
    if extra and first:
        at = first + 1 if argv[0] == "find" else len(argv)
        work.argv = [*argv[:at], *extra, *argv[at:]]
        work.dyns = [*work.dyns[:at], *([False] * len(extra)), *work.dyns[at:]]
        work.data = {(j + len(extra) if j >= at else j): why for j, why in work.data.items()}


# A key of the ``moved`` table for hard links the line made (``cp -al src n``, ``ln src/a
# n/a``, ``rsync --link-dest=src``): SAME + the path made -> the paths it shares files with.
# Writing in place into one writes the other; deleting one leaves the other.
SAME = "\x00same:"


def record_links(name: str, argv: list[str], env: Vars) -> None:
    """Record the hard links ``cp -l``/``--link``, ``ln`` without ``-s`` and ``rsync
    --link-dest=DIR`` make: the destination (or the file under it) is the same file."""
    flags = [a for a in argv[1:] if a[:1] == "-" and a != "-"]
    short = "".join(a[1:] for a in flags if a[1:2] != "-")
    if name == "rsync":
        dirs = [a.partition("=")[2] for a in flags if a.startswith("--link-dest=")]
        dirs += [argv[k + 1] for k in range(1, len(argv) - 1) if argv[k] == "--link-dest"]
        ops = [a for a in argv[1:] if a[:1] != "-" and a not in dirs]
        if dirs and ops:
            env.state.moved[SAME + _place(ops[-1], env)] = "\x1f".join(_place(d, env) for d in dirs)
        return
    if name == "cp" and not ("l" in short or "--link" in flags):
        return
    if name == "ln" and ("s" in short or any(a.startswith("--symbolic") for a in flags)):
        return
    args = move_args(argv[1:])
    if len(args) < 2:
        return
    dest = _place(args[-1], env)
    sources = [_place(a, env) for a in args[:-1]]
    if len(sources) > 1 or os.path.isdir(dest):  # into a directory: under their own names
        for src in sources:
            env.state.moved[SAME + dest + "/" + src.rpartition("/")[2]] = src
    else:
        env.state.moved[SAME + dest] = sources[0]


def _shared(word: str, env: Vars) -> list[str]:
    """The files a write in place into ``word`` (a path or a glob) also writes: those a
    hard link the line made under it shares, or a move or symbolic link put there."""
    from dcg.shell.expand import has_glob, path_match

    n = _place(word, env)
    found = []
    for key, sources in env.state.moved.items():
        dest = key[len(SAME) :] if key.startswith(SAME) else key  # mv and ln -s too
        if not sources or dest == SOMEWHERE or has_glob(dest):
            continue
        for src in sources.split("\x1f"):
            if n == dest or (has_glob(n) and path_match(n, dest)):
                found.append(src)
            elif n.startswith(dest + "/"):
                found.append(src + n[len(dest) :])
    return found


def same_redirects(redirects: list[tuple[str, str]], env: Vars) -> None:
    """Writes in place into hard links the line made write the files they share: add the
    linked paths to a truncating redirection's targets (``: > n/*`` after ``cp -al src n``)."""
    for op, target in list(redirects):
        if target and ">" in op and ">>" not in op and op != "<>" and not target.isdigit():
            redirects += [(op, s) for s in _shared(target, env)]


def same_operands(work: Work, env: Vars) -> None:
    """Likewise the operands of ``truncate`` and ``tee`` (not ``-a``), ``dd of=``."""
    argv = work.argv
    if argv[0] == "dd":
        extra = [f"of={s}" for a in argv[1:] if a.startswith("of=") for s in _shared(a[3:], env)]
    elif argv[0] == "truncate" or (argv[0] == "tee" and not any(
            a in ("-a", "--append") for a in argv[1:])):  # fmt: skip
        extra = [s for a in argv[1:] if a[:1] != "-" for s in _shared(a, env)]
    else:
        return
    work.argv += extra
    work.dyns += [False] * len(extra)
