"""Running the installed ``dcg`` the way a person (at a terminal) and an agent (a hook) do."""

from __future__ import annotations

import json
import os
import select
import subprocess
from collections.abc import Sequence
from pathlib import Path


class Run:
    """One finished ``dcg`` process: exit code and the text of its streams."""

    def __init__(self, code: int, out: str, err: str) -> None:
        self.code = code
        self.out = out
        self.err = err

    def __repr__(self) -> str:
        return f"Run(code={self.code}, out={self.out!r}, err={self.err!r})"


# Where hook payloads say the agent works. Not under /tmp, where the test homes live:
# deleting inside a temp directory is allowed, and the tests need commands that are not.
PROJECT = "/work/dcg-e2e-project"


class Dcg:
    """The installed console script, run in a subprocess with the test's fake home."""

    def __init__(self, exe: str, cwd: Path) -> None:
        self.exe = exe
        self.cwd = cwd

    def env(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        env = dict(os.environ, COLUMNS="120", TERM="xterm-256color")
        env.update(extra or {})
        return env

    def __call__(
        self,
        *args: str,
        tty: bool = False,
        stdin: str | None = None,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
    ) -> Run:
        """``dcg ARGS``; with ``tty`` stdin is a terminal (as when a person types it)."""
        if tty:
            return self._with_tty([self.exe, *args], env, cwd, stdout_tty=False)
        proc = subprocess.run(
            [self.exe, *args],
            input=stdin if stdin is not None else "",
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            env=self.env(env),
            cwd=cwd or self.cwd,
        )
        return Run(proc.returncode, proc.stdout, proc.stderr)

    def terminal(self, *args: str, env: dict[str, str] | None = None) -> Run:
        """``dcg ARGS`` with stdin and stdout on a terminal: what a person sees."""
        return self._with_tty([self.exe, *args], env, None, stdout_tty=True)

    def _with_tty(
        self, argv: Sequence[str], env: dict[str, str] | None, cwd: Path | None, *, stdout_tty: bool
    ) -> Run:
        master, slave = os.openpty()
        try:
            proc = subprocess.Popen(
                argv,
                stdin=slave,
                stdout=slave if stdout_tty else subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=self.env(env),
                cwd=cwd or self.cwd,
                text=True,
            )
            os.close(slave)
            slave = -1
            chunks: list[bytes] = []
            if stdout_tty:
                while True:
                    ready, _, _ = select.select([master], [], [], 30)
                    if not ready:
                        break
                    try:
                        data = os.read(master, 65536)
                    except OSError:  # EIO: the child closed the terminal
                        break
                    if not data:
                        break
                    chunks.append(data)
                err = proc.stderr.read() if proc.stderr else ""
                out = b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")
            else:
                out, err = proc.communicate(timeout=60)
            code = proc.wait(timeout=60)
        finally:
            if slave >= 0:
                os.close(slave)
            os.close(master)
        return Run(code, out, err)

    def hook(
        self,
        command: str,
        *,
        cwd: str = PROJECT,
        session: str = "e2e-session",
        args: Sequence[str] = (),
        env: dict[str, str] | None = None,
    ) -> Run:
        """A Claude Code PreToolUse payload for ``command`` through ``dcg hook``."""
        payload = {
            "session_id": session,
            "cwd": cwd,
            "hook_event_name": "PreToolUse",
            "permission_mode": "default",
            "tool_name": "Bash",
            "tool_input": {"command": command},
        }
        return self("hook", *args, stdin=json.dumps(payload), env=env)


def decision(run: Run) -> str:
    """What the hook decided: ``pass`` (no opinion), or the response level it gave."""
    assert run.code == 0, run
    if not run.out.strip():
        return "pass"
    out = json.loads(run.out)["hookSpecificOutput"]
    level = out.get("responseLevel")
    if level:
        return str(level)
    if out.get("permissionDecision") == "deny":
        return "deny"
    return "warning" if out.get("additionalContext") else "pass"
