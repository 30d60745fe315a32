"""The exit status of a test whose every operand the walker knows: which branch runs.

``[ … ]``, ``test …``, ``true``, ``false`` and ``:`` as a whole pipeline (``!`` counted)
are evaluated as bash would when every field is known (:attr:`Simple.dyns`); anything
else — a variable from the environment, a command's output, a file test, ``$?`` — is
None, and both branches are walked (:mod:`dcg.shell.flow`). Nothing is decided where the
line could have changed what these commands do: a function or alias of one of their
names, ``enable``, an exported ``BASH_FUNC_``, a self-changing variable (``RANDOM``) the
line assigned, or an unquoted expansion split by an ``IFS`` the line changed.
"""

from __future__ import annotations

from dcg.shell.shellvars import home_only

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.shell.parser import Simple
    from dcg.shell.state import Vars

TESTS = frozenset(("[", "test", "true", "false", ":"))
# Variables bash changes by itself: a value the line assigned is not what it reads.
_MAGIC = ("RANDOM", "SRANDOM", "SECONDS", "LINENO", "BASHPID", "EPOCHSECONDS",
          "EPOCHREALTIME", "HISTCMD", "BASH_COMMAND", "PPID", "UID", "EUID", "GROUPS",
          "PIPESTATUS", "BASH_REMATCH", "OPTIND", "OPTARG", "REPLY", "MAPFILE",
          "DIRSTACK")  # fmt: skip
# Variables a test may read whose value bash keeps itself (cd, a pipeline, a call).
_OWN = frozenset((*_MAGIC, "PWD", "OLDPWD", "FUNCNAME", "BASH_SOURCE", "BASH_LINENO",
                  "BASH_ARGC", "BASH_ARGV", "COPROC", "SHELLOPTS", "BASHOPTS"))  # fmt: skip
_DECLARERS = frozenset(("declare", "typeset", "local", "readonly", "export"))
_DEFAULT_IFS = " \t\n"
_INTS = frozenset(("-eq", "-ne", "-lt", "-le", "-gt", "-ge"))


def decidable(env: Vars, funcs: object) -> bool:
    """Whether the test commands are the builtins, as the line leaves them."""
    state = env.state
    if state.aliases or state.enabled or state.undecided or state.covering:
        return False
    if funcs and any(name in funcs for name in TESTS):  # type: ignore[operator]
        return False
    if any(env.get(name) is not None for name in _MAGIC):
        return False
    return not any(k.startswith("BASH_FUNC_") for k in env)


def status(simple: Simple, env: Vars) -> int | None:
    """0 or 1 when the command's exit status is certain, else None."""
    fields = simple.fields
    if not simple.solo or not fields or simple.redirects or fields[0] not in TESTS:
        return None
    if any(simple.dyns) or len(fields) != len(simple.dyns):
        return None
    name = fields[0]
    if name == "[" and fields[-1] != "]":
        return None
    operands = fields[1:-1] if name == "[" else fields[1:]
    # A value the walker keeps as written ($HOME, ~) or a glob bash would match on disk.
    if any(c in a for a in operands for c in "$~*?[\x00"):
        return None
    if env.get("IFS", _DEFAULT_IFS) != _DEFAULT_IFS and any(
        p[0] != "s" and not p[3] for w in simple.words for p in w.parts
    ):
        return None
    if any(_name(p[2]) in _OWN for w in simple.words for p in w.parts if p[0] != "s"):
        return None
    if name in ("true", ":"):
        got: int | None = 0
    elif name == "false":
        got = 1
    else:
        got = _test(operands)
    if got is None or simple.solo > 0:
        return got
    return 1 - got


def _name(raw: str) -> str:
    """The variable an expansion ``$X``/``${X…}`` reads."""
    text = raw[2:] if raw[:2] == "${" else raw[1:]
    end = 0
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    return text[:end]


def untracked(simple: Simple, env: Vars) -> None:
    """After a command that may set variables in ways the walker does not follow
    (``eval``, a source of a device, ``getopts``, ``wait -p``, ``{fd}>`` redirections,
    case-changing declarations, an arithmetic assignment inside a word), nothing more is
    decided in this shell."""
    fields = simple.fields
    head = fields[0] if fields else ""
    taken = head in ("eval", "getopts", "exec") or (head == "wait" and "-p" in fields)
    # `shopt -s lastpipe`: a pipeline's last command (`echo 2 | read x`) runs in this shell
    taken = taken or (head == "shopt" and "lastpipe" in fields)
    if head in (".", "source") and fields[1:]:
        # a file dcg reads is followed; one it cannot name may define anything
        name, dyn = fields[1], simple.dyns[1] if len(simple.dyns) > 1 else True
        taken = name.startswith(("/dev/", "/proc/")) or (dyn and not home_only(name))
    if head in _DECLARERS and any(a[:1] in "-+" and any(c in a for c in "ulc") for a in fields[1:]):
        taken = True
    if simple.redirects and any(a[:1] == "{" and a[-1:] == "}" for a in fields):
        taken = True
    if not taken:
        for w in (*simple.words, *simple.assigns):
            for p in w.parts:
                raw = p[2]
                if (
                    p[0] != "s"
                    and raw.startswith(("$((", "$["))
                    and any(op in raw for op in ("=", "++", "--"))
                ):
                    taken = True
    if taken:
        env.state.undecided = True


def _not(got: int | None) -> int | None:
    return None if got is None else 1 - got


def _int(text: str) -> int | None:
    digits = text[1:] if text[:1] == "-" else text
    if digits.isascii() and digits.isdigit() and len(digits) < 18:
        return int(text)
    return None


def _binary(left: str, op: str, right: str) -> int | None:
    if op in ("=", "=="):
        return 0 if left == right else 1
    if op == "!=":
        return 0 if left != right else 1
    if op == "-a":
        return 0 if left and right else 1
    if op == "-o":
        return 0 if left or right else 1
    if op not in _INTS:
        return None
    a, b = _int(left), _int(right)
    if a is None or b is None:
        return None
    holds = {"-eq": a == b, "-ne": a != b, "-lt": a < b, "-le": a <= b, "-gt": a > b}
    return 0 if holds.get(op, a >= b) else 1


def _test(args: list[str]) -> int | None:
    """POSIX ``test`` by its number of arguments (bash's rules for up to four)."""
    n = len(args)
    if n == 0:
        return 1
    if n == 1:
        return 0 if args[0] else 1
    if n == 2:
        if args[0] == "!":
            return _not(_test(args[1:]))
        if args[0] in ("-z", "-n"):
            return 0 if (args[1] == "") == (args[0] == "-z") else 1
        return None
    if n == 3:
        if args[1] in ("=", "==", "!=", "-a", "-o") or args[1] in _INTS:
            return _binary(*args)
        if args[0] == "!":
            return _not(_test(args[1:]))
        if args[0] == "(" and args[2] == ")":
            return _test(args[1:2])
        return None
    if n == 4:
        if args[0] == "!":
            return _not(_test(args[1:]))
        if args[0] == "(" and args[3] == ")":
            return _test(args[1:3])
    return None
