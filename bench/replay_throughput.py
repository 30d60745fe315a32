"""Replay throughput: a generated Claude Code transcript of about 1 GB through `dcg replay`.

The transcript looks like a real one: every Bash call is followed by its tool result
(a few hundred bytes to 16 KB of output), with the occasional large file read; one
command in fifty is destructive. The replay runs as its own process, the way a user runs
it, in a throw-away HOME; peak RSS is that process's, read from getrusage.

    python bench/replay_throughput.py [--size-mb 1024] [--dcg PATH] [--keep] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# {n} makes most commands distinct (a file, a test, a message), so the engine's answer
# cache in replay hits only as often as it would on a real agent's repetitions.
COMMANDS = [
    "ls -la",
    "git status",
    "git diff --stat src/mod_{n}.py",
    "npm test",
    "pytest -q tests/test_api.py::test_{n}",
    "cat src/mod_{n}.py",
    "grep -rn 'TODO {n}' src",
    "git log --oneline -{n}",
    "make build",
    "rm -rf /tmp/build-cache-{n}",
    "cd web && npm run lint -- --max-warnings {n}",
    "python -m pip install -e .",
    "docker compose up -d db",
    "echo 'git reset --hard is dangerous {n}'",
    "git commit -m 'remove the rm -rf / example ({n})'",
    "find . -name '*.pyc' -newer build/{n} -print",
    "sed -n '{n},+20p' src/app.py",
    "git add src/mod_{n}.py && git commit -m 'fix {n}'",
]
DESTRUCTIVE = [
    "git reset --hard",
    'rm -rf "$HOME"',
    "git push --force origin main",
    "git clean -fdx",
    "rm -rf src",
]


def _event(command: str, i: int) -> str:
    return json.dumps(
        {
            "parentUuid": f"p-{i}",
            "isSidechain": False,
            "userType": "external",
            "cwd": f"/home/dev/project-{i % 7}",
            "sessionId": f"session-{i // 400}",
            "version": "2.0.14",
            "gitBranch": "main",
            "type": "assistant",
            "message": {
                "id": f"msg_{i}",
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [
                    {"type": "text", "text": "Let me run that."},
                    {
                        "type": "tool_use",
                        "id": f"toolu_{i}",
                        "name": "Bash",
                        "input": {"command": command, "description": "run a command"},
                    },
                ],
            },
            "uuid": f"u-{i}",
            "timestamp": f"2026-11-{1 + (i // 20000) % 28:02d}T10:{i % 60:02d}:00.000Z",
        }
    )


def _result(i: int, size: int) -> str:
    return json.dumps(
        {
            "type": "user",
            "sessionId": f"session-{i // 400}",
            "timestamp": "2026-11-01T10:00:01.000Z",
            "message": {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": f"toolu_{i}", "content": "o" * size}
                ],
            },
        }
    )


def generate(path: Path, size_bytes: int, seed: int = 7) -> tuple[int, int]:
    """Write the transcript; ``(commands, destructive commands)``."""
    rng = random.Random(seed)
    n = destructive = 0
    written = 0
    with path.open("w") as fh:
        while written < size_bytes:
            if n % 50 == 49:
                command = DESTRUCTIVE[destructive % len(DESTRUCTIVE)]
                destructive += 1
            else:
                command = rng.choice(COMMANDS).format(n=rng.randrange(1_000_000))
            size = rng.choice((200, 800, 1500, 3000, 6000, 16000))
            chunk = _event(command, n) + "\n" + _result(n, size) + "\n"
            fh.write(chunk)
            written += len(chunk)
            n += 1
    return n, destructive


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--size-mb", type=int, default=1024)
    p.add_argument("--dcg", default=str(Path(sys.executable).parent / "dcg"))
    p.add_argument("--keep", action="store_true", help="keep the generated transcript")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="dcg-replay-bench-"))
    try:
        transcript = work / "transcript.jsonl"
        t0 = time.perf_counter()
        n, destructive = generate(transcript, args.size_mb * 2**20)
        generated = time.perf_counter() - t0
        home = work / "home"
        home.mkdir()
        env = dict(os.environ, HOME=str(home), XDG_STATE_HOME=str(home / "state"))
        env["XDG_CONFIG_HOME"] = str(home / "config")
        env["DCG_SESSION_DIR"] = str(home / "sessions")
        start = time.perf_counter()
        proc = subprocess.run(
            [args.dcg, "replay", str(transcript), "--json"],
            env=env,
            capture_output=True,
            check=True,
        )
        elapsed = time.perf_counter() - start
        peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        data = json.loads(proc.stdout)
        result = {
            "transcript_mb": round(transcript.stat().st_size / 2**20),
            "commands": data["scanned"],
            "findings": len(data["findings"]),
            "expected_findings": destructive,
            "seconds": round(elapsed, 2),
            "commands_per_second": round(data["scanned"] / elapsed),
            "mb_per_second": round(transcript.stat().st_size / 2**20 / elapsed, 1),
            "peak_rss_mb": round(peak_kib / 1024, 1),
            "generation_seconds": round(generated, 1),
        }
        assert data["scanned"] == n, (data["scanned"], n)
        if args.json:
            print(json.dumps(result, indent=2))
        else:
            for key, value in result.items():
                print(f"{key:>20}  {value}")
        return 0 if result["findings"] == destructive else 1
    finally:
        if args.keep:
            print(f"kept {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
