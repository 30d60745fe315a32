"""Issue 31's acceptance: a warning never costs work.

Each destructive everyday command goes through the installed ``dcg hook`` in standard
mode (a warning: it runs), then really runs in bash, then ``dcg undo --last`` (itself
let through by the hook, as an agent would run it) puts the project back byte for byte:
contents, permissions, symlinks, empty directories, untracked files, the index, HEAD,
branch tips and the stash.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import safetylib as sl

SEVEN = [
    pytest.param("git reset --hard", "core.git:reset-hard", id="reset-hard"),
    pytest.param("git checkout -- .", "core.git:checkout-discard", id="checkout-dot"),
    pytest.param("git clean -fd", "core.git:clean-force", id="clean-fd"),
    pytest.param("rm -rf src", "core.filesystem:rm-rf", id="rm-rf-src"),
    pytest.param("find . -name '*.py' -delete", "core.filesystem:find-delete", id="find-delete"),
    pytest.param("git restore .", "core.git:restore-worktree", id="restore-dot"),
    pytest.param("git branch -D feature", "core.git:branch-force-delete", id="branch-D"),
]

MORE = [
    pytest.param("git reset --hard HEAD~1", id="reset-hard-moves-head"),
    pytest.param("git checkout -f feature", id="checkout-force-switches"),
    pytest.param("git switch --discard-changes feature", id="switch-discard"),
    pytest.param("git clean -fdx", id="clean-fdx"),
    pytest.param("cd src && git checkout -- app.py && git restore util.py", id="cd-then-paths"),
    pytest.param("git -C src restore --source=HEAD --staged --worktree .", id="git-C-source"),
    pytest.param("git rm -rf src/pkg", id="git-rm-f"),
    pytest.param("rm -r src/drafts src/app.py src/link.py", id="rm-r-several"),
    pytest.param("find src -type f -exec rm -f {} +", id="find-exec-rm"),
    pytest.param("truncate -s 0 src/secret.cfg", id="truncate"),
    pytest.param("shred -u src/notes.txt", id="shred"),
    pytest.param("rm -rf src/*", id="rm-glob"),
    pytest.param("git stash drop", id="stash-drop"),
    pytest.param("git stash clear", id="stash-clear"),
    pytest.param("git reflog expire --expire=now --all", id="reflog-expire"),
    pytest.param("git reset --hard && git branch -D feature", id="two-in-one-line"),
]


@pytest.fixture
def repo(isolated_home: Path) -> Path:
    return sl.project(isolated_home)


def _warned_and_kept(exe: str, command: str, root: Path) -> str:
    answer = sl.hook(exe, command, root)
    assert answer, f"no answer for {command!r}"
    assert sl.decision(answer) is None, answer  # a warning: the command runs
    text = sl.model_text(answer)
    assert "dcg undo " in text, text
    sid = text.split("dcg undo ", 1)[1].split("`")[0]
    assert sid in str(answer.get("systemMessage")), answer  # the person is told too
    return sid


def _undo_restores(exe: str, root: Path, before: sl.State) -> None:
    # The agent may run undo: the hook has no opinion on it.
    assert sl.hook(exe, "dcg undo --last", root) == {}
    done = sl.dcg(exe, root, "undo", "--last")
    assert done.returncode == 0, done.stderr
    assert sl.differences(before, sl.state(root)) == []


@pytest.mark.parametrize(("command", "rule_id"), SEVEN)
def test_seven_cases_come_back_byte_for_byte(
    dcg_exe: str, repo: Path, command: str, rule_id: str
) -> None:
    before = sl.state(repo)
    answer = sl.hook(dcg_exe, command, repo, DCG_HOOK_DETAILS="1")
    specific = answer["hookSpecificOutput"]
    assert isinstance(specific, dict)
    assert (specific["ruleId"], specific["responseLevel"]) == (rule_id, "warning")
    sid = specific["snapshotId"]
    assert f"dcg undo {sid}" in str(specific["additionalContext"])
    ran = sl.bash(command, repo)
    assert ran.returncode == 0, ran.stderr
    assert sl.differences(before, sl.state(repo)), "the command destroyed nothing"
    _undo_restores(dcg_exe, repo, before)


@pytest.mark.parametrize("command", MORE)
def test_more_destructive_forms_come_back(dcg_exe: str, repo: Path, command: str) -> None:
    before = sl.state(repo)
    _warned_and_kept(dcg_exe, command, repo)
    sl.bash(command, repo)
    assert sl.differences(before, sl.state(repo)), "the command destroyed nothing"
    _undo_restores(dcg_exe, repo, before)


def test_undo_keeps_what_it_overwrites_so_undo_can_be_undone(dcg_exe: str, repo: Path) -> None:
    before = sl.state(repo)
    _warned_and_kept(dcg_exe, "git reset --hard", repo)
    sl.bash("git reset --hard && echo 'after the reset' > src/app.py", repo, check=True)
    after = sl.state(repo)
    done = sl.dcg(dcg_exe, repo, "undo", "--last")
    assert done.returncode == 0, done.stderr
    assert sl.differences(before, sl.state(repo)) == []
    kept = done.stdout.split("kept as snapshot ", 1)[1].split(" ", 1)[0]
    again = sl.dcg(dcg_exe, repo, "undo", kept)
    assert again.returncode == 0, again.stderr
    assert sl.differences(after, sl.state(repo)) == []


def test_undo_twice_changes_nothing_the_second_time(dcg_exe: str, repo: Path) -> None:
    before = sl.state(repo)
    _warned_and_kept(dcg_exe, "git checkout -- .", repo)
    sl.bash("git checkout -- .", repo, check=True)
    assert sl.dcg(dcg_exe, repo, "undo", "--last").returncode == 0
    second = sl.dcg(dcg_exe, repo, "undo", "--last")
    assert second.returncode == 0 and "Nothing to do" in second.stdout
    assert sl.differences(before, sl.state(repo)) == []


def test_git_dash_c_keeps_that_repository(dcg_exe: str, isolated_home: Path) -> None:
    root = sl.project(isolated_home, "inner")
    before = sl.state(root)
    sid = _warned_and_kept(dcg_exe, "git -C inner reset --hard", isolated_home)
    sl.bash("git -C inner reset --hard", isolated_home, check=True)
    done = sl.dcg(dcg_exe, root, "undo", sid)
    assert done.returncode == 0, done.stderr
    assert sl.differences(before, sl.state(root)) == []


def test_a_whole_repository_deleted_comes_back_with_its_history(
    dcg_exe: str, isolated_home: Path
) -> None:
    root = sl.project(isolated_home, "whole")
    before = sl.state(root)
    sid = _warned_and_kept(dcg_exe, "rm -rf whole", isolated_home)
    sl.bash("rm -rf whole", isolated_home, check=True)
    assert not root.exists()
    assert sl.dcg(dcg_exe, isolated_home, "undo", sid).returncode == 0
    # Build output is not kept (decisions.md 10.7): a build brings it back.
    files = before["files"]
    assert isinstance(files, dict)
    before["files"] = {p: e for p, e in files.items() if not p.startswith("dist")}
    assert sl.differences(before, sl.state(root)) == []


def test_a_deletion_through_a_link_keeps_what_the_link_points_to(
    dcg_exe: str, isolated_home: Path
) -> None:
    data = isolated_home / "data"
    sl.write(data / "a.txt", "a\n")
    sl.write(data / "deep" / "b.txt", "b\n", 0o600)
    (isolated_home / "work").mkdir()
    (isolated_home / "work" / "shortcut").symlink_to(data)
    before = sl.files(data), sl.files(isolated_home / "work")
    sid = _warned_and_kept(dcg_exe, "rm -rf shortcut/", isolated_home / "work")
    sl.bash("rm -rf shortcut/", isolated_home / "work")
    assert sl.files(data) != before[0]
    assert sl.dcg(dcg_exe, isolated_home, "undo", sid).returncode == 0
    assert (sl.files(data), sl.files(isolated_home / "work")) == before
