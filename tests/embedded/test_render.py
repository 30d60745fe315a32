"""Shell rendering of analysed values: quoting, environment references, unknown pieces."""

from __future__ import annotations

import pytest

from dcg.embedded.render import argv_line, rm_line, shell_text, word
from dcg.embedded.values import DYN, HOME, env


@pytest.mark.parametrize(
    ("value", "always", "expected"),
    [
        pytest.param("src", False, "src", id="plain"),
        pytest.param("src", True, "'src'", id="plain-always"),
        pytest.param("a b", False, "'a b'", id="space"),
        pytest.param("it's", False, "'it'\\''s'", id="single-quote"),
        pytest.param("", False, "''", id="empty"),
        pytest.param("$x", False, "'$x'", id="dollar-is-literal"),
        pytest.param(HOME + "/x", True, "\"$HOME\"'/x'", id="home"),
        pytest.param(DYN, True, "'<dynamic>'", id="dynamic"),
        pytest.param("/tmp/" + DYN, True, "'/tmp/''<dynamic>'", id="dynamic-suffix"),
    ],
)
def test_word(value: str, always: bool, expected: str) -> None:
    assert word(value, always=always) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param("rm -rf ~/x", "rm -rf ~/x", id="verbatim"),
        pytest.param("rm -rf " + env("BUILD") + "/", "rm -rf ${BUILD}/", id="env"),
        pytest.param("rm -rf " + DYN, "rm -rf '<dynamic>'", id="dynamic"),
    ],
)
def test_shell_text(value: str, expected: str) -> None:
    assert shell_text(value) == expected


def test_argv_and_rm_lines() -> None:
    assert argv_line(["git", "commit", "-m", "a b", None]) == "git commit -m 'a b' '<dynamic>'"
    assert rm_line("rm -rf", ["a", HOME]) == "rm -rf -- 'a' \"$HOME\""
