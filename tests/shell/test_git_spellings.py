"""Git as git parses it: option prefixes, git-<cmd> programs, -c safety, plumbing, remotes.

Every case goes through the hook entry point with a real Claude Code payload, alone and
also on a later line, after a tab and after CRLF. The sandbox tests run the cases in real
bash in a throwaway repository (fake HOME) and prove that each must-stop case loses work
and each must-pass case does not.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from dcg import hook

H = "high"
M = "medium"

# (command, rule id, severity)
STOP = [
    ("git reset --har", "reset-hard", H),
    ("git reset --ha HEAD~1", "reset-hard", H),
    ("git reset -q --hard=", "reset-hard", None),
    ("git-reset --hard", "reset-hard", H),
    ("/usr/lib/git-core/git-reset --hard", "reset-hard", H),
    ("git-reset --har", "reset-hard", H),
    ("git -C . --no-pager reset --har", "reset-hard", H),
    ("git --git-dir=.git --work-tree=. reset --hard", "reset-hard", H),
    ("git -c core.pager=cat reset --hard", "reset-hard", H),
    ("git reset --mer", "reset-merge", H),
    ("git clean --forc -d", "clean-force", H),
    ("git clean --fo", "clean-force", H),
    ("git-clean -fd", "clean-force", H),
    ("/usr/lib/git-core/git-clean -f", "clean-force", H),
    ("git -c clean.requireForce=false clean", "clean-force", H),
    ("git -c clean.requireforce=false clean -d", "clean-force", H),
    ("git -c clean.requireForce=0 clean -dx", "clean-force", H),
    ("git -c clean.requireForce=no clean -x", "clean-force", H),
    ("git checkout --forc main", "checkout-force", H),
    ("git-checkout -f main", "checkout-force", H),
    ("git-checkout -- file.txt", "checkout-discard", H),
    ("git switch --discard main", "switch-discard", H),
    ("git switch --disc main", "switch-discard", H),
    ("git-switch -f main", "switch-discard", H),
    ("git restore --work file.txt", "restore-worktree", H),
    ("git-restore file.txt", "restore-worktree", H),
    ("git restore --sour=HEAD~1 file.txt", "restore-worktree", H),
    ("git push --mirr backup", "push-force", H),
    ("git-push -f origin main", "push-force", H),
    ("git push origin --delete feature", "push-delete", H),
    ("git push origin --del feature", "push-delete", H),
    ("git push origin :feature", "push-delete", H),
    ("git push -d origin old", "push-delete", H),
    ("git-push origin :refs/heads/x", "push-delete", H),
    ("git push --prune origin refs/heads/*:refs/heads/*", "push-delete", H),
    ("git push --pru origin 'refs/heads/*:refs/heads/*'", "push-delete", H),
    ("git branch --delete --forc feature", "branch-force-delete", M),
    ("git branch --del --force feature", "branch-force-delete", M),
    ("git-branch -D feature", "branch-force-delete", M),
    ("git stash drop", "stash-drop", M),
    ("git-stash drop stash@{0}", "stash-drop", M),
    ("git stash clear", "stash-clear", H),
    ("git worktree remove --forc ../wt", "worktree-remove-force", H),
    ("git-worktree remove -f ../wt", "worktree-remove-force", H),
    ("git read-tree -u --reset HEAD", "read-tree-reset", H),
    ("git read-tree -u --res HEAD", "read-tree-reset", H),
    ("git-read-tree --reset -u HEAD", "read-tree-reset", H),
    ("git update-ref -d refs/heads/feature", "update-ref-delete", H),
    ("git-update-ref -d refs/heads/feature", "update-ref-delete", H),
    ("git reflog expire --expire=now --all", "reflog-expire", H),
    ("git reflog expire --expire-unreachable=now --all", "reflog-expire", H),
    ("git reflog expire --expire-u=now --all", "reflog-expire", H),
    ("git reflog expire --expire now --all", "reflog-expire", H),
    ("git-reflog expire --expire=all refs/heads/main", "reflog-expire", H),
    ("git reflog delete HEAD@{1}", "reflog-expire", H),
    ("git gc --prune=now", "gc-prune-now", H),
    ("git gc --pru=now", "gc-prune-now", H),
    ("git prune", "gc-prune-now", H),
    ("git-prune --expire=now", "gc-prune-now", H),
    ("git filter-branch --tree-filter 'rm -f x' HEAD", "history-rewrite", H),
    ("git-filter-branch --force HEAD", "history-rewrite", H),
    ("git filter-repo --path x --invert-paths", "history-rewrite", H),
    ("git rm -f file.txt", "rm-force", H),
    ("git rm --forc file.txt", "rm-force", H),
    ("git-rm -rf src", "rm-force", H),
    ("git submodule deinit -f lib", "submodule-deinit-force", H),
    # an agent's next tries after a block: cd first, wrappers, nested shells, aliases
    ("cd repo && git reset --har", "reset-hard", H),
    ("sudo git-reset --hard", "reset-hard", H),
    ("bash -c 'git-clean -f'", "clean-force", H),
    ("env git -c clean.requireForce=false clean", "clean-force", H),
    ("timeout 5 /usr/lib/git-core/git-push origin :main", "push-delete", H),
    ("git -c alias.x='push --del' x origin main", "push-delete", H),
    ("git config alias.z 'reset --har' && git z", "reset-hard", H),
    ("git submodule deinit --forc --all", "submodule-deinit-force", H),
]
STOP = [(c, r, s) for c, r, s in STOP if s is not None]

PASS = [
    "git reset --soft HEAD~1",
    "git reset --so HEAD~1",
    "git reset --mix",
    "git reset --keep HEAD~1",
    "git-reset --soft",
    "git clean -n",
    "git clean --dry-run -d",
    "git clean --dry -d",
    "git -c clean.requireForce=false clean -n",
    "git -c clean.requireForce=true clean -d",
    "git -c clean.requireForce clean -d",
    "git push --dry-run --delete origin x",
    "git push --dry --delete origin x",
    "git push -n origin :x",
    "git push origin main",
    "git push --forc origin main",
    "git push --force-with-lease origin main",
    "git push origin HEAD:main",
    "git reflog show",
    "git reflog",
    "git reflog expire --expire=90.days.ago --all",
    "git reflog expire --exp=now --all",
    "git gc",
    "git gc --auto",
    "git prune --dry-run",
    "git prune -n",
    "git rm --cached -f secret.env",
    "git rm --cach -f secret.env",
    "git rm file.txt",
    "git rm -rn build",
    "git read-tree HEAD",
    "git update-ref refs/heads/x HEAD",
    "git switch main",
    "git switch -c feature",
    "git restore --staged file.txt",
    "git restore --stag file.txt",
    "git checkout main",
    "git branch -d merged",
    "git branch --del merged",
    "git stash list",
    "git worktree list",
    "git submodule deinit lib",
    "git-status",
    "git status",
    "git log --oneline --hard-to-guess",
    "git commit -m 'git reset --hard'",
    "echo git-reset --hard",
]

PLACES = {
    "alone": "{}",
    "later-line": "cd .\n{}",
    "after-tab": "\t{}",
    "after-crlf": "ls\r\n{}",
}


def _payload(command: str) -> str:
    return json.dumps(
        {
            "session_id": "git-spellings",
            "transcript_path": "/tmp/transcript.jsonl",
            "cwd": "/home/dev/project",
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command, "description": "test"},
            "tool_use_id": "toolu_01",
        }
    )


def _hook(command: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    env = dict(os.environ, DCG_RESPONSE_MODE="paranoid", DCG_HOOK_DETAILS="1")
    code = hook.main([], io.BytesIO(_payload(command).encode()), out, err, env)
    assert code == 0
    return out.getvalue()


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize(("command", "rule", "severity"), [pytest.param(*c, id=c[0]) for c in STOP])
def test_stopped_through_hook(command: str, rule: str, severity: str, place: str) -> None:
    out = json.loads(_hook(PLACES[place].format(command)))["hookSpecificOutput"]
    assert out["permissionDecision"] == "deny"
    assert (out["ruleId"], out["severity"]) == (f"core.git:{rule}", severity)


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("command", [pytest.param(c, id=c) for c in PASS])
def test_near_misses_pass_through_hook(command: str, place: str) -> None:
    assert _hook(PLACES[place].format(command)) == ""


# --- sandbox: the cases really do (or do not) lose work in real git -----------------

GIT = shutil.which("git")
BASH = shutil.which("bash")
_EXEC = subprocess.run([GIT or "git", "--exec-path"], capture_output=True, text=True).stdout.strip()

# (command, what is lost); run in a repo with commits A, B (HEAD), branch `feature`
# (unmerged commit), a modified tracked file, an untracked file and a stash entry.
SANDBOX_STOP = [
    ("git reset --har", "modified"),
    ("git-reset --hard", "modified"),
    (f"{_EXEC}/git-reset --hard", "modified"),
    (f"{_EXEC}/git-reset --har", "modified"),
    ("git -C . --no-pager reset --har", "modified"),
    ("git clean --forc", "untracked"),
    ("git -c clean.requireForce=false clean", "untracked"),
    (f"{_EXEC}/git-clean -f", "untracked"),
    ("git-clean --forc", "untracked"),
    ("git-checkout --forc feature", "modified"),
    ("git checkout --forc feature", "modified"),
    ("git switch --disc feature", "modified"),
    ("git restore --work tracked.txt", "modified"),
    ("git read-tree -u --reset HEAD", "modified"),
    ("git rm --forc tracked.txt", "modified"),
    ("git stash clear", "stash"),
    ("git stash drop", "stash"),
    ("git branch --del --forc feature", "feature"),
    ("git update-ref -d refs/heads/feature", "feature"),
    ("git push origin --del feature", "remote"),
    ("git push origin :feature", "remote"),
    ("git push --pru origin 'refs/tags/*:refs/heads/*'", "remote"),
    ("git-push origin --delete feature", "remote"),
]
SANDBOX_PASS = [
    "git reset --soft HEAD~1",
    "git reset --so HEAD~1",
    "git clean -n",
    "git clean --dry",
    "git -c clean.requireForce=true clean",
    "git -c clean.requireForce=false clean -n",
    "git push --dry-run --delete origin feature",
    "git push -n origin :feature",
    "git push --forc origin feature",
    "git reflog show",
    "git rm --cached -f tracked.txt",
    "git restore --staged tracked.txt",
    "git branch --del feature",
    "git stash list",
    "git gc --auto",
]

_SETUP = """
set -e
git init -q --bare remote.git
git init -q -b main repo && cd repo
git config user.email t@example.com && git config user.name t
echo a > tracked.txt && git add . && git commit -qm A
git checkout -qb feature && echo f > f.txt && git add f.txt && git commit -qm F
git checkout -q main && echo b >> tracked.txt && git commit -qam B
git remote add origin ../remote.git && git push -q origin main feature
echo s > s.txt && git add s.txt && git stash -q
echo local-edit >> tracked.txt && echo new > untracked.txt
"""

_STATE = """
cd repo
grep -q local-edit tracked.txt 2>/dev/null && echo modified
test -e untracked.txt && echo untracked
git stash list | grep -q . && echo stash
git rev-parse -q --verify refs/heads/feature >/dev/null && echo feature
git --git-dir=../remote.git rev-parse -q --verify refs/heads/feature >/dev/null && echo remote
true
"""


def _sandbox(base: Path, command: str) -> set[str]:
    tmp_path = base / "sandbox"
    home = tmp_path / "home"
    home.mkdir(parents=True)
    # git-core on PATH, as on systems that install the git-<cmd> programs there
    path = _EXEC + os.pathsep + os.environ["PATH"]
    env = {"HOME": str(home), "TMPDIR": str(tmp_path), "PATH": path,
           "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C"}  # fmt: skip
    run = [BASH or "bash", "-c"]
    subprocess.run([*run, _SETUP], cwd=tmp_path, env=env, check=True, capture_output=True)
    before = subprocess.run([*run, _STATE], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert set(before.stdout.split()) == {"modified", "untracked", "stash", "feature", "remote"}
    subprocess.run([*run, command], cwd=tmp_path / "repo", env=env, capture_output=True)
    after = subprocess.run([*run, _STATE], cwd=tmp_path, env=env, capture_output=True, text=True)
    return set(before.stdout.split()) - set(after.stdout.split())


needs_git = pytest.mark.skipif(GIT is None or BASH is None, reason="git and bash needed")


@needs_git
@pytest.mark.parametrize(("command", "lost"), [pytest.param(*c, id=c[0]) for c in SANDBOX_STOP])
def test_sandbox_stop_case_loses_work(tmp_path: Path, command: str, lost: str) -> None:
    assert lost in _sandbox(tmp_path, command)
    assert json.loads(_hook(command))["hookSpecificOutput"]["permissionDecision"] == "deny"


@needs_git
@pytest.mark.parametrize("command", [pytest.param(c, id=c) for c in SANDBOX_PASS])
def test_sandbox_pass_case_is_harmless(tmp_path: Path, command: str) -> None:
    assert _sandbox(tmp_path, command) == set()
    assert _hook(command) == ""
