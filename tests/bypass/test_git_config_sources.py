"""Git config that changes on the line or through the environment (dcg.shell.gitsources).

An alias or a push setting may come from config written earlier on the same line
(``printf '[alias]…' >> .git/config && git x``), from a file the environment chooses
(``HOME=h``, ``XDG_CONFIG_HOME``, ``GIT_CONFIG_GLOBAL``, ``GIT_CONFIG_SYSTEM``,
``GIT_CONFIG_COUNT``…), from ``-c include.path=``, or from the repository's config written
by an earlier hook call. Each must-stop case is stopped through ``dcg.hook.main`` with the
rule named, then run in real bash in the sandbox of ``gitbox``, where it loses work; the
must-pass cases pass the hook and lose nothing.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import gitbox

RESET = "core.git:reset-hard"
CLEAN = "core.git:clean-force"
PUSH = "core.git:push-force"
OPAQUE = "core.shell:opaque-exec"
ALIAS = "printf '[alias]\\n\\tx = reset --hard\\n'"

# (setup run before, command, rule id, the loss it causes in real bash)
STOP = [
    ("", f"{ALIAS} >> .git/config && git x", RESET, "work"),
    ("", f"{ALIAS} > cfg && GIT_CONFIG_GLOBAL=cfg git x", RESET, "work"),
    ("", f"{ALIAS} > cfg && git -c include.path=$PWD/cfg x", RESET, "work"),
    ("", f'{ALIAS} > cfg; git -c include.path="${{PWD}}/cfg" x', RESET, "work"),
    ("", "HOME=h git x", RESET, "work"),
    ("", "HOME=h git y", CLEAN, "untracked"),
    ("", "HOME=h git -C . x", RESET, "work"),
    ("", "export HOME=h; git x", RESET, "work"),
    ("", "GIT_CONFIG_GLOBAL=cfg0 git x", RESET, "work"),
    ("", "GIT_CONFIG_SYSTEM=cfg0 git x", RESET, "work"),
    ("", "env GIT_CONFIG_GLOBAL=cfg0 git x", RESET, "work"),
    ("", "export GIT_CONFIG_GLOBAL=cfg0 && git y", CLEAN, "untracked"),
    ("", "mkdir -p xdg/git && cp cfg0 xdg/git/config && XDG_CONFIG_HOME=xdg git x", RESET, "work"),
    ("", "echo '[alias] x = reset --hard' > c2; GIT_CONFIG_GLOBAL=c2 git x", RESET, "work"),
    (
        "",
        "cat > c3 <<'EOF'\n[alias]\n\tz = !rm -rf src\nEOF\nGIT_CONFIG_GLOBAL=c3 git z",
        "core.filesystem:rm-rf",
        "work",
    ),
    ("", "git config -f c4 alias.x 'reset --hard' && GIT_CONFIG_GLOBAL=c4 git x", RESET, "work"),
    ("", f"{ALIAS} | tee -a .git/config && git x", RESET, "work"),
    (
        "",
        "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0='reset --hard' git x",
        RESET,
        "work",
    ),
    # config dcg cannot know: a git call that may be an alias is code it cannot see
    ("", "cat cfg0 >> .git/config && git x", OPAQUE, "work"),
    # $PWD is the payload's cwd: the include is read, and the alias it defines is judged
    ("", 'echo "[include] path = $PWD/cfg0" >> .git/config; git x', RESET, "work"),
    ("", "HOME=$(cd h && pwd) git x", OPAQUE, "work"),
    ("", 'GIT_CONFIG_GLOBAL="$(ls cfg*)" git x', OPAQUE, "work"),
    # push settings written on the line, or by an earlier call
    (
        "",
        "printf '[remote \"origin\"]\\n\\tpush = +HEAD~1:refs/heads/main\\n' >> .git/config "
        "&& git push",
        PUSH,
        "remote",
    ),
    (
        "",
        "printf '[remote \"origin\"]\\n\\tmirror = true\\n' >> .git/config && git push",
        PUSH,
        "remote",
    ),
    ("git config remote.origin.mirror true", "git push", PUSH, "remote"),
    ("git config remote.origin.push +HEAD~1:refs/heads/main", "git push", PUSH, "remote"),
    ("git config remote.origin.mirror true", "git push origin", PUSH, "remote"),
]

SAFE = [
    ("", "HOME=h git status"),
    ("", "GIT_CONFIG_GLOBAL=cfg0 git log -1"),
    ("", "GIT_CONFIG_GLOBAL=$(mktemp) git status"),
    ("", "printf '[alias]\\n\\tst = status\\n' >> .git/config && git st"),
    ("", "printf '[alias]\\n\\tx = log -1\\n' > cfg && GIT_CONFIG_GLOBAL=cfg git x"),
    ("", "printf '[user]\\n\\tname = me\\n' >> .git/config && git status"),
    ("", "git config remote.origin.mirror false; git push origin main"),
    ("git config remote.origin.push refs/heads/main:refs/heads/main", "git push"),
    ("", "HOME=h git diff --stat"),
    ("", "git push origin main"),
]

_IDS = [c for _, c, _, _ in STOP]
pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


@pytest.mark.parametrize(("setup", "command", "rule_id", "loss"), STOP, ids=_IDS)
def test_config_on_the_line_stopped(
    isolated_home: Path, setup: str, command: str, rule_id: str, loss: str
) -> None:
    decision, details = gitbox.judged(isolated_home / "j", setup, command)
    assert decision == "deny", command
    assert rule_id in details, details
    assert loss in gitbox.losses(isolated_home / "r", setup, command), command


@pytest.mark.parametrize(("setup", "command"), [(s, c) for s, c, _, _ in STOP][::3])
@pytest.mark.parametrize("variant", ["later-line", "after-tab", "after-crlf"])
def test_config_on_the_line_stopped_however_placed(
    isolated_home: Path, setup: str, command: str, variant: str
) -> None:
    assert gitbox.judged(isolated_home, setup, command, variant)[0] == "deny", command


@pytest.mark.parametrize(("setup", "command"), SAFE, ids=[c for _, c in SAFE])
def test_config_everyday_passes(isolated_home: Path, setup: str, command: str) -> None:
    assert gitbox.judged(isolated_home / "j", setup, command)[0] == "", command
    assert gitbox.losses(isolated_home / "r", setup, command) == [], command


UNDER_HOME = [
    "cp cfg0 ~/c9; git -c include.path=$HOME/c9 x",
    "cp cfg0 ~/c9 && git -c include.path=~/c9 x",
    "cp cfg0 ~/c9; GIT_CONFIG_GLOBAL=~/c9 git x",
    'cp cfg0 ~/c9; git -c include.path="${HOME}/c9" x',
]


@pytest.mark.parametrize("command", UNDER_HOME)
def test_config_under_home_stopped(isolated_home: Path, command: str) -> None:
    """``~`` and ``$HOME`` name the same directory for the shell and for dcg here."""
    box, env = gitbox.make(isolated_home / "r")
    decision, details = gitbox.hook(command, box)
    assert decision == "deny", command
    assert RESET in details, details
    before = (box / "src" / "canary").read_text()
    gitbox.bash(box, dict(env, HOME=str(isolated_home)), command)
    assert (box / "src" / "canary").read_text() != before, command
