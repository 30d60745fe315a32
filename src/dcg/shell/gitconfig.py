"""Git's config files read the way git reads them: where they are, their syntax, includes.

Only what the rules need: aliases, push, gc and clean settings. The files are the
system's (``/etc/gitconfig`` or ``$GIT_CONFIG_SYSTEM``), the repository's (``.git/config``
found upwards from the directory the command runs in, ``commondir`` of a worktree, or
``$GIT_DIR``), the user's (``~/.gitconfig`` and ``$XDG_CONFIG_HOME/git/config``, or
``$GIT_CONFIG_GLOBAL``; ``HOME`` as the command sees it), ``$GIT_CONFIG``, the files
``-c include.path=…`` names, each as written earlier on the line when it was, and what
they include (``include.path`` and every
``includeIf.*.path``, whether its condition holds or not: stricter, never milder). Reading
is bounded (files, size, include depth) and costs nothing unless a git command needs it.
"""

from __future__ import annotations

from dcg import oslite as os
from dcg.shell.limits import cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

MAX_FILES = 16
MAX_BYTES = 256 * 1024
MAX_INCLUDE_DEPTH = 8

_ESCAPES = {"n": "\n", "t": "\t", "b": "\b", '"': '"', "\\": "\\"}


def parse(text: str) -> list[tuple[str, str]]:
    """``(key, value)`` pairs of a config file, keys as ``section[.subsection].name``.

    Section and variable names are lower-cased (git compares them case-insensitively), a
    subsection keeps its case; a variable without ``=`` is ``"true"``. Values lose
    comments, surrounding whitespace and quotes; escapes and line continuations apply.
    """
    out: list[tuple[str, str]] = []
    section = ""
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in " \t\r\n":
            i += 1
        elif c in "#;":
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c == "[":
            section, i = _header(text, i + 1)
        elif c.isalpha():
            j = i
            while j < n and (text[j].isalnum() or text[j] == "-"):
                j += 1
            name = text[i:j].lower()
            while j < n and text[j] in " \t":
                j += 1
            if j < n and text[j] == "=":
                value, i = _value(text, j + 1)
            elif j >= n or text[j] in "\r\n#;":
                value, i = "true", j
            else:
                j = text.find("\n", j)  # a line git would reject: skip it
                i = n if j < 0 else j
                continue
            if section:
                out.append((f"{section}.{name}", value))
        else:
            j = text.find("\n", i)  # a line git would reject: skip it
            i = n if j < 0 else j
    return out


def _header(text: str, i: int) -> tuple[str, int]:
    """``[section]``, ``[section "sub"]`` or ``[section.sub]`` from after the bracket."""
    n = len(text)
    j = i
    while j < n and text[j] not in ' \t]"\n':
        j += 1
    name = text[i:j]
    section, dot, legacy = name.partition(".")
    key = section.lower() + (("." + legacy.lower()) if dot else "")
    while j < n and text[j] in " \t":
        j += 1
    if j < n and text[j] == '"':
        j += 1
        sub: list[str] = []
        while j < n and text[j] not in '"\n':
            if text[j] == "\\" and j + 1 < n:
                j += 1
            sub.append(text[j])
            j += 1
        key += "." + "".join(sub)
        j += 1
    close = text.find("]", j)
    line_end = text.find("\n", j)
    if close < 0 or (0 <= line_end < close):
        return "", n if line_end < 0 else line_end
    return key, close + 1


def _value(text: str, i: int) -> tuple[str, int]:
    n = len(text)
    buf: list[str] = []
    pending = ""  # whitespace kept only if more value follows
    quoted = False
    while i < n:
        c = text[i]
        if c == "\n" and not quoted:
            break
        if c == "\\" and i + 1 < n:
            nxt = text[i + 1]
            i += 2
            if nxt == "\n" or (nxt == "\r" and text[i : i + 1] == "\n"):
                i += nxt == "\r"
                continue
            if buf or pending:
                buf.append(pending)
                pending = ""
            buf.append(_ESCAPES.get(nxt, nxt))
            continue
        i += 1
        if c == '"':
            quoted = not quoted
            buf.append(pending)
            pending = ""
        elif not quoted and c in "#;":
            j = text.find("\n", i)
            i = n if j < 0 else j
            break
        elif not quoted and c in " \t\r":
            if buf:
                pending += c
        else:
            buf.append(pending)
            pending = ""
            buf.append(c)
    return "".join(buf), i


def _read(path: str) -> str | None:
    """A regular file's text, bounded; never waits (a FIFO named by an include is skipped)."""
    from _stat import S_ISREG

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except (OSError, ValueError):
        return None
    try:
        if not S_ISREG(os.fstat(fd).st_mode):
            return None
        data = os.read(fd, MAX_BYTES)
    except OSError:
        return None
    finally:
        os.close(fd)
    return data.decode("utf-8", "replace")


def _unreadable(path: str) -> bool:
    """A file that exists but could not be read (permissions, a FIFO, not a file)."""
    return os.path.lexists(path) and not os.path.isdir(path)


def _expand_user(path: str, home: str) -> str:
    if path == "~" or path.startswith("~/"):
        return home + path[1:]
    return path


def load(
    paths: list[str],
    home: str,
    texts: Mapping[str, str | None] | None = None,
    unknown: list[str] | None = None,
) -> list[tuple[str, str]]:
    """The entries of the files in ``paths`` (in order) with their includes, bounded.

    ``texts`` holds what files written earlier on the line will hold (by normalised path;
    None: text dcg cannot know); a file whose text cannot be known, written so or on disk
    but unreadable, is added to ``unknown``.
    """
    memo_key = (tuple(paths), home) if not texts else None
    if memo_key is not None and memo_key in _LOADED:
        out_memo, unknown_memo = _LOADED[memo_key]
        if unknown is not None:
            unknown.extend(unknown_memo)
        return out_memo  # shared: callers read it, never change it
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    missing: list[str] = [] if unknown is None else unknown
    first = len(missing)

    def visit(path: str, depth: int) -> None:
        if depth > MAX_INCLUDE_DEPTH or len(seen) >= MAX_FILES or path in seen:
            return
        seen.add(path)
        if texts is not None and path in texts:
            text = texts[path]
            if text is None:
                missing.append(path)
        else:
            text = _read(path)
            if text is None and _unreadable(path):
                missing.append(path)
        if text is None:
            return
        for key, value in parse(text):
            out.append((key, value))
            if key == "include.path" or (key.startswith("includeif.") and key.endswith(".path")):
                if "$" in value or "`" in value:
                    # git expands no variable: the shell did, when it wrote the file
                    missing.append(value)
                    continue
                target = _expand_user(value, home)
                if not os.path.isabs(target):
                    target = os.path.join(os.path.dirname(path), target)
                visit(os.path.normpath(target), depth + 1)

    for path in paths:
        visit(path, 0)
    if memo_key is not None:  # the files cannot change while one line is judged
        _LOADED[memo_key] = (out, missing[first:])
    return out


# load()'s results for files read from disk, per (paths, home), in this process.
_LOADED: dict[tuple[tuple[str, ...], str], tuple[list[tuple[str, str]], list[str]]] = cache()


def repository_config(
    start: str, git_dir: str | None = None, texts: Mapping[str, str | None] | None = None
) -> list[str]:
    """The repository's config file(s) for a command run in ``start`` (a ``.git/config``
    in ``texts``, written on the line, counts as found)."""
    if texts:
        return _repository_config(start, git_dir, texts)
    key = (start, git_dir)
    if key not in _REPOS:
        _REPOS[key] = _repository_config(start, git_dir, None)
    return list(_REPOS[key])


_REPOS: dict[tuple[str, str | None], list[str]] = cache()  # repository_config for this line


def _repository_config(
    start: str, git_dir: str | None, texts: Mapping[str, str | None] | None
) -> list[str]:
    if git_dir:
        base = git_dir if os.path.isabs(git_dir) else os.path.join(start, git_dir)
        return _with_common(os.path.normpath(base))
    here = os.path.normpath(start)
    for _ in range(64):
        dot = os.path.join(here, ".git")
        if os.path.isdir(dot) or (texts is not None and os.path.join(dot, "config") in texts):
            return _with_common(dot)
        if os.path.isfile(dot):
            text = _read(dot) or ""
            if text.startswith("gitdir:"):
                target = text[7:].strip()
                if not os.path.isabs(target):
                    target = os.path.join(here, target)
                return _with_common(os.path.normpath(target))
        parent = os.path.dirname(here)
        if parent == here:
            break
        here = parent
    return []


def _with_common(git_dir: str) -> list[str]:
    """A linked worktree's git dir names the main one in ``commondir``; both may hold config."""
    paths = [os.path.join(git_dir, "config")]
    common = _read(os.path.join(git_dir, "commondir"))
    if common and common.strip():
        target = common.strip()
        if not os.path.isabs(target):
            target = os.path.join(git_dir, target)
        paths.insert(0, os.path.join(os.path.normpath(target), "config"))
    # extensions.worktreeConfig=true (in the common config) makes git read config.worktree
    # of this worktree's git dir after the rest.
    worktree = os.path.join(git_dir, "config.worktree")
    if os.path.lexists(worktree) and any(
        k == "extensions.worktreeconfig" and v.strip().lower() in ("true", "yes", "on", "1", "")
        for k, v in parse(_read(paths[0]) or "")
    ):
        paths.append(worktree)
    return paths


def user_config(environ: Mapping[str, str | None]) -> tuple[list[str], str]:
    """The system and user config files git reads, in its order (system, XDG,
    ~/.gitconfig; ``GIT_CONFIG_SYSTEM``/``GIT_CONFIG_GLOBAL`` replace them), and the home dir.
    ``GIT_CONFIG`` (which only ``git config`` reads) is added too: stricter, never milder."""
    home = environ.get("HOME") or os.path.expanduser("~")
    xdg = environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    paths = [os.path.join(xdg, "git", "config"), os.path.join(home, ".gitconfig")]
    if environ.get("GIT_CONFIG_GLOBAL"):
        paths = [environ["GIT_CONFIG_GLOBAL"] or ""]
    nosystem = (environ.get("GIT_CONFIG_NOSYSTEM") or "").lower() not in ("", "0", "false", "no")
    if not nosystem:
        paths.insert(0, environ.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig")
    if environ.get("GIT_CONFIG"):
        paths.append(environ["GIT_CONFIG"] or "")
    return paths, home


def entries(
    start: str | None,
    git_dir: str | None = None,
    environ: Mapping[str, str | None] | None = None,
    texts: Mapping[str, str | None] | None = None,
    unknown: list[str] | None = None,
    includes: tuple[str, ...] = (),
) -> list[tuple[str, str]]:
    """Every config entry git would see for a command run in ``start`` (None: user only),
    with ``environ`` the command's environment, ``texts`` the files written on the line
    and ``includes`` the files ``-c include.path=…`` names."""
    env: Mapping[str, str | None] = os.environ if environ is None else environ
    paths, home = user_config(env)
    if start is not None or git_dir:
        paths += repository_config(start or ".", git_dir or env.get("GIT_DIR"), texts)
    paths += [_expand_user(p, home) for p in includes]
    base = start or "."
    paths = [os.path.normpath(p if os.path.isabs(p) else os.path.join(base, p)) for p in paths]
    return load(paths, home, texts, unknown)
