"""The safety net's snapshots are dcg's state (decisions.md 11.4): deleting or rewriting
``refs/dcg/*`` or the store through the hook is critical, every way an agent tries.

What really destroys a snapshot is proved in a sandbox: deleting its ref and pruning
loses it; a plain ``git gc`` or an expired reflog does not (they are real refs).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import hookpath
import safetylib as sl

SID = "1nh5v33mgj"
STOPPED = [
    pytest.param(f"git update-ref -d refs/dcg/{SID}/tree", id="update-ref-d"),
    pytest.param(f"git update-ref refs/dcg/{SID}/tree HEAD", id="update-ref-rewrite"),
    pytest.param(f"git update-ref -d 'refs/dcg/{SID}/keep' HEAD", id="update-ref-old-value"),
    pytest.param(f"printf 'delete refs/dcg/{SID}/tree\\n' | git update-ref --stdin", id="stdin"),
    pytest.param(
        "git for-each-ref --format='delete %(refname)' refs/dcg | git update-ref --stdin",
        id="for-each-ref-piped",
    ),
    pytest.param("git update-ref --stdin < deletions.txt", id="stdin-from-file"),
    pytest.param(
        "git for-each-ref --format='%(refname)' refs/dcg | xargs -n1 git update-ref -d",
        id="xargs",
    ),
    pytest.param('git update-ref -d "refs/dcg/$ID/tree"', id="variable-id"),
    pytest.param(f"git -C proj update-ref -d refs/dcg/{SID}/tree", id="git-C"),
    pytest.param(f"bash -c 'git update-ref -d refs/dcg/{SID}/tree'", id="bash-c"),
    pytest.param("rm -rf .git/refs/dcg", id="rm-ref-dir"),
    pytest.param("cd .git/refs && rm -rf dcg", id="cd-then-rm"),
    pytest.param("rm -rf .git/refs", id="rm-all-refs"),
    pytest.param("mv .git/refs/dcg /tmp/x", id="mv-away"),
    pytest.param("sed -i '/refs\\/dcg/d' .git/packed-refs", id="sed-packed-refs"),
    pytest.param("> .git/packed-refs", id="truncate-packed-refs"),
    pytest.param(
        "python3 -c \"import shutil; shutil.rmtree('.git/refs/dcg')\"", id="python-rmtree"
    ),
    pytest.param("rm -rf ~/.config/dcg/snapshots", id="store"),
    pytest.param(f"rm -rf $HOME/.config/dcg/snapshots/{SID}", id="one-snapshot"),
    pytest.param("find ~/.config/dcg -name manifest.json -delete", id="find-manifests"),
    pytest.param("cd ~/.config/dcg && rm -rf snapshots", id="cd-store"),
]
PASSED = [
    pytest.param("git for-each-ref refs/dcg", id="list"),
    pytest.param(f"git show --stat refs/dcg/{SID}/tree", id="show"),
    pytest.param("dcg undo", id="undo-list"),
    pytest.param("dcg undo --last", id="undo-last"),
    pytest.param(f"dcg undo {SID} --dry-run", id="undo-dry-run"),
    pytest.param("python3 -m dcg undo --last", id="undo-module"),
    pytest.param("git gc", id="gc"),
    pytest.param("git pack-refs --all", id="pack-refs"),
    pytest.param("cat .git/packed-refs", id="read-packed-refs"),
]


@pytest.fixture
def repo(isolated_home: Path) -> Path:
    return sl.project(isolated_home)


@pytest.mark.parametrize("command", STOPPED)
@pytest.mark.parametrize("variant", ["plain", "later-line", "bash-c"])
def test_deleting_snapshots_is_critical(repo: Path, command: str, variant: str) -> None:
    line = hookpath.VARIANTS[variant](command)
    body = hookpath.payload("claude", line, str(repo))
    env = sl.env(DCG_RESPONSE_MODE="lenient", DCG_HOOK_DETAILS="1")
    code, out, err = hookpath.run(hookpath.encode(body), env=env)
    assert hookpath.verdict(code, out, err) == "deny", (line, out)
    assert '"ruleId":"core.dcg:' in out.replace(" ", ""), out
    assert '"severity":"critical"' in out.replace(" ", ""), out


@pytest.mark.parametrize("command", PASSED)
def test_reading_snapshots_and_undo_pass(repo: Path, command: str) -> None:
    body = hookpath.payload("claude", command, str(repo))
    code, out, err = hookpath.run(hookpath.encode(body), env=sl.env())
    assert hookpath.verdict(code, out, err) == "none", out


def _kept(exe: str, repo: Path) -> str:
    answer = sl.hook(exe, "git reset --hard", repo, DCG_HOOK_DETAILS="1")
    specific = answer["hookSpecificOutput"]
    assert isinstance(specific, dict)
    sl.bash("git reset --hard", repo, check=True)
    return str(specific["snapshotId"])


def test_deleting_the_ref_and_pruning_really_loses_the_snapshot(dcg_exe: str, repo: Path) -> None:
    sid = _kept(dcg_exe, repo)
    sl.bash(f"git update-ref -d refs/dcg/{sid}/tree && git gc -q --prune=now", repo, check=True)
    before = sl.state(repo)
    done = sl.dcg(dcg_exe, repo, "undo", sid)
    assert done.returncode != 0 and "objects are gone" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert sl.differences(before, sl.state(repo)) == []  # nothing half written


@pytest.mark.parametrize(
    "maintenance",
    [
        pytest.param("git gc -q", id="gc"),
        pytest.param("git reflog expire --expire=now --all && git gc -q --prune=now", id="reflog"),
        pytest.param("git pack-refs --all", id="pack-refs"),
    ],
)
def test_git_maintenance_keeps_the_snapshot(dcg_exe: str, repo: Path, maintenance: str) -> None:
    before = sl.state(repo)
    sid = _kept(dcg_exe, repo)
    sl.bash(maintenance, repo, check=True)
    assert sl.dcg(dcg_exe, repo, "undo", sid).returncode == 0
    # Expiring every reflog also drops the stash (its own destructive command, kept
    # when it goes through the hook): the reset's snapshot is whole either way.
    lost = ["stash"] if "reflog" in maintenance else []
    assert sl.differences(before, sl.state(repo)) == lost


GLOBBED_STOPPED = [
    pytest.param("rm -rf .git/*/dcg", id="star-dir"),
    pytest.param("rm -rf .git/refs/*", id="refs-star"),
    pytest.param("rm -rf .git/refs/d?g", id="question"),
    pytest.param("rm -rf .git/*/*", id="star-star"),
    pytest.param("cd .git && rm -rf refs/[d]cg", id="bracket-after-cd"),
]
GLOBBED_PASSED = [
    pytest.param("rm -rf node_modules/*/*", id="node-modules"),
    pytest.param("rm -rf dist/*/*", id="dist"),
    pytest.param("rm -rf build/*/*/", id="build"),
]


@pytest.mark.parametrize("command", GLOBBED_STOPPED)
def test_a_glob_reaching_a_kept_snapshot_is_critical(
    dcg_exe: str, repo: Path, command: str
) -> None:
    sid = _kept(dcg_exe, repo)
    assert (repo / ".git" / "refs" / "dcg" / sid).is_dir()
    for variant in ("plain", "later-line"):
        line = hookpath.VARIANTS[variant](command)
        body = hookpath.payload("claude", line, str(repo))
        code, out, err = hookpath.run(hookpath.encode(body), env=sl.env(DCG_HOOK_DETAILS="1"))
        assert hookpath.verdict(code, out, err) == "deny", (line, out)
        assert '"ruleId":"core.dcg:snapshot-refs"' in out.replace(" ", ""), out


@pytest.mark.parametrize("command", GLOBBED_PASSED)
def test_a_glob_in_build_output_is_not_the_snapshot_rule(repo: Path, command: str) -> None:
    # `*/*` could spell refs/dcg, but bash expands it to what exists: build output only.
    for d in ("node_modules/a/b", "dist/x/y", "build/p/q"):
        (repo / d).mkdir(parents=True)
    body = hookpath.payload("claude", command, str(repo))
    code, out, err = hookpath.run(hookpath.encode(body), env=sl.env(DCG_HOOK_DETAILS="1"))
    assert "snapshot-refs" not in out, out
    assert hookpath.verdict(code, out, err) == "none", out
