"""What a person approved, per match: the allowlist and the confirm / allow-once codes.

An approval covers exactly what it names (decisions.md 11.5). :func:`allowlisted`
excuses a match whose rule, pack or exact simple command an allowlist entry names;
:func:`approved` excuses a match whose rule an approved code for this exact line and cwd
names, when the rule's level now is within the level the code was offered at. Nothing
here excuses any other match of the line: :mod:`dcg.graduation` judges those.
:func:`offer` gives a blocked line one code naming every judged rule and its level, and
retires the confirm codes of the line that a hard block has outgrown.
"""

from __future__ import annotations

from dcg import paths
from dcg.hookio import HARD_BLOCK
from dcg.state import allowlist, codes, files

TYPE_CHECKING = False  # typing costs ms at start-up; type checkers treat this as True

if TYPE_CHECKING:
    from collections.abc import Callable

    from dcg.model import Match
    from dcg.response import ResponseConfig
    from dcg.shell.command import Command
    from dcg.verdicts import Item, Line

_SHELLS = ("sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh")
# Provenance labels that run a command as it is, here, as the same user with the same
# environment: a command entry still covers the command under them.
TRANSPARENT = frozenset(
    (
        "$(…)",
        "`…`",
        "<(…)",
        ">(…)",
        "eval",
        "exec",
        "time",
        "command",
        "builtin",
        "nohup",
        "nice",
        "ionice",
        "timeout",
        "stdbuf",
        *(f"{sh} -c" for sh in _SHELLS),
        *(f"stdin of {sh}" for sh in _SHELLS),
    )
)
ExactForm = tuple[tuple[str, ...], tuple[tuple[str, str], ...], str | None, tuple[str, ...]]
_forms: dict[str, ExactForm | None] = {}

# How a code lets a match through, and the file its kind lives in.
CODE_FILES = (("allow-once", paths.allow_once_file), ("confirm", paths.pending_file))


def code_file(via: str) -> str:
    return paths.pending_file() if via == "confirm" else paths.allow_once_file()


def exact_form(command: Command) -> ExactForm:
    """What a command entry is compared on: the words as the shell passes them, the
    redirections, the input text, and the provenance that is not :data:`TRANSPARENT`."""
    via = tuple(v for v in command.via if v not in TRANSPARENT)
    return command.argv, command.redirects, command.stdin, via


def entry_form(text: str) -> ExactForm | None:
    """The exact form of an allowlist entry's command: None unless it parses as one simple
    command run directly (no wrapper that changes who runs it, where or with what
    environment: ``sudo``, ``ssh``, ``env``, ``docker exec``, ``xargs``, …)."""
    if text in _forms:
        return _forms[text]
    form: ExactForm | None = None
    try:
        from dcg.shell import parse

        parsed = parse(text)
    except Exception:  # an entry the parser cannot read allows nothing
        parsed = []
    if len(parsed) == 1 and parsed[0].argv:
        form = exact_form(parsed[0])
        if form[3]:
            form = None
    _forms[text] = form
    return form


def same_command(text: str, command: Command) -> bool:
    """An allowlist entry's command ``text`` is ``command``: the same words, redirections
    and input, run directly or through the shell's own forms (``bash -c``, ``$(…)``,
    ``eval``, a heredoc fed to a shell, ``time``, ``timeout``, …). Never a longer
    command that starts the same way, never another simple command of the line."""
    form = entry_form(text)
    return form is not None and form == exact_form(command)


def allowlisted(items: list[Item], response: ResponseConfig, now: float, *, write: bool) -> None:
    """Excuse each match an allowlist entry names (``[allowlist] user = false`` of a
    managed policy leaves only the system allowlist). ``write`` False keeps the parsed
    allowlist out of its cache."""
    user = response.allowlist_user
    for it in items:
        command = it.match.command

        def same(text: str, command: Command = command) -> bool:
            return same_command(text, command)

        try:
            entry = allowlist.find(it.match.rule_id, same, now, write_cache=write, user=user)
        except OSError as exc:
            files.note(f"dcg: cannot read the allowlist ({exc})")
            return
        if entry is not None:
            it.via, it.approval = "allowlist", dict(entry)


def approved(line: Line, command: str, now: float, level_now: Callable[[Match], str]) -> None:
    """Excuse the matches an approved code for this line and cwd names, where the rule's
    ``level_now`` is within the level the code was offered at (a confirm code never
    excuses a rule that has reached a hard block)."""
    found: list[tuple[str, dict[str, object]]] = []
    for via, where in CODE_FILES:
        try:
            recs = codes.approved_for(where(), command=command, cwd=line.cwd, now=now)
        except OSError as exc:
            files.note(f"dcg: cannot use approved codes ({exc})")
            recs = []
        found += [(via, r) for r in recs]
    if not found:
        return
    levels: dict[str, str] = {}
    for it in line.items:
        rule_id = it.match.rule_id
        if it.via is not None or not any(rule_id in codes.rules_of(r) for _, r in found):
            continue
        if rule_id not in levels:
            levels[rule_id] = level_now(it.match)
        for via, rec in found:
            if codes.covers(rec, rule_id, levels[rule_id]):
                it.via, it.approval = via, rec
                break


def use(line: Line, now: float) -> set[str]:
    """Consume the single-use codes the line is let through by; returns the full hashes
    of those another hook call used first (they no longer excuse anything)."""
    lost: set[str] = set()
    tried: set[str] = set()
    for it in line.items:
        rec = it.approval
        if it.via not in ("confirm", "allow-once") or rec is None or not codes.single_use(rec):
            continue
        key = str(rec.get("full_hash"))
        if key in tried:
            continue
        tried.add(key)
        try:
            used = codes.consume(code_file(str(it.via)), key, now)
        except OSError as exc:
            files.note(f"dcg: cannot use approved codes ({exc})")
            used = False
        if not used:
            lost.add(key)
    return lost


def offer(line: Line, command: str, session_id: str, now: float) -> str | None:
    """One code for the blocked line, naming every judged rule and its level; offering an
    allow-once code retires the confirm codes of this line its rules have outgrown."""
    lead = line.lead()
    if lead is None:
        return None
    rules = {it.match.rule_id: it.verdict.level for it in line.judged() if it.verdict}
    hard = line.level == HARD_BLOCK
    kind = "allow-once" if hard else "confirm"
    path, other = code_file(kind), code_file("confirm" if hard else "allow-once")
    try:
        if hard:
            codes.retire(other, command=command, cwd=line.cwd, rules=rules, now=now)
        return codes.offer(
            path,
            kind=kind,
            now=now,
            rules=rules,
            rule_id=lead.match.rule_id,
            cwd=line.cwd,
            command=command,
            session_id=session_id,
            others=(other,),
        )
    except OSError as exc:
        files.note(f"dcg: cannot store an approval code ({exc})")
        return None


def waiting(command: str, cwd: str, now: float) -> list[str]:
    """The kinds of codes offered for this line and cwd that wait for a person."""
    chash = codes.command_hash(command)
    out = []
    for kind, where in CODE_FILES:
        recs = codes.live_codes(where(), now)
        if any(
            r.get("command_hash") == chash and r.get("cwd") == cwd and not codes.approved(r)
            for r in recs
        ):
            out.append(kind)
    return out
