"""``dcg packs`` / ``dcg pack ID``: the pack catalogue and each pack's rules."""

from __future__ import annotations

import os

from dcg import jsonfast

# typing is not imported at run time: it costs more than the hook's whole budget.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

    from dcg.model import Pack

SEVERITIES = ("critical", "high", "medium", "low")


def main(args: argparse.Namespace) -> int:
    from dcg import config
    from dcg.errors import DcgError
    from dcg.packs import KEYWORDS, all_ids, load

    if getattr(args, "markdown", False):
        print(markdown(), end="")
        return 0
    enabled = set(config.load(os.getcwd()).packs)
    if args.pack_id:
        if args.pack_id not in KEYWORDS:
            raise DcgError(f"no pack {args.pack_id!r}; `dcg packs` lists them")
        pack = load(args.pack_id)
        data = pack_detail(pack, pack.id in enabled)
        if args.json:
            print(jsonfast.dumps(data, indent=2))
        else:
            show_pack(data)
        return 0
    rows = [pack_summary(load(p), p in enabled) for p in all_ids()]
    if args.json:
        print(jsonfast.dumps(rows, indent=2))
    else:
        show_table(rows)
    return 0


def default_state(pack_id: str) -> tuple[str, str]:
    """``("core" | "on" | "off", why)``: the pack's state with no configuration."""
    from dcg.packs import CORE
    from dcg.packs._defaults import OPT_IN_RULES, default_reason, opt_in_reason

    if pack_id in CORE:
        return "core", "always on"
    why = default_reason(pack_id)
    if why is not None:
        rules = OPT_IN_RULES.get(pack_id)
        if rules:
            names = ", ".join(rules[0])
            why += f" (opt-in rules: {names}; {rules[1]})"
        return "on", why
    return "off", opt_in_reason(pack_id) or ""


def pack_summary(pack: Pack, enabled: bool) -> dict[str, object]:
    from dcg.packs import CORE, KEYWORDS, category

    counts = {s: sum(1 for r in pack.rules if r.severity == s) for s in SEVERITIES}
    state, why = default_state(pack.id)
    return {
        "id": pack.id,
        "category": category(pack.id),
        "description": pack.description,
        "enabled": enabled,
        "core": pack.id in CORE,
        "default": state != "off",
        "defaultReason": why,
        "rules": len(pack.rules),
        "severities": counts,
        "keywords": list(KEYWORDS[pack.id]),
    }


# What the safety net keeps for a rule's keep kind (dcg.model.KEEP_KINDS).
KEPT_AS = {
    "worktree": "the git index and work tree it reaches (dcg undo)",
    "files": "the files and trees it deletes (dcg undo)",
    "contents": "the content it overwrites (dcg undo)",
    "refs": "the refs, stash entries and reflogs it drops (dcg undo)",
    "none": "nothing can be kept, so it is never just a warning",
}


def pack_detail(pack: Pack, enabled: bool) -> dict[str, object]:
    data = pack_summary(pack, enabled)
    data["safePatterns"] = list(pack.safe)
    data["rulesDetail"] = [
        {
            "id": pack.rule_id(r),
            "severity": r.severity,
            "reason": r.reason,
            "explanation": r.explanation,
            "safeAlternative": r.alternative,
            "keep": r.keep,
            "pattern": r.pattern,
            "blocks": list(r.blocks),
            "allows": list(r.allows),
        }
        for r in pack.rules
    ]
    return data


def _console() -> object:
    from rich.console import Console

    return Console(no_color=bool(os.environ.get("NO_COLOR")), highlight=False)


def show_table(rows: list[dict[str, object]]) -> None:
    from rich.table import Table

    table = Table(title="dcg packs", title_justify="left")
    for col in ("pack", "enabled", "default", "rules", "crit/high/med/low", "why (default)"):
        table.add_column(col, overflow="fold")
    for row in rows:
        sev = row["severities"]
        assert isinstance(sev, dict)
        on = "core" if row["core"] else ("yes" if row["enabled"] else "no")
        style = "bold green" if row["enabled"] else "dim"
        table.add_row(
            str(row["id"]),
            f"[{style}]{on}[/]",
            "core" if row["core"] else ("on" if row["default"] else "off"),
            str(row["rules"]),
            "/".join(str(sev[s]) for s in SEVERITIES),
            str(row["defaultReason"]),
        )
    _console().print(table)  # type: ignore[attr-defined]
    print(
        "\nEnable packs with [packs] enabled = [...] in config or DCG_PACKS=id,category,…;"
        "\ndisable a default pack with [packs] disabled = [...] in the user config."
    )


def show_pack(data: dict[str, object]) -> None:
    from rich.markup import escape

    console = _console()
    state = "core, always on" if data["core"] else ("enabled" if data["enabled"] else "disabled")
    console.print(f"[bold]{data['id']}[/] ({state}) - {escape(str(data['description']))}")  # type: ignore[attr-defined]
    console.print(f"keywords: {', '.join(data['keywords'])}")  # type: ignore[arg-type, attr-defined]
    colours = {"critical": "bold red", "high": "red", "medium": "yellow", "low": "cyan"}
    rules = data["rulesDetail"]
    assert isinstance(rules, list)
    for r in rules:
        colour = colours.get(r["severity"], "")
        console.print(f"\n[{colour}]{r['id']}[/] [{colour}]{r['severity']}[/]")  # type: ignore[attr-defined]
        console.print(f"  {escape(r['reason'])}")  # type: ignore[attr-defined]
        console.print(f"  {escape(r['explanation'])}")  # type: ignore[attr-defined]
        console.print(f"  instead: {escape(r['safeAlternative'])}")  # type: ignore[attr-defined]
        console.print(f"  safety net keeps: {KEPT_AS[str(r['keep'])]}")  # type: ignore[attr-defined]
        for ex in r["blocks"]:
            console.print(f"  [red]blocks[/]  {escape(ex)}")  # type: ignore[attr-defined]
        for ex in r["allows"]:
            console.print(f"  [green]allows[/]  {escape(ex)}")  # type: ignore[attr-defined]


def markdown() -> str:
    """The pack reference (docs/packs.md), generated from the pack data."""
    from dcg.packs import KEYWORDS, all_ids, category, load
    from dcg.packs._defaults import opt_in_rules

    out = [
        "# dcg packs",
        "",
        "Generated from the pack data by `dcg packs --markdown`; do not edit by hand.",
        "Core packs are always on. Packs marked *on* are enabled with no configuration",
        "(decisions.md 10.6: their rules fire only on what cannot be undone); their opt-in",
        "rules, for routine recoverable operations, fire only when the pack is enabled",
        "explicitly. Enable others with `[packs] enabled = [...]` or `DCG_PACKS` (a category",
        "id such as `database` enables all of its packs, `all` enables every pack); disable a",
        "default pack with `[packs] disabled = [...]` in the user config.",
        "",
        "| pack | category | rules | default | why |",
        "|---|---|---|---|---|",
    ]
    ids = all_ids()
    for pack_id in ids:
        pack = load(pack_id)
        state, why = default_state(pack_id)
        on = {"core": "always on"}.get(state, state)
        out.append(
            f"| [`{pack_id}`](#{pack_id.replace('.', '')}) | {category(pack_id)} "
            f"| {len(pack.rules)} | {on} | {why} |"
        )
    for pack_id in ids:
        pack = load(pack_id)
        out += ["", f"## {pack_id}", "", pack.description, ""]
        out.append("Keywords: " + ", ".join(_keyword(k) for k in KEYWORDS[pack_id]))
        if pack.safe:
            out += ["", "Safe patterns (each excuses only the simple command it matches):", ""]
            out += [f"- `{s}`" for s in pack.safe]
        quiet = opt_in_rules(pack_id)
        for rule in pack.rules:
            opt = ", opt-in" if pack.rule_id(rule) in quiet else ""
            out += [
                "",
                f"### `{pack.rule_id(rule)}` ({rule.severity}{opt})",
                "",
                rule.reason[0].upper() + rule.reason[1:] + ".",
                "",
                rule.explanation,
                "",
                f"Instead: {rule.alternative}",
                "",
                f"Safety net: {KEPT_AS[rule.keep]}.",
            ]
            if rule.blocks:
                out += ["", "Stops:", ""] + [f"- `{ex}`" for ex in rule.blocks]
            if rule.allows:
                out += ["", "Lets through:", ""] + [f"- `{ex}`" for ex in rule.allows]
    return "\n".join(out) + "\n"


def _keyword(word: str) -> str:
    """A keyword as the page shows it; a pseudo keyword (a NUL-marked test of the text, not
    a word: brace expansion, many files written) by what it tests."""
    if word.startswith("\x00"):
        return "(" + word[1:].replace("-", " ") + ")"
    return f"`{word}`"
