"""Issue 32, code that tools run for you (dcg.shell.toolruns), through the hook.

Git settings and variables that git runs as shell text, git options that take a command,
hooks written on the line, detached runners (tmux, screen, crontab, docker run -v) and
shell escapes: every must-stop case is stopped through ``dcg.hook.main`` with a real
Claude payload and placed as agents place it (``hookpath.VARIANTS``); the cases marked
``run`` are also run in real bash in a throwaway git repository and destroy its canary;
must-pass cases pass the hook and leave the canary alone.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from hookpath import VARIANTS, payload, run, verdict
from sandbox import claude_hook

CWD = "/home/dev/project"
RM = "core.filesystem:rm-rf"
SELF = "core.dcg:self-approve"

# (command, rule id, proof): "run" = destroyed the canary in the sandbox below; "hook" =
# needs what the sandbox lacks (a tty, a server, a remote), judged through the hook only.
STOP = [
    ("git -c core.fsmonitor='rm -rf src;false' status", RM, "run"),
    ("git -c core.fsmonitor='rm -rf src' diff", RM, "hook"),
    ("git -c core.editor='rm -rf src;true' commit --amend", RM, "run"),
    ("GIT_EDITOR='rm -rf src;true' git commit --amend", RM, "run"),
    ("export GIT_EDITOR='rm -rf src;true'; git commit --amend", RM, "run"),
    ("GIT_SEQUENCE_EDITOR='rm -rf src;true' git rebase -i --root", RM, "hook"),
    ("git -c core.pager='rm -rf src;cat' --paginate log", RM, "run"),
    ("GIT_PAGER='rm -rf src;cat' git --paginate log", RM, "run"),
    ("PAGER='rm -rf src;cat' git -p log", RM, "run"),
    ("git -c pager.log='rm -rf src;cat' log", RM, "run"),
    ("git config core.pager 'rm -rf src;cat'; git -p log", RM, "run"),
    ("git config --local core.pager 'rm -rf src;cat' && git -p show", RM, "run"),
    (
        "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='rm -rf src;cat' "
        "git -p log",
        RM,
        "run",
    ),
    ("GIT_CONFIG_PARAMETERS=\"'core.pager'='rm -rf src;cat'\" git -p log", RM, "run"),
    ("git --config-env=core.pager=P -p log", None, "hook"),
    ("git -c core.sshCommand='rm -rf src;' fetch origin", RM, "hook"),
    ("GIT_SSH_COMMAND='rm -rf src;' git pull", RM, "hook"),
    ("git -c diff.external='rm -rf src;true' diff", RM, "run"),
    ("GIT_EXTERNAL_DIFF='rm -rf src;true' git diff --ext-diff", RM, "run"),
    ("git -c diff.x.textconv='rm -rf src;cat' diff", RM, "hook"),
    ("git -c filter.lfs.smudge='rm -rf src;cat' checkout .", RM, "hook"),
    ("git -c filter.x.clean='rm -rf src' add -A", RM, "hook"),
    ("git -c credential.helper='!rm -rf src' fetch", RM, "hook"),
    ("git -c gpg.program='rm -rf src;' commit -S -m x", RM, "hook"),
    ("git -c merge.ours.driver='rm -rf src' merge dev", RM, "hook"),
    ("git difftool -y -x 'rm -rf src;true'", RM, "run"),
    ("git difftool --extcmd='rm -rf src;true' -y", RM, "run"),
    ("git grep -O'rm -rf src;true' alive", RM, "run"),
    ("git grep --open-files-in-pager='rm -rf src;true' alive", RM, "run"),
    ("git rebase -x 'rm -rf src' HEAD~1", RM, "hook"),
    ("git rebase --exec='rm -rf src' --root", RM, "hook"),
    ("git bisect run rm -rf src", RM, "hook"),
    ("git submodule foreach 'rm -rf src'", RM, "hook"),
    (
        "printf '#!/bin/sh\\nrm -rf src\\n' > .git/hooks/pre-commit; "
        "chmod +x .git/hooks/pre-commit; git commit -q --allow-empty -m x",
        RM,
        "run",
    ),
    (
        "echo 'rm -rf src' >> ./.git/hooks/post-checkout && git checkout -q -b y",
        RM,
        "hook",
    ),
    ("echo cm0gLXJmIHNyYw== | base64 -d > .git/hooks/pre-commit; git commit -m x", None, "hook"),
    ("sqlite3 :memory: '.sh rm -rf src'", RM, "run"),
    ("sqlite3 :memory: '.sys rm -rf src'", RM, "run"),
    ("LESSOPEN='|rm -rf src; cat %s' less notes.txt", RM, "run"),
    ("LESSOPEN='||rm -rf src' less notes.txt", RM, "hook"),
    ("tmux new -d 'rm -rf src'", RM, "run"),
    ("tmux new-session -d -s job 'rm -rf src'", RM, "run"),
    ("tmux new-window -n x 'rm -rf src'", RM, "hook"),
    ("tmux split-window -h 'rm -rf src'", RM, "hook"),
    ("tmux run-shell 'rm -rf src'", RM, "hook"),
    ("tmux send-keys -t job 'rm -rf src' Enter", RM, "hook"),
    ("tmux new -d -s a \\; send-keys 'rm -rf src' C-m", RM, "hook"),
    ("screen -dm bash -c 'rm -rf src'", RM, "hook"),
    ("screen -dmS job sh -c 'rm -rf src'", RM, "hook"),
    ("screen -S job -X stuff 'rm -rf src\\n'", RM, "hook"),
    ("echo '* * * * * rm -rf src' | crontab -", RM, "hook"),
    ("printf '@reboot rm -rf src\\n' | crontab", RM, "hook"),
    ('docker run --rm -v "$PWD":/w -w /w alpine rm -rf src', None, "hook"),
    ("podman run -v .:/w -w /w alpine sh -c 'rm -rf src'", RM, "hook"),
    ("docker run --rm --volume=$(pwd):/w -w /w busybox rm -rf /w/src", None, "hook"),
]

# Self-approval through a runner the hook never sees: stopped as self-protection.
SELF_APPROVAL = [
    "tmux new -d 'dcg allowlist add core.git:reset-hard --user'",
    "tmux new -d 'dcg allowlist add core.git:reset-hard'",
    'tmux new-session -d -s a "dcg allowlist add core.git:reset-hard --user"',
    "tmux run-shell 'dcg allowlist add core.git:reset-hard'",
    "tmux send-keys -t a 'dcg allowlist add core.git:reset-hard --user' Enter",
    "screen -dm sh -c 'dcg allowlist add core.git:reset-hard --user'",
    "echo '@reboot dcg allowlist add core.git:reset-hard --user' | crontab -",
    "git -c core.pager='dcg allowlist add core.git:reset-hard --user;cat' -p log",
    "GIT_EDITOR='dcg allowlist add core.git:reset-hard --user;true' git commit --amend",
    "git -c alias.ok='!dcg allowlist add core.git:reset-hard --user' ok",
    "LESSOPEN='|dcg allowlist add core.git:reset-hard --user' less notes.txt",
]

# Everyday uses of the same settings and runners: no opinion, canary intact.
SAFE = [
    "git -c core.pager=cat log -1",
    "GIT_PAGER=cat git log -1",
    "GIT_EDITOR=true git commit --amend --no-edit -q",
    "git -c core.editor=true commit -q --amend",
    "git -c core.fsmonitor=false status",
    "git -c core.fsmonitor=true status --short",
    "git -c credential.helper=store status",
    "GIT_SSH_COMMAND='ssh -o StrictHostKeyChecking=no' git status",
    "git -c diff.external=cat diff",
    "git difftool -y -x 'diff -u'",
    "git grep -O'cat' alive",
    "LESSOPEN='| cat %s' less notes.txt",
    "sqlite3 :memory: '.show'",
    "tmux new -d -s dev",
    "tmux ls",
    "tmux send-keys -t dev 'npm test' Enter",
    "crontab -l",
    "docker run --rm alpine echo hi",
]


@pytest.mark.parametrize(("command", "rule_id", "proof"), STOP, ids=[c for c, _, _ in STOP])
def test_tools_run_stopped(command: str, rule_id: str | None, proof: str) -> None:
    decision, details = claude_hook(command, CWD)
    assert decision == "deny", command
    if rule_id is not None:
        assert rule_id in details, details


@pytest.mark.parametrize("command", [c for c, _, _ in STOP][::6])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_tools_run_stopped_however_placed(command: str, variant: str) -> None:
    body = payload("claude", VARIANTS[variant](command), CWD)
    env = dict(os.environ, DCG_RESPONSE_MODE="paranoid")
    assert verdict(*run(json.dumps(body).encode(), env=env)) == "deny"


@pytest.mark.parametrize("command", SELF_APPROVAL)
def test_self_approval_through_runners_stopped(command: str) -> None:
    decision, details = claude_hook(command, CWD)
    assert decision == "deny", command
    assert SELF in details, details


@pytest.mark.parametrize("command", SAFE)
def test_tools_run_everyday_passes(command: str) -> None:
    assert claude_hook(command, CWD)[0] == "", command


# ---- Sandbox: a git repository with a canary, real bash, HOME and TMPDIR inside it. ----


def _sandbox(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    box = tmp_path / "box"
    (box / "src").mkdir(parents=True)
    (box / "src" / "canary").write_text("alive\n")
    (box / "notes.txt").write_text("notes\n")
    (box / "tmp").mkdir()
    env = {
        "HOME": str(box),
        "TMPDIR": str(box / "tmp"),
        "TMUX_TMPDIR": str(box / "tmp"),
        "PATH": os.environ["PATH"],
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
    }
    for step in (["git", "init", "-q"], ["git", "add", "-A"], ["git", "commit", "-qm", "i"]):
        subprocess.run(step, cwd=box, env=env, check=True, capture_output=True)
    (box / "notes.txt").write_text("notes\nchanged\n")  # a diff for diff/difftool
    return box, env


def _bash(box: Path, env: dict[str, str], command: str) -> None:
    argv = ["bash", "-c", command]
    if any(m in command for m in (" -p ", "--paginate", "pager.")) and shutil.which("script"):
        argv = ["script", "-qec", command, "/dev/null"]  # git pages only on a terminal
    subprocess.run(argv, cwd=box, env=env, capture_output=True, timeout=30)
    if command.startswith("tmux"):
        for _ in range(50):  # the detached pane runs on its own
            if not (box / "src" / "canary").exists():
                break
            time.sleep(0.1)
        subprocess.run(["tmux", "kill-server"], cwd=box, env=env, capture_output=True)


RUN = [c for c, _, proof in STOP if proof == "run"]


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
@pytest.mark.parametrize("command", RUN)
def test_must_stop_cases_destroy_the_canary(tmp_path: Path, command: str) -> None:
    head = command.split()[0]
    if "=" not in head and head not in ("export", "printf", "echo") and not shutil.which(head):
        pytest.skip(f"{head} is not installed")
    box, env = _sandbox(tmp_path)
    _bash(box, env, command)
    assert not (box / "src" / "canary").exists(), command


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
@pytest.mark.parametrize("command", [c for c in SAFE if not c.startswith(("docker", "crontab"))])
def test_must_pass_cases_are_harmless(tmp_path: Path, command: str) -> None:
    head = command.split()[0]
    if "=" not in head and not shutil.which(head):
        pytest.skip(f"{head} is not installed")
    box, env = _sandbox(tmp_path)
    _bash(box, env, command)
    assert (box / "src" / "canary").read_text() == "alive\n", command
