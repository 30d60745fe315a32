"""The keep step as the hook hands it to the graduated response, and the silent keep.

:class:`Step` is bound to one hook call (the request and the line's matches and simple
commands); :mod:`dcg.graduation` calls it once, on the level it is about to let through.
:func:`silent` is the hook's answer to a line that matched nothing but deletes or
overwrites files holding work git cannot give back: they are kept, and the person (not
the model) is told in one line.
"""

from __future__ import annotations

from dcg.safety import Unkept

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from dcg.config import Config
    from dcg.hookio import HookRequest, Reply
    from dcg.model import Match
    from dcg.safety.argv import Task
    from dcg.safety.keep import Kept
    from dcg.safety.settings import Settings
    from dcg.shell.command import Command


class Result:
    """What the keep step did: ``kept`` (None when there was nothing to keep) or, when
    what the line destroys could not be kept, ``unkept`` (why, for the texts)."""

    __slots__ = ("kept", "unkept")

    def __init__(self, kept: Kept | None = None, unkept: str = "") -> None:
        self.kept = kept
        self.unkept = unkept

    @property
    def snapshot(self) -> str | None:
        return self.kept.id if self.kept is not None else None


class Step:
    """Keep what one command line destroys, once, when the graduated response lets it run.

    Bound to the hook call (the request and every parsed simple command of the line);
    :mod:`dcg.graduation` says which matches it lets run: ``warned`` (judged warnings: what
    they destroy must be kept, else they are stopped) and ``approved`` (a person's confirm
    or allow-once: kept where it can be, never stopped again).
    """

    __slots__ = ("commands", "record", "request", "section")

    def __init__(
        self,
        request: HookRequest,
        commands: Sequence[Command],
        section: Mapping[str, object],
        *,
        record: bool = True,
    ) -> None:
        self.request = request
        self.commands = list(commands)
        self.section = section
        self.record = record  # [history] record_commands: the snapshot names the command

    def __call__(self, via: str, warned: Sequence[Match], approved: Sequence[Match] = ()) -> Result:
        """Keep for a line let through ``via`` (``warning``, ``confirm``, ``allow-once``)."""
        from dcg.safety.settings import from_config

        settings = from_config(self.section)
        if not settings.enabled:
            return Result()
        try:
            tasks = self.plan(warned, approved)
            rules = [m.rule_id for m in (*warned, *approved)]
            return Result(_keep(self.request, tasks, settings, via, self.record, rules))
        except Unkept as exc:
            return Result(unkept=str(exc))
        except Exception as exc:  # an unforeseen failure keeps nothing: say so, never crash
            log_error(exc)
            return Result(unkept=f"an internal error ({type(exc).__name__}: {exc})")

    def dry(self, warned: Sequence[Match], approved: Sequence[Match] = ()) -> Result:
        """What the keep step would do, without keeping anything (``dcg test``/``explain``):
        ``unkept`` says why it would stop the command."""
        from dcg.safety.settings import from_config

        if not from_config(self.section).enabled:
            return Result()
        try:
            self.plan(warned, approved)
        except Unkept as exc:
            return Result(unkept=str(exc))
        return Result()

    def plan(self, warned: Sequence[Match], approved: Sequence[Match] = ()) -> list[Task]:
        """The keep tasks of the line (:class:`Unkept` when a warned match cannot be kept)."""
        from dcg import oslite as os
        from dcg.safety.keep import plan

        cwd = self.request.cwd or os.getcwd()
        return plan(warned, approved, self.commands, cwd, self.request.command)

    def describe(self, matches: Sequence[Match]) -> dict[str, object]:
        """For ``dcg explain``: whether the safety net is on, what it would keep first, or
        why it would stop the command."""
        from dcg.safety.settings import format_size, format_time, from_config

        settings = from_config(self.section)
        out: dict[str, object] = {"enabled": settings.enabled, "keep": [], "unkept": None}
        if not settings.enabled:
            return out
        try:
            tasks = self.plan(matches)
        except Unkept as exc:
            out["unkept"] = str(exc)
            return out
        out["keep"] = [describe_task(t) for t in tasks]
        out["budgets"] = f"{format_size(settings.max_size)}, {format_time(settings.max_time)}"
        return out


def describe_task(task: Task) -> str:
    """One line naming what a task keeps."""
    from dcg.safety.gitsnap import Scope
    from dcg.safety.refsnap import RefScope

    scope = task.scope
    if isinstance(scope, Scope):
        where = ", ".join(scope.pathspecs) if scope.pathspecs else "the whole work tree"
        what = "index and work tree" if scope.index_head else "files"
        return f"git {what} of {task.cwd} ({where}) as refs/dcg/<id>"
    if isinstance(scope, RefScope):
        parts = [*scope.refs]
        if scope.stash is not None:
            parts.append("the stash")
        if scope.reflogs:
            parts.append("the reflogs")
        return f"refs of {task.cwd}: {', '.join(parts) or 'none'}"
    how = "hard links or copies" if task.link_ok else "copies"
    return f"{how} of {', '.join(task.paths)}"


def _keep(
    request: HookRequest,
    tasks: Sequence[Task],
    settings: Settings,
    via: str,
    record: bool,
    rules: Sequence[str],
) -> Kept | None:
    from dcg import oslite as os
    from dcg import paths, redact
    from dcg.safety.keep import keep_line

    if not tasks:
        return None  # nothing to keep: not even the command text is looked at
    from dcg import watchdog

    cwd = request.cwd or os.getcwd()
    command = redact.for_record(request.command) if record else "(not recorded)"
    # Keeping waits on git and the disk under a wall-clock budget of its own
    # (dcg.safety.budget): the hook's CPU alarm is paused meanwhile.
    with watchdog.paused():
        return keep_line(
            tasks,
            settings,
            cwd=cwd,
            command=command,
            rules=list(dict.fromkeys(rules)),
            via=via,
            project=paths.project_root(cwd),
        )


def silent(
    request: HookRequest,
    commands: Sequence[Command],
    section: Mapping[str, object],
    *,
    record: bool = True,
) -> Reply | None:
    """Keep what a line without a match would destroy; the person's one-line notice."""
    from dcg import oslite as os
    from dcg.safety import overwrites
    from dcg.safety.settings import from_config

    settings = from_config(section)
    if not settings.enabled:
        return None
    cwd = request.cwd or os.getcwd()
    found = [c for c in commands if overwrites.victims(c, cwd)]
    if not found:
        return None
    try:
        from dcg.safety.keep import plan

        tasks = plan((), (), found, cwd, request.command)
        kept = _keep(request, tasks, settings, "write", record, ())
    except Unkept:
        return None  # an everyday write is never stopped; nothing kept, nothing said
    except Exception as exc:
        log_error(exc)
        return None
    if kept is None:
        return None
    from dcg.safety.notice import reply

    return reply(request, f"dcg kept a copy of {kept.what()} this command overwrites or "
                 f"deletes: dcg undo {kept.id} brings it back.")  # fmt: skip


def decide_writes(text: str, flags: Mapping[str, object], env: Mapping[str, str]) -> Reply:
    """A payload naming no pack's keyword that may overwrite files: kept if they hold work.

    Never stops anything: a failure here gives no opinion, as the prefilter would have.
    """
    from dcg import agents, jsonfast
    from dcg.hookio import Reply

    try:
        agent = flags.get("agent")
        payload = jsonfast.loads(text)
        request = agents.read_request(payload, agent if isinstance(agent, str) else None)
        if request is None or request.shell == "file":
            return Reply()
        from dcg import config

        cfg = config.load(request.cwd, env, flags)
        return silent_keep(request, cfg, None)
    except Exception as exc:
        log_error(exc)
        return Reply()


def silent_keep(request: HookRequest, cfg: Config, commands: Sequence[Command] | None) -> Reply:
    """The safety net's silent keep for a line without a match (``commands`` parsed, or None
    to parse it here); a one-line notice to the person when something was kept."""
    import time

    from dcg.hookio import Reply

    if cfg.safety_net.get("enabled") is False:
        return Reply()
    if commands is None:
        from dcg.engine import parse_line

        budget = cfg.hook["budget_ms"]
        assert isinstance(budget, int)
        deadline = time.thread_time() + budget / 1000
        commands = parse_line(request.command, request.shell, deadline, request.cwd)
    from dcg.safety.hint import may_overwrite

    if not may_overwrite(commands):
        return Reply()

    record = cfg.history.get("record_commands") is not False
    return silent(request, commands, cfg.safety_net, record=record) or Reply()


def log_error(exc: BaseException) -> None:
    """The traceback to dcg's error log (as the hook does); never raises."""
    try:
        import traceback

        from dcg import paths
        from dcg.state import files

        text = "".join(traceback.format_exception(exc))
        files.append_line(paths.error_log(), text.rstrip("\n"))
    except Exception:
        pass
