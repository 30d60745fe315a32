"""The real Codex CLI (npm @openai/codex) with dcg installed, run offline against the stand-in."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import scenarios
from agentrun import Agent, Sandbox, cli, dcg_env, make_sandbox
from standin import ToolNames
from standin_responses import Responses

# A model Codex knows: its metadata gives the tool set a user gets (exec_command and the
# freeform apply_patch); an unknown name falls back to a set without the file tool.
MODEL = "gpt-5.5"


def _settings(home: Path, project: Path) -> Path:
    return home / ".codex" / "hooks.json"


def _app_server(home: Path, project: Path, *requests: dict[str, Any]) -> list[dict[str, Any]]:
    """Send JSON-RPC requests to ``codex app-server`` (after its handshake); their replies."""
    hello = {"clientInfo": {"name": "dcg-tests", "version": "1"}}
    lines = [
        {"id": 0, "method": "initialize", "params": hello},
        {"method": "initialized", "params": {}},
        *requests,
    ]
    process = subprocess.Popen(
        [cli("codex"), "app-server"],
        cwd=project,
        env=dcg_env(home),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        for line in lines:
            process.stdin.write(json.dumps({"jsonrpc": "2.0", **line}) + "\n")
            process.stdin.flush()
        wanted = {line["id"] for line in requests}
        replies: dict[int, dict[str, Any]] = {}
        while wanted - set(replies):
            line = process.stdout.readline()
            assert line, "codex app-server ended before answering"
            message = json.loads(line)
            if message.get("id") in wanted:
                replies[message["id"]] = message
    finally:
        process.kill()
        process.communicate(timeout=30)
    return [replies[line["id"]] for line in requests]


def _hooks(home: Path, project: Path) -> list[dict[str, Any]]:
    (reply,) = _app_server(
        home, project, {"id": 1, "method": "hooks/list", "params": {"cwds": [str(project)]}}
    )
    assert "result" in reply, reply
    return [hook for entry in reply["result"]["data"] for hook in entry["hooks"]]


def _trust_hooks(home: Path, project: Path) -> None:
    """What trusting the hooks in Codex's ``/hooks`` screen records: each user hook's current
    hash under ``[hooks.state."<key>"]`` in config.toml (keys and hashes from Codex itself)."""
    config = home / ".codex" / "config.toml"
    tables = [
        f"\n[hooks.state.{json.dumps(hook['key'])}]\n"
        f"trusted_hash = {json.dumps(hook['currentHash'])}\n"
        for hook in _hooks(home, project)
        if hook["source"] == "user"
    ]
    assert tables, "codex lists no user hook: did dcg install write ~/.codex/hooks.json?"
    config.write_text(config.read_text() + "".join(tables))
    untrusted = [hook["key"] for hook in _hooks(home, project) if hook["trustStatus"] != "trusted"]
    assert not untrusted, f"codex still does not trust {untrusted}"


def _seed(home: Path, project: Path, url: str) -> Mapping[str, str]:
    # The stand-in as a custom model provider, the project trusted, update checks and
    # analytics off; then dcg's hook trusted.
    config = home / ".codex" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(
        f'model = "{MODEL}"\n'
        'model_provider = "standin"\n'
        "check_for_update_on_startup = false\n"
        "[analytics]\nenabled = false\n"
        "[model_providers.standin]\n"
        'name = "standin"\n'
        f'base_url = "{url}/v1"\n'
        'wire_api = "responses"\n'
        'env_key = "STANDIN_API_KEY"\n'
        f"[projects.{json.dumps(str(project))}]\n"
        'trust_level = "trusted"\n'
    )
    _trust_hooks(home, project)
    return {"STANDIN_API_KEY": "sk-standin"}


def _argv(prompt: str, box: Sandbox) -> list[str]:
    # No sandbox: bubblewrap is not installed here, and dcg is the guard under test.
    return [cli("codex"), "exec", "--dangerously-bypass-approvals-and-sandbox", prompt]


def _patch(path: str, content: str) -> dict[str, Any]:
    body = "".join(f"+{line}\n" for line in content.splitlines())
    return {"input": f"*** Begin Patch\n*** Add File: {path}\n{body}*** End Patch\n"}


CODEX = Agent(
    name="codex",
    shape=Responses,
    tools=ToolNames("exec_command", lambda command: {"cmd": command}, "apply_patch", _patch),
    argv=_argv,
    settings=_settings,
    seed=_seed,
    warns_model=True,
)


@pytest.fixture
def box(tmp_path: Path, isolated_home: Path) -> Sandbox:
    return make_sandbox(tmp_path, isolated_home)


@pytest.mark.parametrize(
    "scenario",
    [
        pytest.param(scenarios.paranoid_stops_reset_lets_touch_run, id="paranoid-stop-then-touch"),
        pytest.param(scenarios.standard_graduates, id="standard-warn-warn-stop"),
        pytest.param(scenarios.standard_reset_undone, id="standard-reset-undone"),
        pytest.param(scenarios.own_settings_write_refused, id="settings-write-refused"),
    ],
)
def test_codex(scenario: Any, box: Sandbox, dcg_exe: str) -> None:
    scenario(CODEX, box, dcg_exe)
