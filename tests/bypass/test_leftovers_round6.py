"""Issue 32, round six: the leftovers of round five.

npm exec reads its words as npm does: the first operand is the command, and the first
``--`` (before or after it) only ends npm's options (``npm exec del-cli -- src``, ``npm
exec rm -- -rf src``, ``npm x``, ``npx``); ``-c``/``--call`` run a shell string, as pnpm
exec/dlx ``-c`` and yarn exec, bun exec do (core.filesystem:rimraf, rm-rf). A git archive
is extracted over its own work tree by more than tar and unzip: 7z x (7za, 7zz, ``-si``
from a pipe; not ``-aos``/``-aou``, ``-so``, ``-o`` elsewhere), jar x, bsdunzip, cpio
-iu, pax -r, and any of them under a wrapper (``env``, ``sudo``, ``busybox``)
(core.git:archive-extract). A rebase sequence editor that is a script file
(named bare and found on PATH or in the cwd, or by path, written on the line or on disk)
is read: sed deleting lines or code dcg does not read drops commits, a script of
harmless commands does not (core.git:rebase-drop). Hard links the line made (``cp
-al``, ``cp --link``, ``ln`` without ``-s``, ``rsync --link-dest``) are the work's own
files: emptying many of them in place empties the work (core.filesystem:truncate-many,
truncate); deleting the linked tree deletes nothing of it and passes.

Each case goes through the hook with a Claude Code payload in every hookpath variant;
the must-stop cases then run in real bash in a sandbox where the loss is seen (skipped
when the program is not installed, or would fetch a package: hook only), and the
must-pass cases lose nothing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import gitbox
from hookpath import VARIANTS
from sandbox import GIT_IDENTITY, claude_hook

RIMRAF = "core.filesystem:rimraf"
RM = "core.filesystem:rm-rf"
MANY = "core.filesystem:truncate-many"
TRUNCATE = "core.filesystem:truncate"
ARCHIVE = "core.git:archive-extract"
DROP = "core.git:rebase-drop"

# (line, rule, program that must be installed to prove it; "" : hook only)
STOP = [
    # npm exec and its kin: the command is the first operand, `--` only ends npm's options
    ("npm exec del-cli -- src", RIMRAF, ""),
    ("npm exec --package=del-cli -- del-cli src", RIMRAF, ""),
    ("npm x del-cli src", RIMRAF, ""),
    ("npm x --yes -- del-cli src", RIMRAF, ""),
    ("npm exec -y -p del-cli del src", RIMRAF, ""),
    ("npm exec -w a rimraf -- src", RIMRAF, ""),
    ("npm exec rm -- -rf src", RM, ""),
    ("npx rm -- -rf src", RM, ""),
    ("pnpx rimraf src", RIMRAF, ""),
    ("pnpm exec rimraf src", RIMRAF, ""),
    ("yarn exec rimraf src", RIMRAF, ""),
    ("yarn dlx -p del-cli del src", RIMRAF, ""),
    # … and the shell strings they run
    ("npx -c 'rm -rf src'", RM, "npx"),
    ("npm exec -c 'rm -rf src'", RM, "npm"),
    ("npm exec --call='rm -rf src'", RM, "npm"),
    ('pnpm exec -c "rm -rf src"', RM, ""),
    ("pnpm exec --shell-mode rm -rf src", RM, ""),
    ('pnpm dlx -c "rm -rf src"', RM, ""),
    ('yarn exec "rm -rf src"', RM, ""),
    ('bun exec "rm -rf src"', RM, ""),
    # hard links to the work, then many of them emptied in place
    ('cp -al src dist/s; for f in dist/s/*; do : > "$f"; done', MANY, "cp"),
    ('cp -al src node_modules; for f in node_modules/*; do : > "$f"; done', MANY, "cp"),
    ('cp -al src "$TMPDIR/x" && for f in "$TMPDIR"/x/*; do > "$f"; done', MANY, "cp"),
    ('cp -al src "$TMPDIR/x"; truncate -s0 "$TMPDIR"/x/*', TRUNCATE, "truncate"),
    ("cp -rl src dist/s && truncate -s 0 dist/s/*", TRUNCATE, "truncate"),
    ("cp --link -r src dist/s; for f in dist/s/*; do : > $f; done", MANY, "cp"),
    (
        'cp -al src "$TMPDIR/x"; find "$TMPDIR/x" -type f -exec truncate -s0 {} +',
        TRUNCATE,
        "truncate",
    ),
    ('cp -al src "$TMPDIR/x"; tee "$TMPDIR"/x/* < /dev/null', MANY, "tee"),
    ('cp -al src "$TMPDIR/x"; nice truncate -s0 "$TMPDIR"/x/*', TRUNCATE, "truncate"),
    ('cp -al src dist/s; for f in dist/s/*; do dd if=/dev/null of="$f"; done', MANY, "dd"),
    ('cp -al . ../w && for f in ../w/src/*; do : > "$f"; done', MANY, "cp"),
    ("mkdir -p dist/h && ln src/* dist/h/ && truncate -s0 dist/h/*", TRUNCATE, "truncate"),
    (
        'rsync -a --link-dest="$PWD/src" src/ dist/b/ && truncate -s0 dist/b/*',
        TRUNCATE,
        "rsync",
    ),
    # … and a tree moved or linked there, written through
    ('mv src "$TMPDIR/m" && for f in "$TMPDIR"/m/*; do : > "$f"; done', MANY, "bash"),
    ('ln -s "$PWD/src" "$TMPDIR/l"; tee "$TMPDIR"/l/* </dev/null', MANY, "tee"),
]
NOT_RUN = ("",)
PASS = [
    "npm exec -- eslint .",
    "npm exec --package=typescript -- tsc",
    "npm exec -- tsc -p .",
    "npx eslint --fix .",
    "npx prettier --write src",
    "npm exec jest -- --watch",
    "pnpm exec tsc --noEmit",
    "yarn exec tsc",
    "npx -c 'echo rm -rf src'",
    "npx rimraf dist",
    "cp -al src /tmp/snap",
    'cp -al src "$TMPDIR/snap"',
    'cp -al src "$TMPDIR/x"; rm -rf "$TMPDIR/x"',
    'cp -al src "$TMPDIR/x"; rm -rf "$TMPDIR"/x/*',
    'cp -a src "$TMPDIR/x"; truncate -s0 "$TMPDIR"/x/*',
    'cp -al src "$TMPDIR/x"; for f in "$TMPDIR"/x/*; do : >> "$f"; done',
]
# One file written through a link: the safety net's (it keeps a copy); it passes the hook.
ONE_FILE = ['cp -al src "$TMPDIR/x"; : > "$TMPDIR/x/a.py"', "ln src/a.py dist/a.py; : > dist/a.py"]


@pytest.fixture(autouse=True)
def _hook_tmpdir(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hook's $TMPDIR is a temp dir it exempts (the sandbox's own TMPDIR is not)."""
    monkeypatch.setenv("TMPDIR", "/tmp")


def _project() -> tuple[Path, dict[str, str]]:
    """A git project in the test's HOME: src/ with uncommitted work, dist/ output it ignores."""
    box = Path(os.environ["HOME"]) / "proj"
    files = {"src/a.py": "a = 1\n", "src/b.py": "b = 2\n", ".gitignore": "tmp/\ndist/\n",
             "dist/out.js": "1\n", "package.json": '{"name": "x"}\n'}  # fmt: skip
    for rel, text in files.items():
        (box / rel).parent.mkdir(parents=True, exist_ok=True)
        (box / rel).write_text(text)
    (box / "tmp").mkdir()
    for git in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base"]):
        subprocess.run(["git", *git], cwd=box, env={**os.environ, **GIT_IDENTITY}, check=True)
    (box / "src" / "a.py").write_text("uncommitted work\n")
    env = {"HOME": str(box.parent), "TMPDIR": str(box / "tmp"), "PATH": os.environ["PATH"],
           "npm_config_cache": str(box / "tmp" / "npm"), "npm_config_update_notifier": "false",
           "npm_config_offline": "true", **GIT_IDENTITY}  # fmt: skip
    return box, env


def _kept(box: Path) -> bool:
    work = box / "src" / "a.py"
    return work.exists() and work.read_text() == "uncommitted work\n"


def _bash(command: str, box: Path, env: dict[str, str]) -> None:
    subprocess.run([shutil.which("bash") or "bash", "-c", command], cwd=box, env=env,
                   stdin=subprocess.DEVNULL, capture_output=True, timeout=120,
                   check=False, start_new_session=True)  # fmt: skip


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("command", "rule", "program"), STOP)
def test_node_runners_and_hard_links_stopped(
    command: str, rule: str, program: str, variant: str
) -> None:
    box, _ = _project()
    decision, spec = claude_hook(command, box, variant)
    assert decision == "deny", spec
    assert rule in spec, spec


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("command", PASS + ONE_FILE)
def test_node_runners_and_hard_links_lookalikes_pass(command: str, variant: str) -> None:
    box, _ = _project()
    assert claude_hook(command, box, variant)[0] in ("", "allow"), command


@pytest.mark.parametrize(("command", "rule", "program"), STOP)
def test_stopped_lines_destroy_the_work_in_real_bash(command: str, rule: str, program: str) -> None:
    if program in NOT_RUN or shutil.which("bash") is None or shutil.which(program) is None:
        pytest.skip(f"hook only, or needs {program or 'a package fetched'}")
    box, env = _project()
    _bash(command, box, env)
    assert not _kept(box), command


@pytest.mark.parametrize("command", PASS)
def test_passing_lines_keep_the_work_in_real_bash(command: str) -> None:
    if shutil.which("bash") is None:
        pytest.skip("needs bash")
    box, env = _project()
    for runner in ("npx ", "npm ", "pnpm ", "yarn "):  # nothing fetched
        command = (
            command.replace(runner, "echo " + runner) if command.startswith(runner) else command
        )
    _bash(command, box, env)
    assert _kept(box), command


# git: (setup, command, rule, loss in real bash; "" where not proven here)
ON = "git stash -q; git checkout -q feature"  # a clean tree on the branch with `feat`
SCRIPTS = (
    f"{ON}; mkdir -p bin; printf '#!/bin/sh\\nsed -i 2d \"$1\"\\n' > ed.sh; chmod +x ed.sh; "
    "cp ed.sh bin/dropper; printf '#!/usr/bin/env python3\\nimport sys\\n"
    'p = sys.argv[1]\\nt = open(p).readlines()[0]\\nopen(p, "w").write(t)\\n\' > bin/py-ed; '
    "chmod +x bin/py-ed; printf '#!/bin/sh\\nexit 0\\n' > noop.sh; chmod +x noop.sh; "
    "printf '#!/bin/sh\\nsed -i s/^pick/edit/ \"$1\"\\n' > ok.sh; chmod +x ok.sh"
)
GIT_STOP = [
    ("", "git archive -o x.zip HEAD && 7z x -y x.zip", ARCHIVE, "work"),
    ("", "git archive -o x.zip HEAD && 7z x x.zip", ARCHIVE, ""),  # asks; `yes |` answers
    ("", "git archive -o x.tar HEAD && 7z x -aoa x.tar", ARCHIVE, "work"),
    ("", "git archive -o x.tar HEAD && 7za x -y x.tar", ARCHIVE, "work"),
    ("", "git archive -o x.tar HEAD && 7zz x -y -ttar x.tar", ARCHIVE, "work"),
    ("", "git archive HEAD | 7z x -si -ttar -y", ARCHIVE, "work"),
    ("", "git archive -o x.zip HEAD && yes | 7z x x.zip -o.", ARCHIVE, "work"),
    ("", "git archive -o x.zip HEAD && jar xf x.zip", ARCHIVE, "work"),
    ("", "git archive -o x.zip HEAD && jar -x -f x.zip", ARCHIVE, "work"),
    ("", "git archive -o x.zip HEAD && jar --extract --file x.zip", ARCHIVE, "work"),
    ("", "git archive -o x.zip HEAD && jar x < x.zip", ARCHIVE, "work"),
    ("", "git archive --format=zip HEAD | jar x", ARCHIVE, "work"),
    ("", "git archive -o x.zip HEAD && bsdunzip -o x.zip", ARCHIVE, "work"),
    ("", "git archive -o x.zip HEAD && unar -f -D x.zip", ARCHIVE, "work"),
    ("", "git archive -o x.zip HEAD && ark -b x.zip", ARCHIVE, ""),
    ("", "git archive HEAD | cpio -idu", ARCHIVE, "work"),
    ("", "git archive -o x.tar HEAD && pax -rf x.tar", ARCHIVE, "work"),
    ("", "git archive HEAD | pax -r", ARCHIVE, "work"),
    # … under a wrapper
    ("", "git archive -o x.tar HEAD && env tar -xf x.tar", ARCHIVE, "work"),
    ("", "git archive -o x.zip HEAD && env 7z x -y x.zip", ARCHIVE, "work"),
    ("", "git archive -o x.zip HEAD && timeout 60 jar xf x.zip", ARCHIVE, "work"),
    ("", "git archive -o x.zip HEAD && busybox unzip -o x.zip", ARCHIVE, ""),
    ("", "git archive -o x.tar HEAD && cat x.tar | nice tar -x", ARCHIVE, "work"),
    ("git archive -o ../x.tar HEAD", "7z x -y ../x.tar", ARCHIVE, "work"),
    ("git archive -o ../x.zip HEAD", "jar xf ../x.zip", ARCHIVE, "work"),
    ("git archive -o ../x.zip HEAD", "7z x ../x.zip", ARCHIVE, ""),
    # a sequence editor that is a script file
    (SCRIPTS, "GIT_SEQUENCE_EDITOR=ed.sh git rebase -i HEAD~2", DROP, ""),  # not on PATH
    (SCRIPTS, "GIT_SEQUENCE_EDITOR=./ed.sh git rebase -i HEAD~2", DROP, "commit"),
    (
        SCRIPTS,
        "PATH=$PWD/bin:$PATH GIT_SEQUENCE_EDITOR=dropper git rebase -i HEAD~2",
        DROP,
        "commit",
    ),
    (SCRIPTS, 'GIT_SEQUENCE_EDITOR="$PWD/bin/dropper" git rebase -i HEAD~2', DROP, "commit"),
    (SCRIPTS, "GIT_SEQUENCE_EDITOR=bin/py-ed git rebase -i HEAD~2", DROP, "commit"),
    (SCRIPTS, "git -c sequence.editor=./ed.sh rebase -i HEAD~2", DROP, "commit"),
    (SCRIPTS, "GIT_EDITOR=./ed.sh git rebase -i HEAD~2", DROP, "commit"),
    (SCRIPTS, "export GIT_SEQUENCE_EDITOR=./ed.sh; git rebase -i HEAD~2", DROP, "commit"),
    (
        ON,
        "printf '#!/bin/sh\\nsed -i 2d \"$1\"\\n' > e2.sh && chmod +x e2.sh && "
        "GIT_SEQUENCE_EDITOR=./e2.sh git rebase -i HEAD~2",
        DROP,
        "commit",
    ),
    (
        ON,
        'echo \'perl -ni -e "print if 1..1" "$1"\' > e4 && chmod +x e4 && '
        "GIT_SEQUENCE_EDITOR=./e4 git rebase -i HEAD~2",
        DROP,
        "commit",
    ),
]
GIT_PASS = [
    ("", "git archive -o x.zip HEAD && 7z l x.zip"),
    ("", "git archive -o x.zip HEAD && 7z x x.zip -oout"),
    ("", "git archive -o x.zip HEAD && 7z x -y x.zip -oout"),
    ("", "git archive -o x.zip HEAD && 7z x -aos -y x.zip"),
    ("", "git archive -o x.zip HEAD && 7z x -aou x.zip"),
    ("", "git archive -o x.zip HEAD && 7z x -so x.zip > /dev/null"),
    ("", "git archive HEAD | 7z x -si -ttar -oout"),
    ("", "git archive -o x.zip HEAD && jar tf x.zip"),
    ("", "git archive -o x.zip HEAD && unar -D -o out x.zip"),
    ("", "git archive -o x.tar HEAD && pax -rk -f x.tar"),
    ("", "git archive -o x.zip HEAD && bsdunzip -d out x.zip"),
    ("git archive -o ../x.zip HEAD", "7z x ../x.zip -oout"),
    ("git archive -o ../x.zip HEAD", "jar tf ../x.zip"),
    (SCRIPTS, "GIT_SEQUENCE_EDITOR=./noop.sh git rebase -i HEAD~2"),
    (SCRIPTS, "GIT_SEQUENCE_EDITOR=noop.sh git rebase -i HEAD~2"),
    (SCRIPTS, "GIT_SEQUENCE_EDITOR=./ok.sh git rebase -i HEAD~2"),
    (SCRIPTS, "GIT_SEQUENCE_EDITOR=true git rebase -i HEAD~2"),
    (
        ON,
        "printf '#!/bin/sh\\nexit 0\\n' > e5.sh && chmod +x e5.sh && "
        "GIT_SEQUENCE_EDITOR=./e5.sh git rebase -i HEAD~2",
    ),
    (SCRIPTS, "GIT_SEQUENCE_EDITOR=./ed.sh git rebase HEAD~2"),
]
_PROGRAMS = ("7z", "7za", "7zz", "jar", "bsdunzip", "unar", "cpio", "pax", "perl", "python3")


def _installed(command: str) -> bool:
    return all(shutil.which(p) for p in _PROGRAMS if f"{p} " in command)


@pytest.mark.parametrize(("setup", "command", "rule_id", "loss"), GIT_STOP,
                         ids=[c for _, c, _, _ in GIT_STOP])  # fmt: skip
def test_round6_git_losses_stopped(
    isolated_home: Path, setup: str, command: str, rule_id: str, loss: str
) -> None:
    box, env = gitbox.make(isolated_home / "j")
    if setup:
        gitbox.bash(box, env, setup)
    for variant in VARIANTS:
        decision, details = gitbox.hook(command, box, variant)
        assert decision == "deny", (variant, command)
        assert rule_id in details, (variant, details)
    if loss and _installed(command):
        assert loss in gitbox.losses(isolated_home / "r", setup, command), command


@pytest.mark.parametrize(("setup", "command"), GIT_PASS, ids=[c for _, c in GIT_PASS])
def test_round6_git_lookalikes_pass(isolated_home: Path, setup: str, command: str) -> None:
    box, env = gitbox.make(isolated_home / "j")
    if setup:
        gitbox.bash(box, env, setup)
    for variant in VARIANTS:
        assert gitbox.hook(command, box, variant)[0] == "", (variant, command)
    assert gitbox.losses(isolated_home / "r", setup, command) == [], command


def test_extractor_tables_agree() -> None:
    """The walker sends every extractor gitarchive reads to the archive check."""
    from dcg.shell import gitarchive, stdin

    assert gitarchive.OTHERS <= stdin._EXTRACTORS
