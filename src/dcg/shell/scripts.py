"""Script files a command runs: which file, read from disk (bounded) or from this line's writes.

``sh FILE``, ``bash FILE``, ``./FILE`` / ``dir/FILE`` (shebang decides the language; no
shebang is sh, as bash runs it), ``source FILE`` / ``. FILE``, ``bash < FILE``,
``sh -s < FILE``, ``cat FILE | sh`` and ``python3 FILE`` / ``node FILE`` … name a file whose
text runs. :func:`target` says which file and in what language; :class:`Files` reads it
(resolved against the payload's cwd and any ``cd`` earlier on the line, at most
``MAX_SCRIPT`` bytes, regular files only, never blocking) and says whether its text
mentions any enabled pack's keyword. Nothing here touches the file system unless the
walker found a command that runs a file.
"""

from __future__ import annotations

from dcg import oslite as os
from dcg.shell.limits import TooComplex, Unjudged
from dcg.shell.payloads import SHELLS
from dcg.shell.unwrap import normalize

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from dcg.shell.limits import Budget, Files
    from dcg.shell.unwrap import Work
    from dcg.shell.words import Token

MAX_SCRIPT = 256 * 1024  # bytes of one script file read; larger ones are opaque
MAX_FILES = 32  # files read for one command line
TOO_BIG = "\x00too-big"
# A file written earlier on the line with text fetched from the network (curl -o x.sh).
FETCHED = "\x00fetched"
_INTERPRETERS = {"node": "javascript", "nodejs": "javascript", "bun": "javascript",
                 "tsx": "javascript", "ts-node": "javascript", "deno": "javascript",
                 "ruby": "ruby", "perl": "perl", "php": "php"}  # fmt: skip
_SHEBANG = {**{s: "sh" for s in SHELLS if s != "fish"}, **_INTERPRETERS}


def interpreter_lang(name: str) -> str | None:
    """The language of an interpreter program name (``python3.12`` is python)."""
    if name.startswith("python") and all(c in "0123456789." for c in name[6:]):
        return "python"
    return _SHEBANG.get(name)


def where(files: Files, path: str, here: str | None) -> str | None:
    """The absolute path of ``path`` for a command run in ``here`` (the walker's cd)."""
    if "$" in path:
        path = known(path) or ""
        if not path:
            return None
    if path.startswith("~/") or path == "~":
        from dcg.targets import home

        return os.path.normpath(home() + path[1:])
    if path.startswith("/"):
        return os.path.normpath(path)
    base = files.cwd
    if here and here != "\x00?":
        if here.startswith("~"):
            from dcg.targets import home

            here = home() + here[1:]
        base = os.path.join(base, here) if base else here
    if not base.startswith("/"):
        return None
    return os.path.normpath(os.path.join(base, path))


# Installed programs, not scripts an agent wrote: their source (a Python CLI's own eval,
# a wrapper's exec "$@") is not what the line asks for, and reading it only misleads.
_SYSTEM = ("/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/opt/", "/nix/store/", "/snap/")
_INSTALLED_PARTS = ("/site-packages/", "/dist-packages/", "/node_modules/")


def installed(path: str) -> bool:
    """``path`` is a program installed on the machine (system dirs, a directory on PATH,
    a package tree) rather than a script of the project or the line."""
    if path.startswith(_SYSTEM) or any(part in path for part in _INSTALLED_PARTS):
        return True
    directory = os.path.dirname(path)
    return any(
        d and os.path.normpath(d) == directory
        for d in os.environ.get("PATH", "").split(os.pathsep)
        if d not in (".", "")
    )


def read(files: Files, path: str) -> str | None:
    """The text of a regular file (``TOO_BIG`` past the bound, None if unreadable)."""
    if path in files.seen:
        return files.seen[path]
    text: str | None = None
    if files.read_count < MAX_FILES:
        files.read_count += 1
        text = _read(path)
        if text is not None and text != TOO_BIG:
            from dcg.shell.limits import earn

            earn(files, len(text))
    files.seen[path] = text
    return text


def _read(path: str) -> str | None:
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_SCRIPT:
            chunk = os.read(fd, MAX_SCRIPT + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError:
        return None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if b"\0" in data[:8192]:
        return None  # a binary (an ELF executable), not a script, however large
    if len(data) > MAX_SCRIPT:
        return TOO_BIG
    return data.decode("utf-8", "surrogateescape")


def shebang_lang(text: str) -> str | None:
    """The language a file runs as when executed: its shebang's, sh without one."""
    if not text.startswith("#!"):
        return "sh"
    words = text[2:].split("\n", 1)[0].split()
    if not words:
        return "sh"
    name = normalize(words[0])
    if name == "env":
        rest = [w for w in words[1:] if not w.startswith("-") and "=" not in w]
        name = normalize(rest[0]) if rest else ""
    return interpreter_lang(name)


def _shell_operand(argv: list[str]) -> tuple[int, bool]:
    """(index of the script operand or len(argv), whether it reads stdin) for sh/bash."""
    from dcg.shell.optgrammar import shell_noexec, shell_words

    i, letters, named, longs = shell_words(argv, 1)
    if shell_noexec(letters, named):
        return len(argv), False  # `bash -n script.sh` checks the script's syntax
    if "c" in letters or "s" in letters or any(a == "--command" for a, _ in longs):
        return len(argv), "c" not in letters
    return i, i >= len(argv) or argv[i - 1] == "-"


def fed_file(work: Work, path: str) -> bool:
    """The script is a ``{}`` find or xargs fills in, and the shell runs it (no ``-n``)."""
    if "{}" not in path:
        return False
    for a in work.argv[1:]:
        if a == "noexec" or (a[:1] == "-" and a[1:2] != "-" and "n" in a[1:]):
            return False
        if a == path or a == "--" or not a.startswith(("-", "+")):
            return True
    return True


def known(word: str) -> str | None:
    """``word`` with ``$HOME``-style variables the hook's environment knows expanded (the
    agent's shell has the same ones), None while a ``$`` is left: ``bash "$HOME/x.sh"``
    runs the same file as ``bash ~/x.sh``."""
    from dcg.selfpaths import expand

    out = expand(word)
    return None if "$" in out else out


def _static(work: Work, i: int) -> bool:
    """The word at ``i`` names one file dcg can find (literal, or variables it knows)."""
    if "{}" in work.argv[i]:  # a file find -exec or xargs -I puts there
        return False
    return not work.dyns[i] or known(work.argv[i]) is not None


COMPUTED = "?"  # target()'s language for a script named by a word dcg cannot expand
STDIN_PATHS = frozenset(("/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"))


def _redirected(work: Work) -> bool:
    """stdin is a file named by a ``<`` redirection (not a process substitution)."""
    return work.infile is not None and not work.infile.startswith("<(")


def target(work: Work, raw: str) -> tuple[str, str, int] | None:
    """``(language, path as written, index of its first argument)`` of the script file the
    command runs, or None; the language is :data:`COMPUTED` when the file is named by a
    word dcg cannot expand. ``raw`` is the command word before normalisation."""
    argv = work.argv
    name = argv[0]
    if work.dyns and work.dyns[0]:
        return None
    if name in SHELLS and name not in ("fish", "busybox"):
        i, stdin = _shell_operand(argv)
        first = len(argv)
        if i < len(argv) and argv[i] in STDIN_PATHS:  # `bash /dev/stdin < f` runs f
            stdin, first = True, i + 1
        elif i < len(argv):
            if not _static(work, i):
                return COMPUTED, argv[i], i + 1
            if argv[i].startswith(("<(", "/dev/")):
                return None
            return "sh", argv[i], i + 1
        if stdin and not work.piped and _redirected(work):
            return "sh", str(work.infile), first
        if stdin and work.piped and work.feed_files:
            return "sh", work.feed_files[0], first
        return None
    if name in ("source", "."):
        if len(argv) > 1 and argv[1] in STDIN_PATHS and _redirected(work):
            return "sh", str(work.infile), 2
        if len(argv) > 1 and not _static(work, 1):
            return COMPUTED, argv[1], 2
        if len(argv) > 1 and not argv[1].startswith(("<(", "/dev/")):
            return "sh", argv[1], 2
        return None
    lang = interpreter_lang(name)
    if lang is not None and lang != "sh":
        from dcg.shell.optgrammar import parse

        p = parse(lang, argv, 1 + (name == "deno" and argv[1:2] == ["run"]))  # deno run x.ts
        if p.code or p.module is not None or p.inert:
            return None  # inline code: the interpreter handler judged it
        if p.script is not None and p.script[1] in STDIN_PATHS:
            p.stdin = True
        if p.stdin and _redirected(work):
            return lang, str(work.infile), p.first  # `python3 - < x.py` runs x.py
        if p.script is not None and not p.stdin:
            i, path = p.script
            return (lang if argv[i] != path or _static(work, i) else COMPUTED), path, p.first
        return None
    if "/" in raw and not raw.endswith("/"):
        return "exec", raw, 1
    return None


def lex_lines(
    text: str, shown: str, first: int, budget: Budget, depth: int, files: Files | None
) -> tuple[list[tuple[int, list[Token]]], TooComplex | None]:
    """The script's logical lines, lexed. Reading project files (``files``), a bound
    reached while lexing ends the list there: the lines lexed are judged, the token count
    goes back to what it was, and the error is returned for the caller to raise once they
    are (:func:`dcg.shell.limits.bounded` then says the rest was not read)."""
    from dcg.extract.script import split
    from dcg.shell.lexer import lex

    lines: list[tuple[int, list[Token]]] = []
    spent = budget.tokens
    at = first
    try:
        for found in split(text, path=shown, source="shell", line=first):
            at = found.line
            lines.append((found.line, lex(found.text, budget, depth)))
    except TooComplex as exc:
        if files is None:
            raise
        # What the bound leaves unread must name no guarded tool: a script padded past
        # the bound to hide its `rm -rf` at the end is stopped, a long build is not.
        rest = "\n".join(text.split("\n")[max(at - first, 0) :])
        if files.wanted(rest):
            raise Unjudged(f"{exc}; the rest of {shown} is not judged") from None
        budget.tokens = spent
        return lines, exc
    return lines, None


# Reserved words after which a command (and so a `{` group) starts: in a body too, so that
# `if { a; } || { b; }; then` inside a function does not close it at the first `}`.
_COMMAND_START = frozenset(("{", "then", "do", "else", "elif", "if", "while", "until", "!"))


def split_functions(
    lines: list[tuple[int, list[Token]]],
) -> tuple[list[tuple[int, list[Token]]], dict[str, list[tuple[int, list[Token]]]]]:
    """The top-level tokens of a script, per line, and each function's body, per line.

    A function's body runs only when it is called, so a sourced library full of
    functions (nvm.sh) is judged by what it runs when sourced, and the body of
    ``cleanup() { … }`` when ``cleanup`` (or ``trap cleanup EXIT``) runs it.
    """
    top: list[tuple[int, list[Token]]] = []
    funcs: dict[str, list[tuple[int, list[Token]]]] = {}
    body: list[tuple[int, list[Token]]] | None = None
    depth = 0  # braces (or parentheses) open in the current body
    closer = "}"
    pending: str | None = None  # a function name whose body has not started yet
    cur_body: list[Token] = []
    for number, tokens in lines:
        cur: list[Token] = []
        cmd = True
        i, n = 0, len(tokens)
        while i < n:
            tok = tokens[i]
            kind, op, w, _ = tok
            i += 1
            word = w.plain() if (w is not None and kind == "w") else None
            if body is None and pending is None and cmd and word is not None:
                fname = _definition(word, tokens, i)
                if fname is not None:
                    pending, i = fname[0], fname[1]
                    continue
            if pending is not None and body is None:
                if kind == "o" and op == "\n":
                    continue
                if word == "{" or (kind == "o" and op == "("):
                    body = funcs[pending] = []
                    closer = "}" if word == "{" else ")"
                    depth = 1
                    cur_body = []
                    cmd = True
                    continue
                pending = None  # not a body we understand: judged as top-level code
            if body is not None:
                if closer == "}" and cmd and word in ("{", "}"):
                    depth += 1 if word == "{" else -1
                elif closer == ")" and kind == "o" and op in ("(", ")"):
                    depth += 1 if op == "(" else -1
                if depth == 0:
                    if cur_body:
                        body.append((number, cur_body))
                    body, pending, cur_body = None, None, []
                    cmd = True
                    continue
                cur_body.append(tok)
                cmd = kind == "o" or word in _COMMAND_START
                continue
            cur.append(tok)
            cmd = kind == "o" or word in _COMMAND_START
        if body is not None and cur_body:
            body.append((number, cur_body))
            cur_body = []
        if cur:
            top.append((number, cur))
    return top, funcs


def _definition(word: str, tokens: list[Token], i: int) -> tuple[str, int] | None:
    """``(name, index after the header)`` when ``word`` starts a function definition."""
    n = len(tokens)
    nxt = tokens[i][2] if i < n and tokens[i][0] == "w" else None
    if word == "function" and nxt is not None:
        fname = nxt.source()
        i += 1
        if i + 1 < n and tokens[i][:2] == ("o", "(") and tokens[i + 1][:2] == ("o", ")"):
            i += 2
        return fname, i
    if i + 1 < n and tokens[i][:2] == ("o", "(") and tokens[i + 1][:2] == ("o", ")"):
        return word, i + 2
    return None


def display(where: str, cwd: str) -> str:
    """The path as the reason names it: relative to the payload cwd when inside it."""
    if cwd and where.startswith(cwd.rstrip("/") + "/"):
        return "./" + where[len(cwd.rstrip("/")) + 1 :]
    return where


_OPENS = frozenset(("if", "while", "until", "for", "select", "case", "{"))
_CLOSES = frozenset(("fi", "done", "esac", "}"))
_AFTER_OPS = frozenset((";", "&&", "||", "|", "|&", "&", "(", ")", ";;", ";&", ";;&"))


def compounds(lines: list[tuple[int, list[Token]]]) -> list[tuple[int, list[Token]]]:
    """The lines with each compound command spanning several (``if … fi``, a loop, a
    ``case``, a ``{ … }`` group) joined into one, numbered by its first line: its
    branches are then walked as one construct (dcg.shell.flow, dcg.shell.conds)."""
    out: list[tuple[int, list[Token]]] = []
    depth = 0
    for number, tokens in lines:
        if depth > 0 and out:
            out[-1][1].append(("o", "\n", None, None))
            out[-1][1].extend(tokens)
        else:
            out.append((number, list(tokens)))
        cmd = True
        for kind, op, w, _ in tokens:
            if kind == "o":
                cmd = op in _AFTER_OPS
                continue
            word = w.plain() if (w is not None and kind == "w") else None
            if cmd and word in _OPENS:
                depth += 1
            elif cmd and word in _CLOSES:
                depth = max(depth - 1, 0)
            cmd = word in _COMMAND_START or (cmd and w is not None and w.assign is not None)
    return out
