"""Ref and history destruction without the usual flags (dcg.shell.gitforms, core.git).

A zero id given to ``git update-ref`` (or fed to ``--stdin``) deletes the ref; ``git
branch -M``/``-C``/``-f``, ``checkout -B``, ``switch -C``, ``update-ref`` and a forced
fetch refspec move an existing branch off its commits (medium: the branch's reflog still
has them); ``git tag -d`` drops a tag object that has no reflog; deleting ``.git/refs``,
``.git/logs`` or ``packed-refs`` by hand drops refs, the stash or the reflogs; ``git
maintenance run`` is gc with the same settings. Each must-stop case is stopped through
``dcg.hook.main`` naming its rule, then run in real bash in the ``gitbox`` sandbox, where
the loss is seen; the must-pass cases pass and lose nothing.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import gitbox

ZERO = "0" * 40
DELETE = "core.git:update-ref-delete"
MOVE = "core.git:branch-overwrite"
TAG = "core.git:tag-delete"
FILES = "core.git:ref-files"
GC = "core.git:gc-prune-now"
OFF = "git branch -f feature main"
NOW = "-c gc.reflogExpire=now -c gc.reflogExpireUnreachable=now -c gc.pruneExpire=now"
NOW_CONFIG = (
    f"{OFF}; git config gc.reflogExpire now; git config gc.reflogExpireUnreachable now; "
    "git config gc.pruneExpire now"
)

# (setup, command, rule id, loss in real bash); "" as the loss: judged through the hook
# only (git itself refuses in the sandbox, or the loss needs a server).
STOP = [
    ("", f"git update-ref refs/heads/feature {ZERO}", DELETE, "commit"),
    ("", f"git update-ref --no-deref refs/heads/feature {ZERO}", DELETE, "commit"),
    ("", f"git update-ref -m bye refs/heads/feature {ZERO}", DELETE, "commit"),
    ("", "printf 'delete refs/heads/feature\\n' | git update-ref --stdin", DELETE, "commit"),
    ("", "git update-ref --stdin <<< 'delete refs/heads/feature'", DELETE, "commit"),
    (
        f"echo 'update refs/heads/feature {ZERO}' > ops",
        "git update-ref --stdin < ops",
        DELETE,
        "commit",
    ),
    ("", "git branch -M main feature", MOVE, "commit"),
    ("", "git branch -m main feature --force", MOVE, "commit"),
    ("", "git branch --move --force main feature", MOVE, "commit"),
    ("", "git branch -m -f main feature", MOVE, "commit"),
    ("", "git pull -q . +main:feature", MOVE, "commit"),
    ("", "git update-ref refs/heads/feature HEAD~2", MOVE, "commit"),
    ("", "git branch -C main feature", MOVE, "commit"),
    ("", "git branch -f feature main", MOVE, "commit"),
    ("", "git branch --force feature HEAD", MOVE, "commit"),
    ("", "git checkout -B feature main", MOVE, "commit"),
    ("", "git checkout -q -B feature", MOVE, "commit"),
    ("", "git switch -C feature main", MOVE, "commit"),
    ("", "git switch --force-create feature main", MOVE, "commit"),
    ("", "git update-ref refs/heads/feature main", MOVE, "commit"),
    ("", "git fetch . +main:feature", MOVE, "commit"),
    ("", "git fetch -f . main:feature", MOVE, "commit"),
    ("", "git fetch . '+refs/heads/main:refs/heads/feature'", MOVE, "commit"),
    ("", "git fetch origin '+refs/heads/*:refs/heads/*'", MOVE, ""),
    ("", "git tag -d v1", TAG, "tag"),
    ("", "git tag --delete v1", TAG, "tag"),
    ("", "git -C . tag -d v1", TAG, "tag"),
    ("", "git tag -f v1 feature", TAG, "tag"),
    ("", "git tag --force -a -m again v1", TAG, "tag"),
    ("git stash push -q -m wip", "rm .git/refs/stash .git/logs/refs/stash", FILES, "stash"),
    ("git stash push -q -m wip", "rm -f .git/refs/stash", FILES, "stash"),
    ("", "rm -rf .git/logs", FILES, "reflogs"),
    ("", "rm -r ./.git/logs/refs", FILES, ""),
    ("", "find .git/logs -type f -delete", FILES, "reflogs"),
    ("", "rm -f .git/refs/heads/feature", FILES, "commit"),
    ("git stash push -q -m wip", "cd .git/refs && rm -f stash", FILES, "stash"),
    ("", "cd .git && rm -rf logs", FILES, "reflogs"),
    ("", "cd .git/refs/heads; rm feature", FILES, "commit"),
    ("git pack-refs --all", "rm .git/packed-refs", FILES, "commit"),
    (OFF, f"git {NOW} maintenance run --task=gc", GC, "object"),
    (OFF, f"git {NOW} maintenance run", GC, "object"),
    (NOW_CONFIG, "git maintenance run --task=gc", GC, "object"),
    (
        OFF,
        "git -c gc.pruneExpire=now -c gc.reflogExpire=now -c gc.reflogExpireUnreachable=now "
        "maintenance run --task gc --quiet",
        GC,
        "object",
    ),
]

SAFE = [
    ("", "git checkout -b new"),
    ("", "git branch -m feature renamed"),
    ("", "git branch -M main"),
    ("", "git branch -f newbranch main"),
    ("", "git branch -c feature copy"),
    ("", "git checkout -B brandnew"),
    ("", "git switch -C brandnew main"),
    ("", "git update-ref refs/heads/new main"),
    ("", f"git update-ref refs/heads/new main {ZERO}"),
    ("", "git fetch . main:feature"),
    ("", "git fetch origin main:teammate"),
    ("", "git fetch origin '+refs/heads/*:refs/remotes/origin/*'"),
    ("", "git tag v2"),
    ("", "git tag -a v2 -m release"),
    ("", "git tag -f v2"),
    ("", "cat .git/packed-refs; ls .git/refs/heads"),
    ("", "cd .git/refs && ls"),
    ("mkdir logs; echo x > logs/app.log", "rm logs/app.log"),
    (OFF, "git maintenance run --task=gc"),
    (OFF, "git gc"),
]

_IDS = [c for _, c, _, _ in STOP]
pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


@pytest.mark.parametrize(("setup", "command", "rule_id", "loss"), STOP, ids=_IDS)
def test_history_loss_stopped(
    isolated_home: Path, setup: str, command: str, rule_id: str, loss: str
) -> None:
    decision, details = gitbox.judged(isolated_home / "j", setup, command)
    assert decision == "deny", command
    assert rule_id in details, details
    if loss:
        assert loss in gitbox.losses(isolated_home / "r", setup, command), command


@pytest.mark.parametrize(("setup", "command"), [(s, c) for s, c, _, _ in STOP][::3])
@pytest.mark.parametrize("variant", ["later-line", "after-tab", "after-crlf"])
def test_history_loss_stopped_however_placed(
    isolated_home: Path, setup: str, command: str, variant: str
) -> None:
    assert gitbox.judged(isolated_home, setup, command, variant)[0] == "deny", command


@pytest.mark.parametrize(("setup", "command"), SAFE, ids=[c for _, c in SAFE])
def test_history_lookalikes_pass(isolated_home: Path, setup: str, command: str) -> None:
    assert gitbox.judged(isolated_home / "j", setup, command)[0] == "", command
    assert gitbox.losses(isolated_home / "r", setup, command) == [], command


@pytest.mark.parametrize(
    ("command", "severity"),
    [("git branch -f feature main", "medium"), ("git tag -d v1", "high")],
)
def test_history_severities(isolated_home: Path, command: str, severity: str) -> None:
    """A branch moved off its commits keeps them in its reflog (medium); a deleted tag
    object has no reflog (high)."""
    from dcg.packs import load

    pack = load("core.git")
    _, details = gitbox.judged(isolated_home, "", command)
    rule = next(r for r in pack.rules if pack.rule_id(r) in details)
    assert rule.severity == severity
