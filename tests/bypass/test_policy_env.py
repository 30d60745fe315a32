"""Self-protection: dcg's own policy variables set or removed for what a command starts.

The hook reads its mode, packs, thresholds and the place of its configuration from the
environment it runs in (``dcg.paths.POLICY_ENV``). An agent cannot reach its own hook's
environment, but it can start another agent (``codex exec``, ``claude -p``, ``gemini -p``)
whose dcg hook inherits what the command sets: ``DCG_PACKS=none codex exec …`` is dcg
switched off for everything that agent runs. Every spelling that sets, exports or
removes one is judged as the ``dcg config`` change it amounts to: core.dcg:self-approve.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hookpath import AGENTS, VARIANTS, payload, run, verdict

RULE = "core.dcg:self-approve"

STOP = [
    'DCG_PACKS=none codex exec "tidy the repo"',
    "DCG_RESPONSE_MODE=lenient claude -p 'clean up'",
    "env DCG_RESPONSE_MODE=lenient gemini -p x",
    "env -i DCG_CONFIG=/tmp/c.toml PATH=/usr/bin qwen -p x",
    "sudo DCG_PACKS=none claude -p x",
    "sudo -u me DCG_CONFIG=/tmp/c.toml opencode run x",
    "export DCG_PACKS=core.git",
    "DCG_PACKS=core.git; export DCG_PACKS",
    "declare -x DCG_SESSION_DIR=/tmp/s",
    "typeset -gx DCG_CRITICAL_ALWAYS_HARD=0",
    "unset DCG_RESPONSE_MODE",
    "unset -v DCG_PACKS; codex exec x",
    "env -u DCG_RESPONSE_MODE claude -p x",
    "env --unset=DCG_PACKS opencode run x",
    "f() { export DCG_PACKS=none; }; f",
    'bash -c "DCG_SESSION_THRESHOLD=99 claude -p x"',
    "nohup env DCG_HISTORY_THRESHOLD=99 claude -p x &",
    'x=DCG_PACKS; export "$x=none"',
    "DCG_SYSTEM_CONFIG=/dev/null DCG_SYSTEM_DIR=/tmp copilot -p x",
]
PASS = [
    'DCG_HOOK_DETAILS=1 dcg test "ls"',
    'echo "$DCG_RESPONSE_MODE"',
    "MY_DCG_PACKS=1 make -n",
    "grep -rn DCG_PACKS src/",
    'git commit -m "document DCG_PACKS=none"',
    "printenv DCG_CONFIG",
]


def _answer(agent: str, command: str, cwd: str) -> tuple[str, str]:
    env = dict(os.environ, DCG_RESPONSE_MODE="paranoid", DCG_HOOK_DETAILS="1")
    code, out, err = run(json.dumps(payload(agent, command, cwd)).encode(), env=env)
    return verdict(code, out, err), out + err


@pytest.mark.parametrize("command", STOP)
def test_policy_variable_set_for_what_runs_is_stopped(isolated_home: Path, command: str) -> None:
    cwd = str(isolated_home)
    for agent in AGENTS:
        answer, text = _answer(agent, command, cwd)
        assert answer == "deny", (agent, command, text)
        assert RULE in text, (agent, text)
    for name, variant in VARIANTS.items():
        answer, text = _answer("claude", variant(command), cwd)
        assert answer == "deny" and RULE in text, (name, command, text)


@pytest.mark.parametrize("command", PASS)
def test_reading_or_naming_a_policy_variable_passes(isolated_home: Path, command: str) -> None:
    for agent in AGENTS:
        answer, text = _answer(agent, command, str(isolated_home))
        assert answer == "none", (agent, command, text)


@pytest.mark.parametrize("how", ["mode", "config"])
def test_the_variables_do_weaken_a_hook_that_inherits_them(isolated_home: Path, how: str) -> None:
    """Why they are protected: the same hook, started with them, lets through a deletion
    that the person's paranoid setting stops."""
    body = json.dumps(payload("claude", "rm -rf src", str(isolated_home))).encode()
    base = {k: v for k, v in os.environ.items() if not k.startswith("DCG_")}
    base["DCG_RESPONSE_MODE"] = "paranoid"  # what the person chose
    assert verdict(*run(body, env=base)) == "deny"
    if how == "mode":
        weakened = {"DCG_RESPONSE_MODE": "lenient", "DCG_SESSION_THRESHOLD": "99"}
    else:
        config = isolated_home / "lenient.toml"
        config.write_text('[response]\nmode = "lenient"\nsession_threshold = 99\n')
        weakened = {"DCG_CONFIG": str(config)}
        del base["DCG_RESPONSE_MODE"]
    assert verdict(*run(body, env={**base, **weakened})) != "deny"
