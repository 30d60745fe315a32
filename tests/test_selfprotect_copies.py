"""Self-protection, round three: what lands in HOME when its own path is never named.

A recursive copy, an archive read from a pipe or a diff applied in HOME writes dcg's state
or an agent's settings though the command names only HOME (too wide a destination to
stop by itself); a local tree whose project is named dcg replaces dcg when installed.
Each case goes through the hook with a real Claude Code payload in every hookpath
variant and must be a ``core.dcg`` stop; the must-stop cases are run in real bash with
HOME inside ``tmp_path`` and shown to plant the file; copies of harmless trees pass.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hookpath import VARIANTS
from sandbox import claude_hook

EVIL = "{home}/../evil"  # a tree beside HOME holding a forged allowlist
FAKE = "{home}/../fake"  # a tree holding agent settings with the hooks switched off
PLANTED = {
    "state": ".config/dcg/allowlist.toml",
    "hooks": ".claude/settings.json",
}
STOP = [
    ("cp -r {evil}/.config ~/", "core.dcg:write-state", "state"),
    ("cp -a {evil}/. ~", "core.dcg:write-state", "state"),
    ("cp -R {evil}/. $HOME/", "core.dcg:write-state", "state"),
    ("cp -rT {evil} ~", "core.dcg:write-state", "state"),
    ("cd ~ && cp -r {evil}/.config .", "core.dcg:write-state", "state"),
    ("rsync -a {evil}/ ~/", "core.dcg:write-state", "state"),
    ("cp -r {fake}/.claude ~/", "core.dcg:edit-hooks", "hooks"),
    ("cp -a {fake}/. ~/", "core.dcg:edit-hooks", "hooks"),
    ("tar -C {evil} -cf - .config | tar -C ~ -xf -", "core.dcg:write-state", "state"),
    ("cd ~ && tar -c -C {fake} .claude | tar -x", "core.dcg:write-state", "hooks"),
    (
        "mkdir -p {evil}2/.claude && echo '{{}}' > {evil}2/.claude/settings.json"
        " && cp -r {evil}2/. ~",
        "core.dcg:edit-hooks",
        "hooks",
    ),
    ("cd ~ && patch -p1 < {home}/../p.diff", "core.dcg:edit-hooks", "hooks"),
    ("patch -d ~ -p1 -i {home}/../p.diff", "core.dcg:edit-hooks", "hooks"),
    ("cd ~ && git apply -p1 {home}/../p.diff", "core.dcg:edit-hooks", "hooks"),
]
PASS = [
    "cp -r {home}/../docs ~/",
    "cp -a {home}/../docs/. ~/notes",
    "rsync -a {home}/../docs/ ~/docs/",
    "cd ~ && patch -p1 < {home}/../ok.diff",
    "cp -r {evil}/.config /tmp/somewhere-else",
]


def _world(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    home = Path(os.environ["HOME"])
    (home / "proj").mkdir(parents=True, exist_ok=True)
    (home / ".claude").mkdir(exist_ok=True)
    (home / ".claude" / "settings.json").write_text('{"hooks": {"PreToolUse": []}}\n')
    evil = home.parent / "evil" / ".config" / "dcg"
    evil.mkdir(parents=True)
    (evil / "allowlist.toml").write_text('[[allow]]\nrule = "core.git:*"\n')
    fake = home.parent / "fake" / ".claude"
    fake.mkdir(parents=True)
    (fake / "settings.json").write_text('{"disableAllHooks": true}\n')
    (home.parent / "docs").mkdir()
    (home.parent / "docs" / "a.md").write_text("notes\n")
    (home.parent / "p.diff").write_text(
        "--- a/.claude/settings.json\n+++ b/.claude/settings.json\n@@ -1 +1 @@\n"
        '-{"hooks": {"PreToolUse": []}}\n+{"disableAllHooks": true}\n'
    )
    (home.parent / "ok.diff").write_text("--- /dev/null\n+++ b/notes.txt\n@@ -0,0 +1 @@\n+hi\n")
    env = {"HOME": str(home), "TMPDIR": str(tmp_path), "PATH": os.environ["PATH"]}
    return home, env


def _line(command: str, home: Path) -> str:
    evil, fake = str(home.parent / "evil"), str(home.parent / "fake")
    return command.format(home=home, evil=evil, fake=fake)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("command", "rule", "kind"), STOP)
def test_what_a_copy_plants_in_home_is_stopped(
    tmp_path: Path, command: str, rule: str, kind: str, variant: str
) -> None:
    home, _ = _world(tmp_path)
    decision, spec = claude_hook(_line(command, home), home / "proj", variant)
    assert decision == "deny" and rule in spec, spec


@pytest.mark.parametrize("command", PASS)
def test_copies_of_harmless_trees_pass(tmp_path: Path, command: str) -> None:
    home, _ = _world(tmp_path)
    assert claude_hook(_line(command, home), home / "proj")[0] == ""


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize(("command", "rule", "kind"), STOP)
def test_the_stopped_lines_plant_the_file_in_real_bash(
    tmp_path: Path, command: str, rule: str, kind: str
) -> None:
    home, env = _world(tmp_path)
    target = home / PLANTED[kind]
    before = target.read_text() if target.exists() else None
    if "patch" in command and shutil.which("patch") is None:
        pytest.skip("needs patch")
    subprocess.run(["bash", "-c", _line(command, home)], cwd=home / "proj", env=env,
                   capture_output=True, timeout=60, check=False)  # fmt: skip
    assert target.exists() and target.read_text() != before, command


def test_installing_a_local_tree_named_dcg_is_stopped(tmp_path: Path) -> None:
    home, _ = _world(tmp_path)
    fake = home.parent / "fakedcg"
    fake.mkdir()
    (fake / "pyproject.toml").write_text('[project]\nname = "dcg"\nversion = "9.9.9"\n')
    other = home.parent / "other"
    other.mkdir()
    (other / "pyproject.toml").write_text('[project]\nname = "other"\n')
    for line in (f"pip install {fake}", f"pip install -e {fake}", f"uv pip install {fake}",
                 f"python3 -m pip install --force-reinstall {fake}/",
                 f"cd {home.parent} && pip install ./fakedcg"):  # fmt: skip
        decision, spec = claude_hook(line, home / "proj")
        assert decision == "deny" and "core.dcg:disable" in spec, line
    assert claude_hook(f"pip install {other}", home / "proj")[0] == ""
    assert claude_hook("pip install -e .", home / "proj")[0] == ""
