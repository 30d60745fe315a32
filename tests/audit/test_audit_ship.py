"""`dcg audit ship` against a real OTLP/HTTP endpoint: every record arrives, once, with its facts.

The endpoint (tests/otlpsink.py) decodes the protobuf with opentelemetry-proto. The
shipper runs as the installed binary in a subprocess, the way a timer runs it; the
history it ships was written by the installed hook (tests/auditlib.py).
"""

from __future__ import annotations

import calendar
import json
import os
import pwd
import signal
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

import auditlib
from dcg import paths
from dcg.commands import audit
from dcg.state import history as hist
from otlpsink import Sink

FAST = ["--retries", "6", "--backoff", "0.05", "--timeout", "0.5"]


@pytest.fixture
def sink() -> Iterator[Sink]:
    with Sink() as s:
        yield s


@pytest.fixture(autouse=True)
def _no_otel_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in list(os.environ):
        if var.startswith("OTEL_"):
            monkeypatch.delenv(var)


def ship(exe: str, sink: Sink, *args: str, env: dict[str, str] | None = None) -> int:
    proc = subprocess.run(
        [exe, "audit", "ship", *args],
        env=dict(os.environ, OTEL_EXPORTER_OTLP_ENDPOINT=sink.url, **(env or {})),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode


def cursor() -> dict[str, object]:
    doc: dict[str, object] = json.loads(Path(audit.cursor_file()).read_text())
    return doc


def test_every_record_arrives_once_with_its_attributes(
    dcg_exe: str, tmp_path: Path, sink: Sink
) -> None:
    recs = auditlib.make_history(dcg_exe, tmp_path / "project")
    assert ship(dcg_exe, sink) == 0
    assert Counter(sink.uids()) == Counter(str(r["id"]) for r in recs)
    by_uid = {r.uid: r for r in sink.records}
    for rec in recs:
        got = by_uid[str(rec["id"])]
        a = got.attributes
        assert a["dcg.rule.id"] == rec["rule_id"] and a["dcg.pack.id"] == rec["pack_id"]
        assert a["dcg.severity"] == rec["severity"] and a["dcg.level"] == rec["response_level"]
        assert a["dcg.allowed"] is rec["allowed"] and a.get("dcg.via") == rec.get("via")
        assert a["host.name"] == rec["host"] == os.uname().nodename
        # A record made without $USER is named from its uid by the shipper.
        assert a["user.name"] == rec.get("user", pwd.getpwuid(os.getuid()).pw_name)
        assert a["user.id"] == str(os.getuid())
        assert a["dcg.agent"] == rec["agent"] and a["dcg.project"] == str(tmp_path / "project")
        assert a["session.id"] == rec["session_id"] and a["dcg.cwd"] == rec["cwd"]
        assert a["dcg.command"] == rec["command"] == got.body
        stamp = calendar.timegm(time.strptime(str(rec["timestamp"]), "%Y-%m-%dT%H:%M:%SZ"))
        assert got.time_unix_nano == stamp * 1_000_000_000
        assert got.severity_text == rec["response_level"]
        assert got.severity_number == audit_severity(str(rec["response_level"]))
        assert got.event_name == "dcg.decision" and got.scope == "dcg.audit"
        assert got.resource["service.name"] == "dcg"
    assert Path(audit.cursor_file()).stat().st_mode & 0o777 == 0o600
    # Nothing new: nothing sent. New records: only they are sent.
    assert ship(dcg_exe, sink) == 0
    assert len(sink.records) == len(recs)
    more = auditlib.make_history(dcg_exe, tmp_path / "project")[len(recs) :]
    assert more
    assert ship(dcg_exe, sink) == 0
    assert Counter(sink.uids()) == Counter(str(r["id"]) for r in recs + more)


def audit_severity(level: str) -> int:
    return {"allow": 9, "warning": 13, "soft_block": 13, "hard_block": 17}[level]


def test_killed_after_the_collector_got_a_batch_then_run_again(
    dcg_exe: str, tmp_path: Path, sink: Sink
) -> None:
    recs = auditlib.make_history(dcg_exe, tmp_path / "project", rounds=2)
    assert len(recs) >= 9
    sink.hold_request = 2  # the second batch arrives and is never answered
    proc = subprocess.Popen(
        [dcg_exe, "audit", "ship", "--batch-size", "3", "--timeout", "60"],
        env=dict(os.environ, OTEL_EXPORTER_OTLP_ENDPOINT=sink.url),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert sink.held.wait(60), "the shipper never sent a second batch"
        assert len(sink.records) == 6  # the collector has two batches...
        proc.send_signal(signal.SIGKILL)  # ...and the shipper dies before its acknowledgement
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert cursor()["shipped"] == 3  # only the acknowledged batch moved the cursor
    sink.hold_request = None
    assert ship(dcg_exe, sink, "--batch-size", "3", *FAST) == 0
    counts = Counter(sink.uids())
    assert set(counts) == {str(r["id"]) for r in recs}  # nothing lost
    # The unanswered batch came again, nothing else did: the pipeline drops the repeats
    # by log.record.uid, so each record is there once.
    assert sorted(uid for uid, n in counts.items() if n > 1) == sorted(
        str(r["id"]) for r in recs[3:6]
    )
    assert max(counts.values()) == 2


def test_a_collector_that_refuses_for_a_while(dcg_exe: str, tmp_path: Path, sink: Sink) -> None:
    recs = auditlib.make_history(dcg_exe, tmp_path / "project", rounds=2)
    # Down for longer than one run retries: nothing is lost, the cursor stays.
    sink.refuse = 1000
    assert ship(dcg_exe, sink, "--batch-size", "4", "--retries", "2", "--backoff", "0.05",
                "--timeout", "0.5") == 1  # fmt: skip
    assert sink.records == [] and not Path(audit.cursor_file()).exists()
    # Refusing a few requests, mid-run: retried with backoff, every record once.
    sink.refuse = 3
    assert ship(dcg_exe, sink, "--batch-size", "4", *FAST) == 0
    assert Counter(sink.uids()) == Counter(str(r["id"]) for r in recs)
    assert max(Counter(sink.uids()).values()) == 1
    # Refused after the first batch: the run stops, the next run resumes from the cursor.
    more = auditlib.make_history(dcg_exe, tmp_path / "project", rounds=2)[len(recs) :]
    assert len(more) > 4
    sink.refuse_after = sink.requests + 1
    assert ship(dcg_exe, sink, "--batch-size", "4", "--retries", "0", "--timeout", "0.5") == 1
    assert cursor()["shipped"] == len(recs) + 4
    sink.refuse_after = None
    assert ship(dcg_exe, sink, "--batch-size", "4", *FAST) == 0
    assert Counter(sink.uids()) == Counter(str(r["id"]) for r in recs + more)
    assert max(Counter(sink.uids()).values()) == 1


def test_a_pruned_or_truncated_history_neither_repeats_nor_loses(
    dcg_exe: str, tmp_path: Path, sink: Sink
) -> None:
    recs = auditlib.make_history(dcg_exe, tmp_path / "project", rounds=2)
    assert ship(dcg_exe, sink) == 0
    path = paths.history_file()
    # Pruning rewrites the file without its oldest records: the offset is stale.
    hist.prune(path, now=time.time(), max_age=86400, max_entries=3)
    more = auditlib.make_history(dcg_exe, tmp_path / "project")[3:]
    assert ship(dcg_exe, sink) == 0
    assert Counter(sink.uids()) == Counter(str(r["id"]) for r in recs + more)
    # Truncated (or replaced): what is there now is new, and is sent.
    Path(path).write_text("")
    again = auditlib.make_history(dcg_exe, tmp_path / "project")
    assert ship(dcg_exe, sink) == 0
    assert Counter(sink.uids()) == Counter(str(r["id"]) for r in recs + more + again)


def test_the_managed_endpoint_wins_and_a_user_config_cannot_redirect(
    dcg_exe: str, tmp_path: Path, sink: Sink
) -> None:
    recs = auditlib.make_history(dcg_exe, tmp_path / "project")
    managed = Path(paths.managed_file())
    managed.parent.mkdir(parents=True, exist_ok=True)
    managed.write_text(f'[audit]\nendpoint = "{sink.url}"\nheaders = {{ "x-team" = "core" }}\n')
    user = Path(paths.user_config())
    user.write_text(user.read_text() + '[audit]\nendpoint = "http://127.0.0.1:9/v1/logs"\n')
    proc = subprocess.run(
        [dcg_exe, "audit", "ship", *FAST],
        env=dict(os.environ, OTEL_EXPORTER_OTLP_ENDPOINT="http://127.0.0.1:9"),
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "managed policy" in proc.stderr
    assert Counter(sink.uids()) == Counter(str(r["id"]) for r in recs)
    problems = subprocess.run([dcg_exe, "doctor"], capture_output=True, text=True).stdout
    assert "only the system config or the managed policy" in problems


def test_without_the_otel_extra_a_one_line_error(dcg_exe: str, tmp_path: Path) -> None:
    fake = tmp_path / "fake"
    (fake / "opentelemetry").mkdir(parents=True)
    (fake / "opentelemetry" / "__init__.py").write_text("raise ImportError('not installed')\n")
    proc = subprocess.run(
        [dcg_exe, "audit", "ship"],
        env=dict(os.environ, PYTHONPATH=str(fake)),
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "dcg: error: dcg audit ship needs the OpenTelemetry SDK: pip install 'dcg[otel]'"
    ]


def _small_history(max_entries: int) -> None:
    user = Path(paths.user_config())
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text(f"[hook]\nbudget_ms = 20000\n[history]\nmax_entries = {max_entries}\n")


def _hook_records(exe: str, cwd: Path, n: int, *, prune_each: bool = True) -> list[str]:
    """``n`` records through the installed hook, one session each (every one a warning);
    their ids. With ``prune_each`` the prune stamp is aged after every call, so each call
    that finds the history over ``max_entries`` prunes it."""
    env = dict(os.environ, USER=auditlib.USER)
    stamp = Path(paths.config_dir()) / ".prune-stamp"
    path = Path(paths.history_file())
    ids = []
    for i in range(n):
        body = auditlib.hookpath.payload("claude", "git reset --hard HEAD~1", cwd=str(cwd))
        body["session_id"] = f"ship-{time.monotonic_ns()}-{i}"
        proc = subprocess.run(
            [exe, "hook"], input=json.dumps(body).encode(), capture_output=True, env=env
        )
        assert proc.returncode == 0 and b"Traceback" not in proc.stderr, proc.stderr
        last = path.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[-1]
        ids.append(str(json.loads(last)["id"]))
        if prune_each and stamp.exists():
            os.utime(stamp, (1, 1))
    return ids


def test_pruning_between_runs_never_skips_an_unsent_record(
    dcg_exe: str, tmp_path: Path, sink: Sink
) -> None:
    """2 x max_entries records written between two runs, the history pruned (by the hook)
    all along: each reaches the collector once, by log.record.uid (issue 26 point 3)."""
    max_entries = 12
    _small_history(max_entries)
    cwd = tmp_path / "project"
    cwd.mkdir()
    first = _hook_records(dcg_exe, cwd, 6)
    assert ship(dcg_exe, sink) == 0
    unsent = _hook_records(dcg_exe, cwd, 2 * max_entries)
    left = Path(paths.history_file()).read_text().splitlines()
    assert len(left) < len(first) + len(unsent)  # pruned: shipped records went
    assert len(left) > max_entries  # but not the unsent ones
    assert ship(dcg_exe, sink) == 0
    got = Counter(sink.uids())
    assert got == Counter(first + unsent) and max(got.values()) == 1
    assert not (Path(paths.config_dir()) / hist.UNSENT_NAME).exists()
    # Shipped, the held records are pruned as usual.
    _hook_records(dcg_exe, cwd, 1)
    assert len(Path(paths.history_file()).read_text().splitlines()) <= max_entries
    assert ship(dcg_exe, sink) == 0
    assert max(Counter(sink.uids()).values()) == 1


def test_past_the_bound_the_oldest_unsent_are_dropped_and_reported(
    dcg_exe: str, tmp_path: Path, sink: Sink
) -> None:
    """Past HOLD x max_entries unsent records pruning drops the oldest: the hook says so,
    the next run sends every record still there once and reports the count, exit 1."""
    max_entries = 3
    bound = hist.HOLD * max_entries
    _small_history(max_entries)
    cwd = tmp_path / "project"
    cwd.mkdir()
    first = _hook_records(dcg_exe, cwd, 2)
    assert ship(dcg_exe, sink) == 0
    unsent = _hook_records(dcg_exe, cwd, bound + 4)
    proc = subprocess.run(
        [dcg_exe, "audit", "ship", *FAST],
        env=dict(os.environ, OTEL_EXPORTER_OTLP_ENDPOINT=sink.url),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1, proc.stderr
    got = Counter(sink.uids())
    assert max(got.values()) == 1
    lost = [u for u in unsent if u not in got]
    assert lost == unsent[: len(lost)]  # only the oldest, and
    assert 1 <= len(lost) <= 4 and set(unsent[len(lost) :]) | set(first) == set(got)
    assert f"{len(lost)} record" in proc.stderr and "pruned" in proc.stderr
    assert ship(dcg_exe, sink) == 0  # said once


def test_set_up_but_never_run_pruning_still_holds_the_records(
    dcg_exe: str, tmp_path: Path, sink: Sink
) -> None:
    """An [audit] endpoint in the system config, no run yet (no cursor): the records the
    hook writes past max_entries are held for the first run, which sends each once."""
    max_entries = 8
    _small_history(max_entries)
    system = Path(paths.system_config())
    system.parent.mkdir(parents=True, exist_ok=True)
    system.write_text(f'[audit]\nendpoint = "{sink.url}"\n')
    cwd = tmp_path / "project"
    cwd.mkdir()
    ids = _hook_records(dcg_exe, cwd, 2 * max_entries + 2)
    assert not Path(audit.cursor_file()).exists()
    proc = subprocess.run(
        [dcg_exe, "audit", "ship", *FAST], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0 and "system config" in proc.stderr, proc.stderr
    got = Counter(sink.uids())
    assert got == Counter(ids) and max(got.values()) == 1


def test_without_shipping_pruning_keeps_max_entries(dcg_exe: str, tmp_path: Path) -> None:
    """The control: nothing ships this history, so nothing is held."""
    max_entries = 8
    _small_history(max_entries)
    cwd = tmp_path / "project"
    cwd.mkdir()
    _hook_records(dcg_exe, cwd, 2 * max_entries + 2)
    assert len(Path(paths.history_file()).read_text().splitlines()) <= max_entries * 1.2
