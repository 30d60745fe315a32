"""Writes that empty or replace many files at once: a glob or a loop's names as the target.

``for f in src/*; do : > "$f"; done``, ``tee src/*``, ``git ls-files | xargs -n1 cp
/dev/null``, ``find src -exec sh -c ': > "$1"' _ {} \\;``: each file is emptied or replaced
like a deletion of its content, and many files by pattern are a tree in effect (issue 32),
so they are judged as ``rm`` of the same words is (:func:`dcg.safe_delete.rm_files_outside_temp`).
One file named is the safety net's: it keeps a copy. A target made from another pattern
(``envsubst < "$f" > "${f%.in}"``, ``cp "$f" "$f.bak"``) writes new names, not these.
"""

from __future__ import annotations

from dcg.shell.command import Command

# What dcg.shell.payloads.LEFTOVERS adds to the label of a find that selects only leftovers.
LEFTOVERS = " of leftovers"

# What a loop over a command's output or input read, and find's or xargs' `{}`, stand for.
_NAMES = ("$(…)", "`…`")
_FEEDERS = ("xargs", "parallel", "find")
_GLOB = frozenset("*?[")


def _truncating(op: str, target: str) -> bool:
    """A redirection that empties its target first: not an append, ``<>`` or ``>&2``."""
    if ">>" in op or op == "<>" or ">" not in op:
        return False
    if op.endswith(">&"):  # `>&2` duplicates a descriptor; `>&file` writes file
        return not (target.isdigit() or target == "-")
    return True


def _letter(argv: tuple[str, ...], short: str, long: str) -> bool:
    return any(a == long or (a[:1] == "-" and a[1:2] != "-" and short in a) for a in argv[1:])


def written(command: Command) -> tuple[list[str], list[str]]:
    """(what the command empties or replaces, the words it reads): truncating redirections,
    ``tee`` without ``-a``, the destination of ``cp``/``install``/``mv`` (without ``-n``)
    and ``ln -f``, ``dd of=``, ``sponge``."""
    from dcg.shell.moves import move_args

    argv = command.argv
    out = [t for op, t in command.redirects if t and _truncating(op, t)]
    read = [t for op, t in command.redirects if op == "<" and t]
    name = argv[0] if argv else ""
    if name == "tee" and not _letter(argv, "a", "--append"):
        out += [a for a in argv[1:] if a[:1] != "-"]
    elif (name in ("cp", "install", "mv") and not _letter(argv, "n", "--no-clobber")) or (
        name == "ln" and _letter(argv, "f", "--force")
    ):
        ops = move_args(list(argv[1:]))
        out += ops[-1:] if len(ops) > 1 else []
        read += ops[:-1]
    elif name == "dd":
        out += [a[3:] for a in argv[1:] if a.startswith("of=")]
    elif name == "sponge" and not _letter(argv, "a", "--append"):
        out += [a for a in argv[1:] if a[:1] != "-"]
    else:
        read += [a for a in argv[1:] if a[:1] != "-"]
    return out, read


def _feeder(via: tuple[str, ...]) -> str:
    """The innermost via label of what runs the command once per name (xargs, parallel,
    find -exec), ``""`` without one."""
    return next((v for v in reversed(via) if v.split(" ")[0] in _FEEDERS), "")


def _many(word: str, via: tuple[str, ...]) -> bool:
    last = word.rpartition("/")[2]
    feeder = _feeder(via)
    # find's names, when its expression selects only leftovers (`-name '*.orig'`), are
    # litter, as `rm src/*.orig` is (dcg.shell.payloads.leftovers).
    fed = last == "{}" and bool(feeder) and not feeder.endswith(LEFTOVERS)
    return fed or last.endswith(_NAMES) or any(c in _GLOB for c in last)


def _fed_by_xargs(command: Command) -> bool:
    feeder = _feeder(command.via)
    return feeder.split(" ")[0] in ("xargs", "parallel") and not feeder.endswith(LEFTOVERS)


def many_overwrites_outside_temp(command: Command, cwd: str) -> bool:
    """Rule check: the command empties or replaces the files of a glob or of names read at
    run time (a loop's list, ``read``, find's or xargs' ``{}``), outside what is safe to
    delete, as ``rm`` of those words would be judged."""
    from dcg.safe_delete import all_safe, rm_files_outside_temp
    from dcg.targets import resolve

    targets, read = written(command)
    argv = command.argv
    if not targets:  # `… | xargs -n1 cp /dev/null`: xargs adds the destination
        adds = argv[:1] in (("cp",), ("install",), ("tee",), ("sponge",)) or (
            argv[:1] == ("ln",) and _letter(argv, "f", "--force")
        )
        return adds and _fed_by_xargs(command) and len([a for a in argv if a[:1] != "-"]) <= 2
    from dcg.shell.pername import EDITED, REPLACED

    if EDITED in command.via:
        return False  # `sed … "$f" > "$f.new"; mv "$f.new" "$f"`: each edited, as by sed -i
    many: list[str] = []
    for word in targets:
        if not _many(word, command.via):
            continue
        if REPLACED not in command.via and any(r != word and _many(r, command.via) for r in read):
            continue  # `sed … "$f" > "$f.new"`: a name made from another pattern's
        head, _, last = word.rpartition("/")
        if last == "{}" or last.endswith(_NAMES):
            place = resolve(head or ".", cwd)
            if place is not None and head and all_safe([place], cwd):
                continue  # `> "out/$f"`, `> /tmp/x/{}`: into output or temp
            word = f"{head}/$(…)" if head else "$(…)"
        many.append(word)
    return bool(many) and rm_files_outside_temp(Command(("rm", *many), via=command.via), cwd)
