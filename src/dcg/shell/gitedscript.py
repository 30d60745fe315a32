"""A rebase sequence editor that is a script file: found where git's shell finds it, and read.

``GIT_SEQUENCE_EDITOR=ed.sh git rebase -i HEAD~3`` (``./ed.sh``, ``~/bin/ed.sh``): git runs
the editor with sh, which looks a bare name up on PATH. A script written earlier on the
line, or found on PATH, in the cwd or at the path named, is read: a shell script whose
every command is a harmless one (``exit``, ``true``, ``echo``) or an edit
:func:`dcg.shell.gitrebase.editor_drops` can judge (``sed -i 's/^pick/edit/' "$1"``) keeps
every commit; any other command, another interpreter, or text dcg cannot know may drop
them. A program that is no text (an installed editor) or is found nowhere drops nothing.
"""

from __future__ import annotations

from dcg import oslite as os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from dcg.shell.state import Vars

_READ = 65536  # bytes of a script read at most
_SHELLS = frozenset(("sh", "bash", "dash", "ksh", "mksh", "zsh", "busybox"))
# Commands of a script that leave the todo list alone.
_HARMLESS = frozenset(("exit", "true", ":", "set", "echo", "printf", "sleep", "test", "[",
                       "return", "cat", "shift", "local", "readonly", "unset"))  # fmt: skip


def script_drops(
    word: str, env: Vars, judge: Callable[[str], bool], path: str | None = None
) -> bool | None:
    """Whether the program ``word`` (the editor's first word, no known editor) may drop
    commits, None when it is no script dcg finds (an installed program, or nothing).
    ``path``: the PATH the command is given (else the line's, else the hook's)."""
    from dcg.shell import gitsources

    if "/" in word:
        places = [gitsources.absolute(env, word)]
    else:
        path = path or env.get("PATH") or os.environ.get("PATH") or ""
        if "\x00" in path or "$" in path:
            return True  # a PATH dcg cannot know: the name may be any script
        places = [os.path.join(d or ".", word) for d in path.split(":")]
        places = [gitsources.absolute(env, p) for p in places]
        places.append(gitsources.absolute(env, word))  # in the cwd: `PATH=.:$PATH` or not
    for place in places:
        if place in env.state.files:  # written on the line
            text = env.state.files[place]
            return text is None or text.startswith("\x00") or _text_drops(text, judge)
        if os.path.isfile(place):
            try:
                with open(place, "rb") as f:
                    data = f.read(_READ)
            except OSError:
                return True
            if b"\x00" in data:
                return None  # a compiled program: an editor someone installed
            try:
                return _text_drops(data.decode(), judge)
            except UnicodeDecodeError:
                return None
    return True if "/" in word else None


def _text_drops(text: str, judge: Callable[[str], bool]) -> bool:
    """A script's text: may one of its commands drop commits (see the module)."""
    lines = text.split("\n")
    if lines[0].startswith("#!"):
        interp = lines[0][2:].split()
        prog = interp[0].rpartition("/")[2] if interp else ""
        if prog == "env" and len(interp) > 1:
            prog = interp[1]
        if prog not in _SHELLS:
            return True  # python, perl, node…: code dcg does not read here
    for raw in lines[1:] if lines[0].startswith("#!") else lines:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        words = line.split()
        if words[0] == "exec":
            line = line[4:].strip()
            words = words[1:] or [""]
        if words[0] in _HARMLESS and not any(c in line for c in ">;|&`") and "$(" not in line:
            continue
        if judge(line):
            return True
        if words[0] not in ("sed", "gsed", "awk", "gawk") and not words[0].startswith("perl"):
            return True  # a command whose effect on the todo is not read
    return False
