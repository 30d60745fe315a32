"""What npm, npx, pre-commit and make run besides the script or recipe named on the line.

npm runs lifecycle scripts for ``pack``, ``publish``, ``version``, ``rebuild``…
(:data:`NPM_EVENTS`), ``node server.js`` for ``npm start`` without a start script, the
shell ``.npmrc``'s ``script-shell`` names, and ``node_modules/.bin`` programs a script
calls by name; ``npx NAME`` runs ``node_modules/.bin/NAME`` and ``npx .`` the package's
``bin``; ``pre-commit run`` runs the local hooks' ``entry``; make reads ``include``d
makefiles and those ``$MAKEFILES`` names. Part of the table :mod:`dcg.shell.implicit` starts.
"""

from __future__ import annotations

from dcg import oslite as os
from dcg.shell import runtext, scripts
from dcg.shell.payloads import BUILD_TOOLS
from dcg.shell.state import CWD

TYPE_CHECKING = False  # typing itself costs milliseconds on the hook's path

if TYPE_CHECKING:
    from dcg.shell.command import Command
    from dcg.shell.runtext import Ctx, Walker
    from dcg.shell.unwrap import Work


# The line's environment marks a package script being judged: a command word there may be
# a program of node_modules/.bin (npm puts it first on PATH).

# npm commands that run lifecycle scripts of the package (when given no package to act on).
_INSTALL = ("preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare",
            "postprepare")  # fmt: skip
NPM_EVENTS: dict[str, tuple[str, ...]] = {
    "pack": ("prepack", "prepare", "postpack"),
    "publish": ("prepublishOnly", "prepack", "prepare", "postpack", "publish", "postpublish"),
    "version": ("preversion", "version", "postversion"),
    "rebuild": ("preinstall", "install", "postinstall", "prepare"),
    "rb": ("preinstall", "install", "postinstall", "prepare"),
    "link": _INSTALL,
    "ln": _INSTALL,
    "shrinkwrap": ("preshrinkwrap", "shrinkwrap", "postshrinkwrap"),
    "install-test": (*_INSTALL, "pretest", "test", "posttest"),
    "it": (*_INSTALL, "pretest", "test", "posttest"),
    "install-ci-test": (*_INSTALL, "pretest", "test", "posttest"),
    "cit": (*_INSTALL, "pretest", "test", "posttest"),
}
# Of those, the ones that take an argument which is not a package (npm version patch).
_ARG_OK = frozenset(("version",))


def npm_events(sub: str, operands: list[str]) -> list[str] | None:
    """The lifecycle scripts npm ``sub`` runs for the package, None when it runs none."""
    events = NPM_EVENTS.get(sub)
    if events is None:
        return None
    if sub in _ARG_OK:
        return list(events) if operands else None
    if any(o not in (".", "./") for o in operands):
        return None
    return list(events)


def script_shell(argv: list[str], work: Work, ctx: Ctx, npmrc: str | None) -> str | None:
    """The shell npm runs scripts in, when not sh: option, variable or ``.npmrc``."""
    for k, a in enumerate(argv):
        if a == "--script-shell" and k + 1 < len(argv):
            return argv[k + 1]
        if a.startswith("--script-shell="):
            return a.partition("=")[2]
    for where in (work.assigns, ctx.env):  # npm reads its variables in any case, - or _
        for var, value in where.items():
            if var[:11].lower() == "npm_config_" and var[11:].lower().replace("-", "_") == (
                "script_shell"
            ):
                return value if value is not None else "$(…)"
    for line in (npmrc or "").splitlines():
        key, eq, value = line.partition("=")
        if eq and key.strip() == "script-shell":
            return value.strip().strip("\"'")
    return None


def exec_shell(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """``npm exec``/``npx`` run their command in the script shell too: a program named
    there (option, variable, ``.npmrc``, ``npm config set``) is judged as it runs."""
    shell = script_shell(work.argv, work, ctx, npmrc(ctx, None, out, walker))
    if shell and shell.rpartition("/")[2] not in ("sh", "bash", "dash", "zsh"):
        quoted = "'" + shell.replace("'", "'\\''") + "'"
        walker.text(quoted + " -c :", ctx.child((*ctx.via, "npm script-shell")), out)


def npmrc(ctx: Ctx, directory: str | None, out: list[Command], walker: Walker) -> str | None:
    """The project's ``.npmrc`` text (written on the line or on disk), if any."""
    hit = runtext.written_first(ctx, directory, (".npmrc",), [], walker)  # a token: no finding
    user = runtext.written("~/.npmrc", ctx, [], walker)[1] or ""  # the user's, this line's
    if hit is not None:
        return (hit[0] or "") + "\n" + user
    found = runtext.find_up(ctx, runtext.here(ctx, directory), (".npmrc",))
    text = found[1] if found is not None and found[1] != scripts.TOO_BIG else None
    return text + "\n" + user if text is not None else user or None


def default_start(names: list[str], every: dict[str, object], ctx: Ctx, cwd: str | None) -> bool:
    """``npm start`` with no start script runs ``node server.js`` when the file exists."""
    if "start" not in names or "start" in every:
        return False
    path = os.path.join(cwd, "server.js") if cwd else "server.js"
    if path in ctx.env.state.files or "./" + path in ctx.env.state.files:
        return True
    if ctx.files is None:
        return False
    where = scripts.where(ctx.files, path, ctx.env.get(CWD))
    return where is not None and os.path.isfile(where)


_NODE_RUNNERS = frozenset(("npx", "pnpx", "bunx", "npm", "pnpm", "yarn", "bun"))


def via_node_runner(work: Work) -> bool:
    """The command was unwrapped from ``pnpm exec``, ``bunx``, ``yarn exec``…: its command
    word is looked up in node_modules/.bin first."""
    return any(v.split(" ", 1)[0] in _NODE_RUNNERS for v in work.via)


def npm_bin(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """A package script's command word that is a ``node_modules/.bin`` program written on
    this line (npm puts that directory first on PATH)."""
    name = work.argv[0]
    if "/" in name:
        return
    path = "node_modules/.bin/" + name
    if path in ctx.env.state.files or "./" + path in ctx.env.state.files:
        runtext.judge("exec", path, f"node_modules/.bin/{name}", ctx, out, walker)


_NPX_VALUE = frozenset(("-p", "--package", "-c", "--call", "-w", "--workspace", "--prefix"))


def npx(argv: list[str], ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """``npx NAME`` / ``npx .`` / ``npx ./dir``: the bin it runs from the project."""
    i = 1
    while i < len(argv) and argv[i].startswith("-") and argv[i] != "--":
        i += 1 + (argv[i] in _NPX_VALUE)
    i += i < len(argv) and argv[i] == "--"
    if i >= len(argv):
        return
    spec = argv[i]
    if spec in (".", "..") or spec.startswith(("./", "../", "/", "~", "file:")):
        spec = spec.removeprefix("file:")
        got = runtext.load(os.path.join(spec, "package.json"), ctx, out, walker)
        if got is None:
            text = _package_json(spec, ctx)
            if text is None:
                return
        else:
            text = got[0]
        for path in _bins(text):
            runtext.judge("exec", os.path.join(spec, path), f"npx {argv[i]}", ctx, out, walker)
        return
    name = spec.rpartition("@")[0] if spec.rfind("@") > 0 else spec
    if name in _RUNS_CODE or scripts.interpreter_lang(name):  # `npx node x.js`, `npx tsx x.ts`
        line = " ".join("'" + a.replace("'", "'\\''") + "'" for a in argv[i:])
        walker.text(line, ctx.child((*ctx.via, f"npx {name}")), out)
        return
    if name in BUILD_TOOLS:  # `npx jest` loads jest.config.js the line wrote
        from dcg.shell import runfiles

        runfiles.judge(name, argv[i:], ctx, out, walker)
    path = "node_modules/.bin/" + name.rpartition("/")[2]
    if path in ctx.env.state.files or "./" + path in ctx.env.state.files:
        runtext.judge("exec", path, f"npx {spec}", ctx, out, walker)


# Packages npx runs that run a file or code they are given, as the program itself would.
_RUNS_CODE = frozenset(("tsx", "ts-node", "node", "deno", "bun", "zx"))


def _package_json(directory: str, ctx: Ctx) -> str | None:
    """A package.json on disk that names no guarded tool (its bin is read all the same)."""
    if ctx.files is None:
        return None
    where = scripts.where(ctx.files, os.path.join(directory, "package.json"), ctx.env.get(CWD))
    if where is None or not os.path.isfile(where):
        return None
    text = scripts.read(ctx.files, where)
    return None if text == scripts.TOO_BIG else text


def _bins(text: str) -> list[str]:
    from dcg import jsonfast

    try:
        doc = jsonfast.loads(text)
    except ValueError:
        return []
    if not isinstance(doc, dict):
        return []
    b = doc.get("bin")
    if isinstance(b, str):
        return [b]
    if isinstance(b, dict):
        return [v for v in b.values() if isinstance(v, str)]
    return []


# pre-commit: options of `run` taking a value, and hook languages whose entry is no command.
_PC_VALUE = frozenset(("-c", "--config", "--hook-stage", "--from-ref", "--source", "-s",
                       "--to-ref", "--origin", "-o", "--commit-msg-filename", "--remote-name",
                       "--remote-url", "--local-branch", "--remote-branch", "--checkout-type",
                       "--is-squash-merge", "--rewrite-command", "--color",
                       "--prepare-commit-message-source", "--commit-object-name"))  # fmt: skip
_PC_NOT_COMMANDS = frozenset(("pygrep", "fail", "docker_image", "docker"))
_PC_CONFIGS = (".pre-commit-config.yaml", ".pre-commit-config.yml")


def precommit(argv: list[str], ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """``pre-commit run [HOOK]``: the ``entry`` (and ``args``) of the config's local hooks."""
    i = 1
    config: str | None = None
    while i < len(argv) and argv[i].startswith("-"):
        if argv[i] in ("-c", "--config") and i + 1 < len(argv):
            config = argv[i + 1]
        i += 1 + (argv[i] in _PC_VALUE)
    sub = argv[i] if i < len(argv) else "run"  # `pre-commit` alone is `pre-commit run`
    if sub == "install":  # a `git commit` later on the line runs the hooks
        ctx.env.state.pre_commit = True
        return
    if sub not in ("run", "hook-impl", "try-repo"):
        return
    hooks: list[str] = []
    k = i + 1
    while k < len(argv):
        a = argv[k]
        k += 1
        if a in ("-c", "--config") and k < len(argv):
            config = argv[k]
        if a == "--files":
            while k < len(argv) and not argv[k].startswith("-"):
                k += 1
        elif a in _PC_VALUE:
            k += 1
        elif a.startswith("--config="):
            config = a.partition("=")[2]
        elif not a.startswith("-") and sub == "run":
            hooks.append(a)
    names = (config,) if config else _PC_CONFIGS
    if sub == "try-repo":  # the hooks of a repository on disk: its .pre-commit-hooks.yaml
        repo = next((a for a in argv[i + 1 :] if not a.startswith("-")), ".")
        names = (os.path.join(repo, ".pre-commit-hooks.yaml"),)
        hooks = [a for a in argv[i + 1 :] if not a.startswith("-")][1:2]
    hit = runtext.written_first(ctx, None, names, out, walker)
    if hit is not None:
        if hit[0] is None:
            return
        text, shown = hit[0], hit[1]
    else:
        if ctx.files is None:
            return
        found = runtext.find_up(ctx, runtext.here(ctx, None), names)
        if found is None or found[1] == scripts.TOO_BIG:
            return
        text, shown = found[1], scripts.display(found[0], ctx.files.cwd)
    if sub == "try-repo":
        text = "repo: local\n" + text
    for line, command in local_hooks(text, hooks):
        runtext.project(command, shown, ctx, out, walker, line, "pre-commit hook")


def local_hooks(text: str, selected: list[str]) -> list[tuple[int, str]]:
    """``(line, command)`` of each ``repo: local`` hook (those ``selected``, or all)."""
    from dcg.extract import _yaml

    found = _yaml.find(text, ("repo", "id", "alias", "entry", "language", "args"))
    hooks: list[dict[str, object]] = []
    repo = ""
    for key, item in found:
        if key == "repo":
            repo = item.text.strip()
            continue
        if repo != "local":
            continue
        if key == "id" or not hooks:
            hooks.append({"args": []})
        hook = hooks[-1]
        if key == "args":
            args = hook["args"]
            assert isinstance(args, list)
            args.append(item.text)
        else:
            hook[key] = item.text.strip()
            if key == "entry":
                hook["line"] = item.line
    import shlex

    plan: list[tuple[int, str]] = []
    for hook in hooks:
        entry = hook.get("entry")
        if not isinstance(entry, str) or hook.get("language") in _PC_NOT_COMMANDS:
            continue
        if selected and hook.get("id") not in selected and hook.get("alias") not in selected:
            continue
        if hook.get("language") in ("script", "unsupported_script") and not entry.startswith("/"):
            entry = "./" + entry
        args = hook["args"]
        assert isinstance(args, list)
        command = " ".join([entry, *(shlex.quote(str(a)) for a in args)])
        line = hook.get("line", 1)
        plan.append((line if isinstance(line, int) else 1, command))
    return plan


_INCLUDES = ("include ", "-include ", "sinclude ", "include\t", "-include\t", "sinclude\t")


def make_includes(
    text: str, base: str | None, ctx: Ctx, out: list[Command], walker: Walker, depth: int = 0
) -> str:
    """``text`` with the makefiles it ``include``s appended (make reads them in place;
    appended, the first target stays the default goal)."""
    if depth > 8 or "include" not in text:
        return text
    extra: list[str] = []
    for line in text.splitlines():
        if not line.startswith(_INCLUDES):
            continue
        words = line.split()[1:]
        if line.split(None, 1)[-1].startswith("$(wildcard ") and line.rstrip().endswith(")"):
            words = line.split(None, 1)[-1][len("$(wildcard ") : -1].split()  # its globs
        for name in words:
            if "$" in name or name.startswith("#"):
                break
            for path in _matching(name, base, ctx):
                got = runtext.load(path, ctx, out, walker)
                if got is not None:
                    extra.append(make_includes(got[0], base, ctx, out, walker, depth + 1))
    return text + "".join("\n" + e for e in extra)


def _matching(name: str, base: str | None, ctx: Ctx) -> list[str]:
    """The files an include word names: itself, or what its glob matches (line and disk)."""
    path = os.path.join(base, name) if base and not name.startswith("/") else name
    from dcg.shell.expand import has_glob, match

    if not has_glob(name) or has_glob(os.path.dirname(name)):
        return [path]
    folder, pattern = os.path.dirname(name), os.path.basename(name)  # include mk/*.mk
    inside = (folder + "/") if folder else ""
    found = [
        p[len(inside) :]
        for p in runtext.written_paths(ctx)
        if p.startswith(inside) and "/" not in p[len(inside) :] and match(pattern, p[len(inside) :])
    ]
    if ctx.files is not None:
        where = runtext.here(ctx, os.path.join(base, folder) if base else folder or None)
        try:
            listed = os.listdir(where) if where else []
        except OSError:
            listed = []
        found += [n for n in listed[:2000] if match(pattern, n)]
    names = [inside + n for n in sorted(set(found))]
    return [os.path.join(base, n) if base else n for n in names]


def makefiles_env(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> str:
    """The text of the makefiles ``$MAKEFILES`` names (read before the others)."""
    value = runtext.setting(work, ctx, "MAKEFILES")
    if value is None:
        if "MAKEFILES" in work.assigns:
            walker.emit("MAKEFILES is computed at run time: the makefiles make reads are unknown",
                        ctx, out)  # fmt: skip
        return ""
    texts: list[str] = []
    for name in value.split():
        got = runtext.load(name, ctx, out, walker)
        if got is not None:
            texts.append(got[0])
    return "".join("\n" + t for t in texts)


# The hooks each git command runs, for the pre-commit framework's installed hook scripts.
_GIT_HOOKS = {"commit": ("pre-commit", "prepare-commit-msg", "commit-msg", "post-commit"),
              "merge": ("pre-merge-commit", "post-merge"), "push": ("pre-push",),
              "checkout": ("post-checkout",), "switch": ("post-checkout",),
              "rebase": ("pre-rebase",)}  # fmt: skip
_GIT_VALUE = frozenset(("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env"))


def git_hooks(argv: list[str], ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """``git commit`` in a repository where ``pre-commit install`` put its hook script:
    the configuration's local hooks run (not with ``--no-verify``)."""
    i = 1
    directory: str | None = None
    while i < len(argv) and argv[i].startswith("-"):
        if argv[i] == "-C" and i + 1 < len(argv):
            directory = argv[i + 1]
        i += 1 + (argv[i] in _GIT_VALUE)
    sub = argv[i] if i < len(argv) else ""
    hooks = _GIT_HOOKS.get(sub)
    if hooks is None or ctx.files is None:
        return
    rest = argv[i + 1 :]
    if "--no-verify" in rest or (sub == "commit" and "-n" in rest):
        hooks = tuple(h for h in hooks if h not in ("pre-commit", "commit-msg", "pre-push",
                                                   "pre-merge-commit"))  # fmt: skip
    if ctx.env.state.pre_commit and "pre-commit" in hooks:
        via = ctx.child((*ctx.via, f"git {sub} (pre-commit installed on this line)"))
        precommit(["pre-commit", "run"], via, out, walker)
        return
    here = runtext.here(ctx, directory)
    for _ in range(32):
        if here is None:
            return
        if os.path.isdir(os.path.join(here, ".git")):
            break
        parent = os.path.dirname(here)
        here = None if parent == here else parent
    if here is None:
        return
    for name in hooks:
        path = os.path.join(here, ".git", "hooks", name)
        if not os.path.isfile(path):
            continue
        text = scripts.read(ctx.files, path) or ""
        if "pre-commit" in text and ("hook-impl" in text or "pre_commit" in text):
            config = os.path.join(here, ".pre-commit-config.yaml")
            via = ctx.child((*ctx.via, f"git {sub} (.git/hooks/{name}: pre-commit)"))
            precommit(["pre-commit", "-c", config, "run"], via, out, walker)
            return


def makeflags(work: Work, ctx: Ctx, overrides: dict[str, str]) -> None:
    """Variables ``MAKEFLAGS``/``MFLAGS`` pass make as if on its command line."""
    for var in ("MFLAGS", "MAKEFLAGS"):
        value = runtext.setting(work, ctx, var)
        if not value or "=" not in value:
            continue
        import shlex

        try:
            words = shlex.split(value or "")
        except ValueError:
            words = []
        for w in words:
            name, eq, v = w.partition("=")
            if eq and name.lstrip(".").replace("_", "a").isalnum():
                overrides.setdefault(name, v)
