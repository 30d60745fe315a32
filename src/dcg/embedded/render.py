"""Turn analysed values into shell text that the shell parser re-parses and judges."""

from __future__ import annotations

from dcg.embedded.values import DYN, ENV, ENV_END, as_str

# What a placeholder for an unknown piece reads as: a relative path nobody knows, so a
# recursive deletion of it is judged high rather than critical.
DYNAMIC_WORD = "'<dynamic>'"

_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-")


def _segments(s: str) -> list[tuple[str, str]]:
    """Split ``s`` into ("lit", text), ("env", name) and ("dyn", "") segments."""
    out: list[tuple[str, str]] = []
    buf: list[str] = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c == ENV:
            end = s.find(ENV_END, i)
            end = n if end < 0 else end
            if buf:
                out.append(("lit", "".join(buf)))
                buf = []
            out.append(("env", s[i + 1 : end]))
            i = end + 1
            continue
        if c == DYN:
            if buf:
                out.append(("lit", "".join(buf)))
                buf = []
            out.append(("dyn", ""))
        elif c != ENV_END:
            buf.append(c)
        i += 1
    if buf or not out:
        out.append(("lit", "".join(buf)))
    return out


def word(s: str, *, always: bool = False) -> str:
    """``s`` as one shell word: literal text single-quoted (when needed or ``always``)."""
    parts = []
    for kind, val in _segments(s):
        if kind == "env":
            parts.append(f'"${val}"')
        elif kind == "dyn":
            parts.append(DYNAMIC_WORD)
        elif always or not val or not set(val) <= _SAFE:
            parts.append("'" + val.replace("'", "'\\''") + "'")
        else:
            parts.append(val)
    return "".join(parts)


def shell_text(s: str) -> str:
    """``s`` as shell code: literal text verbatim, placeholders as shell expansions."""
    parts = []
    for kind, val in _segments(s):
        if kind == "env":
            parts.append("${" + val + "}")
        elif kind == "dyn":
            parts.append(DYNAMIC_WORD)
        else:
            parts.append(val)
    return "".join(parts)


def argv_line(argv: list[object]) -> str:
    return " ".join(word(as_str(w)) for w in argv)


def command_line(v: object) -> str:
    """A command given as a string (shell code) or a list (argv) as one shell line."""
    if isinstance(v, list):
        return argv_line(v)
    return shell_text(as_str(v))


def rm_line(tool: str, paths: list[object]) -> str:
    return f"{tool} -- " + " ".join(word(as_str(p), always=True) for p in paths)
