"""Git commands whose flags do not say what they destroy: made explicit for the rules.

``yes | git checkout -p`` answers every prompt with yes and discards the work tree's
changes; ``git clean -i < answers`` cleans; ``git update-ref REF 0000…`` deletes REF;
``git branch -M a b``, ``git branch -f b``, ``git checkout -B b``, ``git switch -C b``,
``git fetch . +a:b`` and ``git update-ref refs/heads/b X`` move an existing branch off
its commits; ``git maintenance run`` runs gc with the gc settings; ``git apply -R p.diff``
and ``patch -R`` of a patch of the uncommitted changes put them back. :func:`mark` adds
the words the rules look for (``-d``, ``--force``, ``--answered-patch``,
``--worktree-diff``, ``--overwrites-branch=NAME``, ``--prune=now``); reading a ref or a
patch file on disk only for these subcommands.
"""

from __future__ import annotations

from dcg import oslite as os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.shell.state import Vars
    from dcg.shell.unwrap import Work

ZERO = frozenset(("0" * 40, "0" * 64))
_NOW = ("now", "all", "0", "never")
# Options whose value is the next word, by subcommand.
_VALUED = {
    "branch": frozenset(("-u", "--set-upstream-to", "--contains", "--no-contains", "--merged",
                         "--no-merged", "--points-at", "--sort", "--format", "--column")),
    "checkout": frozenset(("-b", "-B", "--orphan", "--conflict", "--pathspec-from-file", "-U")),
    "switch": frozenset(("-c", "-C", "--create", "--force-create", "--orphan", "--conflict")),
    "update-ref": frozenset(("-m",)),
    "fetch": frozenset(("--depth", "--deepen", "--upload-pack", "-o", "--server-option",
                        "--refmap", "-j", "--jobs", "--negotiation-tip", "--shallow-since",
                        "--shallow-exclude", "--recurse-submodules-default", "--filter")),
    "maintenance": frozenset(("--task", "--schedule")),
    "worktree": frozenset(("-b", "-B", "--reason", "--orphan")),
    "fast-import": frozenset(()),
    "tag": frozenset(("-m", "--message", "-F", "--file", "-u", "--local-user", "--contains",
                      "--no-contains", "--points-at", "--merged", "--no-merged", "--sort",
                      "--format", "--cleanup")),
}  # fmt: skip


# git branch options that list, inspect or set upstreams: no branch is created or moved.
_BRANCH_NOT_CREATE = frozenset(("--list", "--all", "--remotes", "--contains", "--no-contains",
                                "--merged", "--no-merged", "--points-at", "--sort", "--format",
                                "--show-current", "--edit-description", "--set-upstream-to",
                                "--unset-upstream", "--verbose", "--column"))  # fmt: skip


def _short(a: str, letter: str) -> bool:
    return a[:1] == "-" and a[1:2] != "-" and letter in a[1:]


def _input(w: Work) -> bool:
    """Whether the command's standard input is given (a pipe, a here-string, a file)."""
    return w.stdin is not None or w.piped or w.infile not in (None, "/dev/null")


def _split(argv: list[str], start: int) -> tuple[list[str], list[str]]:
    """(options, operands) of ``argv[start:]``; ``--`` ends the options."""
    valued = _VALUED.get(argv[1], frozenset()) | (_VALUED["fetch"] if argv[1] == "pull" else set())
    opts: list[str] = []
    ops: list[str] = []
    k = start
    while k < len(argv):
        a = argv[k]
        if a == "--":
            ops += argv[k + 1 :]
            break
        if a.startswith("-") and len(a) > 1:
            opts.append(a)
            if a in valued and k + 1 < len(argv):
                k += 1
        else:
            ops.append(a)
        k += 1
    return opts, ops


def _add(w: Work, *words: str) -> None:
    w.argv = [*w.argv, *words]
    w.dyns = [*w.dyns, *([False] * len(words))]


def mark(w: Work, env: Vars, here: str | None, settings: list[tuple[str, str | None]]) -> None:
    """Add to ``git SUB …`` the words that say what it destroys."""
    argv = w.argv
    sub = argv[1]
    opts, ops = _split(argv, 2)
    if sub == "checkout":
        patch = any(o in ("-p", "--patch") or (_short(o, "p") and "b" not in o) for o in opts)
        if patch and _input(w):
            _add(w, "--answered-patch")  # every hunk answered from the input: discarded
    elif sub == "clean" and w.infile not in (None, "/dev/null") and "--force" not in argv:
        if any(o == "--interactive" or _short(o, "i") for o in opts):
            _add(w, "--force")
    elif sub == "update-ref":
        _update_ref(w, env, here, opts, ops)
    elif sub == "maintenance" and ops[:1] == ["run"]:
        _maintenance(w, settings)
    elif sub in ("show", "cat-file") and (w.names == "out" or _output_over_object(w, opts)):
        # `for f in $(git diff --name-only); do git show HEAD:"$f" > "$f"; done`: each
        # listed file overwritten with its committed text, file by file.
        _add(w, "--overwrites-listed-files")
    # git tag -f NAME over an existing tag: the old tag object is dropped.
    if (
        sub == "tag"
        and here is not None
        and ops
        and any(o == "--force" or _short(o, "f") for o in opts)
        and not any(o in ("-d", "--delete", "-l", "--list") for o in opts)
        and branch_exists(here, ops[0], "tags")
    ):
        _add(w, f"--overwrites-tag={ops[0]}")
    if sub in ("branch", "checkout", "switch", "fetch", "pull") and here is not None:
        for name in _overwritten(sub, argv, opts, ops, here):
            _add(w, f"--overwrites-branch={name}")
    elif sub == "worktree" and ops[:1] == ["add"] and here is not None:
        # `git worktree add -B NAME DIR [START]` resets an existing NAME as checkout -B does.
        for k in range(2, len(argv) - 1):
            if argv[k] == "-B" or (_short(argv[k], "B") and argv[k][-1] == "B"):
                if branch_exists(here, argv[k + 1]):
                    _add(w, f"--overwrites-branch={argv[k + 1]}")
                break
    elif sub == "fast-import":
        _fast_import(w, env, here, opts)
    elif sub == "rebase":
        from dcg.shell.gitrebase import drops_by_editor

        if _drops_by_onto(w.argv, here) or drops_by_editor(w, env, settings):
            _add(w, "--drops-commits")


def _output_over_object(w: Work, opts: list[str]) -> bool:
    """``xargs -I{} git show HEAD:{} --output={}``: run once per name (or for a loop's or a
    glob's names), git show writes each name's committed copy over it."""
    out = [o.partition("=")[2] for o in opts if o.startswith("--output=")]
    out = [t.removeprefix("./") for t in out if t]
    many = any(v.split(" ")[0] in ("xargs", "parallel", "find") for v in w.via)
    return any(
        a.partition(":")[1]
        and a.partition(":")[2].removeprefix("./") == t
        and (many or "$(…)" in t or any(c in t for c in "*?["))
        for t in out
        for a in w.argv[2:]
    )


def _text(path: str, env: Vars, here: str) -> tuple[bool, str | None]:
    """(known, text) of a file the command reads: written earlier on the line, or on disk."""
    from dcg.shell import gitconfig, gitsources

    full = os.path.normpath(path if os.path.isabs(path) else os.path.join(here, path))
    texts = gitsources.written(env)
    if full in texts:
        return texts[full] is not None, texts[full]
    if not os.path.lexists(full):
        return True, ""
    text = gitconfig._read(full)
    return text is not None, text


def _patch(path: str, env: Vars, here: str) -> str:
    return _text(path, env, here)[1] or ""


def _update_ref(w: Work, env: Vars, here: str | None, opts: list[str], ops: list[str]) -> None:
    if "--stdin" in opts:
        fed = w.stdin if w.stdin is not None else w.fed
        if fed is not None:  # a here-string, a heredoc, echo or printf piped in
            _add(w, *stdin_updates(fed, here, "--no-deref" in opts))
            return
        if w.infile is None or here is None or w.piped:
            return  # piped from what dcg cannot read: dcg.shell.toolruns makes it opaque
        known, text = _text(w.infile, env, here)
        if not known:
            w.opaque = w.opaque or f"git update-ref --stdin reads {w.infile}, unknown here"
        else:
            _add(w, *stdin_updates(text or "", here, "--no-deref" in opts))
        return
    if "-d" in opts or len(ops) < 2:
        return
    _add(w, *_ref_update(ops[0], ops[1], here, "--no-deref" in opts))


def _ref_update(ref: str, new: str, here: str | None, no_deref: bool) -> tuple[str, ...]:
    """The words saying what setting ``ref`` to ``new`` destroys: ``-d`` when it deletes
    the ref (the null id) or drops a tag object, ``--overwrites-branch=NAME`` when it moves
    an existing branch (``HEAD`` moves the branch it names)."""
    if new in ZERO or (new[:10] == "0" * 10 and set(new) == {"0"}):
        return ("-d",)
    if here is None:
        return ()
    if ref == "HEAD" and not no_deref:
        ref = "refs/heads/" + current_branch(here) if current_branch(here) else ref
    if ref.startswith("refs/heads/") and branch_exists(here, ref[len("refs/heads/") :]):
        return (f"--overwrites-branch={ref[len('refs/heads/') :]}",)
    if ref.startswith("refs/tags/") and branch_exists(here, ref[len("refs/tags/") :], "tags"):
        return ("-d",)  # the old tag object (tags keep no reflog) is dropped
    return ()


def stdin_updates(text: str, here: str | None, no_deref: bool = False) -> tuple[str, ...]:
    """What the instructions ``git update-ref --stdin`` reads destroy (lines, or ``-z``
    fields): ``delete REF``, and ``update REF NEW [OLD]`` of an existing branch or tag or
    to the null id. A value dcg could not know counts as another commit."""
    words: list[str] = []
    for line in text.replace("\x00", "\n").split("\n"):
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "delete" or (parts[0] == "update" and len(parts) > 1 and parts[-1] in ZERO):
            return ("-d",)
        if parts[0] == "update" and len(parts) > 1:
            new = (
                parts[2] if len(parts) > 2 else "\x00unknown"
            )  # -z: the value is on a line of its own
            for word in _ref_update(parts[1], new, here, no_deref):
                if word not in words:
                    words.append(word)
    return tuple(words)


def _fast_import(w: Work, env: Vars, here: str | None, opts: list[str]) -> None:
    """``git fast-import --force`` (or a stream that says ``feature force``) moves existing
    branches off commits the new tips do not contain; a stream dcg cannot read may say so."""
    if "--force" in opts:
        _add(w, "--overwrites-branch=*")
        return
    fed = w.stdin if w.stdin is not None else w.fed
    if fed is None and w.infile not in (None, "/dev/null") and here is not None and not w.piped:
        known, text = _text(w.infile or "", env, here)
        fed = text if known else None
    elif fed is None and (w.infile == "/dev/null" or w.feeder_argv[:2] == ["git", "fast-export"]):
        fed = ""  # git fast-export never asks for force
    if fed is None or any(ln.strip() == "feature force" for ln in fed.split("\n")):
        _add(w, "--overwrites-branch=*")


# Options of git rebase that take the next word as their value.
_REBASE_VALUED = frozenset(("-s", "--strategy", "-X", "--strategy-option", "-x", "--exec",
                            "--onto", "-C", "--whitespace", "--empty"))  # fmt: skip


def _depth(rev: str, branch: str, head: bool) -> int | None:
    """How many commits below the branch's tip ``rev`` is (``HEAD~2``: 2, ``@^``: 1,
    ``BRANCH``: 0; ``head``: the branch is checked out), None when not on the branch."""
    k = 0
    while k < len(rev) and rev[k] not in "~^":
        k += 1
    base, rest = rev[:k], rev[k:]
    if not ((head and base in ("HEAD", "@")) or (branch and base == branch)):
        return None
    depth = 0
    for step in rest.replace("~", " ~").replace("^", " ^").split():
        count = step[1:]
        if step[0] == "~":
            depth += int(count) if count.isdigit() else 1
        else:
            depth += 1
    return depth


def _drops_by_onto(argv: list[str], here: str | None) -> bool:
    """``git rebase --onto NEW UPSTREAM [BRANCH]`` with UPSTREAM the branch's tip
    (nothing is replayed), or NEW and UPSTREAM both commits of the branch with NEW below
    (``--onto HEAD~3 HEAD~1``): the commits between are dropped from the branch, kept
    only by its reflog."""
    onto: str | None = None
    ops: list[str] = []
    k = 2
    while k < len(argv):
        a = argv[k]
        name, eq, value = a.partition("=")
        if len(name) > 3 and "--onto".startswith(name):
            onto = value if eq else (argv[k + 1] if k + 1 < len(argv) else "")
            k += 1 if eq else 2
            continue
        if a.startswith("-"):
            k += 2 if a in _REBASE_VALUED else 1
            continue
        ops.append(a)
        k += 1
    if onto is None or not ops or onto == ops[0]:
        return False
    current = current_branch(here) if here else ""
    branch = ops[1] if len(ops) > 1 else current
    head = len(ops) < 2 or branch == current
    upstream, new = _depth(ops[0], branch, head), _depth(onto, branch, head)
    # UPSTREAM the tip replays nothing; NEW below UPSTREAM on the same branch skips both.
    if upstream == 0 or (upstream is not None and new is not None and new > upstream):
        return True
    if here is None or (upstream is not None and new is not None):
        return False
    from dcg.shell.gitrebase import drops_by_graph

    return drops_by_graph(here, onto, ops[0], ops[1] if len(ops) > 1 else "", current)


def _maintenance(w: Work, settings: list[tuple[str, str | None]]) -> None:
    """``git maintenance run`` runs gc (its default task) with the gc settings."""
    tasks = [a.partition("=")[2] for a in w.argv if a.startswith("--task=")]
    tasks += [w.argv[k + 1] for k in range(len(w.argv) - 1) if w.argv[k] == "--task"]
    if tasks and not any(t in ("gc", "reflog-expire") for t in tasks):
        return
    for key, value in settings:
        if key in ("gc.pruneexpire", "gc.reflogexpire", "gc.reflogexpireunreachable") and (
            value is None or value.strip().lower().startswith(_NOW)
        ):
            _add(w, "--prune=now")
            return


def _overwritten(
    sub: str, argv: list[str], opts: list[str], ops: list[str], here: str
) -> list[str]:
    """Existing branches the command points elsewhere (their commits then only in the reflog)."""
    names: list[str] = []
    if sub == "branch":
        force = any(o == "--force" or _short(o, "f") for o in opts)
        move = any(o in ("--move", "--copy") or _short(o, "m") or _short(o, "c") for o in opts)
        big = any(_short(o, "M") or _short(o, "C") for o in opts)
        delete = any(o == "--delete" or _short(o, "d") or _short(o, "D") for o in opts)
        if delete or not ops or not (force or big):
            return []
        if big or move:
            target = ops[-1]
            source = ops[0] if len(ops) > 1 else current_branch(here)
            if target != source:
                names.append(target)
        elif not any(
            o.split("=")[0] in _BRANCH_NOT_CREATE or o[:2] in ("-u", "-l", "-a", "-r", "-v")
            for o in opts
        ):
            names.append(ops[0])  # git branch -f [--no-track …] NAME [START]
    elif sub in ("checkout", "switch"):
        letters = ("B",) if sub == "checkout" else ("C",)
        for k in range(2, len(argv) - 1):
            a = argv[k]
            if a == "--force-create" or (a[:1] == "-" and a[1:2] != "-" and a[-1] in letters):
                name = argv[k + 1]
                start = [o for o in ops if o != name]
                if name != current_branch(here) or start:
                    names.append(name)
                break
            if a.startswith("--force-create="):
                names.append(a.partition("=")[2])
                break
    else:  # fetch, pull: a forced refspec into a local branch
        force = any(o == "--force" or _short(o, "f") for o in opts)
        for spec in ops[1:]:
            src, colon, dst = spec.partition(":")
            if not colon or not dst or not (force or src.startswith("+")):
                continue
            if dst.startswith(("refs/remotes/", "refs/tags/")) or (
                dst.startswith("refs/") and not dst.startswith("refs/heads/")
            ):
                continue
            names.append(dst.removeprefix("refs/heads/"))
    return [n for n in names if "*" in n or branch_exists(here, n)]


def _git_dirs(here: str) -> list[str]:
    from dcg.shell import gitconfig

    return [os.path.dirname(p) for p in gitconfig.repository_config(here)]


def branch_exists(here: str, name: str, kind: str = "heads") -> bool:
    """Whether ``refs/heads/NAME`` (``refs/KIND/NAME``) exists in the repository ``here``
    is in (a reftable store, which dcg does not read, counts as yes)."""
    from dcg.shell import gitconfig

    for git_dir in _git_dirs(here):
        if os.path.isdir(os.path.join(git_dir, "reftable")):
            return True
        if os.path.isfile(os.path.join(git_dir, "refs", kind, name)):
            return True
        packed = gitconfig._read(os.path.join(git_dir, "packed-refs")) or ""
        if f" refs/{kind}/{name}\n" in packed:
            return True
    return False


def current_branch(here: str) -> str:
    """The branch HEAD names ("" when detached or unknown)."""
    from dcg.shell import gitconfig

    dirs = _git_dirs(here)
    head = gitconfig._read(os.path.join(dirs[-1], "HEAD")) if dirs else None
    ref = (head or "").strip()
    return ref[len("ref: refs/heads/") :] if ref.startswith("ref: refs/heads/") else ""


def reverses_worktree(patch: str, here: str) -> bool:
    """Whether reversing ``patch`` in the repository ``here`` is in takes back uncommitted
    work (:func:`dcg.shell.gitpatch.loses_work`)."""
    dirs = _git_dirs(here)
    if not dirs or not patch:
        return False
    from dcg.shell import gitpatch

    git_dir = dirs[-1]
    top = os.path.dirname(git_dir) if os.path.basename(git_dir) == ".git" else here
    return gitpatch.loses_work(patch, top, git_dir)
