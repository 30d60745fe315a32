"""One table of code a tool loads without being told on its command line, read before it runs.

``PYTHONPATH=. python3 -c pass`` imports ``./sitecustomize.py``; ``python3 -i`` runs
``$PYTHONSTARTUP``; a ``.pth`` file in site-packages runs its ``import`` lines at every
start; ``python3 -m pkg`` runs ``pkg/__init__.py`` before ``pkg/__main__.py``; ``pip
install .`` and ``python -m build`` run ``setup.py`` (or an in-tree build backend);
``NODE_OPTIONS=--require ./x.js`` preloads x.js into every node; ``node .`` runs
package.json's ``main``; ``npx NAME`` runs ``node_modules/.bin/NAME``; ``pre-commit run``
runs the local hooks' ``entry``. :data:`PROGRAMS` says which program loads what; each file
is taken as written earlier on the line or read from the project (never an installed
package), and judged like the script it is (:mod:`dcg.shell.running`): its Python or
JavaScript by the embedded analysis, its shell text as commands. A file written on the
line with text dcg cannot know is an opaque finding (:func:`dcg.shell.runtext.written`).
pytest's collection is :mod:`dcg.shell.pytestrun`, npm's and make's extra files
:mod:`dcg.shell.pkgloads`.
"""

from __future__ import annotations

from dcg import oslite as os
from dcg.shell import edits, runtext, scripts
from dcg.shell.state import CWD

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from dcg.shell.command import Command
    from dcg.shell.runtext import Ctx, Walker
    from dcg.shell.unwrap import Work


# What each program loads besides its operands: the name of the reader below.
PROGRAMS: dict[str, str] = {
    "pytest": "pytest", "py.test": "pytest",
    "pip": "pip", "pip3": "pip", "pyproject-build": "build", "uv": "uv",
    "node": "node", "nodejs": "node",
    "npx": "npx", "bunx": "npx", "pnpx": "npx", "pre-commit": "precommit", "pipx": "pip",
}  # fmt: skip
# `python -m NAME` that is one of the programs above.
PYTHON_MODULES = {"pytest": "pytest", "pip": "pip", "build": "build", "pre_commit": "precommit"}
# Variables naming code a program loads: variable -> programs it applies to ("*": any
# program that starts node: npm, npx, yarn, and node itself).
ENV_CODE: dict[str, str] = {
    "PYTHONSTARTUP": "python, when interactive (-i, or no script)",
    "PYTHONPATH": "python: sitecustomize.py and usercustomize.py in its directories",
    "NODE_OPTIONS": "node and every tool it starts: --require/-r/--import/--loader files",
    "PYTEST_PLUGINS": "pytest: comma-separated plugin modules",
    "PYTEST_ADDOPTS": "pytest: options as if on its command line",
    "MAKEFILES": "make: makefiles read before the others",
    "npm_config_script_shell": "npm: the shell package scripts run in",
}
# Programs built on node, for NODE_OPTIONS.
NODE_TOOLS = frozenset(("node", "nodejs", "npm", "npx", "yarn", "pnpm", "corepack", "tsx",
                        "ts-node", "jest", "vitest", "mocha", "eslint", "tsc", "next", "vite",
                        "webpack", "prettier"))  # fmt: skip
_STARTUP_FILES = ("sitecustomize.py", "usercustomize.py")
_SITE_DIRS = ("/site-packages/", "/dist-packages/")


def run(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """Judge the code ``work``'s program loads implicitly (see :data:`PROGRAMS`)."""
    argv = work.argv
    name = argv[0]
    kind = PROGRAMS.get(name) or PROGRAMS.get(name.rstrip("0123456789."))
    if kind is None and name.startswith("pip") and name[3:].replace(".", "").isdigit():
        kind = "pip"
    _preload(work, ctx, out, walker)
    if name in NODE_TOOLS or kind == "npx":
        _node_options(work, ctx, out, walker)
    if "npm exec" in work.via or "npx" in work.via:  # run in npm's script shell
        from dcg.shell.pkgloads import exec_shell

        exec_shell(work, ctx, out, walker)
    if scripts.interpreter_lang(name) == "python":
        args = _python(work, ctx, out, walker)
        if args is None:
            return
        kind, argv = args
    if name == "git":
        from dcg.shell import pkgloads

        pkgloads.git_hooks(argv, ctx, out, walker)
        return
    if name in ("yarn", "pnpm", "bun"):  # yarn exec NAME, yarn NAME: node_modules/.bin
        from dcg.shell import pkgloads

        k = 1
        while k < len(argv) and argv[k].startswith("-"):
            k += 1
        sub = argv[k] if k < len(argv) else ""
        if sub in ("exec", "dlx", "x"):
            pkgloads.npx(["npx", *argv[k + 1 :]], ctx, out, walker)
        elif sub and not sub.startswith(("/", ".")):
            pkgloads.npx(["npx", sub], ctx, out, walker)
        return
    if name == "npm":  # npm exec NAME / npm x NAME: npx
        k = 1
        while k < len(argv) and argv[k].startswith("-"):
            k += 1
        if argv[k : k + 1] in (["exec"], ["x"]):
            kind, argv = "npx", ["npx", *argv[k + 1 :]]
    if kind is None:
        return
    if kind == "uv":
        if argv[1:2] == ["pip"]:
            kind, argv = "pip", argv[1:]
        elif argv[1:2] == ["build"]:
            kind, argv = "build", argv[1:]
        else:
            return
    if kind == "pytest":
        from dcg.shell import pytestrun

        pytestrun.run(work, argv, ctx, out, walker)
    elif kind in ("pip", "build"):
        for d in _local_projects(kind, argv, ctx):
            _build(d, ctx, out, walker)
    elif kind == "node":
        _node_dir(work, ctx, out, walker)
    elif kind == "npx":
        from dcg.shell import pkgloads

        pkgloads.npx(argv, ctx, out, walker)
    elif kind == "precommit":
        from dcg.shell import pkgloads

        pkgloads.precommit(argv, ctx, out, walker)


def _preload(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """``LD_PRELOAD=./evil.so ls``: a library the line wrote or built runs its constructors
    in the program, code dcg cannot see (one on disk before the line is not judged)."""
    from dcg.shell.payloads import PRELOADS

    for var in PRELOADS:
        value = runtext.setting(work, ctx, var)
        if var in work.assigns or var in ctx.env:
            for lib in (value or "$(…)").replace(" ", ":").split(":"):
                found, text, _ = runtext.written(lib, ctx, out, walker)  # emits the unknowable
                if not found and lib.startswith("$"):
                    walker.emit(f"{var} loads a library named only at run time", ctx, out)
                elif found and text is not None:
                    walker.emit(f"{var} loads {lib}, a library written on this line", ctx, out)


def _python(
    work: Work, ctx: Ctx, out: list[Command], walker: Walker
) -> tuple[str, list[str]] | None:
    """Python's start-up files for this run; ``(program, argv)`` when ``-m`` runs one of
    :data:`PYTHON_MODULES` (pytest, pip…), None otherwise."""
    from dcg.shell.optgrammar import parse

    argv = work.argv
    p = parse("python", argv)
    flags, module, after = p.flags, p.module, p.first
    code = p.code[0][1] if p.code else None
    script = p.script[1] if p.script is not None else ("-" if p.stdin else None)
    isolated = "I" in flags or "E" in flags
    if not isolated:
        # Only the interactive prompt reads it: not with -c, -m or a script, even with -i.
        interactive = code is None and module is None and script in (None, "-")
        startup = runtext.setting(work, ctx, "PYTHONSTARTUP")
        if interactive and startup:
            runtext.judge("python", startup, "PYTHONSTARTUP", ctx, out, walker)
        if "S" not in flags:
            for d in _python_path(work, ctx):
                for n in _STARTUP_FILES:
                    if n == "usercustomize.py" and "s" in flags:
                        continue
                    runtext.judge("python", os.path.join(d, n), "python start-up", ctx, out, walker)
    if "S" not in flags:
        _site_files(ctx, out, walker)
    if module is not None:
        if module in PYTHON_MODULES:
            return PYTHON_MODULES[module], [module, *argv[after:]]
        _packages(module, ctx, out, walker)
    return None


def _python_path(work: Work, ctx: Ctx) -> list[str]:
    """The directories ``PYTHONPATH`` puts first on sys.path; with a part dcg cannot know
    (``.:$PYTHONPATH``), the cwd and every directory a start-up file was written to."""
    if "PYTHONPATH" not in work.assigns and "PYTHONPATH" not in ctx.env:
        return []
    value = runtext.setting(work, ctx, "PYTHONPATH")
    if value is not None:
        return list(dict.fromkeys(d or "." for d in value.split(":")))
    found = ["."] + [
        os.path.dirname(p) or "." for p in runtext.written_paths(ctx) if p.endswith(_STARTUP_FILES)
    ]
    return list(dict.fromkeys(found))


def _site_files(ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """``.pth`` files and sitecustomize.py written into a site-packages directory earlier on
    the line: every python started after that runs them."""
    for path in runtext.written_paths(ctx):
        unknown = any(c in os.path.dirname(path) for c in "$`\x00")  # `$d/usercustomize.py`
        if not any(d in path for d in _SITE_DIRS) and not unknown:
            continue
        if path.endswith(".pth"):
            got = runtext.load(path, ctx, out, walker)
            if got is None:
                continue
            code = "\n".join(
                line for line in got[0].splitlines() if line.startswith(("import ", "import\t"))
            )
            if code:
                runtext.judge_text(
                    "python", code, got[1], True, "python start-up (.pth)", ctx, out, walker
                )
        elif path.endswith(_STARTUP_FILES):
            runtext.judge("python", path, "python start-up", ctx, out, walker)


def _packages(module: str, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """``python -m a.b.c`` imports ``a/__init__.py`` and ``a/b/__init__.py`` first, and
    ``a/b/c/__init__.py`` when c is a package (its ``__main__`` is read by linefiles)."""
    parts = module.split(".")
    for k in range(1, len(parts) + 1):
        path = "/".join(parts[:k]) + "/__init__.py"
        runtext.judge("python", path, f"python -m {module}", ctx, out, walker)


# pip subcommands that build a local project (running its setup.py), and the options of
# pip and build that take a value.
_PIP_BUILDS = frozenset(("install", "wheel", "download", "i"))
_PIP_VALUE = frozenset(("-r", "--requirement", "-c", "--constraint", "-t", "--target", "--prefix",
                        "--root", "-i", "--index-url", "--extra-index-url", "-f", "--find-links",
                        "--src", "--upgrade-strategy", "--python-version", "--platform",
                        "--implementation", "--abi", "--only-binary", "--no-binary",
                        "--progress-bar", "--global-option", "--config-settings", "-C",
                        "--log", "--proxy", "--retries", "--timeout", "--exists-action",
                        "--trusted-host", "--cert", "--client-cert", "--cache-dir", "--python",
                        "--report", "--root-user-action", "-d", "--dest", "-w", "--wheel-dir",
                        "-o", "--outdir", "--installer", "--config-setting",
                        "--build-option", "-p"))  # fmt: skip


def _local_projects(kind: str, argv: list[str], ctx: Ctx) -> list[str]:
    """The local project directories ``pip install …`` / ``python -m build`` builds."""
    i = 1
    if kind == "pip":
        while i < len(argv) and argv[i].startswith("-"):
            i += 1 + (argv[i] in _PIP_VALUE)
        if i >= len(argv) or argv[i] not in _PIP_BUILDS:
            return []
        i += 1
    found: list[str] = []
    editable = False
    while i < len(argv):
        a = argv[i]
        i += 1
        if a in ("-e", "--editable"):
            editable = True
            continue
        if a.startswith("--editable=") or (a.startswith("-e") and len(a) > 2 and a[2] != "-"):
            found.append((a.partition("=")[2] if a.startswith("--") else a[2:]).partition("[")[0])
            continue
        if a in ("-r", "--requirement") and i < len(argv) and ctx.files is not None:
            found += _requirements(argv[i], ctx)
        if a in _PIP_VALUE:
            i += 1
            continue
        if a.startswith("-"):
            continue
        a = a.partition("[")[0] if a.endswith("]") else a  # .[dev]: extras of the project
        if editable or _is_path(a, ctx):
            found.append(a.removeprefix("file:").removeprefix("//"))
        editable = False
    if kind == "build" and not found:
        found.append(".")
    return found


def _requirements(path: str, ctx: Ctx) -> list[str]:
    """The local projects a requirements file names (``-e .``, ``./pkg``)."""
    files = ctx.files
    where = scripts.where(files, path, ctx.env.get(CWD)) if files is not None else None
    text = scripts.read(files, where) if files is not None and where is not None else None
    for key in (path, os.path.normpath(path)):  # written earlier on the line
        text = ctx.env.state.files.get(key, text)
    found: list[str] = []
    for line in (text if text and text != scripts.TOO_BIG else "").splitlines()[:500]:
        words = line.partition(" #")[0].split()
        if words[:1] in (["-e"], ["--editable"]) and len(words) > 1:
            found.append(words[1].partition("[")[0])
        elif words and (words[0].partition("[")[0] in (".", "..") or line.startswith("./")):
            found.append(words[0].partition("[")[0])
    return found


def _is_path(word: str, ctx: Ctx) -> bool:
    if word in (".", "..") or word.startswith(("./", "../", "/", "~", "file:")) or "/" in word:
        return "://" not in word or word.startswith("file:")
    if ctx.files is None:
        return False
    where = scripts.where(ctx.files, word, ctx.env.get(CWD))
    return where is not None and os.path.isfile(os.path.join(where, "setup.py"))


def _build(directory: str, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """A local project built by pip or build: its setup.py, or the build backend it keeps
    in its own tree (``backend-path``)."""
    base = directory.rstrip("/") or "/"
    runtext.judge(
        "python", os.path.join(base, "setup.py"), "build of a local project", ctx, out, walker
    )
    # A pyproject.toml edited with text dcg cannot know (a version bump) names no code.
    got = runtext.load(os.path.join(base, "pyproject.toml"), ctx, [], walker)
    if got is None or "backend-path" not in got[0]:
        return
    import tomllib

    try:
        system = tomllib.loads(got[0]).get("build-system", {})
    except (tomllib.TOMLDecodeError, ValueError):
        return
    backend = str(system.get("build-backend", "")).partition(":")[0]
    paths = system.get("backend-path", [])
    if not backend or not isinstance(paths, list):
        return
    rel = backend.replace(".", "/")
    for p in paths:
        for candidate in (f"{rel}.py", f"{rel}/__init__.py"):
            path = os.path.join(base, str(p), candidate)
            runtext.judge("python", path, "in-tree build backend", ctx, out, walker)


def node_preloads(value: str) -> list[str]:
    """The files ``NODE_OPTIONS`` (or node's own options) preload."""
    import shlex

    try:
        words = shlex.split(value)
    except ValueError:
        words = value.split()
    found: list[str] = []
    for k, w in enumerate(words):
        key, eq, v = w.partition("=")
        if key in ("-r", "--require", "--import", "--loader", "--experimental-loader"):
            v = v if eq else (words[k + 1] if k + 1 < len(words) else "")
            if v:
                found.append(v)
    return found


def node_module(spec: str, ctx: Ctx, out: list[Command], walker: Walker, what: str) -> None:
    """A module node loads by path (``./x``, ``./x.js``, ``dir``): judged as JavaScript.
    A bare name is a package from node_modules, not the project's code."""
    bare = not spec.startswith(("./", "../", "/", "~")) and spec not in (".", "..")
    if bare and not any(p in (spec, "./" + spec) for p in runtext.written_paths(ctx)):
        return
    for path in _node_candidates(spec, ctx):
        if runtext.judge("javascript", path, what, ctx, out, walker):
            return


def _node_candidates(spec: str, ctx: Ctx) -> list[str]:
    """Where node looks for ``spec``: the file, with an extension, or a directory's main."""
    base = spec.rstrip("/") or "/"
    out = [] if spec.endswith("/") or spec in (".", "..") else [base]
    out += [base + ext for ext in (".js", ".cjs", ".mjs")]
    main = "index.js"
    got = None
    for k in (base + "/package.json", os.path.normpath(base + "/package.json")):
        if k in ctx.env.state.files:
            got = ctx.env.state.files[k]
            if got is not None and got.startswith(edits.EDIT):  # `npm pkg set main=x.js`
                disk = runtext.on_disk(base + "/package.json", ctx)
                ops = got[len(edits.EDIT) :].split("\x1e")
                got = None if disk is None else edits.apply(disk, ops)
            break
    if got is None and ctx.files is not None:
        where = scripts.where(ctx.files, base + "/package.json", ctx.env.get(CWD))
        if where is not None and os.path.isfile(where):
            got = scripts.read(ctx.files, where)
    if got and got != scripts.TOO_BIG:
        from dcg import jsonfast

        try:
            doc = jsonfast.loads(got)
        except ValueError:
            doc = None
        if isinstance(doc, dict) and isinstance(doc.get("main"), str):
            main = doc["main"]
            out += [
                os.path.join(base, main),
                *(os.path.join(base, main) + e for e in (".js", "/index.js")),
            ]
    out += [os.path.join(base, n) for n in (main, "index.js", "index.cjs", "index.mjs")]
    return list(dict.fromkeys(out))


def _node_options(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    value = runtext.setting(work, ctx, "NODE_OPTIONS")
    if value is None:
        # Computed (--max-old-space-size=$MEM is everyday): opaque only when the line also
        # wrote a script it could preload.
        unknown = "NODE_OPTIONS" in work.assigns or ctx.env.get("NODE_OPTIONS", "") is None
        js = any(p.endswith((".js", ".cjs", ".mjs")) for p in runtext.written_paths(ctx))
        if unknown and js:
            why = "NODE_OPTIONS is computed at run time: what node preloads is unknown"
            walker.emit(why, ctx, out)
        return
    for spec in node_preloads(value):
        node_module(spec, ctx, out, walker, "NODE_OPTIONS")


def _node_dir(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """``node .``, ``node dir``, ``node x`` (x.js), and ``node -r ./x`` files on disk."""
    from dcg.shell.optgrammar import parse

    p = parse("javascript", work.argv)
    for option, value in p.values:
        if option in ("-r", "--require", "--import", "--loader", "--experimental-loader"):
            node_module(value, ctx, out, walker, f"node {option}")
    tests = "--test" in work.argv[1 : p.first]  # node --test runs test files, not a module
    if p.code or p.inert or tests or p.script is None or work.dyns[p.script[0]]:
        return
    spec = p.script[1]
    if spec.endswith((".js", ".cjs", ".mjs", ".ts")) and not spec.endswith("/"):
        return  # a file by its full name: dcg.shell.running reads it
    node_module(spec if spec.startswith(("/", ".", "~")) else "./" + spec, ctx, out, walker, "node")
