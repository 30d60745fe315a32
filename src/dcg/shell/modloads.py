"""Modules a program loads that were written earlier on the line: judged where they load.

Any code dcg judges (``python3 -c``, ``node -e``, a script file, a module itself) may load a
module written on this line, by ``import``, ``__import__('m')``, ``importlib``, ``runpy``,
``require('./' + 'x')``, ``require "./x.pl"``: the written module's text is judged as part
of what runs. A module is loaded when the code names it (its stem or file name as a word of
the code, or in a string); a module already on the reading stack is a cycle, not read again.
Test runners load modules by name pattern: ``python -m unittest`` (``test*.py``) and
``node --test`` (``*.test.js``, ``test-*.js``, ``test/…``) run the written ones they find.
"""

from __future__ import annotations

from dcg import oslite as os
from dcg.shell import runtext

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from dcg.shell.command import Command
    from dcg.shell.runtext import Ctx, Walker

# The file names each language loads as modules.
EXTS = {
    "python": (".py",),
    "javascript": (".js", ".mjs", ".cjs", ".ts", ".mts", ".cts"),
    "perl": (".pl", ".pm"),
    "ruby": (".rb",),
}
_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
# What may stand before a module's name where code loads it: a statement, a string, a path.
_BEFORE = {
    "python": ("import", "from", ",", "'", '"', "(", "/"),
    "javascript": ("require", "import", "from", "'", '"', "`", "/", "("),
    "perl": ("require", "use", "do", "'", '"', "/", "(", "-M"),
    "ruby": ("require", "require_relative", "load", "'", '"', "/", "("),
}


def written_modules(lang: str, ctx: Ctx) -> list[str]:
    """The paths written earlier on the line that ``lang`` loads as modules."""
    exts = EXTS.get(lang)
    if not exts:
        return []
    return [k for k in ctx.env.state.files if k.endswith(exts)]


def names(lang: str, code: str, path: str) -> bool:
    """Whether ``code`` names the module in ``path`` where it could load it."""
    base = os.path.basename(path)
    stem = base.rpartition(".")[0]
    if lang == "python" and stem == "__init__":
        stem = os.path.basename(os.path.dirname(path))
    if not stem:
        return False
    before = _BEFORE[lang]
    candidates = [base, stem]
    if lang == "javascript" and "node_modules/" in path:  # require('x'): node_modules/x/…
        parts = path.rpartition("node_modules/")[2].split("/")
        candidates.append("/".join(parts[:2]) if parts[0][:1] == "@" else parts[0])
    elif (  # require('./') / require('.'): the directory's package.json "main" or index.js
        lang == "javascript"
        and "/" not in path.removeprefix("./")
        and any(q + d + q in code for q in "'\"`" for d in (".", "./"))
    ):
        return True
    for name in dict.fromkeys(candidates):
        k = code.find(name)
        while k >= 0:
            after = code[k + len(name) : k + len(name) + 1]
            prev = code[k - 1 : k]
            if (after not in _WORD and (not prev or prev not in _WORD)
                    and code[:k].rstrip(" \t./").endswith(before)):  # fmt: skip
                return True
            k = code.find(name, k + 1)
    return False


def follow(lang: str, code: str, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """Judge each module written on this line that ``code`` loads (once per reading stack);
    a module named by a computed name (``import_module('m' + 'od')``) is opaque."""
    written = written_modules(lang, ctx)
    named = [p for p in written if names(lang, code, p)]
    judge(lang, named, ctx, out, walker)
    loader = next((c for c in _LOADERS.get(lang, ()) if _computed_call(code, c)), None)
    if loader and any(_wanted(p, ctx) for p in written if p not in named):
        why = f"{lang} code loads a module by a name computed at run time ({loader}…), after "
        walker.emit(why + "modules were written on this line", ctx, out)
    if lang == "python" and "addsitedir" in code:  # a site directory's .pth import lines run
        for path in [k for k in ctx.env.state.files if k.endswith(".pth")]:
            _, text, shown = runtext.written(path, ctx, out, walker)
            lines = [
                ln for ln in (text or "").splitlines() if ln.startswith(("import ", "import\t"))
            ]
            if lines and not any(v.startswith(f"in {path} (") for v in ctx.via):
                via = (*ctx.via, f"in {shown}", "python .pth")
                walker.embedded(lang, "\n".join(lines), ctx.child(via), out, True)


# Calls that load a module or file by a name given as an argument.
_LOADERS = {
    "python": ("__import__(", "import_module(", "run_module(", "run_path(",
               "spec_from_file_location(", "load_source(", "SourceFileLoader("),
    "javascript": ("require(", "import("),
    "perl": ("require ", "do "),
    "ruby": ("require(", "require_relative(", "load("),
}  # fmt: skip


def _wanted(path: str, ctx: Ctx) -> bool:
    """Whether the text the line gave ``path`` is unknown or names a guarded tool."""
    text = ctx.env.state.files.get(path)
    return text is None or ctx.files is None or bool(ctx.files.wanted(text))


def _computed_call(code: str, call: str) -> bool:
    """Whether ``call`` occurs with an argument that is not a plain string literal."""
    k = code.find(call)
    while k >= 0:
        rest = code[k + len(call) :].lstrip()
        if call == "spec_from_file_location(":  # the path is its second argument
            rest = rest.partition(",")[2].lstrip()
        quote = rest[:1]
        end = rest.find(quote, 1) if quote in ("'", '"') else -1
        if end < 0 or rest[end + 1 : end + 2].strip(" ") not in (")", ",", ";", "") or (
            "+" in rest[end + 1 : end + 3]
        ):  # fmt: skip
            return True
        k = code.find(call, k + 1)
    return False


def judge(lang: str, paths: list[str], ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """Judge the text the line gave each of ``paths`` as ``lang`` code that runs."""
    for path in paths:
        if any(v.startswith(f"in {path} (") for v in ctx.via):
            continue  # a module importing itself, or two importing each other
        found, text, shown = runtext.written(path, ctx, out, walker)
        if found and text:
            via = (*ctx.via, f"in {shown}", f"{lang} module")
            walker.embedded(lang, text, ctx.child(via), out, True)


def _matches_test(base: str, rel: str, patterns: tuple[str, ...]) -> bool:
    from dcg.shell.expand import path_match

    return any(path_match(p, base) or path_match(p, rel) for p in patterns)


# Files `node --test` runs when given no file (node's documented default patterns).
_NODE_TESTS = ("*.test.*", "*-test.*", "*_test.*", "test-*.*", "test.*", "test/*", "*/test/*")


def test_runner(lang: str, argv: list[str], ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """``python -m unittest [names | discover]`` and ``node --test [files]``: the test
    modules written on this line that the runner loads are judged."""
    exts = EXTS[lang]
    if lang == "python":
        k = argv.index("unittest") + 1
        pattern = "test*.py"
        args: list[str] = []
        while k < len(argv):
            a = argv[k]
            if a in ("-p", "--pattern") and k + 1 < len(argv):
                pattern, k = argv[k + 1], k + 2
                continue
            if a in ("-s", "--start-directory", "-t", "--top-level-directory"):
                k += 2
                continue
            if not a.startswith("-") and a != "discover":
                args.append(a)
            k += 1
        wanted = [a if a.endswith(".py") else a.replace(".", "/") + ".py" for a in args]
        patterns: tuple[str, ...] = (pattern,)
    else:
        wanted = [a for a in argv[argv.index("--test") + 1 :] if not a.startswith("-")]
        patterns = _NODE_TESTS
    paths: list[str] = []
    for path in [k for k in ctx.env.state.files if k.endswith(exts)]:
        norm = os.path.normpath(path)
        if wanted:
            hit = any(os.path.normpath(w) == norm or w.rpartition(".")[0] == norm.rpartition(".")[0]
                      for w in wanted)  # fmt: skip
        else:
            hit = _matches_test(os.path.basename(norm), norm, patterns)
        if hit:
            paths.append(path)
    judge(lang, paths, ctx, out, walker)
