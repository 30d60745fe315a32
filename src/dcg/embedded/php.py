"""PHP tables: exec/shell_exec/system/passthru/popen/proc_open, backticks, unlink/rmdir."""

from __future__ import annotations

from dcg.embedded import writecalls
from dcg.embedded.actions import Action
from dcg.embedded.lang import Lang, LexSpec
from dcg.embedded.scanner import run

TYPE_CHECKING = False  # typing is not imported at run time: it costs start-up time
if TYPE_CHECKING:
    from dcg.embedded.actions import Sink

SHELL = Action("shell")

_CALLS: dict[str, Action] = {
    "exec": SHELL,
    "shell_exec": SHELL,
    "system": SHELL,
    "passthru": SHELL,
    "popen": SHELL,
    "proc_open": SHELL,
    "pcntl_exec": Action("prog_args"),
    "eval": Action("eval"),
    "chdir": Action("chdir"),
    "unlink": Action("rm", tool="rm -f"),
    "rmdir": Action("rm", tool="rmdir"),
    # new RecursiveDirectoryIterator($dir): later per-entry deletions delete the tree.
    "RecursiveDirectoryIterator": Action("walker"),
}
_CALLS.update(writecalls.PHP)

_HELPERS = {
    "getenv": "env",
    "getcwd": "cwd",
    "sys_get_temp_dir": "tmp",
    "dirname": "dirname",
    "realpath": "identity",
    "escapeshellarg": "quote",
    "escapeshellcmd": "identity",
    "implode": "implode",
    "join": "implode",
    "strval": "identity",
    "trim": "identity",
}

LANG = Lang(
    "php",
    lex=LexSpec(
        quotes={"'": "single", '"': "interp", "`": "cmd"},
        interp="php",
        line_comments=("//", "#"),
        block_comments=(("/*", "*/"),),
        heredoc="php",
        sigils="$",
    ),
    calls=_CALLS,
    helpers=_HELPERS,
    member_ops=frozenset({"->", "::", "?->"}),
    concat_ops=frozenset({"."}),
    envs=frozenset({"$_SERVER", "$_ENV"}),
)


def analyze(code: str, sink: Sink, depth: int = 0) -> None:
    run(LANG, code, sink, depth)
