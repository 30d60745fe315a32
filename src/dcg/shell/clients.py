"""Database clients' spellings of the code they run, rewritten to the form packs match.

``psql -c'DROP TABLE t'``, ``psql --command='DROP TABLE t'`` and ``mysql -e"…"`` hand the
client the same statement as ``psql -c 'DROP TABLE t'``; the option and its value become
two words here. SQL comments between keywords (``DROP/**/TABLE``, ``DROP -- x⏎TABLE``)
are blanked outside string literals, so ``DROP\\s+TABLE`` sees what the server parses.
"""

# client -> (short option letters that take code, long options that take code, SQL dialect:
# "" for none, "mysql" where `#` starts a comment, `--` needs a space after it and
# `/*! … */` is code the server runs, "sql" for the standard comments).
_CODE: dict[str, tuple[str, tuple[str, ...], str]] = {
    "psql": ("c", ("--command",), "sql"),
    "mysql": ("e", ("--execute",), "mysql"),
    "mariadb": ("e", ("--execute",), "mysql"),
    "sqlite3": ("", ("-cmd", "--cmd"), "sql"),
    "clickhouse-client": ("q", ("--query",), "sql"),
    "cqlsh": ("e", ("--execute",), "sql"),
    "mongosh": ("", ("--eval",), ""),
    "mongo": ("", ("--eval",), ""),
}


def is_client(name: str) -> bool:
    return name in _CODE


def code(name: str, text: str | None) -> str | None:
    """Text a client reads on stdin, with SQL comments blanked as in its arguments."""
    dialect = _CODE[name][2]
    return strip_comments(text, dialect) if text and dialect else text


def rewrite(argv: list[str], dyns: list[bool]) -> tuple[list[str], list[bool]]:
    """Glued and ``=`` forms split into option and value; comments blanked in SQL words."""
    short, longs, sql = _CODE[argv[0]]
    out, outd = argv[:1], dyns[:1]
    for word, dyn in zip(argv[1:], dyns[1:], strict=True):
        parts = [word]
        name, eq, value = word.partition("=")
        if eq and name in longs:
            parts = [name, value]
        elif short and len(word) > 2 and word[0] == "-" and word[1] in short:
            parts = [word[:2], word[2:]]
        if sql:
            parts = [strip_comments(p, sql) for p in parts]
        out.extend(parts)
        outd.extend([dyn] * len(parts))
    return out, outd


def strip_comments(text: str, dialect: str = "sql") -> str:
    """SQL with ``/* … */`` and ``-- …`` (MySQL also ``# …``) comments replaced by a space.

    Quoted text ('…', "…", `…`) is copied unchanged, so a comment marker inside a string
    literal neither hides what follows it nor is removed. MySQL's ``/*! … */`` and
    ``/*+ … */`` are kept as code. Where a marker is not a comment in the dialect
    (``#`` in PostgreSQL, ``1--1`` in MySQL) the text stays, so nothing after it is hidden.
    """
    mysql = dialect == "mysql"
    if "/*" not in text and "--" not in text and not (mysql and "#" in text):
        return text
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "'\"`":
            end = text.find(ch, i + 1)
            while end != -1 and end + 1 < n and text[end + 1] == ch:
                end = text.find(ch, end + 2)
            end = n if end == -1 else end + 1
            out.append(text[i:end])
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if mysql and text[i + 2 : i + 3] in ("!", "+"):
                out.append(" " + text[i + 3 : n if end == -1 else end] + " ")
            else:
                out.append(" ")
            i = n if end == -1 else end + 2
        elif _line_comment(text, i, mysql):
            end = text.find("\n", i)
            i = n if end == -1 else end
            out.append(" ")
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _line_comment(text: str, i: int, mysql: bool) -> bool:
    if mysql:
        return text[i] == "#" or (text.startswith("--", i) and text[i + 2 : i + 3] in _AFTER)
    return text.startswith("--", i)


# MySQL needs whitespace (or the end) after `--` for it to start a comment.
_AFTER = ("", " ", "\t", "\n", "\r")
