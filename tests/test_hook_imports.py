"""The hook's start-up cost: what `dcg hook` may import for a command that matches nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from collections.abc import Callable

# Modules whose import alone would cost a large share of the hook's budget.
FORBIDDEN = (
    "argparse",
    "logging",
    "subprocess",
    "dataclasses",
    "inspect",
    "tomllib",
    "typing",
    "json",
    "re",
    "enum",
    "hashlib",
    "datetime",
    "rich",
    "tomlkit",
)

PROBE = """
import io, json, sys
payload = sys.argv[1].encode()
before = set(sys.modules)
from dcg.__main__ import main
sys.stdin = io.TextIOWrapper(io.BytesIO(payload))
out = io.StringIO()
sys.stdout = out
code = main(["hook"])
sys.stdout = sys.__stdout__
loaded = sorted(set(sys.modules) - before)
print(json.dumps({"code": code, "out": out.getvalue(), "loaded": loaded}))
"""


def _run(
    command: str, tmp_path: Path, extra_env: dict[str, str] | None = None
) -> dict[str, object]:
    payload = json.dumps(
        {
            "session_id": "imports",
            "cwd": str(tmp_path),
            "hook_event_name": "PreToolUse",
            "permission_mode": "default",
            "tool_name": "Bash",
            "tool_input": {"command": command},
        }
    )
    import os

    env = dict(os.environ, **(extra_env or {}))
    # -I would drop site-packages; -S keeps the probe's own imports out of the picture.
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, payload], capture_output=True, text=True, env=env, check=True
    )
    result: dict[str, object] = json.loads(proc.stdout.splitlines()[-1])
    return result


def _top(names: object) -> set[str]:
    assert isinstance(names, list)
    return {n.split(".")[0] for n in names}


@pytest.mark.parametrize(
    "command",
    [
        pytest.param("ls -la", id="no-keyword"),
        pytest.param("npm test && make build", id="no-keyword-compound"),
        pytest.param("cat README.md | wc -l", id="no-keyword-pipe"),
        pytest.param("make test > /dev/null 2>&1", id="redirect-to-dev-null"),
        # The safety net's write check: a new file holds nothing to keep (no git, no re).
        pytest.param("echo hi > new-file.txt", id="write-to-a-new-file"),
        pytest.param("cp a.txt b.txt", id="copy-to-a-new-file"),
    ],
)
def test_no_match_imports_nothing_heavy(command: str, tmp_path: Path) -> None:
    result = _run(command, tmp_path)
    assert result["code"] == 0 and result["out"] == ""
    heavy = _top(result["loaded"]) & set(FORBIDDEN)
    assert not heavy, f"dcg hook imported {sorted(heavy)} for {command!r}"


@pytest.mark.parametrize(
    "command",
    [
        pytest.param("git status", id="git-status"),
        pytest.param("git log --oneline -5", id="git-log"),
    ],
)
def test_safe_git_imports_no_regex_engine(command: str, tmp_path: Path) -> None:
    result = _run(command, tmp_path)
    assert result["code"] == 0 and result["out"] == ""
    heavy = _top(result["loaded"]) & set(FORBIDDEN)
    assert not heavy, f"dcg hook imported {sorted(heavy)} for {command!r}"


def test_no_match_reads_no_state(tmp_path: Path) -> None:
    config = Path.home() / ".config" / "dcg"
    _run("ls -la", tmp_path)
    _run("git status", tmp_path)
    assert not config.exists()


def test_tomllib_only_when_a_config_file_exists(tmp_path: Path) -> None:
    result = _run("git status", tmp_path)
    assert "tomllib" not in _top(result["loaded"])
    config = Path.home() / ".config" / "dcg" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[response]\nmode = "strict"\n')
    result = _run("git status", tmp_path)
    assert "tomllib" in _top(result["loaded"])


# The registered command's way in (``python -I -S <package>/_entry.py``): no ``site``, so
# nothing has imported ``os`` before the hook; run in-process to see what the hook loads.
ENTRY_PROBE = """
import io, sys
package = sys.argv[1]
sys.path.insert(0, package)
import _fast
sys.path[0] = package.rpartition("/")[0]
_fast.install_bundle(package)
from dcg.hook import main
out, sys.stdout = sys.stdout, io.StringIO()
code = main(sys.argv[2:])
answer, sys.stdout = sys.stdout.getvalue(), out
print(code, " ".join(sorted(n for n in sys.modules if not n.startswith("dcg"))))
print(answer)
"""


def _entry(payload: dict[str, object], tmp_path: Path, argv: tuple[str, ...] = ()) -> list[str]:
    import os

    import dcg

    home = tmp_path / "home"
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
           "XDG_CACHE_HOME": str(home / ".cache"), "XDG_CONFIG_HOME": str(home / ".config"),
           "DCG_SESSION_DIR": str(home / "sessions"), "DCG_RESPONSE_MODE": "paranoid"}  # fmt: skip
    run = subprocess.run(
        [sys.executable, "-I", "-S", "-c", ENTRY_PROBE, str(Path(dcg.__file__).parent), *argv],
        input=json.dumps(payload), env=env, cwd=tmp_path, capture_output=True, text=True,
        timeout=60, check=True,
    )  # fmt: skip
    return run.stdout.splitlines()


def _bash(command: str) -> Callable[[Path], dict[str, object]]:
    def make(cwd: Path) -> dict[str, object]:
        return {"session_id": "imports", "cwd": str(cwd), "hook_event_name": "PreToolUse",
                "tool_name": "Bash", "tool_input": {"command": command}}  # fmt: skip

    return make


def _write_dcg_config(cwd: Path) -> dict[str, object]:
    target = cwd / "home" / ".config" / "dcg" / "config.toml"
    return {"session_id": "imports", "cwd": str(cwd), "hook_event_name": "PreToolUse",
            "tool_name": "Write",
            "tool_input": {"file_path": str(target), "content": "x"}}  # fmt: skip


@pytest.mark.parametrize(
    ("payload", "decision"),
    [
        pytest.param(_bash("git status"), "", id="safe-git"),
        pytest.param(_bash("git reset --hard"), "deny", id="stopped"),
        pytest.param(_bash("rm -rf ./src ~/notes"), "deny", id="stopped-rm"),
        pytest.param(_bash("python3 -c \"import shutil; shutil.rmtree('/srv/app/data')\""), "deny",
                     id="stopped-interpreter"),
        pytest.param(_write_dcg_config, "deny", id="file-tool-on-dcg-config"),
    ],
)  # fmt: skip
def test_the_registered_command_never_imports_os(
    payload: object, decision: str, tmp_path: Path
) -> None:
    # os costs ~1.5 ms (its environ needs _collections_abc): dcg.oslite stands in for it.
    assert callable(payload)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text("work\n")
    for _ in range(2):  # the second call runs with the expression cache the first wrote
        (code_and_modules, *answer) = _entry(payload(tmp_path), tmp_path)
    code, *modules = code_and_modules.split()
    assert code == "0"
    assert decision in "".join(answer) and (decision or not "".join(answer))
    assert "os" not in modules and "_collections_abc" not in modules, " ".join(modules)
