"""What echo and printf print, when that is known without running them."""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path
if TYPE_CHECKING:
    from dcg.shell.parser import Simple
    from dcg.shell.words import Token

_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "r": "\r", "a": "\a", "v": "\v", "f": "\f"}


def echo_text(args: list[str]) -> str:
    """The output of ``echo ARGS`` (bash builtin), without the final newline."""
    i = 0
    escapes = False
    while (
        i < len(args) and len(args[i]) > 1 and args[i][0] == "-" and set(args[i][1:]) <= set("neE")
    ):
        escapes = "e" in args[i] or escapes
        i += 1
    text = " ".join(args[i:])
    return unescape(text) if escapes else text


def printf_text(args: list[str]) -> str | None:
    """The output of ``printf FORMAT ARGS`` for plain formats, else None."""
    if args[:1] == ["--"]:  # printf -- '-include x.mk\n': the format may start with "-"
        args = args[1:]
    if not args or args[0] == "-v":
        return None
    fmt, rest = args[0], args[1:]
    if fmt in ("%s", "%b", "%s\\n", "%b\\n"):
        text = ("\n" if fmt.endswith("n") else "").join(rest)
        return (unescape(text) if fmt.startswith("%b") else text).rstrip("\n")
    return _format(fmt, rest)


def _format(fmt: str, args: list[str]) -> str | None:
    """printf's output for formats made of text, %s, %b, %d and %%; None for others.

    Like printf, the format is reused while arguments remain.
    """
    out: list[str] = []
    k = 0
    for _ in range(64):  # bounded: a format without conversions is used once
        i, n, used = 0, len(fmt), False
        while i < n:
            c = fmt[i]
            if c != "%":
                out.append(c)
                i += 1
                continue
            conv = fmt[i + 1] if i + 1 < n else ""
            if conv == "%":
                out.append("%")
            elif conv in ("s", "b", "d"):
                arg = args[k] if k < len(args) else ""
                k += 1
                used = True
                out.append(unescape(arg) if conv == "b" else arg)
            else:
                return None
            i += 2
        if not used or k >= len(args):
            break
    return unescape("".join(out)).rstrip("\n")


def unescape(text: str) -> str:
    """Resolve the backslash escapes echo -e and printf understand (the common ones)."""
    if "\\" not in text:
        return text
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "\\" and i + 1 < n and text[i + 1] in _ESCAPES:
            out.append(_ESCAPES[text[i + 1]])
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def piped_text(pipe: Simple) -> str | None:
    argv = pipe.fields
    from dcg.shell.unwrap import normalize

    name = normalize(argv[0]) if argv else ""
    if name == "echo":
        return echo_text(argv[1:])
    if name == "printf":
        return printf_text(argv[1:])
    if name == "cat" and pipe.stdin is not None and all(a.startswith("-") for a in argv[1:]):
        return pipe.stdin
    return None


def static_output(tokens: list[Token], env: dict[str, str | None]) -> str | None:
    """The output of $(echo WORDS), $(printf %s WORD) or $(mktemp …), when it is known."""
    from dcg.shell.words import expand

    args: list[str] = []
    for kind, _, word, _ in tokens:
        if kind != "w" or word is None:
            return None
        fields, dyn = expand(word, env, lambda _w, _k: None)
        if dyn:
            return None
        args.extend(fields)
    if not args:
        return None
    if args[0] == "echo":
        return echo_text(args[1:])
    if args[0] == "printf":
        return printf_text(args[1:])
    if args[0] == "mktemp":
        from dcg.targets import mktemp_output

        return mktemp_output(args[1:])
    return None
