"""The safety net's sandbox for tests: real projects, the installed hook, real bash, undo.

A project lives under the test's HOME (never a temp directory, where deletions are not
stopped), with the states that are lost in practice: modified, staged, untracked and
deleted files, an executable, a private file, a symlink, an empty directory, nested
directories, ignored build output and an unmerged branch. :func:`state` reads back
everything that must come back byte for byte: each path's type, permissions and content
(or link target), the index, HEAD, the refs (``refs/dcg`` aside) and the stash.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import subprocess
from pathlib import Path

State = dict[str, object]


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True, env=env()
    ).stdout


def env(**extra: str) -> dict[str, str]:
    """The environment commands run in: the test's HOME, and a TMPDIR inside it."""
    out = dict(os.environ)
    home = Path(out["HOME"])
    tmp = home.parent / "tmp"
    tmp.mkdir(exist_ok=True)
    out.update(
        TMPDIR=str(tmp),
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@example.com",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@example.com",
        GIT_CONFIG_NOSYSTEM="1",
    )
    out.pop("GIT_DIR", None)
    out.pop("GIT_WORK_TREE", None)
    out.update(extra)
    return out


def write(path: Path, data: str | bytes, mode: int | None = None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    if mode is not None:
        path.chmod(mode)


def project(home: Path, name: str = "proj") -> Path:
    """A repository with committed history and every kind of uncommitted work."""
    root = home / name
    root.mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    write(root / ".gitignore", "dist/\n*.log\n")
    write(root / "README.md", "# demo\n")
    write(root / "src" / "app.py", "print('app')\n")
    write(root / "src" / "util.py", "def f():\n    return 1\n")
    write(root / "src" / "pkg" / "mod.py", "X = 1\n")
    write(root / "src" / "pkg" / "data.bin", bytes(range(256)) * 4)
    write(root / "src" / "run.sh", "#!/bin/sh\necho run\n", 0o755)
    write(root / "src" / "secret.cfg", "token = committed\n", 0o600)
    write(root / "src" / "gone.py", "# deleted in the work tree later\n")
    os.symlink("app.py", root / "src" / "link.py")
    write(root / "docs" / "guide.md", "guide\n")
    write(root / "docs" / "old.md", "first\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")
    # An unmerged branch with work only it holds.
    git(root, "checkout", "-qb", "feature")
    write(root / "src" / "feature.py", "FEATURE = True\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "feature work")
    git(root, "checkout", "-q", "main")
    write(root / "docs" / "guide.md", "guide, second edition\n")
    (root / "docs" / "old.md").unlink()
    write(root / "docs" / "new.md", "only in the second commit\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "second")
    # Two stash entries.
    write(root / "README.md", "# demo, first stash\n")
    git(root, "stash", "push", "-q", "-m", "first")
    write(root / "docs" / "guide.md", "guide, second stash\n")
    git(root, "stash", "push", "-q", "-m", "second")
    # Uncommitted work of every kind.
    write(root / "src" / "app.py", "print('app, edited and not committed')\n")
    write(root / "src" / "util.py", "def f():\n    return 2  # staged\n")
    git(root, "add", "src/util.py")
    write(root / "src" / "util.py", "def f():\n    return 3  # staged, then edited\n")
    write(root / "src" / "staged_new.py", "NEW = 'staged, never committed'\n")
    git(root, "add", "src/staged_new.py")
    write(root / "src" / "notes.txt", "untracked notes\n", 0o640)
    write(root / "src" / "drafts" / "idea.md", "an untracked idea\n")
    write(root / "src" / "drafts" / "deep" / "more.md", "more\n")
    (root / "src" / "empty").mkdir()
    (root / "src" / "pkg" / "data.bin").chmod(0o444)
    (root / "src" / "gone.py").unlink()
    write(root / "src" / "secret.cfg", "token = local, uncommitted\n")
    write(root / "dist" / "bundle.js", "built\n")
    write(root / "scratch.txt", "untracked at the top\n")
    return root


def _entry(path: Path) -> tuple[str, int, str]:
    st = path.lstat()
    perm = stat.S_IMODE(st.st_mode)
    if stat.S_ISLNK(st.st_mode):
        return ("link", 0, os.readlink(path))
    if stat.S_ISDIR(st.st_mode):
        return ("dir", perm, "")
    return ("file", perm, hashlib.sha256(path.read_bytes()).hexdigest())


def files(root: Path, skip: tuple[str, ...] = (".git",)) -> dict[str, tuple[str, int, str]]:
    out: dict[str, tuple[str, int, str]] = {}
    for here, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d not in skip]
        for name in [*dirs, *names]:
            p = Path(here) / name
            out[str(p.relative_to(root))] = _entry(p)
    return out


def state(root: Path) -> State:
    """Everything undo must put back: the work tree, the index, HEAD, refs and stash."""
    refs = git(root, "for-each-ref", "--format=%(refname) %(objectname)")
    return {
        "files": files(root),
        "index": git(root, "ls-files", "-s"),
        "head": git(root, "symbolic-ref", "-q", "HEAD") + git(root, "rev-parse", "HEAD"),
        "refs": [r for r in refs.splitlines() if not r.startswith("refs/dcg/")],
        "stash": git(root, "stash", "list", "--format=%H %gs"),
    }


def differences(a: State, b: State) -> list[str]:
    out = [k for k in a if k != "files" and a[k] != b[k]]
    fa, fb = a["files"], b["files"]
    assert isinstance(fa, dict) and isinstance(fb, dict)
    out += sorted(p for p in set(fa) | set(fb) if fa.get(p) != fb.get(p))
    return out


def payload(command: str, cwd: Path, session: str = "safety") -> bytes:
    body = {
        "session_id": session,
        "transcript_path": "/tmp/transcript.jsonl",
        "cwd": str(cwd),
        "hook_event_name": "PreToolUse",
        "permission_mode": "default",
        "tool_name": "Bash",
        "tool_input": {"command": command},
    }
    return json.dumps(body).encode()


def hook(exe: str, command: str, cwd: Path, **extra: str) -> dict[str, object]:
    """The installed ``dcg hook``'s answer to Claude Code's payload ({} for none)."""
    proc = subprocess.run(
        [exe, "hook"],
        input=payload(command, cwd),
        capture_output=True,
        env=env(**extra),
        check=True,
    )
    out = proc.stdout.decode()
    return json.loads(out) if out.strip() else {}


def decision(answer: dict[str, object]) -> str | None:
    specific = answer.get("hookSpecificOutput")
    if not isinstance(specific, dict):
        return None
    value = specific.get("permissionDecision")
    return str(value) if value is not None else None


def model_text(answer: dict[str, object]) -> str:
    specific = answer.get("hookSpecificOutput")
    if not isinstance(specific, dict):
        return ""
    return str(specific.get("additionalContext") or specific.get("permissionDecisionReason") or "")


def bash(command: str, cwd: Path, check: bool = False) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", command], cwd=cwd, capture_output=True, text=True, env=env(), check=check
    )


def dcg(exe: str, cwd: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [exe, *args], cwd=cwd, capture_output=True, text=True, env=env(**extra), check=False
    )
