"""Clock jumps cannot reset counts (issue 27), through the installed hook.

Records and session files carry the kernel's boot id and clock since boot beside the
wall-clock timestamp; within one boot the history window and the session's expiry go by
that clock, which no change of the wall clock moves. ``faketime`` moves only the wall
clock of the hook it runs (as a clock days behind or ahead would), then the clock is
"corrected" by running the hook without it: the next occurrence must still escalate.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from faketimes import faketime
from hookpath import VARIANTS, payload

CWD = "/home/dev/project"
COMMAND = "git reset --hard HEAD~1"
SHAPES = ["plain", "later-line", "after-crlf", "bash-c"]


@pytest.fixture(autouse=True)
def _hook_details(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DCG_HOOK_DETAILS", "1")


def level(exe: str, session: str, shape: str = "plain", prefix: list[str] | None = None) -> str:
    """The response level Claude Code's payload gets from ``dcg hook`` (run under ``prefix``)."""
    body = payload("claude", VARIANTS[shape](COMMAND), cwd=CWD)
    body["session_id"] = session
    proc = subprocess.run(
        [*(prefix or []), exe, "hook"],
        input=json.dumps(body),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)["hookSpecificOutput"]
    assert out["ruleId"] == "core.git:reset-hard", out
    return str(out["responseLevel"])


def history() -> list[dict[str, object]]:
    path = Path(os.environ["XDG_CONFIG_HOME"]) / "dcg" / "history.jsonl"
    return [json.loads(ln) for ln in path.read_text().splitlines()]


def _boot() -> tuple[str, float]:
    boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip().replace("-", "")[:12]
    return boot, float(Path("/proc/uptime").read_text().split()[0])


needs_proc = pytest.mark.skipif(
    not Path("/proc/uptime").exists(), reason="the clock since boot is read from /proc"
)


@needs_proc
@pytest.mark.parametrize("shape", SHAPES)
def test_occurrences_under_a_clock_days_behind_still_count_once_it_is_corrected(
    dcg_exe: str, shape: str
) -> None:
    behind = faketime("-2d")
    # Four sessions, one occurrence each: warnings (history below its threshold of 5).
    assert [level(dcg_exe, f"behind-{i}", shape, behind) for i in range(4)] == ["warning"] * 4
    stamps = [str(r["timestamp"]) for r in history()]
    assert all(s < time.strftime("%Y-%m-%dT", time.gmtime(time.time() - 86400)) for s in stamps)
    # The clock is corrected: the fifth occurrence is the fifth in the window.
    assert level(dcg_exe, "corrected", shape) == "hard_block"
    # `dcg history` (the hook's reply points there) lists what the hook counted.
    listed = subprocess.run(
        [dcg_exe, "history", "--json"], capture_output=True, text=True, check=True
    ).stdout
    assert json.loads(listed)["occurrences"] == 5


@needs_proc
def test_a_clock_that_fell_behind_midway_does_not_hide_the_earlier_records(dcg_exe: str) -> None:
    """Timestamps out of order in the file (two real, two two days old, then real again):
    the records are still counted by the order they were written in."""
    assert [level(dcg_exe, f"real-{i}") for i in range(2)] == ["warning"] * 2
    assert [level(dcg_exe, f"behind-{i}", prefix=faketime("-2d")) for i in range(2)] == [
        "warning"
    ] * 2
    assert level(dcg_exe, "corrected") == "hard_block"


@needs_proc
def test_a_session_under_a_clock_days_behind_does_not_expire_once_it_is_corrected(
    dcg_exe: str,
) -> None:
    behind = faketime("-2d")
    said = [level(dcg_exe, "one-session", prefix=behind) for _ in range(3)]
    assert said == ["warning", "warning", "soft_block"]
    # Two days "later" by the wall clock, seconds later in truth: the same session.
    assert level(dcg_exe, "one-session") == "soft_block"


@needs_proc
def test_occurrences_under_a_clock_days_ahead_count_once_it_is_corrected(dcg_exe: str) -> None:
    ahead = faketime("+2d")
    assert [level(dcg_exe, f"ahead-{i}", prefix=ahead) for i in range(4)] == ["warning"] * 4
    assert level(dcg_exe, "corrected") == "hard_block"


def _write(records: list[dict[str, object]]) -> None:
    path = Path(os.environ["XDG_CONFIG_HOME"]) / "dcg" / "history.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    path.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records))
    path.chmod(0o600)


def _record(ts: float, **extra: object) -> dict[str, object]:
    rec: dict[str, object] = {
        "schema_version": 2,
        "timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts)),
    }
    rec.update(extra)
    rec.update(
        rule_id="core.git:reset-hard", pack_id="core.git", severity="high",
        response_level="warning", session_id="old", cwd=CWD, command_hash="sha256:" + "0" * 64,
        allowed=True, id="01", host="h", uid=os.getuid(), command=COMMAND,
    )  # fmt: skip
    return rec


@needs_proc
@pytest.mark.parametrize(
    ("case", "expected"),
    [
        # Stamped now by a clock a day ahead, written 25 hours ago in this boot: too old.
        ("ahead-but-old", "warning"),
        # Stamped two days ago by a clock behind, written ten minutes ago in this boot.
        ("behind-but-recent", "hard_block"),
        # Two days old by both clocks: outside the window, as always.
        ("old", "warning"),
        # No clock since boot (an older dcg, or no /proc): the timestamp decides.
        ("recent-without-boot", "hard_block"),
        ("old-without-boot", "warning"),
    ],
)
def test_the_window_counts_a_record_of_this_boot_by_its_real_age(
    dcg_exe: str, case: str, expected: str
) -> None:
    boot, up = _boot()
    now = time.time()
    mark = {
        "ahead-but-old": (now, {"boot": boot, "up": round(up - 90_000, 2)}),
        "behind-but-recent": (now - 2 * 86400, {"boot": boot, "up": round(up - 600, 2)}),
        "old": (now - 2 * 86400, {"boot": boot, "up": round(up - 2 * 86400, 2)}),
        "recent-without-boot": (now - 600, {}),
        "old-without-boot": (now - 2 * 86400, {}),
    }
    ts, extra = mark[case]
    _write([_record(ts, **extra) for _ in range(4)])
    assert level(dcg_exe, "fresh") == expected
