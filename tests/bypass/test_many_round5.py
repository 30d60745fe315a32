"""Issue 32, round five: many files at once, Node deleters, and moves that defeat exemptions.

Many files emptied or replaced by a glob or a loop over their names (a redirection, tee,
cp, install, dd, sponge whose target is each of them) are a tree in effect, like the
multi-file delete; one named file is the safety net's. The Node ecosystem's deleters
besides rimraf (del-cli, trash-cli, premove), however they are launched, are rm -rf. A
tree moved by a rename tool, by an interpreter's rename, or into a place named at run
time (``$(mktemp -d)``) is deleted by a later deletion of what it became, a glob matching
it included. A tool that cleans an output directory the line moved work into is judged
in every placement the hook sees.

Each case goes through the hook with a real Claude Code payload in every hookpath variant,
in a git project with uncommitted work in src/ under the test's HOME; each must-stop line
is then run by real bash there (HOME and TMPDIR inside the test's directory, stdin empty)
and must destroy that work (skipped when its program is not installed, and for the Node
deleters run through npx, pnpm, yarn or bunx, which would fetch the package: hook only);
each must-pass line stays silent and keeps the work.
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
TRUNCATE = "core.filesystem:truncate"
RIMRAF = "core.filesystem:rimraf"
RM = "core.filesystem:rm-rf"
OPAQUE = "core.shell:opaque-exec"
AWK = "echo 'BEGIN{system(\"rm -rf src\")}'"
# A shared object whose constructor deletes the work once gawk loads it (it then fails
# as an extension, too late).
LIB = (
    "printf '#include <stdlib.h>\\n__attribute__((constructor)) static void f(void)"
    '{system(\\"rm -rf src\\");}\\n\' > e.c'
)
# (line, rule, program that must be installed to prove it)
STOP = [
    # many files emptied or replaced: a loop's glob
    ('for f in src/*; do : > "$f"; done', MANY, "bash"),
    ('for f in src/*.py; do : > "$f"; done', MANY, "bash"),
    ('for f in src/*; do echo -n > "$f"; done', MANY, "bash"),
    ("for f in src/*; do true > $f; done", MANY, "bash"),
    ('for f in src/*; do printf "" >| "$f"; done', MANY, "bash"),
    ('for f in src/*; do : &> "$f"; done', MANY, "bash"),
    ('for f in src/*; do sort "$f" > "$f"; done', MANY, "sort"),
    ('for f in src/*; do cp /dev/null "$f"; done', MANY, "cp"),
    ('for f in src/*; do cp Makefile "$f"; done', MANY, "cp"),
    ('for f in src/*; do install -m644 /dev/null "$f"; done', MANY, "install"),
    ('for f in src/*; do dd if=/dev/null of="$f"; done', MANY, "dd"),
    ('for f in src/*; do dd if=/dev/zero of="$f" bs=1 count=0; done', MANY, "dd"),
    ('for f in src/*; do echo | sponge "$f"; done', MANY, "sponge"),
    ('for f in src/*; do ln -sf /dev/null "$f"; done', MANY, "ln"),
    ('for f in src/*; do echo x > e; mv -f e "$f"; done', MANY, "mv"),
    ("git ls-files | xargs -n1 ln -sf /dev/null", MANY, "xargs"),
    ('cd src && for f in *; do : > "$f"; done', MANY, "bash"),
    # … a loop over a command's output, or names read
    ('for f in $(git ls-files); do > "$f"; done', MANY, "git"),
    ("for f in `git ls-files`; do : > $f; done", MANY, "git"),
    ("for f in $(find src -name '*.py'); do > \"$f\"; done", MANY, "find"),
    ('git ls-files | while read -r f; do : > "$f"; done', MANY, "git"),
    ('git ls-files | while read f; do cp /dev/null "$f"; done', MANY, "git"),
    ('while IFS= read -r f; do : > "$f"; done < <(git ls-files)', MANY, "git"),
    # … find's and xargs' names
    ("find src -name '*.py' -exec sh -c ': > \"$1\"' _ {} \\;", MANY, "find"),
    ("find src -type f -exec cp /dev/null {} \\;", MANY, "find"),
    ("find src -type f -exec sh -c 'for f; do : > \"$f\"; done' _ {} +", MANY, "find"),
    ('sh -c \'for f in "$@"; do : > "$f"; done\' _ src/*', MANY, "sh"),
    ("bash -c 'for f; do cp /dev/null \"$f\"; done' x src/*.py", MANY, "bash"),
    ("find src -type f | xargs -I{} sh -c ': > {}'", MANY, "xargs"),
    ("ls src | xargs -I{} sh -c ': > src/{}'", MANY, "xargs"),
    ("git ls-files -z | xargs -0 -n1 cp /dev/null", MANY, "xargs"),
    ("parallel ': > {}' ::: src/*", MANY, "sem"),  # GNU parallel's syntax (and its sem)
    # … tee of a glob
    ("tee src/* </dev/null", MANY, "tee"),
    ("printf '' | tee src/*.py", MANY, "tee"),
    ("echo | tee src/*", MANY, "tee"),
    ("tee src/*.py < /dev/null > /dev/null", MANY, "tee"),
    ("truncate -s0 src/*", TRUNCATE, "truncate"),
    # Node deleters besides rimraf, however launched (hook only: the runner would fetch them)
    ("npx del-cli src", RIMRAF, "npx"),
    ("npx del src", RIMRAF, "npx"),
    ("npx trash src", RIMRAF, "npx"),
    ("npx trash-cli src", RIMRAF, "npx"),
    ("npx -y del-cli src", RIMRAF, "npx"),
    ("npx -p del-cli del src", RIMRAF, "npx"),
    ("npx --package=del-cli del 'src/**'", RIMRAF, "npx"),
    ("npx --yes rimraf@5 src", RIMRAF, "npx"),
    ("npm exec -- del-cli src", RIMRAF, "npx"),
    ("pnpm dlx rimraf src", RIMRAF, "npx"),
    ("pnpm exec del src", RIMRAF, "npx"),
    ("yarn dlx del-cli src", RIMRAF, "npx"),
    ("bunx rimraf src", RIMRAF, "npx"),
    ("bunx premove src", RIMRAF, "npx"),
    ("bun x del-cli src", RIMRAF, "npx"),
    ("pnpx rimraf src", RIMRAF, "npx"),
    ("node_modules/.bin/del src", RIMRAF, "npx"),
    ("mv src node_modules; npx del-cli node_modules", RIMRAF, "npx"),
    ("mv src build; npx trash build", RIMRAF, "npx"),
    ("npx shx rm -rf src", RM, "npx"),
    # moves that defeat exemptions: rename tools
    ("rename s/src/build/ src; rm -rf build", RM, "rename"),
    ("rename src build src; rm -rf build", RM, "rename"),
    ("rename.ul src build src; rm -rf build", RM, "rename.ul"),
    ("prename 's/src/dist/' src && rm -rf dist", RM, "prename"),
    ("rename -v 's|src|node_modules|' src; rm -rf node_modules", RM, "rename"),
    ("rename 's/^/x/' src; rm -rf xsrc", RM, "rename"),
    ("rename 's/(.*)/$1.bak/' src; rm -rf src.bak", RM, "rename"),
    ("rename 's/(.)/X/' src && rm -rf Xrc", RM, "rename"),
    ("mmv src build; rm -rf build", RM, "mmv"),
    ("mmv 'src/*' 'build/#1'; rm -rf build", RM, "mmv"),
    # … an interpreter's rename
    ("python3 -c \"import os; os.rename('src','build')\"; rm -rf build", RM, "python3"),
    ("python3 -c \"import shutil; shutil.move('src','dist')\" && rm -rf dist", RM, "python3"),
    ("node -e \"require('fs').renameSync('src','node_modules')\"; rm -rf node_modules", RM, "node"),
    ('perl -e \'rename "src", "build"\'; rm -rf build', RM, "perl"),
    # … into a temp place, then a glob or computed path that reaches it
    ('mv src $(mktemp -d); rm -rf "$TMPDIR"/tmp.*', RM, "mktemp"),
    ('mv src "$(mktemp -d)/x"; rm -rf "$TMPDIR"/tmp.*', RM, "mktemp"),
    ('mv src "$(mktemp -d -p "$TMPDIR")"; rm -rf "$TMPDIR"/tmp.*', RM, "mktemp"),
    ('mv src "$(mktemp -d --tmpdir)"; rm -rf "$TMPDIR"/tmp.*', RM, "mktemp"),
    ('mv src "$TMPDIR/junk-$$"; rm -rf "$TMPDIR"/junk-*', RM, "bash"),
    ('mv src "$TMPDIR/x"; rm -rf "$TMPDIR"/?', RM, "bash"),
    ('mv src "$TMPDIR/x"; rm -rf "$TMPDIR"/x', RM, "bash"),
    # gawk: a program file included from the command line's program, native extensions
    (f"{AWK} > f.awk; gawk -e '@include \"f.awk\"'", RM, "gawk"),
    (f"{AWK} > f.awk; gawk '@include \"f.awk\"; BEGIN{{}}'", RM, "gawk"),
    (f"{AWK} > lib.awk; gawk -v x=1 '@include \"lib\"; BEGIN{{}}'", RM, "gawk"),
    (f"{AWK} > lib.awk; gawk --source='@include \"lib.awk\"' 'BEGIN{{}}'", RM, "gawk"),
    (f"{AWK} > lib.awk; gawk -F: -- '@include \"lib.awk\"'", RM, "gawk"),
    (f"{AWK} > lib.awk; printf '@include \"lib.awk\"\\n' > m.awk; gawk -f m.awk", RM, "gawk"),
    (f"{AWK} > f.awk; gawk -i f.awk 'BEGIN{{}}'", RM, "gawk"),
    (f"{AWK} > f.awk; AWKPATH=. gawk -i f 'BEGIN{{}}'", RM, "gawk"),
    (f"{LIB} && gcc -shared -fPIC -o x.so e.c && gawk -l ./x.so 'BEGIN{{}}'", OPAQUE, "gcc"),
    (f"{LIB} && gcc -shared -fPIC -o x.so e.c && gawk --load=./x.so 'BEGIN{{}}'", OPAQUE, "gcc"),
    (f"{LIB} && gcc -shared -fPIC -o x.so e.c && gawk '@load \"./x\"; BEGIN{{}}'", OPAQUE, "gcc"),
    (
        f"{LIB} && gcc -shared -fPIC -o x.so e.c && printf '@load \"./x\"\\n' > m.awk && "
        "gawk -f m.awk",
        OPAQUE,
        "gcc",
    ),
]
# Programs whose proof would fetch a package from a registry.
NOT_RUN = ("npx",)
PASS = [
    ": > src/b.py",
    "cp /dev/null src/b.py",
    "cat /dev/null | tee src/b.py",
    "truncate -s 1G src/b.py",
    'for f in src/*; do sed s/a/b/ "$f" > "$f.new"; done',
    'for f in src/*.py; do cp "$f" "$f.bak"; done',
    'for f in src/*.py; do cp "$f" "${f%.py}.txt"; done',
    'for f in $(git ls-files); do cp "$f" "$TMPDIR/$f"; done',
    'for f in src/*; do cp -n /dev/null "$f"; done',
    'for f in src/*.py; do mv "$f" "${f%.py}.txt"; mv "${f%.py}.txt" "$f"; done',
    'for f in src/*; do ln -s "$f" "$f.link"; done',
    'for f in src/*; do tee -a "$f" < /dev/null; done',
    'for f in src/*; do echo "$f" >> list.txt; done',
    'for f in src/*.py; do wc -l "$f"; done > counts.txt',
    'for f in src/*; do cat "$f"; done > all.txt',
    'for f in dist/*; do : > "$f"; done',
    'for f in a.txt b.txt; do : > "$f"; done',
    "ls *.py > files.txt",
    "make 2>&1 | tee build.log",
    "git ls-files | xargs wc -l > stats.txt",
    "sh -c 'for f; do wc -l \"$f\"; done' _ src/*",
    'find src -type f -exec sh -c \'for f; do cat "$f" > "$f.bak"; done\' _ {} +',
    "echo 'for f in src/*; do : > \"$f\"; done'",
    "git commit -qm 'empty them: for f in src/*; do : > $f; done'",
    "npx rimraf dist",
    "npx rimraf node_modules",
    "npx del-cli dist",
    "npx del-cli --dry-run src",
    "npm run del",
    "echo npx del-cli src",
    "mv a.txt /tmp/",
    "rename 's/\\.txt$/.md/' *.txt",
    "rename 's/\\.txt$/.md/' *.txt; rm -rf dist",
    "rename 's/foo/bar/' src/*.py; rm -rf build",
    "mv src build; ls build; mv build src",
    'd=$(mktemp -d); mv a.txt "$d"; ls "$TMPDIR"/tmp.*',
    'd=$(mktemp -d); mv dist "$d"; rm -rf "$d"',
    "awk '{print $1}' a.txt",
    "awk -F: '{print $1}' /etc/passwd",
    'gawk -l filefuncs \'BEGIN{stat("a.txt", s); print s["size"]}\'',
    "gawk '@load \"time\"; BEGIN{print gettimeofday()}'",
    "gawk -i inplace '{print}' a.txt",
    "echo 'BEGIN{print 1}' > f.awk; gawk -e '@include \"f.awk\"'",
    "echo '@load \"./x\"'",
]

# Tools that delete an output directory without naming it (dcg.shell.moves._CLEANERS),
# after the line moved work into it: judged in every placement (proven in real bash by
# tests/bypass/test_exemptions_defeated.py).
CLEANERS = [
    "mv src node_modules; npm ci",
    "mv src node_modules; npm ci --no-audit --no-fund",
    "mv src .venv && python3 -m venv --clear .venv",
    "mv src target && cargo clean",
    "mv src build; ./gradlew clean",
    "mv src target/ && mvn -q clean install",
    "mkdir -p target && mv src target/ && cargo clean --release",
    "mv src build && flutter clean",
]


@pytest.fixture(autouse=True)
def _hook_tmpdir(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hook's $TMPDIR is a temp dir it exempts (the sandbox's own TMPDIR is not)."""
    monkeypatch.setenv("TMPDIR", "/tmp")


def _project() -> tuple[Path, dict[str, str]]:
    """A git project in the test's HOME: src/ with uncommitted work, a Makefile, a
    package.json, dist/ output it ignores."""
    home = Path(os.environ["HOME"])
    box = home / "proj"
    files = {
        "src/a.py": "a = 1\n",
        "src/b.py": "b = 2\n",
        "Makefile": "build:\n\techo build\n",
        "package.json": '{"name": "x", "scripts": {"build": "echo hi"}}\n',
        "a.txt": "notes\n",
        ".gitignore": "tmp/\ndist/\n",
        "dist/out.js": "1\n",
        "dist/out2.js": "2\n",
    }
    for rel, text in files.items():
        (box / rel).parent.mkdir(parents=True, exist_ok=True)
        (box / rel).write_text(text)
    (box / "tmp").mkdir()
    for git in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base"]):
        subprocess.run(["git", *git], cwd=box, env={**os.environ, **GIT_IDENTITY}, check=True)
    (box / "src" / "a.py").write_text("uncommitted work\n")
    env = {"HOME": str(home), "TMPDIR": str(box / "tmp"), "PATH": os.environ["PATH"],
           "npm_config_cache": str(box / "tmp" / "npm"), "npm_config_update_notifier": "false",
           "npm_config_offline": "true", **GIT_IDENTITY}  # fmt: skip
    return box, env


def _kept(box: Path) -> bool:
    work = box / "src" / "a.py"
    return work.exists() and work.read_text() == "uncommitted work\n"


def _bash(command: str, box: Path, env: dict[str, str]) -> None:
    subprocess.run([shutil.which("bash") or "bash", "-c", command], cwd=box, env=env,
                   stdin=subprocess.DEVNULL, capture_output=True, timeout=60,
                   check=False, start_new_session=True)  # fmt: skip


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("command", "rule", "program"), STOP)
def test_many_files_node_deleters_and_moves_are_stopped(
    command: str, rule: str, program: str, variant: str
) -> None:
    box, _ = _project()
    decision, spec = claude_hook(command, box, variant)
    assert decision == "deny", spec
    assert rule in spec, spec


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("command", CLEANERS)
def test_cleaning_output_holding_moved_work_is_stopped_in_every_placement(
    command: str, variant: str
) -> None:
    box, _ = _project()
    decision, spec = claude_hook(command, box, variant)
    assert decision == "deny", spec
    assert RM in spec, spec


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("command", PASS)
def test_single_files_and_new_names_pass(command: str, variant: str) -> None:
    box, _ = _project()
    assert claude_hook(command, box, variant)[0] in ("", "allow")


@pytest.mark.parametrize(("command", "rule", "program"), STOP)
def test_stopped_lines_destroy_the_work_in_real_bash(command: str, rule: str, program: str) -> None:
    if program in NOT_RUN or shutil.which("bash") is None or shutil.which(program) is None:
        pytest.skip(f"needs bash and {program}")
    box, env = _project()
    _bash(command, box, env)
    assert not _kept(box), command


@pytest.mark.parametrize("command", PASS)
def test_passing_lines_keep_the_work_in_real_bash(command: str) -> None:
    if shutil.which("bash") is None:
        pytest.skip("needs bash")
    box, env = _project()
    _bash(command.replace("npx ", "echo npx "), box, env)  # nothing fetched
    assert _kept(box), command
