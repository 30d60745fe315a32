"""Rules and packs: the data every pack module is made of.

These are plain slotted classes rather than NamedTuples or enums on purpose: this
module is imported by the hook for every command that mentions a pack keyword, and
`typing`/`enum` would cost more start-up time than the whole evaluation.
"""

from __future__ import annotations

from dcg.frozen import Frozen

# typing is not imported at run time: it costs more than the hook's whole budget.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Literal

    from dcg.shell.command import Command

    SeverityName = Literal["critical", "high", "medium", "low"]
    KeepKind = Literal["worktree", "files", "contents", "refs", "none"]
    Check = Callable[[Command, str], bool]

# Higher is worse; used to pick the most severe match of a command line.
SEVERITY_RANK = {"low": 1, "medium": 2, "high": 3, "critical": 4}

# How what a rule destroys can be kept before the command is let through (dcg.safety):
# "worktree" the git index and work tree it reaches, "files" the files and trees it
# deletes, "contents" the files it overwrites in place, "refs" the branch, tag and stash
# tips and reflogs it drops; "none" where nothing can be kept (a database, a remote, an
# account): such a rule is never let through with a mere warning (decisions.md 11.2).
KEEP_KINDS = ("worktree", "files", "contents", "refs", "none")


class Rule(Frozen):
    """One destructive pattern of a pack.

    ``pattern`` is a regular expression searched in a simple command's match text
    (its executed words joined by spaces, followed by its output redirections as
    ``>target``; see :class:`dcg.shell.command.Command`). It is compiled only when one
    of ``keywords`` occurs at a word start in that text (all rules of a pack are tried
    when ``keywords`` is empty), so a safe command that mentions the pack's tool does
    not pay for compiling every pattern. ``check``, when given, is called with the
    command and the payload's cwd after the pattern matched and must also return True;
    it holds the logic a regex cannot express (e.g. resolving delete targets).

    ``blocks`` and ``allows`` are example command lines that must and must not be
    stopped by this rule; the test suite runs every one of them.

    ``keep`` is one of :data:`KEEP_KINDS`: how the safety net keeps what the rule
    destroys. The default, ``"none"``, suits the optional packs, whose rules destroy what
    is outside the machine.
    """

    __slots__ = (
        "allows",
        "alternative",
        "blocks",
        "check",
        "explanation",
        "keep",
        "keywords",
        "name",
        "pattern",
        "reason",
        "severity",
    )

    name: str
    severity: SeverityName
    pattern: str
    reason: str
    explanation: str
    alternative: str
    blocks: tuple[str, ...]
    allows: tuple[str, ...]
    keywords: tuple[str, ...]
    check: Check | None
    keep: KeepKind

    def __init__(
        self,
        name: str,
        *,
        severity: SeverityName,
        pattern: str,
        reason: str,
        explanation: str,
        alternative: str,
        blocks: tuple[str, ...] = (),
        allows: tuple[str, ...] = (),
        keywords: tuple[str, ...] = (),
        check: Check | None = None,
        keep: KeepKind = "none",
    ) -> None:
        self._set("name", name)
        self._set("severity", severity)
        self._set("pattern", pattern)
        self._set("reason", reason)
        self._set("explanation", explanation)
        self._set("alternative", alternative)
        self._set("blocks", blocks)
        self._set("allows", allows)
        self._set("keywords", keywords)
        self._set("check", check)
        self._set("keep", keep)

    def __repr__(self) -> str:
        return f"Rule({self.name!r}, severity={self.severity!r})"


class Pack(Frozen):
    """A named group of rules about one tool or domain.

    ``safe`` holds regular expressions for commands of this tool that are known to be
    harmless although they look like a rule (``git checkout -b``); a safe pattern
    excuses only the simple command it matches, and only from this pack's rules.
    The pack's keywords live in the registry (``dcg.packs``) so that the hook can
    prefilter without importing any pack module.
    """

    __slots__ = ("description", "id", "rules", "safe")

    id: str
    description: str
    rules: tuple[Rule, ...]
    safe: tuple[str, ...]

    def __init__(
        self,
        id: str,
        *,
        description: str,
        rules: tuple[Rule, ...],
        safe: tuple[str, ...] = (),
    ) -> None:
        self._set("id", id)
        self._set("description", description)
        self._set("rules", rules)
        self._set("safe", safe)

    def rule_id(self, rule: Rule) -> str:
        return f"{self.id}:{rule.name}"

    def __repr__(self) -> str:
        return f"Pack({self.id!r}, {len(self.rules)} rules)"


class Match(Frozen):
    """A rule that matched one simple command of a command line."""

    __slots__ = ("command", "pack", "rule")

    pack: Pack
    rule: Rule
    command: Command

    def __init__(self, pack: Pack, rule: Rule, command: Command) -> None:
        self._set("pack", pack)
        self._set("rule", rule)
        self._set("command", command)

    @property
    def rule_id(self) -> str:
        return f"{self.pack.id}:{self.rule.name}"

    @property
    def severity(self) -> SeverityName:
        return self.rule.severity

    @property
    def reason(self) -> str:
        """The rule's reason, with what could not be seen and where a script said it."""
        reason = self.rule.reason
        argv = self.command.argv
        if len(argv) == 2 and argv[0] == "<opaque>":
            reason += f" ({argv[1]})"
        where = [v[3:] for v in self.command.via if v.startswith("in ")]
        if where:
            reason += f" [in {where[-1]}]"
        return reason

    def __repr__(self) -> str:
        return f"Match({self.rule_id!r}, {self.command.text!r})"
