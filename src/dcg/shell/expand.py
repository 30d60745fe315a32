"""What bash expands before a word is used: brace expansion and glob patterns.

Brace expansion works on the lexer's words (only unquoted ``{``, ``,`` and ``..`` count)
and happens before any other expansion, as in bash; its results are bounded
(:data:`MAX_BRACE`). Glob patterns are matched here without ``re`` (which costs half an
interpreter start on the hook's path): :func:`match` for one name, :func:`path_match`
for a whole path pattern against a path, :func:`command_candidates` for a glob in a
command word (known command names, and the real filesystem for an absolute pattern,
bounded). ``$IFS`` splitting lives with the rest of word expansion (:mod:`dcg.shell.words`).
"""

from __future__ import annotations

from dcg import oslite as os

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from collections.abc import Iterable

    from dcg.shell.words import Word

# Words one brace expansion may produce, and items one {a..z} sequence may produce.
MAX_BRACE = 256
MAX_SEQUENCE = 64
# Directory entries read, and matches kept, when a command word's glob is matched on disk.
MAX_SCAN = 4096
MAX_CANDIDATES = 32
GLOB_CHARS = frozenset("*?[")


def braces(word: Word) -> list[Word]:
    """The words ``word`` becomes after brace expansion (``[word]`` when it has none)."""
    if not any(p[0] == "s" and not p[3] and "{" in p[1] for p in word.parts):
        return [word]
    # One unquoted character (which may be brace syntax) or a part that never is
    # (quoted text, an expansion).
    atoms: list[object] = []
    for part in word.parts:
        if part[0] == "s" and not part[3]:
            atoms.extend(part[1])
        else:
            atoms.append(part)
    results: list[list[object]] = []
    _expand_atoms(atoms, results)
    if len(results) == 1 and results[0] == atoms:
        return [word]
    return [_word(word, r) for r in results]


def _word(model: Word, atoms: list[object]) -> Word:
    w = type(model)()
    w.subs = model.subs
    w.quoted = model.quoted
    run: list[str] = []
    for atom in atoms:
        if isinstance(atom, str):
            run.append(atom)
            continue
        if run:
            text = "".join(run)
            w.parts.append(("s", text, text, False))
            run = []
        w.parts.append(atom)  # type: ignore[arg-type]
    if run:
        text = "".join(run)
        w.parts.append(("s", text, text, False))
    if not w.parts:
        w.parts.append(("s", "", "", True))  # `{,x}`'s empty alternative is an empty word
    return w


def _expand_atoms(atoms: list[object], out: list[list[object]]) -> None:
    """Append every expansion of ``atoms`` to ``out`` (bounded by MAX_BRACE)."""
    if len(out) >= MAX_BRACE:
        return
    found = _first_brace(atoms)
    if found is None:
        out.append(atoms)
        return
    start, end, alternatives = found
    pre, post = atoms[:start], atoms[end + 1 :]
    for alt in alternatives:
        _expand_atoms(pre + alt + post, out)
        if len(out) >= MAX_BRACE:
            return


def _first_brace(atoms: list[object]) -> tuple[int, int, list[list[object]]] | None:
    """The first ``{…}`` that expands: its span and its alternatives."""
    n = len(atoms)
    for i in range(n):
        if atoms[i] != "{" or (i and atoms[i - 1] == "$"):
            continue
        depth = 0
        commas: list[int] = []
        for j in range(i + 1, n):
            a = atoms[j]
            if a == "{":
                depth += 1
            elif a == "}":
                if depth == 0:
                    if commas:
                        cuts = [i, *commas, j]
                        alts = [atoms[cuts[k] + 1 : cuts[k + 1]] for k in range(len(cuts) - 1)]
                        return i, j, alts
                    seq = _sequence(atoms[i + 1 : j])
                    if seq is not None:
                        return i, j, [list(item) for item in seq]
                    break
                depth -= 1
            elif a == "," and depth == 0:
                commas.append(j)
    return None


def _sequence(inner: list[object]) -> list[str] | None:
    """``a..e``, ``1..10``, ``01..10..3``, ``z..a``: the items, bounded; else None."""
    if not all(isinstance(a, str) for a in inner):
        return None
    text = "".join(inner)  # type: ignore[arg-type]
    bits = text.split("..")
    if len(bits) not in (2, 3):
        return None
    step = 1
    if len(bits) == 3:
        if not _is_int(bits[2]):
            return None
        step = abs(int(bits[2])) or 1
    lo, hi = bits[0], bits[1]
    if _is_int(lo) and _is_int(hi):
        a, b = int(lo), int(hi)
        width = (
            max(len(lo), len(hi)) if (lo.lstrip("-")[:1] == "0" or hi.lstrip("-")[:1] == "0") else 0
        )
        values = _bounded(a, b, step)
        return [str(v).zfill(width) if width else str(v) for v in values]
    if len(lo) == 1 and len(hi) == 1 and lo.isalpha() and hi.isalpha():
        return [chr(v) for v in _bounded(ord(lo), ord(hi), step)]
    return None


def _is_int(text: str) -> bool:
    t = text[1:] if text[:1] in "+-" else text
    return t.isdigit() and t.isascii()


def _bounded(a: int, b: int, step: int) -> list[int]:
    """a..b by step, at most MAX_SEQUENCE items (the last one always kept)."""
    direction = 1 if b >= a else -1
    count = abs(b - a) // step + 1
    if count <= MAX_SEQUENCE:
        return [a + direction * step * k for k in range(count)]
    head = [a + direction * step * k for k in range(MAX_SEQUENCE - 1)]
    return [*head, a + direction * step * (count - 1)]


# ---- globs -------------------------------------------------------------------------------


def has_glob(text: str) -> bool:
    """``*``, ``?`` or a closed ``[…]``: a pattern bash would match against file names."""
    if "*" in text or "?" in text:
        return True
    i = text.find("[")
    return i >= 0 and text.find("]", i + 2) > 0


def match(pattern: str, name: str) -> bool:
    """fnmatch for one path component: ``*``, ``?``, ``[…]`` (``!``/``^``, ranges)."""
    p, n = 0, 0
    star_p, star_n = -1, 0
    lp, ln = len(pattern), len(name)
    while n < ln:
        if p < lp:
            c = pattern[p]
            if c == "*":
                star_p, star_n = p, n
                p += 1
                continue
            if c == "?":
                p += 1
                n += 1
                continue
            if c == "[":
                ok, end = _bracket(pattern, p, name[n])
                if end > 0:
                    if ok:
                        p, n = end, n + 1
                        continue
                elif name[n] == "[":
                    p, n = p + 1, n + 1
                    continue
            elif c == name[n]:
                p += 1
                n += 1
                continue
        if star_p < 0:
            return False
        star_n += 1
        p, n = star_p + 1, star_n
    while p < lp and pattern[p] == "*":
        p += 1
    return p == lp


def _bracket(pattern: str, p: int, ch: str) -> tuple[bool, int]:
    """Whether ``ch`` is in the bracket expression at ``p``, and the index after it (-1 if
    the bracket is not closed, so ``[`` is literal)."""
    i = p + 1
    negate = i < len(pattern) and pattern[i] in "!^"
    if negate:
        i += 1
    first = i
    hit = False
    while i < len(pattern):
        c = pattern[i]
        if c == "]" and i > first:
            return hit != negate, i + 1
        if i + 2 < len(pattern) and pattern[i + 1] == "-" and pattern[i + 2] != "]":
            hit = hit or c <= ch <= pattern[i + 2]
            i += 3
            continue
        hit = hit or c == ch
        i += 1
    return False, -1


def path_match(pattern: str, path: str) -> bool:
    """An absolute normalised path pattern against an absolute path, component by component."""
    pa = pattern.strip("/").split("/")
    pb = path.strip("/").split("/")
    if len(pa) != len(pb):
        return False
    for a, b in zip(pa, pb, strict=True):
        if not match(a, b):
            return False
        if b.startswith(".") and not a.startswith("."):
            return False  # `*` does not match a leading dot
    return True


def command_candidates(word: str, known: Iterable[str]) -> list[str]:
    """What a glob in a command word could run: the known command names its last
    component matches (destructive ones first, as ``known`` is ordered), and for an
    absolute pattern the executables it matches on disk (bounded)."""
    base = word.rpartition("/")[2]
    found: list[str] = []
    seen: set[str] = set()
    if base:
        for name in known:
            if name not in seen and match(base, name):
                seen.add(name)
                found.append(name)
                if len(found) >= MAX_CANDIDATES:
                    return found
    if word.startswith("/"):
        for path in _disk(word):
            name = path.rpartition("/")[2]
            if name not in seen:
                seen.add(name)
                found.append(path)
                if len(found) >= MAX_CANDIDATES:
                    break
    return found


def disk_matches(pattern: str) -> list[str]:
    """Files an absolute glob matches on disk (bounded like a command word's glob)."""
    return _disk(pattern)


def _disk(pattern: str) -> list[str]:
    """Files an absolute glob matches, reading at most MAX_SCAN directory entries."""
    paths = ["/"]
    budget = MAX_SCAN
    for comp in pattern.strip("/").split("/"):
        if not comp:
            continue
        nxt: list[str] = []
        for base in paths:
            if not has_glob(comp):
                nxt.append(base.rstrip("/") + "/" + comp)
                continue
            try:
                with os.scandir(base) as it:
                    for entry in it:
                        budget -= 1
                        if budget < 0:
                            break
                        if match(comp, entry.name) and (
                            comp.startswith(".") or not entry.name.startswith(".")
                        ):
                            nxt.append(entry.path)
            except OSError:
                continue
        paths = sorted(nxt)[:MAX_CANDIDATES]
        if not paths or budget < 0:
            break
    return [p for p in paths if os.path.isfile(p)]
