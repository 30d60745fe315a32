"""Git's own spellings: ``git-<cmd>`` binaries, unique long-option prefixes, ``-c`` safety.

Git accepts any unique prefix of a long option (``--har`` is ``--hard``), runs
``git-reset`` (also ``/usr/lib/git-core/git-reset``) as ``git reset``, and lets
``-c clean.requireForce=false`` make ``git clean`` delete without ``-f``. Rules match
the spelling git itself would act on, so argv is rewritten to it here.
"""

# Long options (without ``--``) of the subcommands the git rules look at. A prefix is
# expanded only when it is unique in its subcommand's list, as git's parse-options does;
# an ambiguous prefix is an error in git, so leaving it alone is harmless.
_LONG: dict[str, tuple[str, ...]] = {
    "reset": ("hard", "soft", "mixed", "merge", "keep", "quiet", "no-quiet", "patch",
              "intent-to-add", "pathspec-from-file", "pathspec-file-nul", "recurse-submodules",
              "no-recurse-submodules", "refresh", "no-refresh"),
    "clean": ("force", "dry-run", "quiet", "interactive", "exclude"),
    "checkout": ("force", "quiet", "progress", "no-progress", "ours", "theirs", "track",
                 "no-track", "guess", "no-guess", "detach", "orphan", "merge", "conflict",
                 "patch", "ignore-skip-worktree-bits", "ignore-other-worktrees",
                 "overwrite-ignore", "no-overwrite-ignore", "recurse-submodules",
                 "no-recurse-submodules", "overlay", "no-overlay", "pathspec-from-file",
                 "pathspec-file-nul"),
    "switch": ("create", "force-create", "detach", "guess", "no-guess", "discard-changes",
               "force", "merge", "conflict", "quiet", "progress", "no-progress", "track",
               "no-track", "orphan", "ignore-other-worktrees", "recurse-submodules",
               "no-recurse-submodules"),
    "restore": ("source", "patch", "worktree", "staged", "quiet", "progress", "no-progress",
                "ours", "theirs", "merge", "conflict", "ignore-unmerged",
                "ignore-skip-worktree-bits",
                "recurse-submodules", "no-recurse-submodules", "overlay", "no-overlay",
                "pathspec-from-file", "pathspec-file-nul"),
    "push": ("all", "branches", "mirror", "delete", "tags", "dry-run", "porcelain", "force",
             "force-with-lease", "no-force-with-lease", "force-if-includes",
             "no-force-if-includes", "recurse-submodules", "atomic", "no-atomic", "push-option",
             "receive-pack", "exec", "set-upstream", "thin", "no-thin", "quiet", "verbose",
             "progress", "prune", "no-verify", "verify", "follow-tags", "no-follow-tags",
             "signed", "no-signed", "ipv4", "ipv6", "repo"),
    "branch": ("delete", "force", "move", "copy", "list", "all", "remotes", "verbose", "quiet",
               "track", "no-track", "set-upstream-to", "unset-upstream", "contains",
               "no-contains", "merged", "no-merged", "column", "no-column", "sort", "points-at",
               "format", "color", "no-color", "abbrev", "no-abbrev", "show-current",
               "edit-description", "create-reflog", "ignore-case", "omit-empty",
               "recurse-submodules"),
    "worktree": ("force", "lock", "reason", "porcelain", "verbose", "expire", "dry-run"),
    "submodule": ("force", "all", "quiet", "init", "remote", "recursive", "checkout", "rebase",
                  "merge", "no-fetch", "depth", "reference", "jobs"),
    "stash": ("quiet", "index", "keep-index", "no-keep-index", "include-untracked",
              "no-include-untracked", "all", "patch", "staged", "message", "pathspec-from-file",
              "pathspec-file-nul"),
    "rm": ("force", "cached", "dry-run", "quiet", "ignore-unmatch", "sparse",
           "pathspec-from-file", "pathspec-file-nul"),
    "gc": ("aggressive", "auto", "no-auto", "prune", "no-prune", "quiet", "force",
           "keep-largest-pack", "cruft", "no-cruft", "detach", "no-detach", "max-cruft-size"),
    "reflog": ("expire", "expire-unreachable", "all", "rewrite", "updateref", "stale-fix",
               "dry-run", "verbose", "single-worktree"),
    "read-tree": ("reset", "index-output", "prefix", "trivial", "aggressive", "dry-run",
                  "exclude-per-directory", "no-sparse-checkout", "empty", "quiet",
                  "recurse-submodules"),
    "update-ref": ("no-deref", "create-reflog", "stdin"),
    "prune": ("dry-run", "verbose", "progress", "expire"),
    # The sequencer commands: enough of each list that --ab/--sk expand as git expands them.
    "merge": ("abort", "continue", "quit", "commit", "no-commit", "edit", "no-edit", "ff",
              "no-ff", "ff-only", "log", "no-log", "signoff", "no-signoff", "stat", "no-stat",
              "squash", "no-squash", "strategy", "strategy-option", "verify", "no-verify",
              "verify-signatures", "no-verify-signatures", "summary", "no-summary", "quiet",
              "verbose", "progress", "no-progress", "autostash", "no-autostash",
              "allow-unrelated-histories", "rerere-autoupdate", "no-rerere-autoupdate",
              "gpg-sign", "no-gpg-sign", "message", "file", "cleanup", "into-name",
              "overwrite-ignore", "no-overwrite-ignore", "compact-summary"),
    "rebase": ("abort", "continue", "skip", "quit", "edit-todo", "show-current-patch", "onto",
               "keep-base", "apply", "merge", "strategy", "strategy-option", "exec",
               "interactive", "rebase-merges", "no-rebase-merges", "root", "autosquash",
               "no-autosquash", "autostash", "no-autostash", "fork-point", "no-fork-point",
               "ignore-whitespace", "ignore-date", "committer-date-is-author-date",
               "reset-author-date", "signoff", "gpg-sign", "no-gpg-sign", "quiet",
               "verbose", "stat", "no-stat", "no-verify", "verify", "no-ff", "force-rebase",
               "empty", "keep-empty", "no-keep-empty", "reapply-cherry-picks",
               "no-reapply-cherry-picks", "allow-empty-message", "reschedule-failed-exec",
               "no-reschedule-failed-exec", "update-refs", "no-update-refs", "whitespace",
               "context", "rerere-autoupdate", "no-rerere-autoupdate"),
    "am": ("abort", "continue", "skip", "quit", "resolved", "show-current-patch",
           "allow-empty", "signoff", "keep", "keep-non-patch", "keep-cr", "no-keep-cr",
           "scissors", "no-scissors", "message-id", "no-message-id", "quiet", "utf8",
           "no-utf8", "3way", "no-3way", "rerere-autoupdate", "no-rerere-autoupdate",
           "ignore-space-change", "ignore-whitespace", "whitespace", "directory", "exclude",
           "include", "reject", "patch-format", "interactive", "committer-date-is-author-date",
           "ignore-date", "gpg-sign", "no-gpg-sign", "empty", "quoted-cr", "verify",
           "no-verify"),
    "cherry-pick": ("abort", "continue", "skip", "quit", "edit", "no-edit", "cleanup",
                    "mainline", "no-commit", "signoff", "gpg-sign", "no-gpg-sign", "ff",
                    "allow-empty", "allow-empty-message", "keep-redundant-commits", "empty",
                    "strategy", "strategy-option", "rerere-autoupdate",
                    "no-rerere-autoupdate"),
    "revert": ("abort", "continue", "skip", "quit", "edit", "no-edit", "cleanup", "mainline",
               "no-commit", "signoff", "gpg-sign", "no-gpg-sign", "strategy",
               "strategy-option", "rerere-autoupdate", "no-rerere-autoupdate", "reference"),
}  # fmt: skip

# Git commands that exist as ``git-<name>`` programs (the builtins and common scripts).
COMMANDS = frozenset((
    "add", "am", "annotate", "apply", "archive", "bisect", "blame", "branch", "bundle",
    "cat-file", "check-ignore", "checkout", "checkout-index", "cherry", "cherry-pick", "clean",
    "clone", "commit", "commit-tree", "config", "count-objects", "describe", "diff",
    "diff-files", "diff-index", "diff-tree", "fetch", "filter-branch", "filter-repo",
    "for-each-ref", "format-patch", "fsck", "gc", "grep", "hash-object", "help", "init", "log",
    "ls-files", "ls-remote", "ls-tree", "merge", "merge-base", "mv", "notes", "prune",
    "prune-packed", "pull", "push", "range-diff", "read-tree", "rebase", "reflog", "remote",
    "repack", "replace", "reset", "restore", "rev-list", "rev-parse", "revert", "rm",
    "shortlog", "show", "show-ref", "sparse-checkout", "stash", "status", "submodule",
    "switch", "symbolic-ref", "tag", "update-index", "update-ref", "worktree", "write-tree",
))  # fmt: skip


def split_dashed(argv: list[str], dyns: list[bool]) -> tuple[list[str], list[bool]]:
    """``git-reset …`` (argv[0] already normalised) reads ``git reset …``."""
    sub = argv[0][4:]
    if argv[0].startswith("git-") and sub in COMMANDS:
        return ["git", sub, *argv[1:]], [False, *dyns]
    return argv, dyns


def expand_prefixes(argv: list[str]) -> list[str]:
    """Long options of ``git SUB …`` spelled in full, as git's unique-prefix rule reads them."""
    if len(argv) < 2:
        return argv
    sub = argv[1]
    start = 2
    if sub in ("worktree", "stash", "reflog", "submodule") and len(argv) > 2:
        start = 3
    options = _LONG.get(sub)
    if not options:
        return argv
    out = argv[:start]
    for k in range(start, len(argv)):
        word = argv[k]
        if word == "--":
            out.extend(argv[k:])
            break
        if word.startswith("--") and len(word) > 2:
            name, eq, value = word[2:].partition("=")
            if name not in options:
                found = [o for o in options if o.startswith(name)]
                if len(found) == 1:
                    word = "--" + found[0] + eq + value
        out.append(word)
    return out


def clean_without_force(argv: list[str]) -> list[str]:
    """``git clean`` under ``clean.requireForce=false`` deletes as if ``-f`` were given."""
    if len(argv) < 2 or argv[1] != "clean" or "--force" in argv:
        return argv
    return [argv[0], argv[1], "--force", *argv[2:]]


def disables_require_force(setting: str) -> bool:
    """``clean.requireForce=false`` (any case, any false spelling) from ``git -c``."""
    key, eq, value = setting.partition("=")
    return (
        key.lower() == "clean.requireforce"
        and eq == "="
        and value.lower() in ("false", "no", "off", "0", "")
    )


def split(value: str) -> list[str]:
    """An alias value split into words as git's ``split_cmdline`` does (quotes, backslash)."""
    words: list[str] = []
    buf: list[str] = []
    quote = ""
    started = False
    i = 0
    while i < len(value):
        c = value[i]
        i += 1
        if c == "\\" and quote != "'" and i < len(value):
            buf.append(value[i])
            i += 1
            started = True
        elif quote and c == quote:
            quote = ""
        elif not quote and c in "'\"":
            quote = c
            started = True
        elif not quote and c in " \t\n":
            if started:
                words.append("".join(buf))
            buf, started = [], False
        else:
            buf.append(c)
            started = True
    if started:
        words.append("".join(buf))
    return words
