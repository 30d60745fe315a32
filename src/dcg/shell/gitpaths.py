"""Git's own rule for which words of ``git checkout`` are paths, made explicit with ``--``.

``git checkout src``, ``git checkout HEAD src``, ``git checkout '*.py'``, ``git checkout
':(top)'`` overwrite work-tree files exactly as ``git checkout -- src`` does: git takes
the first operand as a revision when it names one, and every other operand (or all of
them, when the first names no revision) as a pathspec. :func:`checkout` inserts the
``--`` git implies, so the rules that look for it see the command git runs. A word that
can never be a ref name (``.``, pathspec magic, a glob, ``./x``, ``dir/``) is a path; a
plain word is a path when it exists in the work tree and no branch, tag or remote branch
of the repository has its name. Reads a few files of ``.git`` only for ``git checkout``.
"""

from __future__ import annotations

from dcg import oslite as os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.shell.parser import Simple
    from dcg.shell.state import Vars
    from dcg.shell.unwrap import Work
    from dcg.shell.words import Word

# Options of git checkout that take the next word as their value.
_VALUED = frozenset(("-b", "-B", "--orphan", "--conflict", "--pathspec-from-file", "-U"))
# Options after which there are no paths to overwrite (a new branch, a patch prompt).
_NO_PATHS = frozenset(("-b", "-B", "--orphan", "-p", "--patch", "--detach", "-d"))
_SPECIAL = frozenset(("HEAD", "FETCH_HEAD", "ORIG_HEAD", "MERGE_HEAD", "@", "-"))
# git subcommands that print revisions or ref names rather than paths: a loop or xargs
# over their output checks out branches, not files.
_REF_LISTERS = frozenset(("branch", "tag", "for-each-ref", "rev-list", "rev-parse", "log",
                          "show-ref", "remote", "describe", "name-rev", "symbolic-ref",
                          "reflog", "shortlog", "cherry", "merge-base", "worktree"))  # fmt: skip
# Where xargs or parallel hand their input to the command as words.
_FEEDERS = ("xargs", "parallel")
# What runs a command once for each name it reads or finds (``find -exec``, ``xargs``).
_RUNNERS = ("xargs", "parallel", "find")


def never_ref(word: str) -> bool:
    """A word git cannot read as a ref name, so as an operand it is a pathspec."""
    return (
        word in (".", "..")
        or word.startswith((":", "./", "../"))
        or word.endswith(("/", ".lock"))
        or any(c in word for c in "*?[\\ \t")
        or "/." in word
        or "//" in word
    )


def _git_dirs(here: str) -> list[str]:
    from dcg.shell import gitconfig

    return [os.path.dirname(p) for p in gitconfig.repository_config(here)]


def is_ref(here: str, name: str) -> bool:
    """Whether ``name`` names a revision in the repository ``here`` is in (or could: a
    hexadecimal word may be a commit)."""
    if name in _SPECIAL or name.startswith(("@{", "HEAD~", "HEAD^")) or "~" in name or "^" in name:
        return True
    if 4 <= len(name) <= 64 and all(c in "0123456789abcdef" for c in name.lower()):
        return True
    for git_dir in _git_dirs(here):
        for ref in (name, f"refs/{name}", f"refs/heads/{name}", f"refs/tags/{name}"):
            if os.path.isfile(os.path.join(git_dir, ref)):
                return True
        remotes = os.path.join(git_dir, "refs", "remotes")
        try:
            names = os.listdir(remotes)
        except OSError:
            names = []
        if any(os.path.isfile(os.path.join(remotes, r, name)) for r in names):
            return True
        try:
            with open(os.path.join(git_dir, "packed-refs"), encoding="utf-8") as f:
                packed = f.read(1 << 20)
        except OSError:
            continue
        for line in packed.split("\n"):
            ref = line.partition(" ")[2]
            if ref.startswith("refs/") and (ref == f"refs/{name}" or ref.endswith("/" + name)):
                return True
    return False


def _lists_refs(argv: list[str] | tuple[str, ...]) -> bool:
    return len(argv) > 1 and argv[0] == "git" and argv[1] in _REF_LISTERS


def _held_names(word: Word, env: Vars) -> bool:
    """The word holds a variable set to names read at run time that are not ref names."""
    from dcg.shell.words import NAMES

    for kind, value, raw, _q in word.parts:
        name = value if kind == "v" else ""
        if raw[:2] == "${":
            name = "".join(c for c in raw[2:].lstrip("!#").partition("[")[0] if c.isalnum()
                           or c == "_")  # fmt: skip
        origin = env.state.origins.get(name) if name else None
        if origin and origin.startswith(NAMES):
            src = origin.rpartition(" (")[2].rstrip(")").split() if origin[-1:] == ")" else []
            if not _lists_refs(src):
                return True
    return False


def _bare(word: Word) -> str:
    return "".join(p[2] for p in word.parts).replace('"', "").replace("'", "")


def _one_name(word: Word, env: Vars, args: list[Word]) -> bool:
    """The ``>`` target is the name itself (``"$f"``, ``src/$f``: not ``$f.bak``), a name
    read at run time or a loop variable standing for each file of a glob."""
    from dcg.shell.expand import has_glob

    parts = word.parts
    if not parts or parts[-1][0] != "v" or any(p[0] not in ("s", "v") for p in parts):
        return False
    if any(p[0] == "v" for p in parts[:-1]):
        return False
    if parts[:-1] and not any(_bare(w).endswith(":" + _bare(word)) for w in args):
        return False  # `> backup/$f`: elsewhere, unless the object read is `REV:backup/$f`
    value = env.get(parts[-1][1])
    return _held_names(word, env) or (value is not None and has_glob(value))


def runtime_names(simple: Simple, env: Vars, via: tuple[str, ...] = ()) -> str:
    """``"out"`` when a ``>`` target of ``simple`` is a file name read at run time (``for f
    in $(git diff --name-only)``, ``… | while read f``, or the name xargs, parallel or
    find -exec fill in: ``xargs -I% sh -c 'git show HEAD:% > %'``), ``"args"`` when only
    its arguments hold such names, ``""`` otherwise (:attr:`dcg.shell.unwrap.Work.names`)."""
    from dcg.shell.words import Heredoc

    repeated = any(v.split(" ")[0] in _RUNNERS for v in via)
    for op, target in simple.redirects:
        if (
            op in (">", ">|", "&>")
            and target is not None
            and not isinstance(target, Heredoc)
            and (
                _one_name(target, env, simple.words[1:])
                or (repeated and _object_of(target, simple.words[1:]))
            )
        ):
            return "out"
    return "args" if any(_held_names(w, env) for w in simple.words[1:]) else ""


def _object_of(target: Word, args: list[Word]) -> bool:
    """The ``>`` target names the file an argument reads from git (``REV:T > T``, ``:T``),
    as a command run once per name does: each name's stored copy written over it."""
    out = _bare(target).removeprefix("./")
    if not out:
        return False
    for word in args:
        text = _bare(word)
        rev, colon, path = text.partition(":")
        if colon and not rev.startswith("-") and path.removeprefix("./") == out:
            return True
    return False


def tee_names(simple: Simple, pipe: Simple, env: Vars, via: tuple[str, ...]) -> bool:
    """``git show HEAD:"$f" | tee "$f"`` for each name read at run time (a loop, xargs,
    find -exec): tee writes git's copy over each listed file."""
    fields = pipe.fields
    if fields[:1] != ["git"] or not ({"show", "cat-file"} & set(fields[1:4])):
        return False
    if any(_bare(w) in ("-a", "--append") for w in simple.words[1:]):
        return False  # appended to: the work stays
    repeated = any(v.split(" ")[0] in _RUNNERS for v in via)
    for word in simple.words[1:]:
        text = _bare(word)
        if text.startswith("-") or not text:
            continue
        if _one_name(word, env, pipe.words[1:]) or (repeated and _object_of(word, pipe.words[1:])):
            return True
    return False


def _fed_names(w: Work) -> bool:
    """xargs or parallel append names it reads at run time, from something other than a
    list of refs (``git ls-files -m | xargs git checkout``)."""
    if not w.via or w.via[-1].split(" ")[0] not in _FEEDERS:
        return False
    return (w.fed is None and w.stdin is None) and not _lists_refs(w.feeder_argv)


def checkout(w: Work, here: str | None) -> None:
    """Insert the ``--`` git implies before the paths of ``git checkout`` in ``w``; names
    read at run time (a loop over a command's output, ``read``, xargs) are paths unless
    they come from a list of refs."""
    argv = w.argv
    if len(argv) < 3 and not (argv[1:2] == ["checkout"] and _fed_names(w)):
        return
    if argv[1] != "checkout" or "--" in argv[2:]:
        return
    operands: list[int] = []
    k = 2
    while k < len(argv):
        a = argv[k]
        name = a.partition("=")[0]
        if name in _NO_PATHS or (a[:1] == "-" and a[1:2] != "-" and any(c in a for c in "bBp")):
            return
        if a.startswith("-") and a != "-":
            k += 2 if (a in _VALUED and "=" not in a) else 1
            continue
        operands.append(k)
        k += 1
    fed = _fed_names(w)
    if fed or w.names:
        # The names xargs appends, or `{}` it fills in; a variable holding read names.
        named = [k for k in operands if "{}" in argv[k] or argv[k] == "%"] if fed else []
        named += [k for k in operands if w.names and w.dyns[k] and "$(…)" in argv[k]]
        if named or fed:
            at = min(named) if named else len(argv)
            _insert(w, at)
            return
    if not operands or any(w.dyns[k] for k in operands):
        return
    first = argv[operands[0]]
    if len(operands) > 1:
        at = operands[1] if not never_ref(first) else operands[0]
    else:
        on_disk = here is not None and os.path.lexists(os.path.join(here, first))
        if not (never_ref(first) or (on_disk and here is not None and not is_ref(here, first))):
            return
        at = operands[0]
    _insert(w, at)


def _insert(w: Work, at: int) -> None:
    argv = w.argv
    w.argv = [*argv[:at], "--", *argv[at:]]
    w.dyns = [*w.dyns[:at], False, *w.dyns[at:]]
    w.data = {(j + 1 if j >= at else j): why for j, why in w.data.items()}
