"""A history whose last line is torn (issue 26 point 1), through the installed hook.

A record cut short (a kill, a short write), a garbage tail without a newline, or a write
the full disk cut: the next record the hook writes is a complete line of its own, every
complete record written before is still read (``dcg audit export``, ``dcg history``),
and the repeat curve counts them: each hook call runs in a fresh session, so only the
history count can escalate it, and it reaches the hard block exactly when the complete
records say it should.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

CWD = "/home/dev/project"
COMMAND = "git reset --hard HEAD~1"
RULE = "core.git:reset-hard"
THRESHOLD = 5  # the default history_threshold: the 5th occurrence is a hard block


@pytest.fixture(autouse=True)
def _details(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DCG_HOOK_DETAILS", "1")


def hook(exe: str, session: str) -> tuple[str, str]:
    """The Claude reply's response level, and what it said (stderr and systemMessage)."""
    payload = {
        "session_id": session,
        "cwd": CWD,
        "hook_event_name": "PreToolUse",
        "permission_mode": "default",
        "tool_name": "Bash",
        "tool_input": {"command": COMMAND},
    }
    proc = subprocess.run(
        [exe, "hook"], input=json.dumps(payload), capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    doc = json.loads(proc.stdout) if proc.stdout.strip() else {}
    out = doc.get("hookSpecificOutput", {})
    return str(out.get("responseLevel")), proc.stderr + str(doc.get("systemMessage", ""))


def history_path() -> Path:
    return Path(os.environ["XDG_CONFIG_HOME"]) / "dcg" / "history.jsonl"


def exported(exe: str) -> list[dict[str, object]]:
    proc = subprocess.run(
        [exe, "audit", "export"], capture_output=True, text=True, timeout=60, check=True
    )
    return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]


def history_count(exe: str) -> int:
    proc = subprocess.run(
        [exe, "history", "--json", RULE], capture_output=True, text=True, timeout=60, check=True
    )
    return int(json.loads(proc.stdout)["occurrences"])


def complete_records(path: Path) -> list[dict[str, object]]:
    """The lines of the file that are whole records (a fragment is not)."""
    out = []
    for line in path.read_bytes().split(b"\n"):
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict) and rec.get("rule_id") == RULE:
            out.append(rec)
    return out


def cut(path: Path) -> None:
    """The last record cut in the middle (its newline and second half gone)."""
    data = path.read_bytes()
    start = data.rstrip(b"\n").rfind(b"\n") + 1
    path.write_bytes(data[: start + (len(data) - start) // 2])


def cut_after_brace(path: Path) -> None:
    """Only the final newline lost: the last record is whole but not ended."""
    path.write_bytes(path.read_bytes().rstrip(b"\n"))


def garbage(path: Path) -> None:
    with path.open("ab") as fh:
        fh.write(b'\x00\xff{"schema_version":2,"rule_id":"core.git:reset-')


def binary(path: Path) -> None:
    with path.open("ab") as fh:
        fh.write(bytes(range(1, 256)).replace(b"\n", b""))


def half_brace(path: Path) -> None:
    with path.open("ab") as fh:
        fh.write(b"{")


DAMAGE: dict[str, tuple[Callable[[Path], None], int]] = {
    # how the tail is damaged, and how many of the 3 records before stay whole
    "cut": (cut, 2),
    "newline-lost": (cut_after_brace, 3),
    "garbage": (garbage, 3),
    "binary": (binary, 3),
    "open-brace": (half_brace, 3),
}


def escalate_after(exe: str, whole_before: int, first_session: int) -> list[str]:
    """Hook calls in fresh sessions until the hard block; the levels they got."""
    levels = []
    for n in range(THRESHOLD + 2):
        level, said = hook(exe, f"after-{first_session + n}")
        assert "cannot write history" not in said
        levels.append(level)
        if level == "hard_block":
            break
    # whole_before complete records + each new one: the THRESHOLD-th occurrence blocks.
    expected = ["warning"] * (THRESHOLD - whole_before - 1) + ["hard_block"]
    assert levels == expected
    return levels


def check_file(path: Path, before: list[dict[str, object]], exe: str, new: int) -> None:
    data = path.read_bytes()
    assert data.endswith(b"}\n"), data[-80:]
    lines = data.split(b"\n")[:-1]
    # Every line but the one fragment is a whole record, the new ones included.
    whole = complete_records(path)
    assert len(lines) - len(whole) <= 1
    ids = [str(r["id"]) for r in whole]
    assert ids[: len(before)] == [str(r["id"]) for r in before]
    assert len(ids) == len(before) + new and len(set(ids)) == len(ids)
    assert [str(r["id"]) for r in exported(exe)] == ids
    assert history_count(exe) == len(ids)


@pytest.mark.parametrize("kind", sorted(DAMAGE))
def test_a_torn_tail_keeps_every_record_and_the_curve(dcg_exe: str, kind: str) -> None:
    damage, whole = DAMAGE[kind]
    for n in range(3):
        assert hook(dcg_exe, f"before-{n}")[0] == "warning"
    path = history_path()
    damage(path)
    before = complete_records(path)
    assert len(before) == whole
    levels = escalate_after(dcg_exe, whole, 0)
    check_file(path, before, dcg_exe, len(levels))


def test_two_torn_tails_in_a_row(dcg_exe: str) -> None:
    """A torn line, one record, another torn line: both fragments stay apart."""
    assert hook(dcg_exe, "a")[0] == "warning"
    path = history_path()
    garbage(path)
    assert hook(dcg_exe, "b")[0] == "warning"
    cut(path)  # the record of "b" cut in half
    before = complete_records(path)
    assert len(before) == 1
    levels = escalate_after(dcg_exe, 1, 0)
    data = path.read_bytes()
    assert len(data.split(b"\n")[:-1]) == len(before) + len(levels) + 2  # two fragments
    assert len(complete_records(path)) == len(before) + len(levels)


def _mount(args: list[str]) -> bool:
    return subprocess.run(args, capture_output=True).returncode == 0


@pytest.fixture
def small_fs(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs (root only; skipped, saying so, where mounting is not allowed)."""
    where = tmp_path / "fs"
    where.mkdir()
    if os.getuid() != 0:
        pytest.skip("mounting a tmpfs needs root; the full-disk case is not run")
    if not _mount(["mount", "-t", "tmpfs", "-o", "size=1m", "dcg-test", str(where)]):
        pytest.skip("mount -t tmpfs failed here (no CAP_SYS_ADMIN); the full-disk case is not run")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(fs: Path) -> None:
    """Every free block taken."""
    fd = os.open(fs / "filler", os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (4096, 512, 1):  # down to the last bytes of the last block
            try:
                while os.write(fd, b"\0" * size):
                    pass
            except OSError:
                pass
    finally:
        os.close(fd)


def test_a_write_the_full_disk_cut_short(
    dcg_exe: str, small_fs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(small_fs))
    for n in range(2):
        assert hook(dcg_exe, f"before-{n}")[0] == "warning"
    path = history_path()
    size = path.stat().st_size
    record = size // 2
    # Blank lines (which every reader skips) so that the history's last block has room
    # for a third of a record: the next append is cut short by the full disk.
    block = os.statvfs(small_fs).f_bsize
    room = block - size % block
    pad = (room - record // 3) % block
    with path.open("ab") as fh:
        fh.write(b"\n" * pad)
    before = complete_records(path)
    assert len(before) == 2
    fill(small_fs)
    level, said = hook(dcg_exe, "full")
    assert level in ("warning", "soft_block")
    assert "cannot write history" in said or "short write" in said, said
    data = path.read_bytes()
    assert not data.endswith(b"\n"), "the disk did not cut the record short"
    torn = data[data.rfind(b"\n") + 1 :]
    assert 0 < len(torn) < record
    (small_fs / "filler").unlink()
    levels = escalate_after(dcg_exe, 2, 0)
    after = complete_records(path)
    assert len(after) == len(before) + len(levels)  # the first record after it is whole too
    assert [r["id"] for r in after[:2]] == [r["id"] for r in before]
    assert path.read_bytes().endswith(b"}\n")
    assert [str(r["id"]) for r in exported(dcg_exe)] == [str(r["id"]) for r in after]
    assert not list(path.parent.glob("*.tmp*"))


def _start(exe: str, session: str) -> subprocess.Popen[bytes]:
    payload = {
        "session_id": session,
        "cwd": CWD,
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": COMMAND},
    }
    proc = subprocess.Popen(
        [exe, "hook"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdin is not None
    proc.stdin.write(json.dumps(payload).encode())
    proc.stdin.close()
    return proc


def test_concurrent_hooks_after_a_torn_tail_repair_it_once(dcg_exe: str) -> None:
    """Eight hooks at once find the torn tail: one newline ends it, not eight."""
    assert hook(dcg_exe, "first")[0] == "warning"
    path = history_path()
    garbage(path)
    procs = [_start(dcg_exe, f"c{n}") for n in range(8)]
    for proc in procs:
        assert proc.wait(timeout=120) == 0
    lines = path.read_bytes().split(b"\n")
    assert lines[-1] == b""
    assert len(lines) - 1 == 1 + 1 + 8  # the first record, the fragment, eight records
    assert len(complete_records(path)) == 9
    assert not [p for p in path.parent.iterdir() if ".tmp" in p.name]


def test_hooks_killed_mid_run_leave_no_partial_line(dcg_exe: str) -> None:
    """kill -9 at staggered moments during concurrent hooks (after a torn tail): each
    record is whole or absent, nothing is glued, no temp file is left, and the next
    record is counted with the rest."""
    import signal
    import time

    assert hook(dcg_exe, "first")[0] == "warning"
    path = history_path()
    cut(path)
    procs = [_start(dcg_exe, f"k{n}") for n in range(10)]
    for n, proc in enumerate(procs):
        if n % 2:
            time.sleep(0.02 * n)
            proc.send_signal(signal.SIGKILL)
    for proc in procs:
        proc.wait(timeout=120)
    data = path.read_bytes()
    assert data.endswith(b"}\n")
    lines = data.split(b"\n")[:-1]
    whole = complete_records(path)
    assert len(lines) == len(whole) + 1  # only the cut line is not a record
    assert 5 <= len(whole) <= 10
    assert len({r["id"] for r in whole}) == len(whole)
    assert not [p for p in path.parent.iterdir() if ".tmp" in p.name]
    assert history_count(dcg_exe) == len(whole)
