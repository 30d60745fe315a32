"""Build tools whose own file dcg does not read, when the line wrote that file before running them.

``printf … > Rakefile && rake``, ``echo … > Makefile.toml && cargo make x``, ``… >
build.gradle.kts && gradle x``, ``… > build.rs && cargo build``: the tool runs code from a
file this line gave it. A file in a language dcg reads (gulpfile.js, SConstruct, dodo.py)
is judged as that code; any other is code dcg cannot see (opaque execution). The same
files on disk, not written on the line, are the project's own and are not judged here.
"""

from __future__ import annotations

from dcg.shell import runtext

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.shell.command import Command
    from dcg.shell.runtext import Ctx, Walker
    from dcg.shell.unwrap import Work

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
}
# Options naming the file the tool reads instead.
_FILE_OPTS = frozenset(("-f", "--file", "--rakefile", "-b", "--build-file", "--makefile",
                        "--config", "-c"))  # fmt: skip


def judge(name: str, work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """Judge the file ``name`` runs when this line wrote or edited it."""
    if not any(k.startswith(runtext.FILE) for k in ctx.env):
        return
    argv = work.argv
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
