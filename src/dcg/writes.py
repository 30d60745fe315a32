"""Which paths a parsed simple command writes, moves, chmods or deletes (for dcg.selfguard)."""

from __future__ import annotations

from dcg.oslite import path as posixpath

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.shell.command import Command

# Programs that remove, move or disable every operand, and those that write every operand.
_REMOVERS = frozenset(("rm", "rmdir", "unlink", "shred", "mv", "srm", "trash", "gio"))
_MODE = frozenset(("chmod", "chown", "chgrp", "chattr", "setfacl"))
_WRITERS = frozenset(("tee", "touch", "truncate"))
_COPIERS = frozenset(("cp", "install", "ln", "rsync", "scp"))
# Options naming a file or directory the program writes (tar -C DIR extracts into DIR).
_OUTPUT_OPTIONS = {
    "tar": ("-C", "--directory"),
    "unzip": ("-d",),
    "curl": ("-o", "--output"),
    "wget": ("-O", "--output-document", "-P", "--directory-prefix"),
    "git": ("--output",),
}
_EDITORS = frozenset(("ed", "ex", "vi", "vim", "nvim", "nano", "emacs", "pico", "micro"))
# Marks a directory something is written into: it reaches what is inside, but a directory
# as wide as HOME or / is not taken for one of dcg's (`cp -r x ~/`).
INTO = 2
_FIND_ACTIONS = frozenset(("-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint"))
_MODE_CHARS = frozenset("rwxXstugoa,=+-")


def operands(argv: tuple[str, ...] | list[str], start: int = 1) -> list[str]:
    """The non-option words of ``argv`` from ``start`` on (everything after ``--``)."""
    out: list[str] = []
    ended = False
    for a in argv[start:]:
        if not ended and a == "--":
            ended = True
        elif ended or not a.startswith("-") or a == "-":
            out.append(a)
    return out


def targets(command: Command) -> list[tuple[str, int]]:
    """``(path, how)`` for every path ``command`` writes, moves, chmods or deletes.

    ``how`` is False for a write of the path itself, True for a removal (which reaches
    everything below it) and :data:`INTO` for a write into a directory.
    """
    argv = command.argv
    found: list[tuple[str, int]] = [
        (t, False) for op, t in command.redirects if ">" in op and t and t[0] != "&"
    ]
    if not argv:
        return found
    name = argv[0]
    ops = operands(argv)
    if name in _REMOVERS:
        found += [(a, True) for a in ops]
        if name == "mv" and len(ops) >= 2:
            found += [(posixpath.join(ops[-1], posixpath.basename(s)), False) for s in ops[:-1]]
    elif name in _MODE:
        # `chmod -x FILE`: the mode looks like an option and is not among the operands.
        dash_mode = name == "chmod" and any(
            a[:1] == "-" and len(a) > 1 and set(a[1:]) <= _MODE_CHARS for a in argv[1:]
        )
        found += [(a, True) for a in (ops if dash_mode else ops[1:])]
    elif name in _WRITERS:
        found += [(a, False) for a in ops]
    elif name in _COPIERS and len(ops) >= 2:
        dest = ops[-1]
        # A recursive copy into a directory may overwrite anything inside it.
        recursive = name == "rsync" or any(
            a[:1] == "-" and a[1:2] != "-" and ("r" in a or "R" in a or "a" in a) for a in argv[1:]
        )
        found.append((dest, INTO if recursive else name == "ln"))
        found += [(posixpath.join(dest, posixpath.basename(s)), False) for s in ops[:-1]]
    elif name == "find" and any(a in _FIND_ACTIONS for a in argv):
        for a in argv[1:]:
            if a.startswith(("-", "(", "!")):
                break
            found.append((a, True))
    elif name in _OUTPUT_OPTIONS:
        found += [(v, INTO) for v in _option_values(argv, _OUTPUT_OPTIONS[name])]
    elif name in _EDITORS or name == "patch":
        found += [(a, False) for a in ops]
    elif name == "dd":
        found += [(a[3:], False) for a in argv[1:] if a.startswith("of=")]
    elif name in ("sed", "gsed", "perl") and _in_place(argv):
        found += [(a, False) for a in _script_files(argv)]
    return found


def _option_values(argv: tuple[str, ...], names: tuple[str, ...]) -> list[str]:
    out = []
    for k, a in enumerate(argv):
        for n in names:
            if a == n and k + 1 < len(argv):
                out.append(argv[k + 1])
            elif a.startswith(n + "=") or (len(n) == 2 and a.startswith(n) and len(a) > 2):
                out.append(a[len(n) + (a[len(n) : len(n) + 1] == "=") :])
    return out


def _in_place(argv: tuple[str, ...]) -> bool:
    """``sed -i``, ``-Ei``, ``-i.bak``, ``--in-place``, ``perl -pi``: edits its files."""
    for a in argv[1:]:
        if a.startswith("--in-place") or a == "-i":
            return True
        if a.startswith("-") and not a.startswith("--"):
            for ch in a[1:]:
                if ch == "i":
                    return True
                if ch in ("eflE" if argv[0] == "perl" else "efl"):
                    break
    return False


def _script_files(argv: tuple[str, ...]) -> list[str]:
    """The file operands of sed/perl: after the options, the script unless -e/-f gave one."""
    files: list[str] = []
    script_given = False
    i = 1
    while i < len(argv):
        a = argv[i]
        if a in ("-e", "-f", "--expression", "--file", "-E") and not (
            a == "-E" and argv[0] != "perl"
        ):
            script_given = True
            i += 2
            continue
        if a.startswith(("--expression=", "--file=")):
            script_given = True
        elif a.startswith("-") and len(a) > 1:
            for k, ch in enumerate(a[1:], 1):
                if ch == "i":
                    break
                if ch in ("ef" if argv[0] != "perl" else "eE"):
                    script_given = True
                    i += a[k + 1 :] == ""
                    break
        else:
            files.append(a)
        i += 1
    return files if script_given else files[1:]
