"""A script's cleanup of the paths it created itself is not a finding of ``dcg scan``.

Test fixtures and build scripts make a scratch directory, use it and delete it: ``mkdir
-p "$fixture"`` … ``rm -rf "$fixture"``, ``git clone URL "$work/data"`` … ``rm -rf
"$work/data"``, ``mkdir .e2e && node e2e.js .e2e && rm -rf .e2e``. The deletion destroys
nothing that was there before the script ran, so the hook's finding (it cannot see the
earlier lines of a file) is not one in the file.

What counts as created: the operands of a ``mkdir`` (PowerShell's ``md``), the directory
of a ``New-Item -ItemType Directory`` and the target directory of a ``git clone``, run
before the deletion, on the same line or on an earlier line of the same script (the scan
replays those lines as context, see ``ScriptState``; PowerShell's ``$v = Join-Path A B``
says what ``$v`` names). Only paths that name something of the script's own qualify:
relative paths inside the working directory (``build/e2e``, not ``.``, ``..`` or
``../x``) and paths under a variable or expression the scan cannot resolve with at least
one literal or freshly made component (``$here/fixtures/out``, ``(GetTempPath())/
([guid]::NewGuid())``), unless a home or configuration directory is named anywhere in
them. Absolute paths (``mkdir -p /usr/local/x``),
the home directory and a parent that ``mkdir -p`` made on the way are never counted:
they may have existed before. A deletion is excused only when every path it deletes is a
created path or lies inside one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from dcg.model import Match
    from dcg.shell.command import Command

# Variables that hold a home or configuration directory: a path under them may be the
# user's own, whatever the script did to it.
_USER_VARS = frozenset(
    {
        "HOME",
        "USERPROFILE",
        "APPDATA",
        "LOCALAPPDATA",
        "XDG_CONFIG_HOME",
        "XDG_DATA_HOME",
        "XDG_STATE_HOME",
        "XDG_CACHE_HOME",
        "XDG_RUNTIME_DIR",
    }
)
# Deleting commands whose operands are the paths they delete (PowerShell's Remove-Item
# reaches here as rm).
_DELETERS = frozenset({"rm", "rimraf", "del-cli", "trash"})


def _norm(path: str) -> str:
    path = path.replace("${", "$").replace("}", "") if "${" in path else path
    while path.startswith("./"):
        path = path[2:]
    return path.rstrip("/") or path


def _own(path: str) -> bool:
    """``path`` (normalised) names something of the script's own (see the module doc)."""
    upper = path.upper()
    if "~" in path or any(name in upper for name in _USER_VARS):
        return False
    if path.startswith("("):
        # A PowerShell expression ([IO.Path]::GetTempPath()): what it names is unknown,
        # so a literal part below it must say the path is the script's own.
        end = _closing(path)
        rest = path[end + 1 :] if end > 0 else ""
        return rest.startswith("/") and _literal(rest[1:])
    if not path or path in (".", "..") or path.startswith(("/", "../", "-")) or _glob(path):
        return False
    if path.startswith("$"):
        # A variable: the same, unless it is a home or configuration directory.
        head, sep, rest = path[1:].partition("/")
        name = head.removeprefix("env:").upper()
        return bool(sep) and name not in _USER_VARS and _literal(rest)
    return "$" not in path.split("/", 1)[0]


def _glob(path: str) -> bool:
    return "*" in path or "?" in path or "[" in path


def _closing(path: str) -> int:
    """The index of the parenthesis that closes the one ``path`` starts with (-1: none)."""
    depth = 0
    for i, c in enumerate(path):
        depth += (c == "(") - (c == ")")
        if depth == 0:
            return i
    return -1


def _literal(rest: str) -> bool:
    """``rest`` has a part that is a plain name or a freshly made unique one (a GUID, a
    random file name), and no glob outside such a part."""
    parts = [p for p in rest.split("/") if p not in ("", ".")]
    if ".." in parts or any(_glob(p) and not _fresh(p) for p in parts):
        return False
    return any(_fresh(p) or "$" not in p for p in parts)


# PowerShell expressions that make a new unique name: nothing of the user's has it yet.
_FRESH = ("newguid()", "new-guid", "getrandomfilename()", "gettempfilename()")


def _fresh(part: str) -> bool:
    lower = part.lower()
    return part.startswith("(") and any(f in lower for f in _FRESH)


def _expand(path: str, values: Mapping[str, str]) -> str:
    """``$NAME`` at the start of ``path`` replaced by the script's plain value for it."""
    for _ in range(4):
        if not path.startswith("$"):
            break
        name, sep, rest = path[1:].partition("/")
        if name not in values:
            break
        path = _norm(values[name]) + sep + rest
    return path


def created(command: Command, values: Mapping[str, str]) -> list[str]:
    """The paths ``command`` creates (mkdir operands, a git clone's directory) that are
    the script's own; ``values``: the plain assignments the script made before."""
    argv = list(command.argv)
    if not argv:
        return []
    name = argv[0].rsplit("/", 1)[-1]
    if name in ("new-item", "ni"):
        return [p for p in _new_item(argv[1:]) if _own(_expand(p, values))]
    if name in ("mkdir", "md"):
        out: list[str] = []
        skip = False
        for word in argv[1:]:
            if skip:
                skip = False
            elif word in ("-m", "--mode", "--context"):
                skip = True
            elif not word.startswith("-"):
                out.append(_norm(word))
        return [p for p in out if _own(_expand(p, values))]
    if name == "git" and "clone" in argv[1:]:
        rest = [w for w in argv[argv.index("clone") + 1 :] if not w.startswith("-")]
        # Options with a value (--depth 1, -b main, -o origin) leave the value behind:
        # the directory is the last operand only when there are two after the URL's.
        if len(rest) >= 2 and "://" not in rest[-1] and "@" not in rest[-1]:
            path = _norm(rest[-1])
            return [path] if _own(_expand(path, values)) else []
    return []


def _new_item(args: list[str]) -> list[str]:
    """The directory PowerShell's ``New-Item -ItemType Directory`` makes (none for a file)."""
    values: dict[str, str] = {}
    positional: list[str] = []
    it = iter(args)
    for word in it:
        if word.startswith("-"):
            key, colon, value = word[1:].lower().partition(":")
            values[key] = value if colon else ("" if key == "force" else next(it, ""))
        else:
            positional.append(word)
    kind = values.get("itemtype", values.get("type", values.get("it", ""))).lower()
    if not kind or not "directory".startswith(kind):
        return []
    where = values.get("path", positional[0] if positional else "")
    name = values.get("name", "")
    if not where and not name:
        return []
    path = f"{where}/{name}" if where and name else where or name
    return [_norm(path.strip("'\""))]


def _deleted(command: Command) -> list[str] | None:
    """The paths a deleting command deletes; None when it is not one such command."""
    argv = list(command.argv)
    if not argv or argv[0].rsplit("/", 1)[-1] not in _DELETERS:
        return None
    operands = [_norm(w) for w in argv[1:] if not w.startswith("-")]
    return operands or None


def is_scratch(
    match: Match, commands: Sequence[Command], values: Mapping[str, str] | None = None
) -> bool:
    """``match`` deletes only paths that commands before it (``commands``, in order,
    the line and its replayed context) created; ``values``: the script's plain
    assignments (``fixture="$here/out"``), which say what a bare ``$fixture`` names."""
    if match.pack.id != "core.filesystem":
        return False
    targets = _deleted(match.command)
    if targets is None:
        return False
    made: set[str] = set()
    for command in commands:
        if command is match.command:
            break
        made.update(created(command, values or {}))
    else:
        return False
    return all(
        ".." not in t.split("/") and any(t == m or t.startswith(m + "/") for m in made)
        for t in targets
    )


def ps_replayed(line: str) -> bool:
    """A PowerShell statement later lines depend on: ``$name = …`` or a ``New-Item``,
    ``ni``, ``mkdir``, ``md`` (one line, nothing else on it but ``| Out-Null``)."""
    head, bar, tail = line.partition("|")
    if bar and tail.strip().lower() in ("out-null", "out-default"):
        line = head.strip()
    if "\n" in line or ";" in line or "|" in line:
        return False
    if _ps_assignment(line) is not None:
        return True
    first = line.split(None, 1)[0].lower() if line.strip() else ""
    return first in ("new-item", "ni", "mkdir", "md")


def _ps_assignment(line: str) -> tuple[str, str] | None:
    if not line.startswith("$"):
        return None
    name, eq, value = line[1:].partition("=")
    name = name.strip()
    if not eq or value.startswith("=") or not name.replace("_", "a").isalnum():
        return None
    return name, value.strip()


def ps_values(lines: Sequence[str]) -> dict[str, str]:
    """What PowerShell assignments among ``lines`` set, as paths: a quoted string, or
    ``Join-Path PARENT CHILD`` as ``PARENT/CHILD`` (a value of any other form is unknown)."""
    out: dict[str, str] = {}
    for line in lines:
        got = _ps_assignment(line)
        if got is None:
            continue
        name, value = got
        words = _ps_words(value)
        if len(words) == 1 and value[:1] in "'\"" and value[-1:] == value[:1]:
            out[name] = value[1:-1]
        elif len(words) == 3 and words[0].lower() == "join-path":
            out[name] = "/".join(w.strip("'\"") for w in words[1:])
        else:
            out.pop(name, None)
    return out


def _ps_words(text: str) -> list[str]:
    """Words of a PowerShell expression, a parenthesised or quoted part kept whole."""
    words: list[str] = []
    depth, quote, start = 0, "", 0
    for i, c in enumerate(text + " "):
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == "(":
            depth += 1
        elif c == ")":
            depth = max(0, depth - 1)
        elif c in " \t" and depth == 0:
            if text[start:i]:
                words.append(text[start:i])
            start = i + 1
    return words
