"""Git as its configuration makes it: global options, aliases, and settings that drop safety.

``git x`` runs whatever ``alias.x`` says when ``x`` is not a git command. The alias can
come from the command line (``-c alias.x=…``, ``--config-env=alias.x=VAR``), from the
environment (``GIT_CONFIG_COUNT``/``GIT_CONFIG_KEY_n``/``GIT_CONFIG_VALUE_n``,
``GIT_CONFIG_PARAMETERS``, on the line or in the hook's own environment), from a
``git config alias.x …`` earlier on the same line, or from the repository's and the
user's config files (:mod:`dcg.shell.gitconfig`, read only for a subcommand git does not
have, or a ``git clean`` that did not say ``-f``). The same sources can set
``clean.requireForce=false``, which makes ``git clean`` delete without ``-f``.
A ``!shell`` alias is judged as the shell text it runs; an alias whose value cannot be
known is an opaque execution.
"""

from __future__ import annotations

from dcg import oslite as os
from dcg.shell import gitargs
from dcg.shell.gitargs import split
from dcg.shell.limits import cache
from dcg.shell.state import BASE, CWD

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path
if TYPE_CHECKING:
    from dcg.shell.state import Vars
    from dcg.shell.unwrap import Work

# Keys in the walker's variable table (no variable name can contain a NUL).
UNKNOWN = "\x00?"

MAX_ALIAS_DEPTH = 10
# Git's own commands (``git --list-cmds=main`` plus the usual scripts): an alias never
# shadows one, so for these no config file is read.
BUILTINS = gitargs.COMMANDS | frozenset((
    "add--interactive", "bisect--helper", "bugreport", "check-attr", "check-mailmap",
    "check-ref-format", "checkout--worker", "column", "commit-graph", "credential",
    "credential-cache", "credential-store", "daemon", "diagnose", "difftool", "fast-export",
    "fast-import", "fetch-pack", "fmt-merge-msg", "for-each-repo", "fsck-objects",
    "get-tar-commit-id", "hook", "http-backend", "http-fetch", "http-push", "imap-send",
    "index-pack", "init-db", "instaweb", "interpret-trailers", "mailinfo", "mailsplit",
    "maintenance", "merge-file", "merge-index", "merge-octopus", "merge-one-file",
    "merge-ours", "merge-recursive", "merge-resolve", "merge-subtree", "merge-tree",
    "mergetool", "mktag", "mktree", "multi-pack-index", "name-rev", "pack-objects",
    "pack-redundant", "pack-refs", "patch-id", "pickaxe", "quiltimport", "receive-pack",
    "remote-ext", "remote-fd", "remote-http", "remote-https", "request-pull", "rerere",
    "send-pack", "shell", "show-branch", "show-index", "stage", "stripspace", "subtree",
    "unpack-file", "unpack-objects", "update-server-info", "upload-archive", "upload-pack",
    "var", "verify-commit", "verify-pack", "verify-tag", "version", "whatchanged",
    "send-email", "gui", "citool", "gitk", "svn", "p4", "cvsimport", "archimport",
))  # fmt: skip

_GIT_VALUE = ("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env",
              "--super-prefix", "--exec-path", "--attr-source", "--list-cmds")  # fmt: skip
_GIT_FLAGS = frozenset(("--no-pager", "--paginate", "-p", "-P", "--bare", "--no-replace-objects",
    "--literal-pathspecs", "--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs",
    "--no-optional-locks", "--no-advice", "--no-lazy-fetch"))  # fmt: skip
_FALSE = ("false", "no", "off", "0", "")


class _Git:
    """What the command's own options and environment tell about its configuration."""

    __slots__ = ("chdir", "exec_path", "git_dir", "settings")

    def __init__(self) -> None:
        self.settings: list[tuple[str, str | None]] = []  # (lower key, value; None unknown)
        self.chdir: list[str] = []
        self.git_dir: str | None = None
        self.exec_path: str | None = None  # --exec-path=DIR


def _key(key: str) -> str:
    """``Alias.X`` → ``alias.x``; a subsection (``a.Sub.b``) keeps its case."""
    section, _, rest = key.partition(".")
    sub, dot, name = rest.rpartition(".")
    return section.lower() + "." + (sub + dot if dot else "") + name.lower()


def _strip_globals(w: Work, git: _Git, env: Vars) -> None:
    argv = w.argv
    i, n = 1, len(argv)
    while i < n:
        a = argv[i]
        if a in _GIT_FLAGS:
            i += 1
            continue
        opt, eq, attached = a.partition("=")
        if a in _GIT_VALUE or (eq and opt in _GIT_VALUE and opt.startswith("--")):
            if a in ("--exec-path", "--list-cmds") or (eq and opt == "--exec-path"):
                if eq and opt == "--exec-path":  # where git finds git-SUB programs
                    git.exec_path = UNKNOWN if w.dyns[i] else attached
                i += 1
                continue
            value = attached if eq else (argv[i + 1] if i + 1 < n else "")
            dyn = (w.dyns[i] if eq else i + 1 < n and w.dyns[i + 1]) or False
            _global(opt if eq else a, value, dyn, git, env, w)
            i += 1 if eq else 2
        else:
            break
    if i > 1:
        w.argv = argv[:1] + argv[i:]
        w.dyns = w.dyns[:1] + w.dyns[i:]


def _global(opt: str, value: str, dyn: bool, git: _Git, env: Vars, w: Work) -> None:
    if opt == "-c":
        key, eq, val = value.partition("=")
        known = val if not dyn else _pwd(val, env)
        git.settings.append((_key(key), None if known is None else (known if eq else "true")))
    elif opt == "--config-env":
        key, _, var = value.rpartition("=")
        git.settings.append((_key(key), None if dyn else _variable(var, env, w)))
    elif opt == "-C":
        git.chdir.append(UNKNOWN if dyn else value)
    elif opt == "--git-dir":
        git.git_dir = UNKNOWN if dyn else value
    if opt in ("-C", "--git-dir", "--work-tree"):
        # Where git works, kept for the safety net (dcg.safety.plan), which must snapshot
        # that repository and not the one of the shell's directory.
        w.via = (*w.via, f"git {opt} {UNKNOWN if dyn else value}")


_PWDS = ("$PWD", "${PWD}", "$(pwd)", "`pwd`")


def _pwd(text: str, env: Vars) -> str | None:
    """``$PWD/cfg`` (or ``$(pwd)/cfg``, ``$HOME/cfg``) with the directory known: that path."""
    here = env.get(BASE)
    moved = env.get(CWD)
    if moved == UNKNOWN or here is None:
        return None
    if moved:
        here = os.path.join(here, moved)
    home = env["HOME"] if "HOME" in env else os.environ.get("HOME")
    for head in (*_PWDS, "$HOME", "${HOME}"):
        rest = text[len(head) :]
        if text.startswith(head) and "$" not in rest and "`" not in rest:
            base = here if head in _PWDS else home
            return base + rest if base else None
    return None


def _variable(name: str, env: Vars, w: Work) -> str | None:
    """A variable git would see: the command's assignments, the line's, the hook's own."""
    if name in w.assigns:
        return w.assigns[name]
    if name in env:
        return env[name]
    return _hook_env(name)


def _hook_env(name: str) -> str | None:
    """The hook's own environment variable ``name``, read once per line."""
    if name not in _ENVIRON:
        _ENVIRON[name] = os.environ.get(name)
    return _ENVIRON[name]


def _environment(w: Work, env: Vars) -> list[tuple[str, str | None]]:
    """Settings in ``GIT_CONFIG_COUNT``/``_KEY_n``/``_VALUE_n`` and ``GIT_CONFIG_PARAMETERS``."""
    out: list[tuple[str, str | None]] = []
    params = _variable("GIT_CONFIG_PARAMETERS", env, w)
    if params:
        out.extend(_parameters(params))
    count = _variable("GIT_CONFIG_COUNT", env, w)
    if count is None and "GIT_CONFIG_COUNT" in w.assigns:
        count = "16"  # computed: look at every plausible index
    if count is not None:
        try:
            total = min(int(count.strip() or "0"), 64)
        except ValueError:
            total = 16
        for k in range(total):
            key = _variable(f"GIT_CONFIG_KEY_{k}", env, w)
            if key is not None:
                out.append((_key(key), _variable(f"GIT_CONFIG_VALUE_{k}", env, w)))
    return out


def _parameters(text: str) -> list[tuple[str, str | None]]:
    """``'alias.x'='reset --hard' 'a.b=c'``: git's own quoting of ``-c`` for children."""
    out: list[tuple[str, str | None]] = []
    words: list[str] = []
    buf: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "'":
            j = text.find("'", i + 1)
            j = n if j < 0 else j
            buf.append(text[i + 1 : j])
            i = j + 1
        elif c == "\\" and i + 1 < n:
            buf.append(text[i + 1])
            i += 2
        elif c in " \t\n":
            if buf:
                words.append("".join(buf))
            buf = []
            i += 1
        else:
            buf.append(c)
            i += 1
    if buf:
        words.append("".join(buf))
    for word in words:
        key, eq, value = word.partition("=")
        out.append((_key(key), value if eq else "true"))
    return out


def _start(git: _Git, env: Vars) -> str | None:
    """The directory git will run in: payload cwd, then `cd` on the line, then `-C`."""
    here = env.get(BASE)
    moved = env.get(CWD)
    home = os.environ.get("HOME") or "~"
    for step in ([moved] if moved else []) + git.chdir:
        if step is None or step == UNKNOWN:
            return here
        step = home + step[1:] if step == "~" or step.startswith("~/") else step
        step = home + step[5:] if step.startswith("$HOME") else step
        if os.path.isabs(step):
            here = step
        elif here is not None:
            here = os.path.join(here, step)
    return here


# every()'s keys of a list of file entries (gitconfig.load hands out copies of a memo).
_KEYED: dict[int, tuple[list[tuple[str, str]], list[tuple[str, str]]]] = cache()


_ENVIRON: dict[str, str | None] = cache()  # the hook's environment, once per name and line


class _Lookup:
    """Config values, last definition winning, files read on first need only."""

    def __init__(self, w: Work, git: _Git, env: Vars) -> None:
        self.git = git
        self.env = env
        self.w = w
        # Command-scope settings win over the files: environment first, then -c/--config-env.
        self.command = _environment(w, env) + git.settings
        self.files: list[tuple[str, str]] | None = None
        self.unknown = ""  # why a config file git reads cannot be known ("": all known)

    def _load(self) -> list[tuple[str, str]]:
        if self.files is None:
            from dcg.shell import gitsources

            git_dir = self.git.git_dir
            start = _start(self.git, self.env)
            if git_dir == UNKNOWN:
                self.files, self.unknown = [], "git --git-dir is computed at run time"
            else:
                included = [
                    (k, v) for k, v in self.env.state.git_settings.items() if _is_include(k)
                ]
                self.files, self.unknown = gitsources.files(
                    self._variable, start, git_dir, [*included, *self.command], self.env
                )
        return self.files

    def _variable(self, name: str) -> tuple[bool, str | None]:
        w, env = self.w, self.env
        if name in w.assigns or name in env:
            return True, _variable(name, env, w)
        value = _hook_env(name)
        return value is not None, value

    def every(self) -> list[tuple[str, str | None]]:
        """The settings git sees, lowest precedence first: the config files when they were
        read already (an alias; they are not read for a plain git command, which keeps its
        cost), the line's ``git config``, the command's own (-c, GIT_CONFIG_*)."""
        files = self.files or []
        keyed = _KEYED.get(id(files))
        if keyed is None or keyed[0] is not files:
            keyed = _KEYED[id(files)] = (files, [(_key(k), v) for k, v in files])
        out: list[tuple[str, str | None]] = list(keyed[1])
        out += self.env.state.git_settings.items()
        return out + self.command

    def get(self, key: str) -> tuple[bool, str | None]:
        """(found, value); value None when it is set but cannot be known."""
        for k, v in reversed(self.command):
            if k == key:
                return True, v
        if key in self.env.state.git_settings:
            return True, self.env.state.git_settings[key]
        files = self._load()
        if self.unknown:
            return True, None  # a file dcg cannot read may set it
        for k, v in reversed(files):
            if _key(k) == key:
                return True, v
        return False, None


def resolve(w: Work, env: Vars) -> None:
    """Rewrite ``git …`` into the command git will really run (argv[0] is ``git``)."""
    git = _Git()
    _strip_globals(w, git, env)
    for name, opt in (("GIT_DIR", "--git-dir"), ("GIT_WORK_TREE", "--work-tree")):
        value = w.assigns.get(name, env.get(name)) if name in w.assigns or name in env else ""
        if value != "":  # set on the line: the repository git works in, as the option says
            w.via = (*w.via, f"git {opt} {UNKNOWN if value is None else value}")
    if len(w.argv) < 2:
        return
    if w.argv[1] == "config":
        _remember(w.argv, w.dyns, env, _start(git, env))
        if not any(a in ("-e", "--edit", "edit") for a in w.argv[2:]):
            return  # `git config -e` runs the editor: judged below like any git command
    lookup: _Lookup | None = None
    for _ in range(MAX_ALIAS_DEPTH):
        sub = w.argv[1] if len(w.argv) > 1 else ""
        if not sub or sub in BUILTINS or sub.startswith("-") or w.dyns[1]:
            break
        lookup = lookup or _Lookup(w, git, env)
        found, value = lookup.get("alias." + sub.lower())
        if not found:
            break
        if value is None:
            w.opaque = f"git alias {sub!r} is set to a value computed at run time"
            if lookup.unknown:
                w.opaque = f"git {sub!r} may be an alias: {lookup.unknown}"
            return
        value = value.strip()
        if value.startswith("!"):
            args = " ".join(_quote(a) for a in w.argv[2:])
            w.payloads.append(("sh", "git alias", f"{value[1:]} {args}".strip(), []))
            for k in range(2, len(w.argv)):
                w.data[k] = "arguments of a shell alias (parsed with it)"
            return
        words = split(value)
        w.argv = w.argv[:1] + words + w.argv[2:]
        w.dyns = w.dyns[:1] + [False] * len(words) + w.dyns[2:]
        _strip_globals(w, git, env)
        lookup.command = _environment(w, env) + git.settings
    sub = w.argv[1] if len(w.argv) > 1 else ""
    if sub and not sub.startswith("-") and not w.dyns[1]:
        from dcg.shell.gitexternal import external

        def variable(name: str) -> str | None:
            return _variable(name, env, w)

        external(w, sub, env, variable, git.exec_path, _start(git, env), sub in BUILTINS)
    lookup = lookup or _Lookup(w, git, env)
    # Settings on disk or written on the line: push/gc/reflog ones that act as flags, and
    # the commands git runs for any subcommand (core.fsmonitor, pagers, filters …).
    lookup._load()
    _force_clean(w, lookup)
    if w.argv[1] == "checkout":
        from dcg.shell import gitpaths

        gitpaths.checkout(w, _start(git, env))
    from dcg.shell import githooks, toolruns

    settings, start = lookup.every(), _start(git, env)
    toolruns.git(w, env, settings)
    githooks.written_hooks(w, env, settings, start)
    w.hooks = githooks.present(githooks.run_by(w.argv), start, settings, env)
    githooks.templated(w, start, settings, env)
    if len(w.argv) > 1:
        from dcg.shell import gitforms

        gitforms.mark(w, env, start, settings)
    if w.argv[1:2] == ["apply"]:
        from dcg.shell import gitstream

        gitstream.apply(w, env, start)


def patch(w: Work, env: Vars) -> None:
    """``patch -R`` of the work tree's own diff (:func:`dcg.shell.gitstream.patch`)."""
    from dcg.shell import gitstream

    gitstream.patch(w, env, _start(_Git(), env))


def _quote(word: str) -> str:
    if word and all(c.isalnum() or c in "-_./=:@%+," for c in word):
        return word
    return "'" + word.replace("'", "'\\''") + "'"


def _force_clean(w: Work, lookup: _Lookup) -> None:
    """``git clean`` without ``-f``/``-n``/``-i`` deletes when ``clean.requireForce`` is off."""
    argv = w.argv
    if len(argv) < 2 or argv[1] != "clean":
        return
    for a in argv[2:]:
        if a == "--":
            break
        if a in ("--force", "--dry-run", "--interactive") or (
            a[:1] == "-" and a[1:2] != "-" and any(c in a for c in "fni")
        ):
            return
    found, value = lookup.get("clean.requireforce")
    if found and (value is None or value.strip().lower() in _FALSE):
        w.argv = gitargs.clean_without_force(argv)
        w.dyns = [*w.dyns[:2], False, *w.dyns[2:]]


_CONFIG_VALUE_OPTIONS = frozenset(("--file", "-f", "--blob", "--type", "--default", "--comment",
                                   "--value", "--worktree-file"))  # fmt: skip
_CONFIG_READS = frozenset(("--unset", "--unset-all", "--get", "--get-all", "--get-regexp",
                           "unset", "get", "list", "-l", "--list", "--rename-section",
                           "--remove-section", "rename-section", "remove-section"))  # fmt: skip


def _remember(argv: list[str], dyns: list[bool], env: Vars, start: str | None) -> None:
    """``git config [scope] [set|--add|…] KEY VALUE`` earlier on the line: remember it (an
    included file's relative path as git reads it: from the config file's directory)."""
    words: list[tuple[str, bool]] = []
    k = 2
    while k < len(argv):
        a = argv[k]
        if a in _CONFIG_READS:
            return
        if a in _CONFIG_VALUE_OPTIONS:
            k += 2
            continue
        if not a.startswith("-") and not (k == 2 and a in ("set", "add")):
            words.append((a, dyns[k]))
        k += 1
    if len(words) >= 2 and "." in words[0][0] and not words[0][1]:
        value, dyn = words[1]
        key = _key(words[0][0])
        if not dyn and _is_include(key) and not os.path.isabs(value) and value[:1] != "~":
            value = os.path.join(_config_dir(argv, start), value)
        env.state.git_settings[key] = None if dyn else value


def _is_include(key: str) -> bool:
    return key == "include.path" or (key.startswith("includeif.") and key.endswith(".path"))


def _config_dir(argv: list[str], start: str | None) -> str:
    """The directory of the file ``git config …`` writes (relative includes start there)."""
    if "--global" in argv:
        return os.environ.get("HOME") or "/"
    for k, a in enumerate(argv[:-1]):
        if a in ("-f", "--file"):
            return os.path.dirname(os.path.join(start or "/", argv[k + 1]))
    from dcg.shell import gitconfig

    found = gitconfig.repository_config(start or ".") if start else []
    return os.path.dirname(found[-1]) if found else (start or "/")
