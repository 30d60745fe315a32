"""Makefile recipes: target -> recipe lines, with ``@``/``-``/``+`` stripped and line numbers.

Variables assigned anywhere in the file with ``=``, ``:=``, ``::=``, ``?=`` or ``+=`` are
expanded in recipe lines (``$(VAR)``, ``${VAR}``; make expands recipes after reading the
whole file), as are make's built-ins (``$(RM)`` is ``rm -f``); a variable the file does not
set comes from the environment, so it becomes the shell's ``${VAR}``; ``$$`` becomes ``$``;
make's own functions are make's (:mod:`dcg.extract.makefuncs`: ``$(foreach …)`` loops,
``$(eval …)`` is empty, ``$(shell CMD)`` is the shell's ``$(CMD)``); ``define`` blocks are
variables, not rules; automatic variables are left as written.
"""

from __future__ import annotations

from dcg.extract import makefuncs
from dcg.extract.found import Found

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

_ASSIGN_OPS = ("::=", ":=", "?=", "+=", "!=", "=")
_DIRECTIVES: tuple[str, ...] = (" ", "define", "endef", "ifeq", "ifneq", "ifdef", "ifndef")
_DIRECTIVES += ("else", "endif", "include", "-include", "export", "unexport", "override", "vpath")
# GNU make's built-in values that recipes use as commands.
_DEFAULTS = {
    "RM": "rm -f",
    "MAKE": "make",
    "CC": "cc",
    "CXX": "g++",
    "AR": "ar",
    "SHELL": "/bin/sh",
}


def _logical(text: str) -> list[tuple[int, str]]:
    """``(1-based line, text)`` with backslash-newline continuations joined."""
    out: list[tuple[int, str]] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        start, line = i, lines[i]
        while line.endswith("\\") and i + 1 < len(lines):
            i += 1
            nxt = lines[i]
            if line.startswith("\t"):
                # A recipe passes backslash-newline to the shell; make drops one leading tab.
                line += "\n" + (nxt[1:] if nxt.startswith("\t") else nxt)
            else:
                line = line[:-1] + " " + nxt.lstrip()
        out.append((start + 1, line))
        i += 1
    return out


def _assignment(line: str) -> tuple[str, str, str] | None:
    for op in _ASSIGN_OPS:
        at = line.find(op)
        if at > 0:
            name = line[:at].strip()
            if name.startswith(("export ", "override ")):
                name = name.split(None, 1)[1].strip()
            colon = line.find(":")
            # `target: a=b` is a target-specific variable, `a := b` an assignment.
            if colon != -1 and colon < at and not op.startswith(":") and line[colon:at].strip(":"):
                return None
            if name and all(c.isalnum() or c in "_.-" for c in name):
                return name, op, line[at + len(op) :].strip()
    return None


def _expand(text: str, variables: dict[str, str], depth: int = 0) -> str:
    out: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "$" and i + 1 < len(text):
            nxt = text[i + 1]
            if nxt == "$":
                out.append("$")
                i += 2
                continue
            if nxt in "({":
                close = ")" if nxt == "(" else "}"
                whole = makefuncs.closing(text, i + 2, close)
                head, _, body = text[i + 2 : whole].partition(" ")
                if whole != -1 and head in makefuncs.NAMES and depth < 8:
                    value = makefuncs.call(head, body, variables, _function_expand(depth))
                    if value is not None:
                        out.append(value)
                        i = whole + 1
                        continue
                end = text.find(close, i + 2)
                name = text[i + 2 : end] if end != -1 else ""
                if name in variables and depth < 8:
                    out.append(_expand(variables[name], variables, depth + 1))
                    i = end + 1
                    continue
                if name in _DEFAULTS:
                    out.append(_DEFAULTS[name])
                    i = end + 1
                    continue
                if (
                    name
                    and (name[0].isalpha() or name[0] == "_")
                    and name.replace("_", "").isalnum()
                ):
                    # Not set in the file: make takes it from the environment, as the
                    # shell would; `$(HOME)` is `${HOME}`, never a command substitution.
                    out.append("${" + name + "}")
                    i = end + 1
                    continue
        out.append(c)
        i += 1
    return "".join(out)


def _function_expand(depth: int) -> makefuncs.Expand:
    def expand(text: str, variables: dict[str, str]) -> str:
        return _expand(text, variables, depth + 1)

    return expand


def recipes(text: str, path: str = "Makefile") -> dict[str, list[Found]]:
    """Every rule's recipe lines, by target (a rule with several targets is listed under each)."""
    return rules(text, path)[0]


def rules(
    text: str, path: str = "Makefile", overrides: dict[str, str] | None = None
) -> tuple[dict[str, list[Found]], dict[str, list[str]]]:
    """Every rule's recipe lines and prerequisites, by target, in file order.

    ``overrides`` are variables set on make's command line (``make clean DIR=/``): they
    win over the file's assignments, as in make.
    """
    variables: dict[str, str] = {}
    rules: dict[str, list[Found]] = {}
    deps: dict[str, list[str]] = {}
    current: list[str] = []
    defining: tuple[str, list[str]] | None = None
    for number, line in _logical(text):
        if defining is not None:
            if line.strip() == "endef" or line.strip().startswith("endef "):
                variables[defining[0]] = "\n".join(defining[1])
                defining = None
            else:
                defining[1].append(line)
            continue
        if line.startswith(("define ", "override define ", "export define ")):
            words = line.split()
            name = (
                words[words.index("define") + 1] if len(words) > words.index("define") + 1 else ""
            )
            defining = (name, [])
            current = []
            continue
        if line.startswith("\t"):
            stripped = line[1:].lstrip(" \t")
            while stripped[:1] in ("@", "-", "+") and stripped:
                stripped = stripped[1:].lstrip(" \t")
            column = len(line.split("\n", 1)[0]) - len(stripped.split("\n", 1)[0]) + 1
            if current and stripped and not stripped.startswith("#"):
                for target in current:
                    rules[target].append(Found(path, number, column, stripped, "makefile", target))
            continue
        code = line.split("#", 1)[0]
        if not code.strip():
            continue
        assigned = _assignment(code)
        if assigned is not None:
            name, op, value = assigned
            if op == "+=" and name in variables:
                variables[name] += " " + value
            elif op != "?=" or name not in variables:
                variables[name] = value
            current = []
            continue
        colon = code.find(":")
        if colon <= 0 or code.startswith(_DIRECTIVES):
            current = []
            continue
        targets = code[:colon].split()
        rest = code[colon:].lstrip(":")
        current = [t for t in targets if not t.startswith(".") or "/" in t]
        prereqs = [d for d in rest.split(";", 1)[0].split() if d != "|"]
        for target in current:
            rules.setdefault(target, [])
            deps.setdefault(target, []).extend(prereqs)
        if ";" in rest:
            after = rest.split(";", 1)[1]
            inline = after.strip()
            if inline:
                column = line.index(";") + 2 + len(after) - len(after.lstrip())
                for target in current:
                    rules[target].append(Found(path, number, column, inline, "makefile", target))
    variables.update(overrides or {})
    # Make expands a recipe when it runs it, with every variable of the file known.
    run_in = _shell(variables)
    expanded = {
        target: [
            Found(f.path, f.line, f.column, run_in(_expand(f.text, variables)), f.source, f.label)
            for f in found
        ]
        for target, found in rules.items()
    }
    return expanded, {t: [_expand(d, variables) for d in ds] for t, ds in deps.items()}


_SHELLS = frozenset(("sh", "bash", "dash", "zsh", "ksh", "mksh", "ash"))


def _shell(variables: dict[str, str]) -> Callable[[str], str]:
    """How make runs a recipe line: ``$(SHELL) $(.SHELLFLAGS) LINE``. A shell that is not
    a known one (``SHELL=./x.sh``) or flags that carry words of their own
    (``.SHELLFLAGS='-c "rm -rf src"; :'``) are part of the line dcg judges."""
    shell = _expand(variables.get("SHELL", "/bin/sh"), variables).strip() or "/bin/sh"
    flags = _expand(variables.get(".SHELLFLAGS", "-c"), variables).strip() or "-c"
    words = flags.split()
    if any(c in flags for c in "'\"\\"):  # shlex (and its re) only for quoted flags
        import shlex

        try:
            words = shlex.split(flags)
        except ValueError:
            words = [flags, flags]
    plain = all(w[:1] in ("-", "+") or (k and words[k - 1] in ("-o", "+o"))
                for k, w in enumerate(words))  # fmt: skip
    if plain and shell.rpartition("/")[2] in _SHELLS:
        return lambda line: line
    head = " ".join(_quote(w) for w in (shell, *words))
    return lambda line: f"{head} {_quote(line)}"


def _quote(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'"


def plan(
    text: str,
    targets: list[str],
    path: str = "Makefile",
    overrides: dict[str, str] | None = None,
    limit: int = 200,
) -> list[Found] | None:
    """The recipe lines ``make TARGETS`` runs, prerequisites first (each target once).

    With no target, make builds the first one in the file. None when a named target has
    no rule (make stops there, unless a file of that name exists).
    """
    recipe, deps = rules(text, path, overrides)
    early, goal = parse_time(text, path)
    if not targets:
        first = [t for t in recipe if "%" not in t]
        targets = [goal] if goal else first[:1]
    out: list[Found] = []
    done: set[str] = set()

    def visit(target: str, depth: int) -> None:
        if target in done or depth > 32 or len(out) > limit:
            return
        done.add(target)
        for dep in deps.get(target, ()):
            visit(dep, depth + 1)
        out.extend(recipe.get(target, ()))

    if any(t not in recipe for t in targets) and not out:
        known = [t for t in targets if t in recipe]
        if not known:
            return None
        targets = known
    for target in targets:
        visit(target, 0)
    return early + out


def parse_time(text: str, path: str = "Makefile") -> tuple[list[Found], str]:
    """What make runs while it reads the file, before any recipe: ``$(shell …)`` outside
    recipes and deferred (``=``) assignments, ``VAR != CMD``; and ``.DEFAULT_GOAL``."""
    early: list[Found] = []
    goal = ""
    defining = False
    for number, line in _logical(text):
        if defining or line.startswith("\t"):
            defining = defining and line.strip().split()[:1] != ["endef"]
            continue
        code = line.split("#", 1)[0]
        if code.lstrip().startswith(("define ", "override define ", "export define ")):
            defining = True
            continue
        assigned = _assignment(code)
        if assigned is not None:
            name, op, value = assigned
            if name == ".DEFAULT_GOAL":
                goal = value.split()[0] if value.split() else ""
            if op == "!=":
                early.append(Found(path, number, 1, value, "makefile", "(read)"))
            elif op in ("::=", ":=") and _SHELL in value.replace("${", "$("):
                early.append(
                    Found(path, number, 1, ": " + _expand(value, {}), "makefile", "(read)")
                )
            continue
        if _SHELL in code.replace("${", "$("):
            early.append(Found(path, number, 1, ": " + _expand(code, {}), "makefile", "(read)"))
    return early, goal


_SHELL = "$(shell"


def resolve(text: str, target: str) -> list[str] | None:
    """The recipe lines ``make TARGET`` runs (``None`` when there is no such target).

    With no target, make runs the first one in the file.
    """
    rules = recipes(text)
    if not target:
        target = next(iter(rules), "")
    found = rules.get(target)
    return None if found is None else [f.text for f in found]


def commands(path: str, text: str) -> list[Found]:
    seen: set[tuple[int, int]] = set()
    out: list[Found] = []
    for found in recipes(text, path).values():
        for f in found:
            if (f.line, f.column) not in seen:
                seen.add((f.line, f.column))
                out.append(f)
    out.sort(key=lambda f: (f.line, f.column))
    return out
