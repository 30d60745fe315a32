"""Table tests of the data table: which words are data (and why), which stay code."""

# ruff: noqa: E501 - table rows stay one per line

from __future__ import annotations

import pytest

from dcg.shell import parse
from dcg.shell.context import ALL_ARGS

# (line, words the rules see, the why of the first data word)
DATA = [
    pytest.param("echo 'rm -rf /'", ("echo",), "echo argument", id="echo"),
    pytest.param("printf '%s' 'git reset --hard'", ("printf",), "printf argument", id="printf"),
    pytest.param(": rm -rf /", (":",), "no-op argument", id="colon"),
    pytest.param("true rm -rf /", ("true",), "true argument", id="true"),
    pytest.param("man rm", ("man",), "manual page name", id="man"),
    pytest.param("help cd", ("help",), "help topic", id="help"),
    pytest.param("info rm", ("info",), "info topic", id="info"),
    pytest.param("which rm", ("which",), "command lookup", id="which"),
    pytest.param("type rm", ("type",), "command lookup", id="type"),
    pytest.param("whatis rm", ("whatis",), "manual lookup", id="whatis"),
    pytest.param("apropos delete", ("apropos",), "manual lookup", id="apropos"),
    pytest.param("whereis rm", ("whereis",), "command lookup", id="whereis"),
    pytest.param("command -V rm", ("command",), "command lookup", id="command-V"),
    pytest.param("rm -rf / --help", ("rm",), "--help invocation", id="help-flag"),
    pytest.param("grep -r 'rm -rf' src", ("grep", "-r", "src"), "grep pattern", id="grep"),
    pytest.param("grep -A 3 'rm -rf' src", ("grep", "-A", "3", "src"), "grep pattern", id="grep-option-value"),
    pytest.param("grep -e 'rm -rf' -e 'reset --hard' f", ("grep", "-e", "-e", "f"), "grep pattern", id="grep-e"),
    pytest.param("egrep 'rm -rf' f", ("egrep", "f"), "grep pattern", id="egrep"),
    pytest.param("rg -g '*.py' 'rm -rf'", ("rg", "-g", "*.py"), "rg pattern", id="rg"),
    pytest.param("rg --regexp='rm -rf' .", ("rg", "."), "rg pattern", id="rg-regexp"),
    pytest.param("ag 'rm -rf'", ("ag",), "ag pattern", id="ag"),
    pytest.param("ack 'rm -rf'", ("ack",), "ack pattern", id="ack"),
    pytest.param("git grep 'reset --hard'", ("git", "grep"), "git grep pattern", id="git-grep"),
    pytest.param("sed -n '/rm -rf/p' f", ("sed", "-n", "f"), "sed -n script", id="sed-n"),
    pytest.param("sed -n -e '/rm -rf/p' f", ("sed", "-n", "-e", "f"), "sed -n script", id="sed-n-e"),
    pytest.param("awk '{print \"rm -rf /\"}' f", ("awk", "f"), "awk program", id="awk"),
    pytest.param("awk -F: '/rm -rf/' f", ("awk", "-F:", "f"), "awk program", id="awk-F"),
    pytest.param("git commit -m 'rm -rf /'", ("git", "commit", "-m"), "commit message", id="commit-m"),
    pytest.param("git commit --message='rm -rf /'", ("git", "commit"), "commit message", id="commit-message"),
    pytest.param("git commit -am 'reset --hard'", ("git", "commit", "-am"), "commit message", id="commit-am"),
    pytest.param("git tag -a v1 -m 'rm -rf'", ("git", "tag", "-a", "v1", "-m"), "tag message", id="tag-m"),
    pytest.param("git log --grep='reset --hard'", ("git", "log"), "log search", id="log-grep"),
    pytest.param("git log -S 'rm -rf' --oneline", ("git", "log", "-S", "--oneline"), "log search", id="log-S"),
    pytest.param("git notes add -m 'rm -rf'", ("git", "notes", "add", "-m"), "note text", id="notes"),
    pytest.param("gh pr create --title 'rm -rf' --body 'x'", ("gh", "pr", "create", "--title", "--body"), "gh text", id="gh"),
    pytest.param("glab mr create -d 'rm -rf'", ("glab", "mr", "create", "-d"), "glab text", id="glab"),
    pytest.param("jq '.a | del(.b)' f.json", ("jq", "f.json"), "jq filter", id="jq"),
    pytest.param("jq --arg x 'rm -rf /' '.a'", ("jq", "--arg"), "jq argument", id="jq-arg"),
    pytest.param("curl -d 'rm -rf /' https://x", ("curl", "-d", "https://x"), "request data", id="curl-d"),
    pytest.param("curl -H 'X: rm -rf' --json '{}' https://x", ("curl", "-H", "--json", "https://x"), "request data", id="curl-H-json"),
]  # fmt: skip


@pytest.mark.parametrize(("line", "words", "why"), DATA)
def test_data_words(line: str, words: tuple[str, ...], why: str) -> None:
    cmd = parse(line)[0]
    assert cmd.words == words
    assert cmd.data[0][1] == why
    assert len(cmd.words) + len(cmd.data) == len(cmd.argv)


# Code stays code: these words must remain visible to the rules.
CODE = [
    pytest.param("sed -i 's/a/b/' f", ("sed", "-i", "s/a/b/", "f"), id="sed-in-place"),
    pytest.param("sed -n -i 's/a/b/w out' f", ("sed", "-n", "-i", "s/a/b/w out", "f"), id="sed-n-in-place"),
    pytest.param("awk '{system(\"rm -rf /\")}'", ("awk", "{system(\"rm -rf /\")}"), id="awk-system"),
    pytest.param("awk '{print | \"sh\"}'", ("awk", "{print | \"sh\"}"), id="awk-pipe"),
    pytest.param("git commit -a", ("git", "commit", "-a"), id="commit-without-message"),
    pytest.param("git reset --hard", ("git", "reset", "--hard"), id="not-in-table"),
    pytest.param("bash -c 'ls' --help", ("bash", "-c", "--help"), id="shell-ignores-help"),
    pytest.param("rm -rf -- --help", ("rm", "-rf", "--", "--help"), id="help-after-dashdash"),
]  # fmt: skip


@pytest.mark.parametrize(("line", "words"), CODE)
def test_code_words(line: str, words: tuple[str, ...]) -> None:
    assert parse(line)[0].words == words


@pytest.mark.parametrize("name", sorted(ALL_ARGS))
def test_every_all_args_command_keeps_only_its_name(name: str) -> None:
    (cmd,) = parse(f"{name} 'rm -rf /' x")
    assert cmd.words == (name,)
    assert cmd.data == (("rm -rf /", ALL_ARGS[name]), ("x", ALL_ARGS[name]))


def test_heredoc_body_fed_to_cat_is_not_parsed() -> None:
    cmds = parse("cat > f <<'EOF'\nrm -rf /\nEOF")
    assert [c.argv for c in cmds] == [("cat",)]
    assert cmds[0].stdin == "rm -rf /\n"


def test_data_after_a_wrapper() -> None:
    (cmd,) = parse("sudo echo 'rm -rf /'")
    assert (cmd.words, cmd.via) == (("echo",), ("sudo",))
