"""What ``printf`` prints, when dcg can know it: ``printf -v NAME`` and a printf piped on.

One formatter for both: the conversions ``%s %b %d %i %c %q %%`` with flags, width and
precision, the format reused while arguments remain, escapes read as printf reads them in
the format and in ``%b`` arguments (:func:`dcg.shell.patterns.decode`, where ``\\c`` ends
all output). Any other conversion makes the output unknown.
"""

from __future__ import annotations

from dcg.shell.params import code_in, target
from dcg.shell.patterns import decode

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.shell.state import Vars as Env


def printf_v(argv: list[str], dyns: list[bool], env: Env) -> None:
    """``printf -v NAME FORMAT ARGS``: NAME holds what printf would print."""
    if len(argv) < 4 or argv[1] != "-v":
        if len(argv) >= 3 and argv[1].startswith("-v") and len(argv[1]) > 2:
            argv = [argv[0], "-v", argv[1][2:], *argv[2:]]
            dyns = [dyns[0], dyns[1], *dyns[1:]]
        else:
            return
    name = argv[2]
    if "[" in name:
        code_in(name[name.index("[") :], env)
        return
    if argv[3:4] == ["--"]:
        argv, dyns = argv[:3] + argv[4:], dyns[:3] + dyns[4:]
    if any(dyns[3:]) or len(argv) < 4:
        env[target(env, name)] = None
        return
    env[target(env, name)] = format_text(argv[3], argv[4:])


def format_text(fmt: str, args: list[str]) -> str | None:
    """What ``printf FORMAT ARGS`` prints for the conversions %s %b %d %c %q %%; None
    for any other."""
    import re

    spec = re.compile(r"%([-+ #0]*)(\d*)(?:\.(\d+))?([sbdiqc%])|%")
    out: list[str] = []
    args = list(args)
    while True:
        used = False
        pos = 0
        text = decode(fmt, "fmt")[0]
        for m in spec.finditer(text):
            out.append(text[pos : m.start()])
            pos = m.end()
            conv = m.group(4)
            if conv is None:
                return None
            if conv == "%":
                out.append("%")
                continue
            arg = args.pop(0) if args else ""
            used = True
            if conv in "di":
                arg = arg or "0"
                if not arg.lstrip("-").isdigit():
                    return None
            elif conv == "b":
                arg, stop = decode(arg, "b")
                if stop:  # `\c` in a %b argument ends all output there
                    return "".join(out) + arg
            elif conv == "q":
                import shlex

                arg = shlex.quote(arg)
            elif conv == "c":
                arg = arg[:1]
            if m.group(3) is not None and conv in "sbqc":
                arg = arg[: int(m.group(3))]
            width = int(m.group(2) or 0)
            out.append(arg.ljust(width) if "-" in m.group(1) else arg.rjust(width))
        out.append(text[pos:])
        if not args or not used:
            return "".join(out)
