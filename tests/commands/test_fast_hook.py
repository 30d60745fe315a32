"""The hook command ``dcg install`` registers: ``<python> -I -S <package>/_entry.py``, a
tiny source file that loads ``dcg/_fast.py``'s cached bytecode and runs its ``main``.
Older installs registered ``_fast.py`` itself or its compiled copy ``__pycache__/
hook-entry.<tag>.pyc``: those are still dcg's, and install replaces them.

End to end: a real ``dcg install`` into a temporary HOME — from a regular (non-editable)
venv install and from this editable checkout — whose registered command, run the way the
agent runs it, stops ``git reset --hard`` and says nothing about ``ls``; uninstall gives
the settings back byte for byte; doctor times it. The doctor's verdicts are tested with
injected timings, never by expecting this busy machine to be fast.
"""

from __future__ import annotations

import io
import json
import os
import shlex
import subprocess
import sys
import time
import venv
from pathlib import Path

import pytest

import dcg
from dcg import bundle
from dcg._fast import FORMAT
from dcg.commands import _bytecode, _hooks
from dcg.commands import _doctor_speed as speed
from dcg.commands.doctor import doctor
from dcg.commands.install import install
from dcg.commands.uninstall import uninstall

ROOT = Path(__file__).resolve().parents[2]
PKG = Path(dcg.__file__).resolve().parent
# The compiled entry older installs registered, in the package's __pycache__.
OLD_ENTRY = f"hook-entry.{sys.implementation.cache_tag}.pyc"

# Settings the person had before install (dcg must give these bytes back).
BEFORE = '{\n    "model": "opus",\n    "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}\n}\n'  # noqa: E501


def _claude_payload(command: str) -> bytes:
    body = {
        "session_id": "fast-test",
        "cwd": "/tmp",
        "hook_event_name": "PreToolUse",
        "permission_mode": "default",
        "tool_name": "Bash",
        "tool_input": {"command": command},
    }
    return json.dumps(body).encode()


def _gemini_payload(command: str) -> bytes:
    body = {
        "session_id": "fast-test",
        "cwd": "/tmp",
        "hook_event_name": "BeforeTool",
        "tool_name": "run_shell_command",
        "tool_input": {"command": command},
    }
    return json.dumps(body).encode()


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DCG_", "PYTHON"))}
    env |= {"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")}
    env |= {"XDG_CACHE_HOME": str(home / ".cache"), "DCG_SESSION_DIR": str(home / "sessions")}
    return env | extra


def _registered(home: Path, agent: str) -> str:
    data = json.loads((home / _hooks.SPECS[agent].user_path).read_text())
    [(_, command)] = _hooks.registered(agent, data)
    return command


def _hook(command: str, payload: bytes, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    # As the agent runs it: a shell command line, in some unrelated directory.
    return subprocess.run(
        command, shell=True, input=payload.decode(), capture_output=True, text=True,
        env=env, cwd="/", timeout=60, check=False,
    )  # fmt: skip


def _install_and_check(dcg_bin: str, python: str, package: Path, tmp: Path) -> None:
    home = tmp / "home"
    (home / ".claude").mkdir(parents=True)
    (home / ".gemini").mkdir()
    settings = home / ".claude" / "settings.json"
    settings.write_text(BEFORE)
    env = _env(home)
    done = subprocess.run(
        [dcg_bin, "install", "--agent", "claude", "--agent", "gemini"],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done
    command = _registered(home, "claude")
    parsed = _hooks.parse_command(command)
    assert parsed is not None and parsed.entry is not None
    assert shlex.split(command)[:3] == [python, "-I", "-S"]
    assert Path(parsed.entry) == package / "_entry.py" and parsed.args == []
    assert not (package / "__pycache__" / OLD_ENTRY).exists(), "nothing compiled for it"
    assert _bytecode.stale(str(package)) == [], "install leaves the package compiled"
    assert bundle.stale(str(package)) == [], "and its hook modules bundled"
    gemini = _hooks.parse_command(_registered(home, "gemini"))
    assert gemini is not None and gemini.args == ["--agent", "gemini"]

    paranoid = _env(home, DCG_RESPONSE_MODE="paranoid")
    stop = _hook(command, _claude_payload("git reset --hard"), paranoid)
    assert stop.returncode == 0, stop
    decision = json.loads(stop.stdout)["hookSpecificOutput"]["permissionDecision"]
    assert decision == "deny"
    quiet = _hook(command, _claude_payload("ls"), paranoid)
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")
    stop = _hook(_registered(home, "gemini"), _gemini_payload("git reset --hard"), paranoid)
    assert stop.returncode == 2 or json.loads(stop.stdout).get("decision") == "deny", stop

    again = subprocess.run(
        [dcg_bin, "install", "--agent", "claude"],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert "already installed" in again.stdout, again
    gone = subprocess.run(
        [dcg_bin, "uninstall"], capture_output=True, text=True, env=env, timeout=120, check=False
    )
    assert gone.returncode == 0, gone
    assert settings.read_bytes() == BEFORE.encode()
    assert not (home / _hooks.SPECS["gemini"].user_path).exists()


@pytest.fixture(scope="module")
def regular_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv of this interpreter with its bundled pip and a regular install of the checkout."""
    where = tmp_path_factory.mktemp("venv") / "v"
    venv.create(where, with_pip=True)
    pip = [str(where / "bin" / "python"), "-m", "pip", "install", "-q", "--no-deps"]
    done = subprocess.run([*pip, str(ROOT)], capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        pytest.fail(f"could not install the checkout into a venv: {done.stderr[-2000:]}")
    return where


def test_regular_venv_install_registers_a_working_fast_command(
    regular_venv: Path, tmp_path: Path
) -> None:
    site = next((regular_venv / "lib").glob("python3*/site-packages"))
    python = str(regular_venv / "bin" / "python")
    _install_and_check(str(regular_venv / "bin" / "dcg"), python, site / "dcg", tmp_path)


def test_editable_checkout_registers_its_source_directory(dcg_exe: str, tmp_path: Path) -> None:
    # The test venv holds this checkout as an editable install (the README's test command).
    _install_and_check(dcg_exe, os.path.abspath(sys.executable), PKG, tmp_path)


def test_install_compiles_a_package_without_bytecode(regular_venv: Path, tmp_path: Path) -> None:
    site = next((regular_venv / "lib").glob("python3*/site-packages"))
    for cache in (site / "dcg").rglob("__pycache__"):
        for pyc in cache.iterdir():
            pyc.unlink()
    assert _bytecode.stale(str(site / "dcg"))
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    done = subprocess.run(
        [str(regular_venv / "bin" / "dcg"), "install", "--agent", "claude"],
        capture_output=True, text=True, env=_env(home), timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0 and "compiled" in done.stdout, done
    assert _bytecode.stale(str(site / "dcg")) == []


def test_entry_file_runs_without_the_launcher_or_site(tmp_path: Path) -> None:
    # The entry file finds its own package: no PYTHONPATH, no site-packages, no cwd.
    env = _env(tmp_path, DCG_RESPONSE_MODE="paranoid")
    argv = [sys.executable, "-I", "-S", str(PKG / "_entry.py")]
    run = subprocess.run(
        argv, input=_claude_payload("git reset --hard"), capture_output=True, env=env,
        cwd="/", timeout=60, check=False,
    )  # fmt: skip
    assert json.loads(run.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    # Run without -I, Python puts the package directory itself first on sys.path: the
    # entry takes it off again and finds the package from its place. _fast.py run as a
    # script (what older installs registered) works the same way.
    for entry in (PKG / "_entry.py", PKG / "_fast.py"):
        run = subprocess.run(
            [sys.executable, "-S", str(entry)], input=_claude_payload("git reset --hard"),
            capture_output=True, env=env, cwd="/", timeout=60, check=False,
        )  # fmt: skip
        assert json.loads(run.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_the_entry_is_a_few_lines_that_load_dcg_fast() -> None:
    # Python compiles the script it is given on every call: it stays tiny, and imports
    # nothing but sys (built in) before dcg._fast takes over.
    lines = [ln for ln in (PKG / "_entry.py").read_text().splitlines() if ln.strip()]
    code = [ln for ln in lines if not ln.lstrip().startswith(("#", '"""'))]
    assert len(code) <= 8, code
    assert [ln for ln in code if ln.startswith(("import", "from"))] == ["import sys"]


@pytest.fixture
def package(tmp_path: Path) -> Path:
    """A copy of the package, compiled and with its bundle, outside any install."""
    import shutil

    copy = tmp_path / "site" / "dcg"
    shutil.copytree(PKG, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert _bytecode.compile_package(sys.executable, str(copy)) is None
    bundle.build(str(copy))
    assert bundle.stale(str(copy)) == [] and _bytecode.stale(str(copy)) == []
    return copy


def _run_entry(
    package: Path, command: str, home: Path, entry: str = "_entry.py"
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-I", "-S", str(package / entry)],
        input=_claude_payload(command), capture_output=True, cwd="/", timeout=60, check=False,
        env=_env(home, DCG_RESPONSE_MODE="paranoid"),
    )  # fmt: skip


def test_an_edited_fast_py_runs_at_the_next_call(package: Path, tmp_path: Path) -> None:
    # An upgrade or an edit changed _fast.py: there is no copy of it to go stale, Python's
    # loader sees the source changed and compiles it again (and caches that).
    source = package / "_fast.py"
    text = source.read_text()
    anchor = "    gc.disable()\n"
    assert anchor in text
    source.write_text(text.replace(anchor, anchor + '    sys.stderr.write("edited\\n")\n', 1))
    run = _run_entry(package, "git reset --hard", tmp_path / "h")
    assert run.stderr == b"edited\n", run
    assert json.loads(run.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert _run_entry(package, "ls", tmp_path / "h").stdout == b""
    assert _bytecode.stale(str(package)) == [], "the new bytecode was cached"


def test_bytecode_of_another_python_is_not_run(package: Path, tmp_path: Path) -> None:
    # The interpreter was upgraded in place: the cached bytecode of _fast.py and the bundle
    # carry the old version's magic number. Python's loader compiles the source instead,
    # the bundle is passed over, and the hook still answers (before, the compiled entry
    # was refused: exit 1 on every call, which the agents treat as "run the command").
    for path in (package / "__pycache__" / f"_fast.{sys.implementation.cache_tag}.pyc",
                 Path(bundle.bundle_path(str(package)))):  # fmt: skip
        data = bytearray(path.read_bytes())
        at = 0 if path.suffix == ".pyc" else len(FORMAT)
        data[at] ^= 0xFF
        path.write_bytes(bytes(data))
    assert bundle.read_index(str(package)) is None
    run = _run_entry(package, "git reset --hard", tmp_path / "h")
    assert json.loads(run.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny", run
    assert _run_entry(package, "ls", tmp_path / "h").returncode == 0


def test_a_removed_package_s_entry_blocks(package: Path, tmp_path: Path) -> None:
    # dcg uninstalled with the hook left behind: Python's own exit 2 for a missing
    # script, which the agents that know that code treat as a block.
    (package / "_entry.py").unlink()
    run = _run_entry(package, "ls", tmp_path / "h")
    assert run.returncode == 2 and run.stdout == b"", run


def _old_compiled_entry(package: Path) -> Path:
    """What an older install's compiled entry did once its _fast.py had changed (an upgrade
    in place): run the current ``_fast.py`` as ``__main__``."""
    import importlib.util
    import marshal

    source = str(package / "_fast.py")
    code = compile(
        f"with open({source!r}, 'rb') as f:\n"
        f"    code = compile(f.read(), {source!r}, 'exec', dont_inherit=True)\n"
        f"exec(code, {{'__name__': '__main__', '__file__': {source!r}, "
        "'__builtins__': __builtins__})\n",
        "old-entry", "exec",
    )  # fmt: skip
    path = package / "__pycache__" / OLD_ENTRY
    path.write_bytes(importlib.util.MAGIC_NUMBER + bytes(12) + marshal.dumps(code))
    return path


def test_an_old_compiled_entry_still_runs_the_upgraded_hook(package: Path, tmp_path: Path) -> None:
    old = _old_compiled_entry(package)
    run = _run_entry(package, "git reset --hard", tmp_path / "h", f"__pycache__/{old.name}")
    assert json.loads(run.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny", run


@pytest.mark.parametrize(
    "command",
    [
        f"rm {PKG / '_entry.py'}",
        f"echo pass > {PKG / '_entry.py'}",
        f"mv {PKG / '_entry.py'} /tmp/x",
        f"chmod 000 {PKG / '_entry.py'}",
        f"truncate -s0 {PKG}/_entry.py",
        f"cd {PKG} && rm -f _entry.py",
        f"sed -i d {PKG}/_entry.py",
        f"cp /dev/null {PKG}/_entry.py",
        f"rm {PKG / '_fast.py'}",
        f"echo pass > {PKG / '_fast.py'}",
        f"sed -i d {PKG}/_fast.py",
        f"rm -rf {PKG}/__pycache__ {PKG}/_fast.py",
        f"cp /tmp/evil {PKG}/__pycache__/hook.cpython-311.bundle",
        f"cp /tmp/evil {PKG}/__pycache__/_fast.cpython-311.pyc",
        f"cp /tmp/evil {PKG}/__pycache__/{OLD_ENTRY}",
        f"echo > {PKG}/__pycache__/{OLD_ENTRY}",
        f"cd {PKG}/__pycache__ && rm hook-entry.*",
        f"python3 -c \"open('{PKG}/_entry.py', 'w').write('')\"",
        f"python3 -c \"import os; os.remove('{PKG}/_fast.py')\"",
    ],
)
def test_the_entry_file_is_protected_like_the_program(command: str) -> None:
    from dcg import hook

    out = io.StringIO()
    env = dict(os.environ, DCG_HOOK_DETAILS="1")
    code = hook.main([], stdin=io.BytesIO(_claude_payload(command)), stdout=out,
                     stderr=io.StringIO(), environ=env)  # fmt: skip
    specific = json.loads(out.getvalue())["hookSpecificOutput"]
    assert (code, specific["permissionDecision"]) == (0, "deny"), command
    assert str(specific["ruleId"]).startswith("core.dcg:"), command


# --- the two command forms -------------------------------------------------------------------

FORMS = [
    ("/opt/dcg/bin/dcg hook", ("/opt/dcg/bin/dcg", None, [])),
    ("dcg hook --agent codex", ("dcg", None, ["--agent", "codex"])),
    (
        "/v/bin/python -I -S /v/lib/python3.11/site-packages/dcg/_entry.py",
        ("/v/bin/python", "/v/lib/python3.11/site-packages/dcg/_entry.py", []),
    ),
    (
        "'/my venv/bin/python3.12' -I -S '/my src/dcg/_entry.py' --agent gemini",
        ("/my venv/bin/python3.12", "/my src/dcg/_entry.py", ["--agent", "gemini"]),
    ),
    # What older installs registered.
    (
        "/v/bin/python -I -S /v/lib/python3.11/site-packages/dcg/_fast.py",
        ("/v/bin/python", "/v/lib/python3.11/site-packages/dcg/_fast.py", []),
    ),
    (
        "'/my venv/bin/python3.12' -I -S '/my src/dcg/_fast.py' --agent gemini",
        ("/my venv/bin/python3.12", "/my src/dcg/_fast.py", ["--agent", "gemini"]),
    ),
    ("C:/py/python.exe -I -S C:/x/dcg/_fast.py", ("C:/py/python.exe", "C:/x/dcg/_fast.py", [])),
    (
        "/v/bin/python -I -S /v/dcg/__pycache__/hook-entry.cpython-311.pyc --agent codex",
        ("/v/bin/python", "/v/dcg/__pycache__/hook-entry.cpython-311.pyc", ["--agent", "codex"]),
    ),
]
NOT_DCG = [
    "dcg",
    "dcg hooks",
    "/usr/bin/dcgx hook",
    "python -I -S /x/other/_fast.py",
    "python -I -S /x/other/_entry.py",
    "python -I -S /x/dcg/entry.py",
    "node /x/dcg/_entry.py",
    "python -I -S /x/other/__pycache__/hook-entry.cpython-311.pyc",
    "python -I -S /x/dcg/hook-entry.cpython-311.pyc",
    "python -I -S /x/dcg/__pycache__/hook.cpython-311.pyc",
    "python /x/dcg/fast.py",
    "node /x/dcg/_fast.py",
    "python -I -S",
    "prettier --check",
    "'unterminated",
]


@pytest.mark.parametrize(("command", "parts"), FORMS)
def test_both_forms_are_dcg_s(command: str, parts: tuple[str, str | None, list[str]]) -> None:
    assert tuple(_hooks.parse_command(command) or ()) == parts
    assert _hooks.is_dcg_command(command)


@pytest.mark.parametrize("command", NOT_DCG)
def test_other_commands_are_not_dcg_s(command: str) -> None:
    assert _hooks.parse_command(command) is None


def test_fast_command_quotes_paths_for_the_shell() -> None:
    command = _hooks.fast_command("codex", "/a b/bin/python", "/c d/dcg/_entry.py")
    assert shlex.split(command) == [
        "/a b/bin/python",
        "-I",
        "-S",
        "/c d/dcg/_entry.py",
        "--agent",
        "codex",
    ]
    assert _hooks.parse_command(command) == (
        "/a b/bin/python",
        "/c d/dcg/_entry.py",
        ["--agent", "codex"],
    )


def test_reinstall_replaces_an_old_dcg_hook_command(tmp_path: Path) -> None:
    install(["claude"], exe="/old/bin/dcg", stdout=io.StringIO())
    out = io.StringIO()
    assert install(["claude"], stdout=out) == 0
    assert "hook command '/old/bin/dcg hook' -> " in out.getvalue()
    command = _registered(Path.home(), "claude")
    assert _hooks.parse_command(command) == (
        os.path.abspath(sys.executable),
        str(PKG / "_entry.py"),
        [],
    )
    assert uninstall(["claude"], stdout=io.StringIO()) == 0
    assert not (Path.home() / ".claude" / "settings.json").exists()


@pytest.mark.parametrize("old", [f"__pycache__/{OLD_ENTRY}", "_fast.py"])
@pytest.mark.parametrize("agent", ["claude", "gemini", "codex"])
def test_install_migrates_an_older_install_s_entry(old: str, agent: str) -> None:
    # An older dcg registered its compiled entry (or _fast.py where it could not write
    # that); after an upgrade, `dcg install` rewrites the command to the source entry.
    python = os.path.abspath(sys.executable)
    before = _hooks.fast_command(agent, python, str(PKG / old))
    spec = _hooks.SPECS[agent]
    path = Path.home() / spec.user_path
    path.parent.mkdir(parents=True, exist_ok=True)
    install([agent], stdout=io.StringIO())
    text = path.read_text()
    now = _hooks.fast_command(agent, python, str(PKG / "_entry.py"))
    assert shlex.quote(now) in text or json.dumps(now) in text or now in text
    path.write_text(text.replace(now, before))
    assert _hooks.registered(agent, _read_settings(path, agent))[0][1] == before
    out = io.StringIO()
    assert install([agent], stdout=out) == 0
    assert "already installed" not in out.getvalue(), out.getvalue()
    [(_, command)] = _hooks.registered(agent, _read_settings(path, agent))
    assert command == now, out.getvalue()
    assert uninstall([agent], stdout=io.StringIO()) == 0


def _read_settings(path: Path, agent: str) -> object:
    if path.suffix == ".toml":
        import tomllib

        return tomllib.loads(path.read_text())
    return json.loads(path.read_text())


def test_project_settings_keep_dcg_on_path() -> None:
    (Path.cwd()).mkdir(exist_ok=True)
    out = io.StringIO()
    project = Path.home() / "proj"
    project.mkdir()
    assert install(["claude"], project=True, cwd=str(project), stdout=out) == 0
    data = json.loads((project / ".claude" / "settings.json").read_text())
    assert _hooks.registered("claude", data)[0][1] == "dcg hook"


# --- doctor ---------------------------------------------------------------------------------


def test_ratios_are_medians_of_interleaved_pairs() -> None:
    samples = [(0.010, 0.011, 0.016), (0.020, 0.021, 0.030), (0.010, 0.030, 0.015)]
    got = speed.ratios(samples)
    assert (got.no_keyword, got.stopped, got.bare_ms, got.rounds) == (1.1, 1.5, 10.0, 3)


@pytest.mark.parametrize(
    ("samples", "ok"),
    [
        ([(0.010, 0.0105, 0.016)] * 5, True),
        ([(0.010, 0.016, 0.016)] * 5, False),  # no keyword 1.6x
        ([(0.010, 0.011, 0.030)] * 5, False),  # stopped 3.0x
    ],
)
def test_speed_verdict_flags_a_slow_hook(
    samples: list[tuple[float, float, float]], ok: bool
) -> None:
    verdict = speed.speed_verdict(speed.ratios(samples), "dcg install --agent claude")
    assert verdict.ok is ok
    assert "no keyword" in verdict.detail and "stopped" in verdict.detail
    assert (verdict.fix == "") is ok


def test_speed_verdict_when_the_command_cannot_run() -> None:
    verdict = speed.speed_verdict(None, "dcg install")
    assert not verdict.ok and verdict.fix == "dcg install"


def test_measure_gives_up_on_a_hook_that_hangs() -> None:
    hang = [sys.executable, "-I", "-c", "import sys, time; sys.stdin.read(); time.sleep(30)"]
    start = time.monotonic()
    assert speed.measure(hang, sys.executable, b"{}", b"{}", {}, limit=0.5) is None
    assert time.monotonic() - start < 10


def test_a_timed_call_is_not_rounded_up_to_a_polling_step() -> None:
    # 20 ms: polling with doubling sleeps (0.5, 1, 2, 4, 8, 16 ms) would see it at 31.5.
    runs = sorted(speed.timed_run(["sleep", "0.02"], None, dict(os.environ), 5) for _ in range(5))
    assert 0.02 <= runs[2] < 0.029, runs


OLD_PIP_SCRIPT = "#!/v/bin/python\n# -*- coding: utf-8 -*-\nimport re\nimport sys\n"
NEW_PIP_SCRIPT = "#!/v/bin/python\nimport sys\nfrom dcg.__main__ import main\n"


@pytest.mark.parametrize(
    ("command", "script", "project", "ok", "words"),
    [
        ("/v/bin/python -I -S /v/dcg/_entry.py", None, False, True, "entry file"),
        ("/v/bin/python -I -S /v/dcg/_fast.py", None, False, True, "older install"),
        ("/v/bin/dcg hook", OLD_PIP_SCRIPT, False, False, "older pip"),
        ("/v/bin/dcg hook", NEW_PIP_SCRIPT, False, False, "console script"),
        ("/h/.local/pipx/venvs/dcg/bin/dcg hook", NEW_PIP_SCRIPT, False, False, "pipx"),
        ("/h/.local/share/uv/tools/dcg/bin/dcg hook", NEW_PIP_SCRIPT, False, False, "uv"),
        ("dcg hook", NEW_PIP_SCRIPT, True, True, "project settings"),
    ],
)
def test_launcher_verdict(
    command: str, script: str | None, project: bool, ok: bool, words: str
) -> None:
    parsed = _hooks.parse_command(command)
    assert parsed is not None
    verdict = speed.launcher_verdict(parsed, script, project=project, editable=False, fix="F")
    assert verdict.ok is ok and words in verdict.detail
    assert verdict.fix == ("" if ok else "F")


def test_launcher_verdict_names_an_editable_install() -> None:
    parsed = _hooks.parse_command("/v/bin/dcg hook")
    assert parsed is not None
    verdict = speed.launcher_verdict(parsed, NEW_PIP_SCRIPT, project=False, editable=True, fix="F")
    assert "editable" in verdict.detail and not verdict.ok


@pytest.mark.parametrize(
    ("missing", "writable", "dont_write", "entry", "ok", "fix"),
    [
        (0, False, True, False, True, ""),
        (12, True, False, True, True, ""),  # the first call writes them
        (12, False, False, True, False, "compileall"),  # read-only: never
        (12, True, True, False, False, "dcg install"),  # a launcher obeys the variable
        (12, True, True, True, True, ""),  # isolated mode does not
    ],
)
def test_bytecode_verdict(
    missing: int, writable: bool, dont_write: bool, entry: bool, ok: bool, fix: str
) -> None:
    verdict = speed.bytecode_verdict(
        "/p/dcg", missing, writable, dont_write=dont_write, entry=entry
    )
    assert verdict.ok is ok and fix in verdict.fix


@pytest.mark.parametrize(
    ("missing", "writable", "unbundled", "ok", "fix"),
    [
        (0, True, 0, True, ""),
        (0, True, 40, False, "dcg install"),  # no bundle, or one from before an upgrade
        (0, False, 40, False, "-m dcg.bundle"),  # read-only: its owner writes it
        (12, False, 40, False, "compileall"),  # no bytecode at all comes first
    ],
)
def test_bundle_verdict(missing: int, writable: bool, unbundled: int, ok: bool, fix: str) -> None:
    verdict = speed.bytecode_verdict(
        "/p/dcg", missing, writable, dont_write=False, entry=True, unbundled=unbundled
    )
    assert verdict.ok is ok and fix in verdict.fix
    assert ok or str(unbundled) in verdict.detail or "no bytecode" in verdict.detail


def test_interpreter_of_a_launcher_is_its_shebang(tmp_path: Path) -> None:
    script = tmp_path / "dcg"
    script.write_text(f"#!{sys.executable}\nimport sys\n")
    parsed = _hooks.parse_command(f"{script} hook")
    assert parsed is not None and speed.interpreter_of(parsed) == sys.executable


def test_stale_sees_missing_and_outdated_bytecode(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "a.py").write_text("x = 1\n")
    assert _bytecode.stale(str(package)) == [str(package / "a.py")]
    assert _bytecode.compile_package(sys.executable, str(package)) is None
    assert _bytecode.stale(str(package)) == []
    (package / "a.py").write_text("x = 22\n")
    assert _bytecode.stale(str(package)) == [str(package / "a.py")]


def _doctor(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, object]]:
    monkeypatch.setenv("PATH", str(Path.home() / "no-bin"))
    out = io.StringIO()
    doctor(json_output=True, stdout=out)
    found: list[dict[str, object]] = json.loads(out.getvalue())
    return found


def test_doctor_reports_measured_ratios_of_the_fast_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    install(["claude"], stdout=io.StringIO())
    findings = {f["check"]: f for f in _doctor(monkeypatch) if f["scope"] == "claude"}
    assert findings["launcher"]["ok"] and findings["entry file"]["ok"]
    # Only that it produced numbers: this machine's load decides whether they are good.
    assert speed.SPEED_PATTERN.search(str(findings["speed"]["detail"]))


def test_doctor_flags_the_console_script_launcher(
    dcg_exe: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    install(["claude"], exe=dcg_exe, stdout=io.StringIO())
    findings = {f["check"]: f for f in _doctor(monkeypatch) if f["scope"] == "claude"}
    assert not findings["launcher"]["ok"] and not findings["launcher"]["fatal"]
    assert findings["launcher"]["fix"] == "dcg install --agent claude"
    assert speed.SPEED_PATTERN.search(str(findings["speed"]["detail"]))
    assert findings["self-test"]["ok"]


def test_doctor_reports_a_missing_entry_file(monkeypatch: pytest.MonkeyPatch) -> None:
    command = _hooks.fast_command("claude", sys.executable, "/nowhere/dcg/_entry.py")
    path = Path.home() / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"hooks": {"PreToolUse": [_hooks.entry("claude", command)]}}))
    findings = {f["check"]: f for f in _doctor(monkeypatch) if f["scope"] == "claude"}
    assert not findings["entry file"]["ok"] and findings["entry file"]["fatal"]


def test_doctor_tells_the_entry_from_an_older_install_s(package: Path) -> None:
    from dcg.commands.doctor import entry_finding

    current = entry_finding("claude", str(package / "_entry.py"), "dcg install", sys.executable)
    assert (current.ok, current.fatal, current.fix) == (True, False, "")
    # Older installs' entries still run the hook: a warning, fixed by install.
    source = entry_finding("claude", str(package / "_fast.py"), "dcg install", sys.executable)
    assert (source.ok, source.fatal, source.fix) == (False, False, "dcg install")
    assert "older install" in source.detail and "_entry.py" in source.detail
    compiled = str(_old_compiled_entry(package))
    old = entry_finding("claude", compiled, "dcg install", sys.executable)
    assert (old.ok, old.fatal, old.fix) == (False, False, "dcg install")
    # Compiled by another Python than the registered one: that Python refuses to run it.
    data = bytearray(Path(compiled).read_bytes())
    data[0] ^= 0xFF
    Path(compiled).write_bytes(bytes(data))
    other = entry_finding("claude", compiled, "dcg install", sys.executable)
    assert (other.ok, other.fatal, other.fix) == (False, True, "dcg install")
    assert "another version" in other.detail


def test_the_package_of_every_entry_form(package: Path) -> None:
    assert _hooks.entry_file() == str(PKG / "_entry.py")
    for entry in ("_entry.py", "_fast.py", f"__pycache__/{OLD_ENTRY}"):
        assert _hooks.package_of(str(package / entry)) == str(package)
    assert not _hooks.old_entry(str(package / "_entry.py"))
    assert _hooks.old_entry(str(package / "_fast.py"))
