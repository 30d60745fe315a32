"""What sqlite3's dot commands and SQL, and a Tcl script's ``open``/``file`` calls, write."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    Found = list[tuple[str, int]]

INTO = 2

# --- sqlite3 ------------------------------------------------------------------------------

# Options that take a value (two for the -lookaside style ones).
_SQLITE_VALUES = {"-cmd": 1, "-init": 1, "-separator": 1, "-newline": 1, "-nullvalue": 1,
                  "-vfs": 1, "-maxsize": 1, "-mmap": 1, "-escape": 1, "-lookaside": 2,
                  "-pagecache": 2, "-heap": 2, "-nonce": 1}  # fmt: skip
# Dot commands whose last argument is a file written (.open creates its database file).
_SQLITE_DOT = frozenset((".output", ".once", ".save", ".backup", ".clone", ".log", ".open",
                         ".trace", ".excel"))  # fmt: skip


def sqlite(argv: tuple[str, ...], stdin: str | None) -> Found:
    """The database file sqlite3 opens, its dot commands' outputs, ``ATTACH``, ``VACUUM
    INTO``, ``writefile()`` and the archive mode's extraction (into the cwd or ``-C``)."""
    found: Found = []
    sql: list[str] = []
    ops: list[str] = []
    readonly = False
    archive = ""
    i = 1
    while i < len(argv):
        a = argv[i].replace("--", "-", 1) if argv[i].startswith("--") else argv[i]
        i += 1
        if a in _SQLITE_VALUES:
            if a == "-cmd" and i < len(argv):
                sql.append(argv[i])
            i += _SQLITE_VALUES[a]
        elif a in ("-A", "-archive"):
            archive = " ".join(argv[i:])
            break
        elif a.startswith("-A"):
            archive = a[2:] + " " + " ".join(argv[i:])
            break
        elif a == "-readonly":
            readonly = True
        elif not a.startswith("-") or a == "-":
            ops.append(argv[i - 1])
    if ops:
        db = ops[0]
        if not readonly and db not in ("", ":memory:") and "mode=ro" not in db:
            found.append((db[5:].partition("?")[0] if db.startswith("file:") else db, False))
        sql += ops[1:]
    if stdin:
        sql.append(stdin)
    if archive:
        found += _archive(archive.split())
    cwd = ""
    for text in sql:
        for line in text.splitlines():
            words = line.split()
            if words and words[0] == ".cd" and len(words) > 1:
                cwd = _strip(words[1]) + "/"
            elif words and words[0] in _SQLITE_DOT and len(words) > 1:
                target = _strip(words[-1])
                if not target.startswith("|") and target not in ("stdout", "-e", "-x"):
                    found.append((_within(cwd, target), False))
            elif words and words[0] in (".archive", ".ar"):
                found += [(_within(cwd, p), how) for p, how in _archive(words[1:])]
        found += [(_within(cwd, f), False) for f in _sql_files(text)]
    return found


def _within(cwd: str, path: str) -> str:
    return path if not cwd or path.startswith(("/", "~")) else cwd + path


def _strip(word: str) -> str:
    return word[1:-1] if len(word) > 1 and word[0] == word[-1] and word[0] in "'\"" else word


def _archive(words: list[str]) -> Found:
    """``-x``/``--extract`` of sqlite3's archive mode writes into ``-C DIR`` or the cwd."""
    extract = any(
        w in ("--extract", "-x") or (w.startswith("-") and not w.startswith("--") and "x" in w)
        for w in words
    )
    if not extract:
        return []
    for k, w in enumerate(words):
        if w in ("-C", "--directory") and k + 1 < len(words):
            return [(words[k + 1], INTO)]
        if w.startswith("--directory="):
            return [(w[12:], INTO)]
    return [(".", INTO)]


def _sql_files(text: str) -> list[str]:
    """Files named by ``ATTACH 'f'``, ``VACUUM INTO 'f'`` and ``writefile('f', …)``."""
    low = text.lower()
    out: list[str] = []
    for word in ("attach", "into", "writefile("):
        at = low.find(word)
        while at >= 0:
            before = low[at - 1 : at] if at else " "
            if not (before.isalnum() or before == "_"):
                literal = _next_literal(text, at + len(word))
                if literal is not None and (word != "into" or "vacuum" in low[:at]):
                    out.append(literal)
            at = low.find(word, at + 1)
    return out


def _next_literal(text: str, i: int) -> str | None:
    """The SQL string literal that follows ``text[i:]`` (after ``database``/spaces)."""
    while i < len(text) and text[i] in " \t\r\n(":
        i += 1
    if text[i : i + 8].lower() == "database":
        return _next_literal(text, i + 8)
    if i < len(text) and text[i] in "'\"":
        q = text[i]
        end = text.find(q, i + 1)
        return text[i + 1 : end] if end > 0 else None
    return None


def psql(argv: tuple[str, ...], stdin: str | None) -> Found:
    """psql's client-side writes: ``\\o FILE``, ``\\w FILE``, ``\\g FILE``, ``\\copy … to
    'FILE'``, ``-o FILE``/``--output``, ``-L FILE``/``--log-file``."""
    found: Found = []
    texts: list[str] = [stdin] if stdin else []
    for k, a in enumerate(argv):
        nxt = argv[k + 1] if k + 1 < len(argv) else None
        if a in ("-c", "--command") and nxt is not None:
            texts.append(nxt)
        elif a in ("-o", "--output", "-L", "--log-file") and nxt is not None:
            found.append((nxt, False))
        elif a.startswith(("--output=", "--log-file=", "--command=")):
            value = a.partition("=")[2]
            found += [(value, False)] if not a.startswith("--command=") else []
            texts += [value] if a.startswith("--command=") else []
    for text in texts:
        for line in text.replace("\\\\", "\n").splitlines():
            words = line.split()
            if len(words) > 1 and words[0] in ("\\o", "\\out", "\\w", "\\write", "\\g"):
                target = _strip(words[1])
                if not target.startswith("|"):
                    found.append((target, False))
            low = line.lower()
            if words[:1] == ["\\copy"] and " to " in low:
                at = low.index(" to ") + 4
                literal = _next_literal(line, at)
                target = literal if literal is not None else (line[at:].split() or [""])[0]
                if not target.startswith(("stdout", "program", "pstdout")):
                    found.append((_strip(target), False))
    return found


# --- Tcl ----------------------------------------------------------------------------------

_WRITE_MODES = ("w", "a", "+", "WRONLY", "RDWR", "CREAT", "TRUNC", "APPEND")


def tcl(argv: tuple[str, ...], stdin: str | None) -> Found:
    """``open FILE w``/``a``, ``file delete|rename|copy|link|mkdir`` in a Tcl script on
    stdin or in ``expect -c``/``tclsh`` code."""
    scripts = [argv[k + 1] for k in range(1, len(argv) - 1) if argv[k] == "-c"]
    if stdin and not any(not a.startswith("-") for a in argv[1:] if a not in scripts):
        scripts.append(stdin)
    found: Found = []
    for script in scripts:
        found += _tcl_writes(script)
    return found


def _tcl_writes(script: str) -> Found:
    tcl = _Tcl()
    tcl.commands(script)
    found: Found = []
    for words in tcl.seen:
        head = words[0]
        if head == "open" and len(words) >= 3 and words[1] and words[2]:
            if any(m in words[2] for m in _WRITE_MODES):
                found.append((words[1], False))
        elif head == "file" and len(words) >= 3:
            args = [w for w in words[2:] if w not in ("-force", "--", "-symbolic", "-hard")]
            verb = words[1]
            if verb == "delete":
                found += [(w, True) for w in args if w]
            elif verb in ("rename", "copy") and len(args) >= 2:
                found += [(w, verb == "rename") for w in args[:-1] if w]
                if args[-1]:
                    found.append((args[-1], INTO))
            elif verb in ("link", "mkdir", "attributes") and args and args[0]:
                found.append((args[0], verb == "attributes"))
    return found


class _Tcl:
    """A Tcl script read for its file operations: variables set to known values, and every
    command met, bracketed ones included, with its words substituted (None: not known)."""

    def __init__(self) -> None:
        self.env: dict[str, str] = {}
        self.seen: list[list[str | None]] = []

    def commands(self, script: str) -> list[list[str | None]]:
        out: list[list[str | None]] = []
        words: list[str | None] = []
        i, n = 0, len(script)
        while i < n:
            c = script[i]
            if c in " \t":
                i += 1
            elif c in "\n;":
                self._done(words, out)
                words = []
                i += 1
            elif c == "#" and not words:
                while i < n and script[i] != "\n":
                    i += 1
            else:
                word, i = self.word(script, i)
                words.append(word)
        self._done(words, out)
        return out

    def _done(self, words: list[str | None], out: list[list[str | None]]) -> None:
        if not words:
            return
        if words[0] == "set" and len(words) == 3 and words[1] and words[2] is not None:
            self.env[words[1]] = words[2]
        out.append(words)
        self.seen.append(words)

    def word(self, s: str, i: int) -> tuple[str | None, int]:
        n = len(s)
        if s[i] == "{":
            depth, j = 1, i + 1
            while j < n and depth:
                depth += {"{": 1, "}": -1}.get(s[j], 0)
                j += 1
            return s[i + 1 : j - 1], j
        quoted = s[i] == '"'
        j = i + 1 if quoted else i
        pieces: list[str] = []
        known = True
        while j < n:
            c = s[j]
            if quoted and c == '"':
                j += 1
                break
            if not quoted and c in " \t\n;":
                break
            if c == "\\" and j + 1 < n:
                pieces.append(s[j + 1])
                j += 2
            elif c == "$":
                value, j = self.variable(s, j + 1)
                known = known and value is not None
                pieces.append(value or "")
            elif c == "[":
                value, j = self.bracket(s, j + 1)
                known = known and value is not None
                pieces.append(value or "")
            else:
                pieces.append(c)
                j += 1
        return ("".join(pieces) if known else None), j

    def variable(self, s: str, j: int) -> tuple[str | None, int]:
        if s.startswith("::", j):
            j += 2
        if j < len(s) and s[j] == "{":
            end = s.find("}", j)
            end = len(s) if end < 0 else end
            name, j = s[j + 1 : end], end + 1
        else:
            k = j
            while k < len(s) and (s[k].isalnum() or s[k] in "_:"):
                k += 1
            name, j = s[j:k], k
        if j < len(s) and s[j] == "(":
            end = s.find(")", j)
            end = len(s) if end < 0 else end
            index, j = s[j + 1 : end], end + 1
            return ("$" + index if name.lstrip(":") == "env" else None), j
        return self.env.get(name), j

    def bracket(self, s: str, j: int) -> tuple[str | None, int]:
        depth, k = 1, j
        while k < len(s) and depth:
            depth += {"[": 1, "]": -1}.get(s[k], 0)
            k += 1
        inner = self.commands(s[j : k - 1])
        words = inner[-1] if inner else []
        value: str | None = None
        if words[:2] == ["file", "join"] and all(w is not None for w in words[2:]):
            value = ""
            for w in map(str, words[2:]):
                value = w if w.startswith("/") or not value else value.rstrip("/") + "/" + w
        elif words[:1] == ["file"] and len(words) == 3 and words[1] in ("normalize", "nativename"):
            value = words[2]
        elif words == ["pwd"]:
            value = "."
        return value, k
