"""Issue 32: no time-out opens the door. Huge inputs are answered fast, every step inside
the budget (dcg.watchdog), and long harmless lines are judged, not stopped (issue 27)."""

from __future__ import annotations

import io
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dcg import hook, watchdog
from dcg.redact import for_record

DCG = Path(sys.executable).parent / "dcg"


def _claude(command: str, cwd: Path) -> bytes:
    body = {
        "session_id": "budget",
        "transcript_path": str(cwd / "t.jsonl"),
        "cwd": str(cwd),
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "test"},
    }
    return json.dumps(body).encode()


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _entry(command: str, home: Path) -> tuple[float, str, str]:
    """The installed entry point, as Claude Code runs it: (CPU seconds, decision, rule text).

    The hook's cost is its CPU time (what its budget bounds): on a loaded machine the wall
    clock measures the other processes too. The wall clock only proves it does not hang.
    """
    env = dict(os.environ, HOME=str(home), DCG_RESPONSE_MODE="paranoid")
    start, cpu = time.monotonic(), _cpu()
    done = subprocess.run(
        [str(DCG), "hook"], input=_claude(command, home), capture_output=True, env=env,
        timeout=60,
    )  # fmt: skip
    took = _cpu() - cpu
    assert time.monotonic() - start < 30, "the hook hung"
    out = done.stdout.decode()
    if not out.strip():
        return took, "", ""
    spec = json.loads(out)["hookSpecificOutput"]
    return took, spec["permissionDecision"], spec.get("permissionDecisionReason", "")


# (command, expected decision, rule id in the reason or ""). Each is answered within its
# budget through the installed entry point.
HUGE = [
    pytest.param("rm -rf src # " + "a" * 125_000, "deny", "core.filesystem:rm-rf", id="comment"),
    pytest.param("rm -rf " + "a" * 1_000_000, "deny", "core.dcg:too-complex", id="1mb-word"),
    pytest.param("a" * 1_000_000, "", "", id="1mb-no-keyword"),
    pytest.param("rm -rf src " + "a " * 20_000, "deny", "core.dcg:too-complex", id="20k-args"),
    pytest.param("rm -rf " + "a/" * 100_000, "deny", "core.dcg:too-complex", id="200k-path"),
    pytest.param("echo " + "{" * 200_000 + "}", "", "", id="braces"),
    pytest.param("git status # " + "https" * 100_000, "deny", "too-complex", id="url-letters"),
    pytest.param("rm -rf src #" + " mysql" * 100_000, "deny", "", id="mysql-words"),
    # Generated adversarial shapes up to the stdin bound: each answered inside its budget,
    # a stop when it cannot be judged in time (never a time-out).
    pytest.param("echo " + "$(" * 200_000 + ")" * 200_000, "deny", "core.dcg:", id="subst-nest"),
    pytest.param("rm -rf " + "{a," * 50_000 + "b" + "}" * 50_000, "deny", "core.", id="brace-deep"),
    pytest.param("rm -rf src/" + "{a,b}" * 60, "deny", "core.filesystem:rm-rf", id="brace-bomb"),
    pytest.param("echo " + "{a,b}" * 40, "", "", id="brace-bomb-echo"),
    pytest.param("rm -rf " + "\"'" * 100_000, "deny", "core.", id="deep-quotes"),
    pytest.param(" | ".join(["cat"] * 10_000) + " | rm -rf src", "deny", "core.", id="pipes-rm"),
    pytest.param("; ".join(["true"] * 100_000), "", "", id="100k-semicolons"),
    pytest.param("cat <<EOF\n" + "rm -rf src\n" * 50_000 + "EOF", "deny", "core.", id="heredoc"),
    pytest.param(
        "bash <<EOF\n" + "echo hi\n" * 60_000 + "rm -rf src\nEOF",
        "deny",
        "core.",
        id="bash-heredoc",
    ),
    pytest.param(
        "python3 -c '" + "x=1\n" * 150_000 + 'import shutil; shutil.rmtree("src")\'',
        "deny",
        "core.",
        id="python-c",
    ),
    pytest.param("node -e '" + "a=1;" * 200_000 + "'", "deny", "core.dcg:", id="node-e"),
    pytest.param("rm -rf src " + "\\" * 500_000, "deny", "core.", id="backslashes"),
    pytest.param("rm -rf src " + "\\\n" * 300_000, "deny", "core.", id="line-continuations"),
    pytest.param("rm -rf src # " + "\u00e9" * 300_000, "deny", "core.", id="unicode"),
    pytest.param("git reset --hard " + "\U0001f600" * 200_000, "deny", "core.", id="emoji"),
    pytest.param("rm -rf src # " + "//" * 450_000, "deny", "core.", id="redact-slashes"),
    pytest.param("rm -rf src # " + "-p x --token=y " * 60_000, "deny", "core.", id="redact-opts"),
    pytest.param("git push https://u:p@h/" + "a:b@" * 200_000, "deny", "core.", id="redact-urls"),
    pytest.param(
        "case x in " + " ".join(f"p{i}) rm -rf src;;" for i in range(30_000)) + " esac",
        "deny",
        "core.",
        id="case-arms",
    ),
    pytest.param(
        "; ".join(f"alias a{i}=a{i + 1}" for i in range(20_000))
        + "; alias a20000='rm -rf src'\na0",
        "deny",
        "core.",
        id="alias-chain",
    ),
    pytest.param("printf '" + "%s" * 300_000 + "' rm -rf src", "deny", "core.", id="printf-format"),
    pytest.param(
        "a=x; " + "; ".join(["a=$a$a"] * 60) + "; rm -rf $a",
        "deny",
        "core.",
        id="doubling-variable",
    ),
    pytest.param("eval " * 50_000 + "rm -rf src", "deny", "core.", id="eval-chain"),
    pytest.param("( " * 20_000 + "rm -rf src" + " )" * 20_000, "deny", "core.", id="subshells"),
]


@pytest.mark.parametrize(("command", "decision", "rule"), HUGE)
def test_huge_inputs_answered_fast(tmp_path: Path, command: str, decision: str, rule: str) -> None:
    took, got, reason = _entry(command, tmp_path)
    assert got == decision
    assert rule in reason
    assert took < 1.0 or (got == "deny" and took < 2.5), took


# A 1 MB single word (issue 32 acceptance): answered in < 1 s of CPU through the installed
# entry point, a stop when it holds a pack keyword. Each pack and rule asks whether the line
# names its keywords; a long line is indexed once (dcg.keywords._LongIndex), not searched
# once per keyword and pack.
MB = 1_000_000
ONE_MB_WORD = [
    pytest.param("rm -rf src#" + "a" * MB, "deny", id="rm-then-comment-letters"),
    pytest.param("git" + "a" * MB, "deny", id="git-glued"),
    pytest.param("git " + "a" * MB, "deny", id="git-then-word"),
    pytest.param("git-" + "a" * MB, "deny", id="git-dash"),
    pytest.param("rm" + "$a" * (MB // 2), "deny", id="dollars"),
    pytest.param("rm" + "'a'\"b\"" * (MB // 8), "deny", id="quotes"),
    pytest.param("git" + "\\a" * (MB // 3), "deny", id="backslashes"),
    pytest.param("a=" * (MB // 2), "", id="assignments"),
    pytest.param("a=" * (MB // 2) + " rm -rf src", "deny", id="assignments-rm"),
    pytest.param("rm ${" + "a" * MB + "}", "deny", id="parameter"),
    pytest.param("git$(" + "a" * MB + ")", "deny", id="substitution"),
    pytest.param("git://" + "a" * MB, "deny", id="url"),
    pytest.param("rm -rf /" + "a/" * (MB // 2), "deny", id="slashes"),
    pytest.param("rm -rf *" + "a*" * (MB // 2), "deny", id="glob"),
    pytest.param("x" * (MB // 2) + "rm" + "x" * (MB // 2), "", id="keyword-inside"),
    pytest.param("x" + "xgitxrmxdocker" * 70_000, "", id="keywords-inside"),
    pytest.param(
        "rm -rf src " + " ".join(f"w{i:x}" for i in range(150_000)), "deny", id="distinct-words"
    ),
    pytest.param("git " + "".join(chr(33 + i % 90) for i in range(MB)), "deny", id="all-chars"),
    pytest.param("rm -rf src " + "\u00e9a.$/-" * 150_000, "deny", id="non-ascii"),
]


@pytest.mark.parametrize(("command", "decision"), ONE_MB_WORD)
def test_one_megabyte_word_answered_in_a_second(
    tmp_path: Path, command: str, decision: str
) -> None:
    start = time.monotonic()
    took, got, reason = _entry(command, tmp_path)
    wall = time.monotonic() - start
    assert got == decision, reason
    assert decision == "" or "core." in reason
    # CPU is the hook's own cost; the wall clock carries the machine's load as well.
    assert took < 1.0, took
    assert wall < 5.0, wall


def test_long_text_index_agrees_with_the_keyword_scan() -> None:
    """The long-text index finds exactly the keywords ``has_keyword`` finds."""
    import random

    from dcg import engine
    from dcg import keywords as scan

    keywords = sorted({k for v in engine.KEYWORDS.values() for k in v})
    pieces = [k.replace(engine.BRACE, "{a,b}") for k in keywords] + list(
        "abgitrmx _-./$=;|&\t\n'\"\\{},*()\u00e9\u2014"
    )
    rng = random.Random(32)
    for trial in range(40):
        text = "".join(rng.choice(pieces) for _ in range(6000))
        if trial % 2:
            text = text.replace("\u00e9", "e").replace("\u2014", "-")
        assert len(text) > scan._LONG_TEXT
        scan._LONG_MEMO.clear()
        for k in keywords:
            assert engine.mentions(text, (k,)) == engine.has_keyword(text, k), (k, trial)


# Harmless lines of 10,000 commands are judged, not stopped as too complex.
LONG = [
    pytest.param(" | ".join(["true"] * 10_000), id="pipes"),
    pytest.param("; ".join(f"echo {i}" for i in range(10_000)), id="semicolons"),
    pytest.param(" && ".join(["true"] * 10_000), id="and"),
    pytest.param(" && ".join(["git status"] * 10_000), id="git-status"),
]


@pytest.mark.parametrize("command", LONG)
def test_long_harmless_lines_pass(tmp_path: Path, command: str) -> None:
    assert _entry(command, tmp_path)[1] == ""


def test_record_of_a_huge_command_is_cut_and_linear() -> None:
    start = time.process_time()
    out = for_record("mysql --password=" + "x" * 1_000_000)
    assert time.process_time() - start < 0.5
    assert "xxx" not in out


def test_alarm_raises_overrun_and_disarms() -> None:
    if not watchdog.arm(0.05):
        pytest.skip("no CPU alarm here")
    try:
        with pytest.raises(watchdog.Overrun):
            while True:
                sum(range(1000))
    finally:
        watchdog.disarm()
    sum(range(100_000))  # no alarm left behind


def test_no_cyclic_collection_while_judging_and_back_after() -> None:
    """A full collection of a big process's heap inside a 200 ms budget made CI stop a
    plain `git checkout --forc main` as too complex: the alarm's span runs without it."""
    import gc

    assert gc.isenabled()
    watchdog.arm(1.0)
    try:
        assert not gc.isenabled()
        watchdog.arm(0.5)  # re-arming (the line's own budget) keeps it off
        assert not gc.isenabled()
    finally:
        watchdog.disarm()
    assert gc.isenabled()
    body = {"tool_name": "Bash", "tool_input": {"command": "git status"}, "cwd": "/"}
    hook.main([], io.BytesIO(json.dumps(body).encode()), io.StringIO(), io.StringIO(), {})
    assert gc.isenabled()


# A NUL byte in a target: a clear stop with a rule id, not an internal error.
NUL = ["rm -rf $'src\\0x'", "rm -rf 'src\x00x'", "rm -rf src$'\\0'/x", "git clean -fdx $'a\\0b'"]


@pytest.mark.parametrize("command", NUL)
def test_nul_byte_in_a_target_is_stopped_with_a_rule(tmp_path: Path, command: str) -> None:
    _, decision, reason = _entry(command, tmp_path)
    assert decision == "deny"
    assert "core." in reason and "internal error" not in reason
