"""GNU make's functions in a recipe, evaluated as make does before the shell sees the line.

``$(foreach p,$(PKGS),echo $(p);)`` is make's loop, not a command substitution of a
program named ``foreach``; ``$(eval …)``, ``$(info …)`` leave nothing in the recipe;
``$(call f,a)`` is ``f``'s value with ``$(1)`` = ``a``. Only ``$(shell CMD)`` runs a
shell, so it becomes the shell's ``$(CMD)`` and its command is judged. Text functions
(``patsubst``, ``dir``, ``addprefix``…) are computed on the words they are given; a
function this module does not know is left as written.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    Expand = Callable[[str, dict[str, str]], str]

# Functions whose result is empty: their effect is on make itself.
_EMPTY = frozenset(("eval", "info", "warning", "error"))
# How many arguments each function splits at its commas (the last one keeps the rest).
_ARITY = {
    "foreach": 3, "call": 0, "shell": 1, "wildcard": 1, "strip": 1, "sort": 1,
    "firstword": 1, "lastword": 1, "words": 1, "dir": 1, "notdir": 1, "basename": 1,
    "suffix": 1, "abspath": 1, "realpath": 1, "addprefix": 2, "addsuffix": 2,
    "subst": 3, "patsubst": 3, "filter": 2, "filter-out": 2, "findstring": 2,
    "word": 2, "wordlist": 3, "if": 3, "or": 0, "and": 0, "value": 1, "origin": 1,
    "flavor": 1, "join": 2,
}  # fmt: skip
NAMES = frozenset(_ARITY) | _EMPTY


def closing(text: str, start: int, close: str) -> int:
    """Index of the ``close`` that ends the reference opened just before ``start``."""
    opening = "(" if close == ")" else "{"
    depth = 0
    for i in range(start, len(text)):
        c = text[i]
        if c == opening:
            depth += 1
        elif c == close:
            if depth == 0:
                return i
            depth -= 1
    return -1


def split_args(text: str, limit: int) -> list[str]:
    """The function's arguments: top-level commas split, at most ``limit`` parts (0: all)."""
    out: list[str] = []
    depth = 0
    last = 0
    for i, c in enumerate(text):
        if c in "({":
            depth += 1
        elif c in ")}":
            depth -= 1
        elif c == "," and depth == 0 and (limit == 0 or len(out) < limit - 1):
            out.append(text[last:i])
            last = i + 1
    out.append(text[last:])
    return out


def _pattern(pattern: str, word: str) -> str | None:
    """What ``%`` stands for when ``word`` matches ``pattern`` (None: no match)."""
    if "%" not in pattern:
        return "" if word == pattern else None
    head, _, tail = pattern.partition("%")
    if len(word) >= len(head) + len(tail) and word.startswith(head) and word.endswith(tail):
        return word[len(head) : len(word) - len(tail)]
    return None


def _dir(word: str) -> str:
    return word[: word.rfind("/") + 1] if "/" in word else "./"


def _basename(word: str) -> str:
    dot = word.rfind(".")
    return word[:dot] if dot > word.rfind("/") else word


def _suffix(word: str) -> str:
    dot = word.rfind(".")
    return word[dot:] if dot > word.rfind("/") else ""


def call(name: str, body: str, variables: dict[str, str], expand: Expand) -> str | None:
    """The text ``$(name body)`` stands for, or None to leave it as written."""
    if name in _EMPTY:
        return ""
    args = split_args(body, _ARITY[name])
    if name == "foreach":
        if len(args) < 3:
            return None
        var = expand(args[0], variables).strip()
        return " ".join(
            expand(args[2], {**variables, var: w}) for w in expand(args[1], variables).split()
        )
    if name == "call":
        function = expand(args[0], variables).strip()
        local = {**variables, "0": function}
        local.update({str(k): expand(a, variables) for k, a in enumerate(args[1:], 1)})
        return expand(variables.get(function, ""), local)
    if name == "if":
        if len(args) < 2:
            return None
        chosen = args[1] if expand(args[0], variables).strip() else "".join(args[2:3])
        return expand(chosen, variables)
    if name in ("or", "and"):
        value = ""
        for arg in args:
            value = expand(arg, variables).strip()
            if bool(value) == (name == "or"):
                return value
        return value
    if name == "value":
        return variables.get(args[0].strip(), "")
    if name in ("origin", "flavor"):
        return "file" if name == "origin" else "recursive"
    values = [expand(a, variables) for a in args]
    if name == "shell":
        return "$(" + values[0] + ")"  # the one function that runs a shell
    return _text(name, values)


def _text(name: str, values: list[str]) -> str | None:
    words = values[-1].split()
    if name in ("wildcard", "strip", "abspath", "realpath"):
        return " ".join(words)
    if name == "sort":
        return " ".join(sorted(set(words)))
    if name in ("firstword", "lastword"):
        return "" if not words else words[0] if name == "firstword" else words[-1]
    if name == "words":
        return str(len(words))
    if name in ("dir", "notdir", "basename", "suffix"):
        pick = {"dir": _dir, "notdir": lambda w: w.rpartition("/")[2],
                "basename": _basename, "suffix": _suffix}[name]  # fmt: skip
        return " ".join(pick(w) for w in words)
    if len(values) < 2:
        return None
    if name in ("addprefix", "addsuffix"):
        fix = values[0].strip()
        return " ".join(fix + w if name == "addprefix" else w + fix for w in words)
    if name in ("filter", "filter-out"):
        patterns = values[0].split()
        keep = name == "filter"
        return " ".join(
            w for w in words if any(_pattern(p, w) is not None for p in patterns) == keep
        )
    if name == "findstring":
        return values[0] if values[0] in values[1] else ""
    if name == "join":
        first = values[0].split()
        return " ".join(
            (first[k] if k < len(first) else "") + (words[k] if k < len(words) else "")
            for k in range(max(len(first), len(words)))
        )
    if len(values) < 3 and name != "word":
        return None
    return _three(name, values, words)


def _three(name: str, values: list[str], words: list[str]) -> str | None:
    if name == "subst":
        return values[2].replace(values[0], values[1]) if values[0] else values[2]
    if name == "patsubst":
        pattern, replacement = values[0].strip(), values[1].strip()
        out = []
        for w in words:
            stem = _pattern(pattern, w)
            out.append(w if stem is None else replacement.replace("%", stem, 1))
        return " ".join(out)
    numbers = [v.strip() for v in values[:-1]]
    if not all(n.isdigit() for n in numbers):
        return None
    if name == "word":
        k = int(numbers[0])
        return words[k - 1] if 0 < k <= len(words) else ""
    if name == "wordlist":
        return " ".join(words[int(numbers[0]) - 1 : int(numbers[1])])
    return None
