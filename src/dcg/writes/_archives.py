"""Archivers and compressors: where an extraction lands, which archive or file is written.

An extraction writes into ``-C DIR`` (or the program's spelling of it) or into the
directory the command runs in; with absolute member names allowed (``tar -P``,
``unzip -:``, cpio without ``--no-absolute-filenames``) it may write anywhere.
"""

from __future__ import annotations

from dcg.oslite import path as posixpath
from dcg.writes._opts import given, parse, values

TYPE_CHECKING = False
if TYPE_CHECKING:
    Found = list[tuple[str, int]]

INTO = 2
HERE = "."
ANYWHERE = ("/", True)

_TAR_SHORT = "fCTXbHIKLNVgF"
_TAR_LONG = ("--file", "--directory", "--files-from", "--exclude-from", "--blocking-factor",
             "--format", "--use-compress-program", "--starting-file", "--tape-length",
             "--newer", "--label", "--listed-incremental", "--info-script", "--exclude",
             "--owner", "--group", "--mode", "--mtime", "--transform", "--xform",
             "--to-command", "--suffix", "--backup", "--strip-components", "--after-date",
             "--newer-mtime", "--record-size", "--volno-file", "--rsh-command",
             "--index-file", "--checkpoint-action", "--occurrence", "--sort")  # fmt: skip
_TAR_MODES = {"c": "create", "r": "create", "u": "create", "A": "create", "x": "extract"}


def tar(argv: tuple[str, ...], stdin: str | None) -> Found:
    """``tar -x`` writes into ``-C DIR`` or the cwd; ``tar -c``/``-r``/``-u`` write the archive."""
    args = list(argv)
    # The traditional form: a first word of bundled letters without a dash (`tar xzf a`).
    if len(args) > 1 and args[1][:1] not in ("-", "") and args[1].isalpha():
        letters = args[1]
        args[1:2] = ["-" + letters]
    opts, members = parse(args, _TAR_SHORT, _TAR_LONG, flags=("--extract", "--get", "--create",
                                                        "--append", "--update", "--catenate",
                                                        "--concatenate", "--absolute-names",
                                                        "--delete"))  # fmt: skip
    mode = ""
    for k, _ in opts:
        if k in ("--extract", "--get"):
            mode = "extract"
        elif k in ("--create", "--append", "--update", "--catenate", "--concatenate", "--delete"):
            mode = "create"
        elif len(k) == 2 and k[1] in _TAR_MODES:
            mode = _TAR_MODES[k[1]]
    found: Found = [(v, False) for v in values(opts, "-g", "--listed-incremental",
                                                "--index-file", "--volno-file")]  # fmt: skip
    if mode == "create":
        found += [(v, False) for v in values(opts, "-f", "--file")]
    elif mode == "extract":
        dirs = values(opts, "-C", "--directory")
        found += [(d, INTO) for d in dirs] or [(HERE, INTO)]
        base = dirs[-1] if dirs else HERE
        found += [(posixpath.join(base, m), False) for m in members]
        if given(opts, "-P", "--absolute-names"):
            found.append(ANYWHERE)
    return found


def extracted_archive(argv: tuple[str, ...]) -> str | None:
    """The archive file an extraction reads (``tar -xf A``, ``unzip A``, ``python -m
    zipfile -e A``), ``-`` for tar reading its input (``… | tar -x -C ~``); None when it
    is not an extraction."""
    name = argv[0]
    if name in ("tar", "gtar", "bsdtar"):
        found = tar(argv, None)
        if not any(how == INTO for _, how in found):
            return None
        args = list(argv)
        if len(args) > 1 and args[1][:1] not in ("-", "") and args[1].isalpha():
            args[1:2] = ["-" + args[1]]
        opts, _ = parse(args, _TAR_SHORT, _TAR_LONG)
        files = values(opts, "-f", "--file")
        return files[-1] if files else "-"
    if name == "unzip":
        opts, ops = parse(argv, "dxP")
        return ops[0] if ops and unzip(argv, None) else None
    return None


def unzip(argv: tuple[str, ...], stdin: str | None) -> Found:
    """unzip extracts into ``-d DIR`` or the cwd (not with -l/-p/-t/-v/-z/-Z)."""
    opts, ops = parse(argv, "dxP")
    if any(k in ("-l", "-p", "-t", "-v", "-z", "-Z") for k, _ in opts):
        return []
    dirs = values(opts, "-d")
    found: Found = [(d, INTO) for d in dirs] or [(HERE, INTO)]
    found += [(posixpath.join(dirs[-1] if dirs else HERE, m), False) for m in ops[1:]]
    if given(opts, "-:"):
        found.append(ANYWHERE)
    return found


def sevenzip(argv: tuple[str, ...], stdin: str | None) -> Found:
    """7z: ``x``/``e`` extract into ``-oDIR`` or the cwd; ``a``/``u``/``d``/``rn`` write the
    archive."""
    ops = [a for a in argv[1:] if not a.startswith("-")]
    if not ops:
        return []
    verb = ops[0].lower()
    if verb in ("x", "e"):
        dirs = [a[2:] for a in argv[1:] if a.startswith("-o") and len(a) > 2]
        base = dirs[-1] if dirs else HERE
        members = [(posixpath.join(base, m), False) for m in ops[2:]]
        return [(d, INTO) for d in dirs] + members or [(HERE, INTO), *members]
    if verb in ("a", "u", "d", "rn") and len(ops) > 1:
        return [(ops[1], False)]
    return []


def cpio(argv: tuple[str, ...], stdin: str | None) -> Found:
    """``cpio -i`` extracts into ``-D DIR`` or the cwd (absolute names anywhere, unless
    ``--no-absolute-filenames``); ``-o -F FILE`` writes the archive; ``-p DIR`` copies into DIR."""
    opts, ops = parse(argv, "DFOIEHMRsCe", ("--directory", "--file", "--pattern-file",
                                           "--format", "--message", "--owner",
                                           "--block-size", "--rsh-command"),
                      flags=("--extract", "--create", "--pass-through",
                             "--no-absolute-filenames"))  # fmt: skip
    if given(opts, "-i", "--extract"):
        found: Found = [(d, INTO) for d in values(opts, "-D", "--directory")] or [(HERE, INTO)]
        if not given(opts, "--no-absolute-filenames"):
            found.append(ANYWHERE)
        return found
    if given(opts, "-o", "--create"):
        return [(v, False) for v in values(opts, "-F", "-O", "--file")]
    if given(opts, "-p", "--pass-through"):
        return [(d, INTO) for d in ops[:1]]
    return []


def ar(argv: tuple[str, ...], stdin: str | None) -> Found:
    """``ar x`` extracts into the cwd; ``ar r``/``q``/``d``/``m`` write the archive."""
    ops = [a for a in argv[1:] if not a.startswith("--")]
    if not ops:
        return []
    key = ops[0].lstrip("-")
    if "x" in key:
        return [(HERE, INTO)]
    if any(c in key for c in "rqdm") and len(ops) > 1:
        return [(ops[1], False)]
    return []


def jar(argv: tuple[str, ...], stdin: str | None) -> Found:
    """``jar x`` extracts into the cwd (or ``-C DIR``); ``jar c``/``u`` with ``f`` write FILE."""
    key = argv[1].lstrip("-") if len(argv) > 1 else ""
    rest = [a for a in argv[2:] if not a.startswith("-")]
    if "x" in key:
        dirs = [argv[k + 1] for k in range(2, len(argv) - 1) if argv[k] == "-C"]
        return [(d, INTO) for d in dirs] or [(HERE, INTO)]
    if any(c in key for c in "cu") and "f" in key and rest:
        return [(rest[0], False)]
    return []


# Their short options that take a value.
_COMPRESS_SHORT = {("gzip", "pigz"): "Spb", ("bzip2", "pbzip2"): "p", ("xz", "lzma"): "STMFC",
                   ("zstd", "zstdmt"): "oDTMB", ("lz4",): "B", ("brotli",): "oqwS",
                   ("lzip",): "obms", ("compress",): "b", ("lzop",): "oS"}  # fmt: skip
# Compressors that delete their input by default, and those that keep it.
_KEEP_BY_DEFAULT = frozenset(("zstd", "unzstd", "zstdmt", "lz4", "unlz4", "brotli", "lzop"))
_SUFFIXES = (".gz", ".bz2", ".xz", ".lzma", ".lz", ".zst", ".lz4", ".br", ".Z", ".lzo",
             ".tgz", ".tbz2", ".txz")  # fmt: skip


def compressor(argv: tuple[str, ...], stdin: str | None) -> Found:
    """gzip, xz, bzip2, zstd, lz4, brotli and the rest: ``-o FILE``, the files they write
    beside their operands, and the operands they delete (unless ``-k``/``-c``/``-t``/``-l``)."""
    name = argv[0]
    short = next((v for k, v in _COMPRESS_SHORT.items() if name.removeprefix("un") in k), "o")
    opts, ops = parse(argv, short,
                      ("--output", "--suffix", "--threads", "--memlimit", "--format",
                       "--dict", "--check"),
                      flags=("--stdout", "--to-stdout", "--keep", "--test", "--list",
                             "--decompress", "--uncompress", "--rm", "--force"))  # fmt: skip
    found: Found = [(v, False) for v in values(opts, "-o", "--output")]
    if given(opts, "-c", "--stdout", "--to-stdout", "-t", "--test", "-l", "--list"):
        return found
    if name in ("lz4", "unlz4", "brotli") and len(ops) == 2 and not found:
        return [(ops[1], False)]
    keep = given(opts, "-k", "--keep") or (name in _KEEP_BY_DEFAULT and not given(opts, "--rm"))
    decompress = name.startswith("un") or given(opts, "-d", "--decompress", "--uncompress")
    suffix = (values(opts, "-S", "--suffix") or [_SUFFIX.get(name.removeprefix("un"), ".z")])[-1]
    named = bool(found)
    for op in ops:
        if op == "-":
            continue
        if not named:
            stripped = next((op[: -len(s)] for s in (suffix, *_SUFFIXES) if op.endswith(s)), op)
            found.append((stripped if decompress else op + suffix, False))
        if not keep:
            found.append((op, True))
    return found


_SUFFIX = {"gzip": ".gz", "pigz": ".gz", "bzip2": ".bz2", "pbzip2": ".bz2", "xz": ".xz",
           "lzma": ".lzma", "lzip": ".lz", "zstd": ".zst", "zstdmt": ".zst", "lz4": ".lz4",
           "brotli": ".br", "compress": ".Z", "lzop": ".lzo"}  # fmt: skip
