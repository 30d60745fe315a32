"""The Claude Code golden outputs conform to the published hook-output JSON schema."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "json-schema" / "hook-output.json").read_text())


@pytest.mark.parametrize(
    ("variant", "level"),
    [
        pytest.param(v, lvl, id=f"{v}-{lvl}")
        for v in ("claude", "claude-details")
        for lvl in ("warning", "soft-block", "hard-block", "soft-ask")
    ],
)
def test_claude_golden_matches_schema(variant: str, level: str) -> None:
    text = (ROOT / "tests" / "golden" / variant / f"{level}.txt").read_text()
    stdout = text.split("--- stdout\n", 1)[1].split("\n--- ", 1)[0]
    doc = json.loads(stdout)
    jsonschema.validate(doc, SCHEMA)
    specific = doc["hookSpecificOutput"]
    if variant == "claude":
        assert "responseLevel" not in specific
    else:
        assert specific["responseLevel"] == level.replace("-", "_").replace("_ask", "_block")


@pytest.mark.parametrize(
    "doc",
    [
        pytest.param(
            {
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "confirmCode": "7f3a",
                    "permissionDecision": "deny",
                    "permissionDecisionReason": "x",
                }
            },
            id="code-field",
        ),
        pytest.param(
            {
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "deny",
                    "permissionDecisionReason": "run dcg confirm 7f3a",
                }
            },
            id="code-in-reason",
        ),
        pytest.param(
            {
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "extra": 1,
                    "additionalContext": "x",
                }
            },
            id="unknown-field",
        ),
    ],
)
def test_schema_rejects_codes_and_unknown_fields(doc: dict[str, object]) -> None:
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, SCHEMA)
