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
    data = explain_data(cfg, evaluation, outcome)
    print(jsonfast.dumps(data, indent=2) if args.json else explain_text(data))
    return 0


def explain_data(cfg: Config, evaluation: Evaluation, outcome: Outcome | None) -> dict[str, object]:
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
    if outcome is not None:
        fields = outcome.fields
        data["graduation"] = {
            "mode": cfg.response["mode"],
            "status": outcome.level,
            "sessionCount": fields.get("sessionOccurrence"),
            "sessionThreshold": cfg.response["session_threshold"],
            "historyCount": fields.get("historyOccurrence"),
            "historyThreshold": cfg.response["history_threshold"],
            "historyWindow": _window(cfg.response["history_window"]),
        }
    return data


def _decision(evaluation: Evaluation, outcome: Outcome | None) -> str:
    if outcome is not None:
        return outcome.level
    if not evaluation.considered:
        return "allow: no enabled pack's keyword occurs in the command, so it was not parsed"
    return "allow: the command was parsed and no rule of the packs considered matched"


def _window(seconds: object) -> str:
    assert isinstance(seconds, int)
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds % size == 0:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


def explain_text(data: dict[str, object]) -> str:
    out = [f"Command:    {data['command']}"]
    considered = data["packsConsidered"]
    assert isinstance(considered, list)
    if considered:
        out.append(
            "Packs:      "
            + ", ".join(
                f"{c['pack']} ({', '.join(c['keywords']) or 'keyword'})" for c in considered
            )
        )
    else:
        out.append("Packs:      none of the enabled packs' keywords occur")
    commands = data["commands"]
    assert isinstance(commands, list)
    if commands:
        out.append(f"Parsed:     {len(commands)} simple command(s)")
    for i, c in enumerate(commands, 1):
        via = f"   [via {' > '.join(c['via'])}]" if c["via"] else ""
        dyn = "   [dynamic]" if c["dynamic"] else ""
        out.append(f"  {i}. {c['matchText'] or '(no executed words)'}{via}{dyn}")
        for d in c["data"]:
            out.append(f"     data: {d['word']!r} ({d['why']})")
    for e in data["excused"]:  # type: ignore[attr-defined]
        out.append(f"Excused:    {e['segment']} (a safe pattern of {e['pack']})")
    matches = data["matches"]
    assert isinstance(matches, list)
    for m in matches:
        out += [
            "",
            f"Pattern:    {m['ruleId']}",
            f"Pack:       {m['packId']}",
            f"Severity:   {m['severity']}",
            f"Segment:    {m['segment']}",
            f"Reason:     {m['reason']}",
            f"Why:        {m['explanation']}",
            f"Instead:    {m['safeAlternative']}",
        ]
    grad = data.get("graduation")
    if isinstance(grad, dict):
        status = grad["status"]
        verb = "Would warn" if status == "warning" else "Would be blocked"
        out += [
            f"Status:     {verb} ({LEVEL_NAMES.get(status, status)})",
            "",
            "Graduation info:",
            f"  Mode:              {grad['mode']}",
            f"  Session count:     {grad['sessionCount']}",
            f"  Session threshold: {grad['sessionThreshold']}",
            f"  History count:     {grad['historyCount']}",
            f"  History threshold: {grad['historyThreshold']}",
            f"  History window:    {grad['historyWindow']}",
        ]
        count = grad["sessionCount"]
        if isinstance(count, int) and count > 1:
            out += [
                "",
                f"Recommendation: This command has been used {count} times this session.",
                "                Consider adding to allowlist if this is expected workflow.",
            ]
    else:
        out += ["", f"Decision:   {data['decision']}"]
    return "\n".join(out)
