"""Running git for the safety net: bounded by the keep step's time, never running hooks.

Unlike :mod:`dcg.gitinfo` (a few milliseconds to name what is at risk), a snapshot needs
git to write objects and refs, so each call gets what is left of the keep step's
budget. git is the one :mod:`dcg.gitinfo` chooses (never a shim first on the agent's
PATH) in its fresh environment, and a repository's config must not run programs because
dcg keeps a copy (no fsmonitor, hooks, signing, pager or filter driver); optional locks
are off so that ``git status`` never rewrites the user's index.
"""

from __future__ import annotations

from dcg import gitinfo
from dcg import oslite as os
from dcg.safety import Unkept

TYPE_CHECKING = False
if TYPE_CHECKING:
    import subprocess
    from collections.abc import Mapping, Sequence

    from dcg.safety.budget import Budget

SAFE_CONFIG = (
    *gitinfo.SAFE_CONFIG,
    "-c", "commit.gpgSign=false", "-c", "gc.auto=0", "-c", "maintenance.auto=false",
)  # fmt: skip
IDENTITY = {
    "GIT_AUTHOR_NAME": "dcg",
    "GIT_AUTHOR_EMAIL": "dcg@localhost",
    "GIT_COMMITTER_NAME": "dcg",
    "GIT_COMMITTER_EMAIL": "dcg@localhost",
}
# A command without a budget (dcg undo) still never waits forever.
DEFAULT_TIMEOUT = 120.0


_off: dict[str, list[str] | None] = {}


def _filters_off(exe: str, cwd: str) -> list[str] | None:
    """gitinfo.filters_off, asked once per directory in a process."""
    if cwd not in _off:
        _off[cwd] = gitinfo.filters_off(exe, cwd, timeout=10.0)
    return _off[cwd]


class GitFailed(Exception):
    """git exited with an error the caller did not expect."""


class Git:
    """git in one directory (``-C cwd``), bounded by ``budget`` when one is given."""

    __slots__ = ("budget", "cwd")

    def __init__(self, cwd: str, budget: Budget | None = None) -> None:
        self.cwd = cwd
        self.budget = budget

    def start(
        self,
        args: Sequence[str],
        *,
        data: bytes | None = None,
        env: Mapping[str, str] | None = None,
        ok: tuple[int, ...] = (0,),
    ) -> Running:
        """Start ``git -C cwd ARGS`` without waiting: several can run at once."""
        import subprocess

        exe = gitinfo.program()
        off = _filters_off(exe, self.cwd) if exe else None
        if exe is None or off is None:
            raise GitFailed("cannot run git: no git installed at a fixed place")
        full = gitinfo.environment()
        full.update(IDENTITY)
        if env:
            full.update(env)
        try:
            proc = subprocess.Popen(
                [exe, *SAFE_CONFIG, *off, "-C", self.cwd, *args],
                stdin=subprocess.DEVNULL if data is None else subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=full,
                start_new_session=True,
            )
        except OSError as exc:
            raise GitFailed(f"cannot run git: {exc}") from None
        return Running(proc, str(args[0]), data, ok, self.budget)

    def run(
        self,
        args: Sequence[str],
        *,
        data: bytes | None = None,
        env: Mapping[str, str] | None = None,
        ok: tuple[int, ...] = (0,),
    ) -> bytes:
        """Standard output of ``git -C cwd ARGS``; GitFailed, or Unkept when out of time."""
        return self.start(args, data=data, env=env, ok=ok).output()

    def text(
        self,
        args: Sequence[str],
        *,
        data: bytes | None = None,
        env: Mapping[str, str] | None = None,
        ok: tuple[int, ...] = (0,),
    ) -> str:
        out = self.run(args, data=data, env=env, ok=ok)
        return out.decode("utf-8", "surrogateescape")

    def lines0(self, args: Sequence[str]) -> list[str]:
        """NUL-separated output as a list (``-z`` forms)."""
        return [p for p in self.text(args).split("\0") if p]


class Running:
    """A git process started by :meth:`Git.start`; :meth:`output` waits for it."""

    __slots__ = ("budget", "data", "name", "ok", "proc")

    def __init__(
        self,
        proc: subprocess.Popen[bytes],
        name: str,
        data: bytes | None,
        ok: tuple[int, ...],
        budget: Budget | None,
    ) -> None:
        self.proc = proc
        self.name = name
        self.data = data
        self.ok = ok
        self.budget = budget

    def output(self) -> bytes:
        import signal
        import subprocess

        proc = self.proc
        timeout = self.budget.left() if self.budget is not None else DEFAULT_TIMEOUT
        try:
            out, err = proc.communicate(self.data, timeout=timeout)
        except subprocess.TimeoutExpired:
            try:  # noqa: SIM105 (contextlib costs an import on the hook path)
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                pass
            proc.communicate()
            if self.budget is not None:
                raise self.budget.timed_out() from None
            raise GitFailed(f"git {self.name} did not finish") from None
        if proc.returncode not in self.ok:
            first = err.decode("utf-8", "replace").strip().splitlines()
            raise GitFailed(f"git {self.name}: {first[0] if first else proc.returncode}")
        return out

    def text(self) -> str:
        return self.output().decode("utf-8", "surrogateescape")

    def reap(self) -> None:
        """Kill and wait for the process if it is still running (another one failed)."""
        if self.proc.poll() is None:
            try:  # noqa: SIM105
                os.killpg(self.proc.pid, 9)
            except OSError:
                pass
            self.proc.communicate()


def keep_failed(exc: GitFailed) -> Unkept:
    return Unkept(f"git could not make the snapshot ({exc})")
