"""Other ways to discard uncommitted work (dcg.shell.gitforms and the core.git rules).

Interactive patch mode answered from the input (``yes | git checkout -p``), a pathspec
read from a file, ``patch -R`` and ``git apply -R`` of the work tree's own diff (piped,
written on the line or saved by an earlier call), ``git clean -i`` answered from a file or
a here-string, the sequencer's ``--abort``/``--skip`` (a ``reset --merge`` of the
operation's state) and ``git submodule update --force``. Each must-stop case is stopped
through ``dcg.hook.main`` naming its rule, then run in real bash in the ``gitbox``
sandbox, where it loses work; the must-pass cases pass and lose nothing.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import gitbox

DISCARD = "core.git:checkout-discard"
PATCH = "core.git:patch-reverse"
APPLY = "core.git:apply-reverse"
CLEAN = "core.git:clean-force"
ABORT = "core.git:sequencer-abort"
SUB = "core.git:submodule-update-force"
DIFF = "git diff > p.diff"
MERGE = "git merge feature; echo RESOLVED > src/a.py"
PICK = "git cherry-pick feature; echo RESOLVED > src/a.py"
REBASE = "git stash -q; git checkout -q feature; git rebase main; echo RESOLVED > src/a.py"
REVERT = "git revert --no-edit HEAD~1; echo RESOLVED > src/a.py"
AM = (
    "git format-patch -1 feature --stdout > ../f.patch; git am -3 ../f.patch; "
    "echo RESOLVED > src/a.py"
)

# (setup, command, rule id, loss in real bash)
STOP = [
    ("", "yes | git checkout -p", DISCARD, "work"),
    ("", "yes | git checkout --patch", DISCARD, "work"),
    ("", "yes y | git checkout -p -- src", DISCARD, "work"),
    ("", "printf 'y\\ny\\ny\\n' | git checkout -p HEAD", DISCARD, "work"),
    ("yes | head -n 20 > answers", "git checkout -p < answers", DISCARD, "work"),
    ("", "git checkout -p <<< y", DISCARD, "work"),
    ("", "git checkout -p <<'EOF'\ny\nEOF", DISCARD, "work"),
    ("", "echo . > list && git checkout --pathspec-from-file=list", DISCARD, "work"),
    ("echo src > list", "git checkout --pathspec-from-file list", DISCARD, "work"),
    ("", "echo src | git checkout --pathspec-from-file=-", DISCARD, "work"),
    ("", "echo src | git checkout HEAD --pathspec-from-file=-", DISCARD, "work"),
    ("", "git diff | patch -R -p1", PATCH, "work"),
    ("", "git diff | patch --reverse -p1", PATCH, "work"),
    ("", "git --no-pager diff HEAD | patch -p1 -R", PATCH, "work"),
    ("", f"{DIFF} && patch -R -p1 < p.diff", PATCH, "work"),
    ("", f"{DIFF}; patch -Rp1 -i p.diff", PATCH, "work"),
    (DIFF, "patch -R -p1 < p.diff", PATCH, "work"),
    (DIFF, "patch -p1 --reverse --input=p.diff", PATCH, "work"),
    (DIFF, "git apply -R p.diff", APPLY, "work"),
    (DIFF, "git apply --reverse p.diff", APPLY, "work"),
    ("git diff HEAD > p.diff", "git apply -R --whitespace=nowarn p.diff", APPLY, "work"),
    (DIFF, "cat p.diff | git apply -R", APPLY, "work"),
    (DIFF, "git apply -R < p.diff", APPLY, "work"),
    (DIFF, "cat p.diff | patch -R -p1", PATCH, "work"),
    ("git diff --no-prefix > np.diff", "patch -R -p0 < np.diff", PATCH, "work"),
    ("git diff --no-prefix > np.diff", "git apply -R -p0 np.diff", APPLY, "work"),
    ("git diff -U1 > p.diff", "patch -R -p1 src/canary p.diff", PATCH, "work"),
    ("git diff > p.diff; git add -N src/new.py", "git apply -R p.diff", APPLY, "work"),
    ("printf 'c\\n' > answers.txt", "git clean -id < answers.txt", CLEAN, "untracked"),
    ("", "git clean -i -d <<< c", CLEAN, "untracked"),
    ("", "git clean --interactive -d <<'EOF'\nc\nEOF", CLEAN, "untracked"),
    ("", "printf 'c\\n' > a.txt; git clean -di < a.txt", CLEAN, "untracked"),
    (MERGE, "git merge --abort", ABORT, "resolved"),
    (PICK, "git cherry-pick --abort", ABORT, "resolved"),
    (PICK, "git cherry-pick --skip", ABORT, "resolved"),
    (REBASE, "git rebase --abort", ABORT, "resolved"),
    (REBASE, "git rebase --skip", ABORT, "resolved"),
    (REBASE, "git rebase --abo", ABORT, "resolved"),
    (MERGE, "git -c core.editor=true merge --abort", ABORT, "resolved"),
    (REVERT, "git revert --abort", ABORT, "resolved"),
    (REVERT, "git revert --skip", ABORT, "resolved"),
    (AM, "git am --abort", ABORT, "resolved"),
    (AM, "git am --skip", ABORT, "resolved"),
    ("", "git submodule update --force", SUB, "lib"),
    ("", "git submodule update --init --force --recursive", SUB, "lib"),
    ("", "git submodule update -f vendor/lib", SUB, "lib"),
    ("", "git submodule update --checkout --force", SUB, "lib"),
    ("", "git submodule deinit -f vendor/lib", "core.git:submodule-deinit-force", "lib"),
]

SAFE = [
    ("", "git checkout -b new"),
    ("", "git checkout -p < /dev/null"),
    ("", "yes | git reset -p"),
    ("", "git submodule update --init"),
    ("", "git submodule update --init --recursive"),
    ("", "git merge --continue"),
    ("", "git diff | patch -p1 --dry-run -R"),
    ("", "git diff --cached | git apply -R"),
    (
        "printf -- '--- /dev/null\\n+++ b/NOTES\\n@@ -0,0 +1 @@\\n+note\\n' > fix.diff",
        "patch -p1 < fix.diff",
    ),
    (
        "printf -- '--- /dev/null\\n+++ b/NOTES\\n@@ -0,0 +1 @@\\n+note\\n' > fix.diff",
        "git apply fix.diff",
    ),
    (DIFF, "git apply --check p.diff"),
    ("git show HEAD > last.diff", "git apply -R last.diff"),
    ("git show HEAD > last.diff", "patch -R -p1 < last.diff"),
    (MERGE, "git merge --quit"),
]

_IDS = [c for _, c, _, _ in STOP]
pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _sub(command: str) -> bool:
    return "submodule" in command


@pytest.mark.parametrize(("setup", "command", "rule_id", "loss"), STOP, ids=_IDS)
def test_discards_stopped(
    isolated_home: Path, setup: str, command: str, rule_id: str, loss: str
) -> None:
    decision, details = gitbox.judged(isolated_home / "j", setup, command, "plain", _sub(command))
    assert decision == "deny", command
    assert rule_id in details, details
    assert loss in gitbox.losses(isolated_home / "r", setup, command, _sub(command)), command


@pytest.mark.parametrize(("setup", "command"), [(s, c) for s, c, _, _ in STOP][::3])
@pytest.mark.parametrize("variant", ["later-line", "after-tab", "after-crlf"])
def test_discards_stopped_however_placed(
    isolated_home: Path, setup: str, command: str, variant: str
) -> None:
    decision, _ = gitbox.judged(isolated_home, setup, command, variant, _sub(command))
    assert decision == "deny", command


@pytest.mark.parametrize(("setup", "command"), SAFE, ids=[c for _, c in SAFE])
def test_discard_lookalikes_pass(isolated_home: Path, setup: str, command: str) -> None:
    assert gitbox.judged(isolated_home / "j", setup, command, "plain", _sub(command))[0] == ""
    assert gitbox.losses(isolated_home / "r", setup, command, _sub(command)) == [], command
