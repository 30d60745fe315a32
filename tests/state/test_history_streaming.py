"""``dcg history`` and ``dcg audit export`` stream the history (issue 27): memory does not grow
with the file, and what they print is what reading the whole file printed.

Memory is the peak resident set of the installed command, measured in a fresh process per
run (``getrusage`` of its child), at 5,000 and at 50,000 records of the last hour (every
record selected and printed). Reading the whole file held every record as a dict: 50,000
of them took well over 100 MB more than 5,000; streaming stays within a few MB.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

SMALL, LARGE = 5_000, 50_000
# What 45,000 more records may add to the peak: a block, a batch, allocator noise.
GROWTH_MB = 12.0

_MEASURE = """
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def history_file() -> Path:
    return Path(os.environ["XDG_CONFIG_HOME"]) / "dcg" / "history.jsonl"


def record(i: int, now: float, n: int) -> dict[str, object]:
    rec: dict[str, object] = {
        "schema_version": 2,
        "timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now - 3600 + i * 3000 / n)),
        "rule_id": "core.git:reset-hard" if i % 4 else "core.filesystem:rm-rf-root-home",
        "pack_id": "core.git" if i % 4 else "core.filesystem",
        "severity": "high",
        "response_level": ("warning", "soft_block", "hard_block")[i % 3],
        "session_id": f"session-{i % 97}",
        "cwd": f"/home/dev/p/{i % 13}",
        "command_hash": "sha256:" + "0" * 64,
        "allowed": i % 3 == 0,
        "id": f"{i:026d}",
        "host": "h",
        "uid": 1000,
        "command": f"git reset --hard HEAD~{i % 50} # {'x' * (i % 40)}",
    }
    if i % 17 == 0:
        rec["via"] = "confirm"
    return rec


def write_history(n: int) -> None:
    path = history_file()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    now = time.time()
    with open(path, "w") as fh:
        for i in range(n):
            fh.write(json.dumps(record(i, now, n), separators=(",", ":")) + "\n")
    path.chmod(0o600)


def peak_mb(exe: str, *args: str) -> float:
    out = subprocess.run(
        [sys.executable, "-c", _MEASURE, exe, *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout
    return int(out.split()[-1]) / 1024


COMMANDS = [
    pytest.param(("history", "--json"), id="history-json"),
    pytest.param(("history", "--window", "2h"), id="history-table"),
    pytest.param(("history", "core.git", "--cwd", "/home/dev/p/3", "--json"), id="history-filters"),
    pytest.param(("stats", "--json"), id="stats"),
    pytest.param(("audit", "export"), id="export-jsonl"),
    pytest.param(("audit", "export", "--format", "csv", "--since", "2h"), id="export-csv"),
]


@pytest.mark.slow
@pytest.mark.parametrize("args", COMMANDS)
def test_memory_does_not_grow_with_the_history(dcg_exe: str, args: tuple[str, ...]) -> None:
    write_history(SMALL)
    small = peak_mb(dcg_exe, *args)
    write_history(LARGE)
    large = peak_mb(dcg_exe, *args)
    assert large - small < GROWTH_MB, (small, large)


def test_the_whole_selection_is_printed_as_before(dcg_exe: str) -> None:
    """Past one table's worth of rows the records are written line by line: every one is
    there, in order, with the summary first; JSON is the document it always was."""
    n = 2_500
    write_history(n)

    def run(*args: str) -> str:
        proc = subprocess.run([dcg_exe, *args], capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    now = time.time()
    recs = [record(i, now, n) for i in range(n)]
    doc = json.loads(run("history", "--json"))
    assert [r["id"] for r in doc["records"]] == [r["id"] for r in recs]
    assert doc["occurrences"] == sum(1 for r in recs if "via" not in r)
    assert list(doc) == ["schema_version", "rule_id", "window_seconds", "cwd", "occurrences",
                         "records"]  # fmt: skip
    picked = json.loads(run("history", "core.filesystem", "--cwd", "/home/dev/p/4", "--json"))
    want = [r["id"] for r in recs if r["rule_id"].startswith("core.filesystem:")
            and r["cwd"] == "/home/dev/p/4"]  # fmt: skip
    assert [r["id"] for r in picked["records"]] == want and want
    text = run("history").splitlines()
    assert text[0] == f"{doc['occurrences']} occurrences in the last 24h."
    rows = [ln for ln in text if "HEAD~" in ln]
    assert len(rows) == n
    assert [int(ln.split("HEAD~")[1].split()[0]) for ln in rows] == [i % 50 for i in range(n)]
    assert len({ln.index("│") for ln in rows}) == 1  # the columns line up
    exported = run("audit", "export").splitlines()
    assert [json.loads(ln)["id"] for ln in exported] == [r["id"] for r in recs]
    csv = run("audit", "export", "--format", "csv").splitlines()
    assert len(csv) == n + 1 and csv[0].startswith("schema_version,timestamp,id,")


def test_a_disguised_record_is_printed_escaped_past_one_table(dcg_exe: str) -> None:
    write_history(1_500)
    rec = record(0, time.time(), 1)
    rec.update(command="rm -rf src\x1b[2K\recho fine", cwd="/p\x1b]0;x\x07", rule_id="a:b\x1b[1A")
    with open(history_file(), "a") as fh:
        fh.write(json.dumps(rec) + "\n")
    out = subprocess.run([dcg_exe, "history"], capture_output=True, text=True, timeout=120).stdout
    assert "\x1b" not in out and "\r" not in out and "\x07" not in out
    assert "rm -rf src\\x1b[2K\\recho fine" in out


def test_a_huge_damaged_line_is_skipped_in_bounded_memory(dcg_exe: str) -> None:
    """A line of 40 MB without a newline (no record of dcg's is that long) is dropped
    while it is read, not held: the records around it are still printed."""
    write_history(10)
    with open(history_file(), "ab") as fh:
        fh.write(b"x" * (40 << 20) + b"\n")
        fh.write((json.dumps(record(5, time.time(), 10)) + "\n").encode())
    assert peak_mb(dcg_exe, "audit", "export") < 100
    out = subprocess.run([dcg_exe, "audit", "export"], capture_output=True, text=True).stdout
    assert len(out.splitlines()) == 11
