"""The suite passes wherever dcg is checked out: a clone named ``dcg``, a path with spaces,
a clone in /tmp (issue 24). The checkout is copied to ``<tmp>/dcg`` and ``<tmp>/a b/dcg``
and the tests that depend on where they run are run there, with the copy's package and a
``dcg`` console script of its own (a venv whose only package is the copy; its test
dependencies are borrowed from this interpreter's site-packages)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The tests the directory's name, a space in it or a temp location could change.
SUBSET = (
    "tests/commands/test_cli.py::test_explain_when_nothing_matches",
    "tests/commands/test_cli.py::test_test_command",
    "tests/test_quiet_projects.py::test_cwd_name_does_not_reach_the_engine",
    "tests/test_quiet_projects.py::test_explain_in_a_folder_named_dcg",
    "tests/test_quiet_projects.py::test_destruction_inside_a_workspace_package_is_stopped",
    "tests/test_quiet_projects.py::test_make_functions_are_make",
    "tests/test_quiet_cleanup.py::test_what_only_looks_like_cleanup_is_stopped",
    "tests/test_readme.py",
)


def _copy(dest: Path) -> None:
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout.decode().split("\0")  # fmt: skip
    for rel in filter(None, listed):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)


def _venv(dest: Path) -> Path:
    """A venv running the copy: its src first, then this interpreter's packages."""
    env = dest / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    python = env / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    ours = sysconfig.get_paths()["purelib"]
    Path(site, "checkout.pth").write_text(f"{dest / 'src'}\n{ours}\n")
    script = env / "bin" / "dcg"
    # pip's launcher for a path with spaces, which a #! line cannot hold.
    script.write_text(
        f"#!/bin/sh\n'''exec' \"{python}\" \"$0\" \"$@\"\n' '''\n"
        "import sys\nfrom dcg.__main__ import main\nsys.exit(main())\n"
    )
    script.chmod(0o755)
    return python


@pytest.mark.slow
@pytest.mark.parametrize("where", ["dcg", "a b/dcg"])
def test_the_suite_passes_in_a_clone_named_dcg(tmp_path: Path, where: str) -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    dest = tmp_path / where
    _copy(dest)
    python = _venv(dest)
    probe = subprocess.run(
        [str(python), "-c", "import dcg; print(dcg.__file__)"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert probe.stdout.startswith(str(dest)), probe.stdout
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DCG_"))}
    run = subprocess.run(
        [str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", *SUBSET],
        cwd=dest, capture_output=True, text=True, timeout=900, env=env, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
