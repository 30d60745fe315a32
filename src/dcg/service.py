"""The engine as a service: judge one line or one file-tool request the way the hook does.

``dcg hook`` (:mod:`dcg.hook`), ``dcg test`` and ``dcg explain``
(:mod:`dcg.commands.test`) and ``dcg scan`` (:mod:`dcg.commands.scan`) all come here to
turn a command into matches, so that none of them judges a line differently: a line past
a parsing bound is the ``core.dcg:too-complex`` rule, a file tool writing dcg's own files
a ``core.dcg`` match. The hook keeps only what is the hook's own: the prefilter, reading
the payload, the failure policy and the reply.
"""

from __future__ import annotations

from dcg.engine import candidate_packs, scan_text

TYPE_CHECKING = False  # typing costs ms at start-up; type checkers treat this as True
if TYPE_CHECKING:
    from dcg.config import Config
    from dcg.engine import Evaluation
    from dcg.hookio import HookRequest
    from dcg.model import Match


def run_engine(
    request: HookRequest, cfg: Config, deadline: float, *, read_files: bool = True
) -> Evaluation:
    """Evaluate, turning a parse that exceeds a bound into the too-complex rule.

    ``read_files=False`` (``dcg scan``) judges the line without reading the scripts it
    runs: the scan reads those files where they are written.
    """
    from dcg.engine import Evaluation, evaluate
    from dcg.shell import TooComplex

    try:
        return evaluate(
            request.command,
            cfg.packs,
            cwd=request.cwd,
            shell=request.shell,
            deadline=deadline,
            quiet_rules=cfg.quiet_rules,
            read_files=read_files,
        )
    except (TooComplex, ValueError) as exc:  # ValueError: a NUL byte in a path (`$'a\0b'`)
        if isinstance(exc, ValueError) and "null byte" not in str(exc):
            raise
        if not candidate_packs(scan_text(request.command), cfg.packs):
            return Evaluation(request.command)
        match = synthetic("too-complex", request.command, str(exc))
        return Evaluation(request.command, (match.command,), (match,), tuple(cfg.packs))


def file_evaluation(request: HookRequest) -> Evaluation:
    """The ``core.dcg`` match of a file tool that writes dcg's state or hook settings."""
    from dcg import selfguard
    from dcg.engine import Evaluation
    from dcg.model import Match
    from dcg.packs import load
    from dcg.shell.command import Command

    if any("\x00" in p for p in request.paths):  # no file has such a name: what is meant?
        match = synthetic("too-complex", request.command, "a NUL byte in a file path")
        return Evaluation(request.command, (match.command,), (match,), ("core.dcg",))
    kind = selfguard.file_kind(list(request.paths), request.cwd)
    if kind is None:
        return Evaluation(request.command)
    pack = load("core.dcg")
    name = {"state": "write-state", "hooks": "edit-hooks"}.get(kind, "disable")
    rule = next(r for r in pack.rules if r.name == name)
    command = Command((request.tool, *request.paths), via=(f"{request.tool} tool",))
    return Evaluation(request.command, (command,), (Match(pack, rule, command),), (pack.id,))


def synthetic(rule_name: str, line: str, why: str) -> Match:
    """A match of one of ``core.dcg``'s pattern-less rules (too-complex, too-large)."""
    from dcg.model import Match
    from dcg.packs import load
    from dcg.shell.command import Command

    pack = load("core.dcg")
    rule = next(r for r in pack.rules if r.name == rule_name)
    command = Command((line[:200],), data=(("(not analysed)", why),))
    return Match(pack, rule, command)
