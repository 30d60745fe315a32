"""State under faults, through the installed hook (issue 27): a stuck lock never makes a hook
wait past its budget, and a count that cannot be kept counts as repeated (decisions.md 10.4)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

CWD = "/home/dev/project"
COMMAND = "git reset --hard HEAD~1"
SESSION = "faults"


@pytest.fixture(autouse=True)
def _hook_details(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DCG_HOOK_DETAILS", "1")


def hook(exe: str, session: str = SESSION) -> tuple[dict[str, object], str, float]:
    """The Claude reply's hookSpecificOutput, stderr and systemMessage text, and seconds."""
    payload = {
        "session_id": session,
        "cwd": CWD,
        "hook_event_name": "PreToolUse",
        "permission_mode": "default",
        "tool_name": "Bash",
        "tool_input": {"command": COMMAND},
    }
    start = time.monotonic()
    proc = subprocess.run(
        [exe, "hook"], input=json.dumps(payload), capture_output=True, text=True, timeout=30
    )
    took = time.monotonic() - start
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout) if proc.stdout.strip() else {}
    out = doc.get("hookSpecificOutput", {})
    assert isinstance(out, dict)
    return out, proc.stderr + str(doc.get("systemMessage", "")), took


def config_dir() -> Path:
    return Path(os.environ["XDG_CONFIG_HOME"]) / "dcg"


def session_file(session: str = SESSION) -> Path:
    digest = hashlib.sha256(f"agent\0claude\0{session}".encode()).hexdigest()[:32]
    return Path(os.environ["DCG_SESSION_DIR"]) / f"{digest}.json"


_HOLDER = """
import fcntl, sys, time
fd = open(sys.argv[1], "a")
fcntl.flock(fd, fcntl.LOCK_EX)
print("locked", flush=True)
time.sleep(120)
"""


def hold_lock(path: Path) -> Iterator[None]:
    """A process that takes the lock on ``path`` and never lets go (a stopped hook)."""
    proc = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "locked"
        yield
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.parametrize("which", ["history", "session"])
def test_a_stuck_lock_answers_in_time_at_the_repeated_level(dcg_exe: str, which: str) -> None:
    first, _, _ = hook(dcg_exe, session="before")  # creates the history file
    assert first["responseLevel"] == "warning"
    target = config_dir() / "history.jsonl" if which == "history" else session_file()
    target.parent.mkdir(parents=True, exist_ok=True)
    target.touch()
    for _ in hold_lock(target):
        out, said, took = hook(dcg_exe)
        assert took < 2.0, f"the hook waited {took:.1f}s on a held lock"
        # First occurrence in this session, yet its count could not be kept: repeated.
        assert out["responseLevel"] == "soft_block", out
        assert "deciding as if this were a repeat" in said
        assert "locked by another process" in said


def test_the_control_without_a_lock_warns(dcg_exe: str) -> None:
    out, said, _ = hook(dcg_exe)
    assert out["responseLevel"] == "warning"
    assert "repeat" not in said


CORRUPT = {
    "list": b"[]",
    "wrong-types": json.dumps({"occurrences": [], "acknowledged": {}}).encode(),
    "string-count": json.dumps({"occurrences": {"core.git:reset-hard": "9"}}).encode(),
    "negative": json.dumps(
        {"occurrences": {"core.git:reset-hard": -50}, "last_active": "2099-01-01T00:00:00Z"}
    ).encode(),
    "bool-count": json.dumps({"occurrences": {"core.git:reset-hard": True}}).encode(),
    "binary": bytes(range(256)) * 4,
    "deep": b"[" * 100_000 + b"]" * 100_000,
    "deep-object": b'{"occurrences":' + b'{"a":' * 50_000 + b"1" + b"}" * 50_001,
    "huge": b'{"occurrences":{},"pad":"' + b"x" * (3 << 20) + b'"}',
    "truncated": b'{"occurrences":{"core.git:reset-hard":1',
}


@pytest.mark.parametrize("kind", sorted(CORRUPT))
def test_a_damaged_session_file_counts_as_repeated(dcg_exe: str, kind: str) -> None:
    path = session_file()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    path.write_bytes(CORRUPT[kind])
    path.chmod(0o600)
    out, said, took = hook(dcg_exe)
    assert took < 5.0
    assert out["responseLevel"] == "soft_block", out
    assert "session file was damaged" in said
    # Replaced atomically by a well-formed file, and the loss is remembered: the
    # session does not start over at a warning on its next occurrence.
    doc = json.loads(path.read_bytes())
    assert doc["damaged_at"]
    again, _, _ = hook(dcg_exe)
    assert again["responseLevel"] in ("soft_block", "hard_block")
    # Another session is not affected.
    other, _, _ = hook(dcg_exe, session="other")
    assert other["responseLevel"] == "warning"
    assert not list(path.parent.glob("*.tmp.*"))


def _mount(args: list[str]) -> bool:
    return subprocess.run(args, capture_output=True).returncode == 0


@pytest.fixture
def small_fs(tmp_path: Path) -> Iterator[Path]:
    """A 256 KiB tmpfs (root only; skipped where mounting is not allowed)."""
    where = tmp_path / "fs"
    where.mkdir()
    if os.getuid() != 0 or not _mount(["mount", "-t", "tmpfs", "-o", "size=256k", "t", str(where)]):
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def test_full_disk_counts_as_repeated(
    dcg_exe: str, small_fs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(small_fs))
    out, _, _ = hook(dcg_exe, session="s0")
    assert out["responseLevel"] == "warning"
    try:  # fill the disk
        with open(small_fs / "filler", "wb") as fh:
            while True:
                fh.write(b"\0" * 4096)
                fh.flush()
    except OSError:
        pass
    for n in range(3):  # a fresh session each time: every one is a first occurrence
        out, said, _ = hook(dcg_exe, session=f"s{n + 1}")
        assert out["responseLevel"] == "soft_block", out
        assert "cannot write history" in said


def test_read_only_history_counts_as_repeated(
    dcg_exe: str, small_fs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(small_fs))
    out, _, _ = hook(dcg_exe, session="s0")
    assert out["responseLevel"] == "warning"
    assert _mount(["mount", "-o", "remount,ro", str(small_fs)])
    for n in range(3):
        out, said, _ = hook(dcg_exe, session=f"s{n + 1}")
        assert out["responseLevel"] == "soft_block", out
        assert "cannot write history" in said


def _code(said: str) -> str | None:
    import re

    found = re.search(r"Code: ([0-9a-f]{4})", said)
    return found.group(1) if found else None


def _human(prefix: list[str], exe: str, *args: str) -> subprocess.CompletedProcess[str]:
    leader, follower = os.openpty()
    try:
        return subprocess.run(
            [*prefix, exe, *args], stdin=follower, capture_output=True, text=True, timeout=30
        )
    finally:
        os.close(leader)
        os.close(follower)


def test_a_code_confirmed_under_a_clock_days_ahead_is_void_once_corrected(dcg_exe: str) -> None:
    from faketimes import faketime

    ahead = faketime("+2d")
    payload = json.dumps(
        {
            "session_id": SESSION,
            "cwd": CWD,
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": COMMAND},
        }
    )
    said = ""
    for _ in range(3):  # warning, warning, soft block with a code
        proc = subprocess.run(
            [*ahead, dcg_exe, "hook"], input=payload, capture_output=True, text=True, timeout=30
        )
        said = proc.stdout + proc.stderr
    code = _code(said)
    assert code, said
    assert _human(ahead, dcg_exe, "confirm", code).returncode == 0
    # The clock is corrected: the approval made two days "ahead" does not let it through.
    out, _, _ = hook(dcg_exe)
    assert out.get("responseLevel") in ("soft_block", "hard_block"), out


def test_stale_codes_cost_nothing_and_are_capped(dcg_exe: str) -> None:
    pending = config_dir() / "pending_confirmations.jsonl"
    pending.parent.mkdir(parents=True, exist_ok=True)
    stale = {
        "schema_version": 2,
        "kind": "confirm",
        "short_code": "abcd",
        "full_hash": "sha256:" + "0" * 64,
        "created_at": "2020-01-01T00:00:00Z",
        "expires_at": "2020-01-01T00:05:00Z",
        "cwd": CWD,
        "command_hash": "sha256:" + "1" * 64,
        "command": "rm -rf /x",
        "rule_id": "core.git:reset-hard",
        "consumed_at": None,
    }
    pending.write_text((json.dumps(stale) + "\n") * 50_000)
    for _ in range(2):
        hook(dcg_exe)
    out, said, took = hook(dcg_exe)  # the soft block offers a code
    assert out["responseLevel"] == "soft_block" and _code(said)
    assert took < 2.0
    assert pending.stat().st_size < 64 * 1024  # the stale codes were dropped


def test_an_empty_or_unset_home_never_means_slash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pwd
    from types import SimpleNamespace

    from dcg import paths

    fake = tmp_path / "pwhome"
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: SimpleNamespace(pw_dir=str(fake)))
    monkeypatch.delenv("XDG_CONFIG_HOME")
    for value in ("", "/", "relative", None):
        if value is None:
            monkeypatch.delenv("HOME", raising=False)
        else:
            monkeypatch.setenv("HOME", value)
        assert paths.config_dir() == str(fake / ".config" / "dcg")
    monkeypatch.setenv("HOME", str(tmp_path / "h"))
    monkeypatch.setenv("XDG_CONFIG_HOME", "rel")  # relative XDG paths are ignored (spec)
    assert paths.config_dir() == str(tmp_path / "h" / ".config" / "dcg")


def test_temp_files_a_killed_writer_left_are_cleaned(dcg_exe: str) -> None:
    """A rewrite killed between its temp file and the rename leaves ``<file>.tmp.<pid>``;
    the next rewrite of that file removes it (dead pid and a minute old, or an hour old)."""
    sess = session_file()
    sess.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()  # fmt: skip
    old = time.time() - 7200
    left = [sess.parent / f"{sess.name}.tmp.{dead}", sess.parent / f"{sess.name}.tmp.1"]
    young = sess.parent / f"{sess.name}.tmp.{os.getpid()}"  # a live writer's: kept
    for p in [*left, young]:
        p.write_text("{}")
        os.utime(p, (old, old) if p in left else None)
    hook(dcg_exe)  # bumps the session: a rewrite of its file
    assert not any(p.exists() for p in left)
    assert young.exists()


_FILLER = (
    '{"schema_version":2,"timestamp":"%s","rule_id":"core.filesystem:rm-rf","pack_id":'
    '"core.filesystem","severity":"high","response_level":"warning","session_id":"x","cwd":'
    '"/elsewhere","command_hash":"sha256:00","allowed":true,"id":"01","host":"h","uid":0}\n'
)


@pytest.mark.slow
def test_pruning_a_long_history_never_holds_a_hook(
    dcg_exe: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A history far over its cap is pruned in the background after the first answer; the
    prune reads and filters without the lock, so hooks meanwhile neither wait on it nor
    count as repeated, and what they append is kept."""
    monkeypatch.setenv("DCG_HISTORY_THRESHOLD", "1000")  # each call a new occurrence
    path = config_dir() / "history.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    old = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - 86400 * 2))
    path.write_text((_FILLER % old) * 300_000)
    path.chmod(0o600)
    size = path.stat().st_size
    out, said, _ = hook(dcg_exe, "first")  # answers, then prunes in a detached child
    assert out["responseLevel"] == "warning", said
    levels = []
    while path.stat().st_size >= size and len(levels) < 40:  # while the prune runs
        out, said, _ = hook(dcg_exe, f"during-{len(levels)}")
        levels.append(out["responseLevel"])
        assert "as if this were a repeat" not in said, said
    assert levels and set(levels) == {"warning"}, levels
    deadline = time.monotonic() + 60
    while path.stat().st_size >= size and time.monotonic() < deadline:
        time.sleep(0.2)
    lines = path.read_text().splitlines()
    assert len(lines) <= 10_000 + 1 + len(levels)
    ours = [json.loads(ln) for ln in lines if "core.git:reset-hard" in ln]
    assert len(ours) == 1 + len(levels)  # every record appended during the prune was kept
