"""Code a shell runs before its own script: start-up files and variables it executes.

``BASH_ENV=e.sh bash -c true`` runs ``e.sh``; so do ``ENV=f sh -i``, ``bash --rcfile f -i``,
``HOME=. bash -i`` (``./.bashrc``), ``HOME=$PWD bash -l`` (``.bash_profile`` / ``.profile``),
``ZDOTDIR=. zsh`` (``.zshenv``), a ``PROMPT_COMMAND`` or a prompt's ``$(…)`` in an
interactive shell, ``PS4`` under ``-x``, and an exported ``BASH_FUNC_name%%`` function.
:func:`judge` reads each of them the way bash would and judges it like a script the shell
runs. A start-up file named on the line is read from disk (or from what the line wrote
into it); one found through the user's own ``HOME`` is read only when the line wrote it
(the user's ``~/.bashrc`` is theirs, not the agent's). A value dcg cannot know is code it
cannot see.
"""

from __future__ import annotations

from dcg.shell import runtext
from dcg.shell.limits import bounded

TYPE_CHECKING = False

if TYPE_CHECKING:
    from dcg.shell.command import Command
    from dcg.shell.runtext import Ctx, Walker
    from dcg.shell.unwrap import Work

_SHELLS = frozenset(("bash", "sh", "dash", "ash", "ksh", "mksh", "yash", "zsh"))
_POSIX_ENV = frozenset(("sh", "dash", "ash", "ksh", "mksh", "yash", "bash"))
_PROMPTS = ("PS0", "PS1", "PS2")
_LOGIN = (".bash_profile", ".bash_login", ".profile")


class _Opts:
    __slots__ = ("interactive", "login", "noprofile", "norc", "posix", "rcfile")

    def __init__(self) -> None:
        self.interactive = self.login = self.norc = self.noprofile = False
        self.posix = False
        self.rcfile: str | None = None


def _options(argv: tuple[str, ...] | list[str]) -> _Opts:
    from dcg.shell.optgrammar import shell_words

    o = _Opts()
    _, letters, named, longs = shell_words(argv, 1)
    for a, value in longs:
        if a in ("--rcfile", "--init-file"):
            o.rcfile = value or None
        o.login = o.login or a == "--login"
        o.norc = o.norc or a == "--norc"
        o.noprofile = o.noprofile or a == "--noprofile"
        o.posix = o.posix or a == "--posix"
    o.posix = o.posix or ("-o", "posix") in named
    o.interactive = "i" in letters
    o.login = o.login or "l" in letters
    return o


def _var(work: Work, ctx: Ctx, key: str) -> tuple[bool, str | None]:
    """Whether the shell gets ``key`` in its environment from this line, and its value."""
    if key in work.assigns:
        return True, work.assigns[key]
    if key in ctx.env:
        return True, ctx.env[key]
    return False, None


def _substitutions(value: str) -> list[str]:
    """The ``$(…)`` and backquoted commands in a prompt string (bash runs them)."""
    found: list[str] = []
    i, n = 0, len(value)
    while i < n:
        c = value[i]
        if c == "\\":
            i += 2
            continue
        if c == "`":
            j = value.find("`", i + 1)
            j = n if j < 0 else j
            found.append(value[i + 1 : j])
            i = j + 1
            continue
        if value.startswith("$(", i) and not value.startswith("$((", i):
            depth, j = 1, i + 2
            while j < n and depth:
                depth += {"(": 1, ")": -1}.get(value[j], 0)
                j += 1
            found.append(value[i + 2 : j - 1 if depth == 0 else j])
            i = j
            continue
        i += 1
    return found


def _prompt(work: Work, ctx: Ctx, var: str, codes: list[tuple[str, str | None]]) -> None:
    present, value = _var(work, ctx, var)
    if not present:
        return
    if value is None:
        codes.append((var, None))
    else:
        codes.extend((var, s) for s in _substitutions(value))


def judge(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """Judge what ``work``'s shell (bash, sh, zsh …) runs before its script."""
    name = work.argv[0]
    if name not in _SHELLS:  # BASH_ENV set on the line: any bash this command starts reads it
        if not ctx.env.state.bash_env_judged:
            ctx.env.state.bash_env_judged = True
            present, value = _var(work, ctx, "BASH_ENV")
            if present:
                _read(
                    "BASH_ENV (read by every bash started from here)", value, True, ctx, out, walker
                )
        return
    o = _options(work.argv)
    files: list[tuple[str, str | None, bool]] = []  # (why, path, named on the line)
    codes: list[tuple[str, str | None]] = []
    set_home, home = _var(work, ctx, "HOME")
    if not set_home:
        from dcg.selfpaths import expand

        home = expand("~")
        home = None if home.startswith("~") else home

    def startup_file(why: str, var: str) -> None:
        present, value = _var(work, ctx, var)
        if present:
            files.append((f"{var} ({why})", value, True))

    def in_home(names: tuple[str, ...], why: str, base: str | None = None) -> None:
        named = base is not None or set_home
        root = base if base is not None else home
        if root is None:
            files.append((why, None, True))
            return
        files.extend((why, f"{root.rstrip('/') or '/'}/{n}" if root else n, named) for n in names)

    if name == "bash":
        if not o.interactive:
            startup_file("read by a non-interactive bash", "BASH_ENV")
        elif o.posix:
            startup_file("read by an interactive shell", "ENV")
        elif o.rcfile is not None:
            files.append(("--rcfile", o.rcfile, True))
        elif not o.norc:
            in_home((".bashrc",), "~/.bashrc of an interactive bash")
        if o.login and not o.noprofile:
            in_home(_LOGIN, "the login profile")
    elif name == "zsh":
        zdot_set, zdot = _var(work, ctx, "ZDOTDIR")
        base = (zdot if zdot else None) if zdot_set else None
        if zdot_set and zdot is None:
            files.append(("ZDOTDIR", None, True))
        else:
            wanted = [".zshenv"] + [".zprofile", ".zlogin"] * o.login + [".zshrc"] * o.interactive
            in_home(tuple(wanted), "zsh start-up files", base)
    elif name in _POSIX_ENV:  # a login sh reads ~/.profile, interactive or not (`sh -l -c`)
        if o.interactive:
            startup_file("read by an interactive shell", "ENV")
        if o.login:
            in_home((".profile",), "the login profile")
    if o.interactive:
        present, value = _var(work, ctx, "PROMPT_COMMAND")
        if present:
            codes.append(("PROMPT_COMMAND", value))
        for prompt in _PROMPTS:
            _prompt(work, ctx, prompt, codes)
    _prompt(work, ctx, "PS4", codes)  # printed before each traced line (`-x`, `set -x`)
    if name == "bash":
        for key, value in work.assigns.items():
            if key.startswith("BASH_FUNC_"):
                body = value[2:] if value is not None and value.startswith("()") else None
                codes.append((f"the function {key[10:].rstrip('%()')} bash imports", body))
    for why, path, named in files:
        _read(why, path, named, ctx, out, walker)
    for why, code in codes:
        label = f"{why} run by {name}"
        if code is None:
            walker.emit(f"{label} is set to a value dcg cannot know", ctx, out)
        else:
            walker.text(code, ctx.child((*ctx.via, label)), out)


def _read(
    why: str, path: str | None, named: bool, ctx: Ctx, out: list[Command], walker: Walker
) -> None:
    if path is None or "$" in path or "`" in path:
        from dcg.shell.scripts import known

        path = known(path) if path else None
        if path is None:
            walker.emit(f"the start-up file in {why} is a path dcg cannot know", ctx, out)
            return
    if not path:
        return
    if named:
        text, shown = runtext.file_text(path, ctx, out, walker)
    else:
        found, text, shown = runtext.written(path, ctx, out, walker)
        if not found:
            return
    if not text:
        return
    sub = ctx.child((*ctx.via, f"start-up file, {why}"))

    def read() -> None:
        runtext.run_sh(text, shown, sub, out, walker, args=None)

    bounded(ctx.budget, ctx.files, shown, read)
