"""One table of code that tools run for you: git settings and variables, options, detached runners.

A git setting such as ``core.fsmonitor`` or ``core.pager`` is shell text git runs; so is
``GIT_EDITOR`` in the environment, ``git difftool -x CMD``, ``git grep -O CMD``; a hook
written on the line runs on the next git command; ``tmux new -d CMD``, ``screen -dm CMD``,
``crontab`` entries and ``docker run -v HOST:… IMAGE CMD`` run their command later or
elsewhere against the same files. Each is queued as a payload and judged like a command.
Everything here is data in the tables below; :func:`git` and the ``HANDLERS`` are the code.
"""

from __future__ import annotations

from dcg.shell.detached import crontab, screen, tmux
from dcg.shell.unwrap import normalize, skip_options

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from collections.abc import Callable

    from dcg.shell.unwrap import Work

# Git configuration keys whose value git runs as shell text ("*" is one subsection).
# "sh": always; "sh-or-bool": a boolean means a built-in (core.fsmonitor=true, pager.x=no);
# "bang": only a value starting with "!" is shell text (credential.helper); "ext": only a
# URL ``ext::CMD ARGS`` (git-remote-ext runs CMD; ``% `` is a space in a word); "ext-base":
# the subsection is such a URL (``url.<base>.insteadOf`` rewrites a fetched URL into it).
GIT_KEYS: dict[str, str] = {
    "core.fsmonitor": "sh-or-bool",
    "core.editor": "sh",
    "sequence.editor": "sh",
    "core.pager": "sh",
    "pager.*": "sh-or-bool",
    "core.sshcommand": "sh",
    "core.askpass": "sh",
    "core.gitproxy": "sh",
    "core.alternaterefscommand": "sh",
    "diff.external": "sh",
    "diff.*.textconv": "sh",
    "diff.*.command": "sh",
    "filter.*.clean": "sh",
    "filter.*.smudge": "sh",
    "filter.*.process": "sh",
    "merge.*.driver": "sh",
    "difftool.*.cmd": "sh",
    "mergetool.*.cmd": "sh",
    "gpg.program": "sh",
    "gpg.*.program": "sh",
    "gpg.ssh.defaultkeycommand": "sh",
    "trailer.*.command": "sh",
    "trailer.*.cmd": "sh",
    "credential.helper": "bang",
    "credential.*.helper": "bang",
    "interactive.difffilter": "sh",
    "uploadpack.packobjectshook": "sh",
    "remote.*.uploadpack": "sh",
    "remote.*.receivepack": "sh",
    "sendemail.sendmailcmd": "sh",
    "sendemail.tocmd": "sh",
    "sendemail.cccmd": "sh",
    "web.browser": "sh",
    "browser.*.cmd": "sh",
    "man.*.cmd": "sh",
    "hook.*.command": "sh",
    "remote.*.url": "ext",
    "remote.*.pushurl": "ext",
    "url.*.insteadof": "ext-base",
    "url.*.pushinsteadof": "ext-base",
}

# Variables git runs as shell text, from the command's assignments or the line's exports.
GIT_ENV = ("GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_PAGER", "PAGER", "EDITOR", "VISUAL",
           "GIT_SSH_COMMAND", "GIT_SSH", "GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "SSH_ASKPASS",
           "GIT_PROXY_COMMAND", "LESSOPEN", "LESSCLOSE")  # fmt: skip

# Other programs and the variables they run as shell text.
TOOL_ENV: dict[str, tuple[str, ...]] = {
    "less": ("LESSOPEN", "LESSCLOSE"),
    "more": ("LESSOPEN", "LESSCLOSE"),
    "man": ("LESSOPEN", "LESSCLOSE", "PAGER", "MANPAGER"),
    "crontab": ("EDITOR", "VISUAL"),
    "systemctl": ("SYSTEMD_EDITOR", "EDITOR", "VISUAL", "SYSTEMD_PAGER", "PAGER"),
    "visudo": ("EDITOR", "VISUAL", "SUDO_EDITOR"),
    "psql": ("PAGER", "PSQL_PAGER", "EDITOR", "PSQL_EDITOR"),
    "mysql": ("PAGER", "EDITOR"),
    # Editors a tool starts on a file it then uses (sudoedit, vipw, kubectl edit, fc).
    "sudoedit": ("SUDO_EDITOR", "VISUAL", "EDITOR"),
    "sudo": ("SUDO_EDITOR", "VISUAL", "EDITOR"),
    "vipw": ("VISUAL", "EDITOR"),
    "vigr": ("VISUAL", "EDITOR"),
    "edquota": ("VISUAL", "EDITOR"),
    "kubectl": ("KUBE_EDITOR", "EDITOR"),
    "oc": ("KUBE_EDITOR", "OC_EDITOR", "EDITOR"),
    "gh": ("GH_EDITOR", "VISUAL", "EDITOR"),
    "fc": ("FCEDIT", "EDITOR"),
    "virsh": ("VISUAL", "EDITOR"),
}

# git subcommands' options whose value is shell text ("argv" after the option: the rest).
GIT_OPTIONS: dict[str, tuple[str, ...]] = {
    "difftool": ("-x", "--extcmd"),
    "grep": ("-O", "--open-files-in-pager"),
    "rebase": ("-x", "--exec"),
    "mergetool": ("--tool-cmd",),
    "send-email": ("--sendmail-cmd", "--to-cmd", "--cc-cmd"),
    "filter-repo": (),
}
# git subcommands whose remaining words are a command: `git bisect run CMD…`,
# `git submodule foreach CMD…` (shell text).
GIT_RUNS: dict[tuple[str, str], str] = {
    ("bisect", "run"): "argv",
    ("submodule", "foreach"): "sh",
}

# Settings that make a git command do what a flag says, for the rules that look for the
# flag: (subcommand, key pattern, test of the value) -> the words git behaves as if given.
# A test "truthy" is a true boolean, "plus" a refspec that forces, "colon" one that
# deletes, "now" an expiry of now.
GIT_SETTING_FLAGS: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    ("push", "remote.*.mirror", "truthy", ("--mirror",)),
    ("push", "remote.*.push", "plus", ("+refs/heads/*",)),
    ("push", "remote.*.push", "colon", (":refs/heads/*",)),
    ("push", "push.default", "mirror", ("--mirror",)),
    ("gc", "gc.pruneexpire", "now", ("--prune=now",)),
    ("gc", "gc.reflogexpire", "now", ("--prune=now",)),
    ("gc", "gc.reflogexpireunreachable", "now", ("--prune=now",)),
    ("reflog", "gc.reflogexpire", "now", ("--expire=now",)),
    ("reflog", "gc.reflogexpireunreachable", "now", ("--expire=now",)),
    ("stash", "gc.reflogexpire", "now", ()),
)
# Plumbing that does what a porcelain command does: judged as that command.
GIT_SAME_AS = {"send-pack": "push"}
_NOW = frozenset(("now", "all", "0", "0.seconds", "never"))
_TRUE = frozenset(("true", "yes", "on", "1", ""))


_FALSE_TRUE = frozenset(("true", "false", "yes", "no", "on", "off", "1", "0", ""))


def _matches(pattern: str, key: str) -> bool:
    parts = pattern.split(".")
    if "*" not in parts:
        return key == pattern
    head, _, name = key.partition(".")
    if len(parts) == 2:  # pager.<cmd>
        return head == parts[0] and bool(name)
    _sub, dot, last = name.rpartition(".")
    return bool(dot) and head == parts[0] and last == parts[-1]


def _kind(key: str) -> str | None:
    found = GIT_KEYS.get(key)
    if found is not None or key in _KINDS:
        return found or _KINDS[key]
    for pattern, kind in GIT_KEYS.items():
        if "*" in pattern and _matches(pattern, key.lower()):
            _KINDS[key] = kind
            return kind
    _KINDS[key] = None
    return None


_KINDS: dict[str, str | None] = {}  # _kind() of keys seen in this process


def _shell_text(kind: str, value: str) -> str | None:
    """The shell text a setting of ``kind`` runs, or None when it runs none."""
    text = value.strip()
    if kind == "sh-or-bool" and text.lower() in _FALSE_TRUE:
        return None
    if kind == "bang":
        return text[1:] if text.startswith("!") else None
    if kind == "ext":
        return ext_command(text)
    return text or None


def ext_command(url: str) -> str | None:
    """The command line the transport ``ext::CMD ARG…`` runs (None: not such a URL)."""
    if not url.startswith("ext::"):
        return None
    words, word, k, body = [], "", 0, url[5:]
    while k < len(body):
        c = body[k]
        if c == "%" and k + 1 < len(body):
            word += {" ": " ", "%": "%", "s": "upload-pack", "S": "git-upload-pack"}.get(
                body[k + 1], ""
            )
            k += 2
            continue
        if c == " ":
            words += [word] if word else []
            word = ""
        else:
            word += c
        k += 1
    words += [word] if word else []
    return " ".join("'" + w.replace("'", "'\\''") + "'" for w in words) or None


def _queue(w: Work, label: str, value: str | None, kind: str = "sh") -> None:
    if value is None:
        if w.opaque is None:
            w.opaque = f"{label} is set to a value computed at run time"
        return
    text = _shell_text(kind, value)
    if text is not None:
        if label.startswith(("LESSOPEN", "LESSCLOSE")):
            text = text.lstrip("|-").replace("%s", "f")
        w.payloads.append(("sh", label, text, []))


def variables(w: Work, env: dict[str, str | None], names: tuple[str, ...]) -> None:
    """The variables ``names`` the command's own assignments or the line's exports set."""
    for name in names:
        if name in w.assigns:
            _queue(w, name, w.assigns[name])
        elif name in env:
            _queue(w, name, env[name])


def tool_env(w: Work, env: dict[str, str | None]) -> None:
    """``LESSOPEN='|cmd' less f``: a variable a program runs as shell text."""
    names = TOOL_ENV.get(w.argv[0]) if w.argv else None
    if names:
        variables(w, env, names)


def git(w: Work, env: dict[str, str | None], settings: list[tuple[str, str | None]]) -> None:
    """Queue what git runs for ``w`` from ``settings`` (every scope, in order), its
    variables, its options and the hooks written earlier on the line."""
    seen: set[str] = set()
    for key, value in reversed(settings):
        if key in seen:
            continue
        seen.add(key)
        kind = _kind(key)
        if kind == "ext-base":  # the URL git rewrites to is the key's own subsection
            kind, value = "ext", key.partition(".")[2].rpartition(".")[0]
        if kind is not None:
            if value is None and kind == "ext":
                continue  # a remote's URL computed at run time: git fetches, runs nothing
            if value is None:
                _queue(w, f"git config {key}", None)
            else:
                _queue(w, f"git config {key}", value, kind)
    variables(w, env, GIT_ENV)
    argv = w.argv
    if len(argv) < 2:
        return
    sub = argv[1]
    _implied(w, settings, env)
    flags = GIT_OPTIONS.get(sub, ())
    for k in range(2, len(argv)):
        a = argv[k]
        if a.startswith("ext::"):  # git fetch 'ext::sh -c …': the transport runs it
            w.data[k] = f"command run by git {sub} through the ext:: transport (parsed)"
            _queue(w, f"git {sub} ext::", a, "ext")
        if a == "--":
            break
        for flag in flags:
            if a == flag and k + 1 < len(argv):
                w.data[k + 1] = f"command run by git {sub} {flag} (parsed)"
                _queue(w, f"git {sub} {flag}", argv[k + 1])
            elif a.startswith(flag + "=") and flag.startswith("--"):
                w.data[k] = f"command run by git {sub} {flag} (parsed)"
                _queue(w, f"git {sub} {flag}", a[len(flag) + 1 :])
            elif len(flag) == 2 and a.startswith(flag) and len(a) > 2 and a[1] != "-":
                w.data[k] = f"command run by git {sub} {flag} (parsed)"
                _queue(w, f"git {sub} {flag}", a[2:])
    if len(argv) > 3 and (sub, argv[2]) in GIT_RUNS:
        i = skip_options(argv, 3)
        rest = argv[i:]
        if rest:
            for k in range(i, len(argv)):
                w.data[k] = f"command run by git {sub} {argv[2]} (parsed)"
            if GIT_RUNS[(sub, argv[2])] == "argv":
                w.payloads.append(("argv", f"git {sub} {argv[2]}", "", rest))
            else:
                w.payloads.append(("sh", f"git {sub} {argv[2]}", " ".join(rest), []))


def _value_says(test: str, value: str | None) -> bool:
    if value is None:
        return True  # computed: assume the worst
    v = value.strip().lower()
    if test == "truthy":
        return v in _TRUE
    if test == "plus":
        return v.startswith("+")
    if test == "colon":  # a refspec with no source deletes its destination
        return v.startswith(":") and len(v) > 1
    if test == "now":
        return v in _NOW or v.startswith("now")
    return v == test


def _add(w: Work, words: tuple[str, ...]) -> None:
    w.argv = [*w.argv, *words]
    w.dyns = [*w.dyns, *([False] * len(words))]


def _implied(w: Work, settings: list[tuple[str, str | None]], env: dict[str, str | None]) -> None:
    """Rewrite ``w`` so the rules see what its settings and input make it do."""
    if w.argv[1] in GIT_SAME_AS:
        w.argv = [w.argv[0], GIT_SAME_AS[w.argv[1]], *w.argv[2:]]
    sub = w.argv[1]
    for want, pattern, test, words in GIT_SETTING_FLAGS:
        if want != sub:
            continue
        for key, value in settings:
            if _matches(pattern, key) and _value_says(test, value):
                _add(w, words)
                break
    fed = w.stdin if w.stdin is not None else w.fed
    if sub == "update-ref" and "--stdin" in w.argv:
        # What the instructions destroy: dcg.shell.gitforms.stdin_updates.
        if fed is None and w.piped:
            w.opaque = w.opaque or "git update-ref --stdin reads ref updates dcg cannot see"

    elif (
        sub == "clean"
        and (fed is not None or w.piped)
        and any(a == "--interactive" or (a[:2] != "--" and a[:1] == "-" and "i" in a)
                for a in w.argv[2:])
    ):  # fmt: skip
        # `echo c | git clean -i`: the interactive menu answered from stdin cleans.
        _add(w, ("--force",))


def _unwrapped(argv: list[str]) -> list[str]:
    """``argv`` without the wrappers in front of it (``command git diff``, ``env … git``)."""
    from dcg.shell.unwrap import Work
    from dcg.shell.wrappers import lookup

    for _ in range(8):
        found = lookup(normalize(argv[0]), argv) if argv else None
        start = found(Work(list(argv), [False] * len(argv), (), None)) if found else -1
        if start <= 0:
            break
        argv = argv[start:]
    return argv


def sed(w: Work) -> None:
    """``sed 'e CMD'``, ``sed 's/.*/CMD/e'``, ``sed e FILE``: sed runs shell text; what it
    takes from its input is judged when the input is known, opaque otherwise."""
    from dcg.shell import edits

    found = edits.sed_args(w.argv)
    if found is None or not any("e" in s for s in found[0]):
        return
    scripts, files, flags = found
    runs = edits.sed_runs(scripts, "E" in flags)
    fed = w.stdin if w.stdin is not None else w.fed
    if runs is None and not files and fed is not None and [s.strip() for s in scripts] == ["e"]:
        runs = [line for line in fed.split("\n") if line.strip()]
    if runs is None:
        w.opaque = w.opaque or "sed's e command runs text taken from its input"
        return
    for k in range(1, len(w.argv)):
        if w.argv[k] in scripts:
            w.data[k] = "script run by sed (parsed)"
    for text in runs:
        w.payloads.append(("sh", "sed e", text, []))


HANDLERS: dict[str, Callable[[Work], None]] = {
    "sed": sed,
    "gsed": sed,
    "tmux": tmux,
    "screen": screen,
    "crontab": crontab,
}
