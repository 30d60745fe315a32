"""Options whose value a tool runs as a command (tar, rsync, zip, ssh, socat, git …).

``tar --checkpoint-action=exec=CMD``, ``rsync -e CMD``, ``ssh -o ProxyCommand=CMD``,
``git --upload-pack=CMD``, ``socat EXEC:CMD`` and their kin.

One table: program -> option -> what its value is. The value is queued as shell text and
judged like a command on the line (it runs with the same files), so a tool cannot carry a
command past the guard, nor dcg's own commands past self-protection.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.shell.unwrap import Work

# "sh": the value is shell text; "exec=": only after that prefix (tar's checkpoint
# actions); "ssh-o": an ssh -o KEY=VALUE whose KEY is a command key.
TABLE: dict[str, dict[str, str]] = {
    "tar": {"--checkpoint-action": "exec=", "--to-command": "sh", "-I": "sh",
            "--use-compress-program": "sh", "-F": "sh", "--info-script": "sh",
            "--new-volume-script": "sh", "--rsh-command": "sh"},
    "rsync": {"-e": "sh", "--rsh": "sh", "--rsync-path": "sh"},
    "zip": {"-TT": "sh", "--unzip-command": "sh"},
    "ssh": {"-o": "ssh-o"},
    "scp": {"-o": "ssh-o", "-S": "sh"},
    "sftp": {"-o": "ssh-o", "-S": "sh"},
    "split": {"--filter": "sh"},
    "sort": {"--compress-program": "sh"},
    "git": {"--upload-pack": "sh", "--receive-pack": "sh", "--exec": "sh"},
    "socat": {},
}  # fmt: skip
TABLE["bsdtar"] = TABLE["tar"]
_SSH_KEYS = frozenset(("proxycommand", "localcommand", "knownhostscommand"))
_SOCAT = ("EXEC:", "SYSTEM:")


def handle(w: Work) -> None:
    """Queue what ``w``'s command-valued options run."""
    name = w.argv[0]
    if name == "socat":
        for a in w.argv[1:]:
            up = a.upper()
            for kind in _SOCAT:
                if up.startswith(kind):
                    _queue(w, f"socat {kind[:-1]}", a[len(kind) :].split(",")[0])
        return
    if name in ("tar", "bsdtar") and w.feeder_argv[1:2] == ["archive"]:
        from dcg.shell.gitarchive import archive_over_worktree

        archive_over_worktree(w)
    table = TABLE[name]
    argv = w.argv
    if name == "git" and "clone" in argv[1:4]:  # clone's -u is --upload-pack
        table = {**table, "-u": "sh"}
    k = 1
    while k < len(argv):
        a = argv[k]
        k += 1
        if a == "--":
            break
        opt, eq, value = a.partition("=") if a.startswith("--") else (a, "", "")
        if not eq and opt not in table and a[:2] in table and len(a) > 2:
            opt, value, eq = a[:2], a[2:], "="  # -Ivalue, -oKey=value
        found = table.get(opt)
        if found is None:
            continue
        kind = found
        if not eq:
            if k >= len(argv):
                break
            value = argv[k]
            k += 1
        if kind == "exec=":
            if value.startswith("exec="):
                _queue(w, f"{name} {opt}", value[5:])
        elif kind == "ssh-o":
            key, _, text = value.partition("=")
            if key.strip().lower() in _SSH_KEYS:
                _queue(w, f"{name} -o {key.strip()}", text)
        elif kind == "sh":
            _queue(w, f"{name} {opt}", value)


def _queue(w: Work, label: str, text: str) -> None:
    if text.strip():
        w.payloads.append(("sh", label, text.replace("%h", "host").replace("%p", "22"), []))
