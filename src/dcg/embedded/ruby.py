"""Ruby tables: Kernel#system and friends, backticks, Open3, FileUtils, File, Dir, Pathname."""

from __future__ import annotations

from dcg.embedded import writecalls
from dcg.embedded.actions import Action
from dcg.embedded.lang import Lang, LexSpec
from dcg.embedded.scanner import run

TYPE_CHECKING = False  # typing is not imported at run time: it costs start-up time
if TYPE_CHECKING:
    from dcg.embedded.actions import Sink

ARGV = Action("argv")
RM_RF = Action("rm", tool="rm -rf")
RM_F = Action("rm", tool="rm -f")
RMDIR = Action("rm", tool="rmdir")

_CALLS: dict[str, Action] = {
    "system": ARGV,
    "exec": ARGV,
    "spawn": ARGV,
    "Process.spawn": ARGV,
    "Process.exec": ARGV,
    "IO.popen": ARGV,
    "open": Action("open"),
    "IO.read": Action("open"),
    "IO.readlines": Action("open"),
    "eval": Action("eval"),
    "instance_eval": Action("eval"),
    "class_eval": Action("eval"),
    "File.delete": RM_F,
    "File.unlink": RM_F,
    "Dir.rmdir": RMDIR,
    "Dir.delete": RMDIR,
    "Dir.unlink": RMDIR,
    "Find.find": Action("walker"),
    "Dir.chdir": Action("chdir"),
}
for _name in ("system", "exec", "spawn", "open", "eval"):
    _CALLS[f"Kernel.{_name}"] = _CALLS[_name]
for _name in ("capture2", "capture2e", "capture3", "popen2", "popen2e", "popen3", "pipeline",
              "pipeline_r", "pipeline_w", "pipeline_rw", "pipeline_start"):  # fmt: skip
    _CALLS[f"Open3.{_name}"] = ARGV
_FILEUTILS = {"rm_rf": RM_RF, "rm_r": RM_RF, "rmtree": RM_RF, "remove_dir": RM_RF,
              "remove_entry": RM_RF, "remove_entry_secure": RM_RF, "rm_f": RM_F,
              "safe_unlink": RM_F, "rm": RM_F, "remove": RM_F, "rmdir": RMDIR}  # fmt: skip
for _name, _act in _FILEUTILS.items():
    for _mod in ("FileUtils", "FileUtils.Verbose"):
        _CALLS[f"{_mod}.{_name}"] = _act
_CALLS.update(writecalls.RUBY)

_HELPERS = {
    "File.join": "join",
    "File.expand_path": "expand_path",
    "File.absolute_path": "identity",
    "File.realpath": "identity",
    "File.dirname": "dirname",
    "Dir.home": "home",
    "Dir.pwd": "cwd",
    "Dir.getwd": "cwd",
    "Dir.tmpdir": "tmp",
    "Dir.mktmpdir": "mktemp",
    "ENV.fetch": "env",
    "Pathname.new": "path",
    "Pathname": "path",
    "Shellwords.escape": "quote",
    "Shellwords.shellescape": "quote",
    "Shellwords.join": "shlex_join",
    "String": "identity",
}

LANG = Lang(
    "ruby",
    lex=LexSpec(
        quotes={"'": "single", '"': "interp", "`": "cmd"},
        interp="ruby",
        line_comments=("#",),
        docs="ruby",
        heredoc="ruby",
        sigils="$@",
        percent=True,
        slash_regex=True,
        symbols=True,
        regex_after=frozenset(
            [
                "if",
                "unless",
                "when",
                "and",
                "or",
                "not",
                "return",
                "split",
                "scan",
                "match",
                "sub",
                "gsub",
                "grep",
                "puts",
            ]
        ),
    ),
    calls=_CALLS,
    helpers=_HELPERS,
    methods={
        "rmtree": (RM_RF, True),
        "delete": (RM_F, False),
        "unlink": (RM_F, False),
        "rmdir": (RMDIR, False),
    },
    path_class="Pathname",
    member_ops=frozenset({".", "::", "&."}),
    concat_ops=frozenset({"+"}),
    paren_less=True,
    envs=frozenset({"ENV"}),
)


def analyze(code: str, sink: Sink, depth: int = 0) -> None:
    run(LANG, code, sink, depth)
