"""A name replaced in two steps: what a file built earlier on the line holds when moved over it.

``for f in src/*; do sed … "$f" > "$f.new"; mv "$f.new" "$f"; done`` edits each file (as
``sed -i`` does); ``… > "$f.new"; mv "$f.new" "$f"`` after ``: >``, ``git show HEAD:"$f"``
or ``cp /dev/null t`` replaces each with other content. :func:`record` keeps, for each file
a command writes, the words that command read (the walker state's ``made`` table);
:func:`mark` labels a later ``mv``/``cp``/``install``/``ln -f`` of that file over a name
by what the name then holds, for dcg.manywrites: :data:`EDITED` (made from the name
itself), :data:`REPLACED` (made from anything else).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from dcg.shell.parser import Simple
    from dcg.shell.state import Vars
    from dcg.shell.unwrap import Work

EDITED = "moves over a name a file made from that name"
REPLACED = "moves over a name a file made from something else"
_MOVERS = frozenset(("mv", "cp", "install", "ln"))
# Programs whose output is made from the content of the files they are given (an edit):
# ``echo "$f"``, ``git diff "$f"``, ``md5sum "$f"`` print other things.
_FILTERS = frozenset(("sed", "gsed", "awk", "gawk", "mawk", "nawk", "tr", "cat", "tac", "sort",
    "uniq", "cut", "grep", "egrep", "fgrep", "rg", "head", "tail", "rev", "nl", "paste",
    "fold", "fmt", "expand", "unexpand", "column", "iconv", "dos2unix", "unix2dos", "perl",
    "jq", "yq", "envsubst", "m4", "cpp", "clang-format", "gofmt", "shfmt", "prettier",
    "black", "ruff", "isort", "autopep8", "yapf", "xmllint", "tidy", "zcat", "gzip", "gunzip",
    "bzip2", "xz", "zstd", "base64", "strings", "sponge", "tee", "ed", "ex", "patch"))  # fmt: skip


def record(simple: Simple, redirects: list[tuple[str, str]], env: Vars) -> None:
    """Remember what each file ``simple`` writes whole (``>``, ``tee``, ``dd of=``,
    ``sponge``, a copy's destination) was made from: the words it and the command piping
    into it read (its operands, ``<`` files, ``if=``)."""
    argv = simple.fields
    name = argv[0].rpartition("/")[2] if argv else ""
    out = [t for op, t in redirects if t and op in (">", ">|", "&>", "1>")]
    reads = [t for op, t in redirects if op == "<" and t]
    if name in _MOVERS:
        from dcg.shell.moves import move_args

        ops = move_args(argv[1:])
        out += ops[-1:] if len(ops) > 1 else []
        reads += ops[:-1]
    elif name in ("tee", "sponge"):
        out += [a for a in argv[1:] if a[:1] != "-"] if "-a" not in argv else []
    elif name == "dd":
        out += [a[3:] for a in argv[1:] if a.startswith("of=")]
        reads += [a[3:] for a in argv[1:] if a.startswith("if=")]
    elif name in _FILTERS:
        reads += [a for a in argv[1:] if a[:1] != "-"]
    pipe = simple.pipe_in
    fields = getattr(pipe, "fields", None)
    if fields and fields[0].rpartition("/")[2] in _FILTERS:  # `cat "$f" | tr a b > "$f.new"`
        reads += [a for a in fields[1:] if a[:1] != "-"]
    made = "\x1f".join(reads)
    for target in out:
        env.state.made[target] = made


def mark(work: Work, env: Vars) -> None:
    """``mv FILE NAME`` where FILE was written earlier on the line: label the command by
    whether FILE was made from NAME (:data:`EDITED`) or from something else (:data:`REPLACED`)."""
    argv = work.argv
    if argv[0] not in _MOVERS:
        return
    from dcg.shell.moves import move_args

    ops = move_args(argv[1:])
    if len(ops) != 2 or ops[0] not in env.state.made:
        return
    made = env.state.made[ops[0]]
    edited = made is not None and ops[1] in made.split("\x1f")
    work.via = (*work.via, EDITED if edited else REPLACED)
