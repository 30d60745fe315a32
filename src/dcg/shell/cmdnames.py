"""The program a command word runs when the line bound the name to another one.

``hash -p /bin/rm zz; zz -rf src`` and ``BASH_CMDS[zz]=/bin/rm; zz -rf src`` run rm; so do
links and copies of a program made earlier on the line:
``cp /bin/rm ./ls; ./ls -rf src`` and ``ln -s /bin/rm b/ls; PATH=$PWD/b:$PATH; ls -rf
src`` (the link is found through a PATH the line set). :func:`resolve` gives the program's
path for such a word, which the walker then judges as that program.
"""

from __future__ import annotations

from dcg import oslite as os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.shell.state import Vars
    from dcg.shell.words import Word


def hash_p(argv: list[str], env: Vars) -> None:
    """``hash -p PATH NAME…``: each NAME runs PATH."""
    if "-p" not in argv[1:]:
        return
    k = argv.index("-p", 1)
    if k + 1 >= len(argv):
        return
    for name in argv[k + 2 :]:
        env.state.hashes[name] = argv[k + 1]


def rename(argv: list[str], env: Vars, assigns: list[Word]) -> bool:
    """Put the program ``argv[0]`` really runs in its place (cheap when nothing binds);
    True when it is not known (`hash -p` on a branch that may have run: a computed word)."""
    word = argv[0]
    path_set = "PATH" in env or any(w.assign == "PATH" for w in assigns)
    if not (
        env.state.hashes
        or "BASH_CMDS" in env.state.arrays
        or ((path_set or "/" in word) and (env.state.moved or env.state.files))
    ):
        return False
    if word in env.state.hashes and env.state.hashes[word] is None:
        argv[0] = "$(…)"
        return True
    found = resolve(word, env, path_set)
    if found and not any(c in found for c in "$`(…"):  # a copy of `$(which x)`: selfline's
        argv[0] = found
    return False


def _program(path: str, env: Vars) -> str | None:
    """What a path made on the line runs: the program it is a copy of or a link to."""
    keys = (path, os.path.normpath(path))
    for key in keys:
        held = env.state.files.get(key)
        if held is not None and held.startswith("\x00copy:"):
            return held[len("\x00copy:") :]
        moved = env.state.moved.get(key)
        if moved:
            return moved.split("\x1f")[0]
    return None


def resolve(word: str, env: Vars, path_set: bool = False) -> str | None:
    """The program ``word`` runs when the line bound it to another (None: as written)."""
    if word in env.state.hashes:
        return env.state.hashes[word]
    from dcg.shell.params import get_array

    cmds = get_array(env, "BASH_CMDS")
    if cmds:
        for key, value in cmds:
            if key == word:
                return value
    if "/" in word:
        return _program(word, env)
    if not path_set:
        return None
    # A PATH set on the line (its value may be unknown: `PATH=$PWD/b:$PATH`) finds a link
    # or copy the line made under the command's name.
    made = [(k, True, v) for k, v in env.state.files.items()]
    made += [(k, False, v) for k, v in env.state.moved.items()]
    for path, written, held in made:
        if held and path.rpartition("/")[2] == word:
            program = _program(path, env)
            if program is not None:
                return program
            if written:  # a script written on the line: run by its path
                return path if "/" in path else "./" + path
    return None
