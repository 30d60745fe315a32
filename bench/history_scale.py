"""Hook call time against history size (issue 27): ``python bench/history_scale.py [N ...]``.

For each size, a fresh HOME holds a history of N old records (one day old by both
clocks, inside the default 30-day age) and the installed ``dcg hook`` judges one matched
command in new sessions: the first call (which starts the prune), one call while the
prune runs, then (the prune done) the best of three. Prints seconds per call and the steady
state's ratio to the smallest size. Measurement only; nothing here runs in CI.
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
LINE = (
    '{"schema_version":2,"timestamp":"%s",%s"rule_id":"core.git:reset-hard","pack_id":"core.git",'
    '"severity":"high","response_level":"warning","session_id":"x","cwd":"/p","command_hash":'
    '"sha256:00","allowed":true,"id":"01","host":"h","uid":0,"command":"git reset --hard"}\n'
)


def since_boot(offset: float) -> str:
    """The boot id and clock since boot fields the hook writes, ``offset`` seconds from now."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip().replace("-", "")
        up = float(Path("/proc/uptime").read_text().split()[0]) + offset
    except OSError:
        return ""
    return f'"boot":"{boot[:12]}","up":{up:.2f},'


def call(env: dict[str, str], session: str) -> float:
    payload = {
        "session_id": session,
        "cwd": "/home/dev/p",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "git reset --hard HEAD~1"},
    }
    start = time.monotonic()
    subprocess.run([DCG, "hook"], input=json.dumps(payload), env=env, capture_output=True,
                   text=True, check=True)  # fmt: skip
    return time.monotonic() - start


def main(sizes: list[int]) -> None:
    base = None
    for n in sizes:
        with tempfile.TemporaryDirectory(dir="/var/tmp") as tmp:
            home = Path(tmp)
            state = home / ".config" / "dcg"
            state.mkdir(parents=True, mode=0o700)
            ts = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - 86400))
            with open(state / "history.jsonl", "w") as fh:
                chunk = (LINE % (ts, since_boot(-86400))) * 10_000
                for _ in range(n // 10_000):
                    fh.write(chunk)
            os.chmod(state / "history.jsonl", 0o600)
            env = dict(os.environ, HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
                       DCG_SESSION_DIR=str(home / "sessions"))  # fmt: skip
            size = (state / "history.jsonl").stat().st_size
            first = call(env, "a")
            during = call(env, "c")  # while the prune the first call started runs
            deadline = time.monotonic() + 300
            while n > 12_000 and time.monotonic() < deadline:  # over the cap: it shrinks
                if (state / "history.jsonl").stat().st_size < size:
                    break
                time.sleep(0.2)
            while list(state.glob("history.jsonl.tmp.*")):
                time.sleep(0.2)
            second = min(call(env, f"b{i}") for i in range(3))
            base = base or second
            print(f"{n:>9} lines: first call {first:.3f}s, during its prune {during:.3f}s, "
                  f"then {second:.3f}s (x{second / base:.2f} of the smallest size)")  # fmt: skip


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [10_000, 100_000, 1_000_000])
