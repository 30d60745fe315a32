"""dcg protecting itself: an agent may not approve its own blocks or switch dcg off."""

from dcg.model import Pack, Rule
from dcg.safety.guard import touches_snapshots
from dcg.selfguard import is_disable, is_hooks_write, is_invocation, is_state_write

# Every rule is judged by dcg.selfguard on the parsed command (argv, redirections, the
# directory `cd` moved to); the pattern only anchors it to a command with a word.
_ANY = r"^."

PACK = Pack(
    "core.dcg",
    description="dcg itself: approval commands, its state and program, the agents' hook settings",
    rules=(
        Rule(
            "self-approve",
            severity="critical",
            pattern=_ANY,
            check=is_invocation,
            reason="only a human may approve a blocked command or change dcg's protection",
            explanation=(
                "dcg confirm, allow-once, allowlist, session clear, config, install and "
                "uninstall change what dcg lets through, however dcg is started (a path to "
                "its binary, python -m dcg, script -c, su -c, sudo, an interpreter). Run "
                "through the agent they would let it approve its own blocked commands."
            ),
            alternative="ask the user to run the dcg command in their own terminal",
            blocks=(
                "dcg confirm 7f3a",
                "dcg allow-once 9b2e",
                "dcg allowlist add core.git:reset-hard --user",
                "dcg session clear",
                "python3 -m dcg confirm ab12",
                "python3 -m dcg.__main__ confirm ab12",
                "python -mdcg uninstall",
                "dcg uninstall --all",
                "~/.local/bin/dcg allow-once 1234 --single-use",
                "script -qc 'dcg confirm 7f3a' /dev/null",
                "su -c 'dcg allowlist add core.git:*' $USER",
                "sudo -u me env DCG_X=1 dcg config migrate",
                "bash -c 'cd /tmp && dcg confirm 1'",
                'python3 -c \'import subprocess; subprocess.run(["dcg", "confirm", "1"])\'',
            ),
            allows=(
                "dcg test 'git status'",
                "dcg explain 'rm -rf x'",
                "dcg history",
                "dcg session",
                "dcg allowlist list",
                "dcg doctor",
                "python3 -m dcg explain 'git push'",
            ),
        ),
        Rule(
            "disable",
            severity="critical",
            pattern=_ANY,
            check=is_disable,
            reason="removing, replacing or disabling dcg's program",
            explanation=(
                "Uninstalling the dcg package, or deleting, moving, chmod-ing or overwriting "
                "its executable or package directory, switches the guard off for every "
                "later command; stopping the audit shipper's timer stops the organisation's "
                "audit trail."
            ),
            alternative="ask the user to uninstall or upgrade dcg themselves",
            blocks=(
                "pip uninstall -y dcg",
                "python3 -m pip uninstall dcg",
                "pipx uninstall dcg",
                "uv tool uninstall dcg",
                "uv pip uninstall dcg",
                "chmod -x ~/.local/bin/dcg",
                "rm -f /usr/local/bin/dcg",
                "cp /bin/true ~/.local/bin/dcg",
                "mv ~/.local/bin/dcg ~/.local/bin/dcg.off",
                "systemctl --user disable --now dcg-audit-ship.timer",
                "launchctl bootout gui/501/dev.dcg.audit-ship",
            ),
            allows=(
                "pip install requests",
                "pip uninstall -y requests",
                "which dcg",
                "systemctl --user status dcg-audit-ship.timer",
            ),
        ),
        Rule(
            "write-state",
            severity="critical",
            pattern=_ANY,
            check=is_state_write,
            reason="writing, moving or deleting dcg's configuration or state",
            explanation=(
                "dcg's config, allowlists, history, pending codes, caches and session "
                "directory decide what it blocks and how often it has seen a command. "
                "Changing them from the agent could forge an approval or reset the counts."
            ),
            alternative="ask the user to change dcg's files themselves",
            blocks=(
                "rm ~/.config/dcg/history.jsonl",
                "echo '[response]' >> ~/.config/dcg/config.toml",
                "cd ~/.config/dcg && echo '[[rule]]' >> allowlist.toml",
                "rm -rf /tmp/dcg-sessions-*",
                "tee ~/.config/dcg/allowlist.toml",
                "rm -rf ~/.cache/dcg",
                "sed -E -i 's/x/y/' ~/.config//dcg/./config.toml",
                "cd ~/.config && rm -rf dcg",
                "truncate -s0 $HOME/.config/dcg/history.jsonl",
            ),
            allows=(
                "cat ~/.config/dcg/config.toml",
                "cp ~/.config/dcg/config.toml /tmp/backup.toml",
                "grep rule ~/.config/dcg/allowlist.toml",
                "jq . ~/.config/dcg/history.jsonl",
            ),
        ),
        Rule(
            "edit-hooks",
            severity="critical",
            pattern=_ANY,
            check=is_hooks_write,
            reason="writing, moving or deleting an agent's hook settings",
            explanation=(
                "The agents' settings files register dcg as their hook (Claude, Codex, "
                "Gemini, Copilot, Cursor, Windsurf, OpenCode); changing them from the agent "
                "could unregister the guard."
            ),
            alternative="ask the user to edit the settings file themselves",
            blocks=(
                "mv ~/.claude/settings.json /tmp/",
                "sed -i 's/dcg//' .claude/settings.json",
                "sed -e 's/dcg//' -i ~/.claude/settings.json",
                "cat /dev/null > ~/.codex/hooks.json",
                "cd ~/.claude && echo '{}' > settings.json",
                "mv ~/.claude ~/.claude.off",
                "rm .github/hooks/dcg.json",
                "echo '{}' > ~/.gemini//settings.json",
            ),
            allows=(
                "cat ~/.claude/settings.json",
                "grep dcg ~/.claude/settings.json",
                "jq . .cursor/hooks.json",
                "less ~/.codeium/windsurf/hooks.json",
            ),
        ),
        Rule(
            "snapshot-refs",
            severity="critical",
            pattern=_ANY,
            check=touches_snapshots,
            reason="deleting or rewriting the safety net's snapshots (refs/dcg)",
            explanation=(
                "Before dcg lets a destructive command run it keeps a copy of what it "
                "destroys; in a repository that copy is a commit under refs/dcg/, and dcg "
                "undo brings it back. Deleting or moving those refs (update-ref, a deletion "
                "fed to update-ref --stdin, the ref files or packed-refs) would lose the "
                "work the copy holds."
            ),
            alternative="leave refs/dcg alone: dcg removes snapshots after [safety_net] keep",
            blocks=(
                "git update-ref -d refs/dcg/1nh5v33mgj/tree",
                "git update-ref refs/dcg/1nh5v33mgj/tree HEAD",
                "printf 'delete refs/dcg/1nh5v33mgj/tree\\n' | git update-ref --stdin",
                "git for-each-ref --format='delete %(refname)' refs/dcg | git update-ref --stdin",
                "rm -rf .git/refs/dcg",
                "cd .git/refs && rm -rf dcg",
                "sed -i '/refs\\/dcg/d' .git/packed-refs",
                "git update-ref -d 'refs/dcg/*'",
            ),
            allows=(
                "git for-each-ref refs/dcg",
                "git show refs/dcg/1nh5v33mgj/tree",
                "git update-ref -d refs/heads/old",
                "cat .git/packed-refs",
                "git update-ref --stdin <<< 'delete refs/heads/old'",
                "dcg undo --last",
            ),
        ),
        Rule(
            "too-complex",
            severity="critical",
            # Never matched by a pattern: the engine raises it when a command line that
            # mentions an enabled pack's keyword exceeds a parsing bound.
            pattern=r"(?!)",
            reason="command too complex to analyse safely",
            explanation=(
                "The command line exceeds dcg's bounds on nesting, size, segment count or "
                "analysis time, and it mentions a tool an enabled pack guards. A line dcg "
                "cannot read is not let through."
            ),
            alternative="split the command into simpler steps",
        ),
        Rule(
            "too-large",
            severity="critical",
            # Never matched by a pattern: the hook raises it for a shell tool's payload
            # that is larger than it reads or too deeply nested to decode (decisions 10.1).
            pattern=r"(?!)",
            reason="hook input too large or too deeply nested to read",
            explanation=(
                "The payload the agent sent for a shell command is larger than dcg's input "
                "bound (1 MiB) or nested too deeply to decode, so the command in it cannot be "
                "read whole. A command dcg cannot read is not let through."
            ),
            alternative="write long content to a file with the editor tool and run a short command",
        ),
    ),
)
