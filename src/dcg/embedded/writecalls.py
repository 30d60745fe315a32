"""Calls that write, copy, move, link or chmod a file, per language, as shell lines.

Embedded code that writes a file is reported as the shell command that writes it
(``: > FILE``, ``cp -- A B``, ``ln -s -- A B``…), so the paths it builds from pieces
(``os.path.join(os.environ['HOME'], '.con' + 'fig', 'dcg')``) are judged by
:func:`dcg.writes.targets` like any command's. Each language module merges its table.
"""

from __future__ import annotations

from dcg.embedded.actions import Action, apply
from dcg.embedded.values import PathValue

TYPE_CHECKING = False
if TYPE_CHECKING:
    import ast
    from typing import Protocol

    class _Visitor(Protocol):
        cwd: str | None

        def eval(self, node: ast.expr) -> object: ...
        def args(self, node: ast.Call) -> tuple[list[object], dict[str, object]]: ...
        def emit(self, label: str, lines: list[str], act: Action) -> None: ...

        written: set[int]


WRITE = Action("write")
APPEND = Action("append")
COPY = Action("copy")
MOVE = Action("move")
LINK = Action("link")

PYTHON: dict[str, Action] = {
    "open": Action("write_mode", kw="file"),
    "builtins.open": Action("write_mode", kw="file"),
    "io.open": Action("write_mode", kw="file"),
    "codecs.open": Action("write_mode", kw="filename"),
    "os.open": Action("write", kw="path"),
    "os.truncate": Action("write", kw="path"),
    "os.mkfifo": Action("write", kw="path"),
    "os.mknod": Action("write", kw="path"),
    "shutil.copy": COPY,
    "shutil.copy2": COPY,
    "shutil.copyfile": COPY,
    "shutil.copytree": Action("copy", tool="cp -r"),
    "shutil.move": MOVE,
    "os.rename": MOVE,
    "os.renames": MOVE,
    "os.replace": MOVE,
    "os.symlink": LINK,
    "os.link": Action("link", tool="ln"),
    "os.chmod": Action("chmod", kw="path"),
    "os.lchmod": Action("chmod", kw="path"),
    "os.chown": Action("chmod", kw="path"),
    "os.lchown": Action("chmod", kw="path"),
    "shutil.chown": Action("chmod", kw="path"),
    "urllib.request.urlretrieve": Action("write", pos=1, kw="filename"),
    "runpy.run_module": Action("module", kw="mod_name"),
    "runpy._run_module_as_main": Action("module"),
    "runpy.run_path": Action("script", kw="path_name"),
    "shutil.unpack_archive": Action("extract", kw="filename"),
}
PYTHON_HELPERS = {"chr": "chr", "Path.home": "home", "Path.cwd": "cwd"}
# An archive object stands for its file, so that its extractall() names it.
for _name in ("zipfile.ZipFile", "tarfile.open", "tarfile.TarFile", "ZipFile"):
    PYTHON_HELPERS[_name] = "archive"
# pathlib methods on a path value: (action, where the other path is: its argument).
PYTHON_METHODS: dict[str, Action] = {
    "write_text": WRITE,
    "write_bytes": WRITE,
    "touch": WRITE,
    "open": Action("write_mode", tool="self"),
    "rename": Action("move", tool="self"),
    "replace": Action("move", tool="self"),
    "symlink_to": Action("link", tool="self"),
    "hardlink_to": Action("link", tool="self"),
    "chmod": Action("chmod"),
    "lchmod": Action("chmod"),
    "extractall": Action("extract", tool="self"),
    "extract": Action("extract", tool="self"),
}

_DELETES = {"unlink": Action("rm", tool="rm -f"), "rmdir": Action("rm", tool="rmdir")}
METHOD_NAMES = frozenset((*PYTHON_METHODS, *_DELETES))


def python_method(visitor: _Visitor, receiver: ast.expr, node: ast.Call, name: str) -> None:
    """A pathlib method: ``Path(p).unlink()`` and ``p.rmdir()`` (any string receiver, no
    arguments), ``write_text``/``rename``/``symlink_to``/… (a path value's)."""
    recv = visitor.eval(receiver)
    if name in _DELETES:
        if node.args:
            return
        act = _DELETES[name]
        lines = apply(act, [recv if isinstance(recv, str) else None], {}, visitor.cwd)
    elif isinstance(recv, PathValue):
        act = PYTHON_METHODS[name]
        args, kwargs = visitor.args(node)
        lines = apply(act, [recv, *args], kwargs, visitor.cwd)
    else:
        return
    visitor.emit(f"python Path.{name}", lines, act)


def open_write(visitor: _Visitor, receiver: ast.expr, node: ast.Call) -> None:
    """``open(PATH, "w").write(TEXT)`` with both known: reported as the shell line that
    gives the file that text (a later ``make`` of it reads it), instead of a write of
    unknown text; the ``open`` call then reports nothing more."""
    import _ast

    if not (isinstance(receiver, _ast.Call) and isinstance(receiver.func, _ast.Name)):
        return
    if receiver.func.id != "open" or len(node.args) != 1 or not receiver.args:
        return
    args, kwargs = visitor.args(receiver)
    mode = kwargs.get("mode", args[1] if len(args) > 1 else "r")
    content = visitor.eval(node.args[0])
    path = args[0]
    known = (path, mode, content)
    if not all(isinstance(v, str) and "'<dynamic>'" not in v for v in known):
        return
    assert isinstance(mode, str) and isinstance(path, str) and isinstance(content, str)
    if "w" not in mode and "a" not in mode:
        return
    from dcg.embedded.render import word

    op = ">>" if "a" in mode else ">"
    visitor.written.add(id(receiver))
    line = f"printf %s {word(content, always=True)} {op} {word(path, always=True)}"
    visitor.emit("python open", [line], WRITE)


_JS_FS: dict[str, Action] = {
    "writeFileSync": WRITE,
    "writeFile": WRITE,
    "appendFileSync": APPEND,
    "appendFile": APPEND,
    "createWriteStream": WRITE,
    "truncateSync": WRITE,
    "truncate": WRITE,
    "openSync": Action("write_mode", pos=0),
    "open": Action("write_mode", pos=0),
    "copyFileSync": COPY,
    "copyFile": COPY,
    "cpSync": Action("copy", tool="cp -r"),
    "cp": Action("copy", tool="cp -r"),
    "renameSync": MOVE,
    "rename": MOVE,
    "symlinkSync": LINK,
    "symlink": LINK,
    "linkSync": Action("link", tool="ln"),
    "link": Action("link", tool="ln"),
    "chmodSync": Action("chmod"),
    "chmod": Action("chmod"),
    "chownSync": Action("chmod"),
    "chown": Action("chmod"),
    "outputFileSync": WRITE,
    "outputFile": WRITE,
    "writeJsonSync": WRITE,
    "writeJson": WRITE,
    "moveSync": MOVE,
    "move": MOVE,
    "copySync": Action("copy", tool="cp -r"),
    "copy": Action("copy", tool="cp -r"),
    "ensureSymlinkSync": LINK,
}
JAVASCRIPT: dict[str, Action] = {}
for _name, _act in _JS_FS.items():
    for _module in ("fs", "fs.promises", "fs-extra"):
        JAVASCRIPT[f"{_module}.{_name}"] = _act
JAVASCRIPT.update({
    "Bun.write": WRITE,
    "Deno.writeTextFile": WRITE,
    "Deno.writeTextFileSync": WRITE,
    "Deno.writeFile": WRITE,
    "Deno.writeFileSync": WRITE,
    "Deno.copyFile": COPY,
    "Deno.copyFileSync": COPY,
    "Deno.rename": MOVE,
    "Deno.renameSync": MOVE,
    "Deno.symlink": LINK,
    "Deno.symlinkSync": LINK,
    "Deno.chmod": Action("chmod"),
    "Deno.chmodSync": Action("chmod"),
    "shelljs.cp": Action("copy", tool="cp -r"),
    "shelljs.mv": MOVE,
    "shelljs.ln": LINK,
    "shelljs.touch": WRITE,
    "shelljs.chmod": Action("chmod", pos=1),
})  # fmt: skip

PERL: dict[str, Action] = {
    "sysopen": Action("write", pos=1),
    "truncate": WRITE,
    "rename": MOVE,
    "CORE.rename": MOVE,
    "symlink": LINK,
    "link": Action("link", tool="ln"),
    "chmod": Action("chmod", pos=1, tool="all"),
    "chown": Action("chmod", pos=2, tool="all"),
    "copy": COPY,
    "move": MOVE,
    "cp": COPY,
    "mv": MOVE,
    "File.Copy.copy": COPY,
    "File.Copy.move": MOVE,
    "File.Copy.cp": COPY,
    "File.Copy.mv": MOVE,
    "File.Slurp.write_file": WRITE,
    "write_file": WRITE,
    "Path.Tiny.spew": WRITE,
}

RUBY: dict[str, Action] = {
    "open": Action("open", tool="mode"),
    "Kernel.open": Action("open", tool="mode"),
    "File.write": WRITE,
    "IO.write": WRITE,
    "File.binwrite": WRITE,
    "IO.binwrite": WRITE,
    "File.open": Action("write_mode", pos=0),
    "File.new": Action("write_mode", pos=0),
    "File.truncate": WRITE,
    "File.rename": MOVE,
    "File.symlink": LINK,
    "File.link": Action("link", tool="ln"),
    "File.chmod": Action("chmod", pos=1, tool="all"),
    "FileUtils.cp": COPY,
    "FileUtils.copy": COPY,
    "FileUtils.copy_file": COPY,
    "FileUtils.install": COPY,
    "FileUtils.cp_r": Action("copy", tool="cp -r"),
    "FileUtils.mv": MOVE,
    "FileUtils.move": MOVE,
    "FileUtils.ln_s": LINK,
    "FileUtils.ln_sf": LINK,
    "FileUtils.symlink": LINK,
    "FileUtils.ln": Action("link", tool="ln"),
    "FileUtils.touch": WRITE,
    "FileUtils.chmod": Action("chmod", pos=1, tool="all"),
    "FileUtils.chmod_R": Action("chmod", pos=1, tool="all"),
    "FileUtils.chown": Action("chmod", pos=2, tool="all"),
    "FileUtils.chown_R": Action("chmod", pos=2, tool="all"),
}

PHP: dict[str, Action] = {
    "file_put_contents": WRITE,
    "fopen": Action("write_mode", pos=0),
    "copy": COPY,
    "rename": MOVE,
    "symlink": LINK,
    "link": Action("link", tool="ln"),
    "touch": WRITE,
    "chmod": Action("chmod"),
    "chown": Action("chmod"),
    "chgrp": Action("chmod"),
}
