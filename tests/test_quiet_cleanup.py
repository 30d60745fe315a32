"""Issue 24, hook side: routine cleanups are silent, what looks like them and is not is
still stopped. Every case goes through the hook (tests/hookpath) in paranoid and standard
mode; the cwd is a project in the repository, not a temporary directory."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from hookpath import AGENTS, VARIANTS
from sandbox import bash, hook_verdict, write_files

PROJECT = Path(__file__).resolve().parent / "data" / "quiet" / "monorepo"


def _hook(command: str, mode: str = "paranoid", agent: str = "claude") -> tuple[str, str]:
    return hook_verdict(command, PROJECT, mode=mode, agent=agent)


# find selecting only build or cache output by name, deleting what it finds through
# -exec rm, xargs rm or sh -c: judged like `find … -delete`, which passes.
FIND_OUTPUT_SILENT = [
    "find . -name __pycache__ -type d -exec rm -rf {} +",
    "find . -type d -name __pycache__ -exec rm -rf {} \\;",
    "find . -name '__pycache__' -prune -exec rm -rf '{}' +",
    "find . -name __pycache__ | xargs rm -rf",
    "find . -name __pycache__ -print0 | xargs -0 rm -rf",
    "find . -type d -name node_modules -prune -exec rm -rf {} +",
    "find . \\( -name __pycache__ -o -name '*.pyc' \\) -exec rm -rf {} +",
    "find . -type d -name __pycache__ -o -type f -name '*.pyc' -delete",
    "find . -path '*/__pycache__/*' -delete",
    "find . -name '*.egg-info' -exec rm -rf {} +",
    "find apps packages -name .pytest_cache -execdir rm -rf {} +",
    "find . -name __pycache__ -exec sh -c 'rm -rf \"$1\"' _ {} \\;",
    "find . -name __pycache__ | sudo xargs rm -rf",
    "find . -iname .mypy_cache -type d -exec rm -r {} +",
]

# Names that are not output, an expression that lets other names through, a root outside
# the project, or a deleter that names more than find's matches: still stopped.
FIND_STOPPED = [
    ("find . -name src -exec rm -rf {} +", "core.filesystem:find-delete"),
    ("find . -name __pycache__ -o -name src -exec rm -rf {} +", "core.filesystem:find-delete"),
    ("find . ! -name __pycache__ -exec rm -rf {} +", "core.filesystem:find-delete"),
    ("find . -not -name '*.pyc' -delete", "core.filesystem:find-delete"),
    ("find / -name __pycache__ -exec rm -rf {} +", "core.filesystem:find-delete-critical"),
    ("find ~ -name __pycache__ -exec rm -rf {} +", "core.filesystem:find-delete-critical"),
    ("find . -name __pycache__ -exec rm -rf apps {} +", "core.filesystem:rm-rf"),
    ("find . -type d -exec rm -rf {} +", "core.filesystem:find-delete"),
    ("find . -path './apps/*' -exec rm -rf {} +", "core.filesystem:find-delete"),
    ("find . -path '*/../*/__pycache__' -exec rm -rf {} +", "core.filesystem:find-delete"),
    ("find . -name __pycache__ | xargs rm -rf apps", "core.filesystem:rm-rf"),
    ("find . -name __pycache__ -exec sh -c 'cat l | xargs rm -rf' \\;", "core.filesystem:rm-rf"),
    ("find . -regex '.*__pycache__' -exec rm -rf {} +", "core.filesystem:find-delete"),
    ("find /srv/app -name __pycache__ -exec rm -rf {} +", "core.filesystem:find-delete"),
    ("find . -name 'src*' -exec rm -rf {} +", "core.filesystem:find-delete"),
]

# A system package manager's cache or index, emptied after an install.
CACHE_SILENT = [
    "rm -rf /var/lib/apt/lists/*",
    "sudo rm -rf /var/lib/apt/lists/*",
    "rm -rf /var/lib/apt/lists",
    "apt-get update && apt-get install -y curl && rm -rf /var/lib/apt/lists/*",
    "rm -rf /var/cache/apt/archives/*.deb",
    "rm -rf /var/cache/apk/*",
    "rm -rf /var/cache/yum /var/cache/dnf",
    "rm -rf /root/.cache/pip",
    "rm -rf /var/cache/apt/* /var/lib/apt/lists/*",
    "rm -fr /var/lib/apt/lists/partial",
]

CACHE_STOPPED = [
    ("rm -rf /var/lib/apt", "core.filesystem:rm-rf"),
    ("rm -rf /var/lib/dpkg/*", "core.filesystem:rm-rf"),
    ("rm -rf /var/lib/apt/lists/../../dpkg", "core.filesystem:rm-rf"),
    ("rm -rf /var/cache/*", "core.filesystem:rm-rf-critical"),
    ("rm -rf /var/lib/*", "core.filesystem:rm-rf-critical"),
    ("rm -rf /var/lib/apt/lists/* apps", "core.filesystem:rm-rf"),
    ("rm -rf /var/cache/debconf", "core.filesystem:rm-rf"),
    ("rm -rf /var/lib/apt*", "core.filesystem:rm-rf"),
    ("rm -rf /var/cache/apt/../../lib/dpkg", "core.filesystem:rm-rf"),
    ("rm -rf /root", "core.filesystem:rm-rf-critical"),
]


@pytest.mark.parametrize("mode", ["paranoid", "standard"])
@pytest.mark.parametrize("command", FIND_OUTPUT_SILENT + CACHE_SILENT)
def test_routine_cleanup_is_silent(command: str, mode: str) -> None:
    level, text = _hook(command, mode)
    assert level == "none", text


@pytest.mark.parametrize("mode", ["paranoid", "standard"])
@pytest.mark.parametrize(("command", "rule"), FIND_STOPPED + CACHE_STOPPED)
def test_what_only_looks_like_cleanup_is_stopped(command: str, rule: str, mode: str) -> None:
    level, text = _hook(command, mode)
    # Standard mode warns at the first try where the safety net keeps a copy.
    assert level == "deny" if mode == "paranoid" else level != "none", text
    assert rule in text


@pytest.mark.parametrize("variant", VARIANTS)
def test_cleanup_in_every_variant(variant: str) -> None:
    shape = VARIANTS[variant]
    assert _hook(shape("find . -name __pycache__ -type d -exec rm -rf {} +"))[0] == "none"
    assert _hook(shape("rm -rf /var/lib/apt/lists/*"))[0] == "none"
    assert _hook(shape("find . -name src -type d -exec rm -rf {} +"))[0] == "deny"


@pytest.mark.parametrize("agent", AGENTS)
def test_cleanup_for_every_agent(agent: str) -> None:
    assert _hook("find . -name __pycache__ -exec rm -rf {} +", agent=agent)[0] == "none"
    assert _hook("find . -name src -exec rm -rf {} +", agent=agent)[0] == "deny"


# Self-protection judges what a command writes: searching or reading every file, or
# changing the owner of someone else's .config, is not an edit of dcg or an agent's hooks.
READ_ONLY_SILENT = [
    "find / -type f -exec grep -l foo {} +",
    "find / -type f -exec grep -rn password {} \\;",
    "find / -name '*.json' -exec cat {} +",
    "find ~ -type f -exec grep -l token {} +",
    "find / -xdev -type f -print0 | xargs -0 grep -l secret",
    "chown -R www-data:www-data /var/www/.config",
    "sudo chown -R deploy /var/www/app/.config",
    "chmod -R 755 /srv/site/.config",
    "find /tmp/build -name '*.o' -print0 | xargs -0 rm -f",
    "grep -r hooks ~/.claude",
]

SELF_WRITES_STOPPED = [
    ("find ~/.claude -type f -exec rm -f {} +", "core.dcg:edit-hooks"),
    ("find / -type f -exec grep -l x {} + > ~/.claude/settings.json", "core.dcg:edit-hooks"),
    ("chown -R nobody ~/.config/dcg", "core.dcg:write-state"),
    ("chmod -R 000 ~/.config/dcg", "core.dcg:write-state"),
    ("find ~/.config/dcg -type f -delete", "core.dcg:write-state"),
    ("find ~ -name settings.json -exec sed -i s/dcg/true/ {} +", "core.dcg:write-state"),
    ("find / -name '*.log' | xargs rm -f", "core.filesystem:find-delete-critical"),
]


@pytest.mark.parametrize("command", READ_ONLY_SILENT)
def test_reading_or_searching_is_not_self_protection(command: str) -> None:
    level, text = _hook(command)
    assert level == "none", text


# Deleting from all of /tmp: dcg's files are not there on a real machine (the tests keep
# their HOME and state in a temporary directory, so these run with them elsewhere).
TMP_SWEEPS = [
    "find /tmp -name '*.log' | xargs rm -f",
    "find /tmp -type f -mtime +7 | xargs rm -f",
    "find /tmp -type f -name '*.tmp' -exec rm -f {} +",
    "find /var/tmp -mindepth 1 -mtime +2 -delete",
]


@pytest.mark.parametrize("command", TMP_SWEEPS)
def test_sweeping_tmp_is_silent_when_dcg_lives_elsewhere(
    command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import dcg

    if Path(dcg.__file__).resolve().as_posix().startswith(("/tmp/", "/var/tmp/")):
        pytest.skip("this checkout of dcg lives in /tmp: sweeping it reaches dcg's program")
    away = "/nonexistent/dcg-quiet-home"
    for var in ("HOME", "DCG_SESSION_DIR", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        monkeypatch.setenv(var, away)
    monkeypatch.setenv("DCG_SYSTEM_CONFIG", away + "/etc/config.toml")
    assert _hook(command) == ("none", "")


@pytest.mark.parametrize(("command", "rule"), SELF_WRITES_STOPPED)
def test_writing_dcg_or_hooks_is_still_stopped(command: str, rule: str) -> None:
    level, text = _hook(command)
    assert level == "deny", text
    assert rule in text


# Real bash in a throwaway project: the silent cleanups delete only output, the stopped
# spellings destroy a source file.
SOURCES = ("src/app.py", "apps/web/main.js")


def _project(root: Path) -> Path:
    box = root / "box"
    write_files(box, dict.fromkeys((*SOURCES, "src/__pycache__/app.cpython-311.pyc",
                "node_modules/x/index.js", "pkg/__pycache__/m.pyc", "pkg/m.pyc",
                "x.egg-info/PKG"), "alive\n"))  # fmt: skip
    return box


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("command", FIND_OUTPUT_SILENT[:12])
def test_sandbox_silent_cleanup_keeps_the_sources(tmp_path: Path, command: str) -> None:
    box = _project(tmp_path)
    command = command.replace("apps packages", "src pkg")
    bash(command, box, timeout=30)
    assert all((box / rel).is_file() for rel in SOURCES), command


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize(
    "command",
    [
        "find . -name src -exec rm -rf {} +",
        "find . -name __pycache__ -o -name src -exec rm -rf {} +",
        "find . ! -name __pycache__ -exec rm -rf {} +",
        "find . -not -name '*.pyc' -delete",
        "find . -type d -exec rm -rf {} +",
        "find . -path './apps/*' -exec rm -rf {} +",
        "find . -name __pycache__ | xargs rm -rf apps",
        "find . -name 'src*' -exec rm -rf {} +",
    ],
)
def test_sandbox_stopped_spellings_destroy_a_source(tmp_path: Path, command: str) -> None:
    box = _project(tmp_path)
    bash(command, box, timeout=30)
    assert not all((box / rel).is_file() for rel in SOURCES), command
