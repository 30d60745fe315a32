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
    "mongosh": ("", ("--eval",), "js"),
    "mongo": ("", ("--eval",), "js"),
}


def is_client(name: str) -> bool:
    return name in _CODE


def code(name: str, text: str | None) -> str | None:
    """Text a client reads on stdin, with SQL comments blanked as in its arguments."""
    dialect = _CODE[name][2]
    if not text or not dialect:
        return text
    return tight_js(text) if dialect == "js" else strip_comments(text, dialect)


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
        # An option word (`--command`) is no SQL: `--` would read as a comment start.
        keep = {p for p in parts if p[:1] == "-" and not any(c.isspace() for c in p)}
        if sql == "js":
            parts = [p if p in keep else tight_js(p) for p in parts]
        elif sql:
            parts = [p if p in keep else strip_comments(p, sql) for p in parts]
        out.extend(parts)
        outd.extend([dyn] * len(parts))
    return out, outd


def tight_js(text: str) -> str:
    """JavaScript with comments dropped and no space around ``.``, ``(``, ``)``, ``[``, ``]``
    outside strings: ``db . users [ 'x' ] . drop ( )`` reads ``db.users['x'].drop()``."""
    if not any(c in text for c in " \t\n/"):
        return text
    out: list[str] = []
    i, n = 0, len(text)
    quote = ""
    while i < n:
        c = text[i]
        if quote:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 1
            elif c == quote:
                quote = ""
        elif c in "'\"`":
            quote = c
            out.append(c)
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
            out.append(" ")
            continue
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        elif c in " \t\r\n":
            j = i
            while j < n and text[j] in " \t\r\n":
                j += 1
            before = out[-1] if out else ""
            after = text[j] if j < n else ""
            if before not in ".([" and after not in ".()[]":
                out.append(" ")
            i = j
            continue
        else:
            if c in ".()[]" and out and out[-1] == " ":
                out.pop()
            out.append(c)
        i += 1
    return "".join(out)


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
