"""Fixtures for the command-line tests: the installed ``dcg`` in the test's fake home."""

from __future__ import annotations

from pathlib import Path

import pytest
from dcgrun import Dcg


@pytest.fixture
def run(dcg_exe: str, tmp_path: Path) -> Dcg:
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    return Dcg(dcg_exe, work)
