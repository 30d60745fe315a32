"""The snapshot store and ``dcg undo``'s listing: ids, retention, settings, private files."""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

import pytest

import safetylib as sl
from dcg import config, paths
from dcg.safety import keep, settings, store
from dcg.safety.argv import Task
from dcg.safety.gitsnap import Scope


@pytest.mark.parametrize(
    ("text", "size"),
    [
        pytest.param("200MB", 200_000_000, id="MB"),
        pytest.param("1.5GB", 1_500_000_000, id="GB"),
        pytest.param("512 kB", 512_000, id="space"),
        pytest.param("64MiB", 64 << 20, id="MiB"),
        pytest.param("1000", 1000, id="bytes"),
    ],
)
def test_sizes(text: str, size: int) -> None:
    assert settings.parse_size(text) == size


@pytest.mark.parametrize(
    ("key", "value"),
    [
        pytest.param("max_size", "lots", id="size-word"),
        pytest.param("max_size", "-1MB", id="size-negative"),
        pytest.param("max_time", "soon", id="time-word"),
        pytest.param("max_time", "2h", id="time-unit"),
        pytest.param("keep", "forever", id="keep-word"),
        pytest.param("enabled", "no", id="enabled-string"),
    ],
)
def test_bad_settings_are_reported_and_the_default_kept(
    key: str, value: str, isolated_home: Path
) -> None:
    conf = isolated_home / ".config" / "dcg" / "config.toml"
    conf.parent.mkdir(parents=True)
    conf.write_text(f'[safety_net]\n{key} = "{value}"\n')
    cfg = config.load(str(isolated_home))
    assert any(f"safety_net.{key}" in p for p in cfg.problems), cfg.problems
    s = settings.from_config(cfg.safety_net)
    assert (s.enabled, s.max_size, s.max_time, s.keep) == (True, 200_000_000, 2.0, 7 * 86400)


def test_a_typo_in_the_section_is_named() -> None:
    cfg = config.Config()
    config._apply(cfg, "user", "u.toml", {"safety_net": {"max_sise": "1MB"}}, [], [])
    assert any("did you mean 'max_size'" in p for p in cfg.problems), cfg.problems


def test_the_time_budget_never_reaches_an_agents_hook_timeout() -> None:
    from dcg.safety.budget import MAX_TIME_CAP, Budget

    assert Budget(1, 3600.0).max_time == MAX_TIME_CAP < 5.0


def test_ids_sort_by_time_and_differ() -> None:
    ids = [store.new_id(t) for t in (1.0e9, 1.0e9 + 1, 2.0e9)]
    assert ids == sorted(ids) and len(set(ids)) == 3 and all(len(i) == 10 for i in ids)


def test_snapshots_are_private(isolated_home: Path) -> None:
    root = sl.project(isolated_home)
    kept = keep.keep_line(
        [Task("files", str(root), paths=[str(root / "src" / "notes.txt")], link_ok=False)],
        settings.from_config({}),
        cwd=str(root),
        command="rm src/notes.txt",
        rules=[],
        via="write",
    )
    assert kept is not None
    base = Path(paths.snapshot_dir())
    assert base.parent == Path(paths.config_dir())  # inside dcg's protected state
    for p in [base, *base.rglob("*")]:
        mode = stat.S_IMODE(p.stat().st_mode)
        assert mode & 0o077 == 0, (p, oct(mode))


def _old_snapshot(root: Path, age: float) -> str:
    t = time.time() - age
    kept = keep.keep_line(
        [Task("git", str(root), Scope(None, index_head=True))],
        settings.from_config({}),
        cwd=str(root),
        command="git reset --hard",
        rules=["core.git:reset-hard"],
        via="warning",
        now=t,
        project=str(root),
    )
    assert kept is not None
    return kept.id


def test_retention_removes_old_snapshots_and_their_refs(isolated_home: Path) -> None:
    root = sl.project(isolated_home)
    old = _old_snapshot(root, 8 * 86400)
    fresh = _old_snapshot(root, 60)
    gone = keep.maybe_prune(time.time(), 7 * 86400, None, force=True)
    assert gone == 1
    assert [m["id"] for _, m in store.snapshots()] == [fresh]
    refs = sl.git(root, "for-each-ref", "--format=%(refname)", "refs/dcg/")
    assert old not in refs and fresh in refs


def test_pruning_runs_at_most_once_an_hour(isolated_home: Path) -> None:
    root = sl.project(isolated_home)
    _old_snapshot(root, 8 * 86400)  # the keep itself pruned (nothing yet) and stamped
    assert keep.maybe_prune(time.time(), 7 * 86400, None) == 0  # the stamp is fresh
    stamp = Path(paths.snapshot_dir()) / ".prune-stamp"
    past = time.time() - 2 * keep.PRUNE_EVERY
    os.utime(stamp, (past, past))
    assert keep.maybe_prune(time.time(), 7 * 86400, None) == 1


def test_an_abandoned_snapshot_is_removed(isolated_home: Path) -> None:
    _, path = store.create(time.time())
    past = time.time() - 2 * store.STALE
    os.utime(path, (past, past))
    assert keep.maybe_prune(time.time(), 7 * 86400, None, force=True) == 1
    assert not os.path.exists(path)


def test_listing_is_per_project_and_newest_first(dcg_exe: str, isolated_home: Path) -> None:
    one, two = sl.project(isolated_home, "one"), sl.project(isolated_home, "two")
    for command in ("git checkout -- src/app.py", "git reset --hard"):
        sl.hook(dcg_exe, command, one)
        sl.bash(command, one, check=True)
    sl.hook(dcg_exe, "git clean -fd", two)
    listed = json.loads(sl.dcg(dcg_exe, one / "src", "undo", "--json").stdout)
    assert listed["project"] == str(one)
    rows = listed["snapshots"]
    assert [r["command"] for r in rows] == ["git reset --hard", "git checkout -- src/app.py"]
    assert rows[0]["rules"] == ["core.git:reset-hard"] and rows[0]["via"] == "warning"
    assert rows[0]["files"] >= 1 and rows[0]["bytes"] > 0
    table = sl.dcg(dcg_exe, one, "undo")
    assert rows[0]["id"] in table.stdout and "git reset --hard" in table.stdout


def test_history_names_the_snapshot(dcg_exe: str, isolated_home: Path) -> None:
    root = sl.project(isolated_home)
    answer = sl.hook(dcg_exe, "git reset --hard", root, DCG_HOOK_DETAILS="1")
    sid = answer["hookSpecificOutput"]["snapshotId"]  # type: ignore[index]
    records = json.loads(sl.dcg(dcg_exe, root, "history", "--json").stdout)["records"]
    assert [r.get("snapshot") for r in records] == [sid]
    assert sid in sl.dcg(dcg_exe, root, "history").stdout


def test_undo_by_prefix_and_its_errors(dcg_exe: str, isolated_home: Path) -> None:
    root = sl.project(isolated_home)
    before = sl.state(root)
    answer = sl.hook(dcg_exe, "git checkout -- .", root, DCG_HOOK_DETAILS="1")
    sid = str(answer["hookSpecificOutput"]["snapshotId"])  # type: ignore[index]
    sl.bash("git checkout -- .", root, check=True)
    dry = sl.dcg(dcg_exe, root, "undo", sid[:8], "--dry-run")
    assert dry.returncode == 0 and "Would put back" in dry.stdout and "src/app.py" in dry.stdout
    assert sl.differences(before, sl.state(root))  # a dry run writes nothing
    missing = sl.dcg(dcg_exe, root, "undo", "zzzzzzzz")
    assert missing.returncode != 0 and missing.stderr.startswith("dcg: error: no snapshot")
    done = sl.dcg(dcg_exe, root, "undo", sid[:8], "--json")
    assert json.loads(done.stdout)["kept_before_undo"]
    assert sl.differences(before, sl.state(root)) == []


def test_nothing_to_undo_is_one_line(dcg_exe: str, isolated_home: Path) -> None:
    done = sl.dcg(dcg_exe, isolated_home, "undo", "--last")
    assert done.returncode != 0 and done.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("command", "status", "says"),
    [
        pytest.param("git reset --hard", "WARNING", "keeps git index and work tree", id="kept"),
        pytest.param("git branch -D feature", "WARNING", "refs/heads/feature", id="refs"),
        pytest.param("rm -rf src", "WARNING", "git files of", id="tree"),
        pytest.param("git push --force", "SOFT_BLOCK", "would stop it: dcg could not", id="stop"),
    ],
)
def test_explain_says_whether_it_is_kept_or_stopped(
    dcg_exe: str, isolated_home: Path, command: str, status: str, says: str
) -> None:
    root = sl.project(isolated_home)
    shown = sl.dcg(dcg_exe, root, "explain", command, NO_COLOR="1")
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert any(line.startswith("Status:") and status in line for line in lines), shown.stdout
    assert any(line.startswith("Safety net:") and says in line for line in lines), shown.stdout
    tested = json.loads(sl.dcg(dcg_exe, root, "test", "--json", command).stdout)
    assert tested["responseLevel"] == status.lower()
    assert store.snapshots() == []  # explaining keeps nothing
