"""Concurrent hooks: 4 processes x 250 matches of one rule in one session lose nothing."""

from __future__ import annotations

import json
import multiprocessing
import os
from pathlib import Path

from dcg import paths


def _worker(n: int) -> None:
    # Each process builds its own match and request, as a fresh hook process would.
    from dcg import graduation
    from dcg.hookio import HookRequest
    from dcg.model import Match, Pack, Rule
    from dcg.shell.command import Command

    rule = Rule(
        "reset-hard",
        severity="high",
        pattern="x",
        reason="r",
        explanation="e",
        alternative="git stash",
    )
    match = Match(
        Pack("core.git", description="d", rules=(rule,)), rule, Command(("git", "reset", "--hard"))
    )
    request = HookRequest("claude", "git reset --hard", cwd="/p", session_id="shared")
    for _ in range(n):
        assert graduation.respond(match, request, {}, {}) is not None


def test_four_processes_250_each() -> None:
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_worker, args=(250,)) for _ in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    lines = Path(paths.history_file()).read_text().splitlines()
    assert len(lines) == 1000
    recs = [json.loads(line) for line in lines]
    assert all(r["rule_id"] == "core.git:reset-hard" and r["schema_version"] == 2 for r in recs)
    assert len({r["id"] for r in recs}) == 1000  # every record has its own id
    sessions = [p for p in Path(paths.session_dir()).iterdir() if p.suffix == ".json"]
    assert len(sessions) == 1
    doc = json.loads(sessions[0].read_text())
    assert doc["occurrences"] == {"core.git:reset-hard": 1000}
    levels = {r["response_level"] for r in recs}
    assert levels == {"warning", "soft_block", "hard_block"}
    assert sorted(os.listdir(paths.session_dir())) == sorted([".prune-stamp", sessions[0].name])


def test_four_processes_after_a_torn_tail() -> None:
    """The same race starting from a history whose last line was cut: the fragment stays
    one line of its own (or is pruned: the first hook prunes), and all 1,000 records are
    whole lines after it."""
    path = Path(paths.history_file())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b'{"schema_version":2,"timestamp":"2026-01-01T00:00:00Z","rule_id":"core.g')
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_worker, args=(250,)) for _ in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    lines = path.read_text().splitlines()
    if not lines[0].endswith("}"):
        lines = lines[1:]
    recs = [json.loads(line) for line in lines]
    assert len(recs) == 1000
    assert len({r["id"] for r in recs}) == 1000
    assert not [p for p in os.listdir(path.parent) if ".tmp" in p]
