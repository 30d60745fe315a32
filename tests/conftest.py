"""Test isolation: every test runs with HOME, XDG dirs and dcg state under tmp_path."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from dcg.hookio import HookRequest
from dcg.model import Match, Pack, Rule
from dcg.shell.command import Command

REAL_HOME = Path(os.path.expanduser("~"))


def _dcg_executable() -> str:
    exe = Path(sys.executable).parent / "dcg"
    if exe.exists():
        return str(exe)
    found = shutil.which("dcg")
    if found is None:
        pytest.fail("the dcg console script is not installed; run the README's test command")
    return found


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point every location dcg reads or writes at tmp_path; fail on writes to the real home."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".local" / "state"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("DCG_SESSION_DIR", str(tmp_path / "sessions"))
    monkeypatch.setenv("DCG_SYSTEM_CONFIG", str(tmp_path / "etc" / "config.toml"))
    for var in (
        "DCG_CONFIG",
        "DCG_PACKS",
        "DCG_RESPONSE_MODE",
        "DCG_SESSION_THRESHOLD",
        "DCG_HISTORY_THRESHOLD",
        "DCG_CRITICAL_ALWAYS_HARD",
        "NO_COLOR",
    ):
        monkeypatch.delenv(var, raising=False)
    real_dcg = REAL_HOME / ".config" / "dcg"
    before = _snapshot(real_dcg)
    yield home
    assert _snapshot(real_dcg) == before, "a test wrote to the real ~/.config/dcg"


def _snapshot(path: Path) -> list[tuple[str, float]]:
    if not path.exists():
        return []
    return sorted((str(p), p.stat().st_mtime) for p in path.rglob("*"))


CHECKOUT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def checkout_is_a_project(monkeypatch: pytest.MonkeyPatch) -> None:
    """A checkout in /tmp (``git clone … /tmp/x/dcg``) is still the tests' project.

    dcg rightly treats /tmp as scratch: deleting there passes. The fixtures under
    tests/data stand for real projects, so in-process tests judge them as a checkout
    anywhere else would be judged; a checkout outside temp directories changes nothing.
    """
    from dcg import safe_delete, targets

    real = targets.is_temp
    if not real(str(CHECKOUT)):
        return
    inside = str(CHECKOUT) + "/"

    def is_temp(path: str) -> bool:
        return not (path == str(CHECKOUT) or path.startswith(inside)) and real(path)

    monkeypatch.setattr(targets, "is_temp", is_temp)
    monkeypatch.setattr(safe_delete, "is_temp", is_temp)


@pytest.fixture
def dcg_exe() -> str:
    """Path of the installed dcg console script (the way agents run it)."""
    return _dcg_executable()


# Matches and requests built from a hand-made rule, for the graduation and state tests.
def _match(rule_id: str = "core.git:reset-hard", severity: str = "high") -> Match:
    pack_id, _, name = rule_id.partition(":")
    rule = Rule(
        name,
        severity=severity,  # type: ignore[arg-type]
        pattern=r"\bgit reset --hard\b",
        reason="discards uncommitted changes",
        explanation="Uncommitted changes to tracked files are lost for good.",
        alternative="git stash",
    )
    pack = Pack(pack_id, description="test pack", rules=(rule,))
    return Match(pack, rule, Command(("git", "reset", "--hard", "HEAD~1")))


def _request(
    command: str = "git reset --hard HEAD~1", cwd: str = "/work/p", sid: str | None = "s1"
) -> HookRequest:
    return HookRequest("claude", command, cwd=cwd, session_id=sid)


@pytest.fixture
def make_match() -> Callable[..., Match]:
    return _match


@pytest.fixture
def make_request() -> Callable[..., HookRequest]:
    return _request


def pytest_sessionstart(session: pytest.Session) -> None:
    """Compile and bundle the checkout's hook modules, as ``dcg install`` does: every test
    that runs the hook (in-process, ``dcg hook`` or the entry file) then loads them the way
    a user's hook does, and an edit made since the last run is compiled and bundled again.
    Without bytecode, the first test to import a module would pay for compiling it inside
    the hook's CPU budget (a fresh clone has none), which an installed hook never does."""
    from dcg import bundle
    from dcg.commands import _bytecode

    package = os.path.dirname(os.path.abspath(bundle.__file__))
    if _bytecode.stale(package):
        _bytecode.compile_package(sys.executable, package)
    if bundle.stale(package):
        bundle.build(package)


# The inner loop: `pytest -m "not slow"` leaves out the modules that run the installed hook
# over whole corpora, build bundles and venvs, or fuzz patterns (most of the suite's time).
# CI runs everything.
SLOW_MODULES = frozenset(
    (
        "test_hook_path",
        "test_redos",
        "test_fast_hook",
        "test_bundle",
        "test_precommit",
        "test_audit_ship",
        "test_doctor",
        "test_cli_e2e",
        "test_keywords",
        "test_oslite",
        "test_parse_vs_treesitter",
        "test_scripts_bypass",
        # tests/realagents: the real agent CLIs against a stand-in model.
        "test_real_claude",
        "test_real_codex",
        "test_real_gemini",
        "test_real_opencode",
        "test_real_qwen",
    )
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.stem in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
