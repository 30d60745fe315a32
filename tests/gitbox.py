"""A throwaway git project for the git bypass tests: real bash, real git, nothing outside.

``make`` builds, under a test's tmp_path, a repository with three commits on ``main``
(``src/a.py`` v1→v2→v3), a ``feature`` branch with one unique commit (``src/a.py``
"feature", in conflict with v3), an annotated tag ``v1``, an uncommitted edit to
``src/canary``, an untracked ``src/new.py``, a bare remote ``origin`` holding ``main`` and
``teammate``, user config files ``h/.gitconfig`` and ``cfg0`` defining the aliases
``x = reset --hard`` and ``y = !git clean -fdx``, and a submodule ``vendor/lib`` with an
uncommitted edit. HOME and TMPDIR point inside; the environment is built from nothing
but PATH. ``state`` reads back what each kind of loss looks at; ``hook`` asks the hook.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from sandbox import claude_hook

ALIASES = "[alias]\n\tx = reset --hard\n\ty = !git clean -fdx\n"


def _git(box: Path, env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        ["git", *args], cwd=box, env=env, capture_output=True, text=True, timeout=30
    )
    return done.stdout.strip()


def make(base: Path, submodule: bool = False) -> tuple[Path, dict[str, str]]:
    box = base / "box"
    (box / "src").mkdir(parents=True)
    (box / "tmp").mkdir()
    env = {
        "HOME": str(box),
        "TMPDIR": str(box / "tmp"),
        "TMUX_TMPDIR": str(box / "tmp"),  # a tmux server the line starts lives in the box
        "PATH": os.environ["PATH"],
        "GIT_CONFIG_SYSTEM": "/dev/null",
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
        "GIT_EDITOR": "true",
    }
    remote = base / "remote.git"
    script = f"""
set -e
git init -q -b main
echo v1 > src/a.py; echo alive > src/canary; git add -A; git commit -qm c1
echo v2 > src/a.py; git commit -qam c2
git checkout -qb feature; echo feature > src/a.py; git commit -qam feat
git checkout -q main; echo v3 > src/a.py; git commit -qam c3
git tag -a v1 -m release HEAD~1
git init -q --bare {remote}
git remote add origin {remote}
git push -q origin main main:teammate
"""
    if submodule:
        lib = base / "lib"
        script += f"""
git init -q -b main {lib}; echo lib > {lib}/lib.c; git -C {lib} add -A
git -C {lib} commit -qm lib
git -c protocol.file.allow=always submodule add -q {lib} vendor/lib
git commit -qm sub
echo 'uncommitted lib work' > vendor/lib/lib.c
"""
    subprocess.run(["bash", "-c", script], cwd=box, env=env, check=True, capture_output=True)
    (box / "src" / "canary").write_text("uncommitted work\n")
    (box / "src" / "new.py").write_text("untracked work\n")
    (box / "h").mkdir()
    (box / "h" / ".gitconfig").write_text(ALIASES)
    (box / "cfg0").write_text(ALIASES)
    return box, env


def bash(box: Path, env: dict[str, str], command: str) -> None:
    subprocess.run(["bash", "-c", command], cwd=box, env=env, capture_output=True, timeout=60)
    if "tmux" in command:  # a detached pane runs on its own: let it, then stop the box's server
        for _ in range(30):
            if not (box / "src" / "canary").exists():
                break
            time.sleep(0.1)
        subprocess.run(["tmux", "kill-server"], cwd=box, env=env, capture_output=True, timeout=30)


def state(box: Path, env: dict[str, str], feat: str) -> dict[str, object]:
    """What the losses are judged on: files, refs, where the feature commit ``feat`` is."""
    read = lambda p: (box / p).read_text() if (box / p).is_file() else None  # noqa: E731
    refs = _git(box, env, "for-each-ref", "--format=%(refname) %(objectname)")
    return {
        "canary": read("src/canary"),
        "new": read("src/new.py"),
        "a": read("src/a.py"),
        "lib": read("vendor/lib/lib.c"),
        "refs": refs,
        "remote": _git(box, env, "ls-remote", "origin"),
        "stash": _git(box, env, "stash", "list"),
        "reflogs": (box / ".git" / "logs" / "HEAD").is_file(),
        "branched": _git(box, env, "branch", "-a", "--contains", feat) if feat else "",
        "feature": feat,
    }


def _gone(box: Path, env: dict[str, str], sha: object) -> bool:
    done = subprocess.run(["git", "cat-file", "-e", str(sha)], cwd=box, env=env, timeout=30)
    return bool(sha) and done.returncode != 0


def _tag(state: dict[str, object]) -> str | None:
    """The line naming tag v1 and its tag object (gone when deleted or forced over)."""
    lines = str(state["refs"]).splitlines()
    return next((line for line in lines if line.startswith("refs/tags/v1 ")), None)


# What each kind of loss looks at, before and after the command.
LOSSES = {
    "work": lambda b, a, box, env: b["canary"] != a["canary"] or b["new"] != a["new"],
    "untracked": lambda b, a, box, env: b["new"] != a["new"],
    "resolved": lambda b, a, box, env: b["a"] == "RESOLVED\n" and b["a"] != a["a"],
    "lib": lambda b, a, box, env: b["lib"] != a["lib"],
    "remote": lambda b, a, box, env: b["remote"] != a["remote"],
    "commit": lambda b, a, box, env: bool(b["branched"]) and not a["branched"],
    "object": lambda b, a, box, env: _gone(box, env, b["feature"]),
    "tag": lambda b, a, box, env: _tag(b) is not None and _tag(b) not in str(a["refs"]),
    "stash": lambda b, a, box, env: bool(b["stash"]) and not a["stash"],
    "reflogs": lambda b, a, box, env: bool(b["reflogs"]) and not a["reflogs"],
}


def losses(tmp_path: Path, setup: str, command: str, submodule: bool = False) -> list[str]:
    """The kinds of loss ``command`` causes in real bash, after ``setup``."""
    box, env = make(tmp_path, submodule)
    feat = _git(box, env, "rev-parse", "feature")  # the commit only `feature` holds
    if setup:
        bash(box, env, setup)
    before = state(box, env, feat)
    bash(box, env, command)
    after = state(box, env, feat)
    return [k for k, lost in LOSSES.items() if lost(before, after, box, env)]


def judged(
    tmp_path: Path, setup: str, command: str, variant: str = "plain", submodule: bool = False
) -> tuple[str, str]:
    """The hook's (decision, details) for ``command`` in the sandbox after ``setup``."""
    box, env = make(tmp_path, submodule)
    if setup:
        bash(box, env, setup)
    return hook(command, box, variant)


def hook(command: str, box: Path, variant: str = "plain") -> tuple[str, str]:
    """(decision, details) of the hook, paranoid mode, a Claude payload run in ``box``."""
    return claude_hook(command, box, variant)


def git(box: Path, env: dict[str, str], *args: str) -> str:
    return _git(box, env, *args)
