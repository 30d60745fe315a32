"""The hook: read one agent payload, decide, answer in that agent's protocol.

This runs before every shell command an agent issues, as a fresh process, so the
common case is made cheap: the raw payload is scanned for the keywords of every
registered pack before anything else is imported, and a payload that mentions none
gets no opinion (no output, exit 0) without parsing JSON, reading config or touching
state. Failure policy (decisions.md §6): malformed input → no opinion; an internal
error or a blown time budget on a command that mentions an enabled pack's keyword →
deny, unless ``[hook] fail_open = true``.
"""

from __future__ import annotations

import sys

from dcg.engine import candidate_packs, mentions_powershell, payload_scan, scan_text
from dcg.packs import REGISTRY

# typing is not imported at run time: it costs more than the hook's whole budget.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import BinaryIO, TextIO

    from dcg.config import Config
    from dcg.hookio import HookRequest, Outcome, Reply
    from dcg.model import Match
    from dcg.shell.command import Command

MAX_STDIN = 1 << 20  # 1 MiB: the bound on a shell command's payload (decisions 10.1)
# A larger payload is still read whole up to this, so that a file tool's big write can be
# decoded and judged by its path; past it nothing is decoded at all.
MAX_DECODE = 64 << 20

_ALL_PACKS = tuple(pack_id for pack_id, _ in REGISTRY)

# Flags taking a value, and the config flag each one sets.
_VALUE_FLAGS = {
    "--agent": "agent",
    "--mode": "mode",
    "--session-threshold": "session_threshold",
    "--history-threshold": "history_threshold",
}


HELP = """\
usage: dcg hook [--agent NAME] [--mode MODE] [--no-warnings|--quiet]
                [--session-threshold N] [--history-threshold N]

Read one agent hook payload (JSON) on stdin and answer it in that agent's protocol.
Agents run this; a person runs `dcg test` or `dcg explain` instead.

  --agent NAME           {agents}
                         (without it: detected from the payload; Claude Code by default)
  --mode MODE            paranoid, strict, standard or lenient for this call
  --no-warnings, --quiet do not print warning notices
  --session-threshold N  occurrences in a session before a soft block
  --history-threshold N  occurrences in the history window before a hard block
"""


def help_text() -> str:
    """``dcg hook --help``: the agent names come from the one registry (dcg.agents)."""
    import textwrap

    from dcg.agents import AGENTS

    pad = " " * 25  # the column the option texts start at
    names = textwrap.fill(", ".join(AGENTS), 91, initial_indent=pad, subsequent_indent=pad)
    names = names[len(pad) :]
    return HELP.format(agents=names)


class HookUsageError(Exception):
    pass


def parse_flags(argv: Sequence[str], notices: list[str] | None = None) -> dict[str, object]:
    """The hook's few flags, parsed by hand: argparse costs more than the whole hook.

    A flag that cannot be used is never fatal (decisions.md 10.5): it is dropped, or read
    the strictest way (an unknown ``--mode`` is ``paranoid``), and a one-line notice is
    added to ``notices``; without ``notices`` the first problem raises HookUsageError.
    """
    from dcg.response import MODES

    flags: dict[str, object] = {}
    args = list(argv)

    def problem(text: str) -> None:
        if notices is None:
            raise HookUsageError(text)
        notices.append(text)

    while args:
        arg = args.pop(0)
        name, eq, value = arg.partition("=")
        if name in _VALUE_FLAGS:
            if not eq:
                if not args or args[0].startswith("--"):
                    problem(f"{name} needs a value; ignoring it")
                    continue
                value = args.pop(0)
            key = _VALUE_FLAGS[name]
            if key.endswith("threshold"):
                if not value.isdigit() or int(value) < 1:
                    problem(f"{name} must be a positive integer; ignoring it")
                    continue
                flags[key] = int(value)
            elif key == "mode" and value not in MODES:
                problem(f"unknown --mode {value!r}; protecting in paranoid mode")
                flags[key] = "paranoid"
            elif key == "agent":
                from dcg.agents import AGENTS

                if value not in AGENTS:
                    problem(f"unknown --agent {value!r}; detecting the agent from the payload")
                    continue
                flags[key] = value
            else:
                flags[key] = value
        elif arg in ("--no-warnings", "--quiet"):
            flags["no_warnings"] = True
        else:
            problem(f"unknown option {arg!r}; ignoring it")
    return flags


# Words of commands that overwrite files without naming any pack's keyword; with a
# redirection that is not an append or to /dev/null (writes_hint) they send a payload
# to the safety net's cheap check of what it would overwrite (dcg.safety.step.silent).
_WRITERS = ("cp", "sed")


def writes_hint(text: str) -> bool:
    """The (scan-normalised) payload may overwrite a file: ``> f``, ``cp``, ``sed -i``."""
    from dcg.keywords import mentions, redirects_over

    return redirects_over(text) or mentions(text, _WRITERS)


def needs_engine(text: str) -> bool:
    """The prefilter: False only for a payload none of whose decoded strings names a pack's
    keyword (or PowerShell, whose commands are spelled differently)."""
    scan = payload_scan(text)
    return bool(candidate_packs(scan, _ALL_PACKS)) or mentions_powershell(scan)


def main(
    argv: Sequence[str] = (),
    stdin: BinaryIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    environ: Mapping[str, str] | None = None,
) -> int:
    out = sys.stdout if stdout is None else stdout
    err = sys.stderr if stderr is None else stderr
    if "--help" in argv or "-h" in argv:
        # Answered before stdin is read: a person asking for help must not wait on input.
        out.write(help_text())
        return 0
    try:
        stream = sys.stdin.buffer if stdin is None else stdin
        raw = stream.read(MAX_STDIN + 1)
        oversized = len(raw) > MAX_STDIN
        if oversized:
            raw += stream.read(MAX_DECODE + 1 - len(raw))
    except (OSError, ValueError):
        return 0
    text = raw.decode("utf-8", "surrogateescape")
    writes_only = False
    if not oversized and not needs_engine(text):
        if not writes_hint(payload_scan(text)):
            return 0
        writes_only = True
    # os itself is never imported on the hook's path (its ``_collections_abc`` costs a
    # tenth of a bare start): dcg.oslite stands in, and only past the prefilter.
    from dcg import oslite as os

    env = os.environ if environ is None else environ
    if stdout is None:  # the real hook process: pruning waits until it has answered
        from dcg.state import deferred

        deferred.defer_jobs()
    notices: list[str] = []
    flags = parse_flags(argv, notices) if argv else {}
    from dcg import watchdog

    # Every step from here on runs under the CPU alarm (evaluate_request tightens it to
    # the line's budget): past it the line is stopped, never left to the agent's time-out.
    watchdog.arm(watchdog.CEILING)
    try:
        if writes_only:
            from dcg.safety.step import decide_writes

            reply = decide_writes(text, flags, env)
        else:
            reply = decide(text, oversized, flags, env, notices)
    except watchdog.Overrun:
        reply = watchdog.overrun_reply(flags.get("agent"), None)
    except Exception as exc:  # never a traceback to the agent: fail closed
        log_error(exc)
        from dcg import agents

        agent = flags.get("agent")
        reply = agents.render_error(
            agent if isinstance(agent, str) else None,
            f"internal error: {type(exc).__name__}: {exc}",
        )
    finally:
        watchdog.disarm()
    if reply.stdout:
        out.write(reply.stdout)
        out.flush()
    if reply.stderr:
        err.write(reply.stderr)
        err.flush()
    recache = sys.modules.get("dcg.recache")
    if recache is not None:
        recache.save()
    deferred_jobs = sys.modules.get("dcg.state.deferred")
    if deferred_jobs is not None:
        deferred_jobs.run_deferred()
    return reply.exit_code


def _tool_hint(text: str) -> str | None:
    """The tool an undecodable payload names, read from its first ``"tool_name"``-like key."""
    head = text[: 1 << 16]
    for key in ('"tool_name"', '"toolName"', '"tool"'):
        i = head.find(key)
        if i < 0:
            continue
        j = head.find('"', head.find(":", i + len(key)) + 1)
        k = head.find('"', j + 1)
        if j > 0 and k > j:
            return head[j + 1 : k]
    return None


def _unreadable(text: str, agent: str | None, why: str) -> Reply:
    """A payload that cannot be decoded: stopped unless it plainly is not a shell tool's."""
    from dcg import agents
    from dcg.hookio import Reply

    tool = _tool_hint(text)
    # Every agent's shell tools (dcg.agents.shell_tools: rare, so importing every adapter
    # here costs nothing on the usual path).
    if tool is not None and tool.lower() not in agents.shell_tools():
        return Reply()
    return agents.render_error(agent, f"core.dcg:too-large: {why}")


def _keyword_elsewhere(request: HookRequest) -> bool:
    """The prefilter let the payload through for a keyword outside the command (its cwd or
    transcript path names a folder "dcg", "hooks"…): a command naming no keyword, that
    writes nothing and does not run in dcg's own directories, needs nothing more."""
    if request.shell != "bash" or len(request.command) > MAX_STDIN:
        return False
    scan = scan_text(request.command)
    if candidate_packs(scan, _ALL_PACKS) or mentions_powershell(scan) or writes_hint(scan):
        return False
    from dcg.engine import own_cwd

    return not (request.cwd and own_cwd(request.cwd))


def decide(
    text: str,
    oversized: bool,
    flags: Mapping[str, object],
    env: Mapping[str, str],
    notices: list[str] | None = None,
) -> Reply:
    """Everything after the prefilter: payload, config, engine, graduated response."""
    from dcg import agents, jsonfast
    from dcg.hookio import Reply

    agent = flags.get("agent")
    agent_name = agent if isinstance(agent, str) else None
    if len(text) > MAX_DECODE:
        return _unreadable(text, agent_name, "hook input larger than 64 MiB")
    try:
        payload = jsonfast.loads(text)
    except jsonfast.JSONTooDeep:
        return _unreadable(text, agent_name, "hook input nested too deeply to decode")
    except jsonfast.JSONError:
        if oversized:
            return _unreadable(text, agent_name, "hook input larger than 1 MiB")
        return agents.render_malformed(agent_name)
    request = agents.read_request(payload, agent_name)
    if request is None:
        return Reply()
    if not oversized and _keyword_elsewhere(request):
        return Reply()
    if request.shell == "file":
        from dcg import selfguard

        # A file tool writing anything but dcg's own files or hook settings gets no
        # opinion before config or state is read.
        paths = list(request.paths)
        if selfguard.file_kind(paths, request.cwd) is None and not any("\x00" in p for p in paths):
            return Reply()
    from dcg import config

    cfg = config.load(request.cwd, env, flags)
    from dcg.service import synthetic

    if notices:
        cfg.notices.extend(f"dcg hook: {n}" for n in notices)
    if oversized or len(request.command) > MAX_STDIN:
        return respond_to(request, cfg, (synthetic("too-large", request.command, "over 1 MiB"),))
    return evaluate_request(request, cfg)


def evaluate_request(request: HookRequest, cfg: Config) -> Reply:
    """Run the engine on a request and turn the result into the agent's reply."""
    import time

    from dcg import watchdog

    budget = watchdog.line_budget(cfg.hook["budget_ms"], len(request.command))
    # CPU time of this thread, not the wall clock nor other threads of an embedding
    # process: the budget bounds what a command costs to judge, and a loaded machine must
    # not turn `git reset --hard` into "too complex" (a different rule, which an allowlist
    # entry for the real one would not cover).
    deadline = time.thread_time() + budget
    # The engine stops itself at the deadline; the alarm bounds everything else on the
    # path (rule checks, graduation, redaction, state, rendering) at twice the budget.
    watchdog.arm(budget + min(budget, 0.5) + 0.05)
    try:
        return _evaluate(request, cfg, deadline)
    except watchdog.Overrun:
        pass
    # The stop is judged and recorded like any too-complex line (a short step: the match
    # names the line's first 200 characters); a second overrun answers without state.
    watchdog.arm(0.5)
    try:
        from dcg.service import synthetic

        why = "judging it took longer than the time budget"
        return respond_to(request, cfg, (synthetic("too-complex", request.command, why),))
    except watchdog.Overrun:
        return watchdog.overrun_reply(request.agent, request.dialect)


def _evaluate(request: HookRequest, cfg: Config, deadline: float) -> Reply:
    from dcg import agents
    from dcg.hookio import Reply
    from dcg.service import file_evaluation, run_engine

    try:
        if request.shell == "file":
            evaluation = file_evaluation(request)
        else:
            evaluation = run_engine(request, cfg, deadline)
    except Exception as exc:  # the failure policy covers every internal error
        log_error(exc)
        # Only the failure path needs to know whether the line names a guarded tool.
        mentions_pack = candidate_packs(scan_text(request.command), cfg.packs)
        if mentions_pack and not cfg.hook["fail_open"]:
            return agents.render_error(
                request.agent, f"internal error: {type(exc).__name__}: {exc}", request.dialect
            )
        return Reply()
    if not evaluation.matches:
        if request.shell == "file":
            return Reply()
        if evaluation.commands:
            from dcg.safety.hint import may_overwrite

            if not may_overwrite(evaluation.commands):
                return Reply()  # the common case: nothing of the safety net is loaded
            from dcg.safety.step import silent_keep

            return silent_keep(request, cfg, evaluation.commands)
        # Not parsed (the keyword was elsewhere in the payload): parsed only if it writes.
        if writes_hint(scan_text(request.command)):
            from dcg.safety.step import silent_keep

            return silent_keep(request, cfg, None)
        return Reply()
    return respond_to(request, cfg, evaluation.matches, evaluation.commands)


def respond_to(
    request: HookRequest,
    cfg: Config,
    matches: Sequence[Match],
    commands: Sequence[Command] = (),
) -> Reply:
    """The graduated response to the line's ``matches`` (each simple command judged on its
    own, dcg.graduation), rendered for the request's agent.

    With the line's parsed ``commands``, the safety net keeps what the line destroys
    before a level lets it run (:mod:`dcg.safety.step`).
    """
    from dcg import agents
    from dcg.graduation import respond_line
    from dcg.hookio import Reply

    keep = None
    if commands and request.shell != "file":
        from dcg.safety.step import Step

        record = cfg.history.get("record_commands") is not False
        keep = Step(request, commands, cfg.safety_net, record=record)
    try:
        line = respond_line(
            matches, request, cfg.response, cfg.history, notes=cfg.notices, keep=keep
        )
        outcome = line.outcome
    except Exception as exc:
        log_error(exc)
        if cfg.hook["fail_open"]:
            return Reply()
        return agents.render_error(
            request.agent, f"internal error: {type(exc).__name__}: {exc}", request.dialect
        )
    if outcome is not None and cfg.broken:
        outcome = with_config_notice(outcome, cfg.broken)
    allowlist = sys.modules.get("dcg.state.allowlist")  # loaded only when it was read
    ignored = allowlist.take_ignored() if allowlist is not None else []
    if outcome is not None and ignored:
        note = (
            "dcg ignored an invalid allowlist entry (judged as if it were absent; "
            "fix it, dcg doctor lists them): " + "; ".join(ignored)
        )
        outcome = with_note(outcome, note)
    reply = agents.render(request, outcome, details=cfg.hook.get("details") is True)
    if cfg.notices:
        from dcg.state import files

        notice = files.once_per_session(cfg.notices, request.agent, request.session_id)
        if notice:
            reply = Reply(reply.stdout, reply.stderr + notice, reply.exit_code)
    return reply


def with_config_notice(outcome: Outcome, broken: Sequence[str]) -> Outcome:
    """``outcome`` with the broken config files named, so the person knows what to fix."""
    note = "dcg is in paranoid mode until this config file parses again: " + "; ".join(broken)
    return with_note(outcome, note)


def with_note(outcome: Outcome, note: str) -> Outcome:
    """``outcome`` with one more line for the agent and the person."""
    from dcg.hookio import Outcome

    return Outcome(
        outcome.level,
        match=outcome.match,
        command=outcome.command,
        fields=outcome.fields,
        model_text=f"{outcome.model_text}\n{note}",
        human_text=f"{outcome.human_text}\n{note}\n" if outcome.human_text else note + "\n",
        summary=outcome.summary,
        ask=outcome.ask,
    )


def log_error(exc: BaseException) -> None:
    """Append a traceback to the error log; never raise, never print to stdout."""
    try:
        import traceback

        from dcg import oslite as os
        from dcg import paths

        path = paths.error_log()
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        text = "".join(traceback.format_exception(exc))
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, text.encode("utf-8", "replace"))
        finally:
            os.close(fd)
    except Exception:
        pass


def __getattr__(name: str) -> object:
    """The engine's service (:mod:`dcg.service`) under its former names here."""
    if name in ("run_engine", "file_evaluation", "synthetic"):
        from dcg import service

        return getattr(service, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
