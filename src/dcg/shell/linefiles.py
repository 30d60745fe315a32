"""Files written or edited earlier on the line: what each will hold when a later command runs it.

``echo '…' > x.sh``, ``cat <<EOF > x.sh``, ``… | tee x.sh``, ``cp a.sh x.sh``, ``>> Makefile``,
``sed -i … build.sh``, ``npm pkg set scripts.x=…``: the walker calls :func:`remember_written`
for each such command and the text (or the edit on the disk's text, or None when it cannot
be known) is kept in the walker state's ``files`` table (path -> text) for
:func:`dcg.shell.runtext.written`. :func:`modules` finds the module an interpreter's
``-m``/``import``/``require`` loads from the project.
"""

from __future__ import annotations

from dcg import oslite as os
from dcg.shell import edits, opaque, runtext, scripts
from dcg.shell.moves import MOVERS, RENAMERS, is_move, move_args, record_move, record_renames
from dcg.shell.parser import OPAQUE
from dcg.shell.redirs import fd_writes
from dcg.shell.state import CWD
from dcg.shell.static import piped_text
from dcg.shell.unwrap import normalize

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from dcg.shell.command import Command
    from dcg.shell.parser import Simple
    from dcg.shell.runtext import Ctx, Walker
    from dcg.shell.state import Vars
    from dcg.shell.unwrap import Work


def modules(lang: str, work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """``python3 -m mod``, ``python3 -c "import helper"``, ``node -r ./x``: the module the
    interpreter loads from the project runs; written on this line or on disk. (Modules the
    code itself names are followed where any code is judged, dcg.shell.modloads.)"""
    argv = work.argv
    paths: list[str] = []
    code = ""
    for k in range(1, len(argv)):
        a, value = argv[k], argv[k + 1] if k + 1 < len(argv) else ""
        opt, eq, inline = a.partition("=")
        if a == "-m" and lang == "python" and value:
            if value == "unittest":
                from dcg.shell import modloads

                modloads.test_runner(lang, argv, ctx, out, walker)
            mod = value.replace(".", "/")
            paths += [mod + ".py", mod + "/__main__.py"]
            parts = mod.split("/")  # `-m json.tool` imports json first (a json.py shadows it)
            heads = ["/".join(parts[:k]) for k in range(1, len(parts) + 1)]
            paths += [h + tail for h in heads for tail in ("/__init__.py", ".py")]
            break
        if lang in ("javascript", "ruby") and opt in _NODE_LOADS:  # node -r ./x, ruby -r ./x
            mod = inline if eq else value
            ext = ".js" if lang == "javascript" else ".rb"
            paths.append(mod if mod.endswith(_JS) or mod.endswith(".rb") else mod + ext)
            if lang == "javascript" and not mod.startswith((".", "/")):  # node -r x: a package
                paths += [k for k in ctx.env.state.files if k.startswith(f"node_modules/{mod}/")]
        elif lang == "javascript" and a == "--test":
            from dcg.shell import modloads

            modloads.test_runner(lang, argv, ctx, out, walker)
        elif a in ("-c", "-e", "-p", "--eval", "--print") or _joined_c(lang, a):
            code += value + "\n"
        elif not a.startswith("-"):
            break
    if code and lang == "python":  # `python3 -c 'import helper'`: ./helper.py on disk runs too
        for name in imports(code):
            paths += [name + ".py", name + "/__init__.py"]
    for path in dict.fromkeys(paths):
        found, text, shown = runtext.written(path, ctx, out, walker)
        if not found:
            if not path.endswith(".py") or ctx.files is None:  # from disk: python modules
                continue
            where = scripts.where(ctx.files, path, ctx.env.get(CWD))
            if where is None or not os.path.isfile(where) or scripts.installed(where):
                continue
            text = scripts.read(ctx.files, where)
            shown = scripts.display(where, ctx.files.cwd)
            if text == scripts.TOO_BIG or text is None or not ctx.files.wanted(text):
                continue
        if text:
            walker.embedded(lang, text, ctx.child((*ctx.via, f"in {shown}", f"{lang} module")),
                            out, found)  # fmt: skip


def _joined_c(lang: str, a: str) -> bool:
    """``python3 -Bc CODE``: short options joined, the last one ``-c``."""
    return (
        lang == "python" and a[:1] == "-" and a[1:2] != "-" and a.endswith("c") and a[1:].isalpha()
    )


_JS = (".js", ".mjs", ".cjs", ".ts", ".mts", ".cts")
# node options whose value is a module loaded before the program.
_NODE_LOADS = frozenset(("-r", "--require", "--import", "--loader", "--experimental-loader"))


def imports(code: str) -> list[str]:
    """The top-level modules ``import a, b`` / ``from a.b import c`` statements name."""
    names: list[str] = []
    for stmt in code.replace(";", "\n").splitlines():
        words = stmt.replace(",", " ").split()
        if words[:1] == ["import"]:
            names += [w.split(".")[0] for w in words[1:] if w != "as"][:8]
        elif words[:1] == ["from"] and len(words) > 1 and not words[1].startswith("."):
            names.append(words[1].split(".")[0])
    return [n for n in names if n.isidentifier()]


_COPIERS = frozenset(("cp", "mv", "install", "ln", "rsync"))
# What passes a git archive on (compressed or not) into the file it writes.
_THROUGH = frozenset(("tee", "cat", "gzip", "pigz", "bzip2", "xz", "zstd", "lz4", "lzip", "dd",
                      "sponge", "pv", "buffer"))  # fmt: skip


def remember_written(simple: Simple, redirects: list[tuple[str, str]], env: Vars) -> None:
    """`echo '…' > x.sh`, `cat <<EOF > x.sh`, `… | tee x.sh`, `cp a.sh x.sh`: remember
    what x.sh will hold (None: text dcg cannot know), for a later `sh x.sh` on the line."""
    argv = simple.fields
    if env.state.moved:  # a write in place into a hard link the line made: dcg.shell.moves
        from dcg.shell.moves import same_redirects

        same_redirects(redirects, env)
    written, others = fd_writes(redirects)
    if not argv or (argv[0] == "exec" and all(a[:1] == "{" and a[-1:] == "}" for a in argv[1:])):
        # `{ …; } > f`, `( … ) > f`, `done > f`: what the compound prints; `exec 3> f`,
        # `exec {fd}<>f`: what is written to the descriptor later. Neither is known here.
        for target, _ in written if simple.grouped or argv else ():
            _store(env, target, None)
        for target in others if simple.grouped or argv else ():
            _store(env, target, None)
        for op, target in redirects if argv else ():  # `exec {fd}<>f`: written through fd
            if op.endswith("<>") and target:
                _store(env, target, None)
        return
    for target in others:  # `2>f`, `3>f`: what goes there is not what the command prints
        _store(env, target, None)
    name = normalize(argv[0])
    if name in ("cp", "ln", "rsync"):  # hard links: the same files under other names
        from dcg.shell.moves import record_links

        record_links(name, argv, env)
    pipe = simple.pipe_in
    if name == "tee":
        append = any(a in ("-a", "--append") for a in argv[1:])
        written += [(a, append) for a in argv[1:] if not a.startswith("-")]
        source = pipe if pipe is not None and pipe is not OPAQUE else None
        feeder = normalize(source.fields[0]) if source and source.fields else ""
        text = scripts.FETCHED if feeder in opaque.FETCHERS else (
            piped_text(source) if source is not None else None)  # fmt: skip
        if text is None and source is not None:  # `git diff | tee p`: a patch of the work
            from dcg.shell import gitstream

            text = gitstream.marker(origin(source))
    elif name in opaque.FETCHERS:
        text = scripts.FETCHED
        for k, a in enumerate(argv[:-1]):
            if a in ("-o", "-O", "--output", "--output-document"):
                written.append((argv[k + 1], False))
    elif name in RENAMERS:
        record_renames(argv, env)
        text = None
    elif name in MOVERS and is_move(name, argv):
        record_move(move_args(argv[2:] if name == "git" else argv[1:], name == "git"), env)
        text = None
    elif name in _COPIERS:
        valued = (
            ("-m", "-o", "-g", "-S", "--mode", "--owner", "--group") if name == "install" else ()
        )
        args = [a for k, a in enumerate(argv[1:], 1) if a[:1] != "-" and argv[k - 1] not in valued]
        symbolic = name == "ln" and any(
            a == "--symbolic" or (a[:1] == "-" and a[1:2] != "-" and "s" in a) for a in argv[1:]
        )
        if name == "mv" or symbolic:
            record_move(move_args(argv[1:]), env)
        if len(args) == 2 and args[0] in _STDIN:  # `install /dev/stdin x.sh <<< …`
            _store(env, args[1], _fed(simple))
        elif len(args) == 2:
            src = args[0]
            if symbolic and src[:1] not in ("/", "~"):  # a link's target: from its directory
                src = os.path.normpath(os.path.join(os.path.dirname(args[1]), src))
            env.state.files[args[1]] = env.state.files.get(src, "\x00copy:" + src)
        text = piped_text(simple)
    elif name in ("dd", "sponge"):  # what is fed in: `… | dd of=x.sh`, `sponge x.sh`
        infile = next((a[3:] for a in argv[1:] if a.startswith("if=")), "")
        text = _fed(simple) if infile in ("", *_STDIN) else None
        if text is None and infile in ("", *_STDIN) and pipe is not None:
            from dcg.shell import gitstream

            text = gitstream.marker(origin(pipe))  # `git diff | dd of=p`: a patch of the work
        if name == "dd":
            written += [(a[3:], False) for a in argv[1:] if a.startswith("of=") and a[3:]]
        else:
            append = "-a" in argv[1:]
            written += [(a, append) for a in argv[1:] if a[:1] != "-"]
    elif name == "zip" or argv[1:3] == ["-m", "zipapp"]:  # an archive Python can run
        written += [(a, False) for a in _archives(argv)]
        text = None
    elif name in opaque.COMPILERS:
        compiled(name, argv, env, simple)
        text = piped_text(simple)
    elif name in ("mkfifo", "mknod"):  # a pipe: what a reader runs is whatever is written to it
        names = [a for k, a in enumerate(argv[1:], 1) if a[:1] != "-" and argv[k - 1] != "-m"]
        written += [(a, False) for a in (names[:1] if name == "mknod" else names)]
        text = None
    elif name == "patch" or argv[:2] == ["git", "apply"]:
        _patched(simple, redirects, env)
        text = None
    elif name == "git":
        from dcg.shell import gitstream

        text = gitstream.marker(argv)
        written += [(a, False) for a in gitstream.output_files(argv)]
        if text is None and "archive" in argv:  # `git archive -o x.tar HEAD`, `> x.tar`
            from dcg.shell.gitarchive import archive_marker

            text = archive_marker(argv, env)
    elif (
        name == "cat"
        and len([a for a in argv[1:] if a[:1] != "-"]) == 1
        and not any(append for _, append in written)
        and next(a for a in argv[1:] if a[:1] != "-") in env.state.files
    ):
        text = env.state.files[next(a for a in argv[1:] if a[:1] != "-")]  # `cat a > b`: a's text
    else:
        text = piped_text(simple)
        if name in EDITORS:
            _edited(name, argv, simple.stdin, env)
    if text is None and name in _THROUGH and pipe is not None and pipe is not OPAQUE:
        made_by = origin(pipe)  # `git archive HEAD | gzip > x.tgz`, `| tee x.tar`
        if made_by[:1] == ["git"] and "archive" in made_by:
            from dcg.shell.gitarchive import archive_marker

            text = archive_marker(made_by, env)
    for target, append in written:
        if not append:
            _store(env, target, text)
        elif text is None:
            _store(env, target, None)
        else:  # appended to what the file holds: on disk, or written earlier on the line
            old = env.state.files.get(
                target, env.state.files.get(os.path.normpath(target), edits.EDIT)
            )
            added = text if text.endswith("\n") else text + "\n"
            _store(env, target, edits.record(old, "a" + added))


COMPILED = runtext.COMPILED


def _archives(argv: list[str]) -> list[str]:
    """The archive ``zip ARCHIVE …`` (``.zip`` added to a name without one) or ``python3 -m
    zipapp SRC [-o OUT]`` (``SRC.pyz`` by default) writes: what it holds is not known."""
    args = argv[3:] if argv[1:3] == ["-m", "zipapp"] else argv[1:]
    if argv[1:3] != ["-m", "zipapp"]:
        name = next((a for a in args if a[:1] != "-"), "")
        return [name if "." in name.rpartition("/")[2] else name + ".zip"] if name else []
    for k, a in enumerate(args):
        if a in ("-o", "--output") and k + 1 < len(args):
            return [args[k + 1]]
        if a.startswith("--output="):
            return [a[9:]]
    src = next((a for a in args if a[:1] != "-"), "")
    return [src.rstrip("/") + ".pyz"] if src else []


def compiled(name: str, argv: list[str], env: Vars, simple: Simple) -> None:
    """``gcc x.c -o x``, ``cc x.c`` (a.out), ``rustc x.rs`` (x), ``javac X.java`` (X.class),
    ``go build -o x``: a program built from a source written earlier on the line holds code
    dcg cannot see; running it is opaque when that source names a guarded tool."""
    args = argv[1:]
    sources = [a for a in args if a[:1] != "-" and _written_here(a, env)]
    stdin = "-" in args or "/dev/stdin" in args  # `cc -xc - -o x <<< '…'`: source on stdin
    fed = _fed(simple) if stdin else None
    if stdin:
        sources.append("\x1e" + (fed or ""))
    if not sources:
        return
    outs = [args[k + 1] for k in range(len(args) - 1) if args[k] in ("-o", "--output")]
    outs += [a[2:] for a in args if a.startswith("-o") and len(a) > 2 and name != "javac"]
    if name == "javac":
        outs = [s.rpartition(".")[0] + ".class" for s in sources if s[:1] != "\x1e"]
    elif not outs and name == "rustc":
        outs = [s.rpartition("/")[2].rpartition(".")[0] for s in sources]
    elif not outs and name not in ("go", "zig"):
        outs = ["a.out"]
    for target in outs:
        _store(env, target, None if stdin and fed is None else COMPILED + sources[0])


def _patched(simple: Simple, redirects: list[tuple[str, str]], env: Vars) -> None:
    """``patch -p0 < p.diff``, ``… | git apply``: the files a diff the line knows changes
    hold text dcg does not compute (a later ``make`` reading one is opaque)."""
    argv = simple.fields
    diff = _fed(simple)
    if diff is None:
        names = [t for op, t in redirects if op == "<"]
        names += [a for a in argv[2 if argv[0] == "git" else 1 :] if a[:1] != "-"]
        for n in names:
            if _written_here(n, env):
                diff = env.state.files.get(n, env.state.files.get(os.path.normpath(n)))
                break
    if not diff or diff.startswith("\x00"):
        return
    strip = next((int(a[2:]) for a in argv if a.startswith("-p") and a[2:].isdigit()), -1)
    if argv[0] == "git":
        strip = 1 if strip < 0 else strip
    for line in diff.splitlines():
        if line.startswith("+++ ") and not line.startswith("+++ /dev/null"):
            path = line[4:].split("\t")[0].strip()
            parts = path.split("/")
            path = "/".join(parts[strip:]) if 0 <= strip < len(parts) else parts[-1]
            if path:
                _store(env, path, None)


def _written_here(path: str, env: Vars) -> bool:
    return path in env.state.files or os.path.normpath(path) in env.state.files


EDITORS = opaque.EDITORS
_STDIN = ("-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0")


def _fed(simple: Simple) -> str | None:
    """What a command reads on stdin: a heredoc or here-string, or a pipe's known text."""
    if simple.stdin is not None:
        return simple.stdin
    pipe = simple.pipe_in
    return piped_text(pipe) if pipe is not None and pipe is not OPAQUE else None


def _store(env: Vars, target: str, text: str | None) -> None:
    env.state.files[target] = text
    for key in runtext.line_keys(env, target):
        env.state.files[key] = text
    full = runtext.absolute(env, target)  # `> ../proj/f`, `> ~/proj/f`: one file, one key
    if full is not None:
        env.state.files[full] = text


def _edited(name: str, argv: list[str], stdin: str | None, env: Vars) -> None:
    """Record what an in-place editor does to the files it edits."""
    if name in ("npm", "pnpm"):
        i, where = 1, ""
        while i < len(argv) and argv[i].startswith("-"):
            opt, eq, value = argv[i].partition("=")
            if opt in ("--prefix", "-C", "--dir") and not eq and i + 1 < len(argv):
                where, i = argv[i + 1], i + 1  # `npm --prefix DIR pkg set`: DIR's package.json
            elif opt in ("--prefix", "-C", "--dir"):
                where = value
            i += 1
        _npm_config(argv[i:], env)
        if argv[i : i + 2] == ["pkg", "set"]:
            path = os.path.join(where, "package.json") if where else "package.json"
            for pair in argv[i + 2 :]:
                key, eq, value = pair.partition("=")
                if eq and not key.startswith("-"):
                    key = key.replace("[", ".").replace("]", "").replace('"', "").replace("'", "")
                    old = env.state.files.get(
                        path, env.state.files.get(os.path.normpath(path), edits.EDIT)
                    )
                    _store(env, path, edits.record(old, f"p{key}\x1f{value}"))
        return
    if name in ("sed", "gsed"):
        found = edits.sed_args(argv)
        if found is not None and "i" in found[2]:
            scripts_, files, flags = found
            for f in files:
                old = env.state.files.get(f, env.state.files.get(os.path.normpath(f), edits.EDIT))
                op = "s" + flags + "\x1f" + "\x1f".join(scripts_)
                _store(env, f, None if "f" in flags else edits.record(old, op))
        return
    from dcg.writes import argv_targets

    for path, how in argv_targets(argv, stdin):
        if not how and path and path != "-":
            _store(env, path, None)


def _npm_config(rest: list[str], env: Vars) -> None:
    """``npm config set script-shell X`` (``npm set``): as if npm_config_script_shell=X."""
    rest = [w for w in rest if not w.startswith("-")]  # npm config --global set …
    if rest[:2] == ["config", "set"] or rest[:2] == ["c", "set"]:
        words = rest[2:]
    elif rest[:1] == ["set"]:
        words = rest[1:]
    else:
        return
    for k, w in enumerate(words):
        key, eq, value = w.partition("=")
        if key.replace("_", "-").lower() != "script-shell":
            continue
        if not eq:
            value = words[k + 1] if k + 1 < len(words) else ""
        env["npm_config_script_shell"] = value or None


def origin(pipe: Simple) -> list[str]:
    """The words of the command whose output reaches the end of the pipe stage ``pipe``
    unchanged (``git diff | tee p | cat``: ``git diff``); [] when a compound sends it."""
    from dcg.shell import gitstream

    for _ in range(16):
        if pipe is OPAQUE:
            return []
        if pipe.group is not None:  # `{ git diff; } | …`: what the group prints
            from dcg.shell.gitstream import sense

            return next((list(s.fields) for s in pipe.group if sense(s.fields)), [])
        if not gitstream.through(pipe.fields) or pipe.pipe_in is None:
            return list(pipe.fields)
        pipe = pipe.pipe_in
    return []
