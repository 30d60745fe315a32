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

import os
import sys

from dcg.engine import candidate_packs, mentions_powershell, scan_text
from dcg.packs import REGISTRY

# typing is not imported at run time: it costs more than the hook's whole budget.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import BinaryIO, TextIO

    from dcg.config import Config
    from dcg.engine import Evaluation
    from dcg.hookio import HookRequest, Reply

MAX_STDIN = 1 << 20  # 1 MiB: far above any real command, small enough to scan at once

_ALL_PACKS = tuple(pack_id for pack_id, _ in REGISTRY)

# Flags taking a value, and the config flag each one sets.
_VALUE_FLAGS = {
    "--agent": "agent",
    "--mode": "mode",
    "--session-threshold": "session_threshold",
    "--history-threshold": "history_threshold",
}


class HookUsageError(Exception):
    pass


def json_breaks(text: str) -> str:
    """Raw JSON with its ``\\n``/``\\t``/``\\r`` escapes as spaces, for the keyword scan.

    The scan drops backslashes, so without this a command on a later line (``ls\\npsql``),
    after a tab or after CRLF would read ``npsql`` and hide its keyword. An escaped
    backslash (``\\\\rm``, the shell's ``\\rm``) is kept apart so it is not read as ``\\r``.
    """
    if "\\" not in text:
        return text
    text = text.replace("\\\\", "\x00")
    text = text.replace("\\n", " ").replace("\\t", " ").replace("\\r", " ")
    return text.replace("\x00", "\\\\")


def parse_flags(argv: Sequence[str]) -> dict[str, object]:
    """The hook's few flags, parsed by hand: argparse costs more than the whole hook."""
    flags: dict[str, object] = {}
    args = list(argv)
    while args:
        arg = args.pop(0)
        name, eq, value = arg.partition("=")
        if name in _VALUE_FLAGS:
            if not eq:
                if not args:
                    raise HookUsageError(f"{name} needs a value")
                value = args.pop(0)
            key = _VALUE_FLAGS[name]
            if key.endswith("threshold"):
                if not value.isdigit() or int(value) < 1:
                    raise HookUsageError(f"{name} must be a positive integer")
                flags[key] = int(value)
            else:
                flags[key] = value
        elif arg == "--no-warnings":
            flags["no_warnings"] = True
        else:
            raise HookUsageError(f"unknown option {arg!r}")
    return flags


def main(
    argv: Sequence[str] = (),
    stdin: BinaryIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    environ: Mapping[str, str] | None = None,
) -> int:
    out = sys.stdout if stdout is None else stdout
    err = sys.stderr if stderr is None else stderr
    env = os.environ if environ is None else environ
    try:
        flags = parse_flags(argv)
    except HookUsageError as exc:
        # A typo in the hook settings must not switch protection off: say so, keep going.
        err.write(f"dcg hook: {exc}; ignoring the option\n")
        flags = {}
    try:
        raw = (sys.stdin.buffer if stdin is None else stdin).read(MAX_STDIN + 1)
    except (OSError, ValueError):
        return 0
    text = raw[:MAX_STDIN].decode("utf-8", "surrogateescape")
    scan = scan_text(json_breaks(text))
    # JSON escapes could hide a keyword ("\u0072m"), and PowerShell spells deletion
    # differently (Remove-Item); such payloads take the full path.
    if (
        not candidate_packs(scan, _ALL_PACKS)
        and "\\u" not in text
        and not mentions_powershell(scan)
    ):
        return 0
    reply = decide(text, len(raw) > MAX_STDIN, flags, env)
    if reply.stdout:
        out.write(reply.stdout)
        out.flush()
    if reply.stderr:
        err.write(reply.stderr)
        err.flush()
    recache = sys.modules.get("dcg.recache")
    if recache is not None:
        recache.save()
    return reply.exit_code


def decide(
    text: str, oversized: bool, flags: Mapping[str, object], env: Mapping[str, str]
) -> Reply:
    """Everything after the prefilter: payload, config, engine, graduated response."""
    from dcg import agents, jsonfast
    from dcg.hookio import Reply

    agent = flags.get("agent")
    agent_name = agent if isinstance(agent, str) else None
    if oversized:
        # Truncated JSON cannot be read; a command padded past the limit must not slip through.
        return agents.render_error(agent_name, "hook input larger than 1 MiB")
    try:
        payload = jsonfast.loads(text)
    except jsonfast.JSONError:
        return agents.render_malformed(agent_name)
    request = agents.read_request(payload, agent_name)
    if request is None:
        return Reply()
    from dcg import config

    cfg = config.load(request.cwd, env, flags)
    return evaluate_request(request, cfg)


def evaluate_request(request: HookRequest, cfg: Config) -> Reply:
    """Run the engine on a request and turn the result into the agent's reply."""
    import time

    from dcg import agents
    from dcg.hookio import Reply

    budget = cfg.hook["budget_ms"]
    assert isinstance(budget, int)
    deadline = time.monotonic() + budget / 1000
    try:
        evaluation = run_engine(request, cfg, deadline)
    except Exception as exc:  # the failure policy covers every internal error
        log_error(exc)
        # Only the failure path needs to know whether the line names a guarded tool.
        mentions_pack = candidate_packs(scan_text(request.command), cfg.packs)
        if mentions_pack and not cfg.hook["fail_open"]:
            return agents.render_error(
                request.agent, f"internal error: {type(exc).__name__}: {exc}"
            )
        return Reply()
    if not evaluation.matches:
        return Reply()
    from dcg.graduation import respond

    try:
        outcome = respond(evaluation.matches[0], request, cfg.response, cfg.history)
    except Exception as exc:
        log_error(exc)
        if cfg.hook["fail_open"]:
            return Reply()
        return agents.render_error(request.agent, f"internal error: {type(exc).__name__}: {exc}")
    return agents.render(request, outcome)


def run_engine(request: HookRequest, cfg: Config, deadline: float) -> Evaluation:
    """Evaluate, turning a parse that exceeds a bound into the too-complex rule."""
    from dcg.engine import Evaluation, evaluate
    from dcg.shell import TooComplex

    try:
        return evaluate(
            request.command,
            cfg.packs,
            cwd=request.cwd,
            shell=request.shell,
            deadline=deadline,
        )
    except TooComplex as exc:
        return too_complex(request.command, cfg.packs, str(exc)) or Evaluation(request.command)


def too_complex(line: str, packs: Sequence[str], why: str) -> Evaluation | None:
    """The ``core.dcg:too-complex`` match for a line that mentions an enabled pack."""
    from dcg.engine import Evaluation
    from dcg.model import Match
    from dcg.packs import load
    from dcg.shell.command import Command

    if not candidate_packs(scan_text(line), packs):
        return None
    pack = load("core.dcg")
    rule = next(r for r in pack.rules if r.name == "too-complex")
    command = Command((line[:200],), data=(("(not analysed)", why),))
    return Evaluation(line, (command,), (Match(pack, rule, command),), tuple(packs))


def log_error(exc: BaseException) -> None:
    """Append a traceback to the error log; never raise, never print to stdout."""
    try:
        import traceback

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
