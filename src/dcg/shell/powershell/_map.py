"""PowerShell commands as the rules see them: cmdlets and aliases mapped to POSIX argv.

``Remove-Item -Recurse -Force X`` becomes ``rm -r -f X``, ``git …`` stays ``git …``,
``cmd /c "…"`` and ``pwsh -Command "…"`` are parsed again as what they run, and
``bash -c "…"`` is handed to the POSIX shell parser the caller passed in.
"""

from __future__ import annotations

from dcg.shell import opaque
from dcg.shell.command import Command
from dcg.shell.powershell import _forms
from dcg.shell.powershell._lexer import Word, lex

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path
if TYPE_CHECKING:
    from collections.abc import Callable

    # The POSIX shell parser: (script, deadline) -> its simple commands.
    Posix = Callable[[str, float | None], list[Command]]

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


def parse(
    line: str,
    deadline: float | None,
    depth: int,
    via: tuple[str, ...],
    posix: Posix,
    variables: dict[str, str] | None = None,
) -> list[Command]:
    """The simple commands ``line`` would run in PowerShell, destructive forms mapped.

    ``variables`` holds the session's assignments and aliases (shared with ``iex`` code).
    """
    scope: dict[str, str] = {} if variables is None else variables

    def emit(
        words: list[Word],
        redirects: tuple[tuple[str, str], ...],
        upstream: list[Word] | None,
        depth: int,
        via: tuple[str, ...],
    ) -> list[Command]:
        return _commands(words, redirects, upstream, deadline, depth, via, posix, scope)

    return lex(line, deadline, depth, via, emit, scope)


def _name(word: Word) -> str:
    """Command name as the rules see it: basename, lower case, ``.exe`` stripped."""
    text = word.text.replace("\\", "/").rsplit("/", 1)[-1].lower()
    return text.removesuffix(".exe")


def _commands(
    words: list[Word],
    redirects: tuple[tuple[str, str], ...],
    upstream: list[Word] | None,
    deadline: float | None,
    depth: int,
    via: tuple[str, ...],
    posix: Posix,
    scope: dict[str, str],
) -> list[Command]:
    words = _forms.splat(words, scope)
    if words[0].source == "." and len(words) > 1:
        words = words[1:]  # dot-sourcing runs the command in the current scope
    called = _forms.called(words[0], scope)
    if called is not None and not called.dynamic:
        words = [called, *words[1:]]
    words = _forms.dotnet(words, scope) or words
    name = _name(words[0])
    alias = scope.get(_forms.ALIAS + name)
    if alias is not None:
        words = [_forms.word(alias), *words[1:]]
        name = _name(words[0])
    name = _CANONICAL.get(name, name)
    args = words[1:]
    dynamic = words[0].dynamic
    special = _special(name, words, redirects, upstream, deadline, depth, via, posix, scope)
    if special is not None:
        return special
    if name in _REMOVE:
        mapped = _remove_item(name, args, upstream, via)
        if mapped is not None:
            return [mapped]
    if name in _PWSH:
        script = _pwsh_script(args)
        if script is not None:
            return parse(script, deadline, depth + 1, (*via, f"{name} -Command"), posix, scope)
    if name == "cmd":
        script = _cmd_script(args)
        if script is not None:
            return _cmd(script, deadline, depth + 1, (*via, "cmd /c"), posix)
    if name in _POSIX_SHELLS or name == "wsl":
        script = _posix_script(name, args)
        if script is not None:
            inner = posix(script, deadline)
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


_GIT_CONFIG = "\x00git config"  # the `git config` lines met so far, in the variable table
# Code fetched from a URL and run (`iex (irm https://get.scoop.sh)`): installers keep the
# treatment `curl … | sh` has (a documented limit), not opaque-exec.
_DOWNLOADERS = ("irm ", "iwr ", "invoke-restmethod", "invoke-webrequest", ".downloadstring(")
_ALIASERS = frozenset(("set-alias", "new-alias", "sal", "nal"))
_STARTERS = frozenset(("start-process", "saps", "start"))
# Cmdlets that write the file named by their path parameter (the first positional one,
# or the destination of a copy or move), with the parameter names that hold it.
_WRITERS = {
    "set-content": ("path", "literalpath"), "sc": ("path", "literalpath"),
    "add-content": ("path", "literalpath"), "ac": ("path", "literalpath"),
    "out-file": ("filepath", "literalpath", "path"),
    "tee-object": ("filepath", "literalpath"), "tee": ("filepath", "literalpath"),
    "new-item": ("path",), "ni": ("path",),
    "copy-item": ("destination",), "copy": ("destination",), "cpi": ("destination",),
    "cp": ("destination",),
    "move-item": ("destination", "path"), "move": ("destination", "path"),
    "mi": ("destination", "path"), "mv": ("destination", "path"),
    "rename-item": ("path",), "ren": ("path",), "rni": ("path",),
}  # fmt: skip
# Positional slot of the written path: the destination of a copy is the second.
_SECOND = frozenset(("copy-item", "copy", "cpi", "cp", "move-item", "move", "mi", "mv"))
_SWITCH_LIKE = frozenset(("force", "append", "nonewline", "passthru", "recurse", "whatif",
                          "confirm", "noclobber", "container"))  # fmt: skip


def _special(
    name: str,
    words: list[Word],
    redirects: tuple[tuple[str, str], ...],
    upstream: list[Word] | None,
    deadline: float | None,
    depth: int,
    via: tuple[str, ...],
    posix: Posix,
    scope: dict[str, str],
) -> list[Command] | None:
    """Aliases, Start-Process, Invoke-Expression, git and file writers; None for the rest."""
    args = words[1:]
    head = words[0].source.lower().replace(" ", "")
    if name in _ALIASERS:
        _forms.remember_alias(name, args, scope)
        return [Command((name, *(a.text for a in args)), via=via)]
    if name in _STARTERS:
        inner = _forms.start_process(args)
        if inner is not None:
            tag = (*via, "Start-Process")
            return _commands(inner, (), None, deadline, depth + 1, tag, posix, scope)
    if name in _EVAL or head.startswith("[scriptblock]::create"):
        code: tuple[str, bool] | None = None
        if name in _EVAL:
            texts = [a for a in args if not a.text.lower().startswith("-c")]
            if texts:
                code = _value(texts[0], scope)
            elif upstream is not None and len(upstream) == 1:
                code = _forms.unquote(upstream[0].source)
        else:
            given = _forms.call_args(_forms.group("".join(w.source for w in args)))
            code = given[0] if given else None
        if code is None:
            return None
        if code[1] and any(d in code[0].lower() for d in _DOWNLOADERS):
            return None  # `iex (irm URL)`: an installer, treated as `curl … | sh` is
        if code[1] or ("$" in code[0] and name not in _EVAL):
            why = f"{name} runs PowerShell code computed at run time"
            return [opaque.command(why, (*via, name))]
        return parse(code[0], deadline, depth + 1, (*via, name), posix, scope)
    if name == "git" or name.startswith("git-"):
        # Through the POSIX walker, for git's own spellings and aliases; the `git config`
        # lines met earlier go first, so that an alias they set is known.
        line = " ".join(_sh_word(w) for w in [_forms.word(name), *args])
        before = scope.get(_GIT_CONFIG, "")
        skip = len(posix(before, deadline)) if before else 0
        found = posix(f"{before}\n{line}" if before else line, deadline)[skip:]
        if args and args[0].text == "config":
            scope[_GIT_CONFIG] = f"{before}\n{line}" if before else line
        return [_tagged(c, via) for c in found]
    if name in _WRITERS:
        path = _written(name, args)
        if path is not None:
            target = _posix_path(path)
            argv = (name, *(a.text for a in args))
            return [Command(argv, redirects=(*redirects, (">", target)), via=via)]
    return None


def _value(w: Word, scope: dict[str, str]) -> tuple[str, bool]:
    """A string argument's value (a literal, literals joined by ``+``, or a variable
    assigned one earlier); True when it is computed."""
    src = w.source.strip()
    if src.startswith("$") and src[1:].replace("_", "a").isalnum():
        value = scope.get(src[1:].lower())
        return _forms.unquote(value) if value is not None else (src, True)
    return _forms.unquote(src)


def _written(name: str, args: list[Word]) -> str | None:
    params = _WRITERS[name]
    positional: list[str] = []
    i = 0
    while i < len(args):
        w = args[i]
        i += 1
        if w.text.startswith("-") and len(w.text) > 1 and not w.source.startswith(("'", '"')):
            flag, colon, value = w.text[1:].lower().partition(":")
            if flag in _SWITCH_LIKE:
                continue
            found = [p for p in params if p.startswith(flag)]
            if colon:
                if found:
                    return value
                continue
            if found and i < len(args):
                return args[i].text
            i += 1
            continue
        positional.append(w.text)
    slot = 1 if name in _SECOND else 0
    return positional[slot] if len(positional) > slot else None


def _posix_path(path: str) -> str:
    """A PowerShell path as dcg's self-protection reads paths: ``$env:USERPROFILE\\x`` is
    ``$HOME/x``, backslashes are slashes."""
    text = path.replace("\\", "/")
    low = text.lower()
    for prefix in ("${env:userprofile}", "$env:userprofile", "${env:home}", "$env:home",
                   "${home}", "$home"):  # fmt: skip
        if low == prefix or low.startswith(prefix + "/"):
            return "$HOME" + text[len(prefix) :]
    return text


def _sh_word(w: Word) -> str:
    """A PowerShell argument as one POSIX shell word (a computed one stays computed)."""
    text = w.text
    if w.dynamic or text.startswith("$"):
        return '"' + "".join("\\" + c if c in '"\\`' else c for c in text) + '"'
    return "'" + text.replace("'", "'\\''") + "'"


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
    name: str, args: list[Word], upstream: list[Word] | None, via: tuple[str, ...]
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
    if upstream is not None:
        # `gci x | % { Remove-Item $_ }`: the item is what the lister lists.
        paths = [p for p in paths if not p.lower().startswith(("$_", "$psitem"))]
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


def _pwsh_script(args: list[Word]) -> str | None:
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


def _posix_script(name: str, args: list[Word]) -> str | None:
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


def _cmd_script(args: list[Word]) -> str | None:
    for i, word in enumerate(args):
        if word.text.lower() in ("/c", "/k", "/r"):
            rest = " ".join(a.text for a in args[i + 1 :])
            return rest or None
    return None


def _cmd(
    script: str, deadline: float | None, depth: int, via: tuple[str, ...], posix: Posix
) -> list[Command]:
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
            out.extend(parse(segment.strip(), deadline, depth + 1, via, posix))
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
