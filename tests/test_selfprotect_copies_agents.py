"""What a recursive copy plants in HOME: every agent's hook files, not only dot-directories.

A copied path is judged one by one only when it looks like something dcg protects
(dcg.selfcopy): that test is derived from every agent's hook files (dcg.agents), so a
tree holding OpenCode's ``opencode.json`` (its ``plugin`` list loads code in every project
below HOME), Crush's ``crush.json`` or Cline's ``Documents/Cline/Hooks/`` scripts copied
into HOME is a ``core.dcg`` stop like a ``.claude/settings.json`` one. Each must-stop line
goes through the hook with a real Claude Code payload in every hookpath variant and is run
in real bash to show it plants the file; copies of harmless trees pass.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from dcg import agents, selfcopy
from hookpath import VARIANTS
from sandbox import claude_hook

TREE = "{home}/../tree"  # a tree beside HOME holding agent hook files outside dot-directories
PLANTED = {
    "opencode": "opencode.json",
    "crush": "crush.json",
    "cline": "Documents/Cline/Hooks/PreToolUse",
    # A project's own opencode.json, as `echo > ~/tree/opencode.json` is judged.
    "tree": "tree/opencode.json",
}
STOP = [
    ("cp -r {tree}/. ~/", "core.dcg:edit-hooks", "opencode"),
    ("cp -a {tree}/. ~", "core.dcg:edit-hooks", "crush"),
    ("rsync -a {tree}/ ~/", "core.dcg:edit-hooks", "opencode"),
    ("rsync -r {tree}/ $HOME", "core.dcg:edit-hooks", "cline"),
    ("cp -R {tree}/. $HOME/", "core.dcg:edit-hooks", "cline"),
    ("cp -rT {tree} ~", "core.dcg:edit-hooks", "opencode"),
    ("cd ~ && cp -r {tree}/. .", "core.dcg:edit-hooks", "crush"),
    ("cp -r {tree}/Documents/. ~/Documents/", "core.dcg:edit-hooks", "cline"),
    ("cp -r {tree} ~/", "core.dcg:edit-hooks", "tree"),
]
PASS = [
    "cp -r {tree}/Documents/. ~/stuff/",
    "cp -r {home}/../docs/. ~/",
    "rsync -a {home}/../docs/ ~/",
]


def _world(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    home = Path(os.environ["HOME"])
    (home / "proj").mkdir(parents=True, exist_ok=True)
    tree = home.parent / "tree"
    for rel in (r for k, r in PLANTED.items() if k != "tree"):
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        (tree / rel).write_text('{"plugin": ["file:///tmp/x.js"]}\n')
    docs = home.parent / "docs"
    (docs / "examples").mkdir(parents=True)
    (docs / "examples" / "sample.md").write_text("notes\n")
    (docs / "ampersand.txt").write_text("notes\n")
    env = {"HOME": str(home), "TMPDIR": str(tmp_path), "PATH": os.environ["PATH"]}
    return home, env


def _line(command: str, home: Path) -> str:
    return command.format(home=home, tree=home.parent / "tree")


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("command", "rule", "kind"), STOP)
def test_agent_hook_files_a_copy_plants_in_home_are_stopped(
    tmp_path: Path, command: str, rule: str, kind: str, variant: str
) -> None:
    home, _ = _world(tmp_path)
    decision, spec = claude_hook(_line(command, home), home / "proj", variant)
    assert decision == "deny" and rule in spec, spec


@pytest.mark.parametrize("command", PASS)
def test_copies_of_trees_without_them_pass(tmp_path: Path, command: str) -> None:
    home, _ = _world(tmp_path)
    assert claude_hook(_line(command, home), home / "proj")[0] == ""


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize(("command", "rule", "kind"), STOP)
def test_the_stopped_lines_plant_the_file_in_real_bash(
    tmp_path: Path, command: str, rule: str, kind: str
) -> None:
    home, env = _world(tmp_path)
    target = home / PLANTED[kind]
    assert not target.exists()
    if command.startswith("rsync") and shutil.which("rsync") is None:
        pytest.skip("needs rsync")
    subprocess.run(["bash", "-c", _line(command, home)], cwd=home / "proj", env=env,
                   capture_output=True, timeout=60, check=False)  # fmt: skip
    assert target.exists(), command


def test_every_agent_hook_file_is_looked_at_in_a_copied_tree() -> None:
    relative, fixed = agents.protected_files()
    for path in (*relative, *fixed):
        rel = path.removeprefix("~/").lstrip("/")
        for below in (rel, f"{rel.rstrip('/')}/x.json"):
            assert selfcopy._suspect(below), below
    assert not selfcopy._suspect("docs/examples/sample.md")
