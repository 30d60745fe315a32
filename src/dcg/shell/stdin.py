"""What a command's standard input carries: a pipe's text and source, a file, a shell's input.

``echo y | git checkout -p`` is answered from known text; ``git diff | tee p | git apply -R``
reads what ``git diff`` printed (its *source*, through commands that pass input on);
``… | sh -c 'git apply -R'`` and ``… | ( … )`` give their input to the commands inside;
``<<< "$(git diff)"`` and ``echo "$p" |`` carry what a substitution printed
(:mod:`dcg.shell.gitstream`).
"""

from __future__ import annotations

from dcg.shell import opaque, unwrap
from dcg.shell.parser import OPAQUE
from dcg.shell.static import piped_text

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from dcg.shell.parser import Simple
    from dcg.shell.state import Vars
    from dcg.shell.words import Word

_IN = frozenset(("<", "0<", "<>", "0<>", "<&", "0<&"))
# tar and unzip, and the others dcg.shell.gitarchive.OTHERS reads (tests check they agree)
_EXTRACTORS = frozenset(("tar", "gtar", "bsdtar", "unzip", "bsdunzip", "jar", "unar", "ark",
                         "cpio", "pax", "7z", "7za", "7zr", "7zz", "7zzs", "p7zip"))  # fmt: skip


def stdin_of(
    work: unwrap.Work,
    simple: Simple,
    redirects: list[tuple[str, str]],
    made: tuple[str, ...],
    env: Vars,
    via: tuple[str, ...],
) -> None:
    """Fill in what ``work`` reads (``made``: the command a here-string's ``$(…)`` ran),
    and for git which of its words are file names read at run time."""
    if work.argv[:1] == ["git"] and (env.state.origins or simple.redirects):
        from dcg.shell.gitpaths import runtime_names

        work.names = runtime_names(simple, env, via)
    pipe = simple.pipe_in
    if pipe is not None:
        work.piped = True
        work.fed = None if pipe is OPAQUE else piped_text(pipe)
        work.feeder = unwrap.normalize(pipe.fields[0]) if pipe.fields else ""
        work.feeder_argv = pipe.fields
        if work.feeder == "cat" and pipe is not OPAQUE:
            work.feed_files = [a for a in pipe.fields[1:] if not a.startswith("-")]
        if pipe is not OPAQUE:
            from dcg.shell.linefiles import origin

            work.source = origin(pipe)
    elif (
        env.state.feed is not None
        and work.stdin is None
        and not any(op in _IN for op, _ in redirects)
    ):
        # `git diff | sh -c 'git apply -R'`: the shell's input is this command's input.
        work.piped = True
        work.source, work.fed = list(env.state.feed[0]), env.state.feed[1]
        work.feeder = unwrap.normalize(work.source[0]) if work.source else ""
        work.feeder_argv = list(work.source)
    if made or env.state.outputs:  # <<< "$(git diff)", echo "$p" |: dcg.shell.gitstream
        from dcg.shell.gitstream import printed

        printed(work, simple, made, env)
    work.installer = opaque.installer_subs(simple)
    for op, path in redirects:
        if op in ("<", "0<", "<>", "0<>"):
            work.infile = path
    work.piped = work.piped or opaque.unseen_stdin(redirects, via, env)
    name = unwrap.normalize(work.argv[0])
    if name in ("tee", "sponge") and pipe is not None and pipe is not OPAQUE:
        from dcg.shell.gitpaths import tee_names

        if tee_names(simple, pipe, env, via):  # `git show HEAD:"$f" | tee "$f"` in a loop
            work.argv = [*work.argv, "--git-overwrites-listed-files"]
            work.dyns = [*work.dyns, False]


def unwrapped(work: unwrap.Work, env: Vars) -> None:
    """The command under its wrappers (``sudo tar -xf x.tar``): paths a move, link or hard
    link earlier on the line made (dcg.shell.moves), a file made on the line moved over a
    name (dcg.shell.pername), an archive git wrote extracted over its tree
    (dcg.shell.gitforms)."""
    name = work.argv[0]
    if env.state.moved:
        from dcg.shell import moves

        moves.stands_for(work, env)
        if name in ("truncate", "tee", "dd"):
            moves.same_operands(work, env)
    if env.state.made:  # a file written on the line moved over a name (dcg.shell.pername)
        from dcg.shell import pername

        pername.mark(work, env)
    if name in _EXTRACTORS or (name.startswith("python") and work.argv[1:2] == ["-m"]):
        from dcg.shell.gitarchive import archive_file_over_worktree

        archive_file_over_worktree(work, env)  # `git archive -o x.tar HEAD; tar -xf x.tar`


def written_into(simple: Simple, word: Word) -> tuple[tuple[str, ...], None] | None:
    """What a ``>(…)`` in ``word`` of ``simple`` reads: the command's own output when it is
    a redirection's target (``git diff > >(…)``), tee's input when it is tee's operand."""
    words = tuple(w.plain() or w.source() for w in simple.words)
    if word not in simple.words:
        return words, None
    if words[:1] == ("tee",) and simple.pipe_in is not None and simple.pipe_in is not OPAQUE:
        from dcg.shell.linefiles import origin

        return tuple(origin(simple.pipe_in)), None
    return None
