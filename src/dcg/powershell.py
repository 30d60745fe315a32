"""PowerShell command lines: the simple commands they run, with destructive forms mapped to POSIX.

Claude Code's and Copilot's PowerShell tools send PowerShell, not POSIX shell. This module
splits a line the way PowerShell would (statements, pipelines, script blocks, subexpressions,
quoting and backtick escapes, comments) and turns each command into a
:class:`~dcg.shell.command.Command` whose argv the core rules already understand:
``Remove-Item -Recurse -Force X`` becomes ``rm -r -f X``, ``git …`` stays ``git …``, and
``cmd /c "…"``, ``pwsh -Command "…"`` and ``bash -c "…"`` are analysed recursively.
Variables such as ``$env:USERPROFILE``, ``$HOME`` or ``~`` stay literally in the paths.
"""

from __future__ import annotations

import time

from dcg.shell.command import Command

# Nesting bound for blocks, subexpressions and recursive shells (cf. dcg.shell.TooComplex).
MAX_DEPTH = 32

_SPACE = " \t\r\f\v\u00a0"
# Characters that end an unquoted word in argument mode.
_WORD_END = _SPACE + "\n;|&(){},<>"
_ESCAPES = {"0": "\0", "a": "\a", "b": "\b", "e": "\x1b", "f": "\f", "n": "\n", "r": "\r"}
_ESCAPES |= {"t": "\t", "v": "\v"}

_REMOVE = frozenset({"remove-item", "rm", "del", "erase", "rd", "rmdir", "ri"})
# Aliases that PowerShell 7 drops on Linux and macOS, where they run the native tool.
_NATIVE_TOO = frozenset({"rm", "rmdir"})
_LISTERS = frozenset({"get-childitem", "gci", "ls", "dir", "get-item", "gi"})
_PRINTERS = frozenset({"write-output", "write-host", "echo", "write", "write-verbose"})
_PWSH = frozenset({"powershell", "pwsh"})
_POSIX_SHELLS = frozenset({"bash", "sh", "zsh", "dash"})
_EVAL = frozenset({"invoke-expression"})
# Disk- and content-destroying cmdlets keep their own lower-case name so that rules can match
# them (("format-volume", "-DriveLetter", "D")); their aliases map to that name.
_CANONICAL = {"clc": "clear-content", "iex": "invoke-expression"}

# Remove-Item's parameters (with the common ones) for PowerShell's prefix matching.
_RM_PARAMS = (
    *("path", "literalpath", "filter", "include", "exclude", "recurse", "force", "credential"),
    *("whatif", "confirm", "stream", "verbose", "debug", "erroraction", "warningaction"),
    *("informationaction", "progressaction", "errorvariable", "warningvariable"),
    *("informationvariable", "outvariable", "outbuffer", "pipelinevariable"),
)
_RM_ALIASES = {"pspath": "literalpath", "lp": "literalpath", "wi": "whatif", "cf": "confirm"}
_RM_ALIASES |= {"vb": "verbose", "db": "debug", "ea": "erroraction", "wa": "warningaction"}
_SWITCHES = frozenset({"recurse", "force", "whatif", "confirm", "verbose", "debug"})

_PWSH_COMMAND = ("command", "c", "cmd")
_PWSH_ENCODED = ("encodedcommand", "enc", "e", "ec")


class _Word:
    """One argument: its array elements (``a,b``), source text and whether it is computed."""

    __slots__ = ("dynamic", "parts", "source")

    def __init__(self, parts: list[str], source: str, dynamic: bool) -> None:
        self.parts = parts
        self.source = source
        self.dynamic = dynamic

    @property
    def text(self) -> str:
        return ",".join(self.parts)


def parse_powershell(line: str, *, deadline: float | None = None) -> list[Command]:
    """The simple commands ``line`` would run in PowerShell, destructive forms mapped."""
    return _parse(line, deadline, 0, ("powershell",))


def _parse(line: str, deadline: float | None, depth: int, via: tuple[str, ...]) -> list[Command]:
    if depth > MAX_DEPTH:
        from dcg.shell import TooComplex

        raise TooComplex("PowerShell nesting too deep")
    lexer = _Lexer(line, deadline, depth, via)
    lexer.sequence("")
    return lexer.out


class _Lexer:
    """A single pass over PowerShell source; nested code is lexed by recursion."""

    def __init__(self, src: str, deadline: float | None, depth: int, via: tuple[str, ...]):
        self.src = src
        self.pos = 0
        self.deadline = deadline
        self.depth = depth
        self.via = via
        self.out: list[Command] = []

    def _tick(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            from dcg.shell import TooComplex

            raise TooComplex("PowerShell parse exceeded its time budget")

    def sequence(self, end: str) -> None:
        """Lex statements until ``end`` (``)`` or ``}``, empty for end of input)."""
        src, n = self.src, len(self.src)
        pipeline: list[list[_Word]] = []
        words: list[_Word] = []
        redirects: list[tuple[str, str]] = []

        def flush_command() -> None:
            nonlocal words, redirects
            if words:
                pipeline.append(words)
                self._emit(words, redirects, pipeline)
            words, redirects = [], []

        def flush_pipeline() -> None:
            flush_command()
            pipeline.clear()

        while self.pos < n:
            self._tick()
            c = src[self.pos]
            nxt = src[self.pos + 1] if self.pos + 1 < n else ""
            if c in _SPACE:
                self.pos += 1
            elif c == "`" and nxt in ("\n", "\r"):
                self.pos += 2  # line continuation
            elif c in "\n;":
                flush_pipeline()
                self.pos += 1
            elif c == "|":
                if nxt == "|":
                    flush_pipeline()
                    self.pos += 2
                else:
                    flush_command()
                    self.pos += 1
            elif c == "&":
                if nxt == "&":
                    flush_pipeline()
                    self.pos += 2
                elif words:
                    flush_pipeline()  # trailing `&`: run as a background job
                    self.pos += 1
                else:
                    self.pos += 1  # call operator: the next word is the command
            elif c == "#":
                end_of_line = src.find("\n", self.pos)
                self.pos = n if end_of_line < 0 else end_of_line
            elif c == "<" and nxt == "#":
                close = src.find("#>", self.pos + 2)
                self.pos = n if close < 0 else close + 2
            elif end and c == end:
                self.pos += 1
                flush_pipeline()
                return
            elif c in ")}":
                self.pos += 1  # unbalanced closer: ignore, as PowerShell would error
                flush_pipeline()
            elif c == ",":
                self.pos += 1
                if words:
                    # `a, b` with spaces: still one array argument.
                    follow = self._word()
                    if follow is not None:
                        last = words[-1]
                        words[-1] = _Word(
                            last.parts + follow.parts,
                            f"{last.source},{follow.source}",
                            last.dynamic or follow.dynamic,
                        )
            elif c in "<>" or (c in "0123456*" and nxt == ">"):
                redirect = self._redirect()
                if redirect is not None:
                    redirects.append(redirect)
            else:
                word = self._word()
                if word is not None:
                    words.append(word)
        flush_pipeline()

    def _redirect(self) -> tuple[str, str] | None:
        src, start = self.src, self.pos
        while self.pos < len(src) and src[self.pos] in "0123456*>&<":
            self.pos += 1
        op = src[start : self.pos]
        if op.endswith("&1") or op.endswith("&2"):
            return None  # stream merge, no file
        while self.pos < len(src) and src[self.pos] in _SPACE:
            self.pos += 1
        target = self._word()
        return (op, target.text if target else "")

    def _nested(self, end: str) -> str:
        """Lex the code up to ``end`` as commands of their own; return its source text."""
        start = self.pos
        if self.depth >= MAX_DEPTH:
            from dcg.shell import TooComplex

            raise TooComplex("PowerShell nesting too deep")
        tag = "{…}" if end == "}" else "$(…)"
        inner = _Lexer(self.src, self.deadline, self.depth + 1, (*self.via, tag))
        inner.pos = self.pos
        inner.sequence(end)
        self.out.extend(inner.out)
        self.pos = inner.pos
        return self.src[start : self.pos]

    def _word(self) -> _Word | None:
        src, n = self.src, len(self.src)
        start = self.pos
        parts: list[str] = []
        buf: list[str] = []
        dynamic = False
        while self.pos < n:
            c = src[self.pos]
            nxt = src[self.pos + 1] if self.pos + 1 < n else ""
            if c == "{" and self.pos == start:
                self.pos += 1
                body = self._nested("}")
                buf.append("{" + body)
                dynamic = True
                break
            if c in _WORD_END and not (c == "(" and self.pos == start):
                if c == "," and buf:
                    # `a,b` and `'a', 'b'`: one array argument.
                    parts.append("".join(buf))
                    buf = []
                    self.pos += 1
                    while self.pos < n and src[self.pos] in _SPACE:
                        self.pos += 1
                    continue
                break
            if c == "'":
                self.pos += 1
                buf.append(self._single_quoted())
            elif c == '"':
                self.pos += 1
                text, computed = self._double_quoted()
                buf.append(text)
                dynamic = dynamic or computed
            elif c == "`":
                buf.append(nxt)
                self.pos += 2
            elif c in "$@" and nxt in "({":
                self.pos += 2
                body = self._nested(")" if nxt == "(" else "}")
                buf.append(c + nxt + body)
                dynamic = True
            elif c == "(":
                self.pos += 1
                buf.append("(" + self._nested(")"))
                dynamic = True
            else:
                buf.append(c)
                self.pos += 1
        if self.pos == start:
            self.pos += 1  # a lone terminator the caller did not consume
            return None
        if buf or not parts:
            parts.append("".join(buf))
        return _Word(parts, src[start : self.pos].rstrip(), dynamic)

    def _single_quoted(self) -> str:
        src, n = self.src, len(self.src)
        buf: list[str] = []
        while self.pos < n:
            c = src[self.pos]
            self.pos += 1
            if c == "'":
                if self.pos < n and src[self.pos] == "'":
                    buf.append("'")
                    self.pos += 1
                    continue
                break
            buf.append(c)
        return "".join(buf)

    def _double_quoted(self) -> tuple[str, bool]:
        src, n = self.src, len(self.src)
        buf: list[str] = []
        computed = False
        while self.pos < n:
            c = src[self.pos]
            nxt = src[self.pos + 1] if self.pos + 1 < n else ""
            if c == '"':
                self.pos += 1
                if nxt == '"':
                    buf.append('"')
                    self.pos += 1
                    continue
                break
            if c == "`":
                buf.append(_ESCAPES.get(nxt, nxt))
                self.pos += 2
            elif c == "$" and nxt == "(":
                self.pos += 2
                buf.append("$(" + self._nested(")"))
                computed = True
            else:
                buf.append(c)
                self.pos += 1
        return "".join(buf), computed

    def _emit(
        self, words: list[_Word], redirects: list[tuple[str, str]], pipeline: list[list[_Word]]
    ) -> None:
        # `$x = cmd …`: the command is what follows the assignment.
        while len(words) >= 2 and words[0].text.startswith("$") and words[1].text.endswith("="):
            words = words[2:]
        if not words:
            return
        upstream = pipeline[-2] if len(pipeline) >= 2 else None
        self.out.extend(
            _commands(words, tuple(redirects), upstream, self.deadline, self.depth, self.via)
        )


def _name(word: _Word) -> str:
    """Command name as the rules see it: basename, lower case, ``.exe`` stripped."""
    text = word.text.replace("\\", "/").rsplit("/", 1)[-1].lower()
    return text.removesuffix(".exe")


def _commands(
    words: list[_Word],
    redirects: tuple[tuple[str, str], ...],
    upstream: list[_Word] | None,
    deadline: float | None,
    depth: int,
    via: tuple[str, ...],
) -> list[Command]:
    name = _name(words[0])
    name = _CANONICAL.get(name, name)
    args = words[1:]
    dynamic = words[0].dynamic
    if name in _REMOVE:
        mapped = _remove_item(name, args, upstream, via)
        if mapped is not None:
            return [mapped]
    if name in _PWSH:
        script = _pwsh_script(args)
        if script is not None:
            return _parse(script, deadline, depth + 1, (*via, f"{name} -Command"))
    if name in _EVAL and args and not args[0].dynamic:
        return _parse(args[0].text, deadline, depth + 1, (*via, name))
    if name == "cmd":
        script = _cmd_script(args)
        if script is not None:
            return _cmd(script, deadline, depth + 1, (*via, "cmd /c"))
    if name in _POSIX_SHELLS or name == "wsl":
        script = _posix_script(name, args)
        if script is not None:
            from dcg.shell import parse

            inner = parse(script, deadline=deadline)
            tag = f"{name} -c" if name != "wsl" else "wsl"
            return [_tagged(c, (*via, tag)) for c in inner]
    argv = (name, *(a.text for a in args))
    if name in _PRINTERS:
        # What is printed is data, not code.
        return [
            Command(
                argv,
                words=(name,),
                data=tuple((a.text, "printed") for a in args),
                redirects=redirects,
                via=via,
                dynamic=dynamic,
            )
        ]
    return [Command(argv, redirects=redirects, via=via, dynamic=dynamic)]


def _tagged(command: Command, via: tuple[str, ...]) -> Command:
    return Command(
        command.argv,
        words=command.words,
        data=command.data,
        redirects=command.redirects,
        stdin=command.stdin,
        via=via + command.via,
        dynamic=command.dynamic,
    )


def _resolve(flag: str) -> str | None:
    """PowerShell's parameter prefix matching for Remove-Item; None if unknown/ambiguous."""
    key = flag.lower()
    if key in _RM_ALIASES:
        return _RM_ALIASES[key]
    if key in _RM_PARAMS:
        return key
    found = [p for p in _RM_PARAMS if p.startswith(key)]
    return found[0] if len(found) == 1 else None


def _remove_item(
    name: str, args: list[_Word], upstream: list[_Word] | None, via: tuple[str, ...]
) -> Command | None:
    """``Remove-Item`` and its aliases as ``rm``; None when the argv should stay native."""
    paths: list[str] = []
    switches: dict[str, bool] = {}
    i = 0
    while i < len(args):
        word = args[i]
        text = word.text
        i += 1
        if text.startswith("-") and len(text) > 1 and not word.source.startswith(("'", '"')):
            flag, colon, value = text[1:].partition(":")
            param = _resolve(flag)
            if param is None:
                if name in _NATIVE_TOO:
                    return None  # `rm -rf x`: an error in Windows PowerShell, /bin/rm elsewhere
                continue
            if param in _SWITCHES:
                switches[param] = not (colon and value.lower() == "$false")
            elif colon:
                if param in ("path", "literalpath"):
                    paths.extend(p for p in value.split(",") if p)
            elif i < len(args):
                if param in ("path", "literalpath"):
                    paths.extend(args[i].parts)
                i += 1
        else:
            paths.extend(word.parts)
    if switches.get("whatif"):
        return Command((name, *(a.text for a in args)), via=via)
    recurse = switches.get("recurse", False)
    if not paths and upstream is not None and _name(upstream[0]) in _LISTERS:
        # `Get-ChildItem X -Recurse | Remove-Item`: the lister's targets are deleted.
        listed = _remove_item("remove-item", upstream[1:], None, via)
        paths = [p for p in (listed.argv[1:] if listed else ()) if not p.startswith("-")]
        paths = paths or ["."]
        recurse = recurse or any(
            w.text.startswith("-") and _resolve(w.text[1:]) == "recurse" for w in upstream[1:]
        )
    # -Recurse never prompts, for any file PowerShell can delete, so it is `rm -r -f`; -Force
    # only adds hidden and read-only items.
    flags = ("-r", "-f") if recurse else ("-f",) if switches.get("force") else ()
    return Command(("rm", *flags, *paths), via=via)


def _pwsh_script(args: list[_Word]) -> str | None:
    """The script of ``pwsh -Command …`` / ``-EncodedCommand …`` / ``pwsh 'script'``."""
    i = 0
    while i < len(args):
        text = args[i].text
        flag = text[1:].lower() if text[:1] in ("-", "/") else None
        if flag is None:
            # The first positional argument starts the command (unless it is a file).
            rest = " ".join(a.text for a in args[i:])
            return None if text.lower().endswith(".ps1") else rest
        if any(flag == f or (len(flag) > 1 and f.startswith(flag)) for f in _PWSH_COMMAND):
            return " ".join(a.text for a in args[i + 1 :]) or None
        if any(flag == f or (len(flag) > 1 and f.startswith(flag)) for f in _PWSH_ENCODED):
            return _decode(args[i + 1].text) if i + 1 < len(args) else None
        if flag in ("file", "f"):
            return None
        # Options with a value: skip it too.
        if flag in ("executionpolicy", "ep", "ex", "workingdirectory", "wd", "windowstyle", "w"):
            i += 1
        i += 1
    return None


def _decode(encoded: str) -> str | None:
    import base64
    import binascii

    try:
        return base64.b64decode(encoded, validate=False).decode("utf-16-le")
    except (binascii.Error, UnicodeDecodeError):
        return None


def _posix_script(name: str, args: list[_Word]) -> str | None:
    texts = [a.text for a in args]
    if name == "wsl":
        while texts and texts[0].startswith("-"):
            # wsl options: -d/-u/--cd take a value; `-e`/`--exec` runs argv directly.
            flag = texts.pop(0)
            if flag in ("-e", "--exec", "--"):
                break
            if flag in ("-d", "--distribution", "-u", "--user", "--cd") and texts:
                texts.pop(0)
        return " ".join(texts) or None
    for i, text in enumerate(texts):
        if text.startswith("-") and "c" in text[1:] and not text.startswith("--"):
            return texts[i + 1] if i + 1 < len(texts) else None
    return None


def _cmd_script(args: list[_Word]) -> str | None:
    for i, word in enumerate(args):
        if word.text.lower() in ("/c", "/k", "/r"):
            rest = " ".join(a.text for a in args[i + 1 :])
            return rest or None
    return None


def _cmd(script: str, deadline: float | None, depth: int, via: tuple[str, ...]) -> list[Command]:
    """A ``cmd.exe`` line: split on ``&``, ``&&``, ``||``, ``|`` and map ``rd``/``del``."""
    out: list[Command] = []
    for segment in _cmd_segments(script):
        words = _cmd_words(segment)
        if not words:
            continue
        name = words[0].replace("\\", "/").rsplit("/", 1)[-1].lower().removesuffix(".exe")
        args = words[1:]
        flags = {a.lower() for a in args if a.startswith("/")}
        targets = [a for a in args if not a.startswith("/")]
        if name in ("rd", "rmdir") and "/s" in flags:
            out.append(Command(("rm", "-r", "-f", *targets), via=via))
        elif name in ("del", "erase"):
            recursive = ("-r",) if "/s" in flags else ()
            out.append(Command(("rm", *recursive, "-f", *targets), via=via))
        elif name in _PWSH or name == "cmd":
            # Its own argument parsing applies: hand the raw text back to the PowerShell lexer.
            out.extend(_parse(segment.strip(), deadline, depth + 1, via))
        else:
            out.append(Command((name, *args), via=via))
    return out


def _cmd_segments(script: str) -> list[str]:
    segments: list[str] = []
    buf: list[str] = []
    quoted = False
    i = 0
    while i < len(script):
        c = script[i]
        if c == '"':
            quoted = not quoted
        elif c == "^" and not quoted and i + 1 < len(script):
            buf.append(script[i + 1])
            i += 2
            continue
        elif c in "&|" and not quoted:
            segments.append("".join(buf))
            buf = []
            if i + 1 < len(script) and script[i + 1] == c:
                i += 1
            i += 1
            continue
        buf.append(c)
        i += 1
    segments.append("".join(buf))
    return segments


def _cmd_words(segment: str) -> list[str]:
    words: list[str] = []
    buf: list[str] = []
    quoted = False
    started = False
    for c in segment:
        if c == '"':
            quoted = not quoted
            started = True
        elif c in " \t" and not quoted:
            if started:
                words.append("".join(buf))
            buf, started = [], False
        else:
            buf.append(c)
            started = True
    if started:
        words.append("".join(buf))
    return words
