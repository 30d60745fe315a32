"""Hooks git runs for a command, read from disk when the command runs.

A hook written in an earlier call, or by the agent's file tool (``.git/hooks/pre-commit``,
a ``core.hooksPath`` directory), runs on the next ``git commit``, ``merge``, ``checkout``,
``push``…: its text is judged like a script the command runs. Only what it plainly does
counts: code a hook computes at run time (``. "$(dirname "$0")/h"``, as husky's hooks do)
is the project's own tooling, not an agent hiding a command, so it is not a finding here.
Hooks written earlier on the same line are judged by :mod:`dcg.shell.toolruns`.
"""

from __future__ import annotations

from dcg import oslite as os
from dcg.shell.limits import cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.shell.command import Command
    from dcg.shell.runtext import Ctx, Walker
    from dcg.shell.state import Vars
    from dcg.shell.unwrap import Work

# The hooks each git command may run (githooks(5)); the rest of git runs none.
_REF = ("reference-transaction",)
_INDEX = ("post-index-change",)
_COMMIT = ("pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "post-rewrite",
           "pre-auto-gc", *_REF, *_INDEX)  # fmt: skip
_MERGE = ("pre-merge-commit", "prepare-commit-msg", "commit-msg", "post-merge", "post-checkout",
          "pre-rebase", "post-rewrite", "pre-auto-gc", *_REF, *_INDEX)  # fmt: skip
HOOKS: dict[str, tuple[str, ...]] = {
    "commit": _COMMIT, "merge": _MERGE, "pull": _MERGE, "rebase": _MERGE,
    "cherry-pick": _COMMIT, "revert": _COMMIT,
    "am": ("applypatch-msg", "pre-applypatch", "post-applypatch", *_COMMIT),
    "checkout": ("post-checkout", *_REF, *_INDEX), "switch": ("post-checkout", *_REF, *_INDEX),
    "worktree": ("post-checkout", *_REF), "clone": ("post-checkout",),
    "push": ("pre-push", *_REF), "fetch": ("pre-auto-gc", *_REF),
    "gc": ("pre-auto-gc",), "maintenance": ("pre-auto-gc",),
    "branch": _REF, "tag": _REF, "update-ref": _REF, "symbolic-ref": _REF,
    "reset": (*_REF, *_INDEX), "stash": (*_REF, *_INDEX), "restore": _INDEX, "add": _INDEX,
    "rm": _INDEX, "mv": _INDEX, "status": _INDEX, "update-index": _INDEX, "read-tree": _INDEX,
    "apply": _INDEX, "send-email": ("sendemail-validate",),
}  # fmt: skip
# What --no-verify (-n for commit) skips.
_VERIFY = frozenset(("pre-commit", "commit-msg", "pre-merge-commit", "pre-push",
                     "applypatch-msg", "pre-applypatch"))  # fmt: skip
_MAX_HOOK = 64 * 1024
_OPAQUE = "<opaque>"  # dcg.shell.opaque.WORD


def run_by(argv: list[str]) -> tuple[str, ...]:
    """The hooks ``git SUB …`` may run (``--no-verify`` honoured)."""
    hooks = HOOKS.get(argv[1], ()) if len(argv) > 1 else ()
    rest = argv[2:]
    if "--no-verify" in rest or (argv[1] == "commit" and "-n" in rest):
        hooks = tuple(h for h in hooks if h not in _VERIFY)
    return hooks


def present(
    names: tuple[str, ...],
    start: str | None,
    settings: list[tuple[str, str | None]],
    env: Vars,
) -> list[str] | None:
    """The hook files among ``names`` that a git command will run (None: none is there,
    and the command needs no script reading at all; ``pre-commit install`` earlier on the
    line is dcg.shell.pkgloads's to follow)."""
    if not names:
        return None
    found = [h for d in dirs(start, settings) for h in _hooks(d) if os.path.basename(h) in names]
    if found or env.state.pre_commit:
        return found
    return None


def template(w: Work, settings: list[tuple[str, str | None]], env: Vars) -> str | None:
    """The template directory ``git clone``/``git init`` copies hooks from: ``--template``,
    else ``$GIT_TEMPLATE_DIR``, else ``init.templateDir`` (None: git's own, or no copy)."""
    argv = w.argv
    if argv[1:2] not in (["clone"], ["init"], ["init-db"]):
        return None
    for k in range(2, len(argv)):
        a = argv[k]
        if a == "--":
            break
        if a == "--template" and k + 1 < len(argv):
            return argv[k + 1] or None
        if a.startswith("--template="):
            return a[11:] or None
    found = w.assigns.get("GIT_TEMPLATE_DIR", env.get("GIT_TEMPLATE_DIR"))
    if found:
        return found
    return next((v for k, v in reversed(settings) if k == "init.templatedir" and v), None)


def templated(
    w: Work, start: str | None, settings: list[tuple[str, str | None]], env: Vars
) -> None:
    """``git clone --template=T``, ``git init --template=T``: T's hooks are copied into the
    repository and run at the clone's checkout or a later commit: each is judged as run."""
    where = template(w, settings, env)
    if where is None or not start:
        return
    from dcg.selfpaths import expand

    where = expand(where)
    hooks = _hooks(os.path.join(start, where, "hooks"))
    if hooks:
        w.hooks = [*(w.hooks or []), *hooks]


def dirs(start: str | None, settings: list[tuple[str, str | None]]) -> list[str]:
    """Where git looks for hooks for a command run in ``start``: ``core.hooksPath`` (the
    last setting wins), else the repository's ``hooks`` directory."""
    if not start:
        return []
    path = next((v for k, v in reversed(settings) if k == "core.hookspath"), None)
    key = (start, path)
    if key not in _DIRS:
        _DIRS[key] = _dirs(start, path)
    return _DIRS[key]


_DIRS: dict[tuple[str, str | None], list[str]] = cache()  # dirs() for this line
_LISTED: dict[str, list[str]] = cache()  # _hooks() for this line


def _dirs(start: str, path: str | None) -> list[str]:
    if path:
        from dcg.selfpaths import expand

        path = expand(path)
        return [path if os.path.isabs(path) else os.path.join(start, path)]
    from dcg.shell.gitconfig import repository_config

    configs = repository_config(start)
    return [os.path.join(os.path.dirname(configs[0]), "hooks")] if configs else []


def _hooks(directory: str) -> list[str]:
    if directory not in _LISTED:
        _LISTED[directory] = _list(directory)
    return _LISTED[directory]


def _list(directory: str) -> list[str]:
    try:
        with os.scandir(directory) as it:
            names = sorted(e.name for e in it if not e.name.endswith(".sample") and e.is_file())
    except OSError:
        return []
    return [p for p in (os.path.join(directory, n) for n in names) if os.access(p, os.X_OK)]


def judge(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """Judge the hooks on disk that ``work``'s git command will run."""
    from dcg.shell import runtext
    from dcg.shell.limits import bounded

    if work.hooks:
        for path in work.hooks[:32]:
            shown = f"git hook {path}"
            if shown in ctx.via or any(
                k in ctx.env.state.files for k in runtext.keys_of(path, ctx)
            ):
                continue  # being read (a hook's own git command), or written on this line
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read(_MAX_HOOK)
            except OSError:
                continue
            if ctx.files is not None and not ctx.files.wanted(text):
                continue
            found: list[Command] = []

            def read(text: str = text, shown: str = shown, found: list[Command] = found) -> None:
                runtext.run_sh(text, shown, ctx.child((*ctx.via, shown)), found, walker)

            bounded(ctx.budget, ctx.files, shown, read)
            out.extend(c for c in found if c.argv[:1] != (_OPAQUE,))


EDIT = "\x00edit:"  # dcg.shell.edits.EDIT


def written_hooks(
    w: Work, env: Vars, settings: list[tuple[str, str | None]], here: str | None
) -> None:
    """A hook file written earlier on the line (``.git/hooks``, ``core.hooksPath``; copied,
    linked, fed from stdin) runs when git reaches it: judge its text."""
    keys = list(env.state.files)
    if not keys:
        return
    from dcg.shell import gitsources

    tpl = template(w, settings, env)
    rel_dirs = [".git/hooks/"] + [
        v.rstrip("/") + "/" for k, v in settings if k == "core.hookspath" and v
    ]
    rel_dirs += [os.path.normpath(tpl).rstrip("/") + "/hooks/"] if tpl else []
    full_dirs = [os.path.normpath(d) for d in dirs(here, settings)] if here else []
    full_dirs += [os.path.normpath(os.path.join(here, tpl, "hooks"))] if tpl and here else []
    texts: dict[str, str | None] | None = None
    for key in keys:
        path = key
        rel = path[2:] if path.startswith("./") else path
        where = gitsources.absolute(env, path)
        if not (any(rel.startswith(d) or ("/" + d) in rel for d in rel_dirs)
                or os.path.dirname(where) in full_dirs):  # fmt: skip
            continue
        text = env.state.files[key]
        if text is not None and text.startswith(EDIT):
            from dcg.shell import edits

            # Edited on the line: what was added is judged (the hook's old text ran
            # before); an edit dcg cannot apply leaves the text unknown.
            text = edits.apply("", text[len(EDIT) :].split("\x1e"))
        elif text is not None and text.startswith("\x00copy:"):
            texts = gitsources.written(env) if texts is None else texts
            text = texts.get(where)  # copied or linked: what the source holds
        if text is None:
            if w.opaque is None:
                w.opaque = f"git runs the hook {path}, written earlier with unknown text"
        elif not text.startswith("\x00"):
            w.payloads.append(("sh", f"git hook {path} (written on this line)", text, []))
