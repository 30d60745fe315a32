"""Commands run later or elsewhere: tmux panes, hooks and keys, screen, crontab, docker run -v.

Each is queued as a payload and judged like a command (:mod:`dcg.shell.toolruns` holds the
table of handlers).
"""

from __future__ import annotations

from dcg.shell.unwrap import skip_options

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from dcg.shell.unwrap import Work


_TMUX_RUN = frozenset(("new-session", "new", "new-window", "neww", "split-window", "splitw",
                       "respawn-pane", "respawnp", "respawn-window", "respawnw", "run-shell",
                       "run", "display-popup", "popup", "if-shell", "if", "pipe-pane",
                       "pipep"))  # fmt: skip
# tmux commands whose string operands are tmux commands run later (a hook, a key, a branch):
# {command: (option letters that take a value, which operands are commands)}.
_TMUX_LATER = {
    "set-hook": ("t", slice(1, None)),
    "bind-key": ("NT", slice(1, 2)),
    "bind": ("T", slice(1, 2)),
    "if-shell": ("t", slice(1, 3)),
    "if": ("t", slice(1, 3)),
    "confirm-before": ("pt", slice(0, 1)),
    "confirm": ("pt", slice(0, 1)),
    "command-prompt": ("IpTt", slice(0, 1)),
}
_TMUX_DEPTH = 4
_TMUX_VALUES = "cefFnstxyl"
# What tmux key names type into a pane's shell ("" for keys that type nothing it runs);
# C-c and C-u drop the line typed so far, BSpace its last character.
_TMUX_KEYS = {**dict.fromkeys(("enter", "c-m", "^m", "kpenter", "c-j", "^j"), "\n"),
              "space": " ", "tab": "\t", "c-i": "\t", "^i": "\t",
              **dict.fromkeys(("c-c", "^c", "c-u", "^u"), "\x15"), "bspace": "\x08"}  # fmt: skip
_KEY_NAMES = frozenset(("escape", "up", "down", "left", "right", "home", "end", "npage",
                        "ppage", "pageup", "pagedown", "pgup", "pgdn", "ic", "dc", "btab",
                        "any"))  # fmt: skip


def _value_of(argv: list[str], k: int, letter: str, takes: str) -> str | None:
    """The value of option ``-letter`` when the word ``argv[k]`` gives it (``-c X``,
    ``-uc X``, ``-cX``); ``takes``: the letters that take a value."""
    a = argv[k]
    if a[:1] != "-" or a[1:2] == "-":
        return None
    for j in range(1, len(a)):
        if a[j] in takes:
            if a[j] != letter:
                return None
            return a[j + 1 :] if j + 1 < len(a) else (argv[k + 1] if k + 1 < len(argv) else "")
    return None


def keys_typed(opts: list[str], keys: list[str]) -> str:
    """The text ``tmux send-keys`` types: key names (``Space``, ``C-m``) as what they
    type, ``-H`` hex codes as their characters, ``-l`` words literally."""
    flags = "".join(o[1:] for o in opts if o[:1] == "-" and o[1:2] != "-")
    if "X" in flags:
        return ""  # copy-mode commands, not keys
    text: list[str] = []
    for key in keys:
        low = key.lower()
        if "H" in flags:
            try:
                text.append(chr(int(key, 16)))
            except (ValueError, OverflowError):
                continue
        elif "l" in flags:
            text.append(key)
        elif low in _TMUX_KEYS:
            typed = _TMUX_KEYS[low]
            if typed == "\x15":
                line = "".join(text).rpartition("\n")
                text = [line[0] + line[1]]
            elif typed == "\x08":
                text = ["".join(text)[:-1]]
            else:
                text.append(typed)
        elif low.lstrip("cms-^") in _KEY_NAMES or (low[:1] == "f" and low[1:].isdigit()):
            continue
        elif low[:2] in ("c-", "m-", "s-") and len(low) == 3:
            continue  # a control or meta chord types nothing the shell runs
        else:
            text.append(key)
    return "".join(text).replace("\r", "\n")  # a terminal's Enter is a CR


def tmux(w: Work, depth: int = 0) -> None:
    """``tmux new -d CMD``, ``tmux send-keys 'CMD' Enter``, ``tmux run-shell CMD``, chained
    with ``\\;``; tmux commands given as strings (``set-hook``, ``bind``, ``if-shell``'s
    branches): the command runs in a pane the hook never sees."""
    argv = w.argv
    i = skip_options(argv, 1, "LSfTc")
    for k in range(1, i):  # `tmux -c CMD`: tmux runs CMD with the default shell
        cmd = _value_of(argv, k, "c", "LSfTc")
        if cmd is not None:
            w.data[k + (cmd not in argv[k])] = "command run by tmux -c (parsed)"
            w.payloads.append(("sh", "tmux -c", cmd, []))
    while i < len(argv):
        end = next((k for k in range(i, len(argv)) if argv[k] in (";", "\\;")), len(argv))
        part = argv[i:end]
        if part:
            sub = part[0]
            if sub in _TMUX_RUN:
                j = skip_options(part, 1, _TMUX_VALUES if sub not in ("run-shell", "run") else "dt")
                rest = part[j:]
                for k in range(i + j, end):
                    w.data[k] = f"command run by tmux {sub} (parsed)"
                if sub in ("if-shell", "if"):
                    rest = rest[:1]
                if len(rest) == 1:  # one word: shell text
                    w.payloads.append(("sh", f"tmux {sub}", rest[0], []))
                elif rest:  # several (`new -d -- sh -c 'cmd'`): run as they are
                    w.payloads.append(("argv", f"tmux {sub}", "", rest))
            elif sub in ("send-keys", "send"):
                j = skip_options(part, 1, "tNc")
                for k in range(i + j, end):
                    w.data[k] = "keys typed by tmux send-keys (parsed)"
                typed = keys_typed(part[1:j], part[j:])
                if typed.strip():
                    w.payloads.append(("sh", "tmux send-keys", typed, []))
            elif sub in ("set-buffer", "setb", "load-buffer", "loadb"):
                # A buffer's text is typed into a pane by paste-buffer: judged like keys.
                j = skip_options(part, 1, "bnt")
                text = " ".join(part[j:]) if sub in ("set-buffer", "setb") else None
                if part[j:] == ["-"]:
                    text = w.stdin if w.stdin is not None else w.fed
                    if text is None and w.piped:
                        w.opaque = w.opaque or "tmux load-buffer - reads text dcg cannot see"
                if text:
                    w.payloads.append(("sh", f"tmux {sub}", text, []))
            if sub in _TMUX_LATER and depth < _TMUX_DEPTH:
                letters, which = _TMUX_LATER[sub]
                operands = part[skip_options(part, 1, letters) :]
                if sub in ("bind", "bind-key") and len(operands) > 2:  # KEY COMMAND ARGS…
                    later = type(w)(["tmux", *operands[1:]], [False] * len(operands), w.via, None)
                    tmux(later, depth + 1)
                    w.payloads += later.payloads
                for text in operands[which]:
                    tmux_commands(w, text, depth + 1)
        i = end + 1


def tmux_commands(w: Work, text: str, depth: int = 0) -> None:
    """Tmux commands written as text (a config file, a hook's or a key's string)."""
    from dcg.shell.gitargs import split

    for line in text.split("\n")[:500]:
        words = split(line.strip()) if line.strip() and not line.lstrip().startswith("#") else []
        if words:
            tmux_w = type(w)(["tmux", *words], [False] * (len(words) + 1), w.via, None)
            tmux(tmux_w, depth)
            w.payloads += tmux_w.payloads
            w.opaque = w.opaque or tmux_w.opaque


def _stuffed(text: str) -> str:
    """What ``screen -X stuff TEXT`` types: screen's ``\\n``, ``\\r``, ``\\015`` and ``^M``
    escapes as the characters they stand for (a CR is the terminal's Enter)."""
    out: list[str] = []
    k = 0
    while k < len(text):
        c, nxt = text[k], text[k + 1 : k + 2]
        if c == "\\" and nxt and nxt in "01234567":
            n = 1
            while n < 3 and text[k + 1 + n : k + 2 + n] in tuple("01234567"):
                n += 1
            out.append(chr(int(text[k + 1 : k + 1 + n], 8)))
            k += 1 + n
        elif c == "\\" and nxt:
            out.append({"n": "\n", "r": "\n", "t": "\t"}.get(nxt, nxt))
            k += 2
        elif c == "^" and nxt and (nxt.isalpha() or nxt in "?[@"):
            out.append(chr(ord(nxt.upper()) ^ 0x40))
            k += 2
        else:
            out.append(c)
            k += 1
    return "".join(out).replace("\r", "\n")


def _screen_x(w: Work, rest: list[str], depth: int = 0) -> None:
    """One screen command (``-X``, a config line): what it runs or types."""
    if not rest:
        return
    cmd = rest[0]
    if cmd == "at" and len(rest) > 2:
        rest, cmd = rest[2:], rest[2]
    if cmd in ("stuff", "register") and len(rest) > 1:
        w.payloads.append(("sh", f"screen -X {cmd}", _stuffed(rest[-1]), []))
    elif cmd in ("exec", "screen") and len(rest) > 1:
        args = skip_options(rest, 1, "tThLs") if cmd == "screen" else 1
        w.payloads.append(("argv", f"screen -X {cmd}", "", rest[args:]))
    elif cmd in ("eval", "bind", "bindkey") and depth < _TMUX_DEPTH:
        texts = rest[1:] if cmd == "eval" else rest[2:3] if cmd == "bind" else rest[-1:]
        for text in texts:
            screen_commands(w, text, depth + 1)


def screen_commands(w: Work, text: str, depth: int = 0) -> list[str]:
    """Screen commands written as text (a config file, ``eval``'s strings); the files
    they ``source``."""
    from dcg.shell.gitargs import split

    files: list[str] = []
    for line in text.split("\n")[:500]:
        words = split(line.strip()) if line.strip() and not line.lstrip().startswith("#") else []
        if words and words[0] == "source":
            files += words[1:2]
        elif words:
            _screen_x(w, words, depth)
    return files


def screen(w: Work) -> None:
    """``screen -dm CMD…``, ``screen -S s -X stuff 'CMD\\n'``: a detached command."""
    argv = w.argv
    i = skip_options(argv, 1, "SceEhpTsLX")
    x = next((k for k in range(1, len(argv)) if argv[k].startswith("-X")), 0)
    if x and (x < i or all(a[:1] == "-" for a in argv[1:x:2])):  # `screen -x NAME -X …`
        rest = argv[x + 1 :] if argv[x] == "-X" else [argv[x][2:], *argv[x + 1 :]]
        _screen_x(w, rest)
        for k in range(x, len(argv)):
            w.data[k] = "command run by screen -X (parsed)"
        return
    if i < len(argv):
        for k in range(i, len(argv)):
            w.data[k] = "command run by screen (parsed)"
        w.payloads.append(("argv", "screen", "", argv[i:]))


def crontab(w: Work) -> None:
    """``crontab FILE`` or ``crontab -`` (stdin): each entry's command runs later."""
    argv = w.argv
    if any(a in ("-l", "-r", "-e", "-ir", "-ri") for a in argv[1:]):
        return
    files = [a for a in argv[1:] if not a.startswith("-") or a == "-"]
    if files and files[0] != "-":
        w.opaque = w.opaque or f"crontab installs {files[0]}, whose entries dcg cannot see"
        return
    text = w.stdin if w.stdin is not None else w.fed
    if text is None:
        if w.piped or files:
            w.opaque = w.opaque or "crontab installs entries dcg cannot see"
        return
    for line in text.split("\n"):
        t = line.strip()
        if not t or t.startswith("#") or ("=" in t.split()[0] and not t.startswith("@")):
            continue
        fields = t.split(None, 1 if t.startswith("@") else 5)
        command = fields[-1] if len(fields) >= (2 if t.startswith("@") else 6) else ""
        if command:
            w.payloads.append(("sh", "crontab entry", command, []))


_DOCKER_VALUES = ("add-host", "annotation", "attach", "blkio-weight", "cap-add", "cap-drop",
                  "cgroup-parent", "cgroupns", "cidfile", "cpu-period", "cpu-quota", "cpu-shares",
                  "cpus", "cpuset-cpus", "cpuset-mems", "device", "dns", "dns-option",
                  "dns-search", "domainname", "entrypoint", "env", "env-file", "expose",
                  "gpus", "group-add", "health-cmd", "health-interval", "health-retries",
                  "hostname", "ip", "ip6", "ipc", "isolation", "label", "label-file", "link",
                  "log-driver", "log-opt", "mac-address", "memory", "memory-reservation",
                  "memory-swap", "mount", "name", "network", "net", "network-alias", "pid",
                  "platform", "publish", "pull", "restart", "runtime", "security-opt",
                  "shm-size", "stop-signal", "stop-timeout", "storage-opt", "sysctl", "tmpfs",
                  "ulimit", "user", "userns", "uts", "volume", "volumes-from", "workdir",
                  "pod", "arch", "os", "volume-driver")  # fmt: skip


def container_run(w: Work) -> None:
    """``docker run -v "$PWD":/w IMAGE CMD…``: with a host directory mounted, the command
    works on the host's files; it is judged as if it ran here."""
    argv = w.argv
    run = argv.index("run") if "run" in argv else len(argv)
    start = run + 1
    if len(argv) <= start:
        return
    # A compose service's volumes are in the compose file, which dcg does not read: its
    # own `.:/app` mount is the common case, so `compose run` is judged as if here.
    compose = argv[0].endswith("-compose") or "compose" in argv[1:run]
    mounted = compose or any(
        a in ("-v", "--volume", "--mount") or a.startswith(("-v", "--volume=", "--mount="))
        for a in argv[start:]
    )
    i = skip_options(argv, start, "aceEhlmpuvwm", _DOCKER_VALUES)
    mounted = mounted or _host_mount(argv[start:i])
    entry = [argv[k + 1] for k in range(start, i - 1) if argv[k] == "--entrypoint"]
    entry += [a[13:] for a in argv[start:i] if a.startswith("--entrypoint=")]
    if mounted and entry and entry[-1]:  # `--entrypoint sh IMAGE -c CMD`
        w.payloads.append(("argv", f"{argv[0]} run --entrypoint", "", [entry[-1], *argv[i + 1 :]]))
        return
    if not compose and i + 1 == len(argv) and _host_mount(argv[start:i]):
        # No command: the image's own (its CMD or ENTRYPOINT) runs on the host directory.
        w.opaque = w.opaque or (
            f"{argv[0]} run {argv[i]} runs the image's default command, which dcg cannot "
            "see, on a host directory it mounts writable"
        )
        return
    if not mounted or i + 1 >= len(argv):
        return
    for k in range(i + 1, len(argv)):
        w.data[k] = f"command run by {argv[0]} run on a mounted host directory (parsed)"
    w.payloads.append(("argv", f"{argv[0]} run -v", "", argv[i + 1 :]))


def _host_mount(opts: list[str]) -> bool:
    """A host directory mounted writable (``-v "$PWD":/w``, ``--mount type=bind,src=.``);
    named volumes and ``:ro``/``readonly`` mounts are not."""
    for k, a in enumerate(opts):
        value = a.partition("=")[2] if a.startswith(("--volume=", "--mount=")) else ""
        if not value and a in ("-v", "--volume", "--mount") and k + 1 < len(opts):
            value = opts[k + 1] if a != "--mount" else "--mount " + opts[k + 1]
        elif not value and a.startswith("-v") and len(a) > 2:
            value = a[2:]
        elif not value and a[:1] == "-" and a[1:2] != "-" and a.endswith("v") and k + 1 < len(opts):
            value = opts[k + 1]  # `-itv HOST:DEST`
        if a.startswith("--mount") or value.startswith("--mount "):
            fields = value.removeprefix("--mount ").split(",")
            if "type=bind" in fields and not {"readonly", "ro", "readonly=true"} & set(fields):
                return True
        elif value[:1] in ("/", ".", "~", "$"):
            parts = value.split(":")
            if (len(parts) < 3 or "ro" not in parts[2].split(",")) and not _temp(parts[0]):
                return True
    return False


def _temp(source: str) -> bool:
    """A mount of a directory inside a temp directory (a test's `mktemp -d` database)."""
    from dcg.targets import is_temp

    return source[:1] == "/" and is_temp(source)
