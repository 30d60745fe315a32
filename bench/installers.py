"""Install this checkout the ways users do, run `dcg install`, time what it registered.

Used by ``bench/hook_latency.py --installers``: a venv of the system Python with its
bundled pip, the same with pip upgraded, pipx and ``uv tool install``. Each gets its own
throw-away HOME, where its ``dcg install --agent claude`` writes the hook command that
is then timed (the command an agent would run). pipx and uv are taken from PATH, or
installed from the package index into a scratch venv; when neither works their rows are
skipped, never failed. The uv row also reports the first call after installing (cold)
against the warm median.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
SYSTEM_PYTHON = shutil.which("python3") or sys.executable
# The three acceptance cases, plus a busy user's history for the bundled-pip venv.
CASES: list[tuple[str, str, dict[str, str], float | None]] = [
    ("no keyword (ls -la)", "ls -la", {}, 1.10),
    ("safe with keyword (git status)", "git status", {}, 1.35),
    ("stopped (git reset --hard)", "git reset --hard", {"DCG_RESPONSE_MODE": "paranoid"}, 1.60),
]
HISTORY_CASE = ("stopped, 10k history entries", "git reset --hard", {"HISTORY": "10000"}, 1.80)


class Installed(NamedTuple):
    name: str
    hook: list[str]  # the registered command, as argv
    launcher: str  # the installed `dcg` console script (timed as `dcg hook` for comparison)


def registered(settings: str) -> list[str]:
    """The dcg hook command a Claude-style settings file registers, as argv."""
    data = json.loads(Path(settings).read_text())
    for group in data.get("hooks", {}).get("PreToolUse", []):
        for hook in group.get("hooks", []):
            command = hook.get("command", "")
            if "dcg" in command:
                return shlex.split(command)
    raise SystemExit(f"no dcg hook registered in {settings}")


def _run(argv: list[str], env: dict[str, str] | None = None) -> str:
    done = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{shlex.join(argv)}: {(done.stderr or done.stdout)[-800:]}")
    return done.stdout


def dcg_install(dcg: str, home: Path) -> list[str]:
    """Run ``dcg install --agent claude`` with HOME=``home``; the command it registered."""
    (home / ".claude").mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"))
    _run([dcg, "install", "--agent", "claude"], env)
    return registered(str(home / ".claude" / "settings.json"))


def venv_install(where: Path, *, upgrade_pip: bool, editable: bool = False) -> Installed:
    _run([SYSTEM_PYTHON, "-m", "venv", str(where)])
    pip = [str(where / "bin" / "python"), "-m", "pip", "install", "-q"]
    version = _run([*pip[:3], "--version"]).split()[1]
    if upgrade_pip:
        _run([*pip, "-U", "pip"])
        version = _run([*pip[:3], "--version"]).split()[1]
    _run([*pip, *(["-e"] if editable else []), str(ROOT)])
    home = where.parent / f"{where.name}-home"
    name = f"venv, pip {version}" + (", editable" if editable else "")
    dcg = str(where / "bin" / "dcg")
    return Installed(name, dcg_install(dcg, home), dcg)


def _tool(name: str, scratch: Path) -> str | None:
    """``name`` (pipx or uv) from PATH, else pip-installed into a scratch venv."""
    found = shutil.which(name)
    if found:
        return found
    tools = scratch / "tools"
    if not (tools / "bin" / "python").exists():
        try:
            _run([SYSTEM_PYTHON, "-m", "venv", str(tools)])
        except RuntimeError:
            return None
    try:
        _run([str(tools / "bin" / "python"), "-m", "pip", "install", "-q", name])
    except RuntimeError:
        return None
    exe = tools / "bin" / name
    return str(exe) if exe.exists() else None


def _tool_env(scratch: Path) -> dict[str, str]:
    env = dict(os.environ)
    env |= {"PIPX_HOME": str(scratch / "pipx"), "PIPX_BIN_DIR": str(scratch / "pipx-bin")}
    env |= {"UV_TOOL_DIR": str(scratch / "uv"), "UV_TOOL_BIN_DIR": str(scratch / "uv-bin")}
    env["UV_CACHE_DIR"] = str(scratch / "uv-cache")
    # The uv on PATH, or the scratch one, is pipx's backend when present (its default).
    env["PATH"] = f"{scratch / 'tools' / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    if os.path.isdir("/opt/wheels"):
        env.setdefault("UV_FIND_LINKS", "/opt/wheels")
    return env


def pipx_install(scratch: Path) -> Installed | None:
    pipx = _tool("pipx", scratch)
    if pipx is None:
        return None
    _tool("uv", scratch)
    env = _tool_env(scratch)
    _run([pipx, "install", "--python", SYSTEM_PYTHON, str(ROOT)], env)
    home = scratch / "pipx-home"
    dcg = str(scratch / "pipx-bin" / "dcg")
    return Installed("pipx", dcg_install(dcg, home), dcg)


def uv_install(scratch: Path) -> Installed | None:
    uv = _tool("uv", scratch)
    if uv is None:
        return None
    env = _tool_env(scratch)
    _run([uv, "tool", "install", "-q", "--python", SYSTEM_PYTHON, str(ROOT)], env)
    home = scratch / "uv-home"
    dcg = str(scratch / "uv-bin" / "dcg")
    return Installed("uv tool install", dcg_install(dcg, home), dcg)


def first_call(hook: list[str], command: str) -> float:
    """Seconds of one hook call (the first after installing, when called first)."""
    import hook_latency

    home = Path(tempfile.mkdtemp(prefix="bench-cold-"))
    env = dict(os.environ, HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"))
    env["DCG_RESPONSE_MODE"] = "paranoid"
    start = time.perf_counter()
    subprocess.run(hook, input=hook_latency.payload(command), env=env, capture_output=True)
    took = time.perf_counter() - start
    shutil.rmtree(home, ignore_errors=True)
    return took


def cold_ratio(hook: list[str]) -> float:
    """The first call of ``hook`` (right after installing) over the median of nine calls
    straight after it, each in a fresh HOME: a cold call pays for any missing bytecode."""
    first = first_call(hook, "git reset --hard")
    warm = [first_call(hook, "git reset --hard") for _ in range(9)]
    return round(first / statistics.median(warm), 2)


def uv_cold(scratch: Path) -> float | None:
    """:func:`cold_ratio` right after ``uv tool install`` + ``dcg install``."""
    found = uv_install(scratch)
    return None if found is None else cold_ratio(found.hook)


def main(rounds: int, as_json: bool) -> int:
    import hook_latency

    results: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="bench-installers-") as tmp:
        scratch = Path(tmp)
        made: list[Installed] = []
        cold: dict[str, float] = {}
        for build in (
            lambda: venv_install(scratch / "bundled", upgrade_pip=False),
            lambda: venv_install(scratch / "upgraded", upgrade_pip=True),
            lambda: pipx_install(scratch),
            lambda: uv_install(scratch),
            lambda: venv_install(scratch / "editable", upgrade_pip=True, editable=True),
        ):
            try:
                found = build()
            except RuntimeError as exc:
                print(f"skipped: {exc}", file=sys.stderr)
                continue
            if found is None:
                continue
            if found.name == "uv tool install":
                cold[found.name] = cold_ratio(found.hook)
            made.append(found)
        for inst in made:
            cases = CASES + ([HISTORY_CASE] if inst is made[0] else [])
            # "[compare]" rows: the same calls through the installer's `dcg hook` launcher.
            rows = hook_latency.bench_processes(
                inst.hook, rounds, [inst.launcher, "hook"],
                python=hook_latency.python_of(inst.hook), cases=cases,
            )  # fmt: skip
            entry: dict[str, object] = {"installer": inst.name, "hook": shlex.join(inst.hook)}
            entry["rows"] = rows
            if inst.name in cold:
                entry["cold_over_warm"] = cold[inst.name]
            results.append(entry)
    if as_json:
        print(json.dumps(results, indent=2))
        return 0
    for entry in results:
        print(f"{entry['installer']}: {entry['hook']}")
        for r in entry["rows"]:  # type: ignore[attr-defined]
            target = "" if r["target"] is None else f"<= {r['target']}"
            print(f"  {r['case']:44} {r['median_ms']:>8} ms {r['ratio']:>6} {target}")
        if "cold_over_warm" in entry:
            print(f"  first call after install / warm call: {entry['cold_over_warm']}")
    return 0
