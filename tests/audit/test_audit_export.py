"""`dcg audit export`: the records as written, as JSON lines or CSV, since a time; read-only."""

from __future__ import annotations

import csv
import io
import json
import subprocess
from pathlib import Path

import pytest

import auditlib
import hookpath
from dcg import paths
from dcg.commands import audit

OLD = (
    '{"schema_version":1,"timestamp":"2020-01-01T00:00:00Z","rule_id":"core.git:reset-hard",'
    '"pack_id":"core.git","severity":"high","response_level":"warning","session_id":"s",'
    '"cwd":"/p","command_hash":"sha256:%s","allowed":true}\n' % ("0" * 64)
)


def export(exe: str, *args: str) -> str:
    proc = subprocess.run(
        [exe, "audit", "export", *args], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    return proc.stdout


def test_jsonl_is_every_record_and_since_filters(dcg_exe: str, tmp_path: Path) -> None:
    recs = auditlib.make_history(dcg_exe, tmp_path / "project")
    path = Path(paths.history_file())
    path.write_text(OLD + path.read_text() + '{"half a line')
    lines = [json.loads(x) for x in export(dcg_exe).splitlines()]
    assert lines[1:] == recs and lines[0]["schema_version"] == 1
    assert [json.loads(x) for x in export(dcg_exe, "--since", "7d").splitlines()] == recs
    assert len(export(dcg_exe, "--since", "2019-12-31").splitlines()) == len(recs) + 1
    assert export(dcg_exe, "--since", "2999-01-01T00:00:00Z") == ""


def test_csv_has_every_schema_field_as_a_column(dcg_exe: str, tmp_path: Path) -> None:
    recs = auditlib.make_history(dcg_exe, tmp_path / "project")
    rows = list(csv.DictReader(io.StringIO(export(dcg_exe, "--format", "csv"))))
    schema = json.loads(auditlib.SCHEMA.read_text())
    assert set(audit.FIELDS) == set(schema["properties"])
    assert [r["id"] for r in rows] == [r["id"] for r in recs]
    assert rows[0]["allowed"] in ("true", "false") and rows[0]["host"] == recs[0]["host"]
    assert {r["via"] for r in rows} >= {"", "confirm"}


def test_a_bad_since_is_one_line(dcg_exe: str) -> None:
    proc = subprocess.run(
        [dcg_exe, "audit", "export", "--since", "yesterday"], capture_output=True, text=True
    )
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "--since" in proc.stderr


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("dcg audit export --since 24h", "none"),
        ("dcg audit export --format csv > /tmp/audit.csv", "none"),
        ("dcg audit ship", "deny"),
        ("OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:9 dcg audit ship", "deny"),
        ("python3 -m dcg audit ship --retries 0", "deny"),
        ("rm ~/.config/dcg/audit-cursor.json", "deny"),
        ("echo '{}' > ~/.config/dcg/audit-cursor.json", "deny"),
    ],
)
def test_an_agent_may_export_but_not_ship_or_touch_the_cursor(
    dcg_exe: str, command: str, expected: str
) -> None:
    auditlib.patient()
    for agent in ("claude", "codex"):
        data = hookpath.encode(hookpath.payload(agent, command))
        assert hookpath.verdict(*hookpath.run(data)) == expected, (agent, command)
    proc = subprocess.run([dcg_exe, "hook"], input=data, capture_output=True, check=False)
    assert hookpath.verdict(proc.returncode, proc.stdout.decode(), proc.stderr.decode()) == expected
