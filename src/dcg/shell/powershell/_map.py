"""PowerShell commands as the rules see them: cmdlets and aliases mapped to POSIX argv.

``Remove-Item -Recurse -Force X`` becomes ``rm -r -f X``, ``git …`` stays ``git …``,
``cmd /c "…"`` and ``pwsh -Command "…"`` are parsed again as what they run, and
``bash -c "…"`` is handed to the POSIX shell parser the caller passed in.
"""

from __future__ import annotations

from dcg.shell.command import Command
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
    line: str, deadline: float | None, depth: int, via: tuple[str, ...], posix: Posix
) -> list[Command]:
    """The simple commands ``line`` would run in PowerShell, destructive forms mapped."""

    def emit(
        words: list[Word],
        redirects: tuple[tuple[str, str], ...],
        upstream: list[Word] | None,
        depth: int,
        via: tuple[str, ...],
    ) -> list[Command]:
        return _commands(words, redirects, upstream, deadline, depth, via, posix)

    return lex(line, deadline, depth, via, emit)


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
            return parse(script, deadline, depth + 1, (*via, f"{name} -Command"), posix)
    if name in _EVAL and args and not args[0].dynamic:
        return parse(args[0].text, deadline, depth + 1, (*via, name), posix)
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
