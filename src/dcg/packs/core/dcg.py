"""dcg protecting itself: an agent may not approve its own blocks or switch dcg off."""

from dcg.model import Pack, Rule

# dcg's own state and configuration, and the hook settings of every supported agent.
_PROTECTED = (
    r"(?:\.(?:config|cache)/dcg(?:/|$| )|XDG_(?:CONFIG|CACHE)_HOME}?/dcg(?:/|$| )|/etc/dcg(?:/|$| )"
    r"|dcg-sessions"
    r"|(?:^|/| )(?:history|allow_once|pending_confirmations)\.jsonl|/allowlist\.toml"
    r"|\.claude/settings(?:\.local)?\.json|\.codex/(?:hooks\.json|config\.toml)"
    r"|\.gemini/settings\.json|\.cursor/hooks\.json|(?:\.codeium/windsurf|\.windsurf)/hooks\.json"
    r"|\.github/hooks/|\.copilot/hooks/|opencode/plugins?/dcg)"
)
# Programs that change, move or delete every file they are given…
_WRITERS = (
    r"(?:rm|mv|tee|truncate|shred|unlink|chmod|chown|chattr|touch|rmdir"
    r"|sed -i|sed --in-place|perl -p?i)"
)
# …and programs that only write their last operand.
_COPIERS = r"(?:cp|install|rsync|ln)"

PACK = Pack(
    "core.dcg",
    description="dcg itself: approval commands and writes to dcg's or the agents' hook settings",
    rules=(
        Rule(
            "self-approve",
            severity="critical",
            pattern=(
                r"^(?:dcg|python[0-9.]* -m dcg)"
                r" (?:confirm|allow-once|allowlist add|session clear|config migrate|uninstall"
                r"|install)(?: |$)"
            ),
            keywords=("dcg",),
            reason="only a human may approve a blocked command or change dcg's protection",
            explanation=(
                "dcg confirm, allow-once, allowlist add, session clear, config migrate, install "
                "and uninstall change what dcg lets through. Run through the agent they would "
                "let the agent approve its own blocked commands."
            ),
            alternative="ask the user to run the dcg command in their own terminal",
            blocks=(
                "dcg confirm 7f3a",
                "dcg allow-once 9b2e",
                "dcg allowlist add core.git:reset-hard --user",
                "dcg session clear",
                "python3 -m dcg confirm ab12",
                "dcg uninstall --all",
                "~/.local/bin/dcg allow-once 1234 --single-use",
            ),
            allows=(
                "dcg test 'git status'",
                "dcg explain 'rm -rf x'",
                "dcg history",
                "dcg session",
            ),
        ),
        Rule(
            "write-state",
            severity="critical",
            pattern=(
                rf"(?:^{_WRITERS}\b.*{_PROTECTED}|^{_COPIERS}\b.* [^ ]*{_PROTECTED}[^ ]*$"
                rf"|^dd\b.* of=[^ ]*{_PROTECTED}| >[^ ]*{_PROTECTED})"
            ),
            reason="writing, moving or deleting dcg's configuration, state or hook settings",
            explanation=(
                "These files decide what dcg blocks and hold its approvals and history; the "
                "agents' settings files register dcg as a hook. Changing them from the agent "
                "could switch protection off or forge an approval."
            ),
            alternative="ask the user to edit the file themselves",
            blocks=(
                "rm ~/.config/dcg/history.jsonl",
                "echo '[response]' >> ~/.config/dcg/config.toml",
                "mv ~/.claude/settings.json /tmp/",
                "sed -i 's/dcg//' .claude/settings.json",
                "rm -rf /tmp/dcg-sessions-1000",
                "cat /dev/null > ~/.codex/hooks.json",
                "tee ~/.config/dcg/allowlist.toml",
                "rm -rf ~/.cache/dcg",
            ),
            allows=(
                "cat ~/.claude/settings.json",
                "cat ~/.config/dcg/config.toml",
                "cp ~/.config/dcg/config.toml /tmp/backup.toml",
                "grep dcg ~/.claude/settings.json",
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
