"""Run a real agent CLI (installed here by ``./install``) against the stand-in model, in a sandbox.

The sandbox is the test's temporary HOME (``tests/conftest.py`` points HOME and the XDG
directories at it) and a git project beside it with uncommitted work. ``dcg install --agent
NAME`` writes the agent's settings there, the agent's own trust and onboarding state is
seeded there, and the CLI runs non-interactively with a dummy key, telemetry and update
checks off, its API base URL on 127.0.0.1. Nothing here knows how dcg's adapters work: the
tests look at the disk and at what the model was sent.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from standin import Action, Shape, StandIn, ToolNames, serve

HERE = Path(__file__).resolve().parent
BIN = HERE / "node_modules" / ".bin"
TIMEOUT = 240

# Variables of the machine's own agents and model clients that must not leak into a run.
_FOREIGN = (
    "ANTHROPIC_",
    "CLAUDE",
    "OPENAI_",
    "CODEX_",
    "GEMINI_",
    "GOOGLE_",
    "QWEN_",
    "OPENCODE",
    "OPENROUTER_",
    "DCG_RESPONSE_MODE",
)

# Telemetry, update checks and error reporting off, for every agent (each also gets its own).
_QUIET = {
    "DISABLE_TELEMETRY": "1",
    "DO_NOT_TRACK": "1",
    "NO_UPDATE_NOTIFIER": "1",
    "CI": "true",
    "NO_COLOR": "1",
    "TERM": "dumb",
}


@dataclass
class Sandbox:
    """A temporary HOME and a git project with uncommitted work."""

    home: Path
    project: Path


@dataclass(frozen=True)
class Agent:
    """How to drive one agent CLI."""

    name: str  # dcg's --agent name
    shape: Callable[[], Shape]
    tools: ToolNames
    argv: Callable[[str, Sandbox], list[str]]  # the non-interactive command for a prompt
    settings: Callable[[Path, Path], Path]  # (home, project) -> the hook settings dcg writes
    seed: Callable[[Path, Path, str], Mapping[str, str]]  # trust/config; returns extra env
    warns_model: bool  # does a dcg warning reach the model (README's table)?


class Run:
    """One finished agent run: its process result and the stand-in's record."""

    def __init__(
        self, done: subprocess.CompletedProcess[str], stand_in: StandIn, settings: bytes
    ) -> None:
        self.done = done
        self.stand_in = stand_in
        self.settings_before = settings  # the hook settings as the agent found them

    def describe(self) -> str:
        return (
            f"exit {self.done.returncode}\nstdout:\n{self.done.stdout[-3000:]}\n"
            f"stderr:\n{self.done.stderr[-3000:]}\nrequests: "
            + ", ".join(path for path, _ in self.stand_in.requests)
        )


def cli(name: str) -> str:
    """The path of an installed agent CLI; a failure (not a skip) when it is missing."""
    path = BIN / name
    if not path.exists():
        pytest.fail(
            f"{path} is missing: install the agent CLIs with `npm ci --prefix {HERE}` "
            "(.ci/run does it)"
        )
    return str(path)


def git(project: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=dcg", "-c", "user.email=dcg@example.invalid", *args],
        cwd=project,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def make_sandbox(root: Path, home: Path) -> Sandbox:
    """``root/project``: a repository whose ``notes.txt`` has a commit and uncommitted work."""
    project = root / "project"
    project.mkdir()
    git(project, "init", "-q", "-b", "main")
    (project / "notes.txt").write_text("committed\n")
    git(project, "add", "notes.txt")
    git(project, "commit", "-q", "-m", "first")
    (project / "notes.txt").write_text("committed\nwork in progress\n")
    return Sandbox(home, project)


def dcg_env(home: Path) -> dict[str, str]:
    """The test's environment (already isolated by conftest) without foreign agent variables."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(_FOREIGN)}
    env["HOME"] = str(home)
    env["PATH"] = os.pathsep.join((str(BIN), env.get("PATH", "/usr/bin:/bin")))
    return env | _QUIET


def merge_json(path: Path, extra: dict[str, Any]) -> None:
    """Add ``extra`` to a JSON settings file one level deep, keeping what is there (dcg's
    hooks): how an agent's own settings are seeded beside what dcg install wrote."""
    data: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
    for key, value in extra.items():
        data[key] = data.get(key, {}) | value if isinstance(value, dict) else value
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2))


def set_mode(home: Path, mode: str) -> None:
    """dcg's user config, read by the hook whatever environment the agent gives it."""
    config = home / ".config" / "dcg" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(f'[response]\nmode = "{mode}"\n')


def install(dcg_exe: str, agent: Agent, box: Sandbox) -> None:
    done = subprocess.run(
        [dcg_exe, "install", "--agent", agent.name],
        cwd=box.project,
        env=dcg_env(box.home),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _checkout() -> str:
    """HEAD and status of the repository these tests live in (a run must not change them)."""
    done = subprocess.run(
        ["git", "-C", str(HERE), "status", "--porcelain=v2", "--branch", "--untracked-files=all"],
        capture_output=True,
        text=True,
    )
    return done.stdout + done.stderr


def run(agent: Agent, box: Sandbox, script: Sequence[Action], prompt: str = "") -> Run:
    """Run the agent once on ``prompt`` with the stand-in answering ``script``."""
    checkout = _checkout()
    stand_in = StandIn(list(script), agent.tools, agent.shape())
    with serve(stand_in):
        # PWD too: OpenCode takes its project directory from PWD, not from its working
        # directory, and would otherwise run the model's commands in this checkout.
        env = dcg_env(box.home) | {"PWD": str(box.project)}
        env |= dict(agent.seed(box.home, box.project, stand_in.url))
        settings = agent.settings(box.home, box.project)
        before = settings.read_bytes() if settings.exists() else b""
        done = subprocess.run(
            agent.argv(prompt or "Do the task the user set up.", box),
            cwd=box.project,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
    assert _checkout() == checkout, (
        "the agent changed this checkout: a run must stay in its sandbox"
    )
    return Run(done, stand_in, before)
