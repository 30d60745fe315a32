"""``dcg doctor``'s speed checks: timing, launcher and bytecode of the registered hook.

The registered command is timed against a bare start; the launcher it goes through and
whether its package can have bytecode are judged too.

The hook runs before every command an agent issues, so doctor times what the agent runs:
the registered command as a fresh process, once for a payload that mentions no guarded
tool and once for one that is stopped, interleaved with ``python -I -c pass`` of the same
interpreter. The verdicts (:func:`speed_findings`, :func:`launcher_findings`) take the
numbers as arguments, so they are tested without timing anything.
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import time
from typing import NamedTuple

from dcg import paths
from dcg.commands import _hooks

# Above these ratios to a bare start the hook is slower than dcg promises (the README's
# performance figures are 1.1 and 1.6; doctor's few runs on a busy machine need room).
NO_KEYWORD_LIMIT = 1.3
STOPPED_LIMIT = 2.2
ROUNDS = 7
# How the speed finding's detail starts (for reading it back).
SPEED_PATTERN = re.compile(r"^no keyword \d+\.\d\dx, stopped \d+\.\d\dx ")


class Speed(NamedTuple):
    """Median ratios to the bare start of the no-keyword and the stopped call."""

    no_keyword: float
    stopped: float
    bare_ms: float
    rounds: int


def ratios(samples: list[tuple[float, float, float]]) -> Speed:
    """``(bare, no keyword, stopped)`` seconds per interleaved round → median ratios."""
    bare = [s[0] for s in samples]
    return Speed(
        round(statistics.median(s[1] / s[0] for s in samples), 2),
        round(statistics.median(s[2] / s[0] for s in samples), 2),
        round(statistics.median(bare) * 1000, 1),
        len(samples),
    )


def interpreter_of(parsed: _hooks.Parsed) -> str:
    """The Python that runs the registered command (a launcher's shebang, when it has one)."""
    if parsed.entry is not None:
        return parsed.program
    import shutil

    launcher = parsed.program
    found = launcher if os.path.isabs(launcher) else shutil.which(launcher)
    try:
        with open(found or launcher, "rb") as f:
            first = f.readline(4096).decode("utf-8", "replace").strip()
    except OSError:
        return sys.executable
    words = first[2:].split() if first.startswith("#!") else []
    if words and os.path.basename(words[0]) == "env":
        words = [w for w in words[1:] if not w.startswith("-")]
    if words and os.path.isfile(words[0]):
        return words[0]
    return sys.executable


def measure(
    argv: list[str],
    python: str,
    no_keyword: bytes,
    stop: bytes,
    env: dict[str, str],
    limit: float = 20.0,
) -> Speed | None:
    """Time ``argv`` on both payloads, interleaved with the bare start; None if it fails
    or a call takes over ``limit`` seconds."""

    def once(cmd: list[str], data: bytes | None) -> float:
        return timed_run(cmd, data, env, limit)

    bare = [python, "-I", "-c", "pass"]
    try:
        once(bare, None)  # warm the page cache (and the bytecode, if it can be written)
        once(argv, no_keyword)
        once(argv, stop)
        samples = [(once(bare, None), once(argv, no_keyword), once(argv, stop))]
        for _ in range(ROUNDS - 1):
            samples.append((once(bare, None), once(argv, no_keyword), once(argv, stop)))
    except (OSError, subprocess.TimeoutExpired):
        return None
    return ratios(samples)


def timed_run(cmd: list[str], data: bytes | None, env: dict[str, str], limit: float) -> float:
    """Seconds ``cmd`` took on ``data`` (stdin closed when None); TimeoutExpired past
    ``limit``. A blocking wait bounded by a timer: subprocess's own timeout polls with
    sleeps that double up to 50 ms, which rounded a bare start of 9 ms up to 15.5."""
    import threading

    start = time.perf_counter()
    stdin = subprocess.DEVNULL if data is None else subprocess.PIPE
    proc = subprocess.Popen(
        cmd, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
    )
    timer = threading.Timer(limit, proc.kill)
    timer.start()
    try:
        proc.communicate(data)
    finally:
        timer.cancel()
    if proc.returncode == -9:
        raise subprocess.TimeoutExpired(cmd, limit)
    return time.perf_counter() - start


class Verdict(NamedTuple):
    """One speed finding, as doctor's Finding fields after the scope."""

    check: str
    ok: bool
    detail: str
    fix: str


def speed_verdict(speed: Speed | None, fix: str) -> Verdict:
    """The ``speed`` finding for measured ratios (a warning when over the limits)."""
    if speed is None:
        return Verdict("speed", False, "the hook command could not be timed", fix)
    detail = (
        f"no keyword {speed.no_keyword:.2f}x, stopped {speed.stopped:.2f}x a bare "
        f"`python -I -c pass` ({speed.bare_ms} ms; medians of {speed.rounds} interleaved runs)"
    )
    if speed.no_keyword <= NO_KEYWORD_LIMIT and speed.stopped <= STOPPED_LIMIT:
        return Verdict("speed", True, detail, "")
    limits = f"over {NO_KEYWORD_LIMIT}x / {STOPPED_LIMIT}x"
    return Verdict("speed", False, f"{detail}: slow, {limits}", fix)


def launcher_kind(parsed: _hooks.Parsed, script: str | None) -> str:
    """What the registered command starts through, in words (``script``: the launcher's
    text for ``dcg hook``)."""
    if parsed.entry is not None:
        form = " (an older install's)" if _hooks.old_entry(parsed.entry) else ""
        return f"the entry file{form} in isolated mode without site"
    text = script or ""
    if "pipx" in text or "/pipx/" in parsed.program:
        kind = "pipx's console script"
    elif "/uv/tools/" in text or "/uv/tools/" in parsed.program:
        kind = "uv's console script"
    elif "import re\n" in text:
        kind = "the console script of an older pip (it imports re)"
    else:
        kind = "a console script"
    return f"{kind} ({parsed.program}), which starts site and its .pth files first"


def launcher_verdict(
    parsed: _hooks.Parsed, script: str | None, *, project: bool, editable: bool, fix: str
) -> Verdict:
    """A warning when the hook goes through a launcher slower than the entry file.

    Project settings name ``dcg`` on PATH on purpose (they are shared); they are not
    flagged, only described.
    """
    kind = launcher_kind(parsed, script)
    if parsed.entry is not None:
        where = " (an editable checkout: found from the entry file's own place)" * editable
        return Verdict("launcher", True, kind + where, "")
    if project:
        return Verdict("launcher", True, f"{kind}; shared project settings run dcg on PATH", "")
    slow = f"slow launcher: {kind}" + (", of an editable install" if editable else "")
    return Verdict("launcher", False, slow, fix)


def bytecode_verdict(
    package: str,
    missing: int,
    writable: bool,
    *,
    dont_write: bool,
    entry: bool,
    python: str = sys.executable,
    unbundled: int = 0,
) -> Verdict:
    """Whether the hook's package has (or can get) bytecode, and its module bundle.

    ``dont_write``: PYTHONDONTWRITEBYTECODE is set, which only a launcher obeys (the entry
    file runs in isolated mode). ``unbundled``: hook modules the bundle does not serve
    (all of them when there is none), each then found and read as a file of its own.
    """
    compile_fix = f"{python} -I -m compileall -q {package} (as the directory's owner)"
    if missing and not writable:
        detail = f"{missing} modules of {package} have no bytecode and it is read-only"
        return Verdict("bytecode", False, detail + ": every call compiles them", compile_fix)
    if missing and dont_write and not entry:
        detail = f"{missing} modules without bytecode and PYTHONDONTWRITEBYTECODE is set"
        return Verdict("bytecode", False, detail, "dcg install (its hook ignores that variable)")
    if unbundled:
        detail = (
            f"the hook's module bundle lacks {unbundled} modules of {package} (missing, or "
            "built before an upgrade or an edit): each is found and read as a file of its own"
        )
        fix = "dcg install" if writable else f"{python} -I -m dcg.bundle (as the directory's owner)"
        return Verdict("bytecode", False, detail, fix)
    if missing:
        detail = f"{missing} modules of {package} get their bytecode at the first call"
        return Verdict("bytecode", True, detail, "")
    return Verdict("bytecode", True, f"{package} is compiled and its hook modules bundled", "")


def is_editable(package: str) -> bool:
    """Whether ``package`` (dcg's directory) lives outside any site-packages directory."""
    parts = os.path.abspath(package).replace("\\", "/").split("/")
    return not any(p in ("site-packages", "dist-packages") for p in parts)


class TestEnv:
    """A throwaway environment for running the hook: paranoid mode makes the answer a hard
    block whatever the counts; a copy of the user config in a temporary XDG_CONFIG_HOME
    keeps the runs out of the real history."""

    def __enter__(self) -> dict[str, str]:
        import shutil
        import tempfile

        self._tmp = tempfile.mkdtemp(prefix="dcg-doctor-")
        config = os.path.join(self._tmp, "config")
        os.makedirs(os.path.join(config, "dcg"), mode=0o700)
        if os.path.isfile(paths.user_config()):
            shutil.copy2(paths.user_config(), os.path.join(config, "dcg", "config.toml"))
        env = dict(os.environ)
        env |= {"DCG_RESPONSE_MODE": "paranoid", "XDG_CONFIG_HOME": config}
        env["DCG_SESSION_DIR"] = os.path.join(self._tmp, "sessions")
        return env

    def __exit__(self, *exc: object) -> None:
        # The hook hands due maintenance to a detached child after it answers; one may
        # still be writing here, so the removal is tried again for up to 2 s.
        import shutil

        for _ in range(40):
            shutil.rmtree(self._tmp, ignore_errors=True)
            if not os.path.lexists(self._tmp):
                return
            time.sleep(0.05)
