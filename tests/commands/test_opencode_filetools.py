"""dcg's OpenCode plugin and OpenCode's file tools, run in node under both plugin APIs.

The plugin must send ``write``/``edit``/``multiedit``/``patch``/``apply_patch`` calls to
dcg (the text they write left out, links resolved), let every other tool through without
asking, and fail closed for a file write when dcg cannot run, as it does for a command.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dcg.agents import _opencode

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

# Each call: [tool, args] (calls.json); the session directory is argv[2]. v1: a named
# plugin function with {directory}; v2: a default {id, setup} registering ctx.tool.hook.
_V1 = """
import { readFileSync } from "node:fs";
import { DcgPlugin } from "./dcg.mjs";
const plugin = await DcgPlugin({ directory: process.argv[2], client: {} });
const results = [];
for (const [tool, args] of JSON.parse(readFileSync("calls.json", "utf8"))) {
  try {
    await plugin["tool.execute.before"]({ tool, sessionID: "s", callID: "c" }, { args });
    results.push({ tool, blocked: false });
  } catch (e) {
    results.push({ tool, blocked: true, error: e.message });
  }
}
console.log(JSON.stringify(results));
"""
_V2 = """
import { readFileSync } from "node:fs";
import definition from "./dcg.mjs";
const hooks = {};
const ctx = {
  location: { directory: process.argv[2] },
  tool: { hook: async (name, fn) => { hooks[name] = fn; return { dispose() {} }; } },
};
console.warn = () => {};
await definition.setup(ctx);
const results = [];
for (const [tool, args] of JSON.parse(readFileSync("calls.json", "utf8"))) {
  try {
    await hooks["execute.before"]({ tool, sessionID: "s", callID: "c", input: args });
    results.push({ tool, blocked: false });
  } catch (e) {
    results.push({ tool, blocked: true, error: e.message });
  }
}
console.log(JSON.stringify(results));
"""
HARNESSES = [pytest.param(_V1, id="v1"), pytest.param(_V2, id="v2")]


def _node(harness: str, plugin: str, calls: list[object], directory: Path, work: Path) -> list:
    work.mkdir(exist_ok=True)
    (work / "dcg.mjs").write_text(plugin)
    (work / "run.mjs").write_text(harness)
    (work / "calls.json").write_text(json.dumps(calls))
    assert NODE is not None
    proc = subprocess.run(
        [NODE, "run.mjs", str(directory)],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "DCG_RESPONSE_MODE": "standard"},
    )
    assert proc.returncode == 0, proc.stderr
    results: list[dict[str, object]] = json.loads(proc.stdout)
    return results


@pytest.fixture
def tree(isolated_home: Path, tmp_path: Path) -> dict[str, Path]:
    config = isolated_home / ".config" / "opencode"
    (config / "plugins").mkdir(parents=True)
    (config / "plugins" / "dcg.js").write_text("// dcg-plugin-shim (OpenCode v1)\n")
    project = tmp_path / "work" / "project"
    (project / "src").mkdir(parents=True)
    (project / "pl").symlink_to(config / "plugins")  # a link the user made
    return {"config": config, "project": project, "work": tmp_path / "shim"}


@pytest.mark.parametrize("harness", HARNESSES)
@pytest.mark.parametrize("api", ["v1+v2", "own"])
def test_file_tools_writing_dcg_or_opencode_config_are_stopped(
    harness: str, api: str, tree: dict[str, Path], dcg_exe: str
) -> None:
    which = ("v1" if harness == _V1 else "v2") if api == "own" else api
    plugin = _opencode.plugin([dcg_exe, "hook", "--agent", "opencode"], which)
    config, project = str(tree["config"]), tree["project"]
    patch = "*** Begin Patch\n*** Add File: {}\n+x\n*** End Patch"
    calls = [
        ["write", {"filePath": f"{config}/plugins/dcg.js", "content": "export default {}"}],
        ["edit", {"filePath": f"{config}/opencode.json", "oldString": "{", "newString": "{ "}],
        ["write", {"filePath": "pl/evil.js", "content": "x"}],  # through the user's link
        ["write", {"filePath": "opencode.json", "content": "{}", "workdir": "/tmp"}],
        ["apply_patch", {"patchText": patch.format("pl/evil.js")}],
        ["multiedit", {"filePath": "src/a.py", "edits": [{"filePath": "pl/dcg.js"}]}],
        ["write", {"filePath": "src/app.py", "content": "print('opencode.json dcg.js')"}],
        ["edit", {"filePath": f"{project}/src/app.py", "oldString": "a", "newString": "b"}],
        ["apply_patch", {"patchText": patch.format("src/new.py")}],
        ["read", {"filePath": f"{config}/plugins/dcg.js"}],
        ["glob", {"pattern": "**/*.js", "path": config}],
    ]
    results = _node(harness, plugin, calls, project, tree["work"])
    assert [r["blocked"] for r in results] == [True] * 6 + [False] * 5, results
    for blocked in results[:6]:
        assert "core.dcg:edit-hooks" in str(blocked["error"]), blocked


def _recorder(tmp_path: Path) -> tuple[list[str], Path]:
    """A stand-in dcg that records each payload it is sent and has no opinion."""
    log = tmp_path / "payloads.jsonl"
    script = tmp_path / "record.py"
    script.write_text(
        "import sys\n"
        f"open({str(log)!r}, 'a').write(sys.stdin.read().replace(chr(10), ' ') + chr(10))\n"
    )
    return [sys.executable, str(script)], log


@pytest.mark.parametrize("harness", HARNESSES)
def test_the_payload_names_paths_never_the_text_written(
    harness: str, tree: dict[str, Path], tmp_path: Path
) -> None:
    argv, log = _recorder(tmp_path)
    plugin = _opencode.plugin(argv, "v1+v2")
    big = "secret text " * 500_000  # 6 MB the tool writes: never piped to dcg
    calls = [
        ["write", {"filePath": "src/a.py", "content": big}],
        ["edit", {"filePath": "src/a.py", "oldString": big, "newString": "y", "replaceAll": True}],
        ["multiedit", {"filePath": "a", "edits": [{"filePath": "b", "oldString": big}]}],
        ["apply_patch", {"patchText": "*** Begin Patch\n*** Add File: pl/x.js\n+x\n*** End Patch"}],
        ["bash", {"command": "ls", "workdir": "src", "description": "list"}],
        ["read", {"filePath": "src/a.py"}],
    ]
    results = _node(harness, plugin, calls, tree["project"], tree["work"])
    assert not any(r["blocked"] for r in results), results
    sent = [json.loads(line) for line in log.read_text().splitlines()]
    project, config = str(tree["project"]), str(tree["config"])
    assert sent == [
        {"tool": "write", "args": {"filePath": "src/a.py"}, "cwd": project, "sessionID": "s"},
        {
            "tool": "edit",
            "args": {"filePath": "src/a.py", "replaceAll": True},
            "cwd": project,
            "sessionID": "s",
        },
        {
            "tool": "multiedit",
            "args": {"filePath": "a", "edits": [{"filePath": "b"}]},
            "cwd": project,
            "sessionID": "s",
        },
        {
            "tool": "apply_patch",
            "args": {"patchText": calls[3][1]["patchText"]},  # type: ignore[index]
            "cwd": project,
            "sessionID": "s",
            "resolved": [f"{config}/plugins/x.js"],
        },
        # A command's relative workdir is the session directory's.
        {"tool": "bash", "command": "ls", "cwd": f"{project}/src", "sessionID": "s"},
    ]


@pytest.mark.parametrize("harness", HARNESSES)
def test_a_file_write_is_stopped_when_dcg_cannot_run(
    harness: str, tree: dict[str, Path], tmp_path: Path
) -> None:
    plugin = _opencode.plugin([str(tmp_path / "missing" / "dcg"), "hook"], "v1+v2")
    calls = [["write", {"filePath": "src/a.py", "content": "x"}], ["read", {"filePath": "x"}]]
    results = _node(harness, plugin, calls, tree["project"], tree["work"])
    assert [r["blocked"] for r in results] == [True, False]
    assert "dcg could not check this file write" in str(results[0]["error"])


def test_doctor_fails_a_plugin_that_sends_only_bash_and_install_rewrites_it(
    isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plugin an older dcg wrote judges only commands: doctor's matcher check says so."""
    import io

    from dcg.commands.doctor import doctor
    from dcg.commands.install import install

    monkeypatch.setenv("PATH", str(isolated_home / "no-bin"))  # no opencode: v1+v2 plugin
    assert install(["opencode"], stdout=io.StringIO()) == 0
    path = isolated_home / ".config" / "opencode" / "plugins" / "dcg.js"
    current = path.read_text()
    older = current.replace(json.dumps(list(_opencode.FILE_TOOLS)), "[]")
    assert older != current
    path.write_text(older)

    def matcher() -> dict[str, object]:
        out = io.StringIO()
        doctor(json_output=True, stdout=out)
        findings = json.loads(out.getvalue())
        return next(f for f in findings if (f["scope"], f["check"]) == ("opencode", "matcher"))

    stale = matcher()
    assert stale["ok"] is False and "write" in str(stale["detail"]), stale
    assert install(["opencode"], stdout=io.StringIO()) == 0
    assert path.read_text() == current
    assert matcher()["ok"] is True


GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "payloads"


@pytest.mark.parametrize("name", ["opencode-write.json", "opencode-apply_patch.json"])
@pytest.mark.parametrize("harness", HARNESSES)
def test_the_plugin_sends_the_golden_payloads(harness: str, name: str, tmp_path: Path) -> None:
    golden = json.loads((GOLDEN / name).read_text())
    argv, log = _recorder(tmp_path)
    args = dict(golden["args"], content="x", oldString="a", newString="b")
    calls = [[golden["tool"], args]]
    work = tmp_path / "shim"
    work.mkdir()
    (work / "dcg.mjs").write_text(_opencode.plugin(argv, "v1+v2"))
    (work / "run.mjs").write_text(harness.replace('"s"', json.dumps(golden["sessionID"])))
    (work / "calls.json").write_text(json.dumps(calls))
    assert NODE is not None
    proc = subprocess.run(
        [NODE, "run.mjs", golden["cwd"]], cwd=work, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert [json.loads(line) for line in log.read_text().splitlines()] == [golden]
