"""dcg's OpenCode plugin under both plugin APIs: chosen by the OpenCode found, run in node."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from dcg.commands import _opencode
from dcg.commands.install import install
from dcg.commands.uninstall import uninstall

EXE = "/opt/dcg/bin/dcg"
NODE = shutil.which("node")


def _fake_opencode(home: Path, monkeypatch: pytest.MonkeyPatch, output: str | None) -> None:
    """An `opencode` on PATH that prints ``output`` for --version (None: no opencode)."""
    bin_dir = home / "fakebin"
    bin_dir.mkdir(exist_ok=True)
    if output is not None:
        script = bin_dir / "opencode"
        script.write_text(f"#!/bin/sh\nprintf '%s\\n' '{output}'\n")
        script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}/usr/bin{os.pathsep}/bin")


@pytest.mark.parametrize(
    ("printed", "api"),
    [
        pytest.param("1.18.30", "v1", id="v1"),
        pytest.param("opencode v0.15.2", "v1", id="v0-prefixed"),
        pytest.param("2.0.12", "v2", id="v2"),
        pytest.param("2.1.0-beta.3", "v2", id="v2-beta"),
        pytest.param("garbled", "v1+v2", id="unparsable"),
        pytest.param(None, "v1+v2", id="not-installed"),
    ],
)
def test_install_writes_the_plugin_for_the_opencode_found(
    printed: str | None, api: str, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_opencode(isolated_home, monkeypatch, printed)
    out = io.StringIO()
    assert install(["opencode"], exe=EXE, stdout=out) == 0
    path = isolated_home / ".config" / "opencode" / "plugins" / "dcg.js"
    text = path.read_text()
    assert _opencode.variant(text) == api
    assert ("export const DcgPlugin" in text) is ("v1" in api)
    assert ("export default {" in text) is ("v2" in api)
    assert uninstall(["opencode"], stdout=io.StringIO()) == 0
    assert not path.exists() and not (isolated_home / ".config" / "opencode").exists()


def test_version_falls_back_to_the_package_json(
    isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An `opencode` that prints nothing: the version of the npm package it belongs to."""
    package = isolated_home / "lib" / "node_modules" / "opencode-ai"
    (package / "bin").mkdir(parents=True)
    (package / "package.json").write_text('{"name": "opencode-ai", "version": "2.0.3"}')
    script = package / "bin" / "opencode"
    script.write_text("#!/bin/sh\nexit 1\n")
    script.chmod(0o755)
    bin_dir = isolated_home / "bin"
    bin_dir.mkdir()
    (bin_dir / "opencode").symlink_to(script)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}/usr/bin{os.pathsep}/bin")
    assert _opencode.version() == "2.0.3"
    assert _opencode.api(_opencode.version()) == "v2"


def test_upgrading_opencode_and_installing_again_rewrites_the_plugin(
    isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_opencode(isolated_home, monkeypatch, "1.18.30")
    install(["opencode"], exe=EXE, stdout=io.StringIO())
    path = isolated_home / ".config" / "opencode" / "plugins" / "dcg.js"
    assert _opencode.loads("2.0.0", path.read_text())[0] is False
    _fake_opencode(isolated_home, monkeypatch, "2.0.0")
    report = io.StringIO()
    install(["opencode"], exe=EXE, stdout=report)
    assert "changed" in report.getvalue()
    assert _opencode.variant(path.read_text()) == "v2"
    assert _opencode.loads("2.0.0", path.read_text())[0] is True


# The v1 API: a named plugin function called with {directory, client}; hooks by name.
_NODE_V1 = """
import { DcgPlugin } from "./dcg.mjs";
const notes = [];
const client = { tui: { showToast: async (x) => { notes.push(x.body.message); } } };
const plugin = await DcgPlugin({ directory: process.cwd(), client });
const results = [];
for (const command of JSON.parse(process.argv[2])) {
  const output = { args: { command } };
  try {
    await plugin["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: command }, output);
    const after = { output: "ran" };
    await plugin["tool.execute.after"]({ tool: "bash", sessionID: "s", callID: command }, after);
    results.push({ command, blocked: false, output: after.output });
  } catch (e) {
    results.push({ command, blocked: true, error: e.message });
  }
}
console.log(JSON.stringify({ results, notes }));
"""

# The v2 API: a default-exported {id, setup}; setup registers ctx.tool.hook handlers.
_NODE_V2 = """
import definition from "./dcg.mjs";
const notes = [];
console.warn = (m) => notes.push(String(m));
const hooks = {};
const ctx = {
  location: { directory: process.cwd() },
  tool: { hook: async (name, fn) => { hooks[name] = fn; return { dispose() {} }; } },
};
if (typeof definition.id !== "string" || typeof definition.setup !== "function") {
  throw new Error("not a v2 definition");
}
await definition.setup(ctx);
const results = [];
for (const command of JSON.parse(process.argv[2])) {
  const event = { tool: "bash", sessionID: "s", callID: command, input: { command } };
  try {
    await hooks["execute.before"](event);
    const after = { tool: "bash", sessionID: "s", callID: command, output: "ran" };
    await hooks["execute.after"](after);
    results.push({ command, blocked: false, output: after.output });
  } catch (e) {
    results.push({ command, blocked: true, error: e.message });
  }
}
console.log(JSON.stringify({ results, notes }));
"""


def _run_node(
    harness: str, text: str, commands: list[str], tmp_path: Path, mode: str = "standard"
) -> dict[str, object]:
    work = tmp_path / "shim"
    work.mkdir(exist_ok=True)
    (work / "dcg.mjs").write_text(text)
    (work / "run.mjs").write_text(harness)
    assert NODE is not None
    proc = subprocess.run(
        [NODE, "run.mjs", json.dumps(commands)],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=90,
        env={**os.environ, "DCG_RESPONSE_MODE": mode},
    )
    assert proc.returncode == 0, proc.stderr
    result: dict[str, object] = json.loads(proc.stdout)
    return result


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.parametrize(
    ("harness", "api"),
    [
        pytest.param(_NODE_V1, "v1", id="v1-api-v1-plugin"),
        pytest.param(_NODE_V1, "v1+v2", id="v1-api-both-plugin"),
        pytest.param(_NODE_V2, "v2", id="v2-api-v2-plugin"),
        pytest.param(_NODE_V2, "v1+v2", id="v2-api-both-plugin"),
    ],
)
def test_plugin_blocks_under_node_and_keeps_the_code_out_of_the_error(
    harness: str, api: str, isolated_home: Path, dcg_exe: str, tmp_path: Path
) -> None:
    """The plugin as each OpenCode API loads it, with a stand-in context; dcg runs for real."""
    text = _opencode.plugin([dcg_exe, "hook", "--agent", "opencode"], api)
    commands = ["ls -la", "git reset --hard", "rm -rf ~"]
    out = _run_node(harness, text, commands, tmp_path, mode="paranoid")
    results = out["results"]
    assert isinstance(results, list)
    assert [r["blocked"] for r in results] == [False, True, True]
    assert results[0]["output"] == "ran"
    for blocked in results[1:]:
        assert "`dcg allow-once`" in blocked["error"] or "dcg" in blocked["error"]
    notes = out["notes"]
    assert isinstance(notes, list) and notes
    codes = [m.group(1) for n in notes for m in [re.search(r"Code: ([0-9a-f]{4})", n)] if m]
    assert codes, notes
    for blocked in results[1:]:
        assert not any(code in blocked["error"] for code in codes)


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.parametrize("harness", [_NODE_V1, _NODE_V2], ids=["v1", "v2"])
def test_plugin_warning_runs_the_command_and_reaches_the_model_in_its_output(
    harness: str, isolated_home: Path, dcg_exe: str, tmp_path: Path
) -> None:
    """Standard mode: the first `git reset --hard` is a warning, prepended to the output."""
    text = _opencode.plugin([dcg_exe, "hook", "--agent", "opencode"], "v1+v2")
    out = _run_node(harness, text, ["git reset --hard"], tmp_path)
    [result] = out["results"]
    assert isinstance(result, dict) and result["blocked"] is False
    assert "core.git" in result["output"] or "reset" in result["output"]
    assert result["output"].endswith("ran") and result["output"] != "ran"


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.parametrize("harness", [_NODE_V1, _NODE_V2], ids=["v1", "v2"])
def test_plugin_fails_closed_when_dcg_cannot_run(
    harness: str, isolated_home: Path, tmp_path: Path
) -> None:
    text = _opencode.plugin([str(tmp_path / "missing" / "dcg"), "hook"], "v1+v2")
    out = _run_node(harness, text, ["ls"], tmp_path)
    [result] = out["results"]
    assert isinstance(result, dict) and result["blocked"] is True
    assert "dcg could not check this command" in result["error"]
