"""dcg's OpenCode plugins loaded by the real OpenCode (npm ``opencode-ai``), its own loader.

OpenCode v1 from 1.3.4 reads a module with a default export as a v1 plugin module and
requires its ``server()``: the combined v1+v2 file an older dcg wrote (default export
``{id, setup}`` only) was refused whole, leaving every command unchecked. The file dcg
writes when it cannot tell the version now carries ``server`` too. What doctor reports is
what this OpenCode does with the file (``opencode debug config`` in a throwaway home).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from dcg.commands import _opencode

pytestmark = pytest.mark.slow

# The current v1 release on npm when this was written (2026-12-04).
VERSION = "1.18.33"


@pytest.fixture(scope="module")
def real_opencode(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    npm = shutil.which("npm")
    assert npm is not None, "npm is needed to install OpenCode from the registry"
    root = tmp_path_factory.mktemp("opencode")
    argv = [npm, "install", "--no-audit", "--no-fund", "--prefix", str(root)]
    subprocess.run([*argv, f"opencode-ai@{VERSION}"], check=True, capture_output=True, timeout=600)
    bin_dir = root / "node_modules" / ".bin"
    assert (bin_dir / "opencode").exists()
    yield str(bin_dir)


@pytest.fixture
def on_path(real_opencode: str, monkeypatch: pytest.MonkeyPatch, isolated_home: Path) -> str:
    monkeypatch.setenv("PATH", f"{real_opencode}{os.pathsep}{os.environ['PATH']}")
    found = _opencode.version()
    assert found == VERSION
    return found


def _old_combined(argv: list[str]) -> str:
    """The combined file dcg wrote before: its default export had no server()."""
    server = "  // OpenCode v1 (1.3.4 and later) runs this.\n  server: DcgPlugin,\n"
    text = _opencode.plugin(argv, _opencode.BOTH)
    assert server in text
    return text.replace(server, "")


@pytest.mark.parametrize(
    ("which", "loads"),
    [
        pytest.param(_opencode.V1, True, id="v1"),
        pytest.param(_opencode.BOTH, True, id="v1+v2-with-server"),
        pytest.param("old", False, id="old-v1+v2"),
        pytest.param(_opencode.V2, False, id="v2-only"),
    ],
)
def test_the_real_loader_loads_what_dcg_writes(which: str, loads: bool, on_path: str) -> None:
    argv = ["/bin/true", "hook", "--agent", "opencode"]
    text = _old_combined(argv) if which == "old" else _opencode.plugin(argv, which)
    result = _opencode.real_load(text, timeout=120)
    assert result is not None, "OpenCode did not answer"
    assert result[0] is loads, result
    finding = _opencode.load_verdict(on_path, text, "plugins/dcg.js")
    assert finding[:2] == (loads, not loads), finding


def test_unknown_version_gets_a_file_every_v1_loads(on_path: str) -> None:
    # What install writes when `opencode --version` cannot be read (no OpenCode on PATH
    # at install time, a desktop build): it must load in the OpenCode installed later.
    text = _opencode.plugin(["/bin/true", "hook"], _opencode.api(None))
    assert _opencode.api(None) == _opencode.BOTH
    assert _opencode.real_load(text, timeout=120) == (
        True,
        "loaded by the OpenCode installed here (opencode debug config)",
    )
