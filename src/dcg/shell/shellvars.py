"""The walker's variable table beyond plain variables: cd, declarations, "$@".

Keys that start with a NUL are dcg's own (no shell variable can have one).
"""

from __future__ import annotations

# The directory `cd`/`pushd` moved to earlier on the line, kept in the variable table
# (dcg.selfguard resolves it against the payload cwd); UNKNOWN when it cannot be known.
CWD = "\x00cwd"
UNKNOWN = "\x00?"
CHDIR = frozenset(("cd", "pushd", "popd"))


def home_only(word: str) -> bool:
    """`$HOME/…` with no other expansion: dcg.selfguard knows what HOME is."""
    for prefix in ("$HOME", "${HOME}"):
        if word == prefix or word.startswith(prefix + "/"):
            return "$" not in word[len(prefix) :] and "`" not in word
    return False


def chdir(argv: list[str], dyns: list[bool], env: dict[str, str | None]) -> None:
    args = [(a, d) for a, d in zip(argv[1:], dyns[1:], strict=True) if not a.startswith("-")]
    old = env.get(CWD)
    if args and args[0][1] and home_only(args[0][0]):
        args[0] = (args[0][0], False)
    if argv[0] == "popd" or any(a == "-" for a in argv[1:]) or (args and args[0][1]):
        env[CWD] = UNKNOWN
        return
    target = args[0][0] if args else "~"
    if old == UNKNOWN and not target.startswith(("/", "~")):
        return
    if old is None or target.startswith(("/", "~", "$HOME")):
        env[CWD] = target
    else:
        env[CWD] = old.rstrip("/") + "/" + target


POSITIONAL = "\x00@"


def set_positional(env: dict[str, str | None], args: list[str]) -> None:
    """Remember "$@" / "$1"… (after `set -- ARGS` or for `sh -c SCRIPT NAME ARGS`)."""
    env[POSITIONAL] = " ".join(args)
    for k in range(1, 10):
        env[POSITIONAL + str(k)] = args[k - 1] if k <= len(args) else ""


def declare(argv: list[str], dyns: list[bool], env: dict[str, str | None]) -> None:
    for a, dyn in zip(argv[1:], dyns[1:], strict=True):
        name, eq, value = a.partition("=")
        if name.startswith("-") or not name:
            continue
        env[name] = None if dyn or not eq or argv[0] == "read" else value
