"""Issue 32, round six: commands run once per name, however the name is spelled.

xargs' replacement string is any string it is given (``-I %``, ``-I FILE``, ``-IX``, ``-i``,
``--replace[=X]``), and GNU parallel's (``-I STR``, ``--replace=STR``, ``{1}``; with ``:::``
also ``{.}``, ``{/}``, ``{//}``, ``{/.}`` made from each argument): each stands for every
name read, as ``{}`` does, so emptying or replacing it is many files at once
(core.filesystem:truncate-many), git's copy written over it (``> NAME``, ``git show REV:NAME
--output=NAME``) puts back each listed file (core.git:listed-overwrite), and text it is
handed is run as written. A name replaced in two steps is judged by what it holds at the
end: a file built from other content (``: >``, ``git show HEAD:"$f"``, ``echo "$f"``, ``cp
/dev/null t``) moved or copied over each name replaces it; one built by a filter of the name
itself (``sed … "$f" > "$f.new"; mv "$f.new" "$f"``) is an edit of each, as ``sed -i`` is. A
find whose expression selects only leftovers by their extension (``-name '*.orig'``,
``'*~'``, ``'*.rej'``) or build output feeds litter: emptying each, or ``-delete``, passes
as ``rm src/*.orig`` does, while ``-type f``, ``! -name`` or work names stop.

Each case goes through the hook with a real Claude Code payload in every hookpath variant,
in a git project with uncommitted work in src/ under the test's HOME; each must-stop line
is then run by real bash there and must destroy that work (skipped when its program is not
installed: GNU parallel's lines are hook only, /usr/bin/parallel may be moreutils'); each
must-pass line stays silent and keeps the work.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hookpath import VARIANTS
from sandbox import GIT_IDENTITY, claude_hook

MANY = "core.filesystem:truncate-many"
LISTED = "core.git:listed-overwrite"
CHECKOUT = "core.git:checkout-discard"
RM = "core.filesystem:rm-rf"
GNU = "gnu-parallel"  # never on PATH under this name: GNU parallel's syntax, hook only

# (line, rule, program that must be installed to prove it)
STOP = [
    # xargs' replacement string, any spelling
    ("git ls-files -z | xargs -0 -I % sh -c ': > %'", MANY, "xargs"),
    ("git ls-files | xargs -I FILE cp /dev/null FILE", MANY, "xargs"),
    ("git ls-files | xargs -IX cp /dev/null X", MANY, "xargs"),
    ("git ls-files | xargs --replace=X cp /dev/null X", MANY, "xargs"),
    ("git ls-files | xargs -i cp /dev/null {}", MANY, "xargs"),
    ("git ls-files | xargs --replace cp /dev/null {}", MANY, "xargs"),
    ("git ls-files | xargs -I% cp /dev/null %", MANY, "xargs"),
    ("git ls-files | xargs -I @ sh -c 'echo > @'", MANY, "xargs"),
    ("git ls-files | xargs -I% sh -c 'tee % < /dev/null'", MANY, "xargs"),
    ("find src -type f | xargs -I F dd if=/dev/null of=F", MANY, "xargs"),
    ("git ls-files -z | xargs -0I% cp /dev/null %", MANY, "xargs"),
    ("git ls-files | xargs -t -r -I % install -m644 /dev/null %", MANY, "xargs"),
    ("git ls-files | xargs -P2 -I% ln -sf /dev/null %", MANY, "xargs"),
    ("find src -type f -print0 | xargs -0 -I% sh -c ': > \"$1\"' _ %", MANY, "xargs"),
    ("git ls-files -m | xargs -I% sh -c 'git show HEAD:% > %'", LISTED, "xargs"),
    ("git ls-files -m | xargs -I NAME sh -c 'git show HEAD:NAME > NAME'", LISTED, "xargs"),
    ("git ls-files -m | xargs -I NAME git checkout HEAD -- NAME", CHECKOUT, "xargs"),
    ("git diff --name-only | xargs -I% git show HEAD:% --output=%", LISTED, "xargs"),
    ("git diff --name-only | xargs -I{} git show HEAD:{} --output={}", LISTED, "xargs"),
    ('for f in $(git diff --name-only); do git show HEAD:"$f" --output="$f"; done', LISTED, "git"),
    ("find src -type f -exec git show HEAD:{} --output={} \\;", LISTED, "find"),
    ("echo 'rm -rf src' | xargs -I CMD sh -c CMD", RM, "xargs"),
    # GNU parallel's replacement strings (hook only)
    ("git ls-files | parallel -I % ': > %'", MANY, GNU),
    ("git ls-files | parallel -I@@ 'cp /dev/null @@'", MANY, GNU),
    ("git ls-files | parallel --replace=X 'cp /dev/null X'", MANY, GNU),
    ("parallel ': > {1}' ::: src/*", MANY, GNU),
    ("parallel ': > {.}.py' ::: src/*.py", MANY, GNU),
    ("parallel -I % 'cp /dev/null %' ::: src/*", MANY, GNU),
    # a name replaced in two steps by a file made from other content
    ("git ls-files -m | xargs -I% sh -c 'git show HEAD:% > %.tmp && mv %.tmp %'", MANY, "xargs"),
    (
        'git ls-files -m | while read f; do git show HEAD:"$f" > "$f.new"; mv "$f.new" "$f"; done',
        MANY,
        "git",
    ),
    ('for f in $(git diff --name-only); do cp /dev/null t; mv t "$f"; done', MANY, "git"),
    ('for f in src/*.py; do : > "$f.new"; mv "$f.new" "$f"; done', MANY, "bash"),
    ('for f in src/*.py; do git show HEAD:"$f" > "$f.new"; mv "$f.new" "$f"; done', MANY, "git"),
    ('for f in src/*.py; do echo "$f" > "$f.new"; mv "$f.new" "$f"; done', MANY, "bash"),
    ('for f in src/*.py; do git diff "$f" > "$f.new"; mv "$f.new" "$f"; done', MANY, "git"),
    ('for f in src/*.py; do printf \'\' > "$f.tmp" && cp "$f.tmp" "$f"; done', MANY, "cp"),
    ('for f in src/*.py; do cp /dev/null "$f.new"; mv -f "$f.new" "$f"; done', MANY, "mv"),
    ('git ls-files | while read -r f; do : > "$f.tmp"; mv "$f.tmp" "$f"; done', MANY, "git"),
    ("git ls-files | xargs -I% sh -c ': > %.s && mv %.s %'", MANY, "xargs"),
    (
        'find src -type f -exec sh -c \'for f; do : > "$f.n"; mv "$f.n" "$f"; done\' _ {} +',
        MANY,
        "find",
    ),
    (
        'find src -type f -exec sh -c \'git show HEAD:"$1" > "$1.n" && mv "$1.n" "$1"\' _ {} \\;',
        MANY,
        "find",
    ),
    # find selecting work, not leftovers
    ("find src -type f -exec sh -c ': > \"$1\"' _ {} \\;", MANY, "find"),
    ("find src ! -name '*.orig' -exec sh -c ': > \"$1\"' _ {} \\;", MANY, "find"),
    ("find src -not -name '*.bak' -exec cp /dev/null {} \\;", MANY, "find"),
    (
        "find . \\( -name '*.rej' -o -name '*.py' \\) -exec sh -c ': > \"$1\"' _ {} \\;",
        MANY,
        "find",
    ),
    ("find src -name '*.py' | xargs -I% cp /dev/null %", MANY, "xargs"),
    ("find src -name '*.py' | xargs -n1 cp /dev/null", MANY, "xargs"),
]
PASS = [
    "git ls-files | xargs -I% cp % %.bak",
    "git ls-files | xargs -I F echo F",
    "git ls-files | xargs -I% sh -c 'wc -l % > %.count'",
    "git ls-files | xargs -I{} grep -l foo {}",
    "git ls-files | xargs -I% cp --parents % tmp/",
    "xargs -I% cp /dev/null % <<< src/b.py",
    ": > src/b.py",
    "git show HEAD:src/b.py --output=src/b.py",
    "git diff --name-only | xargs -I% git show HEAD:% --output=tmp/%.orig",
    "git ls-files | parallel 'wc -l {}'",
    "parallel 'cp {} {.}.bak' ::: src/*.py",
    "parallel 'gzip -c {} > {}.gz' ::: src/*.py",
    # find selecting leftovers
    "find src -name '*.orig' -exec sh -c ': > \"$1\"' _ {} \\;",
    "find src -name '*.orig' -exec cp /dev/null {} \\;",
    "find . \\( -name '*.rej' -o -name '*.orig' \\) -exec sh -c ': > \"$1\"' _ {} \\;",
    "find . -name '*~' -exec sh -c ': > \"$1\"' _ {} +",
    "find src -name '*.orig' | xargs -I{} cp /dev/null {}",
    "find src -name '*.orig' | xargs -n1 cp /dev/null",
    "find src -name '*.tmp' -exec dd if=/dev/null of={} \\;",
    "find . -name '*.orig' -delete",
    "find src -name '*.orig' -o -name '*.rej' -delete",
    # a name replaced by an edit of itself
    'for f in src/*.py; do sed \'s/a/b/\' "$f" > "$f.new"; mv "$f.new" "$f"; done',
    'for f in src/*.py; do sed \'s/a/b/\' "$f" > "$f.new" && mv "$f.new" "$f"; done',
    'git ls-files | while read f; do tr a b < "$f" > "$f.tmp"; mv "$f.tmp" "$f"; done',
    'for f in src/*.py; do sed \'s/a/b/\' "$f" > t; mv t "$f"; done',
    'for f in src/*.py; do cat "$f" | tr a b > "$f.new"; mv "$f.new" "$f"; done',
    "git ls-files | xargs -I% sh -c 'sort % > %.s && mv %.s %'",
    'find src -type f -exec sh -c \'sed s/a/b/ "$1" > "$1.n" && mv "$1.n" "$1"\' _ {} \\;',
    # only mentioned
    "echo 'git ls-files | xargs -I% cp /dev/null %'",
    "git commit -qm 'xargs -I% sh -c \": > %\" empties them'",
]


@pytest.fixture(autouse=True)
def _hook_tmpdir(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hook's $TMPDIR is a temp dir it exempts (the sandbox's own TMPDIR is not)."""
    monkeypatch.setenv("TMPDIR", "/tmp")


def _project() -> tuple[Path, dict[str, str]]:
    """A git project in the test's HOME: src/ with uncommitted work in a.py, output
    ignored in tmp/."""
    home = Path(os.environ["HOME"])
    box = home / "proj"
    files = {"src/a.py": "a = 1\n", "src/b.py": "b = 2\n", ".gitignore": "tmp/\n"}
    for rel, text in files.items():
        (box / rel).parent.mkdir(parents=True, exist_ok=True)
        (box / rel).write_text(text)
    (box / "tmp").mkdir()
    for git in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base"]):
        subprocess.run(["git", *git], cwd=box, env={**os.environ, **GIT_IDENTITY}, check=True)
    (box / "src" / "a.py").write_text("uncommitted work\n")
    env = {"HOME": str(home), "TMPDIR": str(box / "tmp"), "PATH": os.environ["PATH"],
           "GIT_PAGER": "cat", **GIT_IDENTITY}  # fmt: skip
    return box, env


def _kept(box: Path) -> bool:
    work = box / "src" / "a.py"
    return work.is_file() and not work.is_symlink() and work.read_text() == "uncommitted work\n"


def _bash(command: str, box: Path, env: dict[str, str]) -> None:
    subprocess.run([shutil.which("bash") or "bash", "-c", command], cwd=box, env=env,
                   stdin=subprocess.DEVNULL, capture_output=True, timeout=60,
                   check=False, start_new_session=True)  # fmt: skip


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("command", "rule", "program"), STOP)
def test_each_name_emptied_or_replaced_is_stopped(
    command: str, rule: str, program: str, variant: str
) -> None:
    box, _ = _project()
    decision, spec = claude_hook(command, box, variant)
    assert decision == "deny", spec
    assert rule in spec, spec


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("command", PASS)
def test_edits_leftovers_and_new_names_pass(command: str, variant: str) -> None:
    box, _ = _project()
    assert claude_hook(command, box, variant)[0] in ("", "allow")


@pytest.mark.parametrize(("command", "rule", "program"), STOP)
def test_stopped_lines_destroy_the_work_in_real_bash(command: str, rule: str, program: str) -> None:
    if shutil.which("bash") is None or shutil.which(program) is None:
        pytest.skip(f"needs bash and {program}")
    box, env = _project()
    _bash(command, box, env)
    assert not _kept(box), command


@pytest.mark.parametrize("command", PASS)
def test_passing_lines_keep_the_work_in_real_bash(command: str) -> None:
    if shutil.which("bash") is None:
        pytest.skip("needs bash")
    box, env = _project()
    _bash(command.replace("parallel ", "echo parallel "), box, env)  # moreutils' is not GNU's
    assert _kept(box), command
