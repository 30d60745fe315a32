"""``dcg explain``: how dcg reads a command, which packs it tried, and why it decides."""

from __future__ import annotations

from dcg import jsonfast, render
from dcg.commands.test import WAITING_TEXT, approval_text, context, decide, evaluate

# typing is not imported at run time: it costs more than the hook's whole budget.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

    from dcg.config import Config
    from dcg.engine import Evaluation
    from dcg.verdicts import Item, Line

LEVEL_NAMES = {"warning": "WARNING", "soft_block": "SOFT_BLOCK", "hard_block": "HARD_BLOCK"}


def main(args: argparse.Namespace) -> int:
    cfg, request = context(args)
    evaluation = evaluate(cfg, request)
    line = decide(cfg, request, evaluation)
    data = explain_data(cfg, evaluation, line)
    if evaluation.matches:
        from dcg.commands.test import keep_step

        # The safety net (issue 31): what a let-through run keeps first, or why it stops.
        data["safetyNet"] = keep_step(cfg, request, evaluation).describe(evaluation.matches)
    if args.json:
        print(jsonfast.dumps(data, indent=2))
    else:
        from dcg.commands import _lines

        _lines.show(explain_lines(data))
    return 0


def explain_data(cfg: Config, evaluation: Evaluation, line: Line | None) -> dict[str, object]:
    """Everything ``dcg explain`` says, as data: the parse, the matches and, for each, the
    level the hook would give it now or the approval that lets it through."""
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
    items = {id(it.match): it for it in line.items} if line else {}
    matches = []
    for m in evaluation.matches:
        item = items.get(id(m))
        matches.append(
            {
                "ruleId": m.rule_id,
                "packId": m.pack.id,
                "severity": m.severity,
                "segment": m.command.text,
                "pattern": m.rule.pattern,
                "reason": m.reason,
                "explanation": m.rule.explanation,
                "safeAlternative": m.rule.alternative,
                "level": item.verdict.level if item and item.verdict else None,
                "allowedBy": item.via if item else None,
                "approval": approval_text(item) if item and item.via else None,
            }
        )
    data: dict[str, object] = {
        "command": evaluation.line,
        "enabledPacks": list(cfg.packs),
        "packsConsidered": considered,
        "commands": commands,
        "excused": [{"pack": p, "segment": c.text} for p, c in evaluation.excused],
        # Project scripts a parsing bound stopped reading: the rest of them is not judged.
        "notRead": list(evaluation.unread),
        "matches": matches,
        "decision": _decision(evaluation, line),
        "waiting": list(line.waiting) if line else [],
    }
    lead = line.lead() if line else None
    if lead is not None:
        data["graduation"] = _graduation(lead, line)
    elif line is not None:
        first = line.items[0]
        data["graduation"] = {
            "status": "allow",
            "allowlisted": first.approval if first.via == "allowlist" else None,
            "approval": approval_text(first),
        }
    return data


def _graduation(lead: Item, line: Line | None) -> dict[str, object]:
    from dcg.state.clock import format_duration

    v = lead.verdict
    assert v is not None
    allow = next((it for it in (line.items if line else []) if it.via == "allowlist"), None)
    return {
        "ruleId": lead.match.rule_id,
        "mode": v.mode,
        "status": line.level if line else v.level,
        "cause": v.cause,
        # Occurrences recorded so far; the next one would be one more.
        "sessionCount": v.session - 1,
        "sessionThreshold": v.session_threshold,
        "historyCount": v.history - 1,
        "historyThreshold": v.history_threshold,
        "historyWindow": format_duration(v.window),
        "allowlisted": allow.approval if allow else None,
    }


def _decision(evaluation: Evaluation, line: Line | None) -> str:
    if line is not None:
        return line.level or "allow: every match is excused by an approval"
    if not evaluation.considered:
        return "allow: no enabled pack's keyword occurs in the command, so it was not parsed"
    return "allow: the command was parsed and no rule of the packs considered matched"


def explain_lines(data: dict[str, object]) -> list[tuple[str, str] | str]:
    """The human form of :func:`explain_data` (the draft's section 9.3 layout)."""
    from dcg.commands._lines import block, esc, level, styled

    rows: list[tuple[str, str]] = [("Command:", f"[bold]{_shown(data['command'])}[/bold]")]
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
        out.append(f"  {i}. {_shown(c['matchText']) or '(no executed words)'}{via}{dyn}")
        for d in c["data"]:
            out.append(f"     [dim]data:[/dim] {esc(repr(d['word']))} ({esc(d['why'])})")
    excused = data["excused"]
    assert isinstance(excused, list)
    for e in excused:
        out += block(
            [("Excused:", f"{_shown(e['segment'])} (a safe pattern of {esc(e['pack'])})")], width=12
        )
    unread = data.get("notRead") or []
    assert isinstance(unread, list)
    for what in unread:
        out += block([("Not read:", f"{esc(str(what))} (judged up to there)")], width=12)
    matches = data["matches"]
    assert isinstance(matches, list)
    for m in matches:
        out.append("")
        out += block(
            [
                ("Pattern:", f"[bold]{esc(m['ruleId'])}[/bold]"),
                ("Pack:", esc(m["packId"])),
                ("Severity:", styled(esc(m["severity"]), _SEVERITY.get(str(m["severity"])))),
                ("Segment:", _shown(m["segment"])),
                ("Reason:", esc(m["reason"])),
                ("Why:", esc(m["explanation"])),
                ("Instead:", f"[cyan]{esc(m['safeAlternative'])}[/cyan]"),
                ("Status:", _status(m)),
            ],
            width=12,
        )
    waiting = data.get("waiting")
    for kind in waiting if isinstance(waiting, list) else []:
        out += block([("Waiting:", esc(WAITING_TEXT.get(kind, kind)))], width=12)
    grad = data.get("graduation")
    if not isinstance(grad, dict):
        out += ["", *block([("Decision:", esc(data["decision"]))], width=12)]
        return out
    status = str(grad["status"])
    if status == "allow":
        state = styled(esc(grad.get("approval") or "Allowed"), "green")
        return [*out, "", *block([("Decision:", state)], width=12)]
    verb = "Would warn" if status == "warning" else "Would be blocked"
    out += ["", *block([("Decision:", level(status, f"{verb} ({LEVEL_NAMES[status]})"))], width=12)]
    out += _safety_lines(data.get("safetyNet"), status)
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


def _safety_lines(net: object, status: str) -> list[tuple[str, str] | str]:
    """Whether a warning here keeps a copy first, or why the safety net stops it."""
    from dcg.commands._lines import block, esc

    if not isinstance(net, dict):
        return []
    if not net.get("enabled"):
        text = "off ([safety_net] enabled = false): a warning keeps nothing"
    elif net.get("unkept"):
        text = f"would stop it: dcg could not keep a copy: {esc(net['unkept'])}"
    elif net.get("keep"):
        kept = "; ".join(esc(k) for k in net["keep"])
        text = f"before it runs, keeps {kept} (within {esc(net.get('budgets'))})"
    else:
        text = "nothing here to keep (no uncommitted work it reaches)"
    if status not in ("warning", "soft_block") and net.get("enabled"):
        text += " [dim](once a person lets it run)[/dim]"
    out: list[tuple[str, str] | str] = [*block([("Safety net:", text)], width=12)]
    return out


_SEVERITY = {"critical": "bold red", "high": "red", "medium": "yellow", "low": "dim"}


def _shown(value: object) -> str:
    """A command or segment as a person reads it: control characters escaped, no markup."""
    from dcg.commands._lines import esc

    return esc(render.printable(str(value)))


def _status(match: dict[str, object]) -> str:
    """What the hook would do with this match now."""
    from dcg.commands._lines import level, styled

    if match.get("approval"):
        return styled(_shown(match["approval"]), "green")
    name = str(match.get("level"))
    verb = "Would warn" if name == "warning" else "Would be blocked"
    return level(name, f"{verb} ({LEVEL_NAMES.get(name, name)})")
