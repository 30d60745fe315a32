"""Adding an agent touches one file (issue 28): ``agents/<name>.py`` and nothing else.

A throwaway agent module is dropped into a copy of the package; with no other file of the
copy changed, ``dcg install --agent`` registers it, the registered hook detects its payload
and stops a destructive command in its protocol, and self-protection and the keyword
prefilter guard the files it reads hooks from. The registry those read is derived once
when the bundle is written (it rides in ``dcg.agents``' bundled code) and derived again
when an agent module changes or is added after that: an edit takes effect at once, as
for every other module the bundle serves.
"""

from __future__ import annotations

import filecmp
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import dcg
from dcg import agents, bundle

PKG = Path(dcg.__file__).resolve().parent
NAME = "zedagent"

MODULE = '''"""A throwaway agent for tests/agents/test_one_file.py."""

from __future__ import annotations

from dcg.agents._common import decision_reply, error_decision, mark, tool_call
from dcg.hookio import HookRequest, Reply

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.agents._common import Mark
    from dcg.agents._spec import Agent
    from dcg.hookio import Outcome

NAME = "zedagent"
ORDER = 1000
MARKS: tuple[Mark, ...] = (mark(0, ("zed_event", None)),)
HOOK_FILES: tuple[str, ...] = (".zedagent/hooks.json", "/etc/zedagent/hooks.json")
OWN_DIRS: tuple[str, ...] = ()

OUTPUT_FIELDS: dict[str, frozenset[str]] = {"": frozenset({"decision", "reason", "context"})}
_SHELLS = {"shell": "bash"}
FILE_TOOLS = frozenset({"write"})


def read(payload: dict[str, object]) -> HookRequest | None:
    return tool_call(NAME, payload, _SHELLS, FILE_TOOLS, interactive=False)


def render(request: HookRequest, outcome: Outcome, details: bool = False) -> Reply:
    return decision_reply(outcome, "deny", context="context")


def render_error(message: str) -> Reply:
    return error_decision(message)


def transcript_files(home: str) -> list[str]:
    import os

    path = os.path.join(home, ".zedagent", "log.zed")
    return [path] if os.path.isfile(path) else []


def read_transcript(path, fh, counts):  # type: ignore[no-untyped-def]
    from dcg.agents import _transcript as t

    for number, raw in enumerate(fh, start=1):
        line = t.decode(raw, counts) if t.candidate(raw, counts, (b'"run"',)) else None
        if line is not None and isinstance(line.get("run"), str):
            yield t.Command(line["run"], "bash", NAME, "zs", "", "/", f"{path}:{number}")


def plugin_check(text: str | None, path: str | None) -> tuple[str, bool, bool, str]:
    return ("zed settings", text is not None, text is None, f"read {path}")


def spec() -> Agent:
    from dcg.agents import _spec

    return _spec.Agent(
        name=NAME,
        title="Zed Agent (a test's)",
        shells=_SHELLS,
        file_tools=FILE_TOOLS,
        fields=OUTPUT_FIELDS,
        fields_source="tests/agents/test_one_file.py",
        fields_date="2026-12",
        user_path=".zedagent/hooks.json",
        project_path=".zedagent/hooks.json",
        home_dirs=(".zedagent",),
        binaries=("zedagent",),
        layout=_spec.Flat("PreToolUse", {"name": "dcg", "command": None, "timeout": 10}),
        probe=_spec.Probe(
            {
                "zed_event": "PreToolUse",
                "session_id": "dcg-doctor",
                "cwd": "{cwd}",
                "tool_name": "shell",
                "tool_input": {"command": "{command}"},
            },
            path=("decision",),
        ),
        fails=_spec.FAILS_OPEN,
        fail_text="a hook error lets the command run",
        transcripts=_spec.Transcripts(
            transcript_files, lambda path: path.endswith(".zed"), read_transcript
        ),
        check=plugin_check,
    )
'''

# Runs in a fresh interpreter with the copy first on sys.path: prints what dcg.agents says,
# and where it came from (the bundle or the source).
PROBE = """
import json, sys
root = sys.argv[1]
sys.path.insert(0, root)
if sys.argv[2] == "bundle":
    sys.path.insert(0, root + "/dcg")
    import _fast
    sys.path.pop(0)
    _fast.install_bundle(root + "/dcg")
import dcg.agents as agents
assert agents.__file__.startswith(root), agents.__file__
print(json.dumps({
    "loader": type(agents.__spec__.loader).__name__,
    "bundled": agents.DERIVED is not None,
    "agents": agents.AGENTS,
    "files": agents.protected_files(),
    "bare": agents.keyword_dirs()[0],
    "adapters": sorted(m for m in sys.modules if m.startswith("dcg.agents.")),
}))
"""


@pytest.fixture
def site(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    shutil.copytree(PKG, root / "dcg", ignore=shutil.ignore_patterns("__pycache__"))
    return root


def _env(home: Path) -> dict[str, str]:
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
            "XDG_CACHE_HOME": str(home / ".cache"), "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_STATE_HOME": str(home / ".local" / "state"),
            "DCG_SESSION_DIR": str(home / "sessions"), "DCG_RESPONSE_MODE": "paranoid"}  # fmt: skip


def _probe(site: Path, how: str = "bundle") -> dict[str, object]:
    run = subprocess.run(
        [sys.executable, "-I", "-S", "-c", PROBE, str(site), how],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    found: dict[str, object] = json.loads(run.stdout)
    return found


def _zed(command: str, cwd: str) -> bytes:
    body = {"zed_event": "PreToolUse", "session_id": "zed", "cwd": cwd,
            "tool_name": "shell", "tool_input": {"command": command}}  # fmt: skip
    return json.dumps(body).encode()


def _claude(command: str, cwd: str) -> bytes:
    body = {"session_id": "zed", "cwd": cwd, "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": command}}  # fmt: skip
    return json.dumps(body).encode()


def _run(command: str, stdin: bytes, home: Path) -> tuple[int, str]:
    """The hook's exit code and reply (stdout: every answer here is JSON there)."""
    run = subprocess.run(
        command, shell=True, input=stdin, capture_output=True, env=_env(home), cwd=home,
        timeout=60, check=False,
    )  # fmt: skip
    return run.returncode, run.stdout.decode()


def _entry(site: Path, agent: str | None = None) -> str:
    """The fast entry of the copy, as `dcg install` registers it."""
    words = [sys.executable, "-I", "-S", str(site / "dcg" / "_entry.py")]
    return shlex.join(words + (["--agent", agent] if agent else []))


def _only_new_file(site: Path) -> None:
    """The copy differs from the package by the agent module alone."""
    differ: list[str] = []

    def walk(cmp: filecmp.dircmp[str], rel: str) -> None:
        differ.extend(f"{rel}{n}" for n in cmp.diff_files + cmp.left_only + cmp.right_only)
        for name, sub in cmp.subdirs.items():
            walk(sub, f"{rel}{name}/")

    walk(filecmp.dircmp(PKG, site / "dcg", ignore=["__pycache__"]), "")
    assert differ == [f"agents/{NAME}.py"]


def test_a_new_agent_module_is_installed_detected_and_protected(site: Path, tmp_path: Path) -> None:
    (site / "dcg" / "agents" / f"{NAME}.py").write_text(MODULE)
    _only_new_file(site)
    home = tmp_path / "home"  # the isolated HOME (conftest)
    # `dcg install --agent zedagent`, with the copy's CLI: it writes the copy's bundle too.
    install = (
        "import sys; sys.path.insert(0, sys.argv[1]); from dcg.cli import main; "
        "sys.exit(main(['install', '--agent', sys.argv[2]]))"
    )
    run = subprocess.run(
        [sys.executable, "-c", install, str(site), NAME], capture_output=True, text=True,
        env=_env(home), cwd=home, timeout=120, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    settings = json.loads((home / ".zedagent" / "hooks.json").read_text())
    (entry,) = settings["hooks"]["PreToolUse"]
    registered = entry["command"]
    assert str(site / "dcg") in registered and registered.endswith(f"--agent {NAME}")
    assert bundle.stale(str(site / "dcg")) == []

    # The bundle serves the registry with the new agent in it, importing no adapter.
    found = _probe(site)
    assert found["loader"] == "BundleFinder" and found["bundled"]
    assert found["agents"][-1] == NAME and found["adapters"] == []  # type: ignore[index]
    assert ".zedagent" in found["bare"]  # type: ignore[operator]
    assert _probe(site, "source")["agents"] == found["agents"]

    # Its payload is detected (with and without --agent) and answered in its protocol.
    project = str(home)
    for command in (registered, _entry(site)):
        code, out = _run(command, _zed("git reset --hard", project), home)
        assert code == 0 and json.loads(out)["decision"] == "deny", (command, out)
        assert _run(command, _zed("git status", project), home) == (0, "")
    # Its hook files are dcg's to guard, under HOME, in a project and in /etc, from any
    # agent; reading them is not judged.
    for line in (
        "rm ~/.zedagent/hooks.json",
        "echo '{}' > .zedagent/hooks.json",
        "mv /etc/zedagent/hooks.json /tmp/x",
        "cd ~ && rm -rf .zedagent",
    ):
        code, out = _run(_entry(site), _claude(line, project), home)
        assert "core.dcg" in out, (line, out)
    code, out = _run(_entry(site), _claude("cat ~/.zedagent/hooks.json", project), home)
    assert (code, out) == (0, "")

    # Its transcripts are read by `dcg replay` (found in their place, or given by path,
    # and a choice of --agent), and doctor runs its own check.
    log = home / ".zedagent" / "log.zed"
    log.write_text('{"run": "git reset --hard"}\n{"other": 1}\nnot json\n')
    cli = (
        "import sys; sys.path.insert(0, sys.argv[1]); from dcg.cli import main; "
        "sys.exit(main(sys.argv[2:]))"
    )
    for args in (["replay", "--json"], ["replay", "--json", "--agent", NAME, str(log)]):
        run = subprocess.run(
            [sys.executable, "-c", cli, str(site), *args], capture_output=True, text=True,
            env=_env(home), cwd=home, timeout=120, check=False,
        )  # fmt: skip
        assert run.returncode == 0, run.stdout + run.stderr
        replayed = json.loads(run.stdout)
        assert replayed["scanned"] == 1 and replayed["malformed_lines"] == 1, replayed
        found = [(f["source"], f["session_id"]) for f in replayed["findings"]]
        assert found == [(f"{log}:1", "zs")], replayed
    run = subprocess.run(
        [sys.executable, "-c", cli, str(site), "doctor", "--json"], capture_output=True,
        text=True, env=_env(home), cwd=home, timeout=300, check=False,
    )  # fmt: skip
    checks = [f for f in json.loads(run.stdout) if f["check"] == "zed settings"]
    assert [(f["scope"], f["ok"]) for f in checks] == [(NAME, True)], run.stdout


def test_an_agent_module_edited_or_added_after_the_bundle_takes_effect(
    site: Path, tmp_path: Path
) -> None:
    package = site / "dcg"
    bundle.build(str(package))
    before = _probe(site)
    assert before["bundled"] and NAME not in before["agents"]  # type: ignore[operator]
    home = tmp_path / "home"  # the isolated HOME (conftest)
    line = "rm ~/.kiro/extra/settings.json"
    assert _run(_entry(site), _claude(line, str(home)), home) == (0, "")

    # An agent's hook files edited in place: the next call protects the new one.
    kiro = package / "agents" / "kiro.py"
    text = kiro.read_text()
    old = 'HOOK_FILES: tuple[str, ...] = (".kiro/hooks/", ".kiro/agents/")'
    assert old in text
    kiro.write_text(text.replace(old, old[:-1] + ', ".kiro/extra/")'))
    after = _probe(site)
    assert ".kiro/extra/" in after["files"][0]  # type: ignore[index]
    assert "core.dcg" in _run(_entry(site), _claude(line, str(home)), home)[1]

    # A module added: detected without rebuilding the bundle.
    (package / "agents" / f"{NAME}.py").write_text(MODULE)
    assert NAME in _probe(site)["agents"]  # type: ignore[operator]
    code, out = _run(_entry(site), _zed("git reset --hard", str(home)), home)
    assert code == 0 and json.loads(out)["decision"] == "deny"
    # And written into the bundle with the next build.
    bundle.build(str(package))
    rebuilt = _probe(site)
    assert rebuilt["bundled"] and NAME in rebuilt["agents"] and rebuilt["adapters"] == []  # type: ignore[operator]


@pytest.mark.parametrize("name", agents.AGENTS)
def test_every_agent_module_declares_its_hot_path_facts(name: str) -> None:
    module = agents.adapter(name)
    assert name == module.NAME and isinstance(module.ORDER, int)
    for rank, conds in module.MARKS:
        assert rank in (0, 1, 2, 3) and conds
        for key, want in conds:
            assert isinstance(key, str) and (want is None or isinstance(want, str | frozenset))
    assert module.HOOK_FILES and all(isinstance(p, str) for p in module.HOOK_FILES)
    assert all(d.startswith(".") for d in module.OWN_DIRS)
    # The safety net's notice goes to `systemMessage` only where the agent documents it.
    if getattr(module, "SYSTEM_MESSAGE", False):
        assert "systemMessage" in module.OUTPUT_FIELDS[""]


def test_orders_are_distinct_and_the_registry_follows_them() -> None:
    orders = [agents.adapter(n).ORDER for n in agents.AGENTS]
    assert orders == sorted(set(orders))
    assert agents.derive()[0] == agents.REGISTRY
