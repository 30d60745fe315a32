"""The hook's own runtime is dcg's (issue 30): proven with a registered command of its own.

A throwaway venv runs the registered form (``<python> -I -S <package>/_entry.py``) the way
``dcg install`` writes it. The hook judges writes to that venv's interpreter as
``core.dcg:disable``, and a real bash shows that the same write silences the registered
command (the agents then run everything). A module named like the standard library's,
dropped next to the package, is never imported instead of it. And a repository cannot kill
or hang the hook through the git it runs (a clean filter, a ``git`` shim on PATH, a FIFO
named by a config include).
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

import dcg

PKG = Path(dcg.__file__).resolve().parent
STOPPED = "rm -rf ~"


def _payload(command: str, cwd: str) -> bytes:
    return json.dumps(
        {
            "session_id": "runtime",
            "transcript_path": "/tmp/t.jsonl",
            "cwd": cwd,
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command},
        }
    ).encode()


def _run(
    argv: list[str], command: str, cwd: str, env: dict[str, str] | None = None
) -> tuple[int, str]:
    environ = dict(os.environ, DCG_HOOK_DETAILS="1", **(env or {}))
    data = _payload(command, cwd)
    proc = subprocess.run(argv, input=data, capture_output=True, timeout=60, cwd=cwd, env=environ)
    return proc.returncode, proc.stdout.decode()


def _decision(out: str) -> tuple[str, str]:
    if not out.strip():
        return "", ""
    specific = json.loads(out)["hookSpecificOutput"]
    return specific.get("permissionDecision", "warn"), specific.get("ruleId", "")


@pytest.fixture
def venv_hook(tmp_path: Path) -> tuple[Path, list[str]]:
    """A venv of its own and the registered command run by its interpreter."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python3"
    return venv, [str(python), "-I", "-S", str(PKG / "_entry.py")]


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_replacing_the_hook_interpreter_is_stopped_and_really_silences_the_hook(
    tmp_path: Path, venv_hook: tuple[Path, list[str]]
) -> None:
    venv, hook = venv_hook
    work = str(tmp_path)
    assert _decision(_run(hook, STOPPED, work)[1])[0] == "deny"
    python = hook[0]
    attacks = [f"ln -sf /bin/true {python}", f"rm -rf {venv}", f"mv {venv} {venv}.off",
               f"cp /bin/true {python}"]  # fmt: skip
    for attack in attacks:
        decision, rule = _decision(_run(hook, attack, work)[1])
        assert (decision, rule) == ("deny", "core.dcg:disable"), attack
    # The first attack for real: the registered command now answers nothing, exit 0.
    subprocess.run(["bash", "-c", attacks[0]], check=True, timeout=30)
    code, out = _run(hook, STOPPED, work)
    assert (code, out) == (0, ""), "the interpreter swap did not silence the hook"


@pytest.mark.parametrize(
    "command",
    [
        "python -m pip install -e '.[test]'",
        "python3 -m pip install --upgrade pip",
        "{python} -m pip install requests",
        "python -m pytest -q tests/",
        "{python} -m venv .venv",
        "python -m pip uninstall -y requests",
    ],
)
def test_running_the_hooks_interpreter_is_not_running_dcg(
    tmp_path: Path, venv_hook: tuple[Path, list[str]], command: str
) -> None:
    """The hook's own venv first on PATH (an activated venv dcg lives in): its python runs
    what it is given, so ``python -m pip install`` is not ``dcg install``."""
    venv, hook = venv_hook
    for name in ("python", "python3"):
        if not (venv / "bin" / name).exists():
            (venv / "bin" / name).symlink_to("python3" if name == "python" else sys.executable)
    path = f"{venv / 'bin'}:{os.environ.get('PATH', '')}"
    line = command.format(python=hook[0])
    assert _run(hook, line, str(tmp_path), {"PATH": path}) == (0, ""), line


def test_a_module_dropped_next_to_the_package_does_not_shadow_the_stdlib(
    tmp_path: Path, isolated_home: Path
) -> None:
    site = tmp_path / "site"
    shutil.copytree(PKG, site / "dcg", ignore=shutil.ignore_patterns("__pycache__"))
    config = isolated_home / ".config" / "dcg"
    config.mkdir(parents=True, exist_ok=True)
    (config / "config.toml").write_text("[response]\n")  # the hook then imports tomllib
    (site / "tomllib.py").write_text("import os\nos._exit(0)\n")
    hook = [sys.executable, "-I", "-S", str(site / "dcg" / "_entry.py")]
    code, out = _run(hook, STOPPED, str(tmp_path))
    assert code == 0 and _decision(out)[0] == "deny", out


# --- the git the hook runs -----------------------------------------------------------------

# Kills the process that started git (the hook) when it runs inside git.
_KILLER = """#!/bin/sh
parent=$(awk '{print $4}' /proc/$PPID/stat)
echo "ran" >> "$KILLER_LOG"
kill -9 "$parent"
cat
"""


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    if shutil.which("git") is None:
        pytest.skip("needs git")
    path = tmp_path / "repo"
    path.mkdir()
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1")

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=path, env=env, check=True, capture_output=True)

    git("init", "-q")
    git("config", "user.email", "t@e")
    git("config", "user.name", "t")
    (path / "f.txt").write_text("one\n")
    git("add", "f.txt")
    git("commit", "-qm", "init")
    return path


def _dirty_same_size(repo: Path) -> None:
    """A change git can only see through the clean filter (same size, newer time)."""
    (repo / "f.txt").write_text("two\n")
    future = time.time() + 3600
    os.utime(repo / "f.txt", (future, future))


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_a_clean_filter_cannot_kill_the_hook(repo: Path, tmp_path: Path, dcg_exe: str) -> None:
    killer = tmp_path / "killer.sh"
    killer.write_text(_KILLER)
    killer.chmod(killer.stat().st_mode | stat.S_IEXEC)
    log = tmp_path / "killer.log"
    subprocess.run(["git", "config", "filter.k.clean", str(killer)], cwd=repo, check=True)
    (repo / ".gitattributes").write_text("*.txt filter=k\n")
    _dirty_same_size(repo)
    code, out = _run([dcg_exe, "hook"], "git reset --hard", str(repo), {"KILLER_LOG": str(log)})
    assert code == 0 and _decision(out)[1] == "core.git:reset-hard", (code, out)
    assert not log.exists(), "the repository's filter ran inside the hook"


def test_a_git_shim_on_path_is_not_run(repo: Path, tmp_path: Path, dcg_exe: str) -> None:
    shims = tmp_path / "shims"
    shims.mkdir()
    shim = shims / "git"
    # A shim is git itself: the process that started it is the hook.
    shim.write_text(
        _KILLER.replace('"$parent"', "$PPID").replace("cat\n", 'exec /usr/bin/git "$@"\n')
    )
    shim.chmod(0o755)
    log = tmp_path / "shim.log"
    _dirty_same_size(repo)
    env = {"PATH": f"{shims}:{os.environ['PATH']}", "KILLER_LOG": str(log)}
    code, out = _run([dcg_exe, "hook"], "git reset --hard", str(repo), env)
    assert code == 0 and _decision(out)[1] == "core.git:reset-hard", (code, out)
    assert not log.exists(), "a git found first on PATH ran inside the hook"


def test_a_fifo_in_a_config_include_does_not_hang_the_hook(
    repo: Path, tmp_path: Path, dcg_exe: str
) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with open(repo / ".git" / "config", "a") as f:
        f.write(f'[includeIf "gitdir:/"]\n\tpath = {fifo}\n')
    start = time.monotonic()
    for command in ("git rh", "git reset --hard"):  # an alias lookup reads the includes
        code, out = _run([dcg_exe, "hook"], command, str(repo))
        assert code == 0, out
    assert time.monotonic() - start < 20
