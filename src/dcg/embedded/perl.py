"""Perl tables: system/exec, backticks and qx, piped open, unlink/rmdir, File::Path."""

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

_CALLS: dict[str, Action] = {
    "system": ARGV,
    "exec": ARGV,
    "readpipe": Action("shell"),
    "open": Action("open", pos=1),
    "open3": Action("argv", pos=3),
    "IPC.Open3.open3": Action("argv", pos=3),
    "open2": Action("argv", pos=2),
    "IPC.Open2.open2": Action("argv", pos=2),
    "eval": Action("eval"),
    "chdir": Action("chdir"),
    "unlink": Action("rm", tool="rm -f"),
    "rmdir": Action("rm", tool="rmdir"),
    "rmtree": RM_RF,
    "remove_tree": RM_RF,
    "File.Path.rmtree": RM_RF,
    "File.Path.remove_tree": RM_RF,
}
for _name in ("system", "exec", "unlink", "rmdir", "readpipe", "open"):
    _CALLS[f"CORE.{_name}"] = _CALLS[_name]
_CALLS.update(writecalls.PERL)

_HELPERS = {
    "File.Spec.catfile": "join",
    "File.Spec.catdir": "join",
    "File.Spec.tmpdir": "tmp",
    "File.HomeDir.my_home": "home",
    "getcwd": "cwd",
    "cwd": "cwd",
    "Cwd.getcwd": "cwd",
    "Cwd.cwd": "cwd",
    "tempdir": "mktemp",
    "File.Temp.tempdir": "mktemp",
    "dirname": "dirname",
    "File.Basename.dirname": "dirname",
    "abs_path": "identity",
    "Cwd.abs_path": "identity",
    "join": "implode",
}

LANG = Lang(
    "perl",
    lex=LexSpec(
        quotes={"'": "single", '"': "interp", "`": "cmd"},
        interp="perl",
        line_comments=("#",),
        docs="perl",
        heredoc="perl",
        sigils="$@%",
        qlike=True,
        slash_regex=True,
        regex_after=frozenset(
            [
                "if",
                "unless",
                "and",
                "or",
                "not",
                "return",
                "split",
                "grep",
                "map",
                "while",
                "until",
                "x",
                "lt",
                "gt",
                "le",
                "ge",
                "eq",
                "ne",
                "cmp",
            ]
        ),
    ),
    calls=_CALLS,
    helpers=_HELPERS,
    member_ops=frozenset({"->", "::"}),
    concat_ops=frozenset({"."}),
    decl=frozenset({"my", "our", "local", "state"}),
    paren_less=True,
    envs=frozenset({"$ENV", "%ENV"}),
)


def analyze(code: str, sink: Sink, depth: int = 0) -> None:
    run(LANG, code, sink, depth)
