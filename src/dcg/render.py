"""The words of the graduated response: JSON fields, stderr blocks, model text, explain status.

Everything here is plain string formatting, because the hook renders an outcome for
every matched command; ``rich`` is imported only by :func:`console` for the human
commands.
"""

from __future__ import annotations

from dcg.state.clock import format_duration

TYPE_CHECKING = False  # typing costs ms at start-up; type checkers treat this as True

if TYPE_CHECKING:
    from typing import TextIO

    from rich.console import Console

_TITLES = {
    "warning": "⚠️  dcg WARNING: This command matches a destructive pattern",
    "soft_block": "🛑 dcg SOFT BLOCK: Command requires confirmation",
}
_HARD_TITLES = {
    "history": "threshold exceeded",
    "session": "threshold exceeded",
    "critical": "critical severity",
    "paranoid": "paranoid mode",
    "floor": "high_minimum_level",
    "self-protection": "self-protection",
}
# How another match of the line is named in the texts.
_STATE_WORDS = {
    "warning": "warning",
    "soft_block": "needs confirmation",
    "hard_block": "blocked",
}


class Facts:
    """Everything the texts of one decision are made from."""

    __slots__ = (
        "alternative",
        "at_risk",
        "cause",
        "code",
        "command",
        "explanation",
        "history_count",
        "history_threshold",
        "kept",
        "level",
        "mode",
        "next_level",
        "others",
        "pack_id",
        "reason",
        "rule_id",
        "session_count",
        "session_threshold",
        "severity",
        "unkept",
        "window",
    )

    def __init__(
        self,
        level: str,
        cause: str,
        mode: str,
        *,
        rule_id: str,
        pack_id: str,
        severity: str,
        command: str,
        reason: str = "",
        explanation: str = "",
        alternative: str = "",
        session_count: int,
        session_threshold: int,
        history_count: int,
        history_threshold: int,
        window: float,
        code: str | None = None,
    ) -> None:
        self.level = level
        self.cause = cause
        self.mode = mode
        self.rule_id = rule_id
        self.pack_id = pack_id
        self.severity = severity
        self.command = command
        self.reason = reason
        self.explanation = explanation
        self.alternative = alternative
        self.session_count = session_count
        self.session_threshold = session_threshold
        self.history_count = history_count
        self.history_threshold = history_threshold
        self.window = window
        self.code = code
        # What git says the command would destroy (dcg.gitinfo); "" when it was not asked.
        self.at_risk = ""
        # What the next occurrence in this session gets; "" when unknown.
        self.next_level = ""
        # The safety net (dcg.safety): (snapshot id, what it holds) when a copy was kept
        # before the command runs; why none could be, when that made it a soft block.
        self.kept: tuple[str, str] | None = None
        self.unkept = ""
        # The line's other matches: (rule id, severity, level or "allowed (via)", segment).
        self.others: list[tuple[str, str, str, str]] = []


_NAMED_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def printable(text: str) -> str:
    """``text`` as dcg shows a command to a person: every character that is not printable
    (control characters, terminal escape sequences, bidirectional and zero-width marks,
    line separators) written as an escape (``\\x1b``, ``\\n``, ``\\u202e``), so a command
    cannot disguise what it is on a terminal."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else _escape(c) for c in text)


def _escape(c: str) -> str:
    named = _NAMED_ESCAPES.get(c)
    if named is not None:
        return named
    n = ord(c)
    if n < 0x100:
        return f"\\x{n:02x}"
    if n < 0x10000:
        return f"\\u{n:04x}"
    return f"\\U{n:08x}"


def allowlist_command(rule_id: str) -> str:
    return f"dcg allowlist add {rule_id} --user"


def fields(f: Facts) -> dict[str, object]:
    """The draft's JSON fields for this level, plus packId, severity and remediation.

    Agents receive them only with ``[hook] details`` (decisions.md 10.9), and then
    without the codes (:func:`dcg.agents._common.detail_fields`): an agent may hand them
    to the model (decisions.md 10.2).
    """
    out: dict[str, object] = {"responseLevel": f.level, "sessionOccurrence": f.session_count}
    if f.level != "hard_block":
        out["sessionThreshold"] = f.session_threshold
    if f.level != "warning":
        out["historyOccurrence"] = f.history_count
        out["historyThreshold"] = f.history_threshold
    if f.level == "soft_block" and f.code:
        out["confirmCode"] = f.code
    if f.level == "hard_block" and f.code:
        out["allowOnceCode"] = f.code
    out["ruleId"] = f.rule_id
    out["packId"] = f.pack_id
    out["severity"] = f.severity
    if f.level == "warning":
        out["warningMessage"] = "Command matches destructive pattern"
    if f.kept:
        out["snapshotId"] = f.kept[0]
    remediation: dict[str, str] = {}
    if f.level == "soft_block" and f.code:
        remediation["confirmCommand"] = f"dcg confirm {f.code}"
    if f.level == "hard_block" and f.code:
        remediation["allowOnceCommand"] = f"dcg allow-once {f.code}"
    if f.level != "soft_block":
        remediation["allowlistCommand"] = allowlist_command(f.rule_id)
    if f.alternative:
        remediation["safeAlternative"] = f.alternative
    out["remediation"] = remediation
    return out


def _warnings_allowed(f: Facts) -> int:
    # How many warnings the mode gives before it blocks (decisions.md section 1).
    if f.mode == "strict":
        return max(f.session_threshold - 1, 0)
    if f.mode == "lenient":
        return f.session_threshold + 1
    return f.session_threshold


def human_text(f: Facts) -> str:
    """The stderr block of the draft's sections 2.1-2.3."""
    window = format_duration(f.window)
    head = [
        "",
        f"Pattern:  {f.rule_id}",
        f"Severity: {f.severity}",
        f"Command:  {printable(f.command)}",
        *([f"At risk:  {f.at_risk}"] if f.at_risk else []),
        *_others_human(f),
        "",
    ]
    if f.level == "warning":
        if f.cause == "acknowledged":
            count = (
                f"This is occurrence {f.session_count} in this session "
                "(confirmed earlier in this session). Command will proceed."
            )
        else:
            count = (
                f"This is occurrence {f.session_count}/{_warnings_allowed(f)} "
                "in this session. Command will proceed."
            )
        lines = [
            _TITLES["warning"],
            *head,
            *(
                [f"Kept:     snapshot {f.kept[0]} ({f.kept[1]}); restore: dcg undo {f.kept[0]}"]
                if f.kept
                else []
            ),
            count,
            *([_NEXT_HUMAN[f.next_level]] if f.next_level in _NEXT_HUMAN else []),
            "Use --no-warnings (or show_warnings = false) to suppress warnings.",
        ]
    elif f.level == "soft_block":
        lines = [
            _TITLES["soft_block"],
            *head,
            f"This is occurrence {f.session_count} in this session "
            f"(threshold: {f.session_threshold}).",
            f"History: {f.history_count} occurrences in last {window} "
            f"(threshold: {f.history_threshold}).",
        ]
        if f.cause == "floor":
            lines.append("High-severity rules are never just a warning (high_minimum_level).")
        if f.unkept:
            lines.append(f"{unkept_sentence(f.unkept)} A warning would have let it run.")
        lines += ["", "To proceed, use: dcg confirm <code>", f"Code: {f.code or '----'}"]
    else:
        title = f"🚫 dcg HARD BLOCK: Command blocked ({_HARD_TITLES.get(f.cause, f.cause)})"
        lines = [title, *head]
        if f.cause == "history":
            lines.append(
                f"This command has matched {f.history_count} times in the last {window} "
                f"(threshold: {f.history_threshold})."
            )
        elif f.cause == "session":
            lines.append(
                f"This is occurrence {f.session_count} in this session "
                f"(threshold: {f.session_threshold})."
            )
        elif f.cause == "critical":
            lines.append("Critical-severity rules are always blocked (critical_always_hard).")
        elif f.cause == "self-protection":
            lines.append(
                "dcg's own commands, files and the agents' hook settings are always protected."
            )
        elif f.cause == "paranoid":
            lines.append("Mode paranoid: every destructive command is blocked.")
        else:
            lines.append("High-severity rules are blocked outright here (high_minimum_level).")
        lines += [
            "Direct confirmation is not available for this command.",
            "",
            "Options:",
            f"  1. Add to user allowlist: {allowlist_command(f.rule_id)}",
            "  2. Allow once:       dcg allow-once <code>",
            f"  3. Review history:   dcg history {f.rule_id}",
            "",
            f"Code: {f.code or '----'}",
        ]
    return "\n".join(lines) + "\n"


def unkept_sentence(why: str) -> str:
    return f"dcg could not keep a copy: {why.rstrip('.')}."


def kept_sentence(kept: tuple[str, str]) -> str:
    """What the model reads after a warning: a copy exists and how to get it back."""
    sid, what = kept
    return (
        f"dcg kept a copy of what it can destroy (snapshot {sid}: {what}): if the user "
        f"wants it back, run `dcg undo {sid}`."
    )


def _state(state: str) -> str:
    return _STATE_WORDS.get(state, state)


def _others_human(f: Facts) -> list[str]:
    if not f.others:
        return []
    return [
        "Also on this line:",
        *(f"  {r} ({sev}): {_state(st)} in: {printable(seg)}" for r, sev, st, seg in f.others),
    ]


def _others_model(f: Facts) -> str:
    if not f.others:
        return ""
    parts = [
        f"{r} (severity {sev}, {_state(st)}) in `{printable(seg)}`" for r, sev, st, seg in f.others
    ]
    return " This line also matches: " + "; ".join(parts) + "."


def _about(f: Facts) -> str:
    parts = [f"{f.rule_id} (severity {f.severity})"]
    if f.reason:
        parts[0] += f": {f.reason.rstrip('.')}."
    else:
        parts[0] += "."
    if f.explanation:
        parts.append(f"At risk: {f.explanation.strip()}")
    if f.at_risk:
        parts.append(f.at_risk)
    if f.alternative:
        alt = f.alternative.strip()
        parts.append(f"Safer alternative: {alt}" + ("" if alt.endswith((".", "!", "?")) else "."))
    return " ".join(parts) + _others_model(f)


_NO_WORKAROUND = (
    "Do not try to get the same effect another way (a different tool, an interpreter, "
    "a script, or a rewritten command); ask the user how to proceed."
)


_NEXT_HUMAN = {
    "warning": "Next time in this session: another warning.",
    "soft_block": "Next time in this session this needs your confirmation (dcg confirm).",
    "hard_block": "Next time this is blocked outright (dcg allow-once or the allowlist).",
}
_NEXT_MODEL = {
    "warning": "If it is repeated in this session, it gets another warning.",
    "soft_block": "If it is repeated in this session, it will be blocked until the user "
    "confirms it.",
    "hard_block": "If it is repeated, it will be blocked outright; only the user can allow it.",
}


def model_text(f: Facts) -> str:
    """What the model reads: the rule, the risk, the alternative and what to do now."""
    if f.level == "warning":
        nxt = _NEXT_MODEL.get(f.next_level, "Repeating it will be blocked.")
        kept = f" {kept_sentence(f.kept)}" if f.kept else ""
        return (
            f"dcg warning: this command matches {_about(f)} The command will run this "
            f"time, but it is destructive: be sure the user wants this effect.{kept} {nxt} "
            + _NO_WORKAROUND.replace("Do not try", "If blocked, do not try")
        )
    unkept = f" {unkept_sentence(f.unkept)}" if f.unkept else ""
    text = f"BLOCKED by dcg: {_about(f)}{unkept} {_NO_WORKAROUND}"
    # No approval code here (decisions.md 10.2): the model reads this text, and only a
    # person may approve. The code goes to the agent's user-only channel, or nowhere.
    if f.level == "soft_block":
        return (
            text + " If the user wants it run, ask them to run `dcg confirm` in their own "
            "terminal (not through you) with the code dcg showed them; then re-run exactly the "
            "same command in the same directory (valid once, for 5 minutes)."
        )
    return (
        text + " Only the user can allow it: ask them to run `dcg allow-once` in their own "
        "terminal (not through you) with the code dcg showed them, then re-run exactly the "
        "same command in the same directory; or they can add it to their allowlist "
        f"(`{allowlist_command(f.rule_id)}`)."
    )


# When the approval code could not be stored (state not writable), none is offered.
_NO_CODE = (
    "dcg could not store an approval code (its state directory is not writable), so it "
    "cannot be approved through dcg; the user can run the command in their own terminal."
)


def summary(f: Facts) -> str:
    """One line for a user-only notice (``systemMessage``)."""
    if f.level == "warning":
        if f.kept:
            return (
                f"dcg warning: {f.rule_id} matched `{_short(f.command)}` (allowed; a copy was "
                f"kept: dcg undo {f.kept[0]})."
            )
        return f"dcg warning: {f.rule_id} matched `{_short(f.command)}` (allowed)."
    if not f.code:
        return f"dcg blocked {f.rule_id}: `{_short(f.command)}`. {_NO_CODE}"
    if f.level == "soft_block":
        why = f" {unkept_sentence(f.unkept)}" if f.unkept else ""
        return (
            f"dcg blocked {f.rule_id}: `{_short(f.command)}`.{why} To allow it: "
            f"dcg confirm {f.code}"
        )
    return f"dcg blocked {f.rule_id}: `{_short(f.command)}`. To allow it: dcg allow-once {f.code}"


def _short(command: str, limit: int = 120) -> str:
    one = printable(command)
    return one if len(one) <= limit else one[: limit - 1] + "…"


def recommendation(status: dict[str, object]) -> list[str]:
    n = int(str(status["session_count"]))
    if status.get("cause") in ("critical", "self-protection"):
        return [
            "Critical rules are always blocked; review the command, then use",
            "dcg allow-once with the code it shows if it is really intended.",
        ]
    if n >= int(str(status["session_threshold"])) and n > 0:
        return [
            f"This command has been used {n} times this session.",
            "Consider adding to allowlist if this is expected workflow.",
        ]
    return []


def console(file: TextIO | None = None) -> Console:
    """A rich console: colour only on a terminal and when NO_COLOR is unset."""
    import sys

    from rich.console import Console

    from dcg import oslite as os

    out = file if file is not None else sys.stdout
    tty = out.isatty()
    return Console(
        file=out,
        highlight=False,
        no_color=bool(os.environ.get("NO_COLOR")),
        # Piped output is read by scripts and pagers: wide enough not to truncate ids.
        width=None if tty else 200,
        soft_wrap=not tty,
    )
