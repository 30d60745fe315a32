"""Build tools whose own file dcg does not read, when the line wrote that file before running them.

``printf … > Rakefile && rake``, ``echo … > Makefile.toml && cargo make x``, ``… >
build.gradle.kts && gradle x``, ``… > build.rs && cargo build``: the tool runs code from a
file this line gave it. A file in a language dcg reads (gulpfile.js, SConstruct, dodo.py)
is judged as that code; any other is code dcg cannot see (opaque execution). The same
files on disk, not written on the line, are the project's own and are not judged here.
"""

from __future__ import annotations

from dcg.shell import opaque, runtext
from dcg.shell.state import CWD

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.shell.command import Command
    from dcg.shell.runtext import Ctx, Walker


def _js(stem: str) -> tuple[str, ...]:
    return tuple(stem + ext for ext in (".js", ".mjs", ".cjs", ".ts", ".mts", ".cts"))


_CARGO_BUILDS = ("build", "b", "run", "r", "test", "t", "check", "c", "bench", "install", "doc")
_GRADLE = ("build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts",
           "init.gradle", "gradle.properties")  # fmt: skip
# program -> [(subcommands that read the files (empty: any), file names, language or "")]
TOOLS: dict[str, list[tuple[tuple[str, ...], tuple[str, ...], str]]] = {
    "rake": [((), ("Rakefile", "rakefile", "Rakefile.rb", "rakefile.rb"), "")],
    "cargo": [(("make",), ("Makefile.toml",), ""), (_CARGO_BUILDS, ("build.rs",), "")],
    "makers": [((), ("Makefile.toml",), "")],
    "gradle": [((), _GRADLE, "")],
    "gradlew": [((), _GRADLE, "")],
    "mvn": [((), ("pom.xml",), "")],
    "mvnw": [((), ("pom.xml",), "")],
    "ant": [((), ("build.xml",), "")],
    "mage": [((), ("magefile.go",), "")],
    "mix": [((), ("mix.exs",), "")],
    "sbt": [((), ("build.sbt",), "")],
    "deno": [(("task",), ("deno.json", "deno.jsonc"), "")],
    "composer": [((), ("composer.json",), "")],
    "cmake": [((), ("CMakeLists.txt",), "")],
    "meson": [((), ("meson.build",), "")],
    "vagrant": [((), ("Vagrantfile",), "")],
    "thor": [((), ("Thorfile",), "")],
    "snakemake": [((), ("Snakefile",), "")],
    "lefthook": [((), ("lefthook.yml", ".lefthook.yml", "lefthook.yaml"), "")],
    "earthly": [((), ("Earthfile",), "")],
    "grunt": [((), ("Gruntfile.js", "gruntfile.js", "Gruntfile.cjs"), "javascript")],
    "gulp": [((), ("gulpfile.js", "gulpfile.mjs", "gulpfile.cjs", "gulpfile.ts"), "javascript")],
    "jake": [((), ("Jakefile", "Jakefile.js"), "javascript")],
    "scons": [((), ("SConstruct", "Sconstruct", "sconstruct", "SConscript"), "python")],
    "waf": [((), ("wscript",), "python")],
    "fab": [((), ("fabfile.py",), "python")],
    "doit": [((), ("dodo.py",), "python")],
    # Tools whose configuration file is code they load (judged as that code).
    "jest": [((), _js("jest.config"), "javascript")],
    "vite": [((), _js("vite.config"), "javascript")],
    "vitest": [((), (*_js("vitest.config"), *_js("vite.config")), "javascript")],
    "eslint": [((), (*_js("eslint.config"), ".eslintrc.js", ".eslintrc.cjs"), "javascript")],
    "webpack": [((), _js("webpack.config"), "javascript")],
    "rollup": [((), _js("rollup.config"), "javascript")],
    "next": [((), _js("next.config"), "javascript")],
    "nuxt": [((), _js("nuxt.config"), "javascript")],
    "astro": [((), _js("astro.config"), "javascript")],
    "prettier": [
        ((), (*_js("prettier.config"), ".prettierrc.js", ".prettierrc.cjs"), "javascript")
    ],
    "playwright": [((), _js("playwright.config"), "javascript")],
    "karma": [((), ("karma.conf.js",), "javascript")],
    "mocha": [((), (".mocharc.js", ".mocharc.cjs"), "javascript")],
    "tailwindcss": [((), _js("tailwind.config"), "javascript")],
    "sphinx-build": [
        (
            (),
            ("conf.py", "docs/conf.py", "doc/conf.py", "docs/source/conf.py", "source/conf.py"),
            "python",
        )
    ],
    "bundle": [((), ("Gemfile",), "ruby")],
    "pod": [((), ("Podfile",), "ruby")],
    "fastlane": [((), ("fastlane/Fastfile", "Fastfile"), "ruby")],
    "danger": [((), ("Dangerfile",), "ruby")],
    # tox's configuration beside tox.ini (dcg.shell.taskrunners reads tox.ini).
    "tox": [((), ("setup.cfg", "pyproject.toml", "tox.toml"), "")],
}
# Options naming the file the tool reads instead.
_FILE_OPTS = frozenset(("-f", "--file", "--rakefile", "-b", "--build-file", "--makefile",
                        "--config", "-c"))  # fmt: skip


def judge(name: str, argv: list[str], ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """Judge the file ``name`` (``argv[0]``, or the package npx runs) runs when this line
    wrote or edited it."""
    if not ctx.env.state.files:
        return
    if name in _SOURCE_RUNNERS:
        _sources(name, argv, ctx, out, walker)
        return
    words = [a for a in argv[1:] if not a.startswith("-")]
    named = [argv[k + 1] for k in range(1, len(argv) - 1) if argv[k] in _FILE_OPTS]
    for subs, files, lang in TOOLS[name]:
        if subs and (not words or words[0] not in subs):
            continue
        hit = runtext.written_first(ctx, None, (*named, *files), out, walker)
        if hit is None:
            continue  # not written on this line
        text, shown = hit
        if text is None:
            continue  # written with text dcg cannot know: emitted
        if lang:
            via = (*ctx.via, f"in {shown}", f"{name}'s {lang} file")
            walker.embedded(lang, text, ctx.child(via), out, True)
        else:
            walker.emit(f"{name} runs the code of {shown}, which dcg does not read", ctx, out)


# Programs that compile and run source files they are given, in languages dcg does not
# read (`go run x.go`, `java X.java`, `tcc -run x.c`); `go generate` runs the commands of
# the `//go:generate` lines of the package's files.
_SOURCE_RUNNERS = {"go": (".go",), "java": (".java", ".class", ".jar"), "tcc": (".c",),
                   "kotlin": (".kts", ".jar"), "dotnet": (".cs", ".csx"),
                   "rust-script": (".rs",)}  # fmt: skip


def _sources(name: str, argv: list[str], ctx: Ctx, out: list[Command], walker: Walker) -> None:
    exts = _SOURCE_RUNNERS[name]
    written = [p for p in runtext.written_paths(ctx) if p.endswith(exts)]
    words = [a for a in argv[1:] if not a.startswith("-")]
    if name == "go" and words[:1] == ["generate"]:
        for path in written:
            _, text, shown = runtext.written(path, ctx, out, walker)
            for line in (text or "").splitlines():
                if line.startswith("//go:generate "):
                    via = (*ctx.via, f"in {shown}", "go generate")
                    walker.text(line[len("//go:generate ") :], ctx.child(via), out)
        return
    if name == "go" and words[:1] not in (["run"], ["test"]):
        return  # `go build` writes a program (dcg.shell.linefiles.compiled), runs nothing
    named = {w.rpartition(".")[0] or w for w in words}
    for path in written:
        stem = path.rpartition("/")[2].rpartition(".")[0]
        text = ctx.env.state.files.get(path)
        if text is not None and not opaque.acts(text, ctx.files.tools if ctx.files else None):
            continue  # a source that runs, deletes and names nothing guarded
        if name == "go" or stem in named or path in words:
            why = f"{name} runs {path}, written on this line in a language dcg does not read"
            walker.emit(why, ctx, out)
            return


# Python runs a zip archive's __main__.py (`python3 app.pyz`, `python3 a.zip`).
ARCHIVES = (".zip", ".pyz", ".pyzw")
_MAX_MAIN = 256 * 1024


def archive(path: str, ctx: Ctx, out: list[Command], walker: Walker) -> tuple[str | None, str]:
    """The ``__main__.py`` Python runs from the zip archive ``path`` and how to name it.

    An archive the line made (written on it, or not on disk before it: `zip`, `python -m
    zipapp`) holds code dcg cannot see: that is an opaque finding.
    """
    from dcg import oslite as os
    from dcg.shell import scripts

    found, _, shown = runtext.written(path, ctx, out, walker)
    files = ctx.files
    where = None if found or files is None else scripts.where(files, path, ctx.env.get(CWD))
    if where is None or not os.path.isfile(where):
        if files is not None:
            why = f"python runs the archive {path}, made on this line: code dcg cannot see"
            walker.emit(why, ctx, out)
        return None, shown if found else path
    import zipfile

    shown = scripts.display(where, files.cwd) if files is not None else path
    try:
        with zipfile.ZipFile(where) as z:
            info = z.getinfo("__main__.py")
            if info.file_size > _MAX_MAIN:
                walker.emit(f"{shown}'s __main__.py is too large to read", ctx, out)
                return None, shown
            text = z.read(info).decode("utf-8", "replace")
    except (OSError, KeyError, ValueError, zipfile.BadZipFile):
        return None, shown
    return text, f"{shown}:__main__.py"


def zipped(path: str, ctx: Ctx) -> bool:
    """``path`` is on disk and a zip archive (a zip app without the extension)."""
    from dcg.shell import scripts

    files = ctx.files
    where = None if files is None else scripts.where(files, path, ctx.env.get(CWD))
    if where is None:
        return False
    try:
        with open(where, "rb") as f:
            return f.read(4) == b"PK\x03\x04"
    except OSError:
        return False


def python_archive(
    path: str, ctx: Ctx, out: list[Command], walker: Walker
) -> tuple[str | None, str]:
    """Python runs a zip archive's ``__main__.py`` (by its name, or its content on disk);
    ("", "") when ``path`` is no archive."""
    if path.lower().endswith(ARCHIVES) or zipped(path, ctx):
        return archive(path, ctx, out, walker)
    return "", ""
