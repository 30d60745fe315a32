"""``dcg replay``: what today's policy would have done with every past agent shell command.

Transcripts are streamed (see :mod:`dcg.commands._transcripts`); each command is judged
by the hook's engine with today's packs, and its response level by the graduated
decision with counts kept in memory: one simulated session per transcript session, and
a history window over the replayed commands' own timestamps. Replay reads no state and
writes none: no history, no sessions, no codes.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter, defaultdict, deque
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from dcg.commands._replay_report import Finding
from dcg.errors import DcgError

if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable, Iterator

    from dcg.commands._transcripts import Command, Counts
    from dcg.decision import Response
    from dcg.model import Match

LEVELS = ("warning", "soft_block", "hard_block")
CACHE_SIZE = 50_000


def _epoch(stamp: str) -> float | None:
    if not stamp:
        return None
    try:
        when = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.timestamp()


def since_epoch(value: str | None) -> float | None:
    if value is None:
        return None
    stamp = _epoch(value)
    if stamp is None:
        raise DcgError(f"--since {value!r}: expected a date such as 2026-01-31")
    return stamp


class Graduation:
    """The graduated decision with in-memory counts (the hook's state is never touched)."""

    def __init__(self, response: Response) -> None:
        from dcg.response import DEFAULTS, ResponseConfig

        self.response = ResponseConfig.of(response)
        self.window = float(self.response.history_window) or float(str(DEFAULTS["history_window"]))
        self.sessions: Counter[tuple[str, str]] = Counter()
        self.history: dict[str, deque[float]] = defaultdict(deque)

    def level(self, rule_id: str, severity: str, session_id: str, when: float | None) -> str:
        from dcg.decision import Counts, judge

        self.sessions[(session_id, rule_id)] += 1
        seen = self.history[rule_id]
        if when is not None:
            while seen and seen[0] < when - self.window:
                seen.popleft()
            seen.append(when)
        history = len(seen) if when is not None else 1
        counts = Counts(self.sessions[(session_id, rule_id)], history, False)
        return judge(rule_id, severity, counts, self.response).level


def replay(
    commands: Iterable[Command], packs: list[str], grad: Graduation, since: float | None
) -> Iterator[tuple[Command, Finding | None]]:
    """Each command (after ``since``) with its finding, if the hook would have answered it."""
    from dcg.commands.scan import judge

    # Agents repeat themselves (`git status`, `npm test` in the same directory): the
    # engine's answer for a (command, directory, shell) is kept, within a bound.
    cache: dict[tuple[str, str, str], list[Match]] = {}
    for cmd in commands:
        when = _epoch(cmd.timestamp)
        if since is not None and (when is None or when < since):
            continue
        key = (cmd.text, cmd.cwd, cmd.shell)
        matches = cache.get(key)
        if matches is None:
            if len(cache) >= CACHE_SIZE:
                cache.clear()
            matches = cache[key] = judge(cmd.text, packs, cmd.cwd or None, cmd.shell)
        if not matches:
            yield cmd, None
            continue
        top = matches[0]
        level = grad.level(top.rule_id, top.severity, f"{cmd.agent}:{cmd.session_id}", when)
        yield (
            cmd,
            Finding(
                cmd.text,
                top.rule_id,
                top.severity,
                level,
                cmd.session_id,
                cmd.timestamp,
                cmd.cwd,
                cmd.source,
            ),
        )


def _stream(files: list[tuple[str, str]], counts: Counts, progress: bool) -> Iterator[Command]:
    from dcg.commands._transcripts import read

    if not progress:
        for agent, path in files:
            yield from read(path, agent, counts)
        return
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TimeRemainingColumn

    total = sum(os.path.getsize(p) for _, p in files)
    columns = (BarColumn(), DownloadColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("replaying", total=total)
        for agent, path in files:
            for cmd in read(path, agent, counts):
                yield cmd
                bar.update(task, completed=counts.bytes)
            bar.update(task, completed=counts.bytes)


def main(args: argparse.Namespace) -> int:
    from dcg import config
    from dcg.commands import _replay_report as report
    from dcg.commands._transcripts import Counts, default_paths, given_paths

    since = since_epoch(args.since)
    if args.paths:
        missing = [p for p in args.paths if not os.path.exists(p)]
        if missing:
            raise DcgError(f"{missing[0]}: no such file or directory")
        files = given_paths(list(args.paths))
    else:
        files = default_paths(os.path.expanduser("~"))
    if args.agent:
        files = [(a, p) for a, p in files if a == args.agent]
    cfg = config.load(os.getcwd())
    for problem in cfg.problems:
        print(f"dcg: warning: {problem}", file=sys.stderr)
    counts = Counts()
    summary = report.Summary()
    grad = Graduation(cfg.response)
    stream = _stream(files, counts, progress=sys.stderr.isatty() and not args.json)
    for cmd, finding in replay(stream, cfg.packs, grad, since):
        summary.add(cmd, finding)
    if args.json:
        data = {
            "scanned": summary.scanned,
            "malformed_lines": counts.malformed,
            "findings": [f._asdict() for f in summary.findings],
        }
        print(json.dumps(data, indent=2))
    else:
        print(report.text(summary, counts, len(files)))
    return 0
