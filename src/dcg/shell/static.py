"""What echo and printf print, when that is known without running them."""

from __future__ import annotations

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
    if not args or args[0] == "-v":
        return None
    fmt, rest = args[0], args[1:]
    if fmt in ("%s", "%b", "%s\\n", "%b\\n"):
        text = ("\n" if fmt.endswith("n") else "").join(rest)
        return (unescape(text) if fmt.startswith("%b") else text).rstrip("\n")
    if "%" in fmt.replace("%%", ""):
        return None
    return unescape(fmt.replace("%%", "%")).rstrip("\n")


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
