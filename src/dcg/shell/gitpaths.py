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
    from dcg.shell.unwrap import Work

# Options of git checkout that take the next word as their value.
_VALUED = frozenset(("-b", "-B", "--orphan", "--conflict", "--pathspec-from-file", "-U"))
# Options after which there are no paths to overwrite (a new branch, a patch prompt).
_NO_PATHS = frozenset(("-b", "-B", "--orphan", "-p", "--patch", "--detach", "-d"))
_SPECIAL = frozenset(("HEAD", "FETCH_HEAD", "ORIG_HEAD", "MERGE_HEAD", "@", "-"))


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


def checkout(w: Work, here: str | None) -> None:
    """Insert the ``--`` git implies before the paths of ``git checkout`` in ``w``."""
    argv = w.argv
    if len(argv) < 3 or argv[1] != "checkout" or "--" in argv[2:]:
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
    w.argv = [*argv[:at], "--", *argv[at:]]
    w.dyns = [*w.dyns[:at], False, *w.dyns[at:]]
    w.data = {(j + 1 if j >= at else j): why for j, why in w.data.items()}
