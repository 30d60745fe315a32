"""Whether a patch that ``git apply`` or ``patch`` applies takes back uncommitted work.

``git diff`` (and ``git stash show -p``) prints the work tree's own changes; applied in
reverse they are undone, and so is ``git diff -R`` applied forward. The patch reaches the
applying command piped (through ``tee``, ``cat``, ``dd``, a subshell or ``sh -c``), as
``<(git diff)``, a here-string of ``$(git diff)``, or a file written earlier on the line
(``> p``, ``tee p``, ``--output=p``, a copy) or in an earlier call (read against the
index: :mod:`dcg.shell.gitpatch`). A command that undoes work is marked
``--worktree-diff`` for the ``apply-reverse`` and ``patch-reverse`` rules.
"""

from __future__ import annotations

from dcg import oslite as os
from dcg.shell.words import Heredoc

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.shell.command import Command
    from dcg.shell.parser import Simple
    from dcg.shell.state import Vars
    from dcg.shell.unwrap import Work
    from dcg.shell.words import Word

FORWARD = "\x00worktree-diff"  # what a file written by `git diff > p` holds
REVERSED = "\x00worktree-diff-reversed"  # `git diff -R > p`
_GLOBAL_VALUED = frozenset(("-c", "-C", "--git-dir", "--work-tree", "--namespace",
                            "--config-env", "--exec-path", "--super-prefix"))  # fmt: skip
# Programs that pass their input through unchanged (tee, cat with no file, dd with no if=).
_THROUGH = frozenset(("tee", "cat", "dd", "pv", "buffer", "mbuffer", "sponge", "stdbuf"))


def git_args(argv: list[str] | tuple[str, ...]) -> list[str]:
    """``git [global options] SUB ARGS…`` as ``[SUB, ARGS…]`` (``[]``: not git)."""
    from dcg.shell.toolruns import _unwrapped

    argv = _unwrapped(list(argv))
    if not argv or argv[0].rpartition("/")[2] != "git":
        return []
    k = 1
    while k < len(argv) and argv[k].startswith("-"):
        k += 2 if argv[k] in _GLOBAL_VALUED else 1
    return list(argv[k:])


def sense(argv: list[str] | tuple[str, ...]) -> int:
    """1 when ``argv`` prints a patch of the uncommitted work (``git diff [HEAD] [-- paths]``,
    ``git stash show -p``), -1 when that patch reversed (``-R``), 0 otherwise."""
    args = git_args(argv)
    if args[:2] == ["stash", "show"]:
        return -1 if "-R" in args else 1
    if args[:1] != ["diff"]:
        return 0
    opts = [a for a in args[1:] if a.startswith("-")]
    revs = [a for a in args[1:] if not a.startswith("-")]
    if "--" in args:
        revs = [a for a in args[1 : args.index("--")] if not a.startswith("-")]
    if any(o in ("--cached", "--staged", "--no-index") for o in opts):
        return 0
    ranges = [r for r in revs if ".." in r and r != ".." and not r.startswith(("../", "/"))]
    if len(revs) > 1 or ranges:
        return 0
    return -1 if "-R" in opts else 1


def marker(argv: list[str] | tuple[str, ...]) -> str | None:
    """What a file ``argv``'s output is written to holds (None: text dcg cannot know)."""
    found = sense(argv)
    return FORWARD if found == 1 else REVERSED if found == -1 else None


def output_files(argv: list[str]) -> list[str]:
    """The files ``git diff --output=FILE`` and ``git archive -o FILE`` write."""
    args = git_args(argv)
    if args[:1] not in (["diff"], ["archive"]):
        return []
    out = [a.partition("=")[2] for a in args if a.startswith("--output=")]
    out += [args[k + 1] for k in range(len(args) - 1) if args[k] == "--output"]
    if args[0] == "archive":
        out += [args[k + 1] for k in range(len(args) - 1) if args[k] == "-o"]
        out += [a[2:] for a in args if a.startswith("-o") and len(a) > 2]
    return out


def substituted(word: Word, made: tuple[str, ...], env: Vars) -> None:
    """Remember what a substitution's output is: ``<(git diff)`` names a file holding it,
    ``p=$(git diff)`` a variable."""
    parts = word.parts
    if len(parts) == 1 and parts[0][2] == "<(…)":
        found = marker(made) if made else None
        if found is None:
            env.state.files.pop("<(…)", None)
        else:
            env.state.files["<(…)"] = found
    elif word.assign and len(parts) == 2 and parts[1][0] == "c":
        if made and sense(made):
            env.state.outputs[word.assign] = "\x00".join(made)
        else:
            env.state.outputs.pop(word.assign, None)


def _held(word: Word, env: Vars) -> list[str]:
    """The command whose output the word ``"$p"`` is, when ``p=$(…)`` still holds it."""
    parts = word.parts
    if len(parts) != 1 or parts[0][0] != "v" or env.get(parts[0][1]) is not None:
        return []
    held = env.state.outputs.get(parts[0][1])
    return held.split("\x00") if held else []


def printed(work: Work, simple: Simple, made: tuple[str, ...], env: Vars) -> None:
    """``git apply -R <<< "$(git diff)"`` (or ``<<< "$p"``) reads what that command printed;
    ``echo "$p" | …`` passes on what ``p=$(git diff)`` holds."""
    if not work.source:
        held = list(made)
        for op, target in simple.redirects:
            if op == "<<<" and not held and target is not None and not isinstance(target, Heredoc):
                held = _held(target, env)
        work.source = held or work.source
    if work.argv[:1] in (["echo"], ["printf"]) and env.state.outputs:
        for word in simple.words[1:]:
            held = _held(word, env)
            if held:
                from dcg.shell.parser import Simple

                stand_in = Simple()
                stand_in.fields = held
                simple.group = [stand_in]  # what `… | git apply -R` reads (linefiles.origin)
                return


def through(argv: list[str] | tuple[str, ...]) -> bool:
    """Whether the pipe stage ``argv`` passes its input on unchanged."""
    from dcg.shell.unwrap import normalize

    name = normalize(argv[0]) if argv else ""
    if name not in _THROUGH:
        return False
    rest = [a for a in argv[1:] if not a.startswith("-")]
    if name == "cat":
        return all(a == "-" for a in rest)
    if name == "dd":
        return not any(a.startswith("if=") for a in argv[1:])
    if name == "sponge":
        return not rest
    return True


def _apply_reverse(argv: list[str]) -> bool:
    """``git apply -R`` (``--reverse``, ``-vR``; ``-p``/``-C`` take the rest of a word)."""
    for a in argv[2:]:
        if a == "--":
            return False
        if a.startswith("--rev") and "--reverse".startswith(a):  # git takes a unique prefix
            return True
        if a[:1] == "-" and a[1:2] != "-":
            for c in a[1:]:
                if c == "R":
                    return True
                if c in "pC":
                    break
    return False


def _written(path: str, env: Vars) -> str | None:
    """What the line wrote to ``path`` (however spelled: ``p``, ``./p``, ``$PWD/p``),
    following copies (``cp a b``, ``cat a > b``, ``ln -s a b``)."""
    from dcg.shell.gitsources import absolute

    for _ in range(8):
        files = env.state.files
        key = path
        if key not in files:
            full = absolute(env, path)
            key = next((k for k in files if absolute(env, k) == full), key)
        value = files.get(key)
        if value is None or not value.startswith("\x00copy:"):
            return value
        path = value[len("\x00copy:") :]
    return None


def _file_sense(path: str, env: Vars, here: str, reverse: bool) -> bool:
    """Whether applying the file ``path`` (``reverse``: in reverse) undoes uncommitted work."""
    value = _written(path, env)
    if value in (FORWARD, REVERSED):
        return (value == FORWARD) == reverse
    from dcg.shell import gitforms

    text = gitforms._patch(path, env, here)
    if reverse:
        return gitforms.reverses_worktree(text, here)
    return _restores_index(text, here)


def _restores_index(patch: str, here: str) -> bool:
    """Whether applying ``patch`` forward puts a file with unstaged changes back to its
    index content (``git diff -R``'s ``index WORK..INDEX`` lines)."""
    from dcg.shell import gitforms, gitpatch

    dirs = gitforms._git_dirs(here)
    if "\nindex " not in "\n" + patch or not dirs:
        return False
    git_dir = dirs[-1]
    top = os.path.dirname(git_dir) if os.path.basename(git_dir) == ".git" else here
    return gitpatch.restores_index(patch, top, git_dir)


def undoes_work(w: Work, env: Vars, here: str | None, files: list[str], reverse: bool) -> bool:
    """Whether the patch ``w`` applies (``files``, else its input) undoes uncommitted work."""
    want = 1 if reverse else -1  # a forward diff reversed, or a reversed diff applied
    if not files and w.feeder in ("ls", "echo") and any(v[:5] == "xargs" for v in w.via):
        files = [a for a in w.feeder_argv[1:] if a[:1] != "-"]  # `ls *.patch | xargs …`
    if any("*" in f or "?" in f or "[" in f for f in files):  # `git apply -R *.patch`
        from dcg.shell import patchsets

        files = patchsets.files(files, env, here)
    if files:
        return here is not None and any(_file_sense(f, env, here, reverse) for f in files)
    if w.source and sense(w.source):
        return sense(w.source) == want
    if w.source[:1] == ["cat"] and here is not None:  # cat p | sh -c 'git apply -R'
        names = [a for a in w.source[1:] if not a.startswith("-")]
        return any(_file_sense(f, env, here, reverse) for f in names)
    if w.infile is not None and w.infile != "/dev/null" and here is not None:
        return _file_sense(w.infile, env, here, reverse)
    if w.feed_files and here is not None:  # cat p.diff | git apply -R
        return any(_file_sense(f, env, here, reverse) for f in w.feed_files)
    return False


def apply(w: Work, env: Vars, here: str | None) -> None:
    """``git apply [-R] [FILE…]``: marked ``--worktree-diff`` when it undoes work."""
    argv = w.argv
    if "--worktree-diff" in argv:
        return
    files: list[str] = []
    k = 2
    while k < len(argv):
        a = argv[k]
        if a == "--":
            files += argv[k + 1 :]
            break
        if not a.startswith("-") or a == "-":
            files.append(a)
        k += 1
    files = [f for f in files if f not in ("-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0")]
    if undoes_work(w, env, here, files, _apply_reverse(argv)):
        w.argv = [*w.argv, "--worktree-diff"]
        w.dyns = [*w.dyns, False]


def patch(w: Work, env: Vars, here: str | None) -> None:
    """``git diff | patch -R``, ``patch -R < p.diff``, ``patch -i p.diff`` of ``git diff -R``:
    a patch that undoes the uncommitted changes is marked ``--worktree-diff``."""
    argv = w.argv
    reverse = False
    source: str | None = None
    ops: list[str] = []
    k = 1
    while k < len(argv):
        a = argv[k]
        if a in ("-R", "--reverse"):
            reverse = True
        elif a in ("-i", "--input") and k + 1 < len(argv):
            source = argv[k + 1]
            k += 1
        elif a.startswith("--input="):
            source = a.partition("=")[2]
        elif a.startswith("-") and a[1:2] != "-" and len(a) > 1:
            head = a[1:]
            for j, c in enumerate(head):
                if c == "R":
                    reverse = True
                if c in "pdioDFrBYVzg":  # takes a value: the rest of the word
                    if c == "i":
                        source = head[j + 1 :] or (argv[k + 1] if k + 1 < len(argv) else None)
                        k += 0 if head[j + 1 :] else 1
                    elif not head[j + 1 :]:
                        k += 1
                    break
        elif not a.startswith("-"):
            ops.append(a)
        k += 1
    if "--dry-run" in argv:
        return
    if source is None and len(ops) >= 2:
        source = ops[1]
    files = [source] if source not in (None, "-", "/dev/stdin", "/dev/fd/0") else []
    if undoes_work(w, env, here, [f for f in files if f], reverse):
        w.argv = [*w.argv, "--worktree-diff"]
        w.dyns = [*w.dyns, False]


def reverses(argv: tuple[str, ...] | list[str]) -> bool:
    """``git apply -R`` or ``patch -R`` (however the options are spelled)."""
    if list(argv[:2]) == ["git", "apply"]:
        return _apply_reverse(list(argv))
    return list(argv[:1]) == ["patch"] and any(
        a in ("-R", "--reverse") or (a[:1] == "-" and a[1:2] != "-" and "R" in a) for a in argv[1:]
    )


def find_reversals(work: Work, out: list[Command], mark: int, env: Vars) -> None:
    """A find whose matches reach ``git apply -R``/``patch -R`` (``-exec``, ``| xargs``):
    each file find can hand over is judged as that patch; one that takes back uncommitted
    work is emitted as ``git apply -R FILE --worktree-diff``."""
    emitted = [c for c in out[mark:] if c.argv and reverses(c.argv)]
    if not emitted or any("--worktree-diff" in c.argv for c in emitted):
        return
    find = work.argv if work.argv[:1] == ["find"] else work.feeder_argv
    if find[:1] != ["find"]:
        return
    from dcg.shell import patchsets
    from dcg.shell.command import Command

    cwd = patchsets.here(env)
    if cwd is None:
        return
    for path in patchsets.matches(find, env, cwd):
        if _file_sense(path, env, cwd, True):
            via = (*work.via, "find feeding a reversed patch")
            out.append(Command(("git", "apply", "-R", path, "--worktree-diff"), via=via))
            return
