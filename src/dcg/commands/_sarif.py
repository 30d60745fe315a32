"""SARIF 2.1.0 for ``dcg scan --format sarif``, in the shape GitHub code scanning reads.

One run; ``tool.driver`` lists the rules that have results (id, short and full
description, help with the safer alternative, default level from the severity, and a
``security-severity`` so GitHub ranks them); each result points at the repository-relative
file, line and column, and carries a ``partialFingerprints`` entry that depends on the
rule, file and command but not the line, so a finding does not come back as new when
code above it moves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dcg import __version__

if TYPE_CHECKING:
    from dcg.commands._scan_finding import Finding

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVEL = {"critical": "error", "high": "error", "medium": "warning", "low": "note"}
# GitHub's ranks: critical >= 9.0, high 7.0-8.9, medium 4.0-6.9, low < 4.0.
SECURITY_SEVERITY = {"critical": "9.5", "high": "8.0", "medium": "5.0", "low": "2.0"}


def _rule(f: Finding) -> dict[str, object]:
    help_text = f"{f.explanation}\n\nSafer: {f.alternative}" if f.explanation else f.alternative
    return {
        "id": f.rule_id,
        "name": f.rule_id.rsplit(":", 1)[-1],
        "shortDescription": {"text": f.reason},
        "fullDescription": {"text": f.explanation or f.reason},
        "help": {
            "text": help_text,
            "markdown": f"{f.explanation}\n\n**Safer:** {f.alternative}",
        },
        "defaultConfiguration": {"level": LEVEL[f.severity]},
        "properties": {
            "tags": ["security", "destructive-command", f.rule_id.split(":", 1)[0]],
            "security-severity": SECURITY_SEVERITY[f.severity],
            "precision": "high",
        },
    }


def sarif(findings: list[Finding]) -> dict[str, object]:
    rules: list[dict[str, object]] = []
    index: dict[str, int] = {}
    results: list[dict[str, object]] = []
    for f in findings:
        if f.rule_id not in index:
            index[f.rule_id] = len(rules)
            rules.append(_rule(f))
        results.append(
            {
                "ruleId": f.rule_id,
                "ruleIndex": index[f.rule_id],
                "level": LEVEL[f.severity],
                "message": {"text": f"{f.reason}: {f.segment}. Safer: {f.alternative}"},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": {"uri": f.path, "uriBaseId": "%SRCROOT%"},
                            "region": {"startLine": f.line, "startColumn": f.column},
                        }
                    }
                ],
                "partialFingerprints": {"dcgFinding/v1": f.fingerprint},
                "properties": {"severity": f.severity, "source": f.source},
            }
        )
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "dcg",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "rules": rules,
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }
