"""Helpers for the per-match tests: a line through the installed hook entry point, the reply
read back with the draft's fields, and the history it left."""

from __future__ import annotations

import json
import os
from pathlib import Path

from dcg import paths
from hookpath import encode, payload, run, verdict

PROJECT = "/home/dev/project"
# Where each agent shows dcg's text to the person only (decisions.md 10.2).
USER_CHANNEL = {
    "claude": "systemMessage",
    "codex": "systemMessage",
    "factory": "systemMessage",
    "auggie": "systemMessage",
    "gemini": "systemMessage",
    "cursor": "user_message",
    "opencode": "message",
}


def hook(
    command: str,
    *,
    agent: str = "claude",
    cwd: str = PROJECT,
    env: dict[str, str] | None = None,
    args: tuple[str, ...] = (),
) -> tuple[str, dict[str, object], str]:
    """``(verdict, hookSpecificOutput, the person's text)`` of the installed hook's answer."""
    environ = dict(os.environ if env is None else env)
    environ["DCG_HOOK_DETAILS"] = "1"
    code, out, err = run(encode(payload(agent, command, cwd)), args, environ)
    said = verdict(code, out, err)
    body = json.loads(out) if out.strip() else {}
    specific = body.get("hookSpecificOutput", {}) if isinstance(body, dict) else {}
    channel = USER_CHANNEL.get(agent, "systemMessage")
    person = str(body.get(channel, "")) if isinstance(body, dict) else ""
    return said, specific, person + err


def records() -> list[dict[str, object]]:
    path = Path(paths.history_file())
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def recorded(since: int = 0) -> list[tuple[object, object, object]]:
    """``(rule id, response level, via)`` of each history record from index ``since``."""
    return [(r["rule_id"], r["response_level"], r.get("via")) for r in records()[since:]]


def code_in(person: str) -> str:
    """The approval code shown to the person (``Code: 7f3a``)."""
    import re

    found = re.search(r"Code: ([0-9a-f]{4})", person)
    assert found, person
    return found.group(1)
