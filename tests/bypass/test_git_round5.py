"""Issue 32, round 5: git losing work without the flags the rules look for.

``git archive -o x.tar HEAD && tar -xf x.tar`` (``--output``, ``> x.tar``, a zip and
``unzip -o``, bsdtar, later on the line, after a ``cd``, or an archive on disk whose
header names a commit of the repository) extracts the committed tree over the work tree
it came from (core.git:archive-extract). A command xargs, parallel or find
-exec runs once per name that writes git's copy over the name it reads (``xargs -I% sh
-c 'git show HEAD:% > %'``) puts back every listed file (core.git:listed-overwrite); one
``git show HEAD:f > f`` is a single-file write and passes. ``git rebase -i`` whose
sequence editor (or ``GIT_EDITOR``, ``core.editor``, ``VISUAL``, ``EDITOR`` when none is
set) is perl writing ``drop`` in place, or code dcg does not read (awk -i inplace,
python, shell code, a script written on the line, scripted vim), and ``git rebase --onto
NEW UPSTREAM`` whose names do not place both on the branch (a hex id, ``main~2``,
``$(git rev-parse …)``: git is asked) drop commits (core.git:rebase-drop). A stash
without pathspecs in a repository whose work tree is HOME takes dcg's settings and state
out of HOME (core.dcg). Each must-stop case goes through the hook with a Claude payload
in every ``hookpath.VARIANTS`` placement, then runs in real bash in a sandbox where the
loss is seen; the must-pass cases pass and lose nothing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import gitbox
from hookpath import VARIANTS
from sandbox import GIT_IDENTITY, bash, claude_hook

LISTED = "core.git:listed-overwrite"
ARCHIVE = "core.git:archive-extract"
DROP = "core.git:rebase-drop"
ON = "git stash -q; git checkout -q feature"  # a clean tree on the branch with `feat`
TOP = f"{ON}; git commit -q --allow-empty -m top"  # `feat` is then HEAD~1
NO_EDITOR = "unset GIT_EDITOR; "  # the sandbox sets GIT_EDITOR=true, which comes first

# (setup, command, rule id, loss in real bash; "" where the program is not installed here)
STOP = [
    ("", "git archive -o x.tar HEAD && tar -xf x.tar", ARCHIVE, "work"),
    ("", "git archive --output=x.tar HEAD; tar xf x.tar", ARCHIVE, "work"),
    ("", "git archive --output x.tar HEAD && tar -x -f x.tar", ARCHIVE, "work"),
    ("", "git archive --format=zip -o x.zip HEAD && unzip -o x.zip", ARCHIVE, "work"),
    ("", "git archive -o x.zip HEAD && unzip -oq x.zip", ARCHIVE, "work"),
    ("", "git archive HEAD > x.tar && tar -xf x.tar", ARCHIVE, "work"),
    ("", "git archive HEAD > ../x.tar && tar -xf ../x.tar -C .", ARCHIVE, "work"),
    ("", "git archive -o x.tar HEAD && bsdtar -xf x.tar", ARCHIVE, "work"),
    ("", "git archive -ox.tar HEAD && tar -C . -xf x.tar", ARCHIVE, "work"),
    ("", "git archive -o x.tgz HEAD && tar -xzf x.tgz", ARCHIVE, "work"),
    ("", "git archive -o x.tar HEAD && tar --extract --file=x.tar --overwrite", ARCHIVE, "work"),
    (
        "",
        "cd src && git archive -o ../x.tar HEAD && cd .. && tar -xf x.tar -C src",
        ARCHIVE,
        "work",
    ),
    ("", "git archive -o x.tar HEAD src && tar -xvf x.tar", ARCHIVE, "work"),
    ("", "git archive -o x.tar HEAD\ntar -xf x.tar", ARCHIVE, "work"),
    ("", "git archive -o x.tar HEAD\ncd src && tar -xf ../x.tar -C ..", ARCHIVE, "work"),
    # Written by git archive in an earlier call: the commit it names is read from the file.
    ("git archive -o ../x.tar HEAD", "tar -xf ../x.tar", ARCHIVE, "work"),
    ("git archive -o ../x.zip HEAD", "unzip -o ../x.zip", ARCHIVE, "work"),
    ("git archive --format=tar.gz -o ../x.tgz HEAD", "tar -xzf ../x.tgz", ARCHIVE, "work"),
    ("git archive -o ../x.tar HEAD", "bsdtar -xf ../x.tar", ARCHIVE, "work"),
    ("git archive -o tmp/x.tar HEAD", "cd src && tar -xf ../tmp/x.tar -C ..", ARCHIVE, "work"),
    ("git archive HEAD > ../x.tar", "tar --extract -f ../x.tar", ARCHIVE, "work"),
    ("", "git archive -o x.tar HEAD && python3 -m tarfile -e x.tar .", ARCHIVE, "work"),
    ("", "git archive -o x.zip HEAD && python3 -m zipfile -e x.zip .", ARCHIVE, "work"),
    ("", "git archive HEAD | gzip > x.tgz && tar -xzf x.tgz", ARCHIVE, "work"),
    ("", "git archive HEAD | tee x.tar > /dev/null && tar -xf x.tar", ARCHIVE, "work"),
    ("", "git archive -o x.tar HEAD && cat x.tar | tar -x", ARCHIVE, "work"),
    ("", "git archive -o x.tar HEAD && tar -x < x.tar", ARCHIVE, "work"),
    (
        "",
        "git ls-files -m | xargs -I{} sh -c 'git show HEAD:{} | tee {} >/dev/null'",
        LISTED,
        "work",
    ),
    (
        "",
        'git diff --name-only | while read -r f; do git show HEAD:"$f" | tee "$f" >&2; done',
        LISTED,
        "work",
    ),
    ("", 'for f in $(git ls-files -m); do git show "HEAD:$f" | tee "$f"; done', LISTED, "work"),
    ("", "for f in $(git diff --name-only); do git show HEAD:$f | sponge $f; done", LISTED, "work"),
    ("", "git ls-files -m | xargs -I% sh -c 'git show HEAD:% | sponge %'", LISTED, "work"),
    ("", "git ls-files -m | xargs -I% sh -c 'git show HEAD:% > %'", LISTED, "work"),
    ("", "git ls-files -m | xargs -n1 sh -c 'git show HEAD:$0 > $0'", LISTED, "work"),
    ("", 'git ls-files -m | xargs -n1 sh -c \'git show HEAD:"$1" > "$1"\' _', LISTED, "work"),
    ("", "git ls-files -m | xargs -I FILE sh -c 'git show HEAD:FILE > FILE'", LISTED, "work"),
    (
        "",
        'git diff --name-only | xargs -I{} bash -c "git cat-file -p HEAD:{} > {}"',
        LISTED,
        "work",
    ),
    (
        "",
        'find src -type f -exec sh -c \'for f; do git show HEAD:"$f" > "$f"; done\' _ {} +',
        LISTED,
        "work",
    ),
    ("", 'find src -type f -exec sh -c \'git show HEAD:"$1" > "$1"\' _ {} \\;', LISTED, "work"),
    ("", "git diff --name-only | xargs -L1 -I@ sh -c 'git show HEAD:@ >@'", LISTED, "work"),
    ("", "git diff --name-only | xargs -I% sh -c 'git show HEAD:./% > %'", LISTED, "work"),
    ("", "git diff --name-only | xargs -I% sh -c 'git --no-pager show HEAD:% > %'", LISTED, "work"),
    ("", "git diff --name-only | xargs -I% sh -c 'git show :% > %'", LISTED, "work"),
    ("", "for f in $(git diff --name-only); do git cat-file -p HEAD:$f > $f; done", LISTED, "work"),
    ("", 'git ls-files -m | while read f; do git show "HEAD:$f" > "$f"; done', LISTED, "work"),
    ("", "git diff --name-only | parallel 'git show HEAD:{} > {}'", LISTED, ""),  # GNU parallel
    (ON, 'GIT_SEQUENCE_EDITOR="perl -pi -e s/^pick/drop/" git rebase -i HEAD~2', DROP, "commit"),
    (
        ON,
        "GIT_SEQUENCE_EDITOR=\"perl -i -pe 's/^pick (.*feat)/drop \\$1/'\" git rebase -i HEAD~2",
        DROP,
        "commit",
    ),
    (
        ON,
        "GIT_SEQUENCE_EDITOR=\"perl -ni -e 'print unless /feat/'\" git rebase -i HEAD~2",
        DROP,
        "commit",
    ),
    (ON, "git -c sequence.editor=\"awk -i inplace '!/feat/'\" rebase -i HEAD~2", DROP, "commit"),
    (
        ON,
        'git -c sequence.editor="sh -c \'awk \\"!/feat/\\" \\"\\$1\\" > t && mv t \\"\\$1\\"\' -"'
        " rebase -i HEAD~2",
        DROP,
        "commit",
    ),
    (
        ON,
        "GIT_SEQUENCE_EDITOR=\"python3 -c 'import sys;p=sys.argv[1];"
        'l=open(p).readlines();open(p,\\"w\\").writelines(l[:1])\'" git rebase -i HEAD~2',
        DROP,
        "commit",
    ),
    (
        ON,
        "GIT_SEQUENCE_EDITOR=\"ruby -i -ne 'print unless /feat/'\" git rebase -i HEAD~2",
        DROP,
        "",
    ),
    (
        ON,
        "printf '#!/bin/sh\\nsed -i 2d \"$1\"\\n' > ed.sh; chmod +x ed.sh; "
        "GIT_SEQUENCE_EDITOR=./ed.sh git rebase -i HEAD~2",
        DROP,
        "commit",
    ),
    (ON, "GIT_EDITOR=\"perl -pi -e 's/^pick/d/'\" git rebase -i HEAD~2", DROP, "commit"),
    (ON, f'{NO_EDITOR}EDITOR="sed -i 2d" git rebase -i HEAD~2', DROP, "commit"),
    (
        ON,
        f'{NO_EDITOR}TERM=xterm VISUAL="sed -i 2d" git rebase --interactive HEAD~2',
        DROP,
        "commit",
    ),
    (ON, "GIT_SEQUENCE_EDITOR=\"vim -c 'g/feat/d' -c wq\" git rebase -i HEAD~2", DROP, "commit"),
    (
        ON,
        "printf '2d\\n' > drop.sed; "
        'GIT_SEQUENCE_EDITOR="sed -i -f drop.sed" git rebase -i HEAD~2',
        DROP,
        "commit",
    ),
    (
        ON,
        "export GIT_SEQUENCE_EDITOR=\"perl -pi -e 's/^pick/drop/'\"; git rebase -i HEAD~2",
        DROP,
        "commit",
    ),
    (
        ON,
        f"{NO_EDITOR}git config core.editor \"perl -pi -e 's/^pick/drop/'\" "
        "&& git rebase -i HEAD~2",
        DROP,
        "commit",
    ),
    (ON, 'GIT_SEQUENCE_EDITOR="sed -n -i 1p" git rebase -i HEAD~2', DROP, "commit"),
    (
        ON,
        'GIT_SEQUENCE_EDITOR="sed --in-place=.bak --quiet 1p" git rebase -i HEAD~2',
        DROP,
        "commit",
    ),
    (ON, "GIT_SEQUENCE_EDITOR='sed -i \"/feat/d\"' git rebase -i --root", DROP, "commit"),
    (ON, "GIT_SEQUENCE_EDITOR=\"ex -sc 'g/feat/d|x'\" git rebase -i HEAD~2", DROP, "commit"),
    (
        ON,
        'env GIT_SEQUENCE_EDITOR="perl -pi -e s/^pick/drop/" git rebase -ki HEAD~2',
        DROP,
        "commit",
    ),
    (TOP, "git rebase -i --onto main~2 HEAD~1", DROP, "commit"),
    (TOP, "git rebase HEAD~1 --onto main~2", DROP, "commit"),
    (TOP, "git -C . rebase --onto main~1 HEAD^", DROP, "commit"),
    (TOP, "git rebase --onto $(git rev-parse main~2) feature~1", DROP, "commit"),
    (TOP, "git rebase --onto main~2 HEAD~1", DROP, "commit"),
    (TOP, "git rebase --onto main~1 HEAD~1", DROP, "commit"),
    (TOP, "git rebase --onto main HEAD~1", DROP, "commit"),
    (TOP, "git rebase -q --onto=main~2 HEAD~1", DROP, "commit"),
    (TOP, "git rebase --onto main^ HEAD~1 feature", DROP, "commit"),
    (TOP, "git rebase --onto origin/main HEAD~1", DROP, "commit"),
    (TOP, "git rebase --onto v1 HEAD~1", DROP, "commit"),
    (TOP, "git rebase --onto @~3 @~1", DROP, "commit"),
    (TOP, 'git rebase --onto "$(git merge-base main HEAD)" HEAD^', DROP, "commit"),
]

SAFE = [
    ("", "git archive -o tmp/x.tar HEAD"),
    ("", "git archive -o tmp/x.tar HEAD && mkdir -p out && tar -xf tmp/x.tar -C out"),
    ("", "git archive -o tmp/x.tar HEAD && tar -tf tmp/x.tar"),
    ("", "git archive -o tmp/x.tar HEAD && tar -xOf tmp/x.tar src/a.py"),
    ("", "git archive -o tmp/x.tar --prefix=old/ HEAD && tar -xf tmp/x.tar"),
    ("", "git archive -o tmp/x.tar HEAD && tar -xkf tmp/x.tar"),
    ("", "git archive -o x.zip HEAD && unzip -n x.zip"),
    ("", "git archive -o x.zip HEAD && unzip -l x.zip"),
    ("", "git archive -o x.zip HEAD && unzip x.zip -d out"),
    ("mkdir out", "tar -cf tmp/y.tar src/a.py && tar -xf tmp/y.tar -C out"),
    ("tar -cf ../o.tar src", "tar -xf ../o.tar"),
    ("git archive -o ../x.tar HEAD && mkdir out", "tar -xf ../x.tar -C out"),
    ("git archive --prefix=p/ -o ../p.tar HEAD", "tar -xf ../p.tar"),
    ("git archive -o ../x.tar HEAD", "tar -tf ../x.tar"),
    ("git archive -o ../x.zip HEAD", "unzip -l ../x.zip"),
    ("", "git show HEAD:src/a.py > src/a.py"),
    ("", "git show HEAD:src/a.py | tee src/a.py"),
    ("", "git show HEAD:src/a.py | sponge src/a.py"),
    ("", "for f in $(git diff --name-only); do git show HEAD:$f | tee -a $f.log; done"),
    ("", 'for f in $(git ls-files -m); do git show "HEAD:$f" | tee "$f.orig"; done'),
    ("", "git archive -o tmp/x.tar HEAD && python3 -m tarfile -l tmp/x.tar"),
    ("", "git archive HEAD | gzip > tmp/x.tgz && tar -xzf tmp/x.tgz -C tmp"),
    ("", "git ls-files -m | xargs -I% sh -c 'git show HEAD:% > %.orig'"),
    ("", "git ls-files -m | xargs -I% sh -c 'git show HEAD:% > tmp/x'"),
    ("", "git ls-files -m | xargs -I% sh -c 'git show HEAD:% | diff - % || true'"),
    ("", "git ls-files -m | xargs -n1 git log -1 --"),
    ("", 'find src -type f -exec sh -c \'git show HEAD:"$1" > "$1.old"\' _ {} \\;'),
    (ON, "git rebase -i HEAD~2"),
    (ON, "GIT_SEQUENCE_EDITOR=true git rebase -i --autosquash HEAD~2"),
    (ON, "GIT_SEQUENCE_EDITOR=: git rebase -i HEAD~2"),
    (ON, "GIT_SEQUENCE_EDITOR=cat git rebase -i HEAD~2"),
    (ON, "GIT_SEQUENCE_EDITOR=\"perl -pi -e 's/^pick/edit/'\" git rebase -i HEAD~1"),
    (ON, "GIT_SEQUENCE_EDITOR=\"perl -pe 's/^pick/drop/'\" git rebase -i HEAD~2"),
    (ON, "GIT_SEQUENCE_EDITOR=\"sed -i 's/^pick/pick/'\" git rebase -i HEAD~1"),
    (ON, 'GIT_SEQUENCE_EDITOR="sed -i.bak 1p" git rebase -i HEAD~2'),
    (TOP, "git rebase --root --onto main"),
    (TOP, "git rebase --onto main HEAD~2"),
    (TOP, "git rebase --onto main~1 HEAD~2"),
    (TOP, "git rebase --onto main feature~2"),
    (TOP, "git rebase --onto main HEAD~2 feature"),
    (TOP, "git rebase --onto main main~1 feature"),
    (ON, "git rebase --onto main main~1"),
    ("", "git rebase --onto main feature"),  # on main: feature..main is replayed onto main
]

_IDS = [c for _, c, _, _ in STOP]
pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _installed(command: str) -> bool:
    return all(shutil.which(p) for p in ("unzip", "bsdtar", "perl") if f"{p} " in command)


@pytest.mark.parametrize(("setup", "command", "rule_id", "loss"), STOP, ids=_IDS)
def test_round5_git_losses_stopped(
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


@pytest.mark.parametrize(("setup", "command"), SAFE, ids=[c for _, c in SAFE])
def test_round5_git_lookalikes_pass(isolated_home: Path, setup: str, command: str) -> None:
    box, env = gitbox.make(isolated_home / "j")
    if setup:
        gitbox.bash(box, env, setup)
    for variant in VARIANTS:
        assert gitbox.hook(command, box, variant)[0] == "", (variant, command)
    assert gitbox.losses(isolated_home / "r", setup, command) == [], command


# A hex id (full or abbreviated) names no branch: git is asked what NEW holds.
HEX = [
    ("git rebase --onto {c1} HEAD~1", "commit"),
    ("git rebase --onto {c1_short} feature~1", "commit"),
    ("git rebase --onto {main} HEAD~1 feature", "commit"),
]
HEX_SAFE = ["git rebase --onto {main} HEAD~2", "git rebase --onto {c2} {c2_short}"]


def _hex_box(base: Path) -> tuple[Path, dict[str, str], dict[str, str]]:
    box, env = gitbox.make(base)
    gitbox.bash(box, env, TOP)
    ids = {name: gitbox.git(box, env, "rev-parse", rev) for name, rev in
           (("c1", "main~2"), ("c2", "main~1"), ("main", "main"))}  # fmt: skip
    ids |= {f"{k}_short": v[:7] for k, v in list(ids.items())}
    return box, env, ids


@pytest.mark.parametrize(("template", "loss"), HEX)
def test_rebase_onto_a_hex_id_stopped(isolated_home: Path, template: str, loss: str) -> None:
    box, env, ids = _hex_box(isolated_home / "b")
    command = template.format(**ids)
    feat = gitbox.git(box, env, "rev-parse", "feature~1")
    for variant in VARIANTS:
        decision, details = gitbox.hook(command, box, variant)
        assert decision == "deny", (variant, command)
        assert DROP in details, details
    gitbox.bash(box, env, command)
    assert not gitbox.git(box, env, "branch", "-a", "--contains", feat), command


@pytest.mark.parametrize("template", HEX_SAFE)
def test_rebase_onto_a_hex_id_keeping_commits_passes(isolated_home: Path, template: str) -> None:
    box, env, ids = _hex_box(isolated_home / "b")
    command = template.format(**ids)
    feat = gitbox.git(box, env, "rev-parse", "feature~1")
    for variant in VARIANTS:
        assert gitbox.hook(command, box, variant)[0] == "", (variant, command)
    gitbox.bash(box, env, command)
    assert gitbox.git(box, env, "branch", "-a", "--contains", feat), command


# HOME as a repository: a stash without pathspecs takes every change (with -u every
# untracked file) out of HOME, dcg's hook settings among them.
HOOKED = '{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"command": "dcg hook"}]}]}}\n'
HOME_STASH = [
    "cd ~ && git stash -u",
    "cd ~ && git stash",
    "git -C ~ stash -u",
    'git -C "$HOME" stash --include-untracked',
    "cd ~ && git stash push -a",
    "cd ~ && git stash push -u -m wip",
    'cd ~ && git stash save -u "wip"',
    "GIT_WORK_TREE=~ git stash -u",
    'cd "$HOME" && git stash --all',
    "git stash -u",  # ~/proj is no repository of its own: HOME's is the one
    "cd ~/.claude && git stash -u",
    "(cd ~ && git stash -u)",
    "pushd ~ && git stash -u",
    "git -C ~/.claude stash -u",
    "sh -c 'cd ~ && git stash -u'",
    'git --work-tree="$HOME" stash -u',
]
HOME_SAFE = ["cd ~ && git stash list", "cd ~ && git stash show -p || true", "git -C ~ stash list"]


def _home_repo(home: Path, own_project: bool = False) -> tuple[Path, dict[str, str]]:
    (home / ".claude").mkdir(parents=True, exist_ok=True)
    (home / ".claude" / "settings.json").write_text('{"hooks": {}}\n')
    (home / "proj").mkdir()
    env = {**os.environ, "HOME": str(home), "GIT_CONFIG_NOSYSTEM": "1", **GIT_IDENTITY}
    for step in (["init", "-q"], ["add", ".claude"], ["commit", "-qm", "dotfiles"]):
        subprocess.run(["git", *step], cwd=home, env=env, check=True, capture_output=True)
    (home / ".claude" / "settings.json").write_text(HOOKED)
    (home / "proj" / "work.txt").write_text("work\n")
    if own_project:
        for step in (["init", "-q"], ["add", "."], ["commit", "-qm", "p"]):
            subprocess.run(["git", *step], cwd=home / "proj", env=env, check=True)
        (home / "proj" / "work.txt").write_text("more work\n")
    return home / "proj", {"HOME": str(home), "PATH": os.environ["PATH"], **GIT_IDENTITY}


@pytest.mark.parametrize("command", HOME_STASH)
def test_stash_of_a_home_work_tree_stopped(isolated_home: Path, command: str) -> None:
    project, env = _home_repo(isolated_home)
    for variant in VARIANTS:
        decision, details = claude_hook(command, project, variant)
        assert decision == "deny", (variant, command)
        assert "core.dcg:" in details, details
    bash(command, project, env)
    assert (isolated_home / ".claude" / "settings.json").read_text() != HOOKED, command


@pytest.mark.parametrize(
    "command",
    [
        "git --git-dir=$HOME/.dotfiles --work-tree=$HOME stash -u",
        'git --git-dir="$HOME/.dotfiles" --work-tree ~ stash',
        "GIT_DIR=~/.dotfiles GIT_WORK_TREE=~ git stash -u",
        "cd ~ && GIT_DIR=.dotfiles GIT_WORK_TREE=. git stash",
    ],
)
def test_stash_through_a_bare_dotfiles_repository_stopped(
    isolated_home: Path, command: str
) -> None:
    (isolated_home / ".claude").mkdir()
    settings = isolated_home / ".claude" / "settings.json"
    settings.write_text('{"hooks": {}}\n')
    env = {"HOME": str(isolated_home), "PATH": os.environ["PATH"], **GIT_IDENTITY}
    bash("git init -q --bare ~/.dotfiles && git --git-dir=$HOME/.dotfiles --work-tree=$HOME "
         "add .claude && git --git-dir=$HOME/.dotfiles --work-tree=$HOME commit -qm d",
         isolated_home, env)  # fmt: skip
    settings.write_text(HOOKED)
    for variant in VARIANTS:
        decision, details = claude_hook(command, isolated_home, variant)
        assert decision == "deny", (variant, command)
        assert "core.dcg:" in details, details
    bash(command, isolated_home, env)
    # The settings put back, or (-u) the untracked ~/.dotfiles itself stashed away.
    gone = not (isolated_home / ".dotfiles").exists()
    assert gone or settings.read_text() != HOOKED, command


@pytest.mark.parametrize("command", HOME_SAFE)
def test_home_stash_reads_pass(isolated_home: Path, command: str) -> None:
    project, env = _home_repo(isolated_home)
    for variant in VARIANTS:
        assert claude_hook(command, project, variant)[0] == "", (variant, command)
    bash(command, project, env)
    assert (isolated_home / ".claude" / "settings.json").read_text() == HOOKED, command


@pytest.mark.parametrize("command", ["git stash -u", "git stash", "git stash push -a -m wip"])
def test_stash_in_a_project_of_its_own_passes(isolated_home: Path, command: str) -> None:
    project, env = _home_repo(isolated_home, own_project=True)
    for variant in VARIANTS:
        assert claude_hook(command, project, variant)[0] == "", (variant, command)
    bash(command, project, env)
    assert (isolated_home / ".claude" / "settings.json").read_text() == HOOKED, command
    assert (project / "work.txt").read_text() == "work\n"  # stashed, kept in the stash


@pytest.mark.parametrize("command", ["git stash", "git stash -u", "git stash push -a"])
def test_stash_in_an_ordinary_project_passes(isolated_home: Path, command: str) -> None:
    box, env = gitbox.make(isolated_home / "j")
    for variant in VARIANTS:
        assert gitbox.hook(command, box, variant)[0] == "", (variant, command)
    gitbox.bash(box, env, command)
    assert gitbox.git(box, env, "stash", "list"), command  # the work is in the stash
