"""The option grammar of shells and interpreters, in one home.

Which options take a value, which take inline code and which end the options.
:mod:`dcg.shell.payloads` reads the inline code from it, :mod:`dcg.shell.scripts` the
script file, :mod:`dcg.shell.implicit` what the interpreter loads at start-up. A value an
option takes is never the code or the script: ``bash -euo pipefail -c CMD`` runs CMD,
``python3 -W ignore -c CODE`` runs CODE, ``perl -I lib -e CODE`` runs CODE.
"""

from __future__ import annotations

# Kinds of option: CODE's value is inline code, VALUE's is data, REST takes the rest of
# its word (possibly empty; perl -Mstrict), DIGITS is followed by optional digits in the
# same word (perl -l0, -0777), MODULE's value names what runs and ends the options
# (python -m), SCRIPT's value is the script file (php -f), INERT runs nothing (node -c).
CODE, VALUE, REST, DIGITS = "code", "value", "rest", "digits"
MODULE, SCRIPT, INERT = "module", "script", "inert"


class Grammar:
    __slots__ = ("grouped", "long", "short")

    def __init__(self, short: dict[str, str], long: dict[str, str], grouped: bool = True) -> None:
        self.short = short  # letter (grouped) or whole word (not grouped) -> kind
        self.long = long  # long option without dashes -> kind
        self.grouped = grouped  # short options group in one word, a value attached (-Wignore)


_NODE_VALUES = ("require", "import", "loader", "experimental-loader", "conditions", "input-type",
    "title", "env-file", "env-file-if-exists", "disable-warning", "unhandled-rejections",
    "redirect-warnings", "icu-data-dir", "openssl-config", "tls-cipher-list", "tls-keylog",
    "dns-result-order", "diagnostic-dir", "report-dir", "report-directory", "report-filename",
    "report-signal", "heapsnapshot-signal", "heapsnapshot-near-heap-limit", "secure-heap",
    "secure-heap-min", "max-http-header-size", "experimental-policy", "policy-integrity",
    "watch-path", "test-name-pattern", "test-skip-pattern", "test-reporter",
    "test-reporter-destination", "test-shard", "test-concurrency", "test-timeout",
    "snapshot-blob", "experimental-sea-config", "localstorage-file", "cpu-prof-dir",
    "cpu-prof-name", "heap-prof-dir", "heap-prof-name", "trace-event-categories",
    "trace-event-file-pattern", "experimental-config-file", "run")  # fmt: skip
_NODE = Grammar(
    {"-e": CODE, "-p": CODE, "-pe": CODE, "-r": VALUE, "-C": VALUE, "-c": INERT, "-v": INERT,
     "-h": INERT},
    {"eval": CODE, "print": CODE, "check": INERT, "version": INERT, "help": INERT,
     **dict.fromkeys(_NODE_VALUES, VALUE)},
    grouped=False,
)  # fmt: skip
GRAMMARS: dict[str, Grammar] = {
    "python": Grammar({"c": CODE, "m": MODULE, "W": VALUE, "X": VALUE, "Q": VALUE},
                      {"check-hash-based-pycs": VALUE}),
    "javascript": _NODE,
    "ruby": Grammar({"e": CODE, "I": VALUE, "r": VALUE, "E": VALUE, "C": VALUE, "x": REST,
                     "i": REST, "F": REST, "K": REST, "W": REST, "T": REST, "0": DIGITS,
                     "c": INERT},
                    {"encoding": VALUE, "external-encoding": VALUE, "internal-encoding": VALUE,
                     "enable": VALUE, "disable": VALUE, "dump": VALUE}),
    "perl": Grammar({"e": CODE, "E": CODE, "I": VALUE, "M": REST, "m": REST, "x": REST,
                     "i": REST, "d": REST, "D": REST, "V": REST, "l": DIGITS, "0": DIGITS,
                     "C": DIGITS}, {}),
    "php": Grammar({"r": CODE, "B": CODE, "R": CODE, "E": CODE, "c": VALUE, "d": VALUE,
                    "z": VALUE, "t": VALUE, "S": VALUE, "f": SCRIPT, "F": SCRIPT},
                   {"run": CODE, "process-code": CODE, "process-begin": CODE,
                    "process-end": CODE, "file": SCRIPT, "process-file": SCRIPT,
                    "php-ini": VALUE, "define": VALUE, "zend-extension": VALUE, "rf": VALUE,
                    "rc": VALUE, "re": VALUE, "ri": VALUE}),
    # python -m timeit [-n N] [-r N] [-s SETUP] [-u UNIT] [-p] [-v] STATEMENT…
    "timeit": Grammar({"s": CODE, "n": VALUE, "r": VALUE, "u": VALUE},
                      {"setup": CODE, "number": VALUE, "repeat": VALUE, "unit": VALUE}),
}  # fmt: skip


class Parsed:
    """What an interpreter's words say it runs."""

    __slots__ = ("code", "first", "flags", "inert", "module", "script", "stdin", "values")

    def __init__(self) -> None:
        self.code: list[tuple[int, str]] = []  # (index of the word holding it, inline code)
        self.values: list[tuple[str, str]] = []  # (option, value) of the VALUE options
        self.flags = ""  # the short flag letters given
        self.module: str | None = None  # python -m MODULE
        self.script: tuple[int, str] | None = None  # (index, path) of the script file
        self.first = 0  # index of the first argument the program is given
        self.stdin = False  # the program is read from stdin (no code, module or script)
        self.inert = False  # an option that runs nothing (a syntax check, --version)


def parse(lang: str, argv: list[str], start: int = 1) -> Parsed:
    """The options of ``argv[start:]`` read by ``lang``'s grammar (:data:`GRAMMARS`)."""
    g = GRAMMARS[lang]
    p = Parsed()
    i, n = start, len(argv)
    while i < n:
        a = argv[i]
        if a == "--":
            i += 1
            break
        if len(a) < 2 or a[0] != "-":
            break
        i += 1
        if a.startswith("--") or not g.grouped:
            key, eq, val = (a[2:] if a.startswith("--") else a).partition("=")
            kind = (g.long if a.startswith("--") else g.short).get(key)
            if kind is None or kind in (REST, DIGITS):
                continue
            if kind == INERT:
                p.inert = True
                continue
            at = i - 1
            if not eq:
                if i >= n:
                    break
                val, at, i = argv[i], i, i + 1
            if _record(p, kind, a.partition("=")[0], val, at, i):
                return p
            continue
        j = 1
        while j < len(a):
            ch = a[j]
            kind = g.short.get(ch)
            j += 1
            if kind is None:
                p.flags += ch
                continue
            if kind == INERT:
                p.inert = True
                continue
            if kind == DIGITS:
                while j < len(a) and (a[j].isdigit() or (ch == "0" and a[j] in "xXabcdefABCDEF")):
                    j += 1
                continue
            if kind == REST:
                p.values.append(("-" + ch, a[j:]))
                break
            if j < len(a):
                val, at = a[j:], i - 1
            elif i < n:
                val, at, i = argv[i], i, i + 1
            else:
                break
            if _record(p, kind, "-" + ch, val, at, i):
                return p
            break
    p.first = i
    if not p.code and not p.inert:
        if i < n and argv[i] != "-":
            p.script, p.first = (i, argv[i]), i + 1
        else:
            p.stdin, p.first = True, i + (i < n)
    return p


def _record(p: Parsed, kind: str, option: str, val: str, at: int, i: int) -> bool:
    """Note an option's value; True when it ends the options (python -m, php -f)."""
    if kind == CODE:
        p.code.append((at, val))
    elif kind == VALUE:
        p.values.append((option, val))
    elif kind == MODULE:
        p.module, p.first = val, i
        return True
    elif kind == SCRIPT:
        p.script, p.first = (at, val), i
        return True
    return False


def timeit_code(argv: list[str], start: int) -> list[tuple[int, str]]:
    """The setup and statements ``python -m timeit`` runs, from its arguments at ``start``."""
    p = parse("timeit", argv, start)
    statements = range(p.script[0], len(argv)) if p.script is not None else ()
    return [*p.code, *((k, argv[k]) for k in statements)]


def shell_options(argv: list[str], i: int) -> tuple[int, bool, bool]:
    """(index of the first operand, -c given, -s given) of sh/bash/zsh's options from ``i``
    (:func:`shell_words`); with ``-c`` the first operand is the command string."""
    end, letters, _, longs = shell_words(argv, i)
    return end, "c" in letters or any(a == "--command" for a, _ in longs), "s" in letters


def shell_words(
    argv: list[str] | tuple[str, ...], i: int
) -> tuple[int, str, list[tuple[str, str]], list[tuple[str, str]]]:
    """(index of the first operand, the ``-`` letters given, the ``-o``/``+o``/``-O``/``+O``
    options with their values, the long options with theirs) of a shell's options.

    In a group of letters each ``o``/``O`` takes the next word as its value, in order
    (``-euo pipefail``, ``-oe pipefail``, ``-Oc extglob CMD``); ``+o``/``+O`` too; a
    ``-c`` anywhere among the options makes the first operand the command string."""
    n = len(argv)
    letters = ""
    named: list[tuple[str, str]] = []
    longs: list[tuple[str, str]] = []
    while i < n:
        a = argv[i]
        if a in ("--", "-"):
            return i + 1, letters, named, longs
        if len(a) < 2 or a[0] not in "-+":
            break
        i += 1
        if a.startswith("--"):
            value = argv[i] if a in ("--rcfile", "--init-file") and i < n else ""
            i += a in ("--rcfile", "--init-file")
            longs.append((a, value))
            continue
        for ch in a[1:]:
            if ch in "oO":
                named.append((a[0] + ch, argv[i] if i < n else ""))
                i += 1
            elif a[0] == "-":
                letters += ch
            else:  # `+n` turns `-n` off again
                letters = letters.replace(ch, "")
    return min(i, n), letters, named, longs


def shell_noexec(letters: str, named: list[tuple[str, str]]) -> bool:
    """``-n`` / ``-o noexec`` (and not ``-i``, which ignores it): the shell only reads."""
    on = "n" in letters or ("-o", "noexec") in named
    return on and ("+o", "noexec") not in named and "i" not in letters
