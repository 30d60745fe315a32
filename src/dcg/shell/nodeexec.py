"""npm exec/npx, pnpm exec/dlx, yarn exec/dlx, bun exec: which words are the command they run."""

from __future__ import annotations

TYPE_CHECKING = False

if TYPE_CHECKING:
    from dcg.shell.unwrap import Work

# npm's options that take the next word as their value (the rest are flags: -y, --yes, -q,
# --no, -g, --ws, --workspaces, --include-workspace-root, --foreground-scripts…).
_NPM_VALUED = frozenset(("-p", "--package", "-w", "--workspace", "--registry", "--cache",
                         "--prefix", "-C", "--userconfig", "--globalconfig", "--loglevel",
                         "--script-shell", "--node-options", "--scope", "--tag", "--otp",
                         "--include", "--omit", "--before", "--shell", "--call", "-c"))  # fmt: skip
_PACKAGE = frozenset(("-p", "--package"))
# pnpm's (exec, dlx) and yarn's (dlx) valued options.
_PNPM_VALUED = frozenset(("--filter", "-F", "--resume-from", "--package", "--dir", "-C",
                          "--workspace-concurrency", "--reporter", "--loglevel",
                          "--allow-build", "-p"))  # fmt: skip


def _drop(w: Work, k: int) -> None:
    """Remove word ``k`` (npm's ``--`` ending its options), keeping the data marks aligned."""
    del w.argv[k]
    del w.dyns[k]
    w.data = {(i - 1 if i > k else i): why for i, why in w.data.items() if i != k}


def npm_exec(w: Work, sub: int) -> int:
    """``npm exec [OPTS] CMD [ARGS]`` (``npx``, ``npm x``): the first operand is the command,
    with every later word its arguments; the first ``--`` (before or after the command)
    only ends npm's options (``npm exec del-cli -- src`` runs ``del-cli src``)."""
    argv = w.argv
    k = 1 + sub
    while k < len(argv):
        a = argv[k]
        if a == "--":
            _drop(w, k)
            return k if k < len(argv) else -1
        if a[:1] == "-":
            k += 2 if a in _NPM_VALUED else 1
            continue
        package = any(b in _PACKAGE for b in argv[1 + sub : k]) or any(
            b.startswith(("--package=", "-p=")) for b in argv[1 + sub : k]
        )
        if not package and (a[:1] in (".", "@") or "/" in a or ":" in a):
            return -1  # a package by path, URL or scope: its bin is read by dcg.shell.implicit
        if "--" in argv[k + 1 :]:
            _drop(w, argv.index("--", k + 1))
        return k
    return -1


def pnpm_exec(w: Work, sub: int) -> int:
    """``pnpm exec``/``pnpm dlx``/``yarn dlx`` ``[OPTS] CMD [ARGS]``; with ``-c``
    (``--shell-mode``) the words after the options are one shell string."""
    argv = w.argv
    k, shell = 1 + sub, False
    while k < len(argv):
        a = argv[k]
        if a == "--":
            k += 1
            break
        if a[:1] != "-":
            break
        shell = shell or a in ("-c", "--shell-mode")
        k += 2 if a in _PNPM_VALUED else 1
    if k >= len(argv):
        return -1
    if shell:
        for i in range(k, len(argv)):
            w.data[i] = f"command run by {argv[0]} {argv[1]} (parsed)"
        w.payloads.append(("sh", f"{argv[0]} {argv[1]}", " ".join(argv[k:]), []))
        return -1
    return k
