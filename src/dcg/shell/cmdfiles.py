"""Commands a tool reads from a file: ``sed -f``, ``tmux source-file``/``-f``, sqlite3 scripts.

``echo '1e rm -rf src' > x.sed; sed -f x.sed f`` runs ``rm -rf src``; so do a tmux config
with ``run-shell`` and a SQL script with ``.shell``, given to sqlite3 as ``< x.sql``,
``-init x.sql`` or ``.read x.sql``. The file's text (written earlier on the line, or on
disk, :func:`dcg.shell.runtext.file_text`) is judged like the same commands given inline.
"""

from __future__ import annotations

from dcg.shell import runtext

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from dcg.shell.command import Command
    from dcg.shell.runtext import Ctx, Walker
    from dcg.shell.unwrap import Work

_MAX_READS = 8  # .read inside .read: files followed at most


def read(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """Queue the shell commands of the files ``work``'s tool reads its commands from."""
    name = work.argv[0]
    if name == "tmux":
        _tmux(work, ctx, out, walker)
    elif name == "sqlite3":
        _sqlite(work, ctx, out, walker)
    else:
        _sed(work, ctx, out, walker)


def _text(path: str, ctx: Ctx, out: list[Command], walker: Walker) -> str | None:
    return runtext.file_text(path, ctx, out, walker)[0] if path else None


def _sed(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    from dcg.shell import edits

    argv = work.argv
    files: list[str] = []
    for k, a in enumerate(argv[1:], 1):
        if a == "--":
            break
        if a.startswith("--file="):
            files.append(a.partition("=")[2])
        elif a == "--file" or (a[:1] == "-" and a[1:2] != "-" and a.endswith("f")):
            files += argv[k + 1 : k + 2]
        elif a[:1] == "-" and a[1:2] != "-" and "f" in a:
            files.append(a[a.index("f") + 1 :])  # -fSCRIPT
    extended = any(a in ("-E", "-r", "--regexp-extended") for a in argv)
    for path in files:
        text = _text(path, ctx, out, walker)
        if not text or "e" not in text:
            continue
        runs = edits.sed_runs([text], extended)
        if runs is None:
            work.opaque = work.opaque or f"sed -f {path} runs text taken from its input"
        for cmd in runs or []:
            work.payloads.append(("sh", f"sed -f {path}", cmd, []))


def _tmux(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    from dcg.shell.detached import tmux_commands

    argv = work.argv
    files: list[str] = []
    for k, a in enumerate(argv[1:], 1):
        if a == "-f" or (a in ("source-file", "source") and k + 1 < len(argv)):
            rest = [b for b in argv[k + 1 :] if not b.startswith("-")]
            files += rest[:1]
    for path in files:
        text = _text(path, ctx, out, walker)
        if text:
            tmux_commands(work, text)


def _sqlite(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    from dcg.shell.escapes import sqlite_text

    argv = work.argv
    texts = [a for a in argv[1:] if ".read" in a]
    stdin = work.stdin if work.stdin is not None else work.fed
    texts += [stdin] if stdin and ".read" in stdin else []
    paths = [argv[k + 1] for k in range(1, len(argv) - 1) if argv[k] == "-init"]
    paths += [work.infile] if work.infile is not None else []
    for text in texts:
        paths += _reads(text)
    seen: set[str] = set()
    while paths and len(seen) < _MAX_READS:
        path = paths.pop(0)
        if path in seen:
            continue
        seen.add(path)
        body = _text(path, ctx, out, walker)
        if body:
            sqlite_text(work, body)
            paths += _reads(body)


def _reads(text: str) -> list[str]:
    """The files ``.read FILE`` lines of a sqlite3 script name (not ``.read |cmd``)."""
    out: list[str] = []
    for line in text.replace(";", "\n").split("\n"):
        word, _, rest = line.strip().partition(" ")
        target = rest.strip().strip("'\"")
        if word == ".read" and target and not target.startswith("|"):
            out.append(target)
    return out
