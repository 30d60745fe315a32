"""What ``pytest`` imports and runs: conftest.py files, test modules, plugins, ini addopts.

pytest (``pytest``, ``py.test``, ``python -m pytest``) reads its ini file (pytest.ini,
.pytest.ini, pyproject.toml ``[tool.pytest.ini_options]``, tox.ini ``[pytest]``, setup.cfg
``[tool:pytest]``) and puts its ``addopts`` and ``$PYTEST_ADDOPTS`` before the command
line's arguments; it imports the plugins ``-p NAME`` and ``$PYTEST_PLUGINS`` name, every
conftest.py from the root down to the collected directories, and each test module
(``test_*.py``, ``*_test.py`` or the ini's ``python_files``) under the paths it is given
(or ``testpaths``, or the cwd), running their module-level code and test functions. Each
file is judged as Python, those written earlier on the line first and whole. A file
already in the project is the project's own test code: what importing it runs is judged
(module-level code, a conftest.py's or a plugin's too), not its test functions and
fixtures, which work where their fixtures point them (tmp_path, a monkeypatched HOME,
``cwd=``) and which dcg cannot follow; nor its file writes, for the same reason. The walk of a
test tree and the files read are bounded (:data:`MAX_ENTRIES`, :data:`dcg.shell.scripts.MAX_FILES`):
what the bound leaves unread is said in ``files.unread``, not guessed at.
"""

from __future__ import annotations

from dcg import oslite as os
from dcg.shell import runtext, scripts
from dcg.shell.state import CWD

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from dcg.shell.command import Command
    from dcg.shell.runtext import Ctx, Walker
    from dcg.shell.unwrap import Work


MAX_ENTRIES = 2000  # directory entries looked at for one pytest run
_INIS = (("pytest.ini", "pytest"), (".pytest.ini", "pytest"), ("pyproject.toml", ""),
         ("tox.ini", "pytest"), ("setup.cfg", "tool:pytest"))  # fmt: skip
# Options that only print, and options that take a value.
_QUIT = frozenset(("--version", "-V", "--help", "-h", "--markers", "--fixtures-per-test"))
_VALUED = frozenset(("-k", "-m", "-c", "--config-file", "--rootdir", "--confcutdir", "-p",
                     "--basetemp", "-o", "--override-ini", "--maxfail", "--tb", "-W",
                     "--junitxml", "--junit-xml", "--log-level", "--log-file", "--durations",
                     "--deselect", "--ignore", "--ignore-glob", "--import-mode", "-n",
                     "--numprocesses", "--cov", "--cov-report", "--lf-report",
                     "--capture", "-r", "--color", "--log-cli-level", "--dist",
                     "--timeout", "--randomly-seed", "--reruns"))  # fmt: skip
_SKIP_DIRS = frozenset(("build", "dist", "node_modules", "venv", "CVS", "_darcs", "{arch}",
                        "__pycache__", "site-packages"))  # fmt: skip


def run(work: Work, argv: list[str], ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """Judge the Python files ``pytest argv[1:]`` imports."""
    cli = list(argv[1:])
    if any(a in _QUIT for a in cli):
        return
    config = _option(cli, ("-c", "--config-file"))
    ini = _ini(config, ctx, out, walker)
    root = os.path.dirname(ini[0]) if ini is not None and "/" in ini[0] else None
    opts = _split(ini[1].get("addopts", "")) if ini is not None else []
    env_opts = runtext.setting(work, ctx, "PYTEST_ADDOPTS")
    args = [*opts, *_split(env_opts or ""), *cli]
    plugins = [v for v in _values(args, "-p") if not v.startswith("no:")]
    plugins += [p.strip() for p in (runtext.setting(work, ctx, "PYTEST_PLUGINS") or "").split(",")]
    dirs = ["."]
    dirs += [d for d in (runtext.setting(work, ctx, "PYTHONPATH") or "").split(":") if d]
    if ini is not None:
        dirs += [_join(root, d) for d in ini[1].get("pythonpath", "").split()]
    patterns = (ini[1].get("python_files", "") if ini is not None else "").split()
    patterns = patterns or ["test_*.py", "*_test.py"]
    paths = [a.partition("::")[0] for a in _operands(args)]
    if not paths and ini is not None:
        paths = [_join(root, p) for p in ini[1].get("testpaths", "").split()]
    paths = paths or ["."]
    conftest = "--noconftest" not in args
    judged: set[str] = set()

    def one(path: str, what: str) -> None:
        files = ctx.files
        found = scripts.where(files, path, ctx.env.get(CWD)) if files is not None else None
        key = found or os.path.normpath(path)
        if key in judged:
            return
        judged.add(key)
        got = runtext.load(path, ctx, out, walker)
        if got is None:
            return
        text, shown, written = got
        if "pytest_plugins" in text and os.path.basename(path) == "conftest.py":
            for name in _conftest_plugins(text):  # pytest_plugins = ["ev"] loads ev.py
                module = name.replace(".", "/")
                for d in dirs:
                    for p in (_join(d, module + ".py"), _join(d, module + "/__init__.py")):
                        one(p, f"pytest plugin {name}")
        mark = len(out)
        if written:
            runtext.judge_text("python", text, shown, True, what, ctx, out, walker)
            return
        code = module_level(text)
        runtext.judge_text("python", code, shown, False, what, ctx, out, walker)
        out[mark:] = [c for c in out[mark:] if not _fixture_write(c)]

    # Plugins and files written earlier on the line first: the bound on files read must
    # never leave out what the line itself wrote.
    for name in dict.fromkeys(p for p in plugins if p):
        module = name.replace(".", "/")
        for d in dirs:
            for path in (_join(d, module + ".py"), _join(d, module + "/__init__.py")):
                one(path, f"pytest plugin {name}")
    for path in runtext.written_paths(ctx):
        if not path.endswith(".py") or not _under(path, paths):
            continue
        base = os.path.basename(path)
        if (
            (conftest and base == "conftest.py")
            or base == "__init__.py"
            or _matches(base, patterns)
        ):
            one(path, "pytest")
    files, count = _collect(paths, patterns, conftest, ctx)
    for path in files:
        one(path, "pytest")
    if count >= MAX_ENTRIES and ctx.files is not None:
        ctx.files.unread.append(f"pytest: more than {MAX_ENTRIES} files under {' '.join(paths)}")


def _conftest_plugins(text: str) -> list[str]:
    """The modules a conftest's ``pytest_plugins = …`` names (strings in that statement)."""
    names: list[str] = []
    at = text.find("pytest_plugins")
    stmt = text[at : at + 2000].split("\n\n", 1)[0]
    for part in stmt.replace('"', "'").split("'")[1::2]:
        if part.replace(".", "_").isidentifier():
            names.append(part)
    return names[:16]


def module_level(text: str) -> str:
    """``text`` with its functions' and methods' definitions left out (a ``pass`` each),
    line numbers kept: what importing the module runs."""
    import _ast

    try:
        tree = compile(text, "<test>", "exec", _ast.PyCF_ONLY_AST)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return text
    if not isinstance(tree, _ast.Module):
        return text
    lines = text.split("\n")
    defs = (_ast.FunctionDef, _ast.AsyncFunctionDef)
    found = [n for n in tree.body if isinstance(n, defs)]
    for node in tree.body:
        if isinstance(node, _ast.ClassDef):
            found += [n for n in node.body if isinstance(n, defs)]
    for node in found:
        first = min([node.lineno] + [d.lineno for d in node.decorator_list]) - 1
        last = node.end_lineno or node.lineno
        indent = lines[node.lineno - 1][: node.col_offset]
        lines[first] = indent + "pass"
        for k in range(first + 1, last):
            lines[k] = ""
    return "\n".join(lines)


# What the embedded analysis reports a file write as (dcg.embedded.writecalls).
_WRITES = frozenset((":", "chmod", "cp", "ln", "mv"))


def _fixture_write(command: Command) -> bool:
    """A file write in a test already in the project: tests write where their fixtures
    point them (tmp_path, a monkeypatched HOME), which dcg cannot see, so these writes
    are not judged; what the tests delete and run still is."""
    label = command.via[-1] if command.via else ""
    return label.startswith("python ") and bool(command.argv) and command.argv[0] in _WRITES


def _option(args: list[str], names: tuple[str, ...]) -> str | None:
    for k, a in enumerate(args):
        if a in names and k + 1 < len(args):
            return args[k + 1]
        key, eq, value = a.partition("=")
        if eq and key in names and key.startswith("--"):
            return value
    return None


def _values(args: list[str], name: str) -> list[str]:
    """Every value of a short option given as ``-p X`` or ``-pX``."""
    found: list[str] = []
    for k, a in enumerate(args):
        if a == name and k + 1 < len(args):
            found.append(args[k + 1])
        elif a.startswith(name) and len(a) > len(name) and not a.startswith("--"):
            found.append(a[len(name) :])
    return found


def _operands(args: list[str]) -> list[str]:
    found: list[str] = []
    k = 0
    while k < len(args):
        a = args[k]
        k += 1
        if a == "--":
            found += args[k:]
            break
        if a.startswith("-"):
            k += a in _VALUED
            continue
        found.append(a)
    return found


def _split(text: str) -> list[str]:
    import shlex

    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


def _join(base: str | None, path: str) -> str:
    return os.path.join(base, path) if base and not path.startswith("/") else path


def _under(path: str, paths: list[str]) -> bool:
    """Whether pytest imports ``path`` collecting ``paths``: a file under one of them, or a
    conftest.py in a directory above one."""
    p = os.path.normpath(path)
    if p.startswith(".."):
        return False
    conftest = os.path.basename(p) == "conftest.py"
    d = os.path.dirname(p) or "."
    for top in paths:
        t = os.path.normpath(top)
        if t == "." or p == t or p.startswith(t.rstrip("/") + "/"):
            return True
        if conftest and (d == "." or t == d or t.startswith(d + "/")):
            return True
    return False


def _matches(name: str, patterns: list[str]) -> bool:
    from dcg.shell.expand import match

    return any(match(p, name) for p in patterns)


def _ini(
    config: str | None, ctx: Ctx, out: list[Command], walker: Walker
) -> tuple[str, dict[str, str]] | None:
    """``(path as written, settings)`` of the ini file pytest uses (the cwd's), or None."""
    candidates = [(config, "")] if config else list(_INIS)
    for name, section in candidates:
        assert name is not None
        quiet: list[Command] = []  # an ini edited with unknown text (a version bump) is no finding
        got = runtext.load(name, ctx, quiet, walker) if name in _written(ctx) else _disk(name, ctx)
        if got is None:
            continue
        settings = _settings(name, got, section)
        if settings is not None:
            return name, settings
    return None


def _written(ctx: Ctx) -> set[str]:
    return {os.path.normpath(p) for p in runtext.written_paths(ctx)}


def _disk(name: str, ctx: Ctx) -> tuple[str, str, bool] | None:
    """An ini file on disk, whatever it names (its addopts matter, not its keywords)."""
    files = ctx.files
    if files is None:
        return None
    where = scripts.where(files, name, ctx.env.get(CWD))
    if where is None or not os.path.isfile(where):
        return None
    text = scripts.read(files, where)
    return None if text is None or text == scripts.TOO_BIG else (text, name, False)


def _settings(name: str, got: tuple[str, str, bool], section: str) -> dict[str, str] | None:
    text = got[0]
    if name.endswith(".toml"):
        if "pytest" not in text:
            return None
        import tomllib

        try:
            doc = tomllib.loads(text)
        except (tomllib.TOMLDecodeError, ValueError):
            return None
        opts = doc.get("tool", {}).get("pytest", {}).get("ini_options")
        if not isinstance(opts, dict):
            return None
        return {
            k: " ".join(map(str, v)) if isinstance(v, list) else str(v) for k, v in opts.items()
        }
    import configparser

    parser = configparser.RawConfigParser(strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return None
    if not section:
        section = next((s for s in ("pytest", "tool:pytest") if parser.has_section(s)), "pytest")
    if not parser.has_section(section):
        return {} if name.endswith("pytest.ini") else None
    return {k: v.replace("\n", " ") for k, v in parser.items(section)}


def _collect(
    paths: list[str], patterns: list[str], conftest: bool, ctx: Ctx
) -> tuple[list[str], int]:
    """Project files pytest imports from ``paths`` on disk: conftest.py files first (the
    root's, then each directory's), then test modules; and the entries looked at."""
    files = ctx.files
    if files is None:
        return [], 0
    here = ctx.env.get(CWD)
    confs: list[str] = []
    tests: list[str] = []
    count = 0
    for top in paths:
        where = scripts.where(files, top, here)
        if where is None or "$" in top:
            continue
        if conftest:
            parent = os.path.dirname(where) if os.path.isfile(where) else where
            base = files.cwd or parent
            while parent.startswith(base) and len(confs) < 8:
                confs.append(os.path.join(parent, "conftest.py"))
                if parent == base:
                    break
                parent = os.path.dirname(parent)
        if os.path.isfile(where):
            if where.endswith(".py"):
                tests.append(where)
            continue
        stack = [(where, 0)]
        while stack and count < MAX_ENTRIES:
            d, depth = stack.pop()
            try:
                names = sorted(os.listdir(d))
            except OSError:
                continue
            if depth and "pyvenv.cfg" in names:
                continue
            for n in names:
                count += 1
                path = os.path.join(d, n)
                if n.endswith(".py"):
                    if (conftest and n == "conftest.py" and depth) or n == "__init__.py":
                        confs.append(path)  # a package's __init__ runs before its tests
                    elif _matches(n, patterns):
                        tests.append(path)
                elif (depth < 8 and not n.startswith(".") and n not in _SKIP_DIRS
                      and not n.endswith(".egg") and os.path.isdir(path)):  # fmt: skip
                    stack.append((path, depth + 1))
    confs = [c for c in dict.fromkeys(confs) if os.path.isfile(c)]
    return [*confs, *tests], count
