"""OpenCode's file tools through ``dcg hook``: the payload dcg's plugin sends for each.

The plugin (agents/_opencode.py) sends a file tool's own arguments under ``args`` without
the text it writes, with the session directory as ``cwd``. dcg judges the paths like
Claude Code's Write/Edit: a write to dcg's files or to any agent's hook settings (OpenCode's
plugin directories and config files among them) is a hard block in every mode, whatever
the spelling; every other write gets no output.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from dcg.agents import _opencode, opencode
from dcg.agents._common import patch_paths
from hookpath import run, verdict

DETAILS = {"DCG_HOOK_DETAILS": "1"}
PATCH = "*** Begin Patch\n*** {head}: {path}\n@@\n-a\n+b\n*** End Patch\n"
MOVE = "*** Begin Patch\n*** Update File: src/a.py\n*** Move to: {path}\n@@\n-a\n+b\n*** End Patch"


def _real(path: str, cwd: str) -> str | None:
    """The plugin's ``real()``: links of the deepest existing directory resolved."""
    full = os.path.normpath(os.path.join(cwd, path))
    rest: list[str] = []
    while not os.path.exists(full) and os.path.dirname(full) != full:
        rest.insert(0, os.path.basename(full))
        full = os.path.dirname(full)
    found = os.path.join(os.path.realpath(full), *rest)
    return None if found == os.path.normpath(os.path.join(cwd, path)) else found


def _payload(tool: str, args: dict[str, object], cwd: str) -> bytes:
    """What dcg's plugin sends (its ``request()``), the text left out."""
    body: dict[str, object] = {"tool": tool, "args": args, "cwd": cwd, "sessionID": "ses_files"}
    named = [v for k in ("filePath", "path") for v in [args.get(k)] if isinstance(v, str) and v]
    edits = args.get("edits")
    named += (
        [e["filePath"] for e in edits if isinstance(e, dict)] if isinstance(edits, list) else []
    )
    patch = args.get("patchText")
    named += patch_paths(patch) if isinstance(patch, str) else []
    resolved = [r for r in (_real(p, cwd) for p in named) if r]
    if resolved:
        body["resolved"] = resolved
    return json.dumps(body).encode()


def _hook(tool: str, args: dict[str, object], cwd: str, mode: str) -> tuple[str, str | None]:
    env = dict(os.environ, **DETAILS)
    code, out, err = run(_payload(tool, args, cwd), ["--agent", "opencode", "--mode", mode], env)
    assert "Traceback" not in err
    rule = None
    if out.strip():
        reason = json.loads(out)["reason"]
        rule = (
            reason.split("BLOCKED by dcg: ", 1)[1].split(" ", 1)[0] if "BLOCKED" in reason else ""
        )
    return verdict(code, out, err), rule


@pytest.fixture
def tree(isolated_home: Path, tmp_path: Path) -> dict[str, Path]:
    """A project, OpenCode's installed plugin, and links into its config made by the user."""
    home = isolated_home
    config = home / ".config" / "opencode"
    (config / "plugins").mkdir(parents=True)
    (config / "plugins" / "dcg.js").write_text("// dcg-plugin-shim (OpenCode v1)\n")
    project = tmp_path / "work" / "project"
    (project / "src").mkdir(parents=True)
    (project / "pl").symlink_to(config / "plugins")
    (project / "conf").symlink_to(config)
    (project / "shim.js").symlink_to(config / "plugins" / "dcg.js")
    return {"home": home, "config": config, "project": project}


# (tool, args, cwd) with {H} for HOME, {P} for the project, {C} for ~/.config/opencode;
# the rule dcg stops it with.
STOPPED = [
    ("write", {"filePath": "{C}/plugins/dcg.js", "content": "x"}, "{P}", "edit-hooks"),
    ("edit", {"filePath": "{C}/plugins/dcg.js", "oldString": "a", "newString": "b"}, "{P}",
     "edit-hooks"),
    ("write", {"filePath": "~/.config/opencode/plugins/dcg.js"}, "{P}", "edit-hooks"),
    ("write", {"filePath": "{P}/../../home/.config//opencode/./plugins/dcg.js"}, "{P}",
     "edit-hooks"),
    ("write", {"filePath": "dcg.js"}, "{C}/plugins", "edit-hooks"),
    ("write", {"filePath": "plugins/other.ts"}, "{C}", "edit-hooks"),
    ("write", {"filePath": "opencode/plugins/x.js"}, "{H}/.config", "edit-hooks"),
    ("write", {"filePath": "/proc/self/root{C}/plugins/dcg.js"}, "{P}", "edit-hooks"),
    ("write", {"filePath": "pl/dcg.js"}, "{P}", "edit-hooks"),
    ("write", {"filePath": "pl/evil.js"}, "{P}", "edit-hooks"),
    ("write", {"filePath": "shim.js"}, "{P}", "edit-hooks"),
    ("edit", {"filePath": "conf/plugins/dcg.js"}, "{P}", "edit-hooks"),
    ("write", {"filePath": "{C}/opencode.json"}, "{P}", "edit-hooks"),
    ("write", {"filePath": "{C}/opencode.jsonc"}, "{P}", "edit-hooks"),
    ("write", {"filePath": "{C}/config.json"}, "{P}", "edit-hooks"),
    ("write", {"filePath": "conf/opencode.json"}, "{P}", "edit-hooks"),
    ("write", {"filePath": "opencode.json"}, "{P}", "edit-hooks"),
    ("edit", {"filePath": "{P}/src/../opencode.jsonc"}, "{P}", "edit-hooks"),
    ("write", {"filePath": ".opencode/opencode.json"}, "{P}", "edit-hooks"),
    ("write", {"filePath": ".opencode/plugins/x.js"}, "{P}", "edit-hooks"),
    ("write", {"filePath": ".opencode/plugin/x.ts"}, "{P}", "edit-hooks"),
    # Custom tools: OpenCode imports every module of these directories (their code runs).
    ("write", {"filePath": "{C}/tools/t.js"}, "{P}", "edit-hooks"),
    ("write", {"filePath": "tool/t.ts"}, "{C}", "edit-hooks"),
    ("write", {"filePath": ".opencode/tools/t.ts"}, "{P}", "edit-hooks"),
    ("write", {"filePath": "conf/tool/t.js"}, "{P}", "edit-hooks"),
    ("write", {"filePath": "{H}/.config/dcg/allowlist.toml"}, "{P}", "write-state"),
    ("write", {"filePath": "{H}/.config/dcg/config.toml"}, "{P}", "write-state"),
    ("write", {"filePath": "{H}/.claude/settings.json"}, "{P}", "edit-hooks"),
    ("write", {"filePath": "{H}/.local/bin/dcg"}, "{P}", "disable"),
    ("multiedit", {"filePath": "{P}/src/a.py", "edits": [{"filePath": "{C}/plugins/dcg.js"}]},
     "{P}", "edit-hooks"),
    ("patch", {"patchText": PATCH.format(head="Update File", path="{C}/plugins/dcg.js")},
     "{P}", "edit-hooks"),
    ("apply_patch",
     {"patchText": PATCH.format(head="Delete File", path="~/.config/opencode/plugins/dcg.js")},
     "{P}", "edit-hooks"),
    ("apply_patch", {"patchText": PATCH.format(head="Add File", path="opencode.json")}, "{P}",
     "edit-hooks"),
    ("apply_patch", {"patchText": MOVE.format(path="pl/evil.js")}, "{P}", "edit-hooks"),
    # OpenCode's parser needs no space after the colon, and trims the path.
    ("apply_patch", {"patchText": PATCH.replace(": ", ":").format(head="Add File",
     path="opencode.json")}, "{P}", "edit-hooks"),
    ("apply_patch", {"patchText": MOVE.replace("to: ", "to:\t").format(path="pl/evil.js ")},
     "{P}", "edit-hooks"),
    ("apply_patch", {"patchText": PATCH.format(head="Delete File", path="{C}/plugins/dcg.js")
     .replace("\n", "\r\n")}, "{P}", "edit-hooks"),
    # OpenCode resolves a relative path against the session directory, never a workdir
    # the model adds; dcg reads every path-like key OpenCode might take.
    ("write", {"filePath": "dcg.js", "workdir": "/tmp"}, "{C}/plugins", "edit-hooks"),
    ("write", {"filePath": "", "path": "{C}/plugins/dcg.js"}, "{P}", "edit-hooks"),
    ("Write", {"filePath": "{C}/plugins/dcg.js"}, "{P}", "edit-hooks"),
]  # fmt: skip

PASSED = [
    ("write", {"filePath": "{P}/src/app.py", "content": "import os  # dcg opencode.json"}, "{P}"),
    ("edit", {"filePath": "src/app.py", "oldString": "rm -rf ~", "newString": ""}, "{P}"),
    ("write", {"filePath": "{P}/src/opencode.json.bak"}, "{P}"),
    ("write", {"filePath": "{P}/docs/opencode.md"}, "{P}"),
    ("write", {"filePath": "{P}/src/plugins/dcg.js"}, "{P}"),
    ("write", {"filePath": "{P}/src/tools/t.ts"}, "{P}"),
    ("write", {"filePath": "{P}/.opencode/agent/reviewer.md"}, "{P}"),
    ("apply_patch", {"patchText": PATCH.format(head="Update File", path="src/app.py")}, "{P}"),
    ("read", {"filePath": "{C}/plugins/dcg.js"}, "{P}"),
    ("grep", {"pattern": "dcg", "path": "{C}"}, "{P}"),
    ("edit", {"oldString": "a", "newString": "b"}, "{P}"),
]


def _fill(value: object, tree: dict[str, Path]) -> object:
    if isinstance(value, str):
        config, home, project = str(tree["config"]), str(tree["home"]), str(tree["project"])
        return value.replace("{C}", config).replace("{H}", home).replace("{P}", project)
    if isinstance(value, dict):
        return {k: _fill(v, tree) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, tree) for v in value]
    return value


def _id(tool: str, args: dict[str, object]) -> str:
    text = str(next(iter(v for v in args.values() if v), ""))
    return f"{tool}-{text.replace('{', '').replace('}', '')[:40]}"


@pytest.mark.parametrize("mode", ["paranoid", "standard", "lenient"])
@pytest.mark.parametrize(
    ("tool", "args", "cwd", "rule"),
    [pytest.param(*case, id=_id(case[0], case[1])) for case in STOPPED],
)
def test_file_tool_writes_of_dcg_and_hook_settings_are_hard_blocks(
    tool: str, args: dict[str, object], cwd: str, rule: str, mode: str, tree: dict[str, Path]
) -> None:
    filled = _fill(args, tree)
    assert isinstance(filled, dict)
    decision, found = _hook(tool, filled, str(_fill(cwd, tree)), mode)
    assert (decision, found) == ("deny", f"core.dcg:{rule}")


@pytest.mark.parametrize(
    ("tool", "args", "cwd"), [pytest.param(*case, id=_id(case[0], case[1])) for case in PASSED]
)
def test_other_file_tool_calls_get_no_output(
    tool: str, args: dict[str, object], cwd: str, tree: dict[str, Path]
) -> None:
    filled = _fill(args, tree)
    assert isinstance(filled, dict)
    assert _hook(tool, filled, str(_fill(cwd, tree)), "paranoid") == ("none", None)


def test_plugin_and_adapter_name_the_same_file_tools() -> None:
    assert set(_opencode.FILE_TOOLS) == opencode.FILE_TOOLS
    text = _opencode.plugin(["dcg", "hook", "--agent", "opencode"], "v1+v2")
    assert _opencode.plugin_covers(text)
    assert not _opencode.plugin_covers(text.replace('"apply_patch", ', ""))


@pytest.mark.parametrize("argv", [["--agent", "opencode"], []], ids=["named", "detected"])
def test_the_plugin_payload_is_read_as_opencode_with_or_without_the_flag(
    argv: list[str], tree: dict[str, Path]
) -> None:
    payload = _payload("write", {"filePath": f"{tree['config']}/plugins/dcg.js"}, "/")
    code, out, _ = run(payload, argv, dict(os.environ, **DETAILS))
    assert code == 0 and json.loads(out)["decision"] == "deny"


# The golden payloads of dcg's plugin for OpenCode's file tools (what its request() sends:
# tests/commands/test_opencode_filetools.py checks the plugin sends exactly these).
GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "payloads"
FILE_GOLDENS = sorted(p.name for p in GOLDEN.glob("opencode-*.json"))


@pytest.mark.parametrize("name", FILE_GOLDENS)
def test_golden_file_tool_payloads_are_stopped(name: str, isolated_home: Path) -> None:
    raw = (GOLDEN / name).read_text().replace("/home/ana", str(isolated_home))
    (isolated_home / "repo").mkdir()
    for argv in (["--agent", "opencode"], []):
        code, out, err = run(raw.encode(), argv, dict(os.environ, **DETAILS))
        assert verdict(code, out, err) == "deny", (out, err)
        assert "core.dcg:edit-hooks" in json.loads(out)["reason"]
