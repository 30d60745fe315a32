"""PowerShell's other ways to run or delete: .NET calls, splats, aliases, Start-Process, iex.

Each function reads one form from the words the lexer found (and the ``$name = …``
assignments it remembered) and returns what the form really runs, in words the mapper
(:mod:`dcg.shell.powershell._map`) already understands: ``[IO.Directory]::Delete(p,
$true)`` is ``Remove-Item p -Recurse -Force``, ``Remove-Item @p`` with ``$p = @{Path=…}``
is ``Remove-Item -Path …``, ``Start-Process git -ArgumentList 'reset','--hard'`` is
``git reset --hard``, ``& (Get-Command Remove-Item)`` is ``Remove-Item``.
"""

from __future__ import annotations

from dcg.shell.powershell._lexer import Word

ALIAS = "\x00alias:"  # key prefix of Set-Alias'd names in the variable table

# Static .NET methods that delete (recursive when so marked or given $true) or write.
_DELETE = {
    "[io.directory]::delete": "dir", "[system.io.directory]::delete": "dir",
    "[io.file]::delete": "file", "[system.io.file]::delete": "file",
    "[microsoft.visualbasic.fileio.filesystem]::deletedirectory": "tree",
    "[microsoft.visualbasic.fileio.filesystem]::deletefile": "file",
}  # fmt: skip
_WRITE_METHODS = ("writealltext", "writeallbytes", "writealllines", "appendalltext",
                  "appendalllines", "create", "createtext", "appendtext", "copy",
                  "move", "replace", "openwrite")  # fmt: skip
_WRITE_TYPES = ("[io.file]::", "[system.io.file]::")
_GETTERS = frozenset(("get-item", "gi", "get-childitem", "gci", "ls", "dir", "get-itemproperty"))
_NEW_INFO = ("io.directoryinfo", "system.io.directoryinfo", "io.fileinfo", "system.io.fileinfo")


def word(text: str, dynamic: bool = False) -> Word:
    return Word([text], text, dynamic)


def unquote(text: str) -> tuple[str, bool]:
    """A PowerShell expression's value when it is a literal (string, or strings joined by
    ``+``); otherwise the text itself and True (computed)."""
    text = text.strip()
    while text.startswith("(") and text.endswith(")") and _balanced(text[1:-1]):
        text = text[1:-1].strip()
    parts = _split_top(text, "+")
    out: list[str] = []
    computed = False
    for part in parts:
        part = part.strip()
        if len(part) >= 2 and part[0] == part[-1] == "'":
            out.append(part[1:-1].replace("''", "'"))
        elif len(part) >= 2 and part[0] == part[-1] == '"':
            out.append(part[1:-1].replace("`", ""))
            computed = computed or "$" in part
        elif part and all(c.isalnum() or c in "-_.:/\\~" for c in part) and part[0] != "$":
            out.append(part)
        else:
            return text, True
    return "".join(out), computed


def _balanced(text: str) -> bool:
    depth = 0
    for c in text:
        depth += (c == "(") - (c == ")")
        if depth < 0:
            return False
    return depth == 0


def _split_top(text: str, sep: str) -> list[str]:
    """``text`` split on ``sep`` outside quotes, parentheses, brackets and braces."""
    parts: list[str] = []
    buf: list[str] = []
    depth = 0
    quote = ""
    for c in text:
        if quote:
            if c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == sep and depth == 0:
            parts.append("".join(buf))
            buf = []
            continue
        buf.append(c)
    parts.append("".join(buf))
    return parts


def call_args(source: str) -> list[tuple[str, bool]]:
    """The arguments of a method call ``(a, b)`` (source with its parentheses)."""
    inner = source.strip()
    if not (inner.startswith("(") and inner.endswith(")")):
        return []
    inner = inner[1:-1]
    if not inner.strip():
        return []
    return [unquote(p) for p in _split_top(inner, ",")]


def group(text: str) -> str:
    """The parenthesised group ``text`` starts with (``("x").Invoke()`` → ``("x")``)."""
    depth = 0
    quote = ""
    for k, c in enumerate(text):
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return text[: k + 1]
    return ""


def _true(arg: tuple[str, bool]) -> bool:
    return arg[0].strip().lower() in ("$true", "1", "[bool]1")


def dotnet(words: list[Word], variables: dict[str, str]) -> list[Word] | None:
    """``[IO.Directory]::Delete(p, $true)``, ``(Get-Item p).Delete($true)``, ``$d.Delete()``
    and ``[IO.File]::WriteAllText(p, …)`` as the cmdlet doing the same."""
    if not words[0].source.startswith(("[", "(", "$")):
        return None
    full = "".join(w.source for w in words)
    low = full.lower()
    call = _last_call(full)
    if call <= 0:
        return None
    head, args = low[:call].replace(" ", ""), call_args(full[call:].strip())
    if head in _DELETE and args:
        kind = _DELETE[head]
        path = word(args[0][0], args[0][1])
        recurse = kind == "tree" or (kind == "dir" and len(args) > 1 and _true(args[1]))
        flags = [word("-Recurse"), word("-Force")] if recurse else [word("-Force")]
        return [word("Remove-Item"), path, *flags]
    if head.startswith(_WRITE_TYPES) and head.rpartition("::")[2] in _WRITE_METHODS and args:
        target = args[1] if head.endswith(("::copy", "::move", "::replace")) else args[0]
        target = args[-1] if len(args) < 2 else target
        return [word("Set-Content"), word("-Path"), word(target[0], target[1])]
    if head.endswith(".delete") and len(head) > 7:
        item = _object_path(full[: low.rfind(".delete", 0, call + 1)], variables)
        if item is None:
            return None
        recurse = bool(args) and _true(args[0])
        flags = [word("-Recurse"), word("-Force")] if recurse else [word("-Force")]
        return [word("Remove-Item"), item, *flags]
    return None


def _last_call(full: str) -> int:
    """Where the argument list of the last call in ``full`` opens (``….Delete($true)``)."""
    end = full.rstrip()
    if not end.endswith(")"):
        return -1
    depth = 0
    for k in range(len(end) - 1, -1, -1):
        depth += (end[k] == ")") - (end[k] == "(")
        if depth == 0:
            return k
    return -1


def _object_path(expr: str, variables: dict[str, str], depth: int = 0) -> Word | None:
    """The path of the file-system object ``expr`` stands for, as a word (maybe computed)."""
    expr = expr.strip()
    if expr.startswith("(") and expr.endswith(")"):
        expr = expr[1:-1].strip()
    low = expr.lower()
    if low.startswith(("$_", "$psitem")):
        return word("$_", True)
    if low.startswith("$") and depth < 4:
        value = variables.get(low[1:])
        if value is not None:
            return _object_path(value, variables, depth + 1)
        return word(expr, True)
    if low.startswith("new-object "):
        plain = [a for a in expr.split()[1:] if not a.startswith("-")]
        if len(plain) >= 2 and plain[0].lower() in _NEW_INFO:
            text, dyn = unquote(plain[1].rstrip(","))
            return word(text, dyn)
    for info in _NEW_INFO:
        for prefix in (f"new-object {info} ", f"new-object -typename {info} ",
                       f"[{info}]::new(", f"[{info}]::new", f"[{info}]"):  # fmt: skip
            if low.startswith(prefix):
                rest = expr[len(prefix) :].strip().rstrip(")").lstrip("(")
                text, dyn = unquote(rest.split(",")[0]) if rest else ("", True)
                return word(text, dyn)
    name, _, rest = expr.partition(" ")
    if name.lower() in _GETTERS:
        for arg in rest.split():
            if not arg.startswith("-"):
                text, dyn = unquote(arg)
                return word(text, dyn)
        return word(".")
    return None


def splat(words: list[Word], variables: dict[str, str]) -> list[Word]:
    """``Cmd @p`` with ``$p = @{Path='x'; Recurse=$true}`` or ``$p = @('x', '-Recurse')``."""
    if not any(w.source.startswith("@") and w.source[1:2].isalpha() for w in words[1:]):
        return words
    out = [words[0]]
    for w in words[1:]:
        value = variables.get(w.source[1:].lower()) if w.source.startswith("@") else None
        if value is None:
            out.append(w)
            continue
        value = value.strip()
        if value.startswith("@{") and value.endswith("}"):
            for entry in _split_top(value[2:-1].replace("\n", ";"), ";"):
                key, eq, val = entry.partition("=")
                key = key.strip().strip("'\"")
                if not eq or not key:
                    continue
                val = val.strip()
                if val.lower() == "$true":
                    out.append(word(f"-{key}"))
                elif val.lower() == "$false":
                    out.append(word(f"-{key}:$false"))
                else:
                    out.append(word(f"-{key}"))
                    out.extend(_elements(val))
        else:
            out.extend(_elements(value))
    return out


def _elements(value: str) -> list[Word]:
    if value.startswith("@(") and value.endswith(")"):
        value = value[2:-1]
    texts = [unquote(p) for p in _split_top(value.replace("\n", ","), ",") if p.strip()]
    return [word(t, d) for t, d in texts]


def remember_alias(name: str, args: list[Word], variables: dict[str, str]) -> None:
    """``Set-Alias NAME VALUE`` / ``New-Alias -Name N -Value V`` (also ``sal``/``nal``)."""
    named: dict[str, str] = {}
    positional: list[str] = []
    i = 0
    while i < len(args):
        text = args[i].text
        if text.startswith("-") and len(text) > 1:
            flag = text[1:].lower().partition(":")[0]
            if flag in ("force", "passthru", "whatif", "confirm"):
                i += 1
                continue
            if i + 1 < len(args):
                named["name" if "name".startswith(flag) else flag] = args[i + 1].text
            i += 2
            continue
        positional.append(text)
        i += 1
    alias = named.get("name") or (positional.pop(0) if positional else None)
    value = next((v for k, v in named.items() if "value".startswith(k)), None)
    value = value or (positional[0] if positional else None)
    if alias and value:
        variables[ALIAS + alias.lower()] = value


_START_PARAMS = ("filepath", "argumentlist", "args", "verb", "workingdirectory", "passthru",
                 "wait", "nonewwindow", "windowstyle", "credential", "loaduserprofile",
                 "redirectstandardinput", "redirectstandardoutput", "redirectstandarderror",
                 "useshellexecute", "environment")  # fmt: skip
_START_SWITCHES = frozenset(("passthru", "wait", "nonewwindow", "loaduserprofile",
                             "useshellexecute"))  # fmt: skip


def start_process(args: list[Word]) -> list[Word] | None:
    """``Start-Process FILE -ArgumentList A,B`` as the words ``FILE A B`` it runs."""
    program: Word | None = None
    arguments: list[Word] = []
    i = 0
    while i < len(args):
        w = args[i]
        i += 1
        if w.text.startswith("-") and len(w.text) > 1 and not w.source.startswith(("'", '"')):
            flag, colon, value = w.text[1:].lower().partition(":")
            found = [p for p in _START_PARAMS if p.startswith(flag)]
            param = flag if flag in _START_PARAMS else (found[0] if len(found) == 1 else "")
            if param in _START_SWITCHES:
                continue
            target = word(value) if colon else (args[i] if i < len(args) else None)
            i += 0 if colon else 1
            if target is None:
                break
            if param == "filepath":
                program = target
            elif param in ("argumentlist", "args"):
                arguments.extend(_argument_words(target))
            continue
        if program is None:
            program = w
        else:
            arguments.extend(_argument_words(w))
    if program is None:
        return None
    return [program, *arguments]


def _argument_words(w: Word) -> list[Word]:
    """``-ArgumentList 'reset --hard'`` is joined into one command line, which the program
    splits again (on spaces, double quotes grouping), so split it that way."""
    out: list[Word] = []
    buf: list[str] = []
    quoted = started = False
    for c in " ".join(w.parts) + " ":
        if c == '"':
            quoted = not quoted
            started = True
        elif c in " \t" and not quoted:
            if started:
                out.append(word("".join(buf), w.dynamic))
            buf, started = [], False
        else:
            buf.append(c)
            started = True
    return out


def called(head: Word, variables: dict[str, str]) -> Word | None:
    """The command ``& (Get-Command X)``, ``& $c`` (``$c = 'X'``) or ``& ('Re'+'move-Item')``
    calls; None when the head is not such a form."""
    src = head.source.strip()
    low = src.lower()
    if low.startswith("(") and low.endswith(")"):
        inner = src[1:-1].strip()
        name, _, rest = inner.partition(" ")
        if name.lower() in ("get-command", "gcm"):
            arg = next((a for a in rest.split() if not a.startswith("-")), "")
            text, dyn = unquote(arg)
            return word(text, dyn) if arg else None
        if not inner.startswith(("'", '"')):
            return None  # `(Get-Tool)`: a command's output, not a name
        text, dyn = unquote(inner)
        return word(text, dyn)
    if low.startswith("$") and low[1:].replace("_", "a").isalnum():
        value = variables.get(low[1:])
        if value is not None:
            text, dyn = unquote(value)
            if not dyn:
                return word(text)
            found = called(word(value if value.startswith("(") else f"({value})"), variables)
            return found if found is not None and not found.dynamic else None
    return None
