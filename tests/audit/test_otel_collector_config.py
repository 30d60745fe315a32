"""docs/otel-collector.yaml, the zero-code pipeline: every field it maps is a real record field.

The configuration is parsed and walked: the filelog receiver reads history.jsonl, its
json_parser takes the time and severity from fields the schema has (in the format real
records use), and every move maps a schema field to the attribute `dcg audit ship` gives
it, so both roads deliver the same log records. With an `otelcol-contrib` binary on PATH
the configuration is also validated by the collector itself.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
import yaml

import auditlib
from dcg.commands._audit_ship import ATTRIBUTES, SEVERITY

CONFIG = Path(__file__).resolve().parents[2] / "docs" / "otel-collector.yaml"
SCHEMA = json.loads(auditlib.SCHEMA.read_text())
FIELDS = set(SCHEMA["properties"])
REQUIRED_IN_V1 = set(SCHEMA["required"]) - {"id", "host", "user", "uid"}


def _doc() -> dict[str, object]:
    doc: dict[str, object] = yaml.safe_load(CONFIG.read_text())
    return doc


def _receiver() -> dict[str, object]:
    receivers = _doc()["receivers"]
    assert isinstance(receivers, dict)
    found = [v for k, v in receivers.items() if k.split("/")[0] == "filelog"]
    assert len(found) == 1
    return found[0]  # type: ignore[no-any-return]


def _field(path: str) -> str:
    """``attributes.rule_id`` -> ``rule_id``."""
    assert path.startswith("attributes."), path
    return path.split(".", 1)[1]


def _attribute(path: str) -> str:
    """``attributes["dcg.rule.id"]`` -> ``dcg.rule.id``."""
    found = re.fullmatch(r'attributes\["([^"]+)"\]', path)
    assert found, path
    return found.group(1)


def test_it_reads_the_history_file_through_a_json_parser() -> None:
    receiver = _receiver()
    include = receiver["include"]
    assert isinstance(include, list) and include[0].endswith("/.config/dcg/history.jsonl")
    ops = receiver["operators"]
    assert isinstance(ops, list) and ops[0]["type"] == "json_parser"
    service = _doc()["service"]
    assert isinstance(service, dict)
    logs = service["pipelines"]["logs"]
    assert logs["receivers"] == ["filelog/dcg"] and logs["exporters"]
    assert set(logs["exporters"]) <= set(_doc()["exporters"])  # type: ignore[arg-type]
    assert set(service["extensions"]) <= set(_doc()["extensions"])  # type: ignore[arg-type]


def test_time_and_severity_come_from_record_fields_in_their_real_format(
    dcg_exe: str, tmp_path: Path
) -> None:
    recs = auditlib.make_history(dcg_exe, tmp_path / "project")
    parser = _receiver()["operators"][0]  # type: ignore[index]
    stamp = parser["timestamp"]
    assert _field(stamp["parse_from"]) in FIELDS and stamp["layout_type"] == "strptime"
    for rec in recs:
        time.strptime(str(rec["timestamp"]), stamp["layout"])
    severity = parser["severity"]
    assert _field(severity["parse_from"]) == "response_level"
    mapped: dict[str, str] = {}
    for otel_level, levels in severity["mapping"].items():
        for level in [levels] if isinstance(levels, str) else levels:
            mapped[level] = otel_level
    assert set(mapped) == set(SCHEMA["properties"]["response_level"]["enum"]) == set(SEVERITY)
    numbers = {"info": 9, "warn": 13, "error": 17}
    assert {lvl: numbers[o] for lvl, o in mapped.items()} == SEVERITY  # as `audit ship` does


def test_every_field_is_moved_to_the_attribute_audit_ship_uses(
    dcg_exe: str, tmp_path: Path
) -> None:
    recs = auditlib.make_history(dcg_exe, tmp_path / "project")
    ops = _receiver()["operators"]
    assert isinstance(ops, list)
    moves = {_field(op["from"]): op for op in ops if op["type"] == "move"}
    assert set(moves) <= FIELDS
    assert {f: _attribute(op["to"]) for f, op in moves.items()} == ATTRIBUTES
    # Fields schema-1 records may lack are moved only when present; the others always.
    for field, op in moves.items():
        if field in REQUIRED_IN_V1:
            assert "if" not in op, field
        else:
            assert op.get("if") == f"attributes.{field} != nil", field
    # Every field a real record has is mapped, or consumed (the timestamp).
    removed = {_field(op["field"]) for op in ops if op["type"] == "remove"}
    assert removed == {"timestamp"}
    for rec in recs:
        assert set(rec) <= set(moves) | removed, set(rec) - set(moves) - removed
    # The body: the command, else the rule id (as `dcg audit ship` sends it).
    copies = [(_field(op["from"]), op["to"], op.get("if")) for op in ops if op["type"] == "copy"]
    assert copies == [
        ("rule_id", "body", None),
        ("command", "body", "attributes.command != nil"),
    ]


@pytest.mark.skipif(shutil.which("otelcol-contrib") is None, reason="no otelcol-contrib binary")
def test_the_collector_accepts_the_configuration() -> None:  # pragma: no cover - needs the binary
    proc = subprocess.run(
        ["otelcol-contrib", "validate", "--config", str(CONFIG)],
        capture_output=True,
        text=True,
        env={"HOME": "/tmp", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"},
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
