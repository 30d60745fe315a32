"""``dcg completions bash|zsh|fish``: shell completion scripts made from the parser's words.

``spec`` maps a subcommand path (``""`` for the top level, ``"allowlist add"`` for a
nested one) to the words it accepts: its subcommands, ``--options`` and fixed choices.
cli.py builds it from the argparse parser, so a new option completes without an edit here.
"""

from __future__ import annotations

from dcg.errors import DcgError


def script(shell: str, spec: dict[str, list[str]]) -> str:
    if shell == "bash":
        return bash(spec)
    if shell == "zsh":
        return zsh(spec)
    if shell == "fish":
        return fish(spec)
    raise DcgError(f"no completions for {shell!r} (bash, zsh, fish)")


def _case_arms(spec: dict[str, list[str]]) -> str:
    arms = []
    for key in sorted(spec, key=lambda k: (-k.count(" "), k)):
        words = " ".join(spec[key])
        arms.append(f'        "{key}") words="{words}" ;;')
    return "\n".join(arms)


def bash(spec: dict[str, list[str]]) -> str:
    # The deepest known subcommand path among the words typed so far picks the word list.
    return f"""# dcg completion for bash: eval "$(dcg completions bash)" in ~/.bashrc
_dcg() {{
    local cur path="" i w words
    cur="${{COMP_WORDS[COMP_CWORD]}}"
    for ((i = 1; i < COMP_CWORD; i++)); do
        w="${{COMP_WORDS[i]}}"
        case "$w" in -*) continue ;; esac
        if _dcg_known "${{path:+$path }}$w"; then path="${{path:+$path }}$w"; fi
    done
    case "$path" in
{_case_arms(spec)}
        *) words="" ;;
    esac
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
}}
_dcg_known() {{
    case "$1" in
{_known_arms(spec)}
        *) return 1 ;;
    esac
}}
complete -o default -F _dcg dcg
"""


def _known_arms(spec: dict[str, list[str]]) -> str:
    keys = [k for k in spec if k]
    return "\n".join(f'        "{k}") return 0 ;;' for k in sorted(keys))


def zsh(spec: dict[str, list[str]]) -> str:
    return (
        "#compdef dcg\n"
        '# dcg completion for zsh: eval "$(dcg completions zsh)" in ~/.zshrc\n'
        "autoload -U +X bashcompinit && bashcompinit\n" + bash(spec).split("\n", 1)[1]
    )


def fish(spec: dict[str, list[str]]) -> str:
    lines = [
        "# dcg completion for fish: dcg completions fish > ~/.config/fish/completions/dcg.fish"
    ]
    for word in spec[""]:
        if word.startswith("--"):
            lines.append(f"complete -c dcg -n __fish_use_subcommand -l {word[2:]}")
        else:
            lines.append(f"complete -c dcg -f -n __fish_use_subcommand -a {word}")
    for key, words in sorted(spec.items()):
        if not key:
            continue
        parts = key.split(" ")
        cond = f"__fish_seen_subcommand_from {parts[-1]}"
        if len(parts) > 1:
            cond = f"__fish_seen_subcommand_from {parts[0]}; and {cond}"
        else:
            # Not once a nested subcommand of it was typed (that one's words apply).
            nested = [w for w in words if f"{key} {w}" in spec]
            if nested:
                cond += f"; and not __fish_seen_subcommand_from {' '.join(nested)}"
        for word in words:
            if word.startswith("--"):
                lines.append(f"complete -c dcg -n '{cond}' -l {word[2:]}")
            else:
                lines.append(f"complete -c dcg -f -n '{cond}' -a {word}")
    return "\n".join(lines) + "\n"
