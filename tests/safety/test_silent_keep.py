"""Issue 31 point 4: everyday writes are never stopped, but what they overwrite is kept.

Each form goes through the installed hook (answered silently: no decision, no note to the
model, one line for the person when something was kept), really runs in bash, and
``dcg undo --last`` puts the file back byte for byte. Appends, files git can give back,
ignored files, temp files and new files keep nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import hookpath
import safetylib as sl

# (command, the file it destroys), run from the project root.
KEPT = [
    # The forms issue 31 names.
    pytest.param("rm src/notes.txt", "src/notes.txt", id="rm"),
    pytest.param("> src/notes.txt", "src/notes.txt", id="truncating-redirect"),
    pytest.param("cp README.md src/notes.txt", "src/notes.txt", id="cp"),
    pytest.param("mv scratch.txt src/notes.txt", "src/notes.txt", id="mv-over"),
    pytest.param("echo hi > src/app.py", "src/app.py", id="echo-redirect"),
    pytest.param("git show HEAD:README.md > src/app.py", "src/app.py", id="git-show-redirect"),
    pytest.param("echo x | tee src/notes.txt", "src/notes.txt", id="tee"),
    pytest.param("sed -i s/untracked/changed/ src/notes.txt", "src/notes.txt", id="sed-i"),
    pytest.param(
        "python3 -c \"import os; os.unlink('src/notes.txt')\"", "src/notes.txt", id="py-unlink"
    ),
    pytest.param("python3 -c \"open('src/app.py', 'w').write('x')\"", "src/app.py", id="py-open-w"),
    pytest.param(
        "python3 -c \"import os; os.truncate('src/notes.txt', 0)\"",
        "src/notes.txt",
        id="py-truncate",
    ),
    pytest.param("git mv -f src/staged_new.py src/app.py", "src/app.py", id="git-mv-f"),
    # Ten more (and then some).
    pytest.param("printf x >| src/notes.txt", "src/notes.txt", id="clobber-redirect"),
    pytest.param("cat README.md > scratch.txt", "scratch.txt", id="cat-redirect"),
    pytest.param(
        "node -e \"require('fs').writeFileSync('src/notes.txt', 'x')\"",
        "src/notes.txt",
        id="node-writeFileSync",
    ),
    pytest.param(
        'perl -e \'open(my $f, ">", "src/notes.txt") or die; print $f "x"\'',
        "src/notes.txt",
        id="perl-open",
    ),
    pytest.param("cp -f README.md src/app.py", "src/app.py", id="cp-f"),
    pytest.param("unlink src/notes.txt", "src/notes.txt", id="unlink"),
    pytest.param("ln -sf README.md src/notes.txt", "src/notes.txt", id="ln-sf"),
    pytest.param(
        "python3 -c \"from pathlib import Path; Path('src/app.py').write_text('x')\"",
        "src/app.py",
        id="py-write-text",
    ),
    pytest.param("cd src && echo x > notes.txt", "src/notes.txt", id="cd-then-redirect"),
    pytest.param("dd if=README.md of=src/notes.txt status=none", "src/notes.txt", id="dd"),
    pytest.param(
        "python3 - <<'EOF'\nwith open('src/app.py', 'w') as f:\n    f.write('x')\nEOF",
        "src/app.py",
        id="py-heredoc",
    ),
    pytest.param(
        "node -e \"require('fs').copyFileSync('README.md', 'src/app.py')\"",
        "src/app.py",
        id="node-copyFileSync",
    ),
    pytest.param("bash -c 'echo x > src/notes.txt'", "src/notes.txt", id="bash-c"),
    pytest.param('echo x > "$HOME/proj/src/notes.txt"', "src/notes.txt", id="home-variable"),
    pytest.param("sort -u src/notes.txt > src/notes.txt", "src/notes.txt", id="sort-onto-itself"),
]

NOT_KEPT = [
    pytest.param("echo x >> src/notes.txt", id="append"),
    pytest.param("echo x | tee -a src/notes.txt", id="tee-append"),
    pytest.param("echo x > README.md", id="tracked-unchanged"),
    pytest.param("echo x > dist/bundle.js", id="ignored"),
    pytest.param('echo x > "$TMPDIR/scratch"', id="temp"),
    pytest.param("echo x > brand-new.txt", id="new-file"),
    pytest.param("ls > /dev/null 2>&1", id="dev-null"),
    pytest.param("touch src/notes.txt", id="touch"),
    pytest.param("cp src/notes.txt copy-of-notes.txt", id="cp-to-new"),
]


@pytest.fixture
def repo(isolated_home: Path) -> Path:
    root = sl.project(isolated_home)
    (isolated_home.parent / "tmp").mkdir(exist_ok=True)
    (isolated_home.parent / "tmp" / "scratch").write_text("temp\n")
    return root


def _snapshots(exe: str, root: Path) -> list[dict[str, object]]:
    listed = sl.dcg(exe, root, "undo", "--json")
    assert listed.returncode == 0, listed.stderr
    rows = json.loads(listed.stdout)["snapshots"]
    assert isinstance(rows, list)
    return rows


def _silent(answer: dict[str, object]) -> None:
    """No decision and nothing for the model: at most the person's one line."""
    assert set(answer) <= {"systemMessage"}, answer


@pytest.mark.parametrize(("command", "target"), KEPT)
def test_everyday_write_is_kept_silently_and_undone(
    dcg_exe: str, repo: Path, command: str, target: str
) -> None:
    before = sl.files(repo)[target]
    answer = sl.hook(dcg_exe, command, repo)
    _silent(answer)
    assert "dcg undo " in str(answer.get("systemMessage")), answer
    ran = sl.bash(command, repo)
    assert ran.returncode == 0, ran.stderr
    assert sl.files(repo).get(target) != before, "the command changed nothing"
    done = sl.dcg(dcg_exe, repo, "undo", "--last")
    assert done.returncode == 0, done.stderr
    assert sl.files(repo)[target] == before


@pytest.mark.parametrize("command", NOT_KEPT)
def test_what_git_or_nobody_needs_is_not_kept(dcg_exe: str, repo: Path, command: str) -> None:
    answer = sl.hook(dcg_exe, command, repo)
    assert answer == {}, answer
    assert _snapshots(dcg_exe, repo) == []


def test_a_move_comes_back_as_it_was(dcg_exe: str, repo: Path) -> None:
    before = sl.files(repo)
    sl.hook(dcg_exe, "mv scratch.txt src/notes.txt", repo)
    sl.bash("mv scratch.txt src/notes.txt", repo, check=True)
    assert sl.dcg(dcg_exe, repo, "undo", "--last").returncode == 0
    assert sl.files(repo) == before


@pytest.mark.parametrize("agent", hookpath.AGENTS)
def test_every_agent_gets_the_silent_keep(agent: str, repo: Path, dcg_exe: str) -> None:
    body = hookpath.payload(agent, "echo x > src/notes.txt", str(repo))
    code, out, _ = hookpath.run(hookpath.encode(body), env=sl.env())
    assert hookpath.verdict(code, out, "") in ("none", "warn")
    if out.strip():  # only the person's notice, where the agent has such a channel
        assert "dcg undo" in out and "permissionDecision" not in out and "decision" not in out
    assert len(_snapshots(dcg_exe, repo)) == 1


def test_switched_off_keeps_nothing(dcg_exe: str, repo: Path, isolated_home: Path) -> None:
    conf = isolated_home / ".config" / "dcg" / "config.toml"
    conf.parent.mkdir(parents=True, exist_ok=True)
    conf.write_text("[safety_net]\nenabled = false\n")
    assert sl.hook(dcg_exe, "echo x > src/notes.txt", repo) == {}
    answer = sl.hook(dcg_exe, "git reset --hard", repo)
    assert sl.decision(answer) is None and "dcg undo" not in sl.model_text(answer)
    assert _snapshots(dcg_exe, repo) == []
