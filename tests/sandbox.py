"""Throwaway projects for tests: work to lose, a line run in real bash, the hook's verdict.

A must-stop case is proven by running it in real bash inside a project made here (HOME,
TMPDIR and cwd all inside it) and seeing the work gone; an everyday line passes the hook
and keeps it. The hook is asked through :mod:`hookpath` (the agents' real payloads).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

from dcg import hook
from hookpath import AGENTS, VARIANTS, encode, payload, run, verdict

BASH = shutil.which("bash")
# Who commits in a sandbox repository (no global git configuration is read there).
GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@t",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@t",
}
CANARY = Path("src") / "canary"
WORK = "work\n"  # the canary's uncommitted text


def write_files(root: Path, files: Mapping[str, str]) -> None:
    """Each ``files`` path (relative to ``root``) written with its text, parents made."""
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


def box(
    base: Path, files: Mapping[str, str] | None = None, **env: str
) -> tuple[Path, dict[str, str]]:
    """``base/box`` holding ``src/canary`` ("alive"), a ``tmp`` and ``files``; the
    environment to run lines in it with (HOME and TMPDIR inside it, plus ``env``)."""
    where = base / "box"
    write_files(where, {str(CANARY): "alive\n", **(files or {})})
    (where / "tmp").mkdir()
    return where, {"HOME": str(where), "TMPDIR": str(where / "tmp"), "PATH": os.environ["PATH"],
                   **env}  # fmt: skip


def quiet_npm(base: Path) -> dict[str, str]:
    """For :func:`box`'s ``env``: npm's cache inside the box, and no update notice."""
    return {"npm_config_cache": str(base / "box" / "tmp" / "npm"),
            "npm_config_update_notifier": "false"}  # fmt: skip


def commit_then_change(project: Path, env: Mapping[str, str]) -> None:
    """A git repository of ``project`` as it is, then uncommitted work in its canary."""
    for git in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base"]):
        subprocess.run(["git", *git], cwd=project, env={**env, **GIT_IDENTITY}, check=True)
    (project / CANARY).write_text(WORK)


def lost(project: Path) -> bool:
    """Whether the canary's uncommitted work is gone."""
    canary = project / CANARY
    return not canary.exists() or canary.read_text() != WORK


def bash(command: str, cwd: Path, env: Mapping[str, str] | None = None, timeout: int = 60) -> None:
    """``command`` run by real bash in ``cwd`` (its output dropped, its status ignored)."""
    subprocess.run([BASH or "bash", "-c", command], cwd=cwd, env=env, timeout=timeout,
                   capture_output=True, check=False)  # fmt: skip


def hook_verdict(
    command: str,
    cwd: Path | str,
    *,
    agent: str = "claude",
    mode: str = "paranoid",
    details: bool = False,
    env: Mapping[str, str] | None = None,
) -> tuple[str, str]:
    """(verdict, reply text) of the hook on ``agent``'s payload for ``command`` in ``cwd``."""
    environ = dict(os.environ if env is None else env, DCG_RESPONSE_MODE=mode)
    if details:
        environ["DCG_HOOK_DETAILS"] = "1"
    code, out, err = run(encode(payload(agent, command, cwd=str(cwd))), env=environ)
    return verdict(code, out, err), out + err


def every_agent(command: str, cwd: Path) -> dict[str, tuple[str, str]]:
    """:func:`hook_verdict` (paranoid, with details) for every agent."""
    return {agent: hook_verdict(command, cwd, agent=agent, details=True) for agent in AGENTS}


def claude_decision(body: Mapping[str, object], **env: str) -> tuple[str, str]:
    """Claude's ``permissionDecision`` for ``body`` in paranoid mode with details, and its
    ``hookSpecificOutput`` as JSON (both empty when the hook says nothing); ``env`` is
    added to the hook's environment."""
    out, err = io.StringIO(), io.StringIO()
    env = dict(os.environ, DCG_RESPONSE_MODE="paranoid", DCG_HOOK_DETAILS="1", **env)
    hook.main([], io.BytesIO(json.dumps(body).encode()), out, err, env)
    text = out.getvalue()
    if not text:
        return "", ""
    spec = json.loads(text).get("hookSpecificOutput", {})
    return spec.get("permissionDecision", ""), json.dumps(spec)


def claude_hook(
    command: str, cwd: Path | str, variant: str = "plain", **env: str
) -> tuple[str, str]:
    """:func:`claude_decision` for ``command`` in ``cwd``, placed as ``VARIANTS[variant]``."""
    return claude_decision(payload("claude", VARIANTS[variant](command), str(cwd)), **env)
