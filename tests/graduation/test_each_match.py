"""Every simple command of a line judged on its own, through the installed hook (issue 29.1).

An allowlist entry (a rule, a pack wildcard, an exact ``--command``) excuses the match it
names and nothing else: whatever else the line runs, by any separator or nesting, is
counted, judged and recorded as if the entry did not exist.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hooklines import hook, recorded, records

from dcg import paths
from dcg.state import allowlist

ALLOWED = "git reset --hard"
ENTRIES = {
    "rule": {"rule": "core.git:reset-hard"},
    "pack": {"rule": "core.git:*"},
    "command": {"command": "git reset --hard"},
}
# How the allowlisted command and another one share a line.
SEPARATORS = {
    "and": lambda a, b: f"{a} && {b}",
    "semicolon": lambda a, b: f"{a}; {b}",
    "or": lambda a, b: f"{a} || {b}",
    "pipe": lambda a, b: f"{a} | {b}",
    "background": lambda a, b: f"{a} & {b}",
    "newline": lambda a, b: f"{a}\n{b}",
    "crlf": lambda a, b: f"{a}\r\n{b}",
    "command-substitution": lambda a, b: f"{a}; echo $({b})",
    "backticks": lambda a, b: f"{a}; echo `{b}`",
    "process-substitution": lambda a, b: f"{a}; cat <({b})",
    "subshell": lambda a, b: f"({a}; {b})",
    "brace-group": lambda a, b: f"{{ {a}; {b}; }}",
    "bash-c": lambda a, b: f"bash -c '{a}; {b}'",
    "sh-c-nested": lambda a, b: f"sh -c \"bash -c '{a} && {b}'\"",
    "heredoc-bash": lambda a, b: f"bash <<'EOF'\n{a}\n{b}\nEOF",
    "if-then": lambda a, b: f"if {a}; then {b}; fi",
    "for-loop": lambda a, b: f"for i in 1; do {a}; {b}; done",
}
# The other command, and the rule it must be judged by.
OTHERS = {
    "rm": ("rm -rf src", "core.filesystem:rm-rf"),
    # A rule whose damage the safety net can keep: it warns the first time (a forced push
    # cannot be kept, so it would be a soft block from its first occurrence).
    "branch": ("git branch -D feature", "core.git:branch-force-delete"),
    "clean": ("git clean -fdx", "core.git:clean-force"),
}


def _cases() -> list[object]:
    out = []
    for form in ENTRIES:
        for sep in SEPARATORS:
            for other, (command, rule) in OTHERS.items():
                if form == "pack" and rule.startswith("core.git:"):
                    continue  # the pack entry names that rule too
                out.append(pytest.param(form, sep, command, rule, id=f"{form}-{sep}-{other}"))
    return out


@pytest.mark.parametrize(("form", "sep", "other", "rule"), _cases())
def test_allowlist_entry_excuses_only_its_own_simple_command(
    form: str, sep: str, other: str, rule: str
) -> None:
    allowlist.add(paths.allowlist_file(), dict(ENTRIES[form]))
    line = SEPARATORS[sep](ALLOWED, other)
    said, specific, _ = hook(line)
    # First occurrence in standard mode: a warning, led by the other command's rule.
    assert said == "warn", (line, said)
    assert specific.get("ruleId") == rule
    assert (rule, "warning", None) in recorded()
    assert ("core.git:reset-hard", "allow", "allowlist") in recorded()
    assert not any(r == "core.git:reset-hard" and via is None for r, _, via in recorded())


@pytest.mark.parametrize("sep", list(SEPARATORS))
def test_other_command_still_graduates_to_a_block(sep: str) -> None:
    """Repeated, the other command is soft- then hard-blocked as it would be alone."""
    allowlist.add(paths.allowlist_file(), {"command": ALLOWED})
    line = SEPARATORS[sep](ALLOWED, "rm -rf src")
    levels = [hook(line)[1].get("responseLevel") for _ in range(5)]
    assert levels == ["warning", "warning", "soft_block", "soft_block", "hard_block"]


@pytest.mark.parametrize("form", list(ENTRIES))
@pytest.mark.parametrize("mode", ["paranoid", "strict", "standard", "lenient"])
def test_allowlisted_command_alone_passes_silently(form: str, mode: str) -> None:
    allowlist.add(paths.allowlist_file(), dict(ENTRIES[form]))
    said, _, _ = hook(ALLOWED, args=("--mode", mode))
    assert said == "none"
    assert recorded() == [("core.git:reset-hard", "allow", "allowlist")]


@pytest.mark.parametrize("agent", ["claude", "codex", "gemini", "copilot", "cursor", "opencode"])
def test_every_agent_judges_the_rest_of_the_line(agent: str) -> None:
    allowlist.add(paths.allowlist_file(), {"rule": "core.git:*"})
    said, _, _ = hook("git reset --hard && rm -rf src", agent=agent, args=("--mode", "paranoid"))
    assert said == "deny"


def test_two_judged_rules_both_counted_and_recorded() -> None:
    line = "git reset --hard && rm -rf src"
    hook(line)
    assert recorded() == [
        ("core.git:reset-hard", "warning", None),
        ("core.filesystem:rm-rf", "warning", None),
    ]
    # Each rule graduates on its own count: the second line of another rule starts at 1.
    said, specific, _ = hook("git branch -D feature")
    assert (said, specific.get("sessionOccurrence")) == ("warn", 1)


def test_same_rule_twice_on_a_line_is_one_occurrence() -> None:
    hook("rm -rf src; rm -rf lib")
    assert recorded() == [("core.filesystem:rm-rf", "warning", None)]


def test_blocked_line_names_its_other_matches() -> None:
    _, specific, person = hook("git reset --hard && rm -rf ~", args=("--mode", "standard"))
    assert specific.get("responseLevel") == "hard_block"
    assert specific.get("ruleId") == "core.filesystem:rm-rf-critical"
    reason = str(specific.get("permissionDecisionReason"))
    assert "also matches:" in reason and "core.git:reset-hard (severity high, warning)" in reason
    assert "Also on this line:" in person and "core.git:reset-hard (high): warning" in person
    # The warning-level match did not run: its record says so.
    flags = {(r["rule_id"], r["response_level"], r["allowed"]) for r in records()}
    assert ("core.git:reset-hard", "warning", False) in flags
    assert ("core.filesystem:rm-rf-critical", "hard_block", False) in flags


@pytest.mark.parametrize(
    ("entry", "line", "passes"),
    [
        pytest.param("git reset --hard", "git reset --hard", True, id="same"),
        pytest.param("git reset --hard", "git  reset   --hard", True, id="spacing"),
        pytest.param("git reset --hard", "git reset '--hard'", True, id="quoting"),
        pytest.param("git reset --hard", "bash -c 'git reset --hard'", True, id="bash-c"),
        pytest.param("git reset --hard", "git reset --hard HEAD~3", False, id="longer"),
        pytest.param("git reset --hard", "git reset --hard origin/main", False, id="prefix"),
        pytest.param("git reset --hard", "sudo git reset --hard", False, id="sudo"),
        pytest.param("git reset --hard", "ssh prod git reset --hard", False, id="ssh"),
        pytest.param("git reset --hard", "env GIT_DIR=/x git reset --hard", False, id="env"),
        pytest.param("git reset --hard", "git reset --hard > out.txt", False, id="redirect"),
        pytest.param("rm -rf 'my dir'", "rm -rf my dir", False, id="split-argument"),
        pytest.param("rm -rf my dir", "rm -rf 'my dir'", False, id="joined-argument"),
        pytest.param("rm -rf src", "echo src | xargs rm -rf", False, id="xargs"),
        pytest.param("psql", "psql <<< 'DROP DATABASE prod'", False, id="stdin"),
    ],
)
def test_command_entry_is_exactly_one_simple_command(entry: str, line: str, passes: bool) -> None:
    allowlist.add(paths.allowlist_file(), {"command": entry})
    said, _, _ = hook(line)
    assert (said == "none") is passes, (entry, line, said)


def test_command_entry_does_not_excuse_a_write_to_dcg_state() -> None:
    """Per match: an entry for a command never excuses what the same words write."""
    allowlist.add(paths.allowlist_file(), {"command": "git reset --hard"})
    said, specific, _ = hook("git reset --hard > ~/.config/dcg/allowlist.toml")
    assert said == "deny" and specific.get("ruleId") == "core.dcg:write-state"


@pytest.mark.parametrize(
    "rule",
    [
        pytest.param("core.git", id="no-colon"),
        pytest.param("core.gi:*", id="shorter-pack"),
        pytest.param("core:*", id="category"),
        pytest.param(":*", id="empty-pack"),
        pytest.param("*", id="star"),
        pytest.param("core.git:reset", id="rule-prefix"),
        pytest.param("core.git:reset-hard-x", id="longer-rule"),
    ],
)
def test_rule_entries_match_no_prefix_or_glob(rule: str) -> None:
    path = Path(paths.allowlist_file())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'[[allow]]\nrule = "{rule}"\n')
    said, _, _ = hook("git reset --hard", args=("--mode", "paranoid"))
    assert said == "deny"
