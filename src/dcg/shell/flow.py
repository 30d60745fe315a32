"""Where a variable's value holds: subshells, branches that may not run, function bodies.

The walker reads a line's simple commands in source order and keeps one value per
variable. Bash does not simply carry every assignment on: a subshell's (``( … )``, each
element of a pipeline, a job sent to the background with ``&``) are lost when it ends; a
branch (``then``/``else``, a ``case`` arm, a loop body, the right side of ``&&``/``||``)
may not run at all, and a function body runs only when called. The parser marks the
frames around each simple command (:class:`dcg.shell.parser.Frames`); :func:`run` applies
them while the walker goes: a subshell's variables are put back as they were; a branch
whose condition is literally ``false`` (``true`` for ``||``/``until``) changes nothing; a
branch that may or may not run leaves a variable it changed *unknown* when the variable
had another value before (``c=rm; if x; then c=ls; fi; $c -rf src`` is a computed
command), and keeps the value of one the line had not set (``if …; then OUT=build; else
OUT=dist; fi``). Files written inside any of them stay written, and so do paths moved or
linked (the state's ``moved`` table): both are facts about the disk, not the shell.
"""

from __future__ import annotations

from dcg.shell import choices, conds
from dcg.shell.parser import Frame, Simple
from dcg.shell.state import CWD as _CWD
from dcg.shell.state import DISK, TABLES, Vars
from dcg.shell.state import UNKNOWN_CWD as _UNKNOWN_CWD

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from dcg.shell.words import Token

_MISSING = object()


class _Construct:
    __slots__ = ("acc", "choices", "gained", "snapshot", "tables", "taken")

    def __init__(self, snapshot: Vars) -> None:
        self.snapshot = snapshot
        self.taken = False  # an earlier arm certainly ran: the later ones do not
        self.acc: dict[str, str | None] = {}
        self.choices: dict[str, set[str] | None] = {}  # the values each branch left
        self.gained: set[str] = set()  # walker facts a branch that may run made true
        self.tables: dict[str, dict[str, str | None]] = {n: {} for n in TABLES}


def _restore(env: Vars, snapshot: Vars) -> None:
    """``env`` as it was, except the files written and paths moved since (they stay)."""
    disk = [env.state.table(name) for name in DISK]
    env.clear()
    env.update(snapshot)
    env.state.load(snapshot.state)
    for name, table in zip(DISK, disk, strict=True):
        env.state.table(name).update(table)


def _changes(
    now: dict[str, str | None], before: dict[str, str | None], local: set[str] | None = None
) -> dict[str, object]:
    """What a function body changed (``_MISSING``: removed)."""
    return {
        k: now.get(k, _MISSING)
        for k in {*now, *before}
        if (local is None or k not in local) and now.get(k, _MISSING) != before.get(k, _MISSING)
    }


def _replay(table: dict[str, str | None], changes: dict[str, object]) -> None:
    for key, value in changes.items():
        if value is _MISSING:
            table.pop(key, None)
        else:
            table[key] = value  # type: ignore[assignment]


def _unknown(changes: dict[str, object]) -> dict[str, object]:
    return {k: v if v is _MISSING else None for k, v in changes.items()}


def _merge(
    now_d: dict[str, str | None], before_d: dict[str, str | None], acc: dict[str, str | None]
) -> None:
    """Fold what a branch that may run changed into ``acc``: a name the line had not set
    keeps its new value, one whose value changed becomes unknown."""
    for key in {*now_d, *before_d}:
        now, before = now_d.get(key, _MISSING), before_d.get(key, _MISSING)
        if now is before or now == before:
            continue
        if before is _MISSING and acc.get(key, "") is not None and now is not _MISSING:
            # another arm's other value: one of two (`then c=rm; else c=ls; fi`)
            acc[key] = now if acc.get(key, now) == now else None  # type: ignore[assignment]
        else:
            acc[key] = _UNKNOWN_CWD if key == _CWD else None


def _dead(frame: Frame, last: list[str]) -> bool:
    """The branch cannot run: its condition's last command is literally false (true)."""
    if frame.label in ("then", "while", "&&"):
        return last == ["false"]
    if frame.label in ("until", "||"):
        return last in (["true"], [":"])
    return False


_LOCALS = frozenset(("local", "declare", "typeset"))
_SHELL_TABLES = tuple(n for n in TABLES if n not in DISK)  # the disk stays (_restore)


class _Runner:
    __slots__ = ("calls", "constructs", "env", "funcs", "idle", "last_flow", "locals", "open",
                 "skip", "status", "unsure")  # fmt: skip

    def __init__(self, env: Vars, funcs: object = None) -> None:
        self.env = env
        self.funcs = funcs
        # The exit status of the command before, when certain (dcg.shell.conds), and the
        # frames of branches bash certainly does not take: their commands are not walked.
        self.status: int | None = None
        self.skip: set[int] = set()
        # `a && …`/`a || …` arms entered when whether they run was not decided (a's status
        # unknown): the status after one of them is not known. Those decided not to run
        # (``idle``) keep a's status unless a command in them is walked all the same
        # (`a || { b; }`: only `a || b` is skipped by its link), which makes them unsure.
        self.unsure: set[int] = set()
        self.idle: set[int] = set()
        self.last_flow: list[Frame] = []  # the frames of the command before
        self.open: list[tuple[Frame, Vars, bool]] = []
        self.constructs: dict[int, _Construct] = {}
        # What calling a function defined on the line does: variables, facts, fact tables.
        self.calls: dict[
            str, tuple[dict[str, object], tuple[str, ...], dict[str, dict[str, object]]]
        ] = {}
        self.locals: dict[int, set[str]] = {}

    def in_func(self) -> Frame | None:
        return next((f for f, _, _ in reversed(self.open) if f.kind == "func"), None)

    def after(self, simple: Simple, snapshot: Vars | None) -> None:
        """Effects a command has on the variables beyond its own assignments: a call of a
        function defined on the line, ``local`` (outside a function it fails)."""
        fields = simple.fields
        if not fields:
            return
        if fields[0] in _LOCALS:
            func = self.in_func()
            if func is not None:
                names = {a.partition("=")[0] for a in fields[1:] if a[:1] not in ("-", "+")}
                self.locals.setdefault(func.cid, set()).update(names)
            elif snapshot is not None:
                _restore(self.env, snapshot)
        call = self.calls.get(fields[0])
        walked, self.env.state.call_walked = self.env.state.call_walked, None
        if call is not None and walked != fields[0]:
            # What the body did where it was defined, when no walk of this call with its
            # arguments applied it (dcg.shell.cases): there `$1` was empty, so a judged
            # function's values are unknown after a call not walked again (`f() { c=$1;
            # }; f rm; f rm; $c -rf src`).
            judged = self.funcs is not None and fields[0] in self.funcs  # type: ignore[operator]
            self.env.state.gain(call[1])
            _replay(self.env, _unknown(call[0]) if judged else call[0])
            for name, changes in call[2].items():
                _replay(self.env.state.table(name), _unknown(changes) if judged else changes)

    def step(self, flow: list[Frame], last: list[str]) -> None:
        k = 0
        while k < len(self.open) and k < len(flow) and self.open[k][0] is flow[k]:
            k += 1
        while len(self.open) > k:
            frame = self.open[-1][0]
            if (
                frame.kind != "arm"
                or frame.label not in ("&&", "||", "elif")
                or id(frame) in self.unsure
            ):
                self.status = None  # a compound's status: not followed
            self.skip.discard(id(frame))
            self.unsure.discard(id(frame))
            self.idle.discard(id(frame))
            self._close(*self.open.pop())
        for frame in flow[k:]:
            self._enter(frame, last)

    def _enter(self, frame: Frame, last: list[str]) -> None:
        env = self.env
        if frame.kind == "arm":
            c = self.constructs.get(frame.cid)
            if c is None:
                c = self.constructs[frame.cid] = _Construct(env.copy())
            else:
                _restore(env, c.snapshot)
            self.open.append((frame, c.snapshot, _dead(frame, last)))
            if frame.label in ("&&", "||"):
                if self.status is None or not self.decided():
                    self.unsure.add(id(frame))
                elif self.status != (0 if frame.label == "&&" else 1):
                    self.idle.add(id(frame))
            if self._not_taken(frame, c):
                self.skip.add(id(frame))
            if frame.label in ("&&", "then") and last[:1] in (["cd"], ["pushd"]):
                self._cd_held()
        else:
            self.open.append((frame, env.copy(), False))
            if frame.label == "coproc":
                env.state.stdin = True  # dcg.shell.opaque.unseen_stdin

    def decided(self) -> bool:
        """Conditions are evaluated: not in a function's body read where it is defined
        (it runs later, with other values), and the test commands are the builtins."""
        return self.in_func() is None and conds.decidable(self.env, self.funcs or self.calls)

    def _not_taken(self, frame: Frame, c: _Construct) -> bool:
        """The arm certainly does not run (the condition before it was decided)."""
        label = frame.label
        if label in ("elif", "else", "then") and c.taken:
            return True
        if label not in ("then", "while", "until") or self.status is None:
            return False
        if not self.decided():
            return False
        runs = self.status == (1 if label == "until" else 0)
        if runs and label == "then":
            c.taken = True
        return not runs

    def linked(self, simple: Simple) -> bool:
        """``a && b``/``a || b``: b certainly does not run after a's decided status."""
        wanted = 1 if simple.link == "&&" else 0
        return bool(simple.link) and self.status == wanted and self.decided()

    def _cd_held(self) -> None:
        """``cd D && …``: the branch runs only if the cd (in this shell, not a subshell that
        has ended) succeeded, so its commands certainly run in D."""
        still = {id(f) for f, _, _ in self.open}
        here = self.env.get(_CWD)
        if all(id(f) in still for f in self.last_flow) and here not in (None, _UNKNOWN_CWD):
            self.env.state.cwd_sure = here

    def _close(self, frame: Frame, snapshot: Vars, dead: bool) -> None:
        env = self.env
        if frame.kind == "sub":
            _restore(env, snapshot)
            return
        if frame.kind == "func":  # runs when called: what a call changes is recorded
            local = self.locals.pop(frame.cid, set())
            self.calls[frame.label] = (
                _changes(env, snapshot, local),
                env.state.gained(snapshot.state),
                {n: _changes(env.state.table(n), snapshot.state.table(n)) for n in _SHELL_TABLES},
            )
            _restore(env, snapshot)
            return
        c = self.constructs.get(frame.cid)
        assert c is not None
        if not dead:
            _fold(env, snapshot, c)
        _settle(env, snapshot, c)


def _fold(env: Vars, snapshot: Vars, c: _Construct) -> None:
    """What one branch that may run leaves, folded into ``c``."""
    c.gained.update(env.state.gained(snapshot.state))
    _merge(env, snapshot, c.acc)
    choices.gather(env, snapshot, c.choices)
    for name in _SHELL_TABLES:
        _merge(env.state.table(name), snapshot.state.table(name), c.tables[name])


def _settle(env: Vars, snapshot: Vars, c: _Construct) -> None:
    """The table after the branches folded into ``c``: as before them, with their changes."""
    _restore(env, snapshot)
    env.update(c.acc)
    env.state.gain(tuple(c.gained))
    for name in TABLES:
        env.state.table(name).update(c.tables[name])
    choices.record(env, c.choices, c.acc)


def _after_walk(simple: Simple, env: Vars) -> None:
    """What a command walked changes for the conditions after it (dcg.shell.conds)."""
    if simple.fields[:1] == ["enable"]:
        env.state.enabled = True
    conds.untracked(simple, env)


def _walk(simple: Simple, env: Vars, walk: Callable[[Simple], None], funcs: object) -> bool:
    """One walk, or one per value of the program's variable known to hold one of a few
    values (then True: the command's status is not known)."""
    env.state.call_walked = None
    name = choices.used(simple, env, funcs) if env.state.choices else None
    if name is None:
        walk(simple)
        return False
    # Each value from the same table, as branches of which one runs (`$PM install`).
    c = _Construct(env.copy())
    for value in (c.snapshot.state.choices[name] or "").split(choices.SEP):
        _restore(env, c.snapshot)
        dict.__setitem__(env, name, value)
        walk(simple)
        dict.__setitem__(env, name, None)
        _fold(env, c.snapshot, c)
    _settle(env, c.snapshot, c)
    return True


def run(
    simples: list[Simple],
    env: Vars,
    walk: Callable[[Simple], None],
    funcs: dict[str, tuple[str, list[tuple[int, list[Token]]]]] | None = None,
) -> None:
    """Walk ``simples`` in order, applying their frames to ``env``; a function the line
    defines goes into ``funcs``, so that a call with arguments is judged (dcg.shell.cases)."""
    if not any(s.flow or (s.words and s.words[0].plain() == "local") for s in simples):
        for simple in simples:
            _walk(simple, env, walk, funcs)
            _after_walk(simple, env)
        return
    runner = _Runner(env, funcs)
    last: list[str] = []
    for simple in simples:
        if funcs is not None:
            for frame in simple.flow:
                if frame.kind == "func" and frame.body and frame.label not in funcs:
                    funcs[frame.label] = ("this line", [(1, frame.body)])
        runner.step(simple.flow, last)
        if runner.skip or runner.linked(simple):
            env.state.decided[0] += 1  # a call's judging depends on values (dcg.shell.cases)
            continue  # bash does not run it: status and variables stay as they are
        local = (
            simple.words
            and simple.words[0].plain() == "local"
            and not runner.in_func()
            and env.state.in_function is None  # a call's body (dcg.shell.cases)
        )
        before = env.copy() if local else None
        known = runner.status is not None  # `a && b` after an unknown a: b may not have run
        if runner.idle:
            runner.unsure.update(id(f) for f in simple.flow if id(f) in runner.idle)
        several = _walk(simple, env, walk, funcs)
        runner.status = (
            conds.status(simple, env)
            if simple.solo and (known or not simple.link) and not several
            else None
        )
        _after_walk(simple, env)
        runner.after(simple, before)
        last, runner.last_flow = simple.fields, simple.flow
    runner.step([], last)
