"""Whether dcg's package has bytecode the hook can load, and compiling it when not.

The hook starts as a fresh process before every command; without ``.pyc`` files each
start compiles every module it imports (a stopped command then costs several bare starts).
``uv tool install`` and pipx with the uv backend write none, and where the package
directory is read-only the hook can never write them itself.
"""

from __future__ import annotations

import os
import subprocess


def sources(package: str) -> list[str]:
    """Every ``.py`` file under ``package`` (its ``__pycache__`` directories skipped)."""
    found: list[str] = []
    for root, dirs, files in os.walk(package):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        found += [os.path.join(root, f) for f in sorted(files) if f.endswith(".py")]
    return found


def stale(package: str) -> list[str]:
    """The sources under ``package`` whose bytecode for this interpreter is missing or old."""
    import importlib.util

    magic = importlib.util.MAGIC_NUMBER
    out: list[str] = []
    for source in sources(package):
        try:
            with open(importlib.util.cache_from_source(source), "rb") as f:
                header = f.read(16)
            st = os.stat(source)
        except OSError:
            out.append(source)
            continue
        if len(header) < 16 or header[:4] != magic:
            out.append(source)
            continue
        if int.from_bytes(header[4:8], "little") & 1:
            continue  # hash-based: checked (or trusted) by the importer itself
        mtime = int.from_bytes(header[8:12], "little")
        size = int.from_bytes(header[12:16], "little")
        if mtime != int(st.st_mtime) & 0xFFFFFFFF or size != st.st_size & 0xFFFFFFFF:
            out.append(source)
    return out


def can_write(package: str) -> bool:
    """Whether the hook could write ``__pycache__`` files under ``package``."""
    for root, dirs, _files in os.walk(package):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        cache = os.path.join(root, "__pycache__")
        target = cache if os.path.isdir(cache) else root
        if not os.access(target, os.W_OK):
            return False
    return True


def compile_package(python: str, package: str) -> str | None:
    """Compile ``package`` with ``python`` the way the hook imports it (isolated mode, so
    no ``PYTHONPYCACHEPREFIX`` sends the files elsewhere); the error, None when it worked."""
    try:
        run = subprocess.run(
            [python, "-I", "-m", "compileall", "-q", "-j", "0", package],
            capture_output=True,
            text=True,
            timeout=120,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc)
    if run.returncode != 0:
        lines = (run.stderr or run.stdout).strip().splitlines()
        return lines[-1] if lines else f"compileall exited {run.returncode}"
    left = stale(package)
    return f"{len(left)} files still without bytecode (read-only?)" if left else None
