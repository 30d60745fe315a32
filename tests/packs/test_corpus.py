"""The shared reference corpus: per pack, what must be stopped and what must pass."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dcg.engine import evaluate
from dcg.packs import KEYWORDS

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"


def _scalar(raw: str) -> str:
    """A YAML flow scalar of the corpus: double-quoted, single-quoted or plain.

    A few corpus lines embed shell-escaped JSON (`'{"\\"query\\"":…}'`) that is not valid
    YAML; they are read as the command their author meant (`'{"query":…}'`).
    """
    raw = raw.strip()
    if raw.startswith('"'):
        try:
            value = json.loads(raw)
            assert isinstance(value, str)
            return value
        except ValueError:
            return raw[1:-1].replace('"\\"', '"').replace('\\""', '"')
    if raw.startswith("'"):
        return raw[1:-1].replace("''", "'")
    return raw


def _load(name: str) -> dict[str, list[str]]:
    """Read `{pack_id: [{command: …, reason: …}]}` without a YAML dependency."""
    path = CORPUS / name
    data: dict[str, list[str]] = {}
    if not path.exists():
        return data
    current: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace() and line.rstrip().endswith(":"):
            current = data.setdefault(line.rstrip()[:-1].strip(), [])
        elif line.lstrip().startswith("- command:"):
            current.append(_scalar(line.split("command:", 1)[1]))
    return data


def _params(name: str) -> list[object]:
    return [
        pytest.param(pack_id, command, id=f"{pack_id}[{i}]")
        for pack_id, commands in _load(name).items()
        for i, command in enumerate(commands)
    ]


def test_corpus_reader_reads_every_entry() -> None:
    for name in ("pack_destructive.yaml", "pack_safe.yaml"):
        path = CORPUS / name
        expected = path.read_text(encoding="utf-8").count("- command:")
        assert sum(len(v) for v in _load(name).values()) == expected
    assert any(
        '{"query":{"match_all":{}}}' in c for c in _load("pack_safe.yaml")["search.elasticsearch"]
    )


DESTRUCTIVE = _params("pack_destructive.yaml")
SAFE = _params("pack_safe.yaml")

pytestmark = pytest.mark.skipif(not CORPUS.exists(), reason="shared corpus not present")


@pytest.mark.parametrize(("pack_id", "command"), DESTRUCTIVE)
def test_destructive_is_stopped_by_its_pack(pack_id: str, command: str) -> None:
    assert pack_id in KEYWORDS, f"no pack {pack_id}"
    result = evaluate(command, [pack_id], cwd="/home/dev/project")
    assert [m for m in result.matches if m.pack.id == pack_id], command


@pytest.mark.parametrize(("pack_id", "command"), SAFE)
def test_safe_passes(pack_id: str, command: str) -> None:
    assert pack_id in KEYWORDS, f"no pack {pack_id}"
    result = evaluate(command, [pack_id], cwd="/home/dev/project")
    assert not result.matches, [m.rule_id for m in result.matches]


@pytest.mark.parametrize(("pack_id", "command"), SAFE)
def test_safe_passes_the_hook_with_the_default_packs(pack_id: str, command: str) -> None:
    """decisions.md 10.6: the default packs add no false positive on the safe corpus."""
    import io
    import os

    from dcg import hook

    payload = {"session_id": "safe", "cwd": "/home/dev/project", "hook_event_name": "PreToolUse",
               "tool_name": "Bash", "tool_input": {"command": command}}  # fmt: skip
    out = io.StringIO()
    hook.main([], io.BytesIO(json.dumps(payload).encode()), out, io.StringIO(), dict(os.environ))
    assert out.getvalue() == "", pack_id
