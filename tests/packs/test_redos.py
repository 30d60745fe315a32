"""No rule pattern can be made to backtrack: every pattern on 64 KiB adversarial text stays fast."""

from __future__ import annotations

import time

import pytest

from dcg.engine import compiled
from dcg.model import Pack, Rule
from dcg.packs import all_ids, load

BIG = 64 * 1024
# Slow enough to mean super-linear behaviour, fast enough never to trip on a loaded machine.
LIMIT_S = 0.015

TAILS = (
    " " * BIG,
    "-" * BIG,
    " -" * (BIG // 2),
    " -rf" * (BIG // 4),
    "a" * BIG,
    "'\"" * (BIG // 2),
    " --force=" * (BIG // 9),
    "/" * BIG,
    "$(" * (BIG // 2),
    " x" * (BIG // 2),
    "\\" * BIG,
)


def _heads(rule: Rule) -> list[str]:
    """Texts that get past each pattern's anchor: the rule's own examples, cut in half."""
    heads = {""}
    for example in rule.blocks + rule.allows:
        words = example.split()
        heads.add(" ".join(words[: max(1, len(words) // 2)]) + " ")
        heads.add(example + " ")
    return sorted(heads)


def _rules() -> list[object]:
    return [
        pytest.param(pack, rule, id=pack.rule_id(rule))
        for pid in all_ids()
        for pack in [load(pid)]
        for rule in pack.rules
    ]


@pytest.mark.parametrize(("pack", "rule"), _rules())
def test_pattern_is_linear(pack: Pack, rule: Rule) -> None:
    patterns = [rule.pattern, *pack.safe]
    for pattern in patterns:
        rx = compiled(pattern)
        for head in _heads(rule):
            for tail in TAILS:
                text = head + tail
                best = min(_time(rx.search, text) for _ in range(2))
                if best <= LIMIT_S:
                    continue
                # Slow once: on a loaded machine that proves nothing. Super-linear means the
                # time grows faster than the text. Backtracking is at least quadratic (4x the
                # text, 16x the time); linear matching measures 4-7x here (caches).
                best = min(best, *(_time(rx.search, text) for _ in range(3)))
                quarter = head + tail[: len(tail) // 4]
                small = min(_time(rx.search, quarter) for _ in range(3))
                assert best <= LIMIT_S or best <= 12 * small, (
                    f"{pattern!r} took {best * 1000:.1f} ms on {head!r} + {tail[:12]!r}… "
                    f"and {small * 1000:.1f} ms on a quarter of it"
                )


def _time(search: object, text: str) -> float:
    start = time.process_time()
    search(text)  # type: ignore[operator]
    return time.process_time() - start
