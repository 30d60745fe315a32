"""History, codes and file safety: windows, corrupt lines, pruning, expiry, modes, symlinks."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from dcg import jsonfast
from dcg.state import clock, codes, files, history

T0 = 1_800_000_000.0
RULE = "core.git:reset-hard"


def add(path: str, t: float, rule: str = RULE, cwd: str = "/p", via: str | None = None) -> None:
    history.record(
        path,
        now=t,
        rule_id=rule,
        pack_id=rule.partition(":")[0],
        severity="high",
        response_level="allow" if via else "warning",
        session_id="s",
        cwd=cwd,
        command_hash="sha256:x",
        allowed=True,
        via=via,
    )


@pytest.fixture
def hist(tmp_path: Path) -> str:
    return str(tmp_path / "cfg" / "history.jsonl")


@pytest.mark.parametrize(
    ("window", "expected"),
    [
        pytest.param(30, 1, id="30s"),
        pytest.param(3600, 3, id="1h"),
        pytest.param(86400, 4, id="24h"),
        pytest.param(7 * 86400, 5, id="7d"),
    ],
)
def test_count_window(hist: str, window: int, expected: int) -> None:
    for age in (8 * 86400, 2 * 86400, 7200, 1800, 60, 10):
        add(hist, T0 - age)
    add(hist, T0 - 5, rule="core.git:clean-force")
    for fast in (True, False):
        kw = {"pack_id": "core.git", "severity": "high"} if fast else {}
        assert history.count(hist, RULE, since=T0 - window, **kw)[0] == expected  # type: ignore[arg-type]


def test_count_skips_completions_and_scopes(hist: str) -> None:
    add(hist, T0 - 3, cwd="/home/u/proj")
    add(hist, T0 - 2, cwd="/home/u/proj/sub")
    add(hist, T0 - 1, cwd="/home/u/project2")
    add(hist, T0, cwd="/home/u/proj", via="confirm")
    assert history.count(hist, RULE, since=T0 - 60, pack_id="core.git", severity="high")[0] == 3
    assert history.count(hist, RULE, since=T0 - 60)[0] == 3
    assert history.count(hist, RULE, since=T0 - 60, scope="/home/u/proj")[0] == 2
    assert history.count(hist, RULE, since=T0 - 60, scope="/home/u/proj/")[0] == 2


def test_corrupt_lines_are_skipped(hist: str) -> None:
    add(hist, T0 - 3)
    with open(hist, "a") as fh:
        fh.write('{"schema_version":1,"timestamp":"garbage\nnot json at all\n\n')
    add(hist, T0 - 1)
    with open(hist, "a") as fh:
        fh.write(
            '{"schema_version":1,"timestamp":"2027-01-15T08:00:00Z","rule_id":"core.git:reset-hard",'
        )
    assert history.count(hist, RULE, since=T0 - 60)[0] == 2
    assert [r["timestamp"] for r in history.records(hist)] == [clock.iso(T0 - 3), clock.iso(T0 - 1)]


def test_count_in_large_file_reads_only_the_window(hist: str) -> None:
    lines = []
    for i in range(5000):
        t = T0 - (5000 - i) * 60
        rec = {
            "schema_version": 1,
            "timestamp": clock.iso(t),
            "rule_id": RULE,
            "pack_id": "core.git",
            "severity": "high",
            "response_level": "warning",
            "session_id": "s",
            "cwd": "/p",
            "command_hash": "sha256:x",
            "allowed": True,
        }
        lines.append(jsonfast.dumps(rec) + "\n")
    os.makedirs(os.path.dirname(hist))
    Path(hist).write_text("".join(lines))
    n, total = history.count(hist, RULE, since=T0 - 3600, pack_id="core.git", severity="high")
    assert (n, total) == (60, None)
    assert history.count(hist, RULE, since=0)[1] == 5000


def test_prune_by_age_and_entries(hist: str) -> None:
    for age in (40 * 86400, 31 * 86400, 86400, 60, 30, 10):
        add(hist, T0 - age)
    assert history.prune(hist, now=T0, max_age=30 * 86400, max_entries=3) == 3
    assert [r["timestamp"] for r in history.records(hist)] == [
        clock.iso(T0 - a) for a in (60, 30, 10)
    ]


def test_maybe_prune_is_rate_limited(hist: str, tmp_path: Path) -> None:
    stamp = str(tmp_path / "cfg" / ".stamp")
    add(hist, T0 - 40 * 86400)
    history.maybe_prune(hist, stamp, now=T0, max_age=86400, max_entries=10, total_lines=1)
    assert list(history.records(hist)) == []
    add(hist, T0 - 40 * 86400)
    history.maybe_prune(
        hist, stamp, now=os.stat(stamp).st_mtime + 10, max_age=86400, max_entries=10, total_lines=1
    )
    assert len(list(history.records(hist))) == 1
    history.maybe_prune(
        hist, stamp, now=os.stat(stamp).st_mtime + 10, max_age=86400, max_entries=0, total_lines=1
    )
    assert list(history.records(hist)) == []


def test_prune_due_is_a_stat_the_hook_asks_before_forking(hist: str, tmp_path: Path) -> None:
    """The hook forks its maintenance child only when prune_due says so: never with a
    fresh stamp and a history under its cap, always without a stamp or past the cap."""
    stamp = str(tmp_path / "cfg" / ".stamp")
    add(hist, T0)
    due = history.prune_due
    assert due(hist, stamp, now=T0, max_entries=10, total_lines=1)  # no stamp yet
    history.maybe_prune(hist, stamp, now=T0, max_age=86400, max_entries=10, total_lines=1)
    later = os.stat(stamp).st_mtime + 10
    assert not due(hist, stamp, now=later, max_entries=10, total_lines=1)
    assert due(hist, stamp, now=later + history.PRUNE_EVERY, max_entries=10, total_lines=1)
    assert due(hist, stamp, now=later, max_entries=10, total_lines=10**6)  # far past the cap


def test_files_private_under_any_umask(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        d = str(tmp_path / "a" / "b")
        files.append_line(os.path.join(d, "x.jsonl"), "{}")
        files.write_replace(os.path.join(d, "y.json"), b"{}")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(d).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(os.path.join(d, "x.jsonl")).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(os.path.join(d, "y.json")).st_mode) == 0o600


def test_symlinks_are_refused(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir(mode=0o700)
    (tmp_path / "linkdir").symlink_to(real)
    with pytest.raises(files.StateError, match="symlink"):
        files.ensure_dir(str(tmp_path / "linkdir"))
    (real / "target").write_text("")
    (real / "link.jsonl").symlink_to(real / "target")
    with pytest.raises(files.StateError, match="symlink"):
        files.append_line(str(real / "link.jsonl"), "{}")
    assert (real / "target").read_text() == ""


def offer(
    path: str,
    now: float = T0,
    command: str = "rm -rf build",
    cwd: str = "/p",
    kind: str = "confirm",
) -> str:
    level = codes.KIND_LEVEL[kind]
    return codes.offer(
        path,
        kind=kind,
        now=now,
        rules={RULE: level},
        rule_id=RULE,
        cwd=cwd,
        command=command,
        session_id="s",
    )


def redeem(path: str, *, command: str, cwd: str, now: float) -> dict[str, object] | None:
    """What the hook does with a code for a line that runs: find it, use it up if single use."""
    for rec in codes.approved_for(path, command=command, cwd=cwd, now=now):
        if not codes.single_use(rec) or codes.consume(path, str(rec["full_hash"]), now):
            return rec
    return None


def test_code_is_reused_while_live_and_never_collides(tmp_path: Path) -> None:
    path = str(tmp_path / "c" / "pending.jsonl")
    a = offer(path)
    assert offer(path, now=T0 + 10) == a
    others = {offer(path, command=f"rm -rf b{i}") for i in range(200)}
    assert len(others) == 200 and a not in others
    rec = codes.live_codes(path, T0 + 20)[0]
    assert str(rec["full_hash"]).endswith(a) and len(str(rec["full_hash"])) == len("sha256:") + 64


@pytest.mark.parametrize(
    ("command", "cwd", "at", "passes"),
    [
        pytest.param("rm -rf build", "/p", T0 + 100, True, id="exact"),
        pytest.param("rm -rf build ", "/p", T0 + 100, False, id="other-command"),
        pytest.param("rm -rf build", "/q", T0 + 100, False, id="other-cwd"),
        pytest.param("rm -rf build", "/p", T0 + 60 + 301, False, id="expired"),
    ],
)
def test_confirmed_code_scope(
    tmp_path: Path, command: str, cwd: str, at: float, passes: bool
) -> None:
    path = str(tmp_path / "pending.jsonl")
    code = offer(path)
    codes.approve(path, code, now=T0 + 60, ttl=codes.CONFIRM_TTL)
    assert (redeem(path, command=command, cwd=cwd, now=at) is not None) is passes


def test_confirmation_is_single_use_and_unapproved_codes_do_nothing(tmp_path: Path) -> None:
    path = str(tmp_path / "pending.jsonl")
    code = offer(path)
    assert redeem(path, command="rm -rf build", cwd="/p", now=T0 + 1) is None
    codes.approve(path, code, now=T0 + 2, ttl=codes.CONFIRM_TTL)
    assert redeem(path, command="rm -rf build", cwd="/p", now=T0 + 3) is not None
    assert redeem(path, command="rm -rf build", cwd="/p", now=T0 + 4) is None
    with pytest.raises(codes.CodeError, match="no pending code"):
        codes.approve(path, code, now=T0 + 5, ttl=codes.CONFIRM_TTL)


def test_expired_code_cannot_be_approved(tmp_path: Path) -> None:
    path = str(tmp_path / "pending.jsonl")
    code = offer(path)
    with pytest.raises(codes.CodeError, match="expired"):
        codes.approve(path, code, now=T0 + 301, ttl=codes.CONFIRM_TTL)


def test_allow_once_single_use_flag(tmp_path: Path) -> None:
    path = str(tmp_path / "allow_once.jsonl")
    code = offer(path, kind="allow-once")
    codes.approve(path, code, now=T0 + 1, ttl=codes.ALLOW_ONCE_TTL, single_use=True)
    assert redeem(path, command="rm -rf build", cwd="/p", now=T0 + 2) is not None
    assert redeem(path, command="rm -rf build", cwd="/p", now=T0 + 3) is None
