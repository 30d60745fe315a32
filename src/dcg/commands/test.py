"""``dcg test``: would dcg stop this command? Exit 1 when a destructive rule matches."""

from __future__ import annotations

import os

from dcg import jsonfast

# typing is not imported at run time: it costs more than the hook's whole budget.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

    from dcg.config import Config
    from dcg.engine import Evaluation
    from dcg.hookio import HookRequest, Outcome


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
    request = HookRequest("cli", args.cmd, cwd=cwd, shell=args.shell, tool="cli")
    return cfg, request


def evaluate(cfg: Config, request: HookRequest) -> Evaluation:
    import time

    from dcg.hook import run_engine

    return run_engine(request, cfg, time.process_time() + 5.0)


def preview(cfg: Config, request: HookRequest, evaluation: Evaluation) -> Outcome | None:
    if not evaluation.matches:
        return None
    from dcg.graduation import preview as graduated

    return graduated(evaluation.matches[0], request, cfg.response, cfg.history)


def main(args: argparse.Namespace) -> int:
    cfg, request = context(args)
    evaluation = evaluate(cfg, request)
    outcome = preview(cfg, request, evaluation)
    if args.json:
        print(jsonfast.dumps(result_json(evaluation, outcome), indent=2))
    else:
        from dcg.commands import _lines

        _lines.show(result_lines(evaluation, outcome))
    return 1 if evaluation.matches else 0


def result_json(evaluation: Evaluation, outcome: Outcome | None) -> dict[str, object]:
    return {
        "command": evaluation.line,
        "destructive": bool(evaluation.matches),
        "responseLevel": outcome.level if outcome else None,
        "matches": [
            {
                "ruleId": m.rule_id,
                "packId": m.pack.id,
                "severity": m.severity,
                "reason": m.reason,
                "safeAlternative": m.rule.alternative,
                "segment": m.command.text,
            }
            for m in evaluation.matches
        ],
    }


LEVEL_TEXT = {
    "warning": "WARNING (the command would run, with a warning)",
    "soft_block": "SOFT BLOCK (stopped; a human can confirm it with a code)",
    "hard_block": "HARD BLOCK (stopped; needs allow-once or an allowlist entry)",
}


def result_lines(evaluation: Evaluation, outcome: Outcome | None) -> list[tuple[str, str]]:
    """The human answer: a verdict line, then the rule, why, what instead, and the level."""
    from dcg.commands._lines import block, esc, level

    if not evaluation.matches:
        return [
            ("[bold green]ALLOWED[/bold green]      ", esc(evaluation.line)),
            ("  ", "no rule matched"),
        ]
    m = evaluation.matches[0]
    rows = [
        ("rule", f"[bold]{esc(m.rule_id)}[/bold] ({_severity(m.severity)})"),
        ("reason", esc(m.rule.reason)),
        ("safer", f"[cyan]{esc(m.rule.alternative)}[/cyan]"),
    ]
    if m.command.text != evaluation.line:
        rows.append(("segment", esc(m.command.text)))
    if outcome is not None:
        rows.append(
            ("response", level(outcome.level, LEVEL_TEXT.get(outcome.level, outcome.level)))
        )
    for other in evaluation.matches[1:]:
        rows.append(
            (
                "also",
                f"{esc(other.rule_id)} ({_severity(other.severity)}) in: {esc(other.command.text)}",
            )
        )
    head = ("[bold red]DESTRUCTIVE[/bold red]  ", esc(evaluation.line))
    return [head, *block(rows, indent="  ", width=11)]


_SEVERITY_STYLES = {"critical": "bold red", "high": "red", "medium": "yellow", "low": "dim"}


def _severity(name: str) -> str:
    from dcg.commands._lines import styled

    return styled(name, _SEVERITY_STYLES.get(name))


def result_text(evaluation: Evaluation, outcome: Outcome | None) -> str:
    """:func:`result_lines` as plain text."""
    from rich.text import Text

    return "\n".join(
        Text.from_markup(label + value).plain for label, value in result_lines(evaluation, outcome)
    )
