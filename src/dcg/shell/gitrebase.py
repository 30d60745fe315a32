"""Which commits a ``git rebase`` leaves on no branch, when the words alone cannot say.

``git rebase --onto 1a2b3c4 HEAD~3``, ``--onto main~3 main``: the commits of the branch
that UPSTREAM holds and NEW does not are not replayed; when no other branch, tag or
remote branch holds them either, only the reflog still does. git itself is asked
(:func:`dcg.gitinfo.git`, bounded and running nothing of the repository's); no answer
is no finding.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.shell.state import Vars
    from dcg.shell.unwrap import Work


def drops_by_graph(here: str, onto: str, upstream: str, branch: str, current: str) -> bool:
    """Whether ``git rebase --onto ONTO UPSTREAM [BRANCH]`` run in ``here`` (on the branch
    ``current``, "" when detached) drops commits that no other ref holds."""
    if not onto or any(r.startswith("-") for r in (onto, upstream, branch)):
        return False
    from dcg import gitinfo

    tip = branch or "HEAD"
    base = gitinfo.git(here, ["merge-base", upstream, tip])
    if not base or not base.strip():
        return False
    name = branch or current
    others = [f"--exclude={name}"] if name else []  # as --branches names it
    # A NEW computed at run time (``$(git rev-parse …)``) is taken to hold none of them.
    new = [] if "$(…)" in onto or onto.startswith("$") else [onto]
    lost = gitinfo.git(
        here,
        ["rev-list", "-n1", base.strip(), "--not", *new, *others, "--branches", "--tags",
         "--remotes"],
    )  # fmt: skip
    return bool(lost and lost.strip())


def drops_by_editor(w: Work, env: Vars, settings: list[tuple[str, str | None]]) -> bool:
    """``GIT_SEQUENCE_EDITOR="sed -i 1d" git rebase -i …``: the editor git runs on the
    todo list (``GIT_SEQUENCE_EDITOR``, ``sequence.editor``, else the editor: ``GIT_EDITOR``,
    ``core.editor``, ``VISUAL``, ``EDITOR``) deletes lines or turns picks into drops, or is
    a program whose edit dcg cannot read (a script, python, perl or awk code, shell code):
    those commits may be dropped."""
    if not any(a in ("-i", "--interactive") or _short(a, "i") for a in w.argv[2:]):
        return False
    keys = dict(settings)
    for name in _EDITORS:
        value = keys.get(name) if "." in name else w.assigns.get(name, env.get(name))
        if value:
            return editor_drops(value, env, w.assigns.get("PATH"))
    return False


def _short(a: str, letter: str) -> bool:
    return a[:1] == "-" and a[1:2] != "-" and letter in a[1:]


_EDITORS = ("GIT_SEQUENCE_EDITOR", "sequence.editor", "GIT_EDITOR", "core.editor", "VISUAL",
            "EDITOR")  # fmt: skip
# Programs that run code they are given, or a script: what they do to the todo is unseen.
_CODE = frozenset(("python", "python2", "python3", "pypy", "pypy3", "ruby", "node", "nodejs",
                   "deno", "bun", "php", "lua", "tclsh", "sh", "bash", "dash", "zsh", "ksh",
                   "mksh", "fish", "busybox", "env", "xargs", "ed", "ex", "red", "osascript",
                   "pwsh", "powershell", "jq", "sponge", "tee", "cp", "mv", "dd", "truncate",
                   "install", "ln", "grep", "egrep", "fgrep", "head", "tail", "sort", "uniq",
                   "tac", "cut", "tr"))  # fmt: skip
_AWKS = frozenset(("awk", "gawk", "mawk", "nawk", "busybox-awk"))
# Editors the person drives, and programs that leave the todo as it is.
_DRIVEN = frozenset(("true", "false", ":", "cat", "echo", "code", "codium", "subl", "mate",
                     "editor", "sensible-editor", "select-editor", "nvr", "lvim", "geany",
                     "kate", "zed", "atom", "idea", "emacsclient", "notepad", "open",
                     "xdg-open", "joe", "mcedit", "pico", "ne", "jed", "gedit"))  # fmt: skip
_VIMS = frozenset(("vi", "vim", "nvim", "gvim", "view", "emacs", "kak", "hx", "micro", "nano"))


def editor_drops(editor: str, env: Vars | None = None, path: str | None = None) -> bool:
    """Whether the editor command line ``editor``, run by git on the todo list, may drop
    commits: sed or perl code that deletes lines or writes ``drop``/``d``; any code dcg
    does not read (shell code around it, a script file, an interpreter, awk writing in
    place, a scripted vim); not ``true``, ``:``, ``cat`` or an editor the person drives."""
    from dcg.shell.gitargs import split

    if any(c in editor for c in ";|&<>`\n") or "$(" in editor:
        return True  # git runs it with sh: shell code dcg does not follow here
    words = split(editor)
    while words and "=" in words[0] and not words[0].startswith(("-", "/", ".")):
        words = words[1:]  # VAR=value before the program
    if not words:
        return False
    prog = words[0].rpartition("/")[2]
    if prog in ("sed", "gsed"):
        return _sed_drops(words)
    if prog.startswith("perl"):
        return _perl_drops(words)
    if prog in _AWKS:
        return any(words[k] == "-i" or words[k].startswith("-i") for k in range(1, len(words)))
    if prog in _VIMS:  # scripted: commands to run, a script to read, batch mode
        return any(a[:1] == "+" or a in ("-c", "-s", "-S", "--cmd", "-es", "-Es", "--batch",
                                         "--eval", "-e", "--script", "-l", "--load", "-x")
                   for a in words[1:])  # fmt: skip
    if prog in _DRIVEN:
        return False
    if prog in _CODE or prog.startswith(("python", "ruby", "node", "php")):
        return True
    if env is not None:  # a script (written on the line, on PATH, in the cwd): read
        from dcg.shell.gitedscript import script_drops

        found = script_drops(words[0], env, editor_drops, path)
        if found is not None:
            return found
    return "/" in words[0]  # a path to a program that is no known editor, found nowhere


def _drops_in(script: str) -> bool:
    """A sed-style script: ``d`` commands, or ``s`` writing ``drop``/``d`` as the command."""
    for cmd in script.replace("\n", ";").split(";"):
        body = cmd.strip().lstrip("0123456789$,!+~ ")
        if body.startswith("/"):
            body = body[body.find("/", 1) + 1 :].lstrip("!")
        if body[:1] == "d":
            return True
        if body[:1] == "s" and len(body) > 2:
            parts = body[2:].split(body[1])
            if len(parts) > 1 and parts[1].split(" ")[0] in ("drop", "d"):
                return True
    return False


def _sed_drops(words: list[str]) -> bool:
    """Whether the sed command line ``words`` deletes lines or writes ``drop``/``d``;
    a script read from a file (``-f``) is not seen, so it may."""
    if any(a in ("-f", "--file") or a.startswith("--file=") for a in words[1:]):
        return True
    if _sed_quiet_in_place(words):
        return True  # `sed -n -i 1p`: only the lines it prints are kept
    scripts = [words[k + 1] for k in range(len(words) - 1) if words[k] in ("-e", "--expression")]
    if not scripts:
        scripts = [a for a in words[1:] if not a.startswith("-")][:1]
    return any(_drops_in(script) for script in scripts)


def _sed_quiet_in_place(words: list[str]) -> bool:
    quiet = inplace = False
    for a in words[1:]:
        if a in ("-n", "--quiet", "--silent"):
            quiet = True
        elif a == "--in-place" or a.startswith("--in-place="):
            inplace = True
        elif a[:1] == "-" and a[1:2] != "-":
            letters = a[1:]
            if "i" in letters:  # -i[SUFFIX]: what follows is the suffix
                inplace = True
                letters = letters[: letters.index("i")]
            quiet = quiet or "n" in letters.partition("e")[0]
    return quiet and inplace


def _perl_drops(words: list[str]) -> bool:
    """``perl -pi -e 's/^pick/drop/'``: perl editing in place (``-i``) with code that is
    only substitutions is read as sed's ``s``; any other code in place may drop lines."""
    scripts: list[str] = []
    inplace = False
    k = 1
    while k < len(words):
        a = words[k]
        if a[:1] == "-" and a[1:2] != "-" and len(a) > 1:
            letters = a[1:].partition(".")[0]
            inplace = inplace or "i" in letters
            if letters.endswith(("e", "E")) and k + 1 < len(words):
                scripts.append(words[k + 1])
                k += 1
        elif a[:1] != "-":
            if not scripts:
                return True  # a script file: its code is not read here
            break
        k += 1
    if not inplace:
        return False  # prints the edited todo; the file git reads is unchanged
    for script in scripts:
        for statement in script.split(";"):
            body = statement.strip()
            if not body:
                continue
            if body[:1] != "s" or len(body) < 3 or body[1].isalnum() or body[1] == " ":
                return True
            if _drops_in(body):
                return True
    return not scripts
