"""The real OpenCode CLI (npm opencode-ai) with dcg's plugin installed, run offline."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import scenarios
from agentrun import BIN, Agent, Sandbox, cli, dcg_env, make_sandbox
from standin import ToolNames
from standin_chat import Chat


def _config_dir(home: Path) -> Path:
    return home / ".config" / "opencode"


def _settings(home: Path, project: Path) -> Path:
    # OpenCode has no hook settings: what registers dcg is its plugin file.
    return _config_dir(home) / "plugins" / "dcg.js"


def _ripgrep() -> str:
    """A directory with ``rg``: OpenCode downloads ripgrep from the network when none is on
    PATH; Codex's npm package ships one."""
    found = sorted((BIN.parent / "@openai").glob("codex-*/vendor/*/codex-path/rg"))
    assert found, "no rg in the installed Codex package"
    return str(found[0].parent)


def _seed(home: Path, project: Path, url: str) -> Mapping[str, str]:
    # The stand-in as an OpenAI-compatible provider (OpenCode bundles that SDK), every
    # tool allowed without a prompt (as `run` cannot ask), no sharing or auto-update.
    config = {
        "$schema": "https://opencode.ai/config.json",
        "model": "standin/standin",
        "autoupdate": False,
        "share": "disabled",
        "snapshot": False,  # its own git snapshots of the project: seconds per step here
        "permission": {"bash": "allow", "edit": "allow", "external_directory": "allow"},
        "provider": {
            "standin": {
                "npm": "@ai-sdk/openai-compatible",
                "name": "Stand-in",
                "options": {"baseURL": f"{url}/v1", "apiKey": "sk-standin"},
                "models": {"standin": {"name": "Stand-in", "tool_call": True}},
            }
        },
    }
    (_config_dir(home) / "opencode.json").write_text(json.dumps(config, indent=2))
    return {
        "PATH": os.pathsep.join((str(BIN), os.environ.get("PATH", ""), _ripgrep())),
        "OPENCODE_DISABLE_AUTOUPDATE": "1",
        "OPENCODE_DISABLE_MODELS_FETCH": "1",
        "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1",
        "OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
        "OPENCODE_DISABLE_SHARE": "1",
        "OPENCODE_DISABLE_CLAUDE_CODE": "1",
        "OPENCODE_DISABLE_FFF": "1",
        "OPENCODE_EXPERIMENTAL_DISABLE_FILEWATCHER": "1",
        # OpenCode installs @opencode-ai/plugin into its config directory at every start
        # (npm's code, in the binary); offline, from an empty cache, that fails at once and
        # OpenCode goes on (dcg's plugin imports nothing).
        "npm_config_offline": "true",
        "npm_config_cache": str(home / ".npm-offline"),
    }


def _argv(prompt: str, box: Sandbox) -> list[str]:
    return [cli("opencode"), "run", "--model", "standin/standin", prompt]


OPENCODE = Agent(
    name="opencode",
    shape=Chat,
    tools=ToolNames(
        "bash",
        lambda command: {"command": command, "description": "run it"},
        "write",
        lambda path, content: {"filePath": path, "content": content},
        "read",
        lambda path: {"filePath": path},
    ),
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
    ],
)
def test_opencode(scenario: Any, box: Sandbox, dcg_exe: str) -> None:
    scenario(OPENCODE, box, dcg_exe)


def test_opencode_file_tool_cannot_overwrite_dcg_plugin(box: Sandbox, dcg_exe: str) -> None:
    """OpenCode's ``write`` tool must not replace dcg's plugin (which would unhook dcg).

    Failed while the plugin judged only the ``bash`` tool: the write went through and the
    plugin file was gone.
    """
    scenarios.own_settings_write_refused(OPENCODE, box, dcg_exe)


def _patch(head: str) -> Any:
    return lambda path, content: {
        "patchText": f"*** Begin Patch\n*** {head}: {path}\n*** End Patch"
    }


_GPT = "gpt-5-standin"


def _gpt_seed(home: Path, project: Path, url: str) -> Mapping[str, str]:
    """The stand-in under a model id with ``gpt-``: OpenCode then offers ``apply_patch``
    instead of ``edit`` and ``write`` (ToolRegistry.tools in 1.18.33)."""
    env = _seed(home, project, url)
    path = _config_dir(home) / "opencode.json"
    config = json.loads(path.read_text())
    config["model"] = f"standin/{_GPT}"
    config["provider"]["standin"]["models"] = {_GPT: {"name": "Stand-in", "tool_call": True}}
    path.write_text(json.dumps(config, indent=2))
    return env


def _gpt_argv(prompt: str, box: Sandbox) -> list[str]:
    return [cli("opencode"), "run", "--model", f"standin/{_GPT}", prompt]


def _edit(path: str, content: str) -> dict[str, Any]:
    return {"filePath": path, "oldString": "dcg", "newString": "x"}


# OpenCode's other file tools: (tool, its arguments for the path, the model's id has gpt-).
_FILE_TOOLS = {
    "edit": ("edit", _edit, False),
    "apply_patch-delete": ("apply_patch", _patch("Delete File"), True),
    "apply_patch-add": ("apply_patch", _patch("Add File"), True),
}


@pytest.mark.parametrize("tool", sorted(_FILE_TOOLS))
def test_opencode_other_file_tools_cannot_change_dcg_plugin(
    tool: str, box: Sandbox, dcg_exe: str
) -> None:
    name, args, gpt = _FILE_TOOLS[tool]
    tools = OPENCODE.tools._replace(write=name, write_args=args)
    agent = dataclasses.replace(OPENCODE, tools=tools)
    if gpt:
        agent = dataclasses.replace(agent, seed=_gpt_seed, argv=_gpt_argv)
    scenarios.own_settings_write_refused(agent, box, dcg_exe)


def test_opencode_write_tool_cannot_change_its_config(box: Sandbox, dcg_exe: str) -> None:
    """``opencode.json`` may load a plugin at the next start: writing it is refused."""
    config = dataclasses.replace(
        OPENCODE, settings=lambda home, project: _config_dir(home) / "opencode.json"
    )
    scenarios.own_settings_write_refused(config, box, dcg_exe)


@pytest.mark.parametrize(
    ("where", "runs"),
    [
        pytest.param("global", True, id="global-opencode.json-runs-code"),
        pytest.param("project", True, id="project-opencode.json-runs-code"),
        pytest.param("project.bak", False, id="opencode.json.bak-is-inert"),
    ],
)
def test_opencode_config_plugin_entry_runs_code_at_start(
    where: str, runs: bool, box: Sandbox
) -> None:
    """Why dcg guards OpenCode's config files: a ``plugin`` entry in the global or a
    project's ``opencode.json`` runs its code when OpenCode starts (here ``opencode debug
    config``), outside any hook; a file of another name (dcg lets it be written) does not."""
    marker = box.home / "plugin-ran"
    plugin = box.project.parent / "evil.js"
    plugin.write_text(
        'import { writeFileSync } from "node:fs";\n'
        f"export const Evil = async () => {{ writeFileSync({json.dumps(str(marker))}, 'x'); "
        "return {}; };\n"
    )
    config = {"plugin": [plugin.as_uri()], "autoupdate": False}
    target = {
        "global": _config_dir(box.home) / "opencode.json",
        "project": box.project / "opencode.json",
        "project.bak": box.project / "opencode.json.bak",
    }[where]
    _config_dir(box.home).mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(config))
    env = dcg_env(box.home) | {"PWD": str(box.project)}
    env |= dict(_seed(box.home, box.project, "http://127.0.0.1:9"))
    if where == "global":
        (_config_dir(box.home) / "opencode.json").write_text(json.dumps(config))
    done = subprocess.run(
        [cli("opencode"), "debug", "config"],
        cwd=box.project,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert marker.exists() is runs, done.stdout[-2000:]


@pytest.mark.parametrize("where", ["global", "project"])
def test_opencode_custom_tool_module_runs_code(where: str, box: Sandbox) -> None:
    """Why dcg guards OpenCode's ``tools/`` directories: OpenCode imports each module there
    when it builds an agent's tools, so its top-level code runs outside any hook."""
    marker = box.home / "tool-ran"
    root = _config_dir(box.home) if where == "global" else box.project / ".opencode"
    (root / "tools").mkdir(parents=True)
    (root / "tools" / "evil.js").write_text(
        'import { writeFileSync } from "node:fs";\n'
        f"writeFileSync({json.dumps(str(marker))}, 'x');\n"
        "export default { description: 'x', args: {}, async execute() { return 'x'; } };\n"
    )
    _config_dir(box.home).mkdir(parents=True, exist_ok=True)
    env = dcg_env(box.home) | {"PWD": str(box.project)}
    env |= dict(_seed(box.home, box.project, "http://127.0.0.1:9"))
    done = subprocess.run(
        [cli("opencode"), "debug", "agent", "build"],
        cwd=box.project,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert marker.exists(), done.stdout[-2000:]
