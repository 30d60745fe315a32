"""Documentation generated from data stays in sync with that data."""

from __future__ import annotations

from pathlib import Path

from dcg.commands.packs import markdown

ROOT = Path(__file__).resolve().parents[1]


def test_pack_reference_is_current() -> None:
    committed = (ROOT / "docs" / "packs.md").read_text(encoding="utf-8")
    assert committed == markdown(), (
        "docs/packs.md is stale: run `dcg packs --markdown > docs/packs.md`"
    )
