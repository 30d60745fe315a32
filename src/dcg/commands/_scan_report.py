"""What ``dcg scan`` prints: pretty text, JSON, SARIF or a Markdown table."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dcg.commands._scan_finding import Finding

FORMATS = ("pretty", "json", "sarif", "markdown")


def _one_line(text: str, limit: int = 120) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def pretty(findings: list[Finding], n_files: int, n_commands: int) -> str:
    lines: list[str] = []
    for f in findings:
        lines.append(f"{f.path}:{f.line}:{f.column}: {f.severity.upper()} {f.rule_id}")
        lines.append(f"    {_one_line(f.command)}")
        lines.append(f"    {f.reason}. Safer: {f.alternative}")
    files = len({f.path for f in findings})
    summary = f"{_n(n_commands, 'command')} in {_n(n_files, 'file')} scanned"
    if findings:
        lines.append("")
        lines.append(f"{_n(len(findings), 'finding')} in {_n(files, 'file')} ({summary})")
    else:
        lines.append(f"no findings ({summary})")
    return "\n".join(lines)


def as_json(findings: list[Finding], n_files: int, n_commands: int) -> dict[str, object]:
    return {
        "scanned": {"files": n_files, "commands": n_commands},
        "findings": [
            {
                "path": f.path,
                "line": f.line,
                "column": f.column,
                "rule_id": f.rule_id,
                "severity": f.severity,
                "command": f.command,
                "segment": f.segment,
                "reason": f.reason,
                "alternative": f.alternative,
                "source": f.source,
                "label": f.label,
                "fingerprint": f.fingerprint,
            }
            for f in findings
        ],
    }


def markdown(findings: list[Finding], n_files: int, n_commands: int) -> str:
    if not findings:
        return f"**dcg scan**: no findings ({n_commands} commands in {n_files} files)."
    out = [
        f"**dcg scan**: {len(findings)} findings ({n_commands} commands in {n_files} files)",
        "",
        "| where | severity | rule | command | safer |",
        "|---|---|---|---|---|",
    ]
    for f in findings:
        cmd = _one_line(f.command, 80).replace("|", "\\|").replace("`", "'")
        safer = f.alternative.replace("|", "\\|")
        out.append(f"| `{f.path}:{f.line}` | {f.severity} | `{f.rule_id}` | `{cmd}` | {safer} |")
    return "\n".join(out)


def render(
    fmt: str, findings: list[Finding], n_files: int, n_commands: int, root: str | None
) -> str:
    if fmt == "json":
        return json.dumps(as_json(findings, n_files, n_commands), indent=2)
    if fmt == "sarif":
        from dcg.commands._sarif import sarif

        return json.dumps(sarif(findings), indent=2)
    if fmt == "markdown":
        return markdown(findings, n_files, n_commands)
    return pretty(findings, n_files, n_commands)
