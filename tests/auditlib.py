"""Real history for the audit tests: records written by the installed ``dcg hook``.

``make_history`` drives the hook the way agents and a person do (warnings, a soft block
approved with ``dcg confirm`` from a terminal, hard blocks, two agents, a git project),
so every record the audit tests read was written by the code path users run.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import hookpath

USER = "dcg-test-user"
SCHEMA = Path(__file__).resolve().parent.parent / "docs" / "json-schema" / "history-record.v2.json"


def hook(exe: str, agent: str, command: str, cwd: str, env: dict[str, str]) -> str:
    """Run the installed hook for ``agent``; returns the approval code it offered, if any."""
    body = hookpath.payload(agent, command, cwd=cwd)
    proc = subprocess.run(
        [exe, "hook"],
        input=json.dumps(body).encode(),
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert b"Traceback" not in proc.stderr, proc.stderr
    found = re.search(rb"[Cc]ode:? ([0-9a-f]{4})\b", proc.stdout + proc.stderr)
    return found.group(1).decode() if found else ""


def human(exe: str, *args: str) -> subprocess.CompletedProcess[str]:
    """A dcg command with a terminal on stdin, the way a person types it."""
    leader, follower = os.openpty()
    try:
        return subprocess.run(
            [exe, *args], stdin=follower, capture_output=True, text=True, timeout=30
        )
    finally:
        os.close(leader)
        os.close(follower)


def make_repo(root: Path) -> Path:
    """A git project with a subdirectory: records made in it name the project root."""
    (root / ".git").mkdir(parents=True, exist_ok=True)
    sub = root / "src" / "deep"
    sub.mkdir(parents=True, exist_ok=True)
    return sub


def patient() -> None:
    """A generous time budget: on a loaded machine a first evaluation can pass 200 ms,
    and these tests are about what is recorded, not about the budget."""
    from dcg import paths

    user = Path(paths.user_config())
    if not user.exists():
        user.parent.mkdir(parents=True, exist_ok=True)
        user.write_text("[hook]\nbudget_ms = 20000\n")


def make_history(exe: str, root: Path, rounds: int = 1) -> list[dict[str, object]]:
    """Write real records (every level, a confirmation) and return them, oldest first."""
    patient()
    cwd = str(make_repo(root))
    # Claude's hooks run with $USER set; Codex's here without $USER or $LOGNAME, so the
    # record has only the uid (the hook does not import pwd to look the name up).
    env = dict(os.environ, DCG_HOOK_DETAILS="1", USER=USER)
    bare = {k: v for k, v in env.items() if k not in ("USER", "LOGNAME")}
    for _ in range(rounds):
        code = ""
        for _ in range(4):  # warnings up to the session threshold, then a soft block
            code = hook(exe, "claude", "git reset --hard HEAD~1", cwd, env)
            if code:
                break
        if code:
            human(exe, "confirm", code)
            hook(exe, "claude", "git reset --hard HEAD~1", cwd, env)  # let through, via
        hook(exe, "codex", "git clean -fdx", cwd, bare)
        hook(exe, "claude", "rm -rf /", cwd, env)  # critical: hard block
        hook(
            exe,
            "claude",
            "curl -H 'Authorization: Bearer sk-live-1234567890abcdef' -X DELETE https://x/y "
            "&& git push --force",
            cwd,
            dict(env, DCG_RESPONSE_MODE="paranoid"),
        )
    return read_history()


def read_history() -> list[dict[str, object]]:
    from dcg import paths

    path = Path(paths.history_file())
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
