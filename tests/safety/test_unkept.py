"""Only warn when the work can be got back (decisions.md 11.2): what cannot be kept stops.

Over the size budget, over the time budget, a kind that has nothing on this machine's
disk, targets known only when the command runs: the first occurrence, a warning by the
curve, becomes a soft block whose reason says why. A person's confirmation still lets it
run, keeping what can be kept.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import safetylib as sl


@pytest.fixture
def repo(isolated_home: Path) -> Path:
    return sl.project(isolated_home)


def _config(home: Path, text: str) -> None:
    conf = home / ".config" / "dcg" / "config.toml"
    conf.parent.mkdir(parents=True, exist_ok=True)
    conf.write_text(text)


def _stopped(answer: dict[str, object]) -> str:
    assert sl.decision(answer) == "deny", answer
    reason = sl.model_text(answer)
    assert "dcg could not keep a copy" in reason
    assert "dcg could not keep a copy" in str(answer.get("systemMessage"))
    return reason


def test_over_the_size_budget_the_first_occurrence_is_stopped(
    dcg_exe: str, repo: Path, isolated_home: Path
) -> None:
    _config(isolated_home, '[safety_net]\nmax_size = "1kB"\n')
    sl.write(repo / "src" / "app.py", "x" * 5000)
    reason = _stopped(sl.hook(dcg_exe, "git reset --hard", repo))
    assert re.search(
        r"could not keep a copy: 5\.\d kB is over the 1\.0 kB budget "
        r"\(\[safety_net\] max_size\)",
        reason,
    ), reason


def test_over_the_size_budget_for_a_tree_outside_git(dcg_exe: str, isolated_home: Path) -> None:
    _config(isolated_home, '[safety_net]\nmax_size = "10kB"\n')
    data = isolated_home / "data"
    for k in range(4):
        sl.write(data / f"part{k}.bin", b"\x01" * 4000)
    reason = _stopped(sl.hook(dcg_exe, "rm -rf data", isolated_home))
    assert "16 kB is over the 10 kB budget" in reason
    assert sl.dcg(dcg_exe, isolated_home, "undo", "--json").stdout.count('"id"') == 0


def test_over_the_time_budget_the_first_occurrence_is_stopped(
    dcg_exe: str, repo: Path, isolated_home: Path
) -> None:
    _config(isolated_home, '[safety_net]\nmax_time = "1ms"\n')
    reason = _stopped(sl.hook(dcg_exe, "git reset --hard", repo))
    assert "1 ms time budget ([safety_net] max_time)" in reason


@pytest.mark.parametrize(
    ("command", "why"),
    [
        pytest.param("git push --force origin main", "remote", id="push-force"),
        pytest.param("git push origin --delete feature", "remote", id="push-delete"),
        pytest.param("git gc --prune=now", "objects", id="gc-prune"),
        pytest.param("git filter-branch --tree-filter 'rm -f x' HEAD", "every ref", id="filter"),
        pytest.param("ls | xargs rm", "input", id="xargs-rm"),
        pytest.param('rm -rf "$BUILD_OUT"', "only known", id="unset-variable"),
        pytest.param('rm -rf "src/$(cat victim.txt)"', "only known", id="computed-path"),
        pytest.param("docker volume rm data", "not a file", id="docker-volume"),
        pytest.param("sqlite3 app.db 'DROP TABLE users'", "not a file", id="database"),
        pytest.param("git branch -D $(git branch --list 'tmp*')", "only known", id="computed"),
    ],
)
def test_what_cannot_be_kept_is_stopped_and_says_why(
    dcg_exe: str, repo: Path, command: str, why: str
) -> None:
    assert why in _stopped(sl.hook(dcg_exe, command, repo))


def test_a_confirmed_command_runs_and_keeps_what_it_can(
    dcg_exe: str, repo: Path, isolated_home: Path
) -> None:
    """The person said yes knowing nothing could be kept: nothing stops it a second time."""
    _config(
        isolated_home, '[safety_net]\nmax_size = "1kB"\n[response]\nconfirm_requires_tty = false\n'
    )
    sl.write(repo / "src" / "app.py", "x" * 5000)
    answer = sl.hook(dcg_exe, "git reset --hard", repo)
    _stopped(answer)
    code = str(answer["systemMessage"]).rsplit("Code: ", 1)[1].strip()
    confirmed = sl.dcg(dcg_exe, repo, "confirm", code)
    assert confirmed.returncode == 0, confirmed.stderr
    assert sl.hook(dcg_exe, "git reset --hard", repo) == {}


def test_switched_off_the_curve_is_as_before(dcg_exe: str, repo: Path, isolated_home: Path) -> None:
    _config(isolated_home, "[safety_net]\nenabled = false\n")
    answer = sl.hook(dcg_exe, "git push --force origin main", repo)
    assert sl.decision(answer) is None  # the standard curve's first warning
    assert "could not keep" not in sl.model_text(answer)


def test_a_repository_config_cannot_switch_it_off(dcg_exe: str, repo: Path) -> None:
    (repo / ".dcg.toml").write_text("[safety_net]\nenabled = false\n")
    assert "could not keep" in sl.model_text(sl.hook(dcg_exe, "git push --force", repo))


def test_a_confirmed_rerun_is_kept_too(dcg_exe: str, repo: Path, isolated_home: Path) -> None:
    """Past the session threshold a person confirms; the re-run keeps a copy first."""
    _config(isolated_home, "[response]\nconfirm_requires_tty = false\n")
    before = sl.state(repo)
    for _ in range(2):
        assert sl.decision(sl.hook(dcg_exe, "git checkout -- .", repo)) is None
    answer = sl.hook(dcg_exe, "git checkout -- .", repo)
    assert sl.decision(answer) == "deny"  # the third in a session: a soft block
    code = str(answer["systemMessage"]).rsplit("Code: ", 1)[1].strip()
    assert sl.dcg(dcg_exe, repo, "confirm", code).returncode == 0
    assert sl.hook(dcg_exe, "git checkout -- .", repo) == {}
    sl.bash("git checkout -- .", repo, check=True)
    records = json.loads(sl.dcg(dcg_exe, repo, "history", "--json").stdout)["records"]
    confirmed = [r for r in records if r.get("via") == "confirm"]
    assert len(confirmed) == 1 and confirmed[0].get("snapshot")
    assert sl.dcg(dcg_exe, repo, "undo", str(confirmed[0]["snapshot"])).returncode == 0
    assert sl.differences(before, sl.state(repo)) == []


def test_a_warned_line_keeps_its_other_writes(dcg_exe: str, repo: Path) -> None:
    before = sl.files(repo)
    line = "git reset --hard && echo overwritten > src/notes.txt"
    answer = sl.hook(dcg_exe, line, repo)
    assert sl.decision(answer) is None and "dcg undo" in sl.model_text(answer)
    sl.bash(line, repo, check=True)
    assert sl.dcg(dcg_exe, repo, "undo", "--last").returncode == 0
    assert sl.files(repo) == before
