"""JavaScript/TypeScript tables: child_process, fs, fs-extra, rimraf, del, shelljs, Bun, Deno."""

from __future__ import annotations

from dcg.embedded import writecalls
from dcg.embedded.actions import Action
from dcg.embedded.lang import Lang, LexSpec
from dcg.embedded.scanner import run

TYPE_CHECKING = False  # typing is not imported at run time: it costs start-up time
if TYPE_CHECKING:
    from dcg.embedded.actions import Sink

SHELL = Action("shell")
PROG = Action("prog_args")
RM_RF = Action("rm", tool="rm -rf")
RM_F = Action("rm", tool="rm -f")
RM_OPT = Action("rm_opt", tool="rm -f")
RMDIR_OPT = Action("rm_opt", tool="rmdir")

_CALLS: dict[str, Action] = {
    # Process execution.
    "child_process.exec": SHELL,
    "child_process.execSync": SHELL,
    "child_process.spawn": PROG,
    "child_process.spawnSync": PROG,
    "child_process.execFile": PROG,
    "child_process.execFileSync": PROG,
    "$": SHELL,  # zx / Bun tagged template
    "zx.$": SHELL,
    "bun.$": SHELL,
    "Bun.$": SHELL,
    "Bun.spawn": SHELL,
    "Bun.spawnSync": SHELL,
    "Deno.Command": Action("prog_opt"),
    "Deno.run": SHELL,
    "execa": PROG,
    "execa.execa": PROG,
    "execa.execaSync": PROG,
    "execa.execaCommand": SHELL,
    "execa.execaCommandSync": SHELL,
    "execa.$": SHELL,
    "shelljs.exec": SHELL,
    # Deletion.
    "fs.rmSync": RM_OPT,
    "fs.rm": RM_OPT,
    "fs.rmdirSync": RMDIR_OPT,
    "fs.rmdir": RMDIR_OPT,
    "fs.unlinkSync": RM_F,
    "fs.unlink": RM_F,
    "fs-extra.removeSync": RM_RF,
    "fs-extra.remove": RM_RF,
    "fs-extra.emptyDirSync": RM_RF,
    "fs-extra.emptyDir": RM_RF,
    "fs-extra.emptydir": RM_RF,
    "rimraf": RM_RF,
    "rimraf.sync": RM_RF,
    "rimraf.rimraf": RM_RF,
    "rimraf.rimrafSync": RM_RF,
    "rimraf.native": RM_RF,
    "rimraf.nativeSync": RM_RF,
    "del": RM_RF,
    "del.sync": RM_RF,
    "del.deleteSync": RM_RF,
    "del.deleteAsync": RM_RF,
    "shelljs.rm": Action("shelljs_rm"),
    "Deno.remove": RM_OPT,
    "Deno.removeSync": RM_OPT,
    "process.chdir": Action("chdir"),
    "Deno.chdir": Action("chdir"),
    # Code given as a string.
    "eval": Action("eval"),
    "Function": Action("eval", pos=-1),
    "vm.runInThisContext": Action("eval"),
    "vm.runInNewContext": Action("eval"),
    "vm.runInContext": Action("eval"),
}
for _name in ("rmSync", "rm", "rmdirSync", "rmdir", "unlinkSync", "unlink"):
    # fs/promises and fs-extra expose the same functions (writes: writecalls covers them).
    _CALLS[f"fs.promises.{_name}"] = _CALLS[f"fs.{_name}"]
    _CALLS[f"fs-extra.{_name}"] = _CALLS[f"fs.{_name}"]
_CALLS.update(writecalls.JAVASCRIPT)

_HELPERS = {
    "require": "module",
    "path.join": "join",
    "path.resolve": "join",
    "path.posix.join": "join",
    "path.normalize": "identity",
    "path.dirname": "dirname",
    "os.homedir": "home",
    "os.tmpdir": "tmp",
    "process.cwd": "cwd",
    "Deno.cwd": "cwd",
    "Deno.makeTempDirSync": "mktemp",
    "fs.mkdtempSync": "mktemp_prefix",
    "fs.realpathSync": "identity",
    "String": "identity",
}

LANG = Lang(
    "javascript",
    lex=LexSpec(
        quotes={"'": "esc", '"': "esc", "`": "interp"},
        interp="js",
        line_comments=("//",),
        block_comments=(("/*", "*/"),),
        sigils="$",
        slash_regex=True,
        regex_after=frozenset(
            [
                "return",
                "typeof",
                "case",
                "in",
                "of",
                "new",
                "delete",
                "void",
                "throw",
                "yield",
                "await",
            ]
        ),
    ),
    calls=_CALLS,
    helpers=_HELPERS,
    member_ops=frozenset({".", "?."}),
    concat_ops=frozenset({"+"}),
    decl=frozenset({"const", "let", "var"}),
    envs=frozenset({"process.env", "Bun.env"}),
    modules={"fs/promises": "fs.promises", "child_process": "child_process", "zx": "zx"},
    defaults={
        "fse": "fs-extra",
        "fsExtra": "fs-extra",
        "childProcess": "child_process",
        "cp": "child_process",
        "shell": "shelljs",
        "fsp": "fs.promises",
    },
    imports="js",
)


def analyze(code: str, sink: Sink, depth: int = 0) -> None:
    run(LANG, code, sink, depth)
