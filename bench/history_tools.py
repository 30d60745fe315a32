"""Time and peak memory of ``dcg history`` and ``dcg audit export`` against history size
(issue 27): ``python bench/history_tools.py [N ...]`` (default 10k, 100k, 1M lines).

For each size a fresh HOME holds a history of N records written in the last hour, so
every record is selected (the worst case: nothing is skipped by the window), and each
command prints all of them to /dev/null. Peak memory is the command's maximum resident
set size (``getrusage`` of the child, measured in a fresh process per command). The
issue asks for less than 100 MB at 1M lines. Measurement only; nothing here runs in CI.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DCG = str(Path(sys.executable).parent / "dcg")
COMMANDS = (
    ("history", "--json"),
    ("history",),
    ("history", "core.git", "--cwd", "/home/dev/p"),
    ("audit", "export"),
    ("audit", "export", "--format", "csv"),
)
# Runs a command with stdout to /dev/null; prints its seconds and peak RSS in KiB.
_MEASURE = """
import resource, subprocess, sys, time
start = time.monotonic()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
took = time.monotonic() - start
print(took, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def write_history(path: Path, n: int) -> None:
    """N schema-2 records of the last hour (commands and directories vary a little)."""
    now = time.time()
    with open(path, "w") as fh:
        for i in range(n):
            ts = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now - 3600 + i * 3000 / n))
            rec = {
                "schema_version": 2, "timestamp": ts, "rule_id": "core.git:reset-hard",
                "pack_id": "core.git", "severity": "high", "response_level": "warning",
                "session_id": f"s{i % 97}", "cwd": f"/home/dev/p/{i % 13}",
                "command_hash": "sha256:" + "0" * 64, "allowed": True, "id": f"{i:026d}",
                "host": "h", "uid": 1000, "command": f"git reset --hard HEAD~{i % 50}",
            }  # fmt: skip
            fh.write(json.dumps(rec, separators=(",", ":")) + "\n")
    os.chmod(path, 0o600)


def measure(env: dict[str, str], args: tuple[str, ...]) -> tuple[float, float]:
    """Seconds and peak RSS (MB) of ``dcg ARGS``."""
    out = subprocess.run([sys.executable, "-c", _MEASURE, DCG, *args], env=env, check=True,
                         capture_output=True, text=True).stdout.split()  # fmt: skip
    return float(out[0]), int(out[1]) / 1024


def main(sizes: list[int]) -> None:
    for n in sizes:
        with tempfile.TemporaryDirectory(dir="/var/tmp") as tmp:
            home = Path(tmp)
            state = home / ".config" / "dcg"
            state.mkdir(parents=True, mode=0o700)
            write_history(state / "history.jsonl", n)
            size = (state / "history.jsonl").stat().st_size / 1e6
            env = dict(os.environ, HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"))
            for args in COMMANDS:
                took, peak = measure(env, args)
                print(f"{n:>9} lines ({size:.0f} MB): dcg {' '.join(args):<36} "
                      f"{took:7.2f}s  peak RSS {peak:6.1f} MB", flush=True)  # fmt: skip


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [10_000, 100_000, 1_000_000])
