"""The path agents use, for tests: real payloads of every agent through ``dcg.hook.main``.

Every table of commands in the suite runs here as well as through the engine, so that a
case the engine stops and the hook lets through (a prefilter, payload or adapter bug)
fails the build. ``payload`` builds the JSON each agent really sends around a command,
``run`` feeds it to the hook in-process, ``verdict`` reads any agent's reply back.
"""

from __future__ import annotations

import copy
import io
import json
import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from dcg import agents, hook
from dcg.engine import Evaluation, candidate_packs, evaluate, scan_text
from dcg.packs import REGISTRY
from dcg.shell import TooComplex

GOLDEN = Path(__file__).resolve().parent / "golden"
ALL_PACKS = tuple(pack_id for pack_id, _ in REGISTRY)
# The command every golden payload carries; payload() puts the case's command there.
_GOLDEN_COMMAND = "git reset --hard HEAD~1"
TEMPLATES: dict[str, dict[str, object]] = {
    agent: json.loads((GOLDEN / "payloads" / f"{agent}.json").read_text())
    for agent in agents.AGENTS
    if (GOLDEN / "payloads" / f"{agent}.json").exists()
}
AGENTS = tuple(TEMPLATES)

# Ways an agent's command reaches dcg around the case: the shapes multi-line commands,
# tabs, CRLF, comments, heredocs and ``bash -c`` give the line. Each keeps the case's
# meaning for the engine (a neutral command before it), so engine and hook must agree.
VARIANTS: dict[str, Callable[[str], str]] = {
    "plain": lambda c: c,
    "later-line": lambda c: f"cd .\n{c}",
    "after-tab": lambda c: f"true &&\t{c}",
    "after-crlf": lambda c: f"true\r\n{c}",
    "after-comment": lambda c: f"# next step\n{c}",
    "heredoc": lambda c: f"bash <<'EOF'\n{c}\nEOF",
    "bash-c": lambda c: "bash -c " + "'" + c.replace("'", "'\\''") + "'",
}


def _replace(value: object, command: str) -> object:
    if isinstance(value, dict):
        return {k: _replace(v, command) for k, v in value.items()}
    if isinstance(value, list):
        return [_replace(v, command) for v in value]
    if value == _GOLDEN_COMMAND:
        return command
    if isinstance(value, str) and _GOLDEN_COMMAND in value and value.startswith("{"):
        # Copilot CLI nests the command in a JSON string (toolArgs).
        return json.dumps(_replace(json.loads(value), command))
    return value


def payload(agent: str, command: str, cwd: str | None = None) -> dict[str, object]:
    """The payload ``agent`` sends for ``command`` (its golden payload, command replaced)."""
    body = _replace(copy.deepcopy(TEMPLATES[agent]), command)
    assert isinstance(body, dict)
    if cwd is not None:
        for holder in (body, body.get("tool_info"), body.get("tool_input")):
            for key in ("cwd", "working_dir", "working_directory", "workspaceRoot"):
                if isinstance(holder, dict) and key in holder:
                    holder[key] = cwd
        for key in ("workspace_roots", "workspaceRoots"):  # Auggie, Cline
            if isinstance(body.get(key), list):
                body[key] = [cwd]
    return body


def encode(body: Mapping[str, object], ensure_ascii: bool = True) -> bytes:
    return json.dumps(body, ensure_ascii=ensure_ascii).encode("utf-8", "surrogatepass")


def run(
    data: bytes,
    args: Iterable[str] = (),
    env: Mapping[str, str] | None = None,
) -> tuple[int, str, str]:
    """``dcg hook ARGS`` in-process on ``data``: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    environ = dict(os.environ if env is None else env)
    code = hook.main(list(args), io.BytesIO(data), out, err, environ)
    return code, out.getvalue(), err.getvalue()


_DECISION_KEYS = ("permissionDecision", "decision", "permission", "action")


def _decision(value: object) -> str | None:
    if isinstance(value, dict):
        for key in _DECISION_KEYS:
            if isinstance(value.get(key), str):
                return str(value[key]).lower()
        for inner in value.values():
            found = _decision(inner)
            if found is not None:
                return found
    return None


def verdict(code: int, stdout: str, stderr: str) -> str:
    """``deny``, ``ask``, ``warn`` or ``none``, read from any agent's reply."""
    if code == 2:
        return "deny"
    if code == 1:  # Amp's delegate protocol: exit 1 asks the person
        return "ask"
    if not stdout.strip():
        return "warn" if stderr.strip() else "none"
    reply = json.loads(stdout)
    if isinstance(reply, dict) and isinstance(reply.get("cancel"), bool):  # Cline
        return "deny" if reply["cancel"] else "warn"
    decision = _decision(reply)
    if decision in ("deny", "block") or (
        isinstance(reply, dict) and reply.get("continue") is False
    ):
        return "deny"
    if decision == "ask":
        return "ask"
    return "warn"


def engine(command: str, cwd: str, shell: str = "bash") -> Evaluation:
    """What the engine decides, with a line past a parsing bound read as the hook reads it."""
    try:
        return evaluate(command, list(ALL_PACKS), cwd=cwd, shell=shell)
    except TooComplex as exc:
        if not candidate_packs(scan_text(command), ALL_PACKS):
            return Evaluation(command)
        match = hook.synthetic("too-complex", command, str(exc))
        return Evaluation(command, (match.command,), (match,), ALL_PACKS)


def packs_env(mode: str = "paranoid") -> dict[str, str]:
    """The environment that enables every pack in the given mode."""
    return dict(os.environ, DCG_PACKS=",".join(ALL_PACKS), DCG_RESPONSE_MODE=mode)
