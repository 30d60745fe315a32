"""The hook command dcg registers, in its two forms, and how to recognise either one.

``dcg install`` writes ``<python> -I -S <…>/dcg/_entry.py [--agent X]`` into your own
settings (the fast form: see ``dcg/_entry.py`` and ``dcg/_fast.py``) and ``dcg hook
[--agent X]`` into shared project settings; uninstall, doctor and re-installs recognise
every form as dcg's, and the fast form's older entries (``dcg/_fast.py`` run as a script,
its compiled copy ``dcg/__pycache__/hook-entry.<tag>.pyc``), which install replaces.
"""

from __future__ import annotations

import os
import shlex
import shutil
from typing import NamedTuple

from dcg._fast import ENTRY_SOURCE, FAST_SOURCE, OLD_ENTRY_PREFIX
from dcg.errors import DcgError


def dcg_executable() -> str:
    """Absolute path of the running ``dcg`` (what the agent must run)."""
    import sys

    argv0 = sys.argv[0] if sys.argv else ""
    if os.path.basename(argv0) in ("dcg", "dcg.exe") and os.path.isfile(argv0):
        return os.path.realpath(argv0) if not os.path.isabs(argv0) else argv0
    found = shutil.which("dcg")
    if found:
        return os.path.abspath(found)
    raise DcgError("cannot find the dcg executable; install dcg on PATH first")


# The fast entry file (dcg/_entry.py) and the interpreter flags it is registered with:
# isolated mode, no site (the file puts its own installation on sys.path).
ENTRY_NAME = ENTRY_SOURCE
FAST_FLAGS = ("-I", "-S")


def entry_file() -> str:
    """The entry file of the dcg that is running: where the package really lives (for an
    editable install, the checkout's ``src/dcg``), not where its launcher is."""
    import dcg

    return os.path.join(os.path.dirname(os.path.abspath(dcg.__file__)), ENTRY_NAME)


def package_of(entry: str) -> str:
    """The package directory of a registered entry (``…/dcg/_entry.py``, or an older
    install's ``…/dcg/_fast.py`` or ``…/dcg/__pycache__/hook-entry.<tag>.pyc``)."""
    where = os.path.dirname(entry)
    return os.path.dirname(where) if os.path.basename(where) == "__pycache__" else where


def old_entry(entry: str) -> bool:
    """Whether ``entry`` is what an older install registered rather than ``_entry.py``:
    ``_fast.py`` (compiled by Python on every call) or its compiled copy (tied to one
    Python version: after an in-place upgrade of the interpreter Python refuses it and the
    hook errors on every call). Both still run the hook; ``dcg install`` replaces them."""
    return _base(entry) != ENTRY_NAME


def _is_entry(path: str) -> bool:
    head, _, name = path.replace("\\", "/").rpartition("/")
    if name in (ENTRY_NAME, FAST_SOURCE):
        return _base(head) == "dcg"
    compiled = name.startswith(OLD_ENTRY_PREFIX) and name.endswith(".pyc")
    return compiled and _base(head) == "__pycache__" and _base(head.rpartition("/")[0]) == "dcg"


def interpreter() -> str:
    """The interpreter running dcg now, absolute, as the venv names it (not resolved: a
    venv's ``bin/python`` is what makes it that venv)."""
    import sys

    if not sys.executable:
        raise DcgError("cannot tell which Python runs dcg; run dcg install with its Python")
    return os.path.abspath(sys.executable)


def hook_command(agent: str, exe: str) -> str:
    """``dcg hook`` through the launcher ``exe`` (what people write by hand, and what
    ``--project`` registers: plain ``dcg`` found on PATH)."""
    return f"{shlex.quote(exe)} hook{agent_args(agent)}"


def fast_command(agent: str, python: str, entry: str) -> str:
    """The command ``dcg install`` registers: ``<python> -I -S <entry file> [--agent X]``."""
    words = (shlex.quote(python), *FAST_FLAGS, shlex.quote(entry))
    return " ".join(words) + agent_args(agent)


def agent_args(agent: str) -> str:
    """`` --agent NAME``, except for the agent whose spec says its command names none
    (``bare``: the payload plain ``dcg hook`` is documented for); the others are named so
    that a payload that looks like another agent's is still read the right way."""
    from dcg.agents import spec

    return "" if spec(agent).bare else f" --agent {agent}"


class Parsed(NamedTuple):
    """A registered dcg command taken apart: what runs it and the hook's own flags."""

    program: str  # the launcher (`dcg`) or the interpreter of the fast form
    entry: str | None  # the entry file of the fast form; None for `dcg hook`
    args: list[str]  # the flags after `hook` / after the entry file


def parse_command(command: object) -> Parsed | None:
    """``command`` as one of dcg's two hook forms, None when it is neither.

    ``<…>/dcg hook [flags]`` (any launcher named dcg) and ``<python> [-options] <…>/dcg/
    _entry.py [flags]`` (what install writes now), or an older install's ``_fast.py`` or
    compiled ``hook-entry.<tag>.pyc`` in its place; uninstall and doctor know all of them.
    """
    if not isinstance(command, str):
        return None
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if len(words) >= 2 and _base(words[0]).removesuffix(".exe") == "dcg" and words[1] == "hook":
        return Parsed(words[0], None, words[2:])
    i = 1
    while i < len(words) and words[i].startswith("-"):
        i += 1
    if i >= len(words) or not _base(words[0]).lower().startswith("python"):
        return None
    if not _is_entry(words[i]):
        return None
    return Parsed(words[0], words[i], words[i + 1 :])


def _base(path: str) -> str:
    return path.replace("\\", "/").rpartition("/")[2]


# dcg's script for agents that run only script files (Auggie): it runs one of the forms.
SCRIPT_NAME = "dcg-hook.sh"


def is_dcg_command(command: object) -> bool:
    if isinstance(command, str):
        try:
            words = shlex.split(command)
        except ValueError:
            words = []
        if len(words) == 1 and _base(words[0]) == SCRIPT_NAME:
            return True
    return parse_command(command) is not None
