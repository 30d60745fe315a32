"""The sre code cache: patterns used once compile later without importing ``re``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

PROBE = """
import sys
from dcg import recache
rx = recache.compile(sys.argv[1])
used_re = "re" in sys.modules
recache.save()
hits = [bool(rx.search(t)) for t in sys.argv[2:]]
import json
print(json.dumps({"re": used_re, "hits": hits}))
"""

PATTERN = r"(?i)^git reset\b.* --hard(?: |$)(?P<rest>.*)"
TEXTS = ["git reset --hard", "GIT reset -q --HARD x", "git reset --soft"]


def _probe() -> dict[str, object]:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, PATTERN, *TEXTS],
        capture_output=True,
        text=True,
        check=True,
        env=dict(os.environ),
    )
    result: dict[str, object] = json.loads(proc.stdout)
    return result


def test_second_compile_needs_no_re() -> None:
    first = _probe()
    assert first == {"re": True, "hits": [True, True, False]}
    assert _probe() == {"re": False, "hits": [True, True, False]}


def test_damaged_cache_falls_back_to_re() -> None:
    from dcg import recache

    _probe()
    Path(recache.cache_file()).write_bytes(b"\x00garbage")
    assert _probe() == {"re": True, "hits": [True, True, False]}
    assert _probe()["re"] is False  # and the cache is rewritten


def test_cache_is_private() -> None:
    from dcg import recache

    _probe()
    assert Path(recache.cache_file()).stat().st_mode & 0o077 == 0
