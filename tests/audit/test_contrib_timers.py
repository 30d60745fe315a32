"""The timer examples in contrib/ run `dcg audit ship`, and parse as what they claim to be."""

from __future__ import annotations

import configparser
import plistlib
import shutil
import subprocess
from pathlib import Path

import pytest

CONTRIB = Path(__file__).resolve().parents[2] / "contrib"
SERVICE = CONTRIB / "systemd" / "dcg-audit-ship.service"
TIMER = CONTRIB / "systemd" / "dcg-audit-ship.timer"
PLIST = CONTRIB / "launchd" / "dev.dcg.audit-ship.plist"


def _unit(path: Path) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(path.read_text())
    return parser


def test_the_systemd_service_runs_audit_ship_from_its_timer() -> None:
    service, timer = _unit(SERVICE), _unit(TIMER)
    assert service["Service"]["Type"] == "oneshot"
    assert service["Service"]["ExecStart"].split()[-3:] == ["dcg", "audit", "ship"]
    # A timer starts the service of its own name unless it says otherwise.
    assert "Unit" not in timer["Timer"] and TIMER.stem == SERVICE.stem
    assert timer["Timer"]["OnUnitActiveSec"] and timer["Install"]["WantedBy"] == "timers.target"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_systemd_accepts_the_units(tmp_path: Path) -> None:
    for unit in (SERVICE, TIMER):
        shutil.copy(unit, tmp_path / unit.name)
    proc = subprocess.run(
        ["systemd-analyze", "verify", str(tmp_path / TIMER.name), str(tmp_path / SERVICE.name)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert str(tmp_path) not in proc.stderr, proc.stderr  # no complaint about either file


def test_the_launchd_agent_runs_audit_ship_every_five_minutes() -> None:
    doc = plistlib.loads(PLIST.read_bytes())
    assert doc["Label"] == PLIST.name.removesuffix(".plist")
    assert doc["ProgramArguments"][-3:] == ["dcg", "audit", "ship"]
    assert doc["StartInterval"] == 300 and doc["RunAtLoad"] is True
