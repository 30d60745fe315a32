"""The history window and the session expiry by the clock since boot (issue 27), in-process
with a simulated kernel clock: boots and uptimes this host cannot be made to have.

The end-to-end cases (a real wall clock moved by faketime under the installed hook) are in
test_clock_e2e.py; these add what depends on the boot: a record of an earlier boot, and
a session last active before a reboot.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from dcg.state import clock, session
from dcg.state import history as hist

RULE = "core.git:reset-hard"
DAY = 86400.0


class Kernel:
    """A boot id and an uptime at the real present, as ``clock.since_boot`` reads them."""

    def __init__(self, boot: str, up: float) -> None:
        self.boot, self.up = boot, up

    def __call__(self, now: float) -> tuple[str, float]:
        return self.boot, round(self.up + (now - time.time()), 2)


REAL = time.time


def write(path: Path, kernel: Kernel, skew: float) -> None:
    """One record as the hook writes it under a wall clock ``skew`` seconds off."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(clock, "since_boot", kernel)
        mp.setattr(time, "time", lambda: REAL() + skew)  # what faketime does
        hist.record(
            str(path), now=time.time(), rule_id=RULE, pack_id="core.git", severity="high",
            response_level="warning", session_id="s", cwd="/p", command_hash="sha256:0",
            allowed=True,
        )  # fmt: skip


# (what the records' kernel was, how far their wall clock was off, the kernel now, count)
CASES = [
    # This boot, the wall clock two days behind: counted by their real age (seconds).
    pytest.param(("b1", 5 * DAY), -2 * DAY, ("b1", 5 * DAY), 3, id="behind-same-boot"),
    # This boot, the wall clock two days ahead: counted (real age seconds).
    pytest.param(("b1", 5 * DAY), 2 * DAY, ("b1", 5 * DAY), 3, id="ahead-same-boot"),
    # This boot, written 25 h ago by the kernel, stamped now by a clock 25 h ahead: too old.
    pytest.param(("b1", 5 * DAY - 25 * 3600), 25 * 3600, ("b1", 5 * DAY), 0, id="ahead-old"),
    # An earlier boot, this one up for two days: outside a 24 h window, whatever the stamp.
    pytest.param(("b0", 9 * DAY), 2 * DAY, ("b1", 2 * DAY), 0, id="earlier-boot-future-stamp"),
    pytest.param(("b0", 9 * DAY), 0.0, ("b1", 2 * DAY), 0, id="earlier-boot-long-ago"),
    # An earlier boot, this one up for an hour: the timestamp decides (recent: counted).
    pytest.param(("b0", 9 * DAY), -600.0, ("b1", 3600.0), 3, id="earlier-boot-just-before"),
    pytest.param(("b0", 9 * DAY), -2 * DAY, ("b1", 3600.0), 0, id="earlier-boot-stamped-old"),
]


@pytest.mark.parametrize(("then", "skew", "now_kernel", "expected"), CASES)
def test_the_window_counts_by_the_clock_since_boot(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    then: tuple[str, float],
    skew: float,
    now_kernel: tuple[str, float],
    expected: int,
) -> None:
    path = tmp_path / "history.jsonl"
    for _ in range(3):
        write(path, Kernel(*then), skew)
    monkeypatch.setattr(clock, "since_boot", Kernel(*now_kernel))
    got, _ = hist.count(str(path), RULE, since=time.time() - DAY)
    fast, _ = hist.count(str(path), RULE, since=time.time() - DAY, pack_id="core.git",
                         severity="high")  # fmt: skip
    assert got == fast == expected


def test_a_large_history_is_searched_by_the_clock_since_boot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Thousands of records, then ten stamped two days back by a clock behind: the binary
    search over the file finds them by the clock since boot."""
    path = tmp_path / "history.jsonl"
    kernel = Kernel("b1", 9 * DAY)
    for _ in range(50):
        write(path, Kernel("b1", 6 * DAY), -3 * DAY)
    old = path.read_bytes()
    path.write_bytes(old * 200)  # 10,000 records three days old by both clocks
    for _ in range(10):
        write(path, kernel, -2 * DAY)
    monkeypatch.setattr(clock, "since_boot", kernel)
    assert hist.count(str(path), RULE, since=time.time() - DAY)[0] == 10


@pytest.mark.parametrize(
    ("then", "skew", "now_kernel", "live"),
    [
        pytest.param(("b1", 5 * DAY), -2 * DAY, ("b1", 5 * DAY), True, id="behind-same-boot"),
        pytest.param(("b1", 3 * DAY), 2 * DAY, ("b1", 5 * DAY), False, id="ahead-but-2d-old"),
        pytest.param(("b0", 9 * DAY), 0.0, ("b1", 2 * DAY), False, id="before-a-reboot-2d-ago"),
        pytest.param(("b0", 9 * DAY), -60.0, ("b1", 600.0), True, id="just-before-a-reboot"),
    ],
)
def test_a_session_expires_by_the_clock_since_boot(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    then: tuple[str, float],
    skew: float,
    now_kernel: tuple[str, float],
    live: bool,
) -> None:
    ident = session.Identity("s" * 32, "agent", agent="claude")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(clock, "since_boot", Kernel(*then))
        mp.setattr(time, "time", lambda: REAL() + skew)  # what faketime does
        for _ in range(3):
            session.bump(str(tmp_path), ident, RULE, time.time())
    monkeypatch.setattr(clock, "since_boot", Kernel(*now_kernel))
    count, _ = session.bump(str(tmp_path), ident, RULE, time.time())
    assert count == (4 if live else 1)


def test_a_record_start_cut_short_is_never_misread(monkeypatch: pytest.MonkeyPatch) -> None:
    """A head that ends inside the boot id or the uptime is judged by its timestamp, never
    by a number cut short (which could put a record of the window outside it)."""
    monkeypatch.setattr(clock, "since_boot", Kernel("b1", 5 * DAY))
    cut = hist.Cut(time.time() - DAY)
    stamp = clock.iso(time.time())
    line = (
        f'{{"schema_version":2,"timestamp":"{stamp}","boot":"b1","up":{5 * DAY:.2f},'
        '"rule_id":"core.git:reset-hard","pack_id":"core.git"}'
    ).encode()
    assert cut.inside(line) is True
    assert {cut.inside(line[:n]) for n in range(53, len(line))} == {True}
    earlier = line.replace(b'"b1"', b'"b0"')
    assert cut.inside(earlier) is False  # an earlier boot; this one began 5 days ago
    assert {cut.inside(earlier[:n]) for n in range(53, 66)} == {True}  # boot id cut: by stamp
