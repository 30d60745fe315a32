"""Issue 32, round 4: git losing work without the flags the rules look for.

File names read at run time are paths: ``git ls-files -m | xargs git checkout`` and
``for f in $(git diff --name-only); do git checkout "$f"; done`` check out every listed
file over its uncommitted change (dcg.shell.gitpaths inserts the ``--`` git implies), and
``… | while read f; do git show HEAD:"$f" > "$f"; done`` writes git's copy over each
listed file (core.git:listed-overwrite); a list of refs (``git branch``, ``git tag``)
stays a branch switch. ``git archive HEAD | tar -x`` in the work tree writes every
committed file over the work (core.git:archive-extract). ``git worktree add -B`` and
``git fast-import --force`` (or a stream saying ``feature force``, or one dcg cannot
read) move an existing branch off its commits (core.git:branch-overwrite); ``git rebase
--onto`` past the branch's own commits and ``git rebase -i`` with a sed sequence editor
that deletes todo lines or writes ``drop`` drop commits (core.git:rebase-drop). Each
must-stop case goes through ``dcg.hook.main`` with a Claude payload naming its rule,
then runs in real bash in the ``gitbox`` sandbox, where the loss is seen; the must-pass
cases pass and lose nothing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import gitbox
from sandbox import GIT_IDENTITY, bash, claude_hook

DISCARD = "core.git:checkout-discard"
LISTED = "core.git:listed-overwrite"
MOVE = "core.git:branch-overwrite"
ARCHIVE = "core.git:archive-extract"
DROP = "core.git:rebase-drop"
ON = "git stash -q; git checkout -q feature"  # a clean tree on the branch with `feat`
TOP = f"{ON}; git commit -q --allow-empty -m top"  # `feat` is then HEAD~1
STREAM = "printf 'feature force\\nreset refs/heads/feature\\nfrom refs/heads/main\\n\\n'"

# (setup, command, rule id, loss in real bash)
STOP = [
    ("", "git ls-files -m | xargs -n1 git checkout", DISCARD, "work"),
    ("", "git ls-files -m | xargs -n 1 git checkout", DISCARD, "work"),
    ("", "git ls-files --modified | xargs git checkout", DISCARD, "work"),
    ("", "git ls-files -m | xargs git checkout HEAD", DISCARD, "work"),
    ("", "git ls-files -m | xargs -I{} git checkout {}", DISCARD, "work"),
    ("", "git diff --name-only | xargs git checkout", DISCARD, "work"),
    ("", "git status --porcelain | awk '/^ M/ {print $2}' | xargs git checkout", DISCARD, "work"),
    ("", "git status -s | grep '^ M' | cut -c4- | xargs git checkout", DISCARD, "work"),
    ("", "git ls-files -z | xargs -0 git checkout", DISCARD, "work"),
    ("", 'for f in $(git diff --name-only); do git checkout "$f"; done', DISCARD, "work"),
    ("", 'for f in $(git ls-files -m); do git checkout HEAD "$f"; done', DISCARD, "work"),
    ("", 'git diff --name-only | while read -r f; do git checkout "$f"; done', DISCARD, "work"),
    ("", 'for f in $(git diff --name-only); do git show HEAD:"$f" > "$f"; done', LISTED, "work"),
    (
        "",
        'git diff --name-only | while read f; do git show HEAD:"$f" > "$f"; done',
        LISTED,
        "work",
    ),
    (
        "",
        'git ls-files -m | while IFS= read -r f; do git cat-file -p HEAD:"$f" > "$f"; done',
        LISTED,
        "work",
    ),
    ("", "while read f; do git show HEAD:$f > $f; done < <(git diff --name-only)", LISTED, "work"),
    ("", 'for f in src/*; do git show HEAD:"$f" > "$f"; done', LISTED, "work"),
    ("", "ls src | while read f; do git show HEAD:src/$f > src/$f; done", LISTED, "work"),
    ("", "git archive HEAD | tar -x", ARCHIVE, "work"),
    ("", "git archive HEAD | tar x", ARCHIVE, "work"),
    ("", "git archive HEAD | tar -xf -", ARCHIVE, "work"),
    ("", "git archive --format=tar HEAD | tar -xvf - -C .", ARCHIVE, "work"),
    ("", "git archive HEAD src | tar -x", ARCHIVE, "work"),
    ("", "git archive HEAD | bsdtar -xf -", ARCHIVE, "work"),
    ("", "git archive main | tar --extract", ARCHIVE, "work"),
    ("", "git archive HEAD | tar -xp --overwrite", ARCHIVE, "work"),
    (ON, "git rebase --onto feature~1 feature", DROP, "commit"),
    (ON, "git rebase --onto HEAD~1 HEAD", DROP, "commit"),
    (ON, "git rebase --onto=HEAD~1 HEAD", DROP, "commit"),
    (ON, "git rebase -q --onto main~1 @", DROP, "commit"),
    (ON, "git rebase --ont HEAD~1 HEAD", DROP, "commit"),
    (ON, "git rebase --onto main feature", DROP, "commit"),
    (ON, "git rebase --onto main HEAD", DROP, "commit"),
    (TOP, "git rebase --onto HEAD~2 HEAD~1", DROP, "commit"),
    (TOP, "git rebase --onto @~2 @^", DROP, "commit"),
    (TOP, "git rebase --onto feature~2 feature~1 feature", DROP, "commit"),
    (ON, "GIT_SEQUENCE_EDITOR=\"sed -i 's/^pick/drop/'\" git rebase -i HEAD~1", DROP, "commit"),
    (ON, "GIT_SEQUENCE_EDITOR=\"sed -i -e '/feat/d'\" git rebase -i HEAD~2", DROP, "commit"),
    (ON, "GIT_SEQUENCE_EDITOR='sed -i 2d' git rebase -i HEAD~2", DROP, "commit"),
    (ON, "git -c sequence.editor='sed -i 2d' rebase -i HEAD~2", DROP, "commit"),
    (ON, "export GIT_SEQUENCE_EDITOR='sed -i 2d'; git rebase -i HEAD~2", DROP, "commit"),
    (ON, "GIT_EDITOR=\"sed -i '1s/pick/d/'\" git rebase -i HEAD~1", DROP, "commit"),
    (ON, "git config sequence.editor 'sed -i 2d'; git rebase --interactive HEAD~2", DROP, "commit"),
    ("", "git worktree add -B feature ../w main", MOVE, "commit"),
    ("", "git worktree add -q -B feature ../w2", MOVE, "commit"),
    ("", "git worktree add -f -B feature ../w main", MOVE, "commit"),
    (
        "",
        "printf 'reset refs/heads/feature\\nfrom refs/heads/main\\n\\n' | git fast-import --force",
        MOVE,
        "commit",
    ),
    ("", f"{STREAM} | git fast-import", MOVE, "commit"),
    (f"{STREAM} > s.fi", "git fast-import < s.fi", MOVE, "commit"),
    (f"{STREAM} > s.fi", "git fast-import --quiet --force < s.fi", MOVE, "commit"),
    ("", f"{STREAM} | sed s/x/x/ | git fast-import", MOVE, "commit"),
]

SAFE = [
    ("", "git show HEAD:src/a.py > src/a.py"),
    ("", 'for f in $(git ls-files); do git show HEAD:"$f" > "$f.orig"; done'),
    (
        "mkdir ../backup",
        'for f in $(git diff --name-only); do git show HEAD:"$f" > ../backup/x; done',
    ),
    ("", 'for f in src/*; do git show HEAD:"$f" > "$f.old"; done'),
    ("", "for t in $(git tag); do git checkout -q $t; done; git checkout -q main"),
    ("", "git branch --list feature | xargs -n1 git checkout -q; git checkout -q main"),
    ("", "echo feature | xargs git checkout -q; git checkout -q main"),
    ("", 'for f in $(git diff --name-only); do git diff "$f"; done'),
    ("", 'git diff --name-only | while read f; do git log -1 -- "$f"; done'),
    ("", "git ls-files | xargs wc -l"),
    ("mkdir ../out", "git archive HEAD | tar -x -C ../out"),
    ("", "git archive HEAD | tar -t"),
    ("", "git archive --prefix=x/ HEAD | tar -x"),
    ("", "git archive HEAD | tar -xO src/a.py"),
    ("", "git archive HEAD | gzip > ../a.tgz"),
    (ON, "git rebase main"),
    (ON, "git rebase -i HEAD~2"),
    (ON, "GIT_SEQUENCE_EDITOR=true git rebase -i --autosquash HEAD~2"),
    (ON, "git rebase --onto main HEAD~1"),
    (ON, "git rebase --onto HEAD~1 HEAD~2"),
    (ON, "git rebase --onto main main~1 feature"),
    (ON, "git rebase --onto main HEAD main"),
    (ON, "git rebase --onto main v1"),
    ("", "git worktree add -B brandnew ../w main"),
    ("", "git worktree add -b other ../w main"),
    ("", "git fast-import < /dev/null"),
    ("", "printf 'progress x\\n' | git fast-import"),
    ("", "git fast-export --all | git fast-import"),
]

_IDS = [c for _, c, _, _ in STOP]
pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


@pytest.mark.parametrize(("setup", "command", "rule_id", "loss"), STOP, ids=_IDS)
def test_round4_git_losses_stopped(
    isolated_home: Path, setup: str, command: str, rule_id: str, loss: str
) -> None:
    decision, details = gitbox.judged(isolated_home / "j", setup, command)
    assert decision == "deny", command
    assert rule_id in details, details
    assert loss in gitbox.losses(isolated_home / "r", setup, command), command


@pytest.mark.parametrize(("setup", "command"), [(s, c) for s, c, _, _ in STOP][::3])
@pytest.mark.parametrize("variant", ["later-line", "after-tab", "after-crlf", "bash-c"])
def test_round4_git_losses_stopped_however_placed(
    isolated_home: Path, setup: str, command: str, variant: str
) -> None:
    assert gitbox.judged(isolated_home, setup, command, variant)[0] == "deny", command


@pytest.mark.parametrize(("setup", "command"), SAFE, ids=[c for _, c in SAFE])
def test_round4_git_lookalikes_pass(isolated_home: Path, setup: str, command: str) -> None:
    assert gitbox.judged(isolated_home / "j", setup, command)[0] == "", command
    assert gitbox.losses(isolated_home / "r", setup, command) == [], command


# HOME as a repository: stashing or checking out the agent's settings swaps dcg's hook out.
HOOKED = '{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"command": "dcg hook"}]}]}}\n'
HOME_STASH = [
    "git -C ~ stash -u -- .claude",
    "cd ~ && git stash -u -- .claude",
    "cd ~ && git stash push -- .claude/settings.json",
    "git -C ~ stash push .claude",
    "cd ~/.claude && git stash push settings.json",
    "cd ~ && git stash push -q -m wip -- .claude",
    "git -C ~ stash --include-untracked -- .claude/settings.json",
    'git -C "$HOME" checkout .claude/settings.json',
    "git -C ~ checkout HEAD .claude/settings.json",
]


def _home_repo(home: Path) -> Path:
    (home / ".claude").mkdir(parents=True, exist_ok=True)
    (home / ".claude" / "settings.json").write_text('{"hooks": {}}\n')
    (home / "proj").mkdir()
    env = {**os.environ, "HOME": str(home), "GIT_CONFIG_NOSYSTEM": "1", **GIT_IDENTITY}
    for step in (["init", "-q"], ["add", ".claude"], ["commit", "-qm", "dotfiles"]):
        subprocess.run(["git", *step], cwd=home, env=env, check=True, capture_output=True)
    (home / ".claude" / "settings.json").write_text(HOOKED)
    return home / "proj"


@pytest.mark.parametrize("command", HOME_STASH)
def test_stash_of_agent_settings_in_home_stopped(isolated_home: Path, command: str) -> None:
    project = _home_repo(isolated_home)
    decision, details = claude_hook(command, project)
    assert decision == "deny", command
    assert "core.dcg:" in details, details
    bash(command, project, {"HOME": str(isolated_home), "PATH": os.environ["PATH"]})
    assert (isolated_home / ".claude" / "settings.json").read_text() != HOOKED, command
