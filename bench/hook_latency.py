"""Hook latency benchmark: the registered hook command as a whole process vs a bare start.

Every case is run as a fresh process (the way an agent runs the hook), interleaved with
`python -I -c pass` on the same interpreter (the cases in a new order each round), and
reported as the median of the pairs' ratios. State lives in a throw-away HOME so the
benchmark neither reads nor pollutes yours.
Without options it measures what a user gets: a fresh venv with the current pip, a
regular install of this checkout, and the command its `dcg install` registers.

    python bench/hook_latency.py [--dcg PATH | --registered SETTINGS | --installed-in HOME
                                  | --installers] [--compare PATH] [--rounds 40] [--json]

``--registered`` reads the hook command back from an agent's settings file (Claude
Code's layout), ``--installed-in HOME`` from ``HOME/.claude/settings.json``; ``--dcg``
times ``PATH hook`` through that launcher. ``--installers`` installs with bundled pip,
upgraded pip, pipx and ``uv tool`` (see bench/installers.py) and times each. ``--compare
PATH`` runs the no-keyword and keyword cases with a second dcg launcher in the same
interleaved rounds, so that the two can be compared under one load.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# (name, command, extra environment, target ratio or None)
CASES: list[tuple[str, str, dict[str, str], float | None]] = [
    ("no keyword (ls -la)", "ls -la", {}, 1.10),
    ("safe with keyword (git status)", "git status", {}, 1.35),
    ("stopped (git reset --hard)", "git reset --hard", {"DCG_RESPONSE_MODE": "paranoid"}, 1.60),
    ("matched, 10k history entries", "git reset --hard", {"HISTORY": "10000"}, 1.80),
    (
        "python -c with a deletion",
        "python3 -c \"import shutil; shutil.rmtree('build')\"",
        {"DCG_RESPONSE_MODE": "paranoid"},
        2.5,
    ),
    ("all packs: no keyword", "ls -la", {"DCG_PACKS": "all"}, 1.5),
    (
        "all packs: matched (kubectl)",
        "kubectl delete namespace prod",
        {"DCG_PACKS": "all", "DCG_RESPONSE_MODE": "paranoid"},
        2.0,
    ),
    # A git repository with modified and untracked files: the stop asks git what is at risk.
    (
        "stopped in a git repo (rm -rf src)",
        "rm -rf src",
        {"REPO": "1", "DCG_RESPONSE_MODE": "paranoid"},
        None,
    ),
    (
        "stopped in a git repo (reset --hard)",
        "git reset --hard",
        {"REPO": "1", "DCG_RESPONSE_MODE": "paranoid"},
        None,
    ),
]
# Cases also run with --compare's dcg.
COMPARED = ("no keyword (ls -la)", "safe with keyword (git status)", "stopped (git reset --hard)")

MIXED_CORPUS = [
    "ls -la",
    "git status",
    "git commit -m 'fix: handle rm -rf in docs'",
    "git reset --hard HEAD~1",
    "rm -rf ./build",
    "rm -rf /",
    "npm install && npm test",
    "echo 'git push --force' | tee notes.txt",
    "find . -name '*.pyc' -delete",
    "cd src && make -j4",
    "docker ps -a",
    "sudo rm -rf /etc",
    "bash -c 'git clean -fdx'",
    "python -m pytest -q tests/",
    "grep -rn 'DROP TABLE' migrations/",
    "git push origin main",
    "cat README.md | head -20",
    "git checkout -- src/app.py",
    "kubectl get pods -n prod",
    "terraform plan",
]


def payload(command: str, cwd: str = "/tmp/bench-project") -> bytes:
    return json.dumps(
        {
            "session_id": "bench-session",
            "transcript_path": "/tmp/bench/transcript.jsonl",
            "cwd": cwd,
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command, "description": "benchmark"},
            "tool_use_id": "toolu_bench",
        }
    ).encode()


def interpreter_of(script: str) -> str:
    with open(script, "rb") as f:
        first = f.readline().decode().strip()
    if first.startswith("#!"):
        return first[2:].split()[0]
    return sys.executable


def seed_history(config_dir: Path, entries: int) -> None:
    """Write `entries` history records spread over the last 30 days (a busy user)."""
    config_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    now = time.time()
    rules = [
        "core.git:reset-hard",
        "core.filesystem:rm-rf",
        "core.git:push-force",
        "core.git:clean-force",
    ]
    lines = []
    for i in range(entries):
        ts = now - (entries - i) * (30 * 86400 / entries)
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))
        rule = rules[i % len(rules)]
        record = {
            "schema_version": 1,
            "timestamp": stamp,
            "rule_id": rule,
            "pack_id": rule.split(":")[0],
            "severity": "high",
            "response_level": "warning",
            "session_id": f"s{i // 50}",
            "cwd": "/home/dev/project",
            "command_hash": "sha256:" + f"{i:064x}",
            "allowed": True,
        }
        lines.append(json.dumps(record, separators=(",", ":")))
    path = config_dir / "history.jsonl"
    path.write_text("\n".join(lines) + "\n")
    os.chmod(path, 0o600)


def make_repo(root: Path) -> None:
    """A small repository with modified, staged and untracked files under src/."""
    git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.com", "-C", str(root)]
    (root / "src").mkdir(parents=True)
    for i in range(50):
        (root / "src" / f"m{i}.py").write_text(f"x = {i}\n")
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "bench"], check=True)
    for i in range(5):
        (root / "src" / f"m{i}.py").write_text("changed\n")
        (root / "src" / f"new{i}.py").write_text("new\n")


def run_once(cmd: list[str], data: bytes | None, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, input=data, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def bench_processes(
    hook: list[str],
    rounds: int,
    compare: list[str] | None = None,
    *,
    python: str | None = None,
    cases: list[tuple[str, str, dict[str, str], float | None]] | None = None,
) -> list[dict[str, object]]:
    """Median ratios of the hook command ``hook`` (an argv) to ``python -I -c pass``."""
    python = python or interpreter_of(hook[0])
    base_env = {k: v for k, v in os.environ.items() if not k.startswith("DCG_")}
    timings: dict[str, list[float]] = {"baseline": []}
    # (name, hook argv, payload, environment, target)
    runs: list[tuple[str, list[str], bytes, dict[str, str], float | None]] = []
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        for name, command, extra, target in CASES if cases is None else cases:
            home = Path(tmp) / name.replace(" ", "_").replace("/", "_")
            env = dict(base_env, HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"))
            env["XDG_CACHE_HOME"] = str(home / ".cache")
            env["DCG_SESSION_DIR"] = str(home / "sessions")
            cwd = "/tmp/bench-project"
            for key, value in extra.items():
                if key == "HISTORY":
                    seed_history(home / ".config" / "dcg", int(value))
                elif key == "REPO":
                    cwd = str(home / "repo")
                    make_repo(Path(cwd))
                else:
                    env[key] = value
            runs.append((name, hook, payload(command, cwd), env, target))
            if compare and name in COMPARED:
                runs.append((f"{name} [compare]", compare, payload(command, cwd), env, None))
        for name, *_ in runs:
            timings[name] = []
        for _ in range(3):  # warm the page cache and .pyc files
            run_once([python, "-I", "-c", "pass"], None, base_env)
            for _name, argv, data, env, _target in runs:
                run_once(argv, data, env)
        for _ in range(rounds):
            timings["baseline"].append(run_once([python, "-I", "-c", "pass"], None, base_env))
            # A fixed order favours some places in it (gaps of up to 0.4 in ratio that
            # reversing the order did not reproduce): each round takes its own.
            for name, argv, data, env, _target in random.sample(runs, len(runs)):
                timings[name].append(run_once(argv, data, env))
    base = statistics.median(timings["baseline"])
    rows: list[dict[str, object]] = [
        {"case": "python -I -c pass", "median_ms": round(base * 1000, 2), "ratio": 1.0,
         "target": None}
    ]  # fmt: skip
    for name, _argv, _data, _env, target in runs:
        # The median of the interleaved pairs' ratios: a burst of load hits both of a pair.
        pairs = [t / b for t, b in zip(timings[name], timings["baseline"], strict=True)]
        rows.append(
            {
                "case": name,
                "median_ms": round(statistics.median(timings[name]) * 1000, 2),
                "ratio": round(statistics.median(pairs), 2),
                "target": target,
            }
        )
    return rows


def bench_engine(seconds: float = 2.0) -> float:
    """Commands per second through parse + match, in this process, on one core."""
    src = Path(__file__).resolve().parents[1] / "src"
    sys.path.insert(0, str(src))
    from dcg.engine import evaluate
    from dcg.packs import CORE

    for line in MIXED_CORPUS:  # compile what the corpus needs before timing
        evaluate(line, CORE, cwd="/home/dev/project")
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for line in MIXED_CORPUS:
            evaluate(line, CORE, cwd="/home/dev/project")
        count += len(MIXED_CORPUS)
    return count / (time.perf_counter() - start)


def build_venv(where: Path) -> list[str]:
    """A fresh venv with the current pip, a regular install of this checkout, and the
    hook command its ``dcg install`` registers."""
    import installers

    return installers.venv_install(where, upgrade_pip=True).hook


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--dcg", default=None, help="an installed dcg launcher: times `DCG hook`")
    how.add_argument(
        "--registered", metavar="SETTINGS", help="time the hook a settings file registers"
    )
    how.add_argument(
        "--installed-in", metavar="HOME", help="time the hook `dcg install` wrote under HOME"
    )
    how.add_argument(
        "--installers", action="store_true",
        help="install with bundled pip, upgraded pip, pipx and uv tool; time each registration",
    )  # fmt: skip
    parser.add_argument("--compare", default=None, help="a second dcg to run the same cases with")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    args = parser.parse_args()
    if args.installers:
        import installers

        return installers.main(args.rounds, args.json)
    compare = [args.compare, "hook"] if args.compare else None
    with tempfile.TemporaryDirectory(prefix="bench-venv-") as venv:
        if args.dcg:
            hook = [args.dcg, "hook"]
        elif args.registered or args.installed_in:
            import installers

            settings = args.registered or os.path.join(args.installed_in, ".claude/settings.json")
            hook = installers.registered(settings)
        else:
            hook = build_venv(Path(venv))
        rows = bench_processes(hook, args.rounds, compare, python=python_of(hook))
    throughput = bench_engine()
    missed = [r for r in rows if r["target"] is not None and r["ratio"] > r["target"]]  # type: ignore[operator]
    if throughput < 10_000:
        missed.append({"case": "engine throughput", "ratio": throughput, "target": 10_000})
    shown = " ".join(hook)
    if args.json:
        print(
            json.dumps(
                {"hook": shown, "processes": rows, "engine_commands_per_s": round(throughput)},
                indent=2,
            )
        )
    else:
        print(f"hook: {shown}   rounds: {args.rounds}")
        print(f"{'case':46} {'median ms':>10} {'ratio':>7} {'target':>7}")
        for r in rows:
            target = "" if r["target"] is None else f"<= {r['target']}"
            flag = "  MISSED" if r in missed else ""
            print(f"{r['case']:46} {r['median_ms']:>10} {r['ratio']:>7} {target:>7}{flag}")
        print(
            f"engine throughput (in-process, one core): {throughput:,.0f} commands/s"
            " (target >= 10,000)"
        )
    return 1 if (args.check and missed) else 0


def python_of(hook: list[str]) -> str:
    """The interpreter a hook argv starts: itself for ``python -I -S …``, else a shebang's."""
    if os.path.basename(hook[0]).startswith("python"):
        return hook[0]
    return interpreter_of(hook[0])


if __name__ == "__main__":
    sys.exit(main())
