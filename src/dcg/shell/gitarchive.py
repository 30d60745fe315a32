"""An archive on disk that ``git archive`` wrote, extracted back over its own work tree.

``git archive`` stores the commit it archived in the archive: a tar's pax global header
``comment=<id>`` (compressed or not), a zip's comment. Extracting such an archive in a
directory of a repository that has that commit, over files it holds, writes each
committed file over its uncommitted change (``tar -xf ../x.tar`` after ``git archive -o
../x.tar HEAD`` in an earlier call). Read only for an extraction of an existing file dcg
saw no writer of on the line, a bounded number of members.
"""

from __future__ import annotations

from dcg import oslite as os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.shell.state import Vars
    from dcg.shell.unwrap import Work

_MEMBERS = 64  # members read at most


def archived_commit(path: str) -> tuple[str, list[str]] | None:
    """(commit id, names of its first files) of an archive ``git archive`` wrote at
    ``path``; None for any other file, or one that cannot be read."""
    import tarfile
    import zipfile

    comment = ""
    names: list[str] = []
    try:
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as z:
                comment = z.comment.decode("ascii", "replace")
                names = [n for n in z.namelist()[:_MEMBERS] if not n.endswith("/")]
        else:
            with tarfile.open(path) as t:
                for _ in range(_MEMBERS):
                    member = t.next()
                    if member is None:
                        break
                    if member.isfile():
                        names.append(member.name)
                comment = t.pax_headers.get("comment", "")
    except (OSError, EOFError, ValueError, tarfile.TarError, zipfile.BadZipFile):
        return None
    comment = comment.strip()
    if len(comment) not in (40, 64) or any(c not in "0123456789abcdef" for c in comment):
        return None
    return comment, names


def over_its_tree(path: str, into: str) -> bool:
    """Whether extracting the archive ``path`` into ``into`` writes a commit's files back
    over files of a repository that has the commit."""
    from dcg import gitinfo

    if not os.path.isfile(path) or not os.path.isdir(into) or gitinfo.work_tree(into) is None:
        return False
    found = archived_commit(path)
    if found is None:
        return False
    commit, names = found
    if not any(os.path.isfile(os.path.join(into, n)) for n in names):
        return False
    return gitinfo.git(into, ["cat-file", "-e", f"{commit}^{{commit}}"]) is not None


# Programs besides tar and unzip that extract a tar or a zip (what git archive writes).
SEVENZIP = frozenset(("7z", "7za", "7zr", "7zz", "7zzs", "p7zip"))
OTHERS = frozenset(("bsdunzip", "jar", "unar", "ark", "cpio", "pax", *SEVENZIP))


def extraction(name: str, argv: tuple[str, ...]) -> tuple[str, list[str]] | None:
    """(the archive, ``-`` for its input; the directories it goes into) of an extraction
    by one of ``OTHERS`` that writes over files already there; None when it lists, writes
    elsewhere than a directory named, skips or renames existing files, or is no extraction.

    7z ``x`` (``-o``, ``-si``; not ``-aos``/``-aou``/``-aot``, ``-so``: without ``-y`` it
    asks, and ``yes |`` answers); jar ``x``/``--extract`` (``f``/``--file``, else its
    input; ``-C``/``--dir``); unar with ``-D`` or ``-f`` (``-o``); ark ``--batch`` (not
    ``--autosubfolder``); cpio ``-i`` with ``-u`` (older files are kept otherwise);
    pax ``-r`` (not ``-k``/``-u``)."""
    from dcg.writes._opts import given, parse, values

    if name in SEVENZIP:
        ops = [a for a in argv[1:] if not a.startswith("-")]
        switches = [a for a in argv[1:] if a.startswith("-")]
        if not ops or ops[0].lower() != "x":
            return None
        if any(s[:4].lower() in ("-aos", "-aou", "-aot") or s.lower() == "-so" for s in switches):
            return None
        dirs = [s[2:] for s in switches if s[:2] == "-o" and len(s) > 2]
        if any(s.lower() == "-si" or s.lower().startswith("-si") for s in switches):
            return "-", dirs
        return (ops[1], dirs) if len(ops) > 1 else None
    if name == "jar":
        args = list(argv)
        if len(args) > 1 and args[1][:1] != "-":
            args[1] = "-" + args[1]  # `jar xf A`: the first word is the option cluster
        opts, ops = parse(args, "fCme", ("--file", "--dir", "--manifest", "--main-class"),
                          flags=("--extract", "--list", "--create", "--update"))  # fmt: skip
        if not given(opts, "-x", "--extract") or given(opts, "-t", "--list"):
            return None
        files = values(opts, "-f", "--file")
        if given(opts, "-f") and not files and ops:  # `-xf A`: f's value is an operand
            files = ops[:1]
        return (files[-1] if files else "-"), values(opts, "-C", "--dir")
    if name == "bsdunzip":
        opts, ops = parse(argv, "dxP")
        if not ops or any(k in ("-l", "-p", "-t", "-v", "-z", "-Z") for k, _ in opts):
            return None
        if any(a[:1] == "-" and a[1:2] != "-" and "n" in a for a in argv[1:]):
            return None
        return ops[0], values(opts, "-d")
    if name == "unar":  # single-dash long options; -o, -p, -e, -E, -i take a value
        ops, dirs, flags, k = [], [], set(), 1
        while k < len(argv):
            a = argv[k]
            k += 1
            if a in ("-o", "-output-directory") and k < len(argv):
                dirs.append(argv[k])
            if a in ("-o", "-output-directory", "-p", "-password", "-e", "-encoding", "-E",
                     "-password-encoding", "-i", "-indexes"):  # fmt: skip
                k += 1
            elif a[:1] == "-":
                flags.add(a)
            else:
                ops.append(a)
        if flags & {"-s", "-force-skip", "-r", "-force-rename", "-d", "-force-directory",
                    "-t", "-to-stdout"} or not flags & {"-D", "-no-directory", "-f",
                                                        "-force-overwrite"}:  # fmt: skip
            return None
        return (ops[0], dirs) if ops else None
    if name == "ark":
        opts, ops = parse(argv, "o", ("--destination",), flags=("--batch", "--autosubfolder"))
        if not given(opts, "-b", "--batch") or given(opts, "-a", "--autosubfolder") or not ops:
            return None
        return ops[0], values(opts, "-o", "--destination")
    if name == "cpio":
        opts, _ = parse(argv, "DFIEHMRsCe", ("--directory", "--file", "--pattern-file",
                                            "--format", "--rsh-command"),
                        flags=("--extract", "--unconditional", "--to-stdout"))  # fmt: skip
        if not given(opts, "-i", "--extract") or not given(opts, "-u", "--unconditional"):
            return None
        if given(opts, "--to-stdout"):
            return None
        files = values(opts, "-F", "-I", "--file")
        return (files[-1] if files else "-"), values(opts, "-D", "--directory")
    if name == "pax":
        opts, _ = parse(argv, "fsobBxpT")
        if not given(opts, "-r") or given(opts, "-w", "-k", "-u", "-n"):
            return None
        files = values(opts, "-f")
        return (files[-1] if files else "-"), []
    return None


# ``git archive`` output extracted over the tree it archived (gitforms marks the rest of
# git's own forms; these are the extractors' side).
def archive_over_worktree(w: Work) -> None:
    """``git archive HEAD | tar -x`` in the work tree writes every committed file over its
    uncommitted change, as ``git checkout -- .`` does: marked ``--git-archive-over-worktree``
    (not with ``--prefix``, another repository, or tar extracting elsewhere)."""
    from dcg.writes._archives import extracted_archive, tar

    if extracted_archive(tuple(w.argv)) != "-" or any(
        a in ("--to-stdout", "--to-command") or (a[:1] == "-" and a[1:2] != "-" and "O" in a)
        for a in w.argv[1:]
    ):
        return
    _piped_archive(w, [p for p, how in tar(tuple(w.argv), None) if how == 2])  # writes INTO


def _piped_archive(w: Work, dirs: list[str]) -> None:
    """``git archive HEAD |`` an extraction into ``dirs`` (the cwd when none)."""
    git = w.feeder_argv
    if git[1:2] != ["archive"]:
        return
    if any(a.startswith(("--prefix", "--remote", "--output", "-o")) for a in git[2:]):
        return
    if any(a in ("-C", "--git-dir", "--work-tree") or a.startswith("--git-dir=") for a in git):
        return
    if all(os.path.normpath(d) in (".", "") for d in dirs):
        _over_worktree(w)


ARCHIVED = "\x00git-archive:"  # a file `git archive` wrote: the directory it archived


def archive_marker(argv: list[str], env: Vars) -> str | None:
    """What a file ``git archive`` writes holds: the committed tree of the directory it
    ran in (not with ``--prefix``, ``--remote`` or another repository's ``-C``/``--git-dir``)."""
    from dcg.shell import gitsources

    k = argv.index("archive")
    if any(a in ("-C", "--git-dir", "--work-tree") or a.startswith(("--git-dir=", "--work-tree="))
           for a in argv[1:k]):  # fmt: skip
        return None
    if any(a.startswith(("--prefix", "--remote", "--exec")) for a in argv[k + 1 :]):
        return None
    return ARCHIVED + gitsources._here(env)


def archive_file_over_worktree(w: Work, env: Vars) -> None:
    """``git archive -o x.tar HEAD && tar -xf x.tar`` (or ``unzip -o x.zip``, later on the
    line, after a ``cd``) extracted in the directory it archived writes every committed
    file over its uncommitted change: marked ``--git-archive-over-worktree`` (not when
    extracting elsewhere, listing, to standard output, or keeping existing files)."""
    from dcg.shell import gitsources
    from dcg.writes._archives import extracted_archive, tar, unzip

    argv = tuple(w.argv)
    name = argv[0].rpartition("/")[2]
    if name.startswith("python"):  # `python -m tarfile -e x.tar [DIR]`, zipfile likewise
        if argv[2:3] not in (("tarfile",), ("zipfile",)) or argv[3:4] not in (
            ("-e",),
            ("--extract",),
        ):
            return
        full = gitsources.absolute(env, argv[4]) if len(argv) > 4 else ""
        into = {gitsources.absolute(env, argv[5] if len(argv) > 5 else ".")}
        _archive_over(w, env, full, into)
        return
    archive: str | None
    if name in OTHERS:  # 7z, jar, bsdunzip, unar, ark, cpio -u, pax: one table
        found = extraction(name, argv)
        if found is None:
            return
        archive, dirs = found
        if archive == "-" and not w.infile and w.feeder_argv[1:2] == ["archive"]:
            return _piped_archive(w, dirs)  # `git archive HEAD | 7z x -si -ttar`, `| cpio -idu`
    elif name == "unzip":
        if any(a[:1] == "-" and a[1:2] != "-" and "n" in a for a in argv[1:]):
            return  # never overwrite
        archive = extracted_archive((name, *argv[1:]))
        dirs = [p for p, how in unzip((name, *argv[1:]), None) if how == 2]
    else:
        keep = ("--keep-old-files", "--skip-old-files", "--to-stdout", "--to-command")
        if any(a in keep or (a[:1] == "-" and a[1:2] != "-" and ("k" in a or "O" in a))
               for a in argv[1:]):  # fmt: skip
            return
        archive = extracted_archive((name, *argv[1:]))
        dirs = [p for p, how in tar((name, *argv[1:]), None) if how == 2]
    if archive == "-":  # `tar -x < x.tar`, `cat x.tar | tar -x`
        archive = w.infile or (w.feed_files[0] if len(w.feed_files) == 1 else None)
    if archive in (None, "-"):
        return
    full = gitsources.absolute(env, archive or "")
    _archive_over(w, env, full, {gitsources.absolute(env, d) for d in dirs or ["."]})


def _archive_over(w: Work, env: Vars, full: str, into: set[str]) -> None:
    if not full:
        return
    if full in env.state.files:  # written on the line: by git archive, of that directory?
        held = env.state.files[full] or ""
        over = held.startswith(ARCHIVED) and into == {held[len(ARCHIVED) :]}
    else:  # on disk: an archive git wrote of a commit of the repository it goes back into
        over = len(into) == 1 and over_its_tree(full, next(iter(into)))
    if over:
        _over_worktree(w)


def _over_worktree(w: Work) -> None:
    w.argv = [*w.argv, "--git-archive-over-worktree"]
    w.dyns = [*w.dyns, False]
