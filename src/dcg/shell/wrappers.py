"""The wrapper table: every command that runs another command, and how it takes it."""

from __future__ import annotations

from dcg.shell.unwrap import (
    _command,
    _env,
    _flock,
    _ionice,
    _script,
    _simple,
    _sudo,
    _timeout,
    _xargs,
    normalize,
    operand,
    skip_options,
)

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from collections.abc import Callable

    from dcg.shell.unwrap import Work


_LOGIN_SHELLS = frozenset(("bash", "sh", "dash", "ash", "ksh", "mksh", "yash", "zsh"))


def _exec(w: Work) -> int:
    """``exec [-cl] [-a NAME] cmd``: ``-l`` (or a NAME starting with ``-``) makes the
    shell it runs a login shell, which reads the login profile: said as the shell's own
    ``-l`` so that dcg.shell.startup reads it."""
    start = operand(skip_options(w.argv, 1, "a"), w.argv)
    if not 0 < start < len(w.argv) or normalize(w.argv[start]) not in _LOGIN_SHELLS:
        return start
    login, k = False, 1
    while k < start:
        a = w.argv[k]
        if a[:1] == "-" and a != "--":
            flags = a[1:]
            login = login or "l" in flags.partition("a")[0]
            if "a" in flags:
                name = flags.partition("a")[2] or (w.argv[k + 1] if k + 1 < start else "")
                login = login or name[:1] == "-"
                k += 0 if flags.partition("a")[2] else 1
        k += 1
    if login:
        w.argv.insert(start + 1, "-l")
        w.dyns.insert(start + 1, False)
    return start


def _script_shell(base: Callable[[Work], int]) -> Callable[[Work], int]:
    """npm exec/npx: ``--script-shell X`` is kept as the ``npm_config_script_shell`` the
    command runs under (dcg.shell.pkgloads.exec_shell judges X)."""

    def unwrap(w: Work) -> int:
        start = base(w)
        for k, a in enumerate(w.argv[1:start] if start > 0 else (), 1):
            if a == "--script-shell" and k + 1 < start:
                w.assigns["npm_config_script_shell"] = w.argv[k + 1]
            elif a.startswith("--script-shell="):
                w.assigns["npm_config_script_shell"] = a.partition("=")[2]
        shell = next((v for k, v in w.assigns.items() if k.lower() == "npm_config_script_shell"),
                     None)  # fmt: skip
        if shell and start <= 0 and any(a in ("-c", "--call") for a in w.argv):
            quoted = "'" + shell.replace("'", "'\\''") + "'"  # `npm exec -c CMD` runs it too
            w.payloads.append(("sh", "npm script-shell", quoted + " -c :", []))
        return start

    return unwrap


def _npm(sub: int) -> Callable[[Work], int]:
    """npm exec/npx: ``-c``/``--call`` run a shell string, else dcg.shell.nodeexec.npm_exec."""
    calls = Wrapper("none", flags=("-c", "--call"), sub=sub)

    def unwrap(w: Work) -> int:
        from dcg.shell.nodeexec import npm_exec

        return -1 if calls(w) == -1 and w.payloads else npm_exec(w, sub)

    return unwrap


def _pnpm(w: Work) -> int:
    """pnpm exec/dlx, yarn dlx: dcg.shell.nodeexec.pnpm_exec."""
    from dcg.shell.nodeexec import pnpm_exec

    return pnpm_exec(w, 1)


def skip(argv: list[str], i: int, arity: dict[str, int]) -> int:
    """Like :func:`skip_options`, with the number of values each option takes.

    ``arity`` maps ``-x`` and ``--long`` to how many following words they consume
    (``bwrap --bind SRC DEST`` takes two); an attached value (``-n5``, ``--x=y``) counts.
    """
    n = len(argv)
    while i < n:
        a = argv[i]
        if a == "--":
            return i + 1
        if len(a) < 2 or a[0] != "-":
            return i
        i += 1
        if a[1] == "-":
            if "=" not in a:
                i += arity.get(a, 0)
            continue
        for j in range(1, len(a)):
            k = arity.get("-" + a[j], 0)
            if k:
                i += k if j == len(a) - 1 else k - 1
                break
    return i


def _values(short: str = "", long: str = "", **more: int) -> dict[str, int]:
    """An arity table: one value for each letter of ``short`` and word of ``long``."""
    table = {"-" + ch: 1 for ch in short}
    table.update({"--" + name: 1 for name in long.split()})
    table.update({"--" + name.replace("_", "-"): k for name, k in more.items()})
    return table


# A prefix of an option's text that makes it code of another language (gdb -ex 'python …').
_PREFIX_KINDS = {"python ": "python", "py ": "python", "pi ": "python",
                 "python-interactive ": "python"}  # fmt: skip


class Wrapper:
    """How a wrapper command takes the command it runs (one row of :data:`TABLE`).

    ``how`` is one of:

    - ``args``: the command follows the wrapper's options and ``operands`` further
      words (``taskset MASK cmd``, ``direnv exec DIR cmd``);
    - ``dashdash``: the command follows ``--`` and nothing runs without one
      (``op run -- cmd``);
    - ``string``: the first operand is one shell string (``sg GROUP 'cmd'``);
    - ``stdin``: the wrapper runs the shell text it reads on stdin (``at now``);
    - ``none``: only ``flags`` and ``argv_flags`` run something (``gdb``).

    ``flags`` are options whose value is a shell string to run (``nix-shell --run``,
    ``gdb -ex 'shell …'`` with ``prefix`` ``shell``); ``argv_flags`` are options
    after which the remaining words are the command (``nix develop -c cmd …``).
    ``queries`` are options that make the wrapper run nothing (``taskset -p PID``).
    ``pyfile``: a ``.py``/``.pyw`` file as the command is run by Python (``uv run x.py``).
    """

    __slots__ = ("argv_flags", "arity", "flags", "how", "operands", "prefixes", "pyfile",
                 "queries", "sub")  # fmt: skip

    def __init__(
        self,
        how: str = "args",
        arity: dict[str, int] | None = None,
        *,
        operands: int = 0,
        flags: tuple[str, ...] = (),
        prefixes: tuple[str, ...] = (),
        argv_flags: tuple[str, ...] = (),
        queries: tuple[str, ...] = (),
        sub: int = 0,
        pyfile: bool = False,
    ) -> None:
        self.how = how
        self.pyfile = pyfile
        self.arity = arity or {}
        self.operands = operands
        self.flags = flags
        self.prefixes = prefixes
        self.argv_flags = argv_flags
        self.queries = queries
        self.sub = sub  # words of the wrapper's own name ("uv run" is 1 extra)

    def __call__(self, w: Work) -> int:
        argv = w.argv
        n = len(argv)
        start = 1 + self.sub
        end = skip(argv, start, self.arity)
        if self.queries and any(a.partition("=")[0] in self.queries for a in argv[start:end]):
            return -1
        for k in range(start, n):
            a = argv[k]
            if a == "--" and self.how != "dashdash":
                break
            name, eq, value = a.partition("=")
            if name in self.flags:
                text = value if eq else (argv[k + 1] if k + 1 < n else "")
                if self.prefixes:
                    body = text.lstrip()
                    hit = next((p for p in self.prefixes if body.startswith(p)), None)
                    if hit is None:
                        continue
                    text = body[len(hit) :]
                    kind = _PREFIX_KINDS.get(hit, "sh")
                else:
                    kind = "sh"
                w.data[k if eq else min(k + 1, n - 1)] = f"command run by {name} (parsed)"
                w.payloads.append((kind, f"{normalize(argv[0])} {name}", text, []))
            elif a in self.argv_flags:
                return operand(k + 1, argv)
        if w.payloads or self.how == "none":
            return -1
        if self.how == "dashdash":
            return operand(argv.index("--", start) + 1, argv) if "--" in argv[start:] else -1
        if self.how == "stdin":
            _stdin(w)
            return -1
        i = end + self.operands
        script = "--script" in argv[:i] or (argv[0] == "uv" and "-s" in argv[:i])
        if self.pyfile and i < n and (script or argv[i].endswith((".py", ".pyw"))):
            name = normalize(argv[0]) + (f" {argv[1]}" if self.sub else "")
            w.payloads.append(("argv", name, "", ["python3", *argv[i:]]))
            return -1
        if self.how in ("string", "strings"):
            if i < n and argv[i] == "-c":  # sg GROUP -c 'cmd'
                i += 1
            texts = [" ".join(argv[i:])] if self.how == "string" else argv[i:]
            for k in range(i, n):
                w.data[k] = f"command run by {normalize(argv[0])} (parsed)"
            for text in texts:
                if text:
                    w.payloads.append(("sh", normalize(argv[0]), text, []))
            return -1
        return operand(i, argv)


def _stdin(w: Work) -> None:
    """A wrapper that runs the shell text it reads (``at``, ``batch``): queue that text."""
    text = w.stdin if w.stdin is not None else w.fed
    name = normalize(w.argv[0])
    argv = w.argv
    for k in range(1, len(argv)):  # `at -f job.sh now`: the file is the shell text
        a = argv[k]
        if a == "--":
            break
        if a[:2] == "-f" and (a[2:] or k + 1 < len(argv)):
            w.payloads.append(("argv", f"{name} -f", "", ["sh", a[2:] or argv[k + 1]]))
            return
    if text is not None:
        w.payloads.append(("sh", f"stdin of {name}", text, []))
    elif w.piped:
        w.opaque = f"{w.feeder or 'a command'}'s output is run by {name}"


# Options shared by the Python project runners (uv run, poetry run, …).
_UV = _values("pw", "with with-editable with-requirements python package env-file directory "
              "project extra group index default-index find-links only-group no-group")  # fmt: skip
_BWRAP = {
    **_values("", "tmpfs dir proc dev chdir unsetenv uid gid hostname remount-ro lock-file "
              "sync-fd info-fd json-status-fd block-fd userns-block-fd exec-label file-label "
              "seccomp add-seccomp-fd userns userns2 pidns cap-add cap-drop args argv0 perms "
              "size overlay-src tmp-overlay"),
    **_values(bind=2, ro_bind=2, dev_bind=2, bind_try=2, ro_bind_try=2, dev_bind_try=2,
              symlink=2, setenv=2, chmod=2, file=2, bind_data=2, ro_bind_data=2,
              ro_overlay=2, overlay=3),
}  # fmt: skip
_STRACE = _values("eoOpPsuESXabI", "trace signal status output attach user env path")
_SYSTEMD_RUN = _values(
    "upEMHd",
    "unit property setenv description slice machine host uid gid nice working-directory "
    "on-active on-boot on-startup on-unit-active on-unit-inactive on-calendar on-clock-change "
    "timer-property path-property socket-property service-type",
)

_ENTR, _ENTR_S = Wrapper(), Wrapper("string")


def _letter(argv: list[str], letter: str) -> bool:
    """A short option ``-letter`` (alone or among others) before the first operand."""
    for a in argv[1:]:
        if a[:1] != "-" or a == "--":
            return False
        if a[1:2] != "-" and letter in a[1:]:
            return True
    return False


# Every wrapper dcg knows: the command word, and how it takes the command it runs. A
# name with a space is a wrapper subcommand ("uv run"). Wrappers with behaviour a row
# cannot say (sudo's -e, env -S, flock -c, script -c, chroot's NEWROOT) have functions.
TABLE: dict[str, Callable[[Work], int]] = {
    "sudo": _sudo,
    "doas": _simple("uC"),
    "run0": Wrapper(arity=_values("uDg", "user chdir description slice property setenv nice")),
    "pkexec": Wrapper(arity=_values("", "user")),
    "env": _env,
    "command": _command,
    "builtin": _simple(),
    "exec": _exec,
    "nice": _simple("n", ("adjustment",)),
    "ionice": _ionice,
    "timeout": _timeout,
    "nohup": _simple(),
    "time": _simple("fo", ("format", "output")),
    "stdbuf": _simple("ioe", ("input", "output", "error")),
    "setsid": Wrapper(),
    "xargs": _xargs,
    "flock": _flock,
    "script": _script,
    "busybox": _simple(),
    "chroot": lambda w: operand(skip_options(w.argv, 1, "", ("userspec", "groups")) + 1, w.argv),
    "unbuffer": _simple(),
    "caffeinate": _simple("tw"),
    # Scheduling, namespaces, sandboxes.
    "taskset": Wrapper(operands=1, queries=("-p", "--pid")),
    "chrt": Wrapper(
        operands=1,
        arity=_values("TPD", "sched-runtime sched-period sched-deadline"),
        queries=("-p", "--pid", "-m", "--max"),
    ),
    "numactl": Wrapper(
        arity=_values("NmCpiP", "cpunodebind membind physcpubind preferred interleave cpubind"),
        queries=("-s", "--show", "-H", "--hardware"),
    ),
    "unshare": Wrapper(arity=_values("SGRw", "setuid setgid root wd map-user map-group")),
    "nsenter": Wrapper(arity=_values("tSG", "target setuid setgid")),
    "setpriv": Wrapper(
        arity=_values(
            "",
            "reuid regid ruid rgid euid egid groups inh-caps "
            "ambient-caps bounding-set securebits selinux-label "
            "apparmor-profile pdeathsig",
        )
    ),
    "prlimit": Wrapper(queries=("-p", "--pid")),
    "cgexec": Wrapper(arity=_values("g")),
    "cpulimit": Wrapper(arity=_values("le", "limit exe"), queries=("-p", "--pid")),
    "trickle": Wrapper(arity=_values("dutlnw")),
    "firejail": Wrapper(),
    "bwrap": Wrapper(arity=_BWRAP),
    "fakeroot": Wrapper(arity=_values("lsib", "lib faked")),
    "fakechroot": Wrapper(arity=_values("ecsl", "environment config-dir lib")),
    "proot": Wrapper(arity=_values("rbmwq", "rootfs bind mount cwd qemu")),
    "systemd-run": Wrapper(arity=_SYSTEMD_RUN),
    "systemd-inhibit": Wrapper(arity=_values("", "what who why mode")),
    "gosu": Wrapper(operands=1),
    "su-exec": Wrapper(operands=1),
    "setuidgid": Wrapper(operands=1),
    "s6-setuidgid": Wrapper(operands=1),
    "chpst": Wrapper(arity=_values("uUbe/Cnlm")),
    "runuser": lambda w: (
        Wrapper(arity=_values("ugGws", "user group supp-group whitelist-environment shell"))(w)
        if any(a in ("-u", "--user") or a.startswith("--user=") for a in w.argv[1:])
        else -1
    ),
    "sg": Wrapper("string", operands=1),
    "linux32": Wrapper(),
    "linux64": Wrapper(),
    "setarch": Wrapper(operands=1),
    "tini": Wrapper(),
    "dumb-init": Wrapper(),
    "catatonit": Wrapper(),
    # Tracers, debuggers, profilers.
    "strace": Wrapper(arity=_STRACE, queries=("-p", "--attach")),
    "ltrace": Wrapper(arity=_values("eopsunaADFlL", "output"), queries=("-p",)),
    "valgrind": Wrapper(),
    "gdb": Wrapper(
        "none",
        flags=("-ex", "--ex", "-eval-command", "--eval-command"),
        prefixes=("shell ", "!", "pipe ", "| ", "python ", "py ", "pi ", "python-interactive "),
        argv_flags=("--args", "-args"),
    ),
    "lldb": Wrapper("dashdash"),
    "rr record": Wrapper(sub=1),
    "heaptrack": Wrapper(),
    "perf stat": Wrapper(arity=_values("erCpto"), sub=1),
    "perf record": Wrapper(arity=_values("eCcpFoguj"), sub=1),
    "perf trace": Wrapper(arity=_values("eopC"), sub=1),
    "catchsegv": Wrapper(),
    "hyperfine": Wrapper(
        "strings",
        arity=_values(
            "wmMrpcnsSLu",
            "warmup min-runs max-runs runs "
            "prepare cleanup command-name shell export-json "
            "export-markdown export-csv parameter-scan "
            "parameter-list",
        ),
    ),
    # Proxies and environment loaders.
    "proxychains": Wrapper(arity=_values("f")),
    "proxychains4": Wrapper(arity=_values("f")),
    "torsocks": Wrapper(arity=_values("uapP")),
    "torify": Wrapper(),
    "tsocks": Wrapper(),
    "eatmydata": Wrapper(),
    "nocache": Wrapper(),
    "chronic": Wrapper(),
    "ifne": Wrapper(),
    "faketime": Wrapper(operands=1, arity=_values("", "date-prog")),
    "xvfb-run": Wrapper(
        arity=_values("nsfepw", "server-num server-args auth-file error-file xauth-protocol wait")
    ),
    "dbus-run-session": Wrapper(arity=_values("", "config-file dbus-daemon")),
    "ssh-agent": Wrapper(arity=_values("aEPt")),
    "envchain": Wrapper(operands=1),
    "dotenv": Wrapper(arity=_values("fecv")),
    "dotenvx run": Wrapper("dashdash", sub=1),
    "op run": Wrapper("dashdash", sub=1),
    "doppler run": Wrapper("dashdash", flags=("--command",), sub=1),
    "infisical run": Wrapper("dashdash", flags=("--command",), sub=1),
    "aws-vault exec": Wrapper(operands=1, sub=1),
    "chamber exec": Wrapper("dashdash", sub=1),
    "direnv exec": Wrapper(operands=1, sub=1),
    "with-contenv": Wrapper(),
    "rlwrap": Wrapper(arity=_values("afHlpPqsSz")),
    "winpty": Wrapper(),
    "bear": Wrapper("dashdash"),
    # entr -s: the first operand is shell text ($SHELL -c).
    "entr": lambda w: (_ENTR_S if _letter(w.argv, "s") else _ENTR)(w),
    # Project and environment runners.
    "uv run": Wrapper(arity=_UV, sub=1, pyfile=True),
    "uv tool run": Wrapper(arity=_UV, sub=2),
    "poetry run": Wrapper(arity=_values("CP", "directory project"), sub=1),
    "pipenv run": Wrapper(sub=1),
    "pdm run": Wrapper(arity=_values("p", "project venv"), sub=1, pyfile=True),
    "hatch run": Wrapper(sub=1, pyfile=True),
    "rye run": Wrapper(sub=1, pyfile=True),
    "conda run": Wrapper(arity=_values("np", "name prefix cwd"), sub=1),
    "mamba run": Wrapper(arity=_values("np", "name prefix cwd"), sub=1),
    "micromamba run": Wrapper(arity=_values("np", "name prefix cwd"), sub=1),
    "pixi run": Wrapper("string", arity=_values("e", "environment manifest-path"), sub=1),
    "bundle exec": Wrapper(sub=1),
    "npm exec": _script_shell(_npm(1)),
    "npm x": _script_shell(_npm(1)),
    "npx": _script_shell(_npm(0)),
    "pnpx": _script_shell(_npm(0)),
    "yarn exec": Wrapper("string", sub=1),  # yarn 2+ runs its words as one shell line
    "bun exec": Wrapper("string", sub=1),  # Bun Shell
    "pnpm exec": _pnpm,
    "pnpm dlx": _pnpm,
    "yarn dlx": _pnpm,
    "nix-shell": Wrapper("stdin", flags=("--run", "--command")),
    "nix develop": Wrapper("none", argv_flags=("-c", "--command"), sub=1),
    "nix shell": Wrapper("none", argv_flags=("-c", "--command"), sub=1),
    "guix shell": Wrapper("dashdash", sub=1),
    "distrobox enter": Wrapper("dashdash", sub=1),
    "distrobox-enter": Wrapper("dashdash"),
    "toolbox run": Wrapper(arity=_values("cr", "container release"), sub=1),
    "flatpak-spawn": Wrapper(arity=_values("", "directory env")),
    "lxc exec": Wrapper("dashdash", sub=1),
    "incus exec": Wrapper("dashdash", sub=1),
    "multipass exec": Wrapper("dashdash", sub=1),
    "vagrant ssh": Wrapper("none", flags=("-c", "--command"), sub=1),
    "devcontainer exec": Wrapper(arity=_values("", "workspace-folder container-id config"), sub=1),
    "mpirun": Wrapper(arity=_values("nHx", np=1, host=1, hostfile=1, machinefile=1)),
    "mpiexec": Wrapper(arity=_values("nHx", np=1, host=1, hostfile=1, machinefile=1)),
    "srun": Wrapper(
        arity=_values(
            "NncptJpAwxo",
            "nodes ntasks cpus-per-task partition time job-name account nodelist exclude output",
        )
    ),
    "at": Wrapper("stdin"),
    "batch": Wrapper("stdin"),
}

# The names the walker looks up first: the one-word wrappers and the first word of each
# subcommand wrapper.
WRAPPERS = TABLE
SUBCOMMAND_WRAPPERS = frozenset(name.partition(" ")[0] for name in TABLE if " " in name)


def lookup(name: str, argv: list[str]) -> Callable[[Work], int] | None:
    """The wrapper row for ``argv`` (whose normalised command word is ``name``), if any."""
    found = TABLE.get(name)
    if found is None and name in SUBCOMMAND_WRAPPERS and len(argv) > 1:
        found = TABLE.get(f"{name} {argv[1]}")
        if found is None and len(argv) > 2:
            found = TABLE.get(f"{name} {argv[1]} {argv[2]}")
    return found
