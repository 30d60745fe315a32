"""New-user trial: run bench/trial/commands.tsv through dcg's `dcg test` path and score it."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from dcg.config import Config

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "trial" / "commands.tsv"
CATEGORIES = ("everyday", "destructive", "adversarial", "data")
# A fake home outside every temp root: with HOME under /tmp, `rm -rf ~/x` would look like a
# temp-dir deletion and the trial would measure nothing. It does not exist, so nothing there
# can be read or written; config and session state go to a throwaway temp directory.
HOME = "/home/dcg-trial"
CWD = HOME + "/src/app"
NEWLINE_MARK = "\u23ce"
# --check fails when any category's share is below this (stop share for must-stop
# categories, pass share for must-pass ones). The lead can tighten it as the fixes land.
DEFAULT_THRESHOLD = 0.95


class Case(NamedTuple):
    line: int
    expect: str
    packs: tuple[str, ...]
    category: str
    command: str
    shell: str


class Result(NamedTuple):
    case: Case
    stopped: bool
    rules: tuple[str, ...]
    error: str | None

    @property
    def ok(self) -> bool:
        return self.error is None and self.stopped == (self.case.expect == "stop")


def read_corpus(path: Path) -> list[Case]:
    """Parse the TSV; malformed lines are an error, not silently skipped."""
    cases: list[Case] = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip() or raw.startswith("#"):
            continue
        fields = raw.split("\t")
        if len(fields) not in (4, 5):
            raise SystemExit(f"{path}:{number}: expected 4 or 5 tab-separated fields")
        expect, packs, category, command = fields[:4]
        shell = fields[4] if len(fields) == 5 else "bash"
        if expect not in ("stop", "pass") or category not in CATEGORIES:
            raise SystemExit(f"{path}:{number}: bad expect {expect!r} or category {category!r}")
        if shell not in ("bash", "powershell"):
            raise SystemExit(f"{path}:{number}: bad shell {shell!r}")
        pack_ids = () if packs == "-" else tuple(p for p in packs.split(",") if p)
        text = command.replace(NEWLINE_MARK, "\n")
        cases.append(Case(number, expect, pack_ids, category, text, shell))
    return cases


@contextlib.contextmanager
def isolated_environment(scratch: str) -> Iterator[None]:
    """Point every location dcg reads or writes at throwaway paths, then restore."""
    keys = ("HOME", "XDG_CONFIG_HOME", "DCG_SESSION_DIR", "TMPDIR", "DCG_CONFIG", "DCG_PACKS")
    saved = {k: os.environ.get(k) for k in keys}
    for k in keys:
        os.environ.pop(k, None)
    os.environ["HOME"] = HOME
    os.environ["XDG_CONFIG_HOME"] = os.path.join(scratch, "xdg")
    os.environ["DCG_SESSION_DIR"] = os.path.join(scratch, "sessions")
    os.environ["TMPDIR"] = "/tmp"
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def run_cases(cases: Sequence[Case]) -> list[Result]:
    """Evaluate each case the way `dcg test` does: config.load with --with-packs, run_engine."""
    from dcg import config
    from dcg.commands.test import evaluate
    from dcg.hookio import HookRequest

    configs: dict[tuple[str, ...], Config] = {}
    results: list[Result] = []
    for case in cases:
        cfg = configs.get(case.packs)
        if cfg is None:
            cfg = config.load(CWD, os.environ, {"with_packs": list(case.packs)})
            unknown = [p for p in cfg.problems if p.startswith("unknown pack")]
            if unknown:
                raise SystemExit(f"line {case.line}: {unknown[0]}")
            configs[case.packs] = cfg
        request = HookRequest("cli", case.command, cwd=CWD, shell=case.shell, tool="cli")
        try:
            evaluation = evaluate(cfg, request)
        except Exception as exc:  # a crash is a finding, not a reason to stop the trial
            results.append(Result(case, False, (), f"{type(exc).__name__}: {exc}"))
            continue
        rules = tuple(m.rule_id for m in evaluation.matches)
        results.append(Result(case, bool(rules), rules, None))
    return results


def summarise(results: Sequence[Result]) -> dict[str, object]:
    per: dict[str, dict[str, object]] = {}
    for category in CATEGORIES:
        rows = [r for r in results if r.case.category == category]
        if not rows:
            continue
        good = sum(r.ok for r in rows)
        expect = rows[0].case.expect
        per[category] = {
            "measure": "stopped" if expect == "stop" else "passed",
            "ok": good,
            "total": len(rows),
            "share": good / len(rows),
        }
    must_stop = [r for r in results if r.case.expect == "stop"]
    must_pass = [r for r in results if r.case.expect == "pass"]

    def share(rows: Sequence[Result]) -> float:
        return sum(r.ok for r in rows) / len(rows) if rows else 1.0

    return {
        "categories": per,
        "must_stop": {
            "ok": sum(r.ok for r in must_stop),
            "total": len(must_stop),
            "share": share(must_stop),
        },
        "must_pass": {
            "ok": sum(r.ok for r in must_pass),
            "total": len(must_pass),
            "share": share(must_pass),
        },
        "misses": [
            {
                "line": r.case.line,
                "category": r.case.category,
                "expect": r.case.expect,
                "packs": list(r.case.packs),
                "shell": r.case.shell,
                "command": r.case.command,
                "rules": list(r.rules),
                "error": r.error,
            }
            for r in results
            if not r.ok
        ],
    }


def print_text(summary: dict[str, object], elapsed: float) -> None:
    categories = summary["categories"]
    assert isinstance(categories, dict)
    print(f"{'category':<12} {'measure':<8} {'ok':>5} {'total':>6} {'share':>7}")
    for name, row in categories.items():
        print(
            f"{name:<12} {row['measure']:<8} {row['ok']:>5} {row['total']:>6} {row['share']:>7.1%}"
        )
    for key, label in (("must_stop", "must-stop stopped"), ("must_pass", "must-pass passed")):
        row = summary[key]
        assert isinstance(row, dict)
        print(f"overall {label}: {row['ok']}/{row['total']} = {row['share']:.1%}")
    print(f"({elapsed:.2f}s)")
    misses = summary["misses"]
    assert isinstance(misses, list)
    if misses:
        print(f"\n{len(misses)} misses:")
    for m in misses:
        what = m["error"] or (", ".join(m["rules"]) if m["rules"] else "no rule matched")
        packs = ",".join(m["packs"]) or "-"
        shell = " [powershell]" if m["shell"] == "powershell" else ""
        command = m["command"].replace("\n", NEWLINE_MARK)
        print(
            f"  L{m['line']:<5} {m['category']:<11} want {m['expect']:<4} packs={packs}"
            f"{shell}\n         {command}\n         -> {what}"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument(
        "--check", action="store_true", help="exit 1 if any category share is under --threshold"
    )
    parser.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD)
    args = parser.parse_args(argv)

    cases = read_corpus(args.corpus)
    with (
        tempfile.TemporaryDirectory(prefix="dcg-trial-") as scratch,
        isolated_environment(scratch),
    ):
        start = time.perf_counter()
        results = run_cases(cases)
        elapsed = time.perf_counter() - start
    summary = summarise(results)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print_text(summary, elapsed)
    if args.check:
        categories = summary["categories"]
        assert isinstance(categories, dict)
        low = [n for n, row in categories.items() if row["share"] < args.threshold]
        if low:
            print(f"under {args.threshold:.0%}: {', '.join(low)}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
