"""Commands as they run when the variables dcg could not resolve are unset.

A variable the line never set and the hook's environment does not hold is, as far as dcg
can tell, unset in the agent's shell too, and bash expands it to nothing:
``git reset $NOPE--hard`` is ``git reset --hard``, ``git stash cl${Z}ear`` is ``git stash
clear``, ``git $G reset --hard`` is ``git reset --hard``, ``git reset ${X:---hard}`` is
``git reset --hard`` and ``git push origin "$(true):side"`` may delete ``side`` (an
output is taken as empty only where the rest is an option or a refspec). The walker
keeps such words as written (unknown); each command holding one is judged a second time
with them empty (a command's output glued to other text counts as possibly empty too).
A variant only adds matches: the command as written is judged as before.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from dcg.shell.command import Command

_DEFAULT = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*):?[-=]([^}]*)\}")
_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")
_OUTPUTS = ("$(…)", "`…`")
VIA = "unset variables empty"


def variants(commands: Sequence[Command]) -> list[Command]:
    """The commands that change when unset variables expand to nothing, so changed."""
    from dcg.oslite import environ
    from dcg.shell.command import Command

    def empty(word: str) -> str:
        if "$" not in word and "`" not in word:
            return word
        word = _DEFAULT.sub(lambda m: m.group(0) if m.group(1) in environ else m.group(2), word)
        word = _REF.sub(lambda m: m.group(0) if (m.group(1) or m.group(2)) in environ else "", word)
        if word not in _OUTPUTS:  # `"$(…):side"`, not `$(…)/dist` (an output: a path)
            bare = word.replace(_OUTPUTS[0], "").replace(_OUTPUTS[1], "")
            word = bare if bare[:1] in (":", "+", "-") else word
        return word

    def fields(words: Sequence[str]) -> tuple[str, ...]:
        return tuple(e for w in words if (e := empty(w)) or not w.startswith("$"))

    out: list[Command] = []
    for c in commands:
        if not c.dynamic or VIA in c.via:
            continue
        argv = fields(c.argv)
        if argv == c.argv or not argv:
            continue
        out.append(
            Command(
                argv,
                words=fields(c.words),
                data=c.data,
                redirects=c.redirects,
                stdin=c.stdin,
                via=(*c.via, VIA),
                dynamic=True,
                cwd=c.cwd,
                raw=c.raw,
                cwd_sure=c.cwd_sure,
            )
        )
    return out
