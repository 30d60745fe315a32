"""What ``dcg replay`` prints: counts per rule and level, per project, per day, and the findings."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, NamedTuple

from dcg.render import printable

if TYPE_CHECKING:
    from dcg.commands._transcripts import Command, Counts

LEVELS = ("warning", "soft_block", "hard_block")
BAR_WIDTH = 40


class Finding(NamedTuple):
    """A past command that would have been warned about or stopped, and where it was."""

    command: str
    rule_id: str
    severity: str
    level: str
    session_id: str
    timestamp: str
    cwd: str
    source: str


class Summary:
    """Totals gathered while replaying.

    A counter entry per rule, project and day, and the findings themselves (the commands
    that would have been answered, not every command).
    """

    def __init__(self) -> None:
        self.scanned = 0
        self.findings: list[Finding] = []
        self.rules: Counter[tuple[str, str]] = Counter()
        self.projects: Counter[str] = Counter()
        self.days: Counter[str] = Counter()

    def add(self, cmd: Command, finding: Finding | None) -> None:
        self.scanned += 1
        if finding is None:
            return
        self.findings.append(finding)
        self.rules[(finding.rule_id, finding.level)] += 1
        self.projects[finding.cwd or "(unknown)"] += 1
        self.days[finding.timestamp[:10] or "(no date)"] += 1


def _table(summary: Summary) -> list[str]:
    rules = sorted({r for r, _ in summary.rules})
    width = max([len(r) for r in rules] + [4])
    out = [f"  {'rule':<{width}}  {'warning':>7}  {'soft':>5}  {'hard':>5}"]
    for rule in rules:
        w, s, h = (summary.rules[(rule, level)] for level in LEVELS)
        out.append(f"  {rule:<{width}}  {w:>7}  {s:>5}  {h:>5}")
    return out


def _chart(counter: Counter[str], *, by_key: bool) -> list[str]:
    items = sorted(counter.items()) if by_key else counter.most_common(10)
    if not items:
        return []
    top = max(n for _, n in items)
    width = max(len(k) for k, _ in items)
    out = []
    for key, n in items:
        bar = "█" * max(1, round(BAR_WIDTH * n / top))
        out.append(f"  {key:<{width}}  {bar} {n}")
    return out


def text(summary: Summary, counts: Counts, n_files: int) -> str:
    levels = Counter(f.level for f in summary.findings)
    lines = [
        f"dcg replay: {summary.scanned} commands in {n_files} transcripts"
        f" ({counts.lines} lines, {counts.malformed} malformed skipped)",
    ]
    if not summary.findings:
        lines.append("no command would have been warned about or stopped")
        return "\n".join(lines)
    lines.append(
        f"{len(summary.findings)} would have been answered: "
        + ", ".join(f"{levels[level]} {level}" for level in LEVELS)
    )
    lines += ["", "by rule and level:", *_table(summary)]
    lines += ["", "by project:", *_chart(summary.projects, by_key=False)]
    lines += ["", "by day:", *_chart(summary.days, by_key=True)]
    lines += ["", "findings:"]
    for f in summary.findings:
        flat = printable(f.command)
        flat = flat if len(flat) <= 100 else flat[:99] + "…"
        lines.append(f"  {f.timestamp[:19] or '-':<19}  {f.level:<10}  {f.rule_id}")
        lines.append(f"      {flat}")
        lines.append(f"      {f.source}")
    return "\n".join(lines)
