"""History records are audit records: schema 2, validated as the hook really writes them."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import jsonschema
import pytest

import auditlib
from dcg import paths
from dcg.state import history as hist


@pytest.fixture
def schema() -> dict[str, object]:
    doc: dict[str, object] = json.loads(auditlib.SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(doc)
    return doc


def test_records_the_hook_writes_match_the_published_schema(
    dcg_exe: str, tmp_path: Path, schema: dict[str, object]
) -> None:
    recs = auditlib.make_history(dcg_exe, tmp_path / "project")
    assert len(recs) >= 6
    for rec in recs:
        jsonschema.validate(rec, schema)
    levels = {r["response_level"] for r in recs}
    assert levels == {"warning", "soft_block", "hard_block", "allow"}
    assert any(r.get("via") == "confirm" and r["allowed"] is True for r in recs)
    assert {r["agent"] for r in recs} == {"claude", "codex"}
    assert {r["project"] for r in recs} == {str(tmp_path / "project")}
    assert {r["host"] for r in recs} == {os.uname().nodename}
    assert {r["uid"] for r in recs} == {os.getuid()}
    assert {r.get("user") for r in recs if r["agent"] == "claude"} == {auditlib.USER}
    assert all("user" not in r for r in recs if r["agent"] == "codex")  # no $USER: uid only
    assert len({r["id"] for r in recs}) == len(recs)
    # Ids sort like the records: a ULID starts with the time.
    assert [r["id"][:10] for r in recs] == sorted(r["id"][:10] for r in recs)
    assert not any("sk-live" in str(r.get("command")) for r in recs)


SCHEMA_1 = (
    '{"schema_version":1,"timestamp":"%s","rule_id":"core.git:reset-hard",'
    '"pack_id":"core.git","severity":"high","response_level":"warning","session_id":"s1",'
    '"cwd":"/p","command_hash":"sha256:%s","allowed":true,"command":"git reset --hard"}\n'
)


def test_records_of_schema_1_are_still_read_and_counted(dcg_exe: str, tmp_path: Path) -> None:
    from dcg.state import clock

    now = clock.iso(time.time() - 60)
    path = Path(paths.history_file())
    path.parent.mkdir(parents=True)
    path.write_text(SCHEMA_1 % (now, "0" * 64) * 3)
    path.chmod(0o600)
    hist.record(
        str(path),
        now=time.time(),
        rule_id="core.git:reset-hard",
        pack_id="core.git",
        severity="high",
        response_level="warning",
        session_id="s2",
        cwd="/p",
        command_hash="sha256:" + "1" * 64,
        allowed=True,
        agent="claude",
        project="/p",
    )
    since = time.time() - 3600
    assert hist.count(str(path), "core.git:reset-hard", since=since)[0] == 4
    assert hist.count(str(path), "core.git:reset-hard", since=since, scope="/p")[0] == 4
    fast = hist.count(
        str(path), "core.git:reset-hard", since=since, pack_id="core.git", severity="high"
    )
    assert fast[0] == 4

    def run(*args: str) -> dict[str, object]:
        proc = subprocess.run([dcg_exe, *args], capture_output=True, text=True, check=True)
        doc: dict[str, object] = json.loads(proc.stdout)
        return doc

    assert run("history", "--json")["occurrences"] == 4
    stats = run("stats", "--json")
    assert stats["totals"]["occurrences"] == 4  # type: ignore[index]
    explained = run("explain", "--json", "--cwd", "/p", "git reset --hard")
    assert explained["graduation"]["historyCount"] == 4  # type: ignore[index]
    exported = subprocess.run(
        [dcg_exe, "audit", "export"], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert [json.loads(line)["schema_version"] for line in exported] == [1, 1, 1, 2]
