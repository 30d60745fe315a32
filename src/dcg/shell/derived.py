"""Commands that follow from others: a glob's command names, a find feeding a deleter.

What a glob in a command word may run is judged as those commands; a find whose matches
reach a deleting command (``-exec sh -c 'rm …'``, ``| xargs rm``) as ``find … -delete``;
``xargs`` fed known text (``echo a b | xargs rm``) runs its command with those words.
"""

from __future__ import annotations

from dcg.shell import expand, unwrap
from dcg.shell.command import Command

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from collections.abc import Callable

    from dcg.shell.runtext import Ctx, Walker
    from dcg.shell.state import Vars

    Parse = Callable[..., list[Command]]

# Programs that delete the files named in their arguments.
DELETERS = frozenset(("rm", "shred", "unlink", "rmdir", "srm", "trash", "gio"))
# Wrappers that hand their input's words to the command they run.
_FEEDING = frozenset(("xargs", "parallel"))
_known: list[str] = []


# Command names a glob in a command word is matched against, destructive ones first;
# wrappers and payload runners are added on first use.
_NAMES = (
    "rm", "git", "find", "shred", "dd", "truncate", "unlink", "rmdir", "mkfs", "wipefs",
    "rimraf", "srm", "blkdiscard", "fdisk", "sfdisk", "gdisk", "parted", "sgdisk", "mkswap",
    "mke2fs", "chmod", "chown", "chgrp", "chattr", "mv", "cp", "ln", "tee", "rsync", "dcg",
    "kubectl", "helm", "docker", "podman", "terraform", "tofu", "pulumi", "aws", "gcloud",
    "az", "gsutil", "psql", "mysql", "mariadb", "mongosh", "mongo", "redis-cli", "sqlite3",
    "dropdb", "gh", "glab", "npm", "npx", "pnpm", "yarn", "make", "pip", "curl", "wget",
    "systemctl", "service", "shutdown", "reboot", "halt", "poweroff", "init", "kill",
    "pkill", "killall", "crontab", "iptables", "vault", "restic", "borg", "rclone",
)  # fmt: skip


def known_commands() -> list[str]:
    """The names :data:`_NAMES`, the wrappers' and the payload runners'."""
    if not _known:
        from dcg.shell import payloads, wrappers

        names: dict[str, None] = dict.fromkeys(_NAMES)
        names.update(dict.fromkeys(sorted(payloads.SHELLS)))
        names.update(dict.fromkeys(n.partition(" ")[0] for n in wrappers.TABLE))
        names.update(dict.fromkeys(payloads.HANDLERS))
        _known.extend(names)
    return _known


def globbed(
    work: unwrap.Work,
    redirects: tuple[tuple[str, str], ...],
    ctx: object,
    out: list[Command],
    command: Callable[..., None],
) -> None:
    """A command word with a glob (``/???/r?``, ``/bin/r[m]``): judge each command it
    could name, with the same arguments; the word as written is judged as well."""
    word = work.argv[0]
    for name in expand.command_candidates(word, known_commands()):
        child = ctx.child((*work.via, f"glob {word}"))  # type: ignore[attr-defined]
        sub = unwrap.Work([name, *work.argv[1:]], [False, *work.dyns[1:]], child.via, work.stdin)
        sub.piped, sub.fed, sub.feeder = work.piped, work.fed, work.feeder
        sub.feeder_argv, sub.infile = work.feeder_argv, work.infile
        command(sub, redirects, child, out)


def label(
    name: str, work: unwrap.Work, start: int, reader: tuple[Ctx, list[Command], Walker]
) -> str:
    """The via label of the wrapper ``work.argv[:start]`` about to be unwrapped.

    A find feeding xargs is named (``xargs < find``: its expression is judged instead of
    rm's missing operands); xargs fed known text hands its words to the command, and so
    does the file ``xargs -a FILE`` reads them from (``reader``: how to read it).
    """
    if name == "xargs":  # `-I %`, `-IFILE`, `--replace=X`: the name stands where `{}` would
        _as_braces(work, start, replacement(work.argv[1:start]))
    text = work.fed if work.fed is not None else work.stdin  # a pipe, or <<< and heredocs
    arg_file = _arg_file(work.argv[1:start]) if name == "xargs" else None
    if name == "xargs" and arg_file is None and text is None and not work.piped:
        arg_file = work.infile if work.infile and work.infile[:2] != "<(" else None
    if arg_file is not None:
        from dcg.shell import runtext

        text = runtext.file_text(arg_file, *reader)[0]
        if text is not None:
            _xargs_input(work, start, text, True)
        return name
    if name not in _FEEDING or not (work.piped or text is not None):
        return name
    if name == "xargs" and text is not None:
        _xargs_input(work, start, text)
    if work.feeder != "find":
        return name
    from dcg.shell.payloads import leftovers

    return f"{name} < find{leftovers(work.feeder_argv)}"


# xargs' short options that take a value (attached or the next word), and those whose
# value can only be attached (``-i[R]``, ``-e[EOF]``, ``-l[N]``).
_VALUED = "InPsELdaR"
_ATTACHED = "eil"


def replacement(opts: list[str]) -> str | None:
    """The string xargs replaces with each input line (``-I STR``, ``-ISTR``, ``-i[STR]``,
    ``--replace[=STR]``; ``{}`` when none is attached), None without one."""
    found: str | None = None
    k = 0
    while k < len(opts):
        o = opts[k]
        k += 1
        if o.startswith("--"):
            if o == "--replace" or o.startswith("--replace="):
                found = o.partition("=")[2] or "{}"
            elif "=" not in o and o[2:] in _LONG_VALUED:
                k += 1
            continue
        for j in range(1, len(o)):
            letter, rest = o[j], o[j + 1 :]
            if letter in _VALUED:
                if not rest and k < len(opts):
                    rest, k = opts[k], k + 1
                found = rest if letter == "I" else found
                break
            if letter in _ATTACHED:
                found = (rest or "{}") if letter == "i" else found
                break
    return found or None


_LONG_VALUED = ("max-args", "max-procs", "max-chars", "delimiter", "arg-file", "max-lines",
                "process-slot-var")  # fmt: skip


def _as_braces(work: unwrap.Work, start: int, replace: str | None) -> None:
    """Write xargs' replacement string as ``{}`` in the command it runs, the one spelling
    the rest of dcg reads as "each name" (``xargs -I % sh -c ': > %'`` is ``-I{} … {}``)."""
    if replace is None or replace == "{}":
        return
    work.argv = [*work.argv[:start], *(a.replace(replace, "{}") for a in work.argv[start:])]


def _arg_file(opts: list[str]) -> str | None:
    """The file ``xargs -a FILE`` / ``--arg-file=FILE`` reads its words from."""
    for k, o in enumerate(opts):
        if o in ("-a", "--arg-file"):
            return opts[k + 1] if k + 1 < len(opts) else None
        if o.startswith("--arg-file="):
            return o.partition("=")[2]
        if o.startswith("-a") and o[1:2] != "-":
            return o[2:]
    return None


def _xargs_input(work: unwrap.Work, start: int, text: str, from_file: bool = False) -> None:
    """Give the command xargs runs the words of ``text`` as xargs hands them over: split
    on blanks (``-0``: NULs, ``-d C``: C), or put in place of ``-I STR`` once per line."""
    opts = work.argv[1:start]
    sep: str | None = None
    k = 0
    while k < len(opts):
        o = opts[k]
        value = opts[k + 1] if k + 1 < len(opts) else None
        if o in ("-0", "--null"):
            sep = "\x00"
        elif o.startswith("--delimiter="):
            sep = o.partition("=")[2]
        elif o in ("-d", "--delimiter") and value is not None:
            sep, k = value, k + 1
        elif o.startswith("-d"):
            sep = o[2:]
        elif o == "-I":
            k += 1
        elif o[:2] == "-E" or o.startswith("--eof"):
            return  # stops at a marker: not all of this text
        elif (o[:2] == "-a" or o.startswith("--arg-file")) and not from_file:
            return  # reads another file
        k += 1
    replace = "{}" if replacement(opts) else None  # written as `{}` by _as_braces
    if sep is not None:
        sep = {"\\n": "\n", "\\t": "\t", "\\0": "\x00"}.get(sep, sep)
        words = [w for w in text.split(sep) if w and w != "\n"]
        if sep != "\n" and words and words[-1].endswith("\n"):
            words[-1] = words[-1][:-1]
    elif any(q in text for q in "'\"\\"):  # xargs takes quotes and backslashes as bash does
        from dcg.shell.gitargs import split

        words = split(text.replace("\n", " "))
    else:
        words = text.split()
    if replace is None:
        work.argv = [*work.argv, *words]
        work.dyns = [*work.dyns, *([False] * len(words))]
        return
    # One run per line: judged as one run with every line in place of STR (each word).
    lines = [line.strip() for line in text.split("\n") if line.strip()][:64]
    if lines and replace:
        argv, dyns = work.argv[:start], work.dyns[:start]
        for a, dyn in zip(work.argv[start:], work.dyns[start:], strict=False):
            each = [a.replace(replace, x) for x in lines] if replace in a else [a]
            argv += each
            dyns += [dyn] * len(each)
        work.argv, work.dyns = argv, dyns


def find_feeding(work: unwrap.Work, out: list[Command], mark: int, env: Vars | None = None) -> None:
    """A find whose matches reach a deleting program (through ``-exec sh -c``, ``sudo``,
    ``xargs`` or a pipe into ``xargs rm``) deletes like ``find … -delete``: emit that, so
    the find rules judge its starting points and expression. One whose matches reach
    ``git apply -R``/``patch -R`` has them judged as patches (dcg.shell.patchsets)."""
    emitted = out[mark:]
    if env is not None and any(c.argv[:1] in (("git",), ("patch",)) for c in emitted):
        from dcg.shell import gitstream

        gitstream.find_reversals(work, out, mark, env)
    if not any(c.argv and c.argv[0] in DELETERS for c in emitted):
        return
    if work.argv[:1] == ["find"] and any(v.startswith("find -") for c in emitted for v in c.via):
        argv = work.argv
    elif work.feeder == "find" and any(v.split(" ")[0] in _FEEDING for v in work.via):
        argv = work.feeder_argv
    else:
        return
    out.append(Command(("find", *argv[1:], "-delete"), via=(*work.via, "find feeding rm")))


def powershell(script: str, ctx: Ctx, out: list[Command], posix: Parse) -> None:
    """The commands of a PowerShell payload (``posix`` parses the bash it runs)."""
    from dcg.shell.powershell import parse

    for c in parse(script, posix=posix):
        ctx.budget.command()
        out.append(
            Command(
                c.argv,
                words=c.words,
                data=c.data,
                redirects=c.redirects,
                stdin=c.stdin,
                via=(*ctx.via, *c.via),
                dynamic=c.dynamic,
            )
        )
