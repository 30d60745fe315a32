"""What the safety net adds to one hook call: `git reset --hard` in a large repository.

Issue 31's bar: in a repository of 10,000 tracked files with 100 modified, keeping the
snapshot adds at most 150 ms to the hook call that lets `git reset --hard` run with a
warning. The registered hook command (``python -I -S <package>/_entry.py``, what ``dcg
install`` writes) answers the same payload with the safety net on and off
(``[safety_net] enabled = false``), in interleaved rounds so that load hits both of a
pair; each call is a first occurrence (a fresh session id, thresholds out of reach), so
each one with the safety net on really makes a snapshot. The command itself never runs:
every round keeps the same 100 modified files.

    python bench/safety_net.py [--files 10000] [--modified 100] [--rounds 30] [--json]
    python bench/safety_net.py --compare OTHER_DCG [--rounds 40]

``--compare`` times the paths the safety net's cheap write check touches (no keyword,
redirections to /dev/null, a write to a new file, a copy, a write over a file git can give
back) through ``dcg hook`` of this checkout and of another install (main's), interleaved,
and reports this one's median time relative to the other's per case.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_MS = 150.0


def make_repo(root: Path, files: int, modified: int) -> None:
    git = ["git", "-c", "user.name=bench", "-c", "user.email=b@example.com", "-C", str(root)]
    for i in range(files):
        d = root / "src" / f"d{i // 100:03d}"
        d.mkdir(parents=True, exist_ok=True)
        (d / f"f{i:05d}.py").write_text(f"# file {i}\nVALUE = {i}\n" + "x = 1\n" * 20)
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "bench"], check=True)
    step = max(files // max(modified, 1), 1)
    for i in range(0, step * modified, step):
        p = root / "src" / f"d{i // 100:03d}" / f"f{i:05d}.py"
        p.write_text(p.read_text() + "# an uncommitted change\n" * 10)
    subprocess.run([*git, "update-index", "-q", "--refresh"], check=False)  # fresh stat data


def hook_argv() -> list[str]:
    """The command `dcg install` registers for this checkout."""
    src = Path(__file__).resolve().parents[1] / "src"
    sys.path.insert(0, str(src))
    from dcg.commands._hookcmd import entry_file

    return [sys.executable, "-I", "-S", entry_file()]


def payload(cwd: Path, session: str) -> bytes:
    return json.dumps(
        {
            "session_id": session,
            "transcript_path": "/tmp/bench/transcript.jsonl",
            "cwd": str(cwd),
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": "git reset --hard", "description": "bench"},
        }
    ).encode()


def run_once(argv: list[str], data: bytes, env: dict[str, str]) -> tuple[float, bytes]:
    start = time.perf_counter()
    proc = subprocess.run(argv, input=data, env=env, capture_output=True, check=False)
    return time.perf_counter() - start, proc.stdout


# (case, command): what the cheap write check sees, and the no-keyword path around it.
PATHS = [
    ("no keyword", "ls -la"),
    ("no keyword, to /dev/null", "ls -la > /dev/null 2>&1"),
    ("no keyword, stderr to stdout", "make 2>&1"),
    ("write to a new file", "echo hi > new-file.txt"),
    ("copy to a new file", "cp README.md copy.md"),
    ("write over a tracked, unchanged file", "echo hi > README.md"),
    ("write over an untracked file (kept)", "echo hi > notes.txt"),
    ("keyword, harmless", "git status"),
]


def compare(other: str, rounds: int, as_json: bool) -> int:
    """This checkout's ``dcg hook`` against ``other`` on the cheap write check's paths."""
    here = [str(Path(sys.executable).parent / "dcg"), "hook"]
    there = [other, "hook"]
    with tempfile.TemporaryDirectory(prefix="bench-paths-") as tmp:
        home = Path(tmp) / "home"
        repo = home / "repo"
        repo.mkdir(parents=True)
        git = ["git", "-c", "user.name=b", "-c", "user.email=b@example.com", "-C", str(repo)]
        (repo / "README.md").write_text("# readme\n")
        subprocess.run([*git, "init", "-q"], check=True)
        subprocess.run([*git, "add", "-A"], check=True)
        subprocess.run([*git, "commit", "-qm", "b"], check=True)
        (repo / "notes.txt").write_text("untracked notes\n")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DCG_", "GIT_"))}
        env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
                   DCG_SESSION_DIR=str(Path(tmp) / "sessions"))  # fmt: skip
        times: dict[tuple[str, str], list[float]] = {}
        for k in range(rounds + 2):
            for case, command in PATHS:
                data = payload_of(repo, command)
                for side, argv in (("this", here), ("other", there)):
                    took, _ = run_once(argv, data, env)
                    if k >= 2:
                        times.setdefault((case, side), []).append(took)
    rows = []
    for case, _ in PATHS:
        a, b = times[(case, "this")], times[(case, "other")]
        rows.append(
            {
                "case": case,
                "this_ms": round(statistics.median(a) * 1000, 1),
                "other_ms": round(statistics.median(b) * 1000, 1),
                "ratio": round(statistics.median(x / y for x, y in zip(a, b, strict=True)), 3),
            }
        )
    if as_json:
        print(json.dumps(rows, indent=2))
    else:
        print(f"{'case':42} {'this ms':>8} {'other ms':>9} {'ratio':>6}  ({rounds} rounds)")
        for r in rows:
            print(f"{r['case']:42} {r['this_ms']:>8} {r['other_ms']:>9} {r['ratio']:>6}")
    return 0


def payload_of(cwd: Path, command: str) -> bytes:
    return json.dumps(
        {
            "session_id": "bench",
            "cwd": str(cwd),
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command},
        }
    ).encode()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare", metavar="OTHER_DCG", help="time the write check's paths")
    parser.add_argument("--files", type=int, default=10000)
    parser.add_argument("--modified", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.compare:
        return compare(args.compare, args.rounds, args.json)
    argv = hook_argv()
    with tempfile.TemporaryDirectory(prefix="bench-safety-") as tmp:
        home = Path(tmp) / "home"
        repo = home / "repo"
        repo.mkdir(parents=True)
        make_repo(repo, args.files, args.modified)
        off = Path(tmp) / "off.toml"
        off.write_text("[safety_net]\nenabled = false\n")
        base = {k: v for k, v in os.environ.items() if not k.startswith(("DCG_", "GIT_"))}
        base.update(
            HOME=str(home),
            XDG_CONFIG_HOME=str(home / ".config"),
            XDG_CACHE_HOME=str(home / ".cache"),
            DCG_SESSION_DIR=str(Path(tmp) / "sessions"),
            DCG_SESSION_THRESHOLD="1000000",
            DCG_HISTORY_THRESHOLD="1000000",
        )
        envs = {"on": dict(base), "off": dict(base, DCG_CONFIG=str(off))}
        times: dict[str, list[float]] = {"on": [], "off": []}
        for k in range(args.rounds + 2):
            for name, env in envs.items():
                took, out = run_once(argv, payload(repo, f"{name}-{k}"), env)
                kept = b"dcg undo" in out
                if kept != (name == "on"):
                    raise SystemExit(f"round {k} {name}: unexpected answer {out[:300]!r}")
                if k >= 2:  # two warm-up rounds
                    times[name].append(took)
    on, off_t = statistics.median(times["on"]), statistics.median(times["off"])
    added = statistics.median(a - b for a, b in zip(times["on"], times["off"], strict=True))
    result = {
        "files": args.files,
        "modified": args.modified,
        "rounds": args.rounds,
        "median_ms_on": round(on * 1000, 1),
        "median_ms_off": round(off_t * 1000, 1),
        "added_ms": round(added * 1000, 1),
        "target_ms": TARGET_MS,
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(
            f"git reset --hard, {args.files} tracked files, {args.modified} modified: "
            f"{result['median_ms_on']} ms with the safety net, {result['median_ms_off']} ms "
            f"without; it adds {result['added_ms']} ms (median of {args.rounds} interleaved "
            f"pairs; target <= {TARGET_MS:.0f} ms)"
        )
    return 0 if added * 1000 <= TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
