"""Commands whose program is computed at run time next to destructive arguments."""

from dcg.model import Pack, Rule

PACK = Pack(
    "core.shell",
    description="Shell: unresolvable command words used with destructive arguments",
    rules=(
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
