"""How ``dcg scan`` judges one command line: the hook's engine and the hook's verdict.

A finding is exactly what the hook would stop in paranoid mode: the line goes through
:func:`dcg.service.run_engine` (same parse, same packs, same opt-in rules left out, same
CPU budget, a bound reached is ``core.dcg:too-complex``) and its matches through
:func:`dcg.graduation.respond_line` as ``dcg test`` calls it (allowlist entries excuse,
``[response.packs]`` modes apply, nothing is written). The one difference is that the
scripts a line runs (``./build.sh``, ``npm run X``) are not read again here: the scan
reads each of those files where it is written.

What a Dockerfile ``RUN`` step destroys is judged for where it runs (:func:`in_image`).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dcg.config import Config
    from dcg.model import Match
    from dcg.shell.command import Command

# Self-protection rules guard the host's dcg (its state, hook settings, program): an
# image being built has none of them. too-complex and too-large are not among these:
# what could not be read could reach anything.
_SELF_RULES = frozenset({"self-approve", "disable", "write-state", "edit-hooks", "snapshot-refs"})


def stopped(text: str, cfg: Config, cwd: str | None, shell: str = "bash") -> list[Match]:
    """The matches the hook stops on ``text`` in ``cfg``'s mode, one per simple command
    (the first stopped match of each: ``rm -rf ~`` is a home-directory deletion, not
    also a second finding for dcg's state inside it)."""
    return judged(text, cfg, cwd, shell)[0]


def judged(
    text: str, cfg: Config, cwd: str | None, shell: str = "bash"
) -> tuple[list[Match], tuple[Command, ...]]:
    """:func:`stopped`'s matches and the line's parsed simple commands, in order."""
    from dcg.commands.test import decide
    from dcg.hookio import HARD_BLOCK, SOFT_BLOCK, HookRequest
    from dcg.service import run_engine

    request = HookRequest("cli", text, cwd=cwd, shell=shell, tool="cli")
    budget = cfg.hook["budget_ms"]
    assert isinstance(budget, int)
    evaluation = run_engine(request, cfg, time.thread_time() + budget / 1000, read_files=False)
    line = decide(cfg, request, evaluation)
    if line is None or line.level not in (SOFT_BLOCK, HARD_BLOCK):
        return [], evaluation.commands
    seen: set[int] = set()
    out: list[Match] = []
    for item in line.items:
        verdict = item.verdict
        if item.via is not None or verdict is None or verdict.level not in (SOFT_BLOCK, HARD_BLOCK):
            continue
        if id(item.match.command) not in seen:
            seen.add(id(item.match.command))
            out.append(item.match)
    return out, evaluation.commands


def in_image(match: Match) -> bool:
    """``match``, in a Dockerfile ``RUN`` step (no bind mount), destroys only the image.

    A build step runs in the image's own file system, which the build throws away and
    rebuilds: a rule whose damage the safety net could keep (``keep`` other than
    ``"none"``: files, file contents, a work tree, refs — all local to the machine that
    runs the command) hits only the image, and so do dcg's self-protection rules (the
    image has no dcg state or agent settings of the host's). A rule whose damage is
    elsewhere (``keep="none"``: a remote, a database, a cloud account, a cluster) is
    still reported: ``RUN git push --force`` reaches the remote from inside the build.
    """
    if match.pack.id == "core.dcg":
        return match.rule.name in _SELF_RULES
    return match.rule.keep != "none"
