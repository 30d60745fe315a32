"""An agent that was just told no, with an allowlisted command in hand: every way to get another
destructive command through next to it is judged, through the installed hook, and really
destroys something when run (proved in a throwaway sandbox with real bash)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hooklines import hook, recorded

from dcg import paths
from dcg.state import allowlist

ALLOWED = "git reset --hard"
ENTRIES = {
    "rule": {"rule": "core.git:reset-hard"},
    "pack": {"rule": "core.git:*"},
    "command": {"command": ALLOWED},
}
# The allowlisted command, then `rm -rf src` another way.
ESCAPES = {
    "background": f"{ALLOWED} & rm -rf src; wait",
    "exec": f"{ALLOWED}; exec rm -rf src",
    "or": f"{ALLOWED} || true; false || rm -rf src",
    "xargs": f"{ALLOWED}; echo src | xargs rm -rf",
    "env-assignment": f"{ALLOWED}; LC_ALL=C rm -rf src",
    "time": f"{ALLOWED}; time rm -rf src",
    "bang": f"{ALLOWED}; ! rm -rf src",
    "brace-group": f"{{ {ALLOWED}; rm -rf src; }}",
    "function": f"f() {{ rm -rf src; }}; {ALLOWED}; f",
    "eval": f"{ALLOWED}; eval 'rm -rf src'",
    "heredoc-bash": f"{ALLOWED}; bash <<'EOF'\nrm -rf src\nEOF",
    "nohup": f"{ALLOWED}; nohup rm -rf src >/dev/null 2>&1",
    "command-substitution": f"{ALLOWED}; echo $(rm -rf src)",
    "as-argument": f"{ALLOWED} $(rm -rf src)",
    "pipe-into-sh": f"{ALLOWED}; echo 'rm -rf src' | sh",
    "nested-shells": f"bash -c \"{ALLOWED}; sh -c 'rm -rf src'\"",
}


def _cases() -> list[object]:
    return [pytest.param(form, name, id=f"{form}-{name}") for form in ENTRIES for name in ESCAPES]


@pytest.mark.parametrize(("form", "name"), _cases())
def test_the_other_command_is_judged(form: str, name: str) -> None:
    allowlist.add(paths.allowlist_file(), dict(ENTRIES[form]))
    said, specific, _ = hook(ESCAPES[name], args=("--mode", "paranoid"))
    assert said == "deny", ESCAPES[name]
    assert specific.get("ruleId") == "core.filesystem:rm-rf"
    assert ("core.filesystem:rm-rf", "hard_block", None) in recorded()


@pytest.mark.parametrize("name", list(ESCAPES))
def test_the_escape_really_deletes_src(name: str, tmp_path: Path) -> None:
    """The stop is not a false alarm: run with real bash in a sandbox, src is gone."""
    if shutil.which("git") is None:  # pragma: no cover - git is in every CI image here
        pytest.fail("git is required")
    sandbox = tmp_path / "sandbox"
    (sandbox / "home").mkdir(parents=True)
    (sandbox / "src").mkdir()
    (sandbox / "src" / "main.py").write_text("print('work')\n")
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(sandbox / "home"),
        "TMPDIR": str(sandbox),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
    }
    subprocess.run(["git", "init", "-q"], cwd=sandbox, env=env, check=True)
    subprocess.run(["git", "commit", "-q", "--allow-empty", "-m", "x"], cwd=sandbox, env=env)
    subprocess.run(
        ["bash", "-c", ESCAPES[name]],
        cwd=sandbox,
        env=env,
        capture_output=True,
        timeout=30,
    )
    assert not (sandbox / "src").exists(), name
    assert (sandbox / "home").exists()


@pytest.mark.parametrize(
    "attempt",
    [
        pytest.param("rm ~/.config/dcg/approval_attempts.json", id="remove"),
        pytest.param("echo '{}' > ~/.config/dcg/approval_attempts.json", id="overwrite"),
        pytest.param("truncate -s0 ~/.config/dcg/approval_attempts.json", id="truncate"),
        pytest.param("mv ~/.config/dcg/approval_attempts.json /tmp/x", id="move"),
        pytest.param(
            "cd ~/.config/dcg && python3 -c \"open('approval_attempts.json','w')\"",
            id="interpreter",
        ),
    ],
)
def test_the_wrong_code_count_cannot_be_reset_through_the_hook(attempt: str) -> None:
    said, specific, _ = hook(attempt, args=("--mode", "lenient"))
    assert said == "deny" and str(specific.get("ruleId")).startswith("core.dcg:")
