"""The keyword gate: ``engine.mentions`` answers exactly as ``has_keyword`` keyword by keyword.

``mentions`` is the fast form the engine and the hook's prefilter use (one substring test
per keyword in C, the word-start check only for keywords that occur); a difference from
the plain definition would let a command through the prefilter unjudged.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dcg.engine import BRACE, candidate_packs, has_keyword, mentions, scan_text
from dcg.packs import KEYWORDS

ALL_KEYWORDS = sorted({k for ks in KEYWORDS.values() for k in ks})
# Text built from keyword pieces, word characters, separators and brace syntax.
PIECES = st.sampled_from(
    [*ALL_KEYWORDS[:200], "a", "_", "x1", "é", "١", " ", "/", "$", "{", "}", ",", "..", ":", "\n"]
)
TEXTS = st.lists(PIECES, max_size=12).map("".join) | st.text(max_size=40)
KEYWORD_SETS = st.lists(st.sampled_from([*ALL_KEYWORDS, BRACE]), min_size=1, max_size=8)


def _plain(text: str, keywords: tuple[str, ...]) -> bool:
    return any(has_keyword(text, k) for k in keywords)


@settings(max_examples=3000, deadline=None)
@given(TEXTS, KEYWORD_SETS)
def test_mentions_is_has_keyword_for_some_keyword(text: str, keywords: list[str]) -> None:
    assert mentions(text, tuple(keywords)) is _plain(text, tuple(keywords))


@settings(max_examples=500, deadline=None)
@given(TEXTS)
def test_candidate_packs_are_the_packs_with_a_keyword(text: str) -> None:
    scan = scan_text(text)
    expected = [p for p in KEYWORDS if _plain(scan, KEYWORDS[p])]
    assert candidate_packs(scan, list(KEYWORDS)) == expected


def test_word_start_and_brace_cases() -> None:
    assert mentions("/bin/rm -rf x", ("rm",))
    assert not mentions("permission_mode", ("rm",))
    assert mentions("r{m,x} a", ("zz", BRACE))
    assert not mentions('{"a": 1, "b": 2}', ("zz", BRACE))
    assert mentions("farm; rm x", ("rm",)), "a later occurrence at a word start counts"
