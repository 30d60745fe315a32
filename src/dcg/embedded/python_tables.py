"""Python's call tables: what a call does (commands, deletions, writes) and path helpers.

Data only, read by the ``ast`` visitor (:mod:`dcg.embedded.python`) and by the token
scanner's fallback for code that does not parse.
"""

from __future__ import annotations

from dcg.embedded import writecalls
from dcg.embedded.actions import Action

RM_F = Action("rm", kw="path", tool="rm -f")
RMDIR = Action("rm", kw="path", tool="rmdir")

CALLS: dict[str, Action] = {
    "os.system": Action("shell", kw="command"),
    "os.popen": Action("shell", kw="cmd"),
    "subprocess.getoutput": Action("shell", kw="cmd"),
    "subprocess.getstatusoutput": Action("shell", kw="cmd"),
    "commands.getoutput": Action("shell"),
    "commands.getstatusoutput": Action("shell"),
    "pty.spawn": Action("shell", kw="argv"),
    "asyncio.create_subprocess_shell": Action("shell", kw="cmd"),
    "asyncio.create_subprocess_exec": Action("argv"),
    "os.execl": Action("execl"),
    "os.execlp": Action("execl"),
    "os.execle": Action("execl", tool="env"),
    "os.execlpe": Action("execl", tool="env"),
    "os.spawnl": Action("execl", pos=1),
    "os.spawnlp": Action("execl", pos=1),
    "os.spawnle": Action("execl", pos=1, tool="env"),
    "os.spawnlpe": Action("execl", pos=1, tool="env"),
    "os.posix_spawn": Action("execv"),
    "os.posix_spawnp": Action("execv"),
    "shutil.rmtree": Action("rm", kw="path", tool="rm -rf"),
    "os.remove": RM_F,
    "os.unlink": RM_F,
    "os.rmdir": RMDIR,
    "os.removedirs": Action("rm", kw="name", tool="rmdir -p"),
    "pathlib.Path.unlink": Action("rm", kw="self", tool="rm -f"),
    "pathlib.Path.rmdir": Action("rm", kw="self", tool="rmdir"),
    "os.chdir": Action("chdir", kw="path"),
    "exec": Action("eval"),
    "eval": Action("eval"),
    "builtins.exec": Action("eval"),
    "builtins.eval": Action("eval"),
}
for _name in ("run", "call", "check_call", "check_output", "Popen"):
    CALLS[f"subprocess.{_name}"] = Action("shell", kw="args")
for _name in ("execv", "execve", "execvp", "execvpe"):
    CALLS[f"os.{_name}"] = Action("execv")
for _name in ("spawnv", "spawnve", "spawnvp", "spawnvpe"):
    CALLS[f"os.{_name}"] = Action("execv", pos=1)

HELPERS = {
    "os.path.join": "join",
    "posixpath.join": "join",
    "os.path.expanduser": "expanduser",
    "os.path.abspath": "identity",
    "os.path.realpath": "identity",
    "os.path.normpath": "identity",
    "os.fspath": "identity",
    "str": "identity",
    "os.path.dirname": "dirname",
    "os.getcwd": "cwd",
    "pathlib.Path.cwd": "cwd",
    "pathlib.Path.home": "home",
    "os.getenv": "env",
    "os.environ.get": "env",
    "tempfile.gettempdir": "tmp",
    "tempfile.mkdtemp": "mktemp",
    "tempfile.TemporaryDirectory": "mktemp",
    "shlex.quote": "quote",
    "pipes.quote": "quote",
    "shlex.join": "shlex_join",
    "__import__": "module",
    "importlib.import_module": "module",
}
for _cls in ("Path", "PurePath", "PosixPath", "PurePosixPath"):
    HELPERS[f"pathlib.{_cls}"] = "path"
HELPERS["Path"] = "path"  # used without its import in a snippet
# Writes, copies, moves, links and chmods (dcg.embedded.writecalls): self-protection judges
# their targets, the safety net keeps what they overwrite.
HELPERS.update(writecalls.PYTHON_HELPERS)
CALLS.update(writecalls.PYTHON)

CONSTS: dict[str, object] = {"os.curdir": ".", "os.sep": "/", "os.path.sep": "/"}
