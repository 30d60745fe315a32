"""Tools with their own option languages: find, git, curl, wget, python -m, docker, patch, …"""

from __future__ import annotations

from dcg.oslite import path as posixpath
from dcg.writes._opts import given, parse, values

TYPE_CHECKING = False
if TYPE_CHECKING:
    Found = list[tuple[str, int]]

INTO = 2
HERE = "."

# --- find ---------------------------------------------------------------------------------

_FIND_VALUES = frozenset(("-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename",
                          "-regex", "-iregex", "-type", "-xtype", "-user", "-group", "-perm",
                          "-size", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin",
                          "-newer", "-anewer", "-cnewer", "-maxdepth", "-mindepth", "-links",
                          "-inum", "-samefile", "-uid", "-gid", "-used", "-lname", "-ilname",
                          "-fstype", "-context", "-regextype", "-printf", "-files0-from",
                          "-newerXY"))  # fmt: skip
_FIND_OUTPUTS = frozenset(("-fprint", "-fprint0", "-fls", "-fprintf"))
_FIND_EXEC = frozenset(("-exec", "-execdir", "-ok", "-okdir"))
# A find expression that is not a plain conjunction: its name tests do not narrow it.
_FIND_LOGIC = frozenset(("-o", "-or", "!", "-not", "(", ")", ",", "-path", "-ipath",
                         "-wholename", "-iwholename", "-regex", "-iregex", "-lname",
                         "-ilname"))  # fmt: skip


def find(argv: tuple[str, ...], stdin: str | None) -> Found:
    """What find changes: ``-delete`` and the ``-exec`` commands' writes of ``{}`` reach
    the entries found under each root, ``-fprint FILE`` writes FILE.

    An entry found is written as ``ROOT/**/NAME`` when the expression only narrows by
    ``-name``/``-iname`` (a plain conjunction): the entries named NAME at any depth.
    """
    from dcg.writes import argv_targets

    expr = argv[_expression(argv)[1] :]
    found: Found = []
    reached: list[int] = []
    k = 0
    while k < len(expr):
        a = expr[k]
        if a in _FIND_OUTPUTS and k + 1 < len(expr):
            found.append((expr[k + 1], False))
        if a == "-delete":
            reached.append(True)
        if a in _FIND_EXEC:
            end = k + 1
            while end < len(expr) and expr[end] not in (";", "+"):
                end += 1
            for path, how in argv_targets(expr[k + 1 : end]):
                if path.startswith("{}"):
                    reached.append(how if path == "{}" else INTO)
                elif "{}" in path:
                    found.append((path.replace("{}", "*"), how))
                else:
                    found.append((path, how))
            k = end
        k += 1 + (a in _FIND_VALUES or a in _FIND_OUTPUTS) + (a == "-fprintf")
    if reached:
        how = True if True in reached else max(reached)
        found += [(p, how) for p in found_paths(argv)]
    return found


def _expression(argv: tuple[str, ...] | list[str]) -> tuple[int, int]:
    """Where find's roots start (after its options) and where its expression starts."""
    i = 1
    while i < len(argv):
        if argv[i] in ("-H", "-L", "-P") or (argv[i][:2] in ("-O", "-D") and len(argv[i]) > 2):
            i += 1
        elif argv[i] in ("-D", "-O"):
            i += 2
        else:
            break
    first = i
    while i < len(argv) and not argv[i].startswith(("-", "(", "!", ")", ",")):
        i += 1
    return first, i


def found_paths(argv: tuple[str, ...] | list[str]) -> list[str]:
    """What find's ``{}`` stands for: ``ROOT/**/NAME`` per root when the expression only
    narrows by one ``-name``/``-iname`` (a plain conjunction), else each root."""
    first, start = _expression(argv)
    roots = list(argv[first:start])
    expr = argv[start:]
    names = [expr[k + 1] for k in range(len(expr) - 1) if expr[k] in ("-name", "-iname")]
    narrowed = len(names) == 1 and not any(a in _FIND_LOGIC for a in expr)
    return [
        f"{root.rstrip('/') or '/'}/**/{names[0]}" if narrowed else root for root in roots or [HERE]
    ]


# --- git ----------------------------------------------------------------------------------

# Per subcommand, its short options that take a value.
_GIT_SHORT = {"archive": "o", "config": "f", "format-patch": "ovS", "clone": "bocju",
              "checkout": "bB", "worktree": "bB", "restore": "s", "apply": "pC", "am": "pC",
              "rm": "", "mv": "", "clean": "e", "init": "b", "bundle": "", "diff": "O",
              "log": "n"}  # fmt: skip
_STASH = frozenset(("list", "show", "drop", "pop", "apply", "branch", "clear", "create",
                    "store", "export", "import"))  # fmt: skip
_GIT_GLOBAL_VALUES = frozenset(("-C", "-c", "--git-dir", "--work-tree", "--namespace",
                                "--config-env", "--exec-path", "--super-prefix"))  # fmt: skip


def git(argv: tuple[str, ...], stdin: str | None) -> Found:
    """What a git subcommand writes outside the object store: ``archive -o``, ``config
    --file``, ``clone``/``init``/``worktree add`` directories, ``rm``/``mv``, ``clean -f``,
    ``checkout``/``restore`` of paths, ``apply``, ``checkout-index --prefix``."""
    i = 1
    while i < len(argv) and argv[i].startswith("-"):
        i += 2 if argv[i] in _GIT_GLOBAL_VALUES else 1
    if i >= len(argv):
        return []
    sub, rest = argv[i], argv[i + 1 :]
    short = _GIT_SHORT.get(sub, "")
    opts, ops = parse(("git", *rest), short, ("--output", "--file", "--message",
                                                   "--output-directory", "--prefix",
                                                   "--source", "--branch", "--depth",
                                                   "--template", "--separate-git-dir",
                                                   "--reference", "--origin", "--directory",
                                                   "--pathspec-from-file"),
                      flags=("--hard", "--merge", "--keep", "--cached", "--force",
                             "--dry-run", "--staged", "--worktree"))  # fmt: skip
    found: Found = [(v, False) for v in values(opts, "--output")]
    if sub == "archive":
        found += [(v, False) for v in values(opts, "-o")]
    elif sub == "config":
        reads = given(opts, "--get", "--get-all", "--get-regexp", "--list", "-l", "--show-origin")
        if not reads:
            found += [(v, False) for v in values(opts, "-f", "--file")]
    elif sub == "clone" and ops:
        name = posixpath.basename(ops[0].rstrip("/")).removesuffix(".git")
        found.append((ops[1] if len(ops) > 1 else name, INTO))
    elif sub == "init":
        found.append((ops[0] if ops else HERE, INTO))
    elif sub == "worktree" and ops[:1] == ["add"] and len(ops) > 1:
        found.append((ops[1], INTO))
    elif sub == "format-patch":
        found += [(v, INTO) for v in values(opts, "-o", "--output-directory")]
    elif sub == "bundle" and ops[:1] == ["create"] and len(ops) > 1:
        found.append((ops[1], False))
    elif sub == "rm" and not given(opts, "--cached"):
        found += [(p, True) for p in ops]
    elif sub == "mv" and len(ops) >= 2:
        found += [(p, True) for p in ops]
        found += [(posixpath.join(ops[-1], posixpath.basename(s)), False) for s in ops[:-1]]
    elif sub == "clean" and given(opts, "-f", "--force") and not given(opts, "-n", "--dry-run"):
        found += [(p, True) for p in ops] or [(HERE, True)]
    elif sub == "checkout" or (sub == "restore" and not _staged_only(opts)):
        # Without `--` every operand may be a path (git's rule: dcg.shell.gitpaths).
        paths = list(rest[rest.index("--") + 1 :]) if "--" in rest else ops
        found += [(p, False) for p in paths] or [(HERE, INTO)]
    elif sub in ("apply", "am"):
        if not given(opts, "--check", "--stat", "--numstat", "--summary", "--cached"):
            found.append((HERE, INTO))
    elif sub == "stash" and (not ops or ops[0] in ("push", "save") or ops[0] not in _STASH):
        # Puts the stashed paths (with -u their untracked files) back as committed.
        paths = list(rest[rest.index("--") + 1 :]) if "--" in rest else ops
        paths = paths[1:] if paths[:1] == ["push"] else [] if ops[:1] == ["save"] else paths
        found += [(p, True) for p in paths] or [(HERE, INTO)]
    elif sub == "checkout-index":
        found += [(v, INTO) for v in values(opts, "--prefix")] or [(HERE, INTO)]
    elif sub == "submodule" and ops[:1] == ["add"] and len(ops) > 2:
        found.append((ops[2], INTO))
    return found


def _staged_only(opts: list[tuple[str, str | None]]) -> bool:
    return given(opts, "-S", "--staged") and not given(opts, "-W", "--worktree")


# --- downloads ----------------------------------------------------------------------------

_CURL_SHORT = "AbcCdDeEFHKmoPQrTtuUwxXyYz"
_CURL_LONG = ("--output", "--output-dir", "--dump-header", "--cookie-jar", "--trace",
              "--trace-ascii", "--stderr", "--etag-save", "--hsts", "--alt-svc", "--libcurl",
              "--data", "--data-binary", "--data-raw", "--data-urlencode", "--header",
              "--request", "--user", "--user-agent", "--referer", "--form", "--upload-file",
              "--proxy", "--cookie", "--range", "--max-time", "--write-out", "--cert",
              "--config", "--url", "--connect-timeout", "--retry", "--json")  # fmt: skip
_CURL_FILES = (
    "-o",
    "--output",
    "-D",
    "--dump-header",
    "-c",
    "--cookie-jar",
    "--trace",
    "--trace-ascii",
    "--stderr",
    "--etag-save",
    "--hsts",
    "--alt-svc",
    "--libcurl",
)


def curl(argv: tuple[str, ...], stdin: str | None) -> Found:
    """``-o``/``--output`` and the other files curl writes; ``-O``/``-J`` into ``--output-dir``
    or the cwd."""
    opts, _ = parse(argv, _CURL_SHORT, _CURL_LONG, flags=("--remote-name", "--remote-name-all",
                                                          "--remote-header-name"))  # fmt: skip
    dirs = values(opts, "--output-dir")
    found: Found = [(d, INTO) for d in dirs]
    base = dirs[-1] if dirs else ""
    for name, value in opts:
        if name in _CURL_FILES and value and value != "-":
            inside = name in ("-o", "--output")
            found.append((posixpath.join(base, value) if inside else value, False))
    if given(opts, "-O", "--remote-name", "--remote-name-all", "-J", "--remote-header-name"):
        found.append((base or HERE, INTO))
    return found


def wget(argv: tuple[str, ...], stdin: str | None) -> Found:
    """``-O FILE``, the log and cookie files, and otherwise the download into ``-P DIR`` or
    the cwd."""
    opts, _ = parse(argv, "OoaPeiBtTwlARDIXUQ", ("--output-document", "--output-file",
                                               "--append-output", "--directory-prefix",
                                               "--execute", "--input-file", "--save-cookies",
                                               "--warc-file", "--header", "--user-agent",
                                               "--post-data", "--load-cookies"),
                    flags=("--spider",))  # fmt: skip
    found: Found = [(v, False) for v in values(opts, "-o", "--output-file", "-a",
                                               "--append-output", "--save-cookies",
                                               "--warc-file")]  # fmt: skip
    documents = values(opts, "-O", "--output-document")
    found += [(v, False) for v in documents]
    if not documents and not given(opts, "--spider"):
        found += [(d, INTO) for d in values(opts, "-P", "--directory-prefix")] or [(HERE, INTO)]
    return found


def aria2c(argv: tuple[str, ...], stdin: str | None) -> Found:
    opts, _ = parse(argv, "dosxjik", ("--dir", "--out", "--input-file"))
    dirs = values(opts, "-d", "--dir")
    base = dirs[-1] if dirs else HERE
    return [(base, INTO)] + [(posixpath.join(base, v), False) for v in values(opts, "-o", "--out")]


# --- the rest -----------------------------------------------------------------------------

_OPENSSL_OUTPUTS = frozenset(("-out", "-keyout", "-writerand", "-certout", "-reqout",
                              "-crlout", "-respout", "-sigfile"))  # fmt: skip


def openssl(argv: tuple[str, ...], stdin: str | None) -> Found:
    return [(argv[k + 1], False) for k in range(len(argv) - 1) if argv[k] in _OPENSSL_OUTPUTS]


def patch(argv: tuple[str, ...], stdin: str | None) -> Found:
    """``patch FILE``, ``-o OUT``, ``-r REJ``, or the files the diff names under ``-d DIR``
    or the cwd."""
    opts, ops = parse(argv, "pFzVDgYBiord", ("--strip", "--fuzz", "--suffix", "--version-control",
                                             "--ifdef", "--get", "--prefix", "--basename-prefix",
                                             "--input", "--output", "--reject-file",
                                             "--directory"))  # fmt: skip
    base = (values(opts, "-d", "--directory") or [""])[-1]
    found: Found = [(v, False) for v in values(opts, "-o", "--output", "-r", "--reject-file",
                                               "-B", "--prefix")]  # fmt: skip
    if given(opts, "--dry-run"):
        return []
    if ops and not values(opts, "-o", "--output"):
        found.append((posixpath.join(base, ops[0]) if base else ops[0], False))
    elif not ops:
        found.append((base or HERE, INTO))
    return found


def container(argv: tuple[str, ...], stdin: str | None) -> Found:
    """docker/podman ``run``/``create`` with a writable bind mount of a host path (the
    container may write anything in it), and ``cp`` to a host path."""
    words = [a for a in argv[1:] if not a.startswith("-")]
    if not words:
        return []
    sub = words[1] if words[0] == "container" and len(words) > 1 else words[0]
    found: Found = []
    if sub == "cp":
        ops = [a for a in argv[argv.index("cp") + 1 :] if not a.startswith("-")]
        if len(ops) == 2 and not _in_container(ops[1]):
            found.append((ops[1], INTO))
        return found
    if sub not in ("run", "create"):
        return found
    for k, a in enumerate(argv):
        spec, long = None, False
        if a in ("-v", "--volume", "--mount") and k + 1 < len(argv):
            spec, long = argv[k + 1], a == "--mount"
        elif a.startswith(("--volume=", "--mount=")):
            spec, long = a.partition("=")[2], a.startswith("--mount")
        elif a.startswith("-v") and len(a) > 2:
            spec, long = a[2:], False
        if spec is None:
            continue
        if long:
            fields = dict(f.partition("=")[::2] for f in spec.split(","))
            source = fields.get("source") or fields.get("src")
            readonly = "readonly" in fields or "ro" in fields or fields.get("readonly") == "true"
        else:
            parts = spec.split(":")
            source = parts[0] if len(parts) > 1 else None
            readonly = len(parts) > 2 and "ro" in parts[2].split(",")
        if source and source.startswith(("/", ".", "~", "$")) and not readonly:
            found.append((source, INTO))
    return found


def _in_container(word: str) -> bool:
    head, colon, _ = word.partition(":")
    return bool(colon) and "/" not in head and bool(head)


def socat(argv: tuple[str, ...], stdin: str | None) -> Found:
    """``CREATE:f``, ``OPEN:f``, ``GOPEN:f`` addresses open a file to write."""
    found: Found = []
    for a in argv[1:]:
        kind, colon, rest = a.partition(":")
        if colon and kind.upper() in ("CREATE", "CREAT", "OPEN", "GOPEN", "FILE"):
            found.append((rest.partition(",")[0], False))
    return found


def yq(argv: tuple[str, ...], stdin: str | None) -> Found:
    opts, ops = parse(argv, "oIp", ("--output-format", "--indent", "--input-format"),
                      flags=("--inplace",))  # fmt: skip
    return [(f, False) for f in ops[1:]] if given(opts, "-i", "--inplace") else []


def sd(argv: tuple[str, ...], stdin: str | None) -> Found:
    opts, ops = parse(argv, "fn", ("--flags", "--max-replacements"), flags=("--preview",))
    return [] if given(opts, "-p", "--preview") else [(f, False) for f in ops[2:]]


def script(argv: tuple[str, ...], stdin: str | None) -> Found:
    """util-linux/BSD ``script``: the typescript file (``typescript`` in the cwd by default)."""
    opts, ops = parse(argv, "cETIOBmo", ("--command", "--echo", "--log-timing", "--log-in",
                                        "--log-out", "--log-io", "--logging-format",
                                        "--output-limit"))  # fmt: skip
    logs = values(opts, "-T", "-I", "-O", "-B", "--log-timing", "--log-in", "--log-out",
                  "--log-io")  # fmt: skip
    found: Found = [(v, False) for v in logs]
    if ops:
        found.append((ops[0], False))
    elif not values(opts, "-O", "-B", "--log-out", "--log-io"):
        found.append(("typescript", False))
    return found


def python(argv: tuple[str, ...], stdin: str | None) -> Found:
    """``python -m MODULE ARGS`` for the modules that write: json.tool, zipfile, tarfile,
    gzip, venv, zipapp, pip."""
    module, args = python_module(argv)
    if module is None:
        return []
    opts, ops = parse(("python", *args), "o", ("--indent", "--output"))
    if module == "json.tool":
        return [(ops[1], False)] if len(ops) > 1 else []
    if module in ("zipfile", "tarfile"):
        if given(opts, "-e", "--extract"):
            return [(ops[1] if len(ops) > 1 else HERE, INTO)]
        if given(opts, "-c", "--create"):
            return [(ops[0], False)] if ops else []
        return []
    if module == "gzip":
        decompress = given(opts, "-d", "--decompress")
        return [(o.removesuffix(".gz") if decompress else o + ".gz", False) for o in ops]
    if module in ("venv", "virtualenv"):
        return [(d, True if given(opts, "--clear") else INTO) for d in ops]
    if module == "zipapp":
        return [(v, False) for v in values(opts, "-o", "--output")]
    if module == "pip":
        return pip(("pip", *args), stdin)
    return []


def python_module(argv: tuple[str, ...] | list[str]) -> tuple[str | None, list[str]]:
    """The module ``python [options] -m MODULE`` runs and its arguments (None: no -m);
    options are read as the interpreter reads them (``-X dev``, ``-W ignore``, ``-Im``)."""
    i = 1
    while i < len(argv):
        a = argv[i]
        if not a.startswith("-") or a in ("-", "--"):
            return None, []
        if a.startswith("--"):
            i += 1
            continue
        for k in range(1, len(a)):
            ch = a[k]
            if ch == "m":
                if a[k + 1 :]:
                    return a[k + 1 :], list(argv[i + 1 :])
                return (argv[i + 1], list(argv[i + 2 :])) if i + 1 < len(argv) else (None, [])
            if ch == "c":
                return None, []
            if ch in "XWQ":
                i += 0 if a[k + 1 :] else 1
                break
        i += 1
    return None, []


def pip(argv: tuple[str, ...], stdin: str | None) -> Found:
    """``pip install --target/--prefix/--root DIR``, ``download -d``, ``wheel -w`` (also
    ``uv pip``)."""
    args = argv[1:] if argv[0] != "uv" else argv[2:] if argv[1:2] == ("pip",) else ()
    if argv[0] == "uv" and argv[1:2] == ("venv",):
        return [(a, INTO) for a in argv[2:] if not a.startswith("-")][:1] or [(".venv", INTO)]
    opts, _ = parse(("pip", *args), "tdwr", ("--target", "--prefix", "--root", "--dest",
                                             "--wheel-dir", "--src", "--requirement",
                                             "--constraint", "--index-url"))  # fmt: skip
    return [(v, INTO) for v in values(opts, "-t", "--target", "--prefix", "--root", "-d",
                                       "--dest", "-w", "--wheel-dir", "--src")]  # fmt: skip


# find's age tests and how many of their units make a day.
_AGE_TESTS = {"-mtime": 1, "-atime": 1, "-ctime": 1, "-mmin": 1440, "-amin": 1440, "-cmin": 1440}


def older_than_a_day(argv: tuple[str, ...]) -> bool:
    """``find … -mtime +1`` (a plain conjunction): what it finds was not touched for a day."""
    if any(a in ("-o", "-or", "!", "-not", "(", ",") for a in argv):
        return False
    for k, a in enumerate(argv[:-1]):
        unit = _AGE_TESTS.get(a)
        value = argv[k + 1]
        if unit and value.startswith("+") and value[1:].isdigit() and int(value[1:]) >= unit:
            return True
    return False
