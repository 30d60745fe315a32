"""Property tests: for any text at all, parse returns Commands or raises TooComplex, in time."""

from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dcg.shell import Command, TooComplex, parse

# Generous against a loaded CI machine; the bounds make the real figure milliseconds.
BUDGET = 0.5
SHELLISH = "abcrm -/'\"\\$`(){}[]<>|&;#*?!~=\n\t%:.,@"
FRAGMENTS = [
    "$(", ")", "`", "'", '"', "\\", "${", "}", "$((", "))", "<<EOF\n", "EOF\n", "<<<", "<(",
    "bash -c ", "eval ", "sudo ", "xargs ", "find . -exec ", " {} +", "| sh", "case x in ",
    ";;", "esac", "if ", "then ", "fi", "for x in ", "do ", "done", "{ ", " }", "( ", "&&",
    "rm -rf /", "$'\\x", "\\\n", "#", "\x00", "\udcff", "\r", "python -c ", "ssh h ",
]  # fmt: skip


def check(line: str) -> None:
    start = time.process_time()
    try:
        cmds = parse(line, deadline=start + BUDGET)
    except TooComplex:
        pass
    else:
        assert all(isinstance(c, Command) for c in cmds)
        assert all(isinstance(w, str) for c in cmds for w in c.argv)
    assert time.process_time() - start < BUDGET + 0.5


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=SHELLISH, max_size=300))
def test_shellish_text(line: str) -> None:
    check(line)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=80).map("".join))
def test_adversarial_fragments(line: str) -> None:
    check(line)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400))
def test_invalid_utf8_with_surrogateescape(raw: bytes) -> None:
    check(raw.decode("utf-8", "surrogateescape"))


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=0x3F), max_size=200))
def test_control_characters(line: str) -> None:
    check(line)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(FRAGMENTS), st.integers(min_value=1, max_value=5000))
def test_deep_repetition(fragment: str, count: int) -> None:
    check(fragment * count)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["a", " ", "'", '"', "$(", ";", "x=1 ", "\\"]))
def test_huge_inputs(fragment: str) -> None:
    check(fragment * (300 * 1024 // len(fragment)))  # over the size bound
    check(fragment * (64 * 1024 // len(fragment)))  # a 64 KiB token or run of separators
