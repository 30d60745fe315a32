"""Which paths a parsed simple command writes, moves, chmods or deletes: one table, every program.

:func:`targets` is the one answer to "what does this command change on disk" (dcg.selfguard
judges it against dcg's own files and the agents' settings; the safety net keeps what it
reaches). Each program of :data:`TABLE` has a reader that knows its options (clusters,
attached values, GNU long-option prefixes, ``-t``/``--target-directory``, ``-o``), what
its operands mean, and for the programs that take a script (sed ``w``, awk ``print >``,
ed/ex/vim ``:w``, sqlite3 ``.output``, Tcl ``open … w``) what that script writes.
Extraction into the working directory is a write into ``.``. Imported after the keyword
prefilter only; stdlib only, no ``re``.
"""

from __future__ import annotations

from dcg.oslite import path as posixpath
from dcg.writes._opts import given, parse, values

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from dcg.shell.command import Command

    Found = list[tuple[str, int]]
    Reader = Callable[[tuple[str, ...], str | None], Found]

# ``how`` of a target: False writes the path itself, True removes it (or changes its mode,
# which reaches everything below it), INTO writes somewhere inside the directory (it
# reaches what is inside, but a directory as wide as HOME or / is not taken for one of
# dcg's: `cp -r x ~/`).
INTO = 2
# The directory the command runs in, as a target: extraction, downloads, `split` output.
HERE = "."


def operands(argv: Sequence[str], start: int = 1) -> list[str]:
    """The non-option words of ``argv`` from ``start`` on (everything after ``--``)."""
    out: list[str] = []
    ended = False
    for a in argv[start:]:
        if not ended and a == "--":
            ended = True
        elif ended or not a.startswith("-") or a == "-":
            out.append(a)
    return out


def targets(command: Command) -> list[tuple[str, int]]:
    """``(path, how)`` for every path ``command`` writes, moves, chmods or deletes.

    ``how`` is False for a write of the path itself, True for a removal (which reaches
    everything below it) and :data:`INTO` for a write into a directory.
    """
    found: Found = [(t, False) for op, t in command.redirects if ">" in op and t and t[0] != "&"]
    argv = command.argv
    if not argv:
        return found
    reader = reader_for(argv[0])
    if reader is not None:
        found += [(p, how) for p, how in reader(argv, command.stdin) if p and p != "-"]
    return found


def reader_for(name: str) -> Reader | None:
    """The reader of program ``name`` (version suffixes such as ``python3.12`` dropped)."""
    reader = TABLE.get(name)
    if reader is None:
        base = name.rstrip("0123456789.")
        if base != name and base:
            reader = TABLE.get(base)
    if reader is None and "-" in name:
        head, _, version = name.rpartition("-")
        reader = TABLE.get(head) if version[:1].isdigit() else None  # gawk-5.1
    return reader


def argv_targets(argv: Sequence[str], stdin: str | None = None) -> Found:
    """:func:`targets` of a command given as words (``find -exec``, ``xargs``)."""
    reader = reader_for(argv[0]) if argv else None
    return [] if reader is None else reader(tuple(argv), stdin)


# --- readers built from a spec -------------------------------------------------------------


def _spec(
    short: str = "",
    long: Sequence[str] = (),
    out: dict[str, int] | None = None,
    ops: Callable[[list[str], list[tuple[str, str | None]]], Found] | None = None,
    flags: Sequence[str] = (),
) -> Reader:
    """A reader: options taking values (``short``, ``long``), the options whose value is
    written (``out``: option -> how) and what the operands are (``ops``). Nothing is
    computed until the program is met: the table is built on the hook's path."""
    outputs = out or {}

    def read(argv: tuple[str, ...], stdin: str | None) -> Found:
        value_long = (*long, *(k for k in outputs if k.startswith("--") and k not in long))
        value_short = short + "".join(k[1] for k in outputs if len(k) == 2 and k[1] not in short)
        opts, words = parse(argv, value_short, value_long, flags=flags)
        found: Found = [(v, outputs[k]) for k, v in opts if k in outputs and v is not None]
        if ops is not None:
            found += ops(words, opts)
        return found

    return read


def _all(how: int) -> Callable[[list[str], list[tuple[str, str | None]]], Found]:
    return lambda ops, opts: [(a, how) for a in ops]


def _nth(k: int) -> Callable[[list[str], list[tuple[str, str | None]]], Found]:
    return lambda ops, opts: [(ops[k], False)] if len(ops) > k else []


def _owner(ops: list[str], opts: list[tuple[str, str | None]]) -> Found:
    """chown/chgrp: the first operand is the owner unless a reference file gave it."""
    return [(a, True) for a in (ops if given(opts, "--reference") else ops[1:])]


def _chmod(ops: list[str], opts: list[tuple[str, str | None]]) -> Found:
    """chmod: the mode is the first operand, unless it looked like an option (`chmod -x f`)
    or a reference file gave it."""
    if any(k[1:] in _MODE_LETTERS for k, _ in opts):
        return [(a, True) for a in ops]
    return _owner(ops, opts)


_MODE_LETTERS = frozenset("rwxXst")


def _chattr(ops: list[str], opts: list[tuple[str, str | None]]) -> Found:
    return [(a, True) for a in ops if not a.startswith(("+", "="))]


def _is_remote(word: str) -> bool:
    """``host:path`` (scp, rsync): not a local path."""
    head, colon, _ = word.partition(":")
    return bool(colon) and bool(head) and "/" not in head and not word.startswith((".", "~"))


def copy_operands(argv: Sequence[str]) -> tuple[list[tuple[str, str | None]], list[str]]:
    """cp/mv/install/ln/rsync/scp's options and local operands (one grammar for all)."""
    name = argv[0]
    short, long = _COPY_OPTIONS.get(name, ("St", ("--suffix", "--target-directory")))
    opts, ops = parse(tuple(argv), short, long, flags=_COPY_FLAGS)
    return opts, [a for a in ops if not _is_remote(a)] if name in ("rsync", "scp") else ops


def _copier(name: str) -> Reader:
    """cp, mv, install, ln, rsync, scp: sources and a destination, or ``-t DIR``."""

    def read(argv: tuple[str, ...], stdin: str | None) -> Found:
        opts, ops = copy_operands(argv)
        if name == "install" and given(opts, "-d", "--directory"):
            return [(a, False) for a in ops]
        found: Found = []
        dirs = values(opts, "-t", "--target-directory")
        recursive = name == "rsync" or given(opts, "-r", "-R", "-a", "--recursive", "--archive")
        whole = given(opts, "-T", "--no-target-directory")
        if dirs:
            dest, sources = dirs[-1], ops
        elif len(ops) >= 2 or (name == "ln" and ops):
            dest, sources = (ops[-1], ops[:-1]) if len(ops) >= 2 else (HERE, ops)
        else:
            return found
        if name == "mv" or given(opts, "--remove-source-files"):
            found += [(s, True) for s in sources]
        if dirs:
            found.append((dest, INTO))
        elif dest == HERE:
            found.append((posixpath.basename(ops[0].rstrip("/")), False))
        else:
            # The destination is replaced (a file, or with -T whatever it is), or what is
            # copied lands inside it; a recursive copy may overwrite anything inside.
            found.append((dest, INTO if recursive else whole))
        if not whole:
            found += [(posixpath.join(dest, posixpath.basename(s)), False) for s in sources]
        found += [(v, INTO) for v in values(opts, "--backup-dir", "--partial-dir", "--temp-dir")]
        found += [(v, False) for v in values(opts, "--log-file", "--write-batch",
                                             "--only-write-batch")]  # fmt: skip
        return found

    return read


_COPY_FLAGS = ("--recursive", "--archive", "--no-target-directory", "--remove-source-files",
               "--directory")  # fmt: skip
_RSYNC_LONG = (
    "--rsh", "--rsync-path", "--filter", "--exclude", "--include", "--exclude-from",
    "--include-from", "--files-from", "--temp-dir", "--partial-dir", "--backup-dir",
    "--suffix", "--compare-dest", "--copy-dest", "--link-dest", "--chmod", "--chown",
    "--usermap", "--groupmap", "--block-size", "--max-delete", "--max-size", "--min-size",
    "--max-alloc", "--modify-window", "--timeout", "--contimeout", "--port", "--sockopts",
    "--password-file", "--bwlimit", "--log-file", "--log-file-format", "--out-format",
    "--write-batch", "--only-write-batch", "--read-batch", "--protocol", "--iconv", "--info",
    "--debug", "--skip-compress", "--compress-choice", "--checksum-choice", "--compress-level",
    "--stop-after", "--stop-at", "--address", "--outbuf", "--remote-option", "--copy-as",
    "--checksum-seed", "--early-input",
)  # fmt: skip
_COPY_OPTIONS: dict[str, tuple[str, tuple[str, ...]]] = {
    "install": ("mogSt", ("--mode", "--owner", "--group", "--suffix", "--strip-program",
                          "--target-directory", "--context")),
    "rsync": ("efTBM@", _RSYNC_LONG),
    "scp": ("cDFiJloPSX", ()),
}  # fmt: skip


def _split(ops: list[str], opts: list[tuple[str, str | None]]) -> Found:
    return [(ops[1] if len(ops) > 1 else "x", False)]


def _csplit(ops: list[str], opts: list[tuple[str, str | None]]) -> Found:
    return [(p, False) for p in values(opts, "-f", "--prefix")] or [("xx", False)]


def _dd(argv: tuple[str, ...], stdin: str | None) -> Found:
    return [(a[3:], False) for a in argv[1:] if a.startswith("of=")]


def _gio(argv: tuple[str, ...], stdin: str | None) -> Found:
    ops = operands(argv, 2)
    if argv[1:2] in (("copy",), ("move",), ("rename",)) and len(ops) >= 2:
        return [*((s, argv[1] != "copy") for s in ops[:-1]), (ops[-1], INTO)]
    return [(a, True) for a in ops] if argv[1:2] != ("info",) else []


def _lazy(module: str, name: str, gate: Callable[[tuple[str, ...]], bool] | None = None) -> Reader:
    """A reader that lives in a submodule, imported the first time that program is seen
    (and only when ``gate`` says the command may write at all)."""

    def read(argv: tuple[str, ...], stdin: str | None) -> Found:
        if gate is not None and not gate(argv):
            return []
        reader: Reader = getattr(__import__(f"dcg.writes.{module}", fromlist=[name]), name)
        return reader(argv, stdin)

    return read


# git subcommands that write outside the object store (dcg.writes._tools.git), and find's
# actions that change anything: every other git or find command is read without a look.
_GIT_WRITES = frozenset(("archive", "config", "clone", "init", "worktree", "format-patch",
                         "bundle", "rm", "mv", "clean", "checkout", "restore", "apply", "am",
                         "checkout-index", "submodule", "stash"))  # fmt: skip
_FIND_WRITES = ("-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fls")


def _git_gate(argv: tuple[str, ...]) -> bool:
    return any(a in _GIT_WRITES for a in argv[1:]) or any(a.startswith("--output") for a in argv)


def _find_gate(argv: tuple[str, ...]) -> bool:
    return any(a.startswith(_FIND_WRITES) for a in argv[1:])


TABLE: dict[str, Reader] = {}
for _name in ("rm", "rmdir", "unlink", "srm", "trash", "trash-put", "wipe"):
    TABLE[_name] = _spec(ops=_all(True))
TABLE["shred"] = _spec("ns", ("--iterations", "--size", "--random-source"), ops=_all(True))
TABLE["chmod"] = _spec(ops=_chmod, flags=("--reference",))
TABLE["chown"] = TABLE["chgrp"] = _spec(long=("--from",), ops=_owner, flags=("--reference",))
TABLE["chattr"] = _spec("vp", ops=_chattr)
TABLE["setfacl"] = _spec("mMxX", ("--modify", "--modify-file", "--remove", "--remove-file",
                                   "--set", "--set-file"), ops=_all(True))  # fmt: skip
TABLE["chcon"] = _spec("urtl", ("--user", "--role", "--type", "--range"), ops=_all(True))
for _name in ("cp", "mv", "install", "ln", "rsync", "scp"):
    TABLE[_name] = _copier(_name)
TABLE["link"] = _spec(ops=_nth(1))
TABLE["tee"] = _spec(ops=_all(False))
TABLE["sponge"] = _spec(ops=_all(False))
TABLE["touch"] = _spec("dtr", ("--date", "--reference"), ops=_all(False))
TABLE["truncate"] = _spec("sr", ("--size", "--reference"), ops=_all(False))
TABLE["mkdir"] = _spec("m", ("--mode", "--context"), ops=_all(False))
TABLE["mkfifo"] = _spec("m", ("--mode", "--context"), ops=_all(False))
TABLE["mknod"] = _spec("m", ("--mode", "--context"), ops=_nth(0))
TABLE["sort"] = _spec("ktST", ("--key", "--field-separator", "--buffer-size",
                               "--temporary-directory", "--parallel", "--batch-size",
                               "--compress-program", "--files0-from", "--random-source"),
                      out={"-o": False, "--output": False})  # fmt: skip
TABLE["uniq"] = _spec("fsw", ("--skip-fields", "--skip-chars", "--check-chars"), ops=_nth(1))
TABLE["split"] = _spec("abClnt", ("--suffix-length", "--additional-suffix", "--bytes",
                                  "--line-bytes", "--lines", "--number", "--separator",
                                  "--filter"), ops=_split)  # fmt: skip
TABLE["csplit"] = _spec("bfn", ("--suffix-format", "--prefix", "--digits"), ops=_csplit)
TABLE["dd"] = _dd
TABLE["gio"] = _gio
TABLE["xxd"] = _spec("cglson", ops=_nth(1))
TABLE["base64"] = _spec("wi", out={"-o": False, "--output": False})
TABLE["iconv"] = _spec("ft", ("--from-code", "--to-code"), out={"-o": False, "--output": False})
TABLE["gpg"] = _spec("ruzu", ("--recipient", "--local-user", "--default-key"),
                     out={"-o": False, "--output": False, "--homedir": INTO})  # fmt: skip
TABLE["ssh-keygen"] = _spec("bCIJjKmNnOrstVwYZzE", out={"-f": False})
TABLE["script"] = _lazy("_tools", "script")
TABLE["strace"] = _spec("abeEIPpsSuUX", out={"-o": False, "--output": False})
TABLE["ltrace"] = _spec("aeEnsSuA", out={"-o": False, "--output": False})
TABLE["dos2unix"] = TABLE["unix2dos"] = TABLE["mac2unix"] = _spec(ops=_all(False))
TABLE["make"] = TABLE["gmake"] = _spec("fIjlotW", ("--file", "--include-dir", "--jobs",
                                                   "--load-average", "--old-file",
                                                   "--what-if", "--assume-new"),
                                       out={"-C": INTO, "--directory": INTO})  # fmt: skip
TABLE["ninja"] = _spec("fjklt", out={"-C": INTO})
TABLE["fallocate"] = _spec("lon", ("--length", "--offset"), ops=_all(False))
TABLE["zip"] = _spec("bntx", ops=_nth(0))
# Compilers, linkers and binary tools: `-o FILE` is what they write.
for _name in ("cc", "gcc", "g++", "c++", "clang", "clang++", "tcc", "ld", "as", "nasm",
              "rustc", "upx", "strip", "swiftc", "pandoc", "msgfmt", "protoc"):  # fmt: skip
    TABLE[_name] = _spec("IDLlUxe", out={"-o": False, "--output": False})
TABLE["javac"] = _spec("", ("--class-path", "-cp"), out={"-d": INTO})
TABLE["go"] = _spec(out={"-o": False})
TABLE["objcopy"] = TABLE["objdump"] = _spec(ops=_nth(1))
for _name in ("tar", "gtar", "bsdtar"):
    TABLE[_name] = _lazy("_archives", "tar")
for _name, _reader in (("unzip", "unzip"), ("7z", "sevenzip"), ("7za", "sevenzip"),
                       ("7zr", "sevenzip"), ("7zz", "sevenzip"), ("cpio", "cpio"),
                       ("ar", "ar"), ("jar", "jar"), ("lz4", "compressor"),
                       ("unlz4", "compressor"), ("brotli", "compressor")):  # fmt: skip
    TABLE[_name] = _lazy("_archives", _reader)
for _name in ("gzip", "gunzip", "pigz", "unpigz", "bzip2", "bunzip2", "pbzip2", "xz", "unxz",
              "lzma", "unlzma", "lzip", "zstd", "unzstd", "zstdmt", "compress", "uncompress",
              "lzop"):  # fmt: skip
    TABLE[_name] = _lazy("_archives", "compressor")
for _name in ("sed", "gsed", "perl", "ruby"):
    TABLE[_name] = _lazy("_scripts", "stream_editor")
for _name in ("awk", "gawk", "mawk", "nawk", "busybox-awk"):
    TABLE[_name] = _lazy("_scripts", "awk")
for _name in ("ed", "red", "ex", "vi", "vim", "nvim", "view", "vimdiff", "gvim", "rvim",
              "nano", "pico", "micro", "emacs", "jed", "joe", "mg", "kak"):  # fmt: skip
    TABLE[_name] = _lazy("_scripts", "editor")
TABLE["sqlite3"] = TABLE["sqlite"] = _lazy("_scripts", "sqlite")
TABLE["psql"] = _lazy("_sqltcl", "psql")
for _name in ("tclsh", "wish", "expect", "jimsh"):
    TABLE[_name] = _lazy("_scripts", "tcl")
TABLE["find"] = _lazy("_tools", "find", _find_gate)
TABLE["git"] = _lazy("_tools", "git", _git_gate)
for _name, _reader in (("curl", "curl"), ("wget", "wget"),
                       ("aria2c", "aria2c"), ("openssl", "openssl"), ("patch", "patch"),
                       ("docker", "container"), ("podman", "container"),
                       ("nerdctl", "container"), ("socat", "socat"), ("yq", "yq"),
                       ("sd", "sd"), ("python", "python"), ("pypy", "python"),
                       ("pip", "pip"), ("uv", "pip")):  # fmt: skip
    TABLE[_name] = _lazy("_tools", _reader)
