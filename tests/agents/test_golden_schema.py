"""The Claude Code golden outputs conform to the published hook-output JSON schema."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "json-schema" / "hook-output.json").read_text())


@pytest.mark.parametrize("level", ["warning", "soft-block", "hard-block"])
def test_claude_golden_matches_schema(level: str) -> None:
    text = (ROOT / "tests" / "golden" / "claude" / f"{level}.txt").read_text()
    stdout = text.split("--- stdout\n", 1)[1].split("\n--- ", 1)[0]
    doc = json.loads(stdout)
    jsonschema.validate(doc, SCHEMA)
    expected = level.replace("-", "_")
    assert doc["hookSpecificOutput"]["responseLevel"] == expected
