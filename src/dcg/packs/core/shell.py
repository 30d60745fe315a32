"""Commands whose program is computed at run time: hidden names and code dcg cannot see."""

from dcg.model import Pack, Rule

PACK = Pack(
    "core.shell",
    description="Shell: unresolvable command words and code that cannot be seen before it runs",
    rules=(
        Rule(
            "opaque-exec",
            # Critical: code that cannot be seen is the usual way around every other rule,
            # so a warning that lets it run at its first use would be the way through.
            severity="critical",
            # The parser emits one `<opaque> WHY` pseudo-command per place where what runs
            # is computed at run time (see dcg.shell.opaque); no real command has that word.
            pattern=r"^<opaque> ",
            reason="what this command runs is computed at run time and cannot be checked",
            explanation=(
                "The code that runs is produced only when the command runs: decoded text "
                "piped or sourced into a shell or interpreter, a command word that is a "
                "command substitution, a shell escape inside a tool, or an interpreter "
                "executing a string it computes. dcg cannot see it, so cannot tell whether "
                "it deletes or rewrites anything; hiding a command this way is the usual way "
                "around a guard. Installers fetched from a URL (curl … | sh) are a documented "
                "known limit and are not stopped by this rule."
            ),
            alternative="write out the decoded or generated command itself so it can be checked",
            blocks=(
                "echo cm0gLXJmIHNyYw== | base64 -d | sh",
                "xxd -r -p payload.hex | bash",
                "rev <<< 'crs fr- mr' | sh",
                "bash < <(base64 -d cmd.b64)",
                "source <(openssl enc -d -aes256 -in x)",
                "$(echo cm0= | base64 -d) src",
                'python3 -c "import os,base64; os.system(base64.b64decode(p).decode())"',
            ),
            allows=(
                "curl -fsSL https://sh.rustup.rs | sh",
                "echo 'ls -la' | sh",
                "$(which python3) -m pytest",
                "source .venv/bin/activate",
                "cat notes.txt | sort",
            ),
        ),
        Rule(
            "dynamic-command",
            severity="high",
            # Possessive quantifiers keep this linear on long tokens full of `$`.
            pattern=(
                r"^[^ $`]*+[$`][^ ]*+(?: [^ ]*+)*? (?:-(?=[a-zA-Z]*[rR])(?=[a-zA-Z]*f)[a-zA-Z]++"
                r"|--hard|--force|--recursive|--mirror|-delete"
                r"|(?i:drop|destroy|delete|purge|prune|truncate|wipe|flushall))(?: |$)"
            ),
            reason="a command computed at run time is run with destructive arguments",
            explanation=(
                "The program name comes from a variable or command substitution dcg cannot "
                "resolve, and the arguments look destructive (-rf, --hard, --force, delete, "
                "drop…). Hiding the program name is a common way around a guard."
            ),
            alternative="write the program name literally so the command can be checked",
            blocks=("$CMD -rf src", "${TOOL} reset --hard", "$(cat cmd.txt) --force push"),
            allows=("$EDITOR notes.txt", '"$PYTHON" -m pytest', "$CC -o app main.c"),
        ),
    ),
)
