"""Issue 32: what git runs from disk, written in an earlier call or by the agent's file tool.

A hook in ``.git/hooks`` (or a ``core.hooksPath`` directory) runs on the next ``git
commit``/``checkout``/``merge``; ``core.fsmonitor``, ``diff.external`` or a clean filter
in the repository's config runs on the next ``git status``/``diff``/``add``. The setup
writes them the way an earlier call would; the git command alone then goes through the
hook (every hookpath variant) and must be stopped with the rule of what the code does,
and real git in a throwaway repository must lose the canary. A project's own hooks that
compute what they source (husky's) or run its tools pass.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from sandbox import claude_hook

RM = "core.filesystem:rm-rf"
HOOK = "#!/bin/sh\nrm -rf src\n"
IDENT = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
         "GIT_COMMITTER_EMAIL": "t@t"}  # fmt: skip

# (files to write, relative to the repository: path -> text; git config to set; command)
STOP = [
    ({".git/hooks/pre-commit": HOOK}, [], "git commit --allow-empty -qm wip"),
    ({".git/hooks/commit-msg": HOOK}, [], "git commit --allow-empty -m wip"),
    ({".git/hooks/post-checkout": HOOK}, [], "git checkout -q -b topic"),
    ({".git/hooks/post-checkout": HOOK}, [], "git switch -c topic"),
    ({".githooks/pre-commit": HOOK}, [("core.hooksPath", ".githooks")], "git commit -qam wip"),
    ({}, [("core.fsmonitor", "rm -rf src #")], "git status"),
    ({}, [("core.fsmonitor", "rm -rf src #")], "git add -A"),
    ({}, [("diff.external", "rm -rf src #")], "git diff"),
    (
        {".gitattributes": "*.txt filter=x\n", "n.txt": "n\n"},
        [("filter.x.clean", "rm -rf src #")],
        "git add n.txt",
    ),
]
PASS = [
    (
        {
            ".husky/_/pre-commit": '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n',
            ".husky/_/h": "#!/bin/sh\nexit 0\n",
        },
        [("core.hooksPath", ".husky/_")],
        "git commit -qm ok",
    ),
    ({".git/hooks/pre-commit": "#!/bin/sh\necho checking\n"}, [], "git commit -qm ok"),
    ({".git/hooks/pre-commit": HOOK}, [], "git log --oneline"),
    ({}, [("core.fsmonitor", "true")], "git status"),
    ({}, [("core.pager", "less -R")], "git status"),
]


def _repo(base: Path) -> tuple[Path, dict[str, str]]:
    repo = base / "proj"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "canary").write_text("alive\n")
    env = {"HOME": str(base), "TMPDIR": str(base), "PATH": os.environ["PATH"], **IDENT}
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base"]):
        subprocess.run(["git", *args], cwd=repo, env=env, check=True)
    (repo / "src" / "canary").write_text("work\n")
    return repo, env


def _setup(
    repo: Path, env: dict[str, str], files: dict[str, str], config: list[tuple[str, str]]
) -> None:
    for rel, text in files.items():
        path = repo / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        path.chmod(0o755)
    for key, value in config:
        subprocess.run(["git", "config", key, value], cwd=repo, env=env, check=True)


@pytest.mark.parametrize(("files", "config", "command"), STOP, ids=[c for _, _, c in STOP])
def test_what_git_runs_from_disk_is_judged(
    isolated_home: Path, files: dict[str, str], config: list[tuple[str, str]], command: str
) -> None:
    repo, env = _repo(isolated_home)
    _setup(repo, env, files, config)
    for variant in ("plain", "later-line", "after-tab", "after-crlf"):
        decision, details = claude_hook(command, repo, variant)
        assert decision == "deny", (variant, command, details)
        assert RM in details, details
    subprocess.run(["bash", "-c", command], cwd=repo, env=env, capture_output=True, timeout=60)
    assert not (repo / "src" / "canary").exists(), f"git did not run it: {command}"


@pytest.mark.parametrize(("files", "config", "command"), PASS, ids=[c for _, _, c in PASS])
def test_project_hooks_and_settings_pass(
    isolated_home: Path, files: dict[str, str], config: list[tuple[str, str]], command: str
) -> None:
    repo, env = _repo(isolated_home)
    _setup(repo, env, files, config)
    assert claude_hook(command, repo)[0] in ("", "allow"), command
    subprocess.run(["bash", "-c", command], cwd=repo, env=env, capture_output=True, timeout=60)
    assert (repo / "src" / "canary").exists(), command
