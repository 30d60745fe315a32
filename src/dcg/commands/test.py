"""``dcg test``: what would the hook do with this command now? Exit 1 when it would warn or stop."""

from __future__ import annotations

import os

from dcg import jsonfast, render

# typing is not imported at run time: it costs more than the hook's whole budget.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

    from dcg.config import Config
    from dcg.engine import Evaluation
    from dcg.hookio import HookRequest
    from dcg.safety.step import Step
    from dcg.verdicts import Item, Line


def context(args: argparse.Namespace) -> tuple[Config, HookRequest]:
    """The config and the request a CLI evaluation runs with (cwd = --cwd or here)."""
    from dcg import config
    from dcg.errors import DcgError
    from dcg.hookio import HookRequest

    cwd = os.path.abspath(args.cwd) if args.cwd else os.getcwd()
    packs = [p for p in args.with_packs.split(",") if p.strip()]
    flags = {
        "with_packs": packs,
        "mode": args.mode,
        "session_threshold": args.session_threshold,
        "history_threshold": args.history_threshold,
        "no_warnings": args.no_warnings,
    }
    cfg = config.load(cwd, os.environ, flags)
    # A typo on this command line is an error; one in a config file is a warning, and
    # the command is judged with the packs that do exist, as the hook does.
    typed = [p for p in cfg.problems if any(p.startswith(f"unknown pack {w!r}") for w in packs)]
    if typed:
        raise DcgError(typed[0])
    import sys

    for problem in cfg.problems:
        print(f"dcg: warning: {problem}", file=sys.stderr)
    given = getattr(args, "session", None)
    agent, sid = ("cli", None) if not given else (session_agent(given), given)
    request = HookRequest(agent, args.cmd, cwd=cwd, session_id=sid, shell=args.shell, tool="cli")
    return cfg, request


def session_agent(session_id: str) -> str:
    """The agent whose session ``session_id`` (its own id, as in its payload) is: the one
    dcg keeps a session file for under that id; when none has one yet, the one plain
    ``dcg hook`` is documented for (its spec is ``bare``)."""
    import time

    from dcg import paths
    from dcg.agents import AGENTS
    from dcg.state import session

    for agent in AGENTS:
        ident = session.identify(agent, session_id)
        if session.load(paths.session_dir(), ident.session_id, time.time()) is not None:
            return agent
    from dcg.agents import spec

    return next(agent for agent in AGENTS if spec(agent).bare)


def evaluate(cfg: Config, request: HookRequest) -> Evaluation:
    import time

    from dcg.service import run_engine

    return run_engine(request, cfg, time.thread_time() + 5.0)


def decide(cfg: Config, request: HookRequest, evaluation: Evaluation) -> Line | None:
    """What the hook would do with the line now: the hook's own decision
    (:func:`dcg.graduation.respond_line`), allowlist and approved codes included, with
    nothing written, consumed or offered."""
    if not evaluation.matches:
        return None
    from dcg.graduation import respond_line

    keep = keep_step(cfg, request, evaluation)
    return respond_line(
        evaluation.matches, request, cfg.response, cfg.history, write=False, keep=keep
    )


def keep_step(cfg: Config, request: HookRequest, evaluation: Evaluation) -> Step:
    """The safety net's keep step for this line, as the hook would take it (only asked
    whether it would stop the line here: nothing is kept)."""
    from dcg.safety.step import Step

    return Step(request, evaluation.commands, cfg.safety_net)


def main(args: argparse.Namespace) -> int:
    cfg, request = context(args)
    evaluation = evaluate(cfg, request)
    line = decide(cfg, request, evaluation)
    if args.json:
        print(jsonfast.dumps(result_json(evaluation, line), indent=2))
    else:
        from dcg.commands import _lines

        _lines.show(result_lines(evaluation, line))
    # 1 when the hook would judge a destructive match (warn or stop); 0 when nothing
    # matched or every match is excused by the allowlist or an approved code.
    return 1 if line is not None and line.level is not None else 0


def approval_text(item: Item) -> str:
    """How an approval lets a match through, in words (never the code itself: an agent
    may run ``dcg test`` and must not read one, decisions.md 10.2)."""
    rec = item.approval or {}
    if item.via == "allowlist":
        what = rec.get("rule") or f"command `{render.printable(str(rec.get('command')))}`"
        return f"allowed by the allowlist ({what})"
    if item.via == "confirm":
        return "allowed once by a confirmation (dcg confirm)"
    how = "once" if rec.get("single_use") else "until it expires"
    return f"allowed by an allow-once approval ({how})"


def item_state(item: Item) -> str:
    """``warning``/``soft_block``/``hard_block`` for a judged match, else how it passes."""
    if item.verdict is not None:
        return item.verdict.level
    return approval_text(item)


def result_json(evaluation: Evaluation, line: Line | None) -> dict[str, object]:
    items = {id(it.match): it for it in line.items} if line else {}
    return {
        "command": evaluation.line,
        "destructive": bool(evaluation.matches),
        "responseLevel": line.level if line else None,
        "waiting": list(line.waiting) if line else [],
        "matches": [
            {
                "ruleId": m.rule_id,
                "packId": m.pack.id,
                "severity": m.severity,
                "reason": m.reason,
                "safeAlternative": m.rule.alternative,
                "segment": render.printable(m.command.text),
                "level": _level_of(items.get(id(m))),
                "allowedBy": _via_of(items.get(id(m))),
                "approval": approval_text(items[id(m)]) if _via_of(items.get(id(m))) else None,
            }
            for m in evaluation.matches
        ],
    }


def _level_of(item: Item | None) -> str | None:
    return item.verdict.level if item is not None and item.verdict is not None else None


def _via_of(item: Item | None) -> str | None:
    return item.via if item is not None else None


LEVEL_TEXT = {
    "warning": "WARNING (the command would run, with a warning)",
    "soft_block": "SOFT BLOCK (stopped; a human can confirm it with a code)",
    "hard_block": "HARD BLOCK (stopped; needs allow-once or an allowlist entry)",
}
WAITING_TEXT = {
    "confirm": "a code for this command waits for the person to run dcg confirm",
    "allow-once": "a code for this command waits for the person to run dcg allow-once",
}


def result_lines(evaluation: Evaluation, line: Line | None) -> list[tuple[str, str]]:
    """The human answer: a verdict line, then the rule, why, what instead, and the level."""
    from dcg.commands._lines import block, esc, level

    shown = esc(render.printable(evaluation.line))
    if not evaluation.matches or line is None:
        return [
            ("[bold green]ALLOWED[/bold green]      ", shown),
            ("  ", "no rule matched"),
        ]
    lead = line.lead() or line.items[0]
    m = lead.match
    rows = [
        ("rule", f"[bold]{esc(m.rule_id)}[/bold] ({_severity(m.severity)})"),
        ("reason", esc(m.rule.reason)),
        ("safer", f"[cyan]{esc(m.rule.alternative)}[/cyan]"),
    ]
    if m.command.text != evaluation.line:
        rows.append(("segment", esc(render.printable(m.command.text))))
    if line.level is not None:
        rows.append(("response", level(line.level, LEVEL_TEXT.get(line.level, line.level))))
    else:
        rows.append(("response", level("allow", "ALLOWED: every match is excused")))
    if lead.via is not None:
        rows.append(("approval", esc(approval_text(lead))))
    for other in line.items:
        if other is lead:
            continue
        state = item_state(other)
        rows.append(
            (
                "also",
                f"{esc(other.match.rule_id)} ({_severity(other.match.severity)}) in: "
                f"{esc(render.printable(other.match.command.text))}: "
                + (level(state, state.upper()) if other.verdict else esc(state)),
            )
        )
    for kind in line.waiting:
        rows.append(("waiting", esc(WAITING_TEXT.get(kind, kind))))
    if line.level is None:
        head = ("[bold green]ALLOWED[/bold green]      ", shown)
    else:
        head = ("[bold red]DESTRUCTIVE[/bold red]  ", shown)
    return [head, *block(rows, indent="  ", width=11)]


_SEVERITY_STYLES = {"critical": "bold red", "high": "red", "medium": "yellow", "low": "dim"}


def _severity(name: str) -> str:
    from dcg.commands._lines import styled

    return styled(name, _SEVERITY_STYLES.get(name))


def result_text(evaluation: Evaluation, line: Line | None) -> str:
    """:func:`result_lines` as plain text."""
    from rich.text import Text

    return "\n".join(
        Text.from_markup(label + value).plain for label, value in result_lines(evaluation, line)
    )
