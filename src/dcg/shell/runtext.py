"""The text a file will hold when the line runs it, and shell text judged line by line.

:func:`written` answers for a file written or edited earlier on the line (its text kept by
:mod:`dcg.shell.linefiles`, an edit applied by :mod:`dcg.shell.edits`), :func:`file_text` for
any file (the line's text first, else the disk, bounded); :func:`run_sh` judges shell text
from a file, a recipe or a package script as if it were on the line; :func:`project`
reads a project script or recipe once per line (a cycle is read once) and within
:func:`dcg.shell.limits.bounded` (a bound reached judges what was read). Used by
:mod:`dcg.shell.running`, which decides what a command runs.
"""

from __future__ import annotations

from dcg import oslite as os
from dcg.shell import edits, opaque, scripts
from dcg.shell.limits import bounded
from dcg.shell.state import CWD

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from typing import Any, Protocol

    from dcg.extract.found import Found
    from dcg.shell.command import Command
    from dcg.shell.limits import Budget, Files
    from dcg.shell.state import Vars
    from dcg.shell.unwrap import Work
    from dcg.shell.words import Token

    class Ctx(Protocol):
        via: tuple[str, ...]
        depth: int
        env: Vars
        files: Files | None
        funcs: dict[str, tuple[str, list[tuple[int, list[Token]]]]]
        budget: Budget

        def child(self, via: tuple[str, ...]) -> Ctx: ...
        def shared(self, via: tuple[str, ...]) -> Ctx: ...

    class Walker(Protocol):
        def tokens(self, tokens: list[Token], ctx: Any, out: list[Command]) -> None: ...
        def embedded(
            self, lang: str, code: str, ctx: Any, out: list[Command], computed: bool
        ) -> None: ...
        def positional(self, env: Vars, args: list[str | None]) -> None: ...
        def emit(self, why: str, ctx: Any, out: list[Command]) -> None: ...
        def text(self, code: str, ctx: Any, out: list[Command]) -> None: ...


COMPILED = "\x00compiled:"  # the value of a program built from a source: that source


def file_text(path: str, ctx: Ctx, out: list[Command], walker: Walker) -> tuple[str | None, str]:
    """The text the file will hold when it runs, and how the reason names it."""
    from dcg.shell.expand import has_glob

    if path == "~+" or path.startswith("~+/"):  # bash's tilde for $PWD
        path = "." + path[2:]
    if has_glob(path):
        path = glob_first(path, ctx) or path
    found, text, shown = written(path, ctx, out, walker)
    if found:
        return text, shown
    files = ctx.files
    if files is None:
        return None, path
    where = scripts.where(files, path, ctx.env.get(CWD))
    if where is None or scripts.installed(where):
        return None, path
    text = scripts.read(files, where)
    shown = scripts.display(where, files.cwd)
    if text == scripts.TOO_BIG:
        why = f"{shown} is larger than {scripts.MAX_SCRIPT // 1024} KiB, too large to read"
        walker.emit(why, ctx, out)
        return None, shown
    if text is None:
        return None, shown
    return (text if files.wanted(text) or _loads_written(path, text, ctx) else ""), shown


def _loads_written(path: str, text: str, ctx: Ctx) -> bool:
    """A script naming no guarded tool may import a module the line wrote (``json.py``
    beside ``x.py``, which imports json: the script's directory is first on sys.path):
    read, its code judged (dcg.shell.modloads follows the modules it names)."""
    exts = (".py",) if path.endswith(".py") else (".js", ".mjs", ".cjs")
    return path.endswith(exts) and any(k.endswith(exts) for k in ctx.env.state.files)


def glob_first(pattern: str, ctx: Ctx) -> str | None:
    """The file a glob names first as bash sorts its matches (``sh ./w*.sh`` runs the
    first and passes the rest as arguments); None when nothing matches."""
    hits = glob_matches(pattern, ctx)
    return hits[0] if hits else None


def glob_matches(pattern: str, ctx: Ctx) -> list[str]:
    """The files a glob matches, sorted: files written earlier on the line and on disk
    (bounded, :func:`dcg.shell.expand.disk_matches`), found with the walker's cd."""
    from dcg.shell.expand import disk_matches, path_match

    hits: set[str] = set()
    for key in line_keys(ctx.env, pattern)[1:] or line_keys(ctx.env, pattern):
        for k in ctx.env.state.files:
            if path_match("/" + key, "/" + k):
                hits.add(k)
    files = ctx.files
    where = scripts.where(files, pattern, ctx.env.get(CWD)) if files is not None else None
    if where is not None and files is not None:
        base = files.cwd.rstrip("/") + "/"
        for found in disk_matches(where):
            hits.add(found[len(base) :] if found.startswith(base) else found)
    return sorted(hits)


def written(
    path: str, ctx: Ctx, out: list[Command], walker: Walker
) -> tuple[bool, str | None, str]:
    """``(found, text, shown)``: found when ``path`` was written or edited earlier on the
    line; text None when what it holds cannot be known (the finding is emitted)."""
    env = ctx.env
    files = env.state.files
    for key in keys_of(path, ctx):
        if key not in files:
            continue
        text = files[key]
        shown = f"{path} (written on this line)"
        if text is not None and text.startswith(edits.EDIT):
            disk = on_disk(path, ctx)
            ops = text[len(edits.EDIT) :].split("\x1e")
            text = None if disk is None else edits.apply(disk, ops)
            shown = f"{path} (edited on this line)"
        if text is None:
            why = f"{path} is written earlier on this line with text dcg cannot know"
            walker.emit(why, ctx, out)
            return True, None, path
        if text == scripts.FETCHED:
            return True, None, path  # a downloaded installer: the documented known limit
        if text.startswith(COMPILED):  # a program built from a source written on the line
            src = text[len(COMPILED) :]  # its path, or "\x1e" and the text fed on stdin
            source = src[1:] if src[:1] == "\x1e" else env.state.files.get(src)
            if source is not None and not opaque.acts(
                source, ctx.files.tools if ctx.files is not None else None
            ):
                return True, "", path  # its source runs, deletes and names nothing guarded
            shown = "stdin" if src[:1] == "\x1e" else src
            walker.emit(f"{path} is built on this line from {shown}, code dcg does not read",
                        ctx, out)  # fmt: skip
            return True, None, path
        if text.startswith("\x00copy:"):
            copied, shown = file_text(text[7:], ctx, out, walker)
            return True, copied, shown
        if text.startswith("\x00"):  # a patch `git diff` wrote, run as a script
            walker.emit(f"{path} is written earlier on this line by a program", ctx, out)
            return True, None, path
        return True, text, shown
    return False, None, path


def line_keys(env: dict[str, str | None], path: str) -> tuple[str, ...]:
    """``path`` as written, normalised, and relative to where the line started (after
    its ``cd``s): ``cd d && echo … > x.sh`` and a later ``sh d/x.sh`` name one file."""
    norm = os.path.normpath(path)
    here = env.get(CWD)
    if here is None or here == "\x00?" or path.startswith(("/", "~")):
        return (norm,)
    return (norm, os.path.normpath(os.path.join(here, path)))


def absolute(env: dict[str, str | None], path: str) -> str | None:
    """``path`` absolute and normalised as the line's ``cd``s and the hook's ``$HOME`` make
    it (``../proj/f``, ``~/proj/f``, ``$HOME/proj/f`` name one file); None: unknown."""
    from dcg.shell.state import BASE

    home = env["HOME"] if "HOME" in env else os.environ.get("HOME")
    path = _home(path, home)
    if not path.startswith("/"):
        here, start = env.get(CWD), env.get(BASE)
        if here == "\x00?" or not start:
            return None
        path = os.path.join(start, _home(here or "", home), path)
    return os.path.normpath(path) if path.startswith("/") else None


def _home(path: str, home: str | None) -> str:
    for token in ("~", "$HOME", "${HOME}"):
        rest = path[len(token) :]
        if path.startswith(token) and rest[:1] in ("", "/"):
            return home + rest if home else "\x00?"
    return path


def keys_of(path: str, ctx: Ctx) -> list[str]:
    """Where ``path`` may have been remembered: as written, relative to the line's start
    after its ``cd``s, and absolute or relative to the project for the other spelling."""
    keys = [path, *line_keys(ctx.env, path)]
    full = absolute(ctx.env, path)
    keys += [full] if full is not None and full not in keys else []
    base = ctx.files.cwd if ctx.files is not None else ""
    if base:
        for k in keys[1:]:
            if k.startswith(base + "/"):
                keys.append(k[len(base) + 1 :])
            elif not k.startswith(("/", "~")):
                keys.append(os.path.join(base, k))
    return keys


def on_disk(path: str, ctx: Ctx) -> str | None:
    """The text ``path`` holds on disk before the line runs ("" when it does not exist)."""
    files = ctx.files
    if files is None:
        return None
    where = scripts.where(files, path, ctx.env.get(CWD))
    if where is None:
        return None
    if not os.path.lexists(where):
        return ""
    text = scripts.read(files, where)
    return None if text == scripts.TOO_BIG else text


def run_sh(
    text: str,
    shown: str,
    ctx: Ctx,
    out: list[Command],
    walker: Walker,
    *,
    args: list[str | None] | None = None,
    shared: bool = False,
    first: int = 1,
    label: str = "",
    cwd: str | None = None,
) -> None:
    """Judge shell ``text`` from ``shown`` line by line; functions only when called.

    ``shared``: the text runs in the caller's shell (``source``), so its variables, cd
    and functions stay for the rest of the line; otherwise it is a new shell whose
    ``"$@"`` is ``args``.
    """
    base = ctx.shared(ctx.via) if shared else ctx.child(ctx.via)
    if args is not None:
        walker.positional(base.env, args)
    if cwd is not None:
        base.env[CWD] = cwd  # a workspace package's script runs in its own directory
    lines, stopped = scripts.lex_lines(text, shown, first, ctx.budget, base.depth, ctx.files)
    top, funcs = scripts.split_functions(lines)
    for fname, body in funcs.items():
        base.funcs[fname] = (shown, body)
    suffix = f" ({label})" if label else ""
    for number, tokens in scripts.compounds(top):
        line_ctx = base.shared((*ctx.via, f"in {shown} line {number}{suffix}"))
        line_ctx.depth = base.depth
        walker.tokens(tokens, line_ctx, out)
    if stopped is not None:
        raise stopped


def here(ctx: Ctx, directory: str | None) -> str | None:
    files = ctx.files
    if files is None:
        return None
    return scripts.where(files, directory or ".", ctx.env.get(CWD))


def run_dir(ctx: Ctx, directory: str | None) -> str | None:
    """Where a runner's commands run when an option names their directory (``make -C``,
    ``npm --prefix``, ``just -d``, a task runner's): against the line's cwd, as the walker
    keeps it. A ``cd ..`` in a recipe then leaves that directory, not the line's."""
    if directory is None:
        return None
    here = ctx.env.get(CWD)
    if directory.startswith(("/", "~")) or here is None:
        return directory
    if here == "\x00?":
        return here
    return here.rstrip("/") + "/" + directory


def find_up(ctx: Ctx, start: str | None, names: tuple[str, ...]) -> tuple[str, str] | None:
    """The first of ``names`` in ``start`` or a directory above it: (path, text)."""
    files = ctx.files
    if files is None or start is None:
        return None
    here = start
    for _ in range(32):
        for n in names:
            path = os.path.join(here, n)
            if os.path.isfile(path):
                text = scripts.read(files, path)
                return (path, text) if text is not None else None
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent
    return None


def recipes(
    found: list[Found],
    shown: str,
    ctx: Ctx,
    out: list[Command],
    walker: Walker,
    what: str,
    cwd: str | None = None,
) -> None:
    for f in found:
        project(f.text, shown, ctx, out, walker, f.line, f"{what} {f.label}", cwd)


def project(
    text: str,
    shown: str,
    ctx: Ctx,
    out: list[Command],
    walker: Walker,
    first: int,
    label: str,
    cwd: str | None = None,
) -> None:
    """Judge one project script or recipe, unless it is already being read on this line:
    a script that reaches itself again (a root `build` of `pnpm -r run build`) is a cycle,
    and what it runs is judged once, where it was first read."""
    files = ctx.files
    key = (shown, label)
    if files is not None and key in files.reading:
        return
    if files is not None:
        files.reading.append(key)
    try:
        bounded(ctx.budget, files, f"{shown} ({label})", lambda: run_sh(
            text, shown, ctx, out, walker, first=first, label=label, cwd=cwd))  # fmt: skip
    finally:
        if files is not None:
            files.reading.pop()


def written_first(
    ctx: Ctx, directory: str | None, names: tuple[str, ...], out: list[Command], walker: Walker
) -> tuple[str | None, str] | None:
    """The first of ``names`` (in ``directory``) written or edited earlier on the line, as
    ``(text, shown)``; None when none was (the file on disk is read as before)."""
    if not ctx.env.state.files:
        return None
    for n in names:
        path = os.path.join(directory, n) if directory else n
        found, text, shown = written(path, ctx, out, walker)
        if not found:
            found, text, shown = written("./" + path, ctx, out, walker)
        if found:
            return text, shown
    return None


def setting(work: Work, ctx: Ctx, name: str) -> str | None:
    """The value the command sees for variable ``name`` (its own assignment first)."""
    if name in work.assigns:
        return work.assigns[name]
    return ctx.env.get(name)


def load(path: str, ctx: Ctx, out: list[Command], walker: Walker) -> tuple[str, str, bool] | None:
    """``(text, shown, written on this line)`` of a project file the tool loads; None when
    there is none to judge (absent, installed, unreadable, not naming any guarded tool, or
    written with unknown text: that finding is emitted)."""
    found, text, shown = written(path, ctx, out, walker)
    if found:
        return None if text is None else (text, shown, True)
    files = ctx.files
    if files is None:
        return None
    where = scripts.where(files, path, ctx.env.get(CWD))
    if where is None or scripts.installed(where) or not os.path.isfile(where):
        return None
    text = scripts.read(files, where)
    shown = scripts.display(where, files.cwd)
    if text == scripts.TOO_BIG:
        walker.emit(f"{shown} is too large to read", ctx, out)
        return None
    if text is None or not files.wanted(text):
        return None
    return text, shown, False


def judge(lang: str, path: str, what: str, ctx: Ctx, out: list[Command], walker: Walker) -> bool:
    """Judge the file ``path`` (``lang`` code, or its shebang's for "exec") as loaded by
    ``what``; True when there was one."""
    got = load(path, ctx, out, walker)
    if got is None:
        return False
    text, shown, written = got
    judge_text(lang, text, shown, written, what, ctx, out, walker)
    return True


def judge_text(
    lang: str,
    text: str,
    shown: str,
    written: bool,
    what: str,
    ctx: Ctx,
    out: list[Command],
    walker: Walker,
) -> None:
    if lang == "exec":
        lang = scripts.shebang_lang(text) or ""
    if lang == "sh":
        bounded(ctx.budget, ctx.files, shown, lambda: run_sh(
            text, shown, ctx.child((*ctx.via, what)), out, walker))  # fmt: skip
    elif lang:
        via = (
            *ctx.via,
            what,
            f"in {shown}",
            f"{lang} {'script' if lang != 'python' else 'module'}",
        )
        bounded(ctx.budget, ctx.files, shown, lambda: walker.embedded(
            lang, text, ctx.child(via), out, written))  # fmt: skip


def written_paths(ctx: Ctx) -> list[str]:
    """The paths written or edited earlier on the line."""
    return list(ctx.env.state.files)
