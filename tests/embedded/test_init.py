"""analyze()/scan(): dispatch, bounds, and never failing on hostile input."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dcg.embedded import LANGS, MAX_CODE, _runner, analyze, scan
from dcg.embedded.actions import MAX_FINDINGS, Limit, Sink

DELETION = {
    "python": "import shutil\nshutil.rmtree('x')\n",
    "javascript": "fs.rmSync('x', {recursive: true});\n",
    "ruby": "FileUtils.rm_rf('x')\n",
    "perl": "rmtree('x');\n",
    "php": "exec('rm -rf x');\n",
}


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        pytest.param("python3", "python", id="python3"),
        pytest.param("TypeScript", "javascript", id="typescript"),
        pytest.param("node", "javascript", id="node"),
    ],
)
def test_language_aliases(lang: str, expected: str) -> None:
    assert analyze(lang, DELETION[expected]) == analyze(expected, DELETION[expected]) != []


def test_unknown_language_finds_nothing() -> None:
    found = scan("cobol", "CALL 'SYSTEM' USING 'rm -rf /'")
    assert found.calls == () and found.complete


def test_placeholder_characters_in_the_input_are_removed() -> None:
    code = "import os\nos.system('rm -rf \ue000HOME\ue001 \ue002')"
    assert analyze("python", code) == [("python os.system", "rm -rf HOME ")]


def test_code_beyond_the_size_bound_is_cut_but_earlier_findings_kept() -> None:
    code = DELETION["python"] + "x = 1\n" * (MAX_CODE // 6 + 10)
    found = scan("python", code)
    assert found.calls == (("python shutil.rmtree", "rm -rf -- 'x'"),)
    assert not found.complete


def test_a_past_deadline_stops_the_analysis() -> None:
    code = "x = 1\n" * 5000 + DELETION["javascript"]
    found = scan("javascript", code, deadline=time.thread_time() - 1)
    assert not found.complete


def test_findings_are_capped() -> None:
    found = scan("ruby", "system('ls')\n" * (MAX_FINDINGS + 10))
    assert len(found.calls) == MAX_FINDINGS and not found.complete


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    "code",
    [
        pytest.param("(" * 50_000, id="deep-parens"),
        pytest.param("[" * 50_000 + "]" * 50_000, id="deep-brackets"),
        pytest.param("'" * 50_001, id="quotes"),
        pytest.param("`${`${`${" * 5_000, id="nested-templates"),
        pytest.param("a." * 60_000 + "b()", id="long-chain"),
        pytest.param("x = " + "'a' + " * 20_000 + "'b'", id="long-concat"),
        pytest.param("<<EOF\n" * 5_000, id="heredoc-starts"),
        pytest.param("q{" * 20_000 + "%w[" * 20_000, id="q-literals"),
        pytest.param("\x00\xff\ud800" * 10_000, id="control-and-surrogates"),
        pytest.param("/" * 60_000, id="slashes"),
    ],
)
def test_adversarial_input_is_bounded(lang: str, code: str) -> None:
    start = time.process_time()
    found = scan(lang, code + "\n" + DELETION[lang])
    assert time.process_time() - start < 2.0
    assert all(isinstance(label, str) and isinstance(line, str) for label, line in found.calls)


_ALPHABET = "abcxyz_$@%#:;,.()[]{}<>=+-*/\\'\"`|&!?~^\n \t0123456789qwQW"
_WORDS = st.sampled_from(
    ["system", "exec", "rm_rf", "os.system", "require", "import", "from", "const", "my",
     "<<~EOS", "<<<EOT", "%x(", "qx{", "${", "#{", "=begin", "=pod", "//", "/*", "'''", "f'{"]
)  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(
    lang=st.sampled_from(LANGS),
    pieces=st.lists(st.one_of(st.text(_ALPHABET, max_size=12), _WORDS), max_size=60),
)
def test_the_analysers_never_fail_internally(lang: str, pieces: list[str]) -> None:
    run = _runner(lang)
    assert run is not None
    sink = Sink()
    with contextlib.suppress(Limit):  # a bound is fine; any other exception is a bug
        run("".join(pieces), sink, 0)
    assert all(isinstance(line, str) for _, line in sink.found)


def test_importing_the_package_imports_no_parser() -> None:
    probe = (
        "import sys, dcg.embedded\n"
        "bad = [m for m in ('re', 'ast', '_ast', 'dcg.embedded.python', 'dcg.embedded.lexer')"
        " if m in sys.modules]\n"
        "print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("lang", "code", "expected"),
    [
        pytest.param(
            "python",
            "import os, shutil\nos.chdir(os.path.expanduser('~'))\n"
            "shutil.rmtree('.')\nos.system('rm -rf *')",
            [
                ("python shutil.rmtree", 'rm -rf -- "$HOME"'),
                ("python os.system", 'cd -- "$HOME" && rm -rf *'),
            ],
            id="python-chdir-home",
        ),
        pytest.param(
            "javascript",
            "process.chdir('/'); require('fs').rmSync('usr', {recursive: true})",
            [("javascript fs.rmSync", "rm -rf -- '/usr'")],
            id="javascript-chdir-root",
        ),
        pytest.param(
            "perl",
            "chdir '/srv'; unlink '/etc/passwd', 'x';",
            [("perl unlink", "rm -f -- '/etc/passwd' '/srv/x'")],
            id="perl-chdir-absolute-kept",
        ),
        pytest.param(
            "ruby",
            "Dir.chdir(ARGV[0])\nFileUtils.rm_rf('build')",
            [("ruby FileUtils.rm_rf", "rm -rf -- 'build'")],
            id="ruby-unknown-chdir-ignored",
        ),
    ],
)
def test_a_directory_change_moves_later_commands(
    lang: str, code: str, expected: list[tuple[str, str]]
) -> None:
    assert analyze(lang, code) == expected


def test_a_string_prefix_at_the_end_of_interpolated_code_is_not_a_string() -> None:
    # Found by the property test above: `f'{f'{` made the fallback lexer read past the end.
    run = _runner("python")
    assert run is not None
    sink = Sink()
    run("f'{f'{", sink, 0)
    assert sink.found == []
