"""``dcg explain``: how dcg reads a command, which packs it tried, and why it decides."""

from __future__ import annotations

from dcg import jsonfast
from dcg.commands.test import context, evaluate, preview

# typing is not imported at run time: it costs more than the hook's whole budget.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

    from dcg.config import Config
    from dcg.engine import Evaluation
    from dcg.hookio import Outcome

LEVEL_NAMES = {"warning": "WARNING", "soft_block": "SOFT_BLOCK", "hard_block": "HARD_BLOCK"}


def main(args: argparse.Namespace) -> int:
    cfg, request = context(args)
    evaluation = evaluate(cfg, request)
    outcome = preview(cfg, request, evaluation)
    status = None
    if evaluation.matches:
        from dcg.graduation import graduation_status

        status = graduation_status(evaluation.matches[0], request, cfg.response, cfg.history)
    data = explain_data(cfg, evaluation, outcome, status)
    if args.json:
        print(jsonfast.dumps(data, indent=2))
    else:
        from dcg.commands import _lines

        _lines.show(explain_lines(data))
    return 0


def explain_data(
    cfg: Config,
    evaluation: Evaluation,
    outcome: Outcome | None,
    status: dict[str, object] | None = None,
) -> dict[str, object]:
    from dcg.packs import KEYWORDS

    commands = [
        {
            "argv": list(c.argv),
            "matchText": c.text,
            "via": list(c.via),
            "dynamic": c.dynamic,
            "data": [{"word": w, "why": why} for w, why in c.data],
            "redirects": [{"op": op, "target": t} for op, t in c.redirects],
            "stdin": c.stdin,
        }
        for c in evaluation.commands
    ]
    considered = [
        {"pack": p, "keywords": [k for k in KEYWORDS[p] if k in evaluation.line.lower()]}
        for p in evaluation.considered
    ]
    matches = [
        {
            "ruleId": m.rule_id,
            "packId": m.pack.id,
            "severity": m.severity,
            "segment": m.command.text,
            "pattern": m.rule.pattern,
            "reason": m.reason,
            "explanation": m.rule.explanation,
            "safeAlternative": m.rule.alternative,
        }
        for m in evaluation.matches
    ]
    data: dict[str, object] = {
        "command": evaluation.line,
        "enabledPacks": list(cfg.packs),
        "packsConsidered": considered,
        "commands": commands,
        "excused": [{"pack": p, "segment": c.text} for p, c in evaluation.excused],
        "matches": matches,
        "decision": _decision(evaluation, outcome),
    }
    if status is not None:
        from dcg.state.clock import format_duration

        data["graduation"] = {
            "mode": status["mode"],
            "status": status["level"],
            "cause": status["cause"],
            # Occurrences recorded so far; the next one would be one more.
            "sessionCount": status["session_count"],
            "sessionThreshold": status["session_threshold"],
            "historyCount": status["history_count"],
            "historyThreshold": status["history_threshold"],
            "historyWindow": format_duration(float(str(status["history_window"]))),
            "historyScope": status["history_scope"],
            "allowlisted": status["allowlisted"],
        }
    return data


def _decision(evaluation: Evaluation, outcome: Outcome | None) -> str:
    if outcome is not None:
        return outcome.level
    if not evaluation.considered:
        return "allow: no enabled pack's keyword occurs in the command, so it was not parsed"
    return "allow: the command was parsed and no rule of the packs considered matched"


def explain_lines(data: dict[str, object]) -> list[tuple[str, str] | str]:
    """The human form of :func:`explain_data` (the draft's section 9.3 layout)."""
    from dcg.commands._lines import block, esc, level, styled

    rows: list[tuple[str, str]] = [("Command:", f"[bold]{esc(data['command'])}[/bold]")]
    considered = data["packsConsidered"]
    assert isinstance(considered, list)
    if considered:
        packs = ", ".join(
            f"{esc(c['pack'])} ({esc(', '.join(c['keywords']) or 'keyword')})" for c in considered
        )
        rows.append(("Packs:", packs))
    else:
        rows.append(("Packs:", "none of the enabled packs' keywords occur"))
    commands = data["commands"]
    assert isinstance(commands, list)
    if commands:
        rows.append(("Parsed:", f"{len(commands)} simple command(s)"))
    out: list[tuple[str, str] | str] = [*block(rows, width=12)]
    for i, c in enumerate(commands, 1):
        via = f"   [dim]\\[via {esc(' > '.join(c['via']))}][/dim]" if c["via"] else ""
        dyn = "   [dim]\\[dynamic][/dim]" if c["dynamic"] else ""
        out.append(f"  {i}. {esc(c['matchText'] or '(no executed words)')}{via}{dyn}")
        for d in c["data"]:
            out.append(f"     [dim]data:[/dim] {esc(repr(d['word']))} ({esc(d['why'])})")
    excused = data["excused"]
    assert isinstance(excused, list)
    for e in excused:
        out += block(
            [("Excused:", f"{esc(e['segment'])} (a safe pattern of {esc(e['pack'])})")], width=12
        )
    matches = data["matches"]
    assert isinstance(matches, list)
    for m in matches:
        out.append("")
        out += block(
            [
                ("Pattern:", f"[bold]{esc(m['ruleId'])}[/bold]"),
                ("Pack:", esc(m["packId"])),
                ("Severity:", styled(esc(m["severity"]), _SEVERITY.get(str(m["severity"])))),
                ("Segment:", esc(m["segment"])),
                ("Reason:", esc(m["reason"])),
                ("Why:", esc(m["explanation"])),
                ("Instead:", f"[cyan]{esc(m['safeAlternative'])}[/cyan]"),
            ],
            width=12,
        )
    grad = data.get("graduation")
    if not isinstance(grad, dict):
        out += ["", *block([("Decision:", esc(data["decision"]))], width=12)]
        return out
    status = str(grad["status"])
    allowed = grad.get("allowlisted")
    if isinstance(allowed, dict):
        state = styled(
            f"Allowed by allowlist ({esc(allowed.get('rule') or allowed.get('command'))})", "green"
        )
    else:
        verb = "Would warn" if status == "warning" else "Would be blocked"
        state = level(status, f"{verb} ({LEVEL_NAMES.get(status, status)})")
    out += block([("Status:", state)], width=12)
    info = [
        ("Mode:", esc(grad["mode"])),
        ("Session count:", esc(grad["sessionCount"])),
        ("Session threshold:", esc(grad["sessionThreshold"])),
        ("History count:", esc(grad["historyCount"])),
        ("History threshold:", esc(grad["historyThreshold"])),
        ("History window:", esc(grad["historyWindow"])),
    ]
    out += ["", "Graduation info:", *block(info, indent="  ")]
    from dcg.render import recommendation

    rec = recommendation(
        {
            "session_count": grad["sessionCount"],
            "session_threshold": grad["sessionThreshold"],
            "cause": grad.get("cause"),
        }
    )
    if rec:
        first, *rest = rec
        out += ["", *block([("Recommendation:", esc(first)), *(("", esc(r)) for r in rest)])]
    return out


_SEVERITY = {"critical": "bold red", "high": "red", "medium": "yellow", "low": "dim"}
