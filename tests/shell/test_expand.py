"""Issue 12, points 1 and 6: words as bash expands them, targets as bash resolves them.

Every must-stop case goes through ``dcg.hook.main`` in every agent's real payload and, for
Claude Code, in every placement of ``tests/hookpath.py`` (later line, tab, CRLF, comment,
heredoc, ``bash -c``); the engine names the rule. Each case is also proven real, the way
its ``proof`` says:

- ``sandbox``: run in real bash in a throwaway directory (HOME, TMPDIR and cwd inside
  it, canary files); some canary is destroyed.
- ``fake``: the targets would leave the sandbox, so it runs with PATH holding only fake
  ``rm``/``find``/``shred``/``truncate``/``git`` that record their arguments; bash's own
  expansion is proven to hand them a path outside the sandbox (or git its destructive
  subcommand). Nothing is deleted.
- ``word``: a glob in the command word; only the word is expanded (``printf``), proving it
  names the destructive program on this machine. Never run.

Must-pass cases pass the hook in every payload and placement, and those that stay inside
the sandbox are run there, leaving every canary intact.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import hookpath
from dcg.engine import evaluate
from dcg.packs import all_ids

CWD = "/home/dev/project"
RF, RC = "core.filesystem:rm-rf", "core.filesystem:rm-rf-critical"
FD, FC = "core.filesystem:find-delete", "core.filesystem:find-delete-critical"
AF, SH, TR = "core.filesystem:rm-all-files", "core.filesystem:shred", "core.filesystem:truncate"
GR, GC = "core.git:reset-hard", "core.git:clean-force"
S, F, W = "sandbox", "fake", "word"
NL = "\\\n"  # a line continuation

# (command, rule the engine must name, proof)
BRACES = [
    ("{rm,-rf,src}", RF, S),
    ("{rm,-r,src}", RF, S),
    ("{rm,-fr,./src}", RF, S),
    ("r{m,} -rf src", RF, S),
    ("{r,}m -rf src", RF, S),
    ("r{m,x} -rf src", RF, S),
    ("rm -r{f,} src", RF, S),
    ("rm -{r,f} src", RF, S),
    ("rm {-rf,src}", RF, S),
    ("rm -rf {src,lib}", RF, S),
    ("rm -rf s{r,}c", RF, S),
    ("rm -rf {s,}rc", RF, S),
    ("rm -rf sr{a..c}", RF, S),
    ("rm -rf {q..s}rc", RF, S),
    ("{find,.,-delete}", FD, S),
    ("find {.,-delete}", FD, S),
    ("{shred,-u,src/canary}", SH, S),
    ("{truncate,-s0,src/canary}", TR, S),
    ("eval {rm,-rf,src}", RF, S),
    ("nice {rm,-rf,src}", RF, S),
    ("timeout 9 {rm,-rf,src}", RF, S),
    ("env {rm,-rf,src}", RF, S),
    ("bash -c '{rm,-rf,src}'", RF, S),
    ("xargs {rm,-rf} <<< src", RF, S),
    ("{rm,-rf}${IFS}src", RF, S),
    ("rm -rf ~/{tmp,.ssh}", RC, S),
    ("rm -rf ~/{.cache,Documents}", RC, S),
    ("rm -rf {~,$TMPDIR/x}", RC, S),
    ("{git,reset,--hard}", GR, "fake:reset --hard"),
    ("git {reset,--hard}", GR, "fake:reset --hard"),
    ("git reset --{hard,}", GR, "fake:reset --hard"),
    ("git clean -{f,d}", GC, "fake:clean -f -d"),
    ("{git,clean,-fdx}", GC, "fake:clean -fdx"),
    ("rm -rf /tmp/{x,../home}", RC, F),
    ("rm -rf /tmp/{a,..}", RC, F),
    ("rm -rf /tmp/{,../}etc", RC, F),
    ("rm -rf /var/tmp/{cache,../../usr}", RC, F),
    ("rm -rf /tmp/{build,../../home/*}", RC, F),
    ("rm -rf /{usr,opt}/local/x", RC, F),
    ("rm -rf /{etc,boot}", RC, F),
    ("rm -rf /{,}", RC, F),
    ("rm -rf /e{t,}c", RC, F),
    ("rm -rf /{h,}ome", RC, F),
    ("rm -r /{etc,var}", RC, F),
    ("find /{etc,tmp} -delete", FC, F),
    ("rm -rf /tmp/x/{..,y}/../etc", RC, F),
]

GLOB_WORDS = [
    ("/???/r? -rf src", RF, W),
    ("/b??/rm -rf src", RF, W),
    ("/bin/r[m] -rf src", RF, W),
    ("/bin/r? -rf src", RF, W),
    ("/usr/bin/r[l-n] -rf src", RF, W),
    ("/*/bin/rm -rf src", RF, W),
    ("/u*/b*/rm -rf src", RF, W),
    ("/bin/[r]m -rf src", RF, W),
    ("/usr/bin/r* -r src", RF, W),
    ("/???/g?t reset --hard", GR, W),
    ("/usr/bin/gi[t] reset --hard", GR, W),
    ("/usr/bin/g?t clean -fd", GC, W),
    ("/bin/sh?ed -u src/canary", SH, W),
    ("/usr/bin/tr?ncate -s 0 src/canary", TR, W),
    ("/???/f?nd . -delete", FD, W),
    ("timeout 5 /???/r? -rf src", RF, W),
    ("env /bin/r[m] -rf src", RF, W),
    ("nice -n 5 /usr/bin/r? -rf src", RF, W),
    ("bash -c '/???/r? -rf src'", RF, W),
    ("command /bin/r[m] -rf src", RF, W),
    ('ln -s "$(command -v rm)" rm && ./r? -rf src', RF, S),
    ('cp "$(command -v rm)" ./rm && ./[r]m -rf src', RF, S),
]

GLOB_TARGETS = [
    ("rm -rf /h*", RC, F),
    ("rm -rf /u?r", RC, F),
    ("rm -rf /e[t]c", RC, F),
    ("rm -rf /[eu]*", RC, F),
    ("rm -rf /*/lib", RC, F),
    ("rm -rf /b??t", RC, F),
    ("rm -rf /?ar", RC, F),
    ("rm -rf /o?t", RC, F),
    ("rm -rf /tmp/../h*", RC, F),
    ("rm -rf /./e*", RC, F),
    ("find /h* -delete", FC, F),
    ("rm -rf ~/.s?h", RC, S),
    ("rm -rf ~/.ss*", RC, S),
    ("rm -rf ~/.c*", RC, S),
    ("rm -rf ~/D*", RC, S),
    ("rm -rf ~/Doc*", RC, S),
    ("rm -rf ~/.[s]sh", RC, S),
    ("rm -rf ~/.*", RC, S),
    ("rm -rf $HOME/D?cuments", RC, S),
    ("rm -r ~/.s*h", RC, S),
    ("find ~/.s?h -type f -delete", FC, S),
]

IFS = [
    ("rm${IFS}-rf${IFS}src", RF, S),
    ("rm$IFS-rf$IFS'src'", RF, S),
    ("x=rm${IFS}-rf${IFS}src; $x", RF, S),
    ("IFS=,; c=rm,-rf,src; $c", RF, S),
    ("IFS=:; set -- rm:-rf:src; $1", RF, S),
    ("IFS=_; c=rm_-rf_src; $c", RF, S),
    ('IFS=,; x="rm,-rf,src"; $x', RF, S),
    ("t=rm; IFS=x; c=${t}x-rfxsrc; $c", RF, S),
    ("IFS=/; p=rm/-rf/src; $p", RF, S),
    ("bash -c 'rm${IFS}-rf${IFS}src'", RF, S),
    ('eval "rm\\${IFS}-rf\\${IFS}src"', RF, S),
    ("find${IFS}.${IFS}-delete", FD, S),
    ("shred${IFS}-u${IFS}src/canary", SH, S),
    ("truncate${IFS}-s0${IFS}src/canary", TR, S),
    ("IFS=.; c=rm.-r.src; $c", RF, S),
    ("git${IFS}reset${IFS}--hard", GR, "fake:reset --hard"),
    ("IFS=-; x=git-reset; $x --hard", GR, "fake:reset --hard"),
    ("IFS=,; g=git,clean,-fd; $g", GC, "fake:clean -fd"),
]

CONTINUATIONS = [
    (f"r{NL}m -rf src", RF, S),
    (f"rm -r{NL}f src", RF, S),
    (f"rm {NL}-rf {NL}src", RF, S),
    (f"r{NL}{NL}m -rf src", RF, S),
    (f"sh{NL}red -u src/canary", SH, S),
    (f"fi{NL}nd . -delete", FD, S),
    (f"trun{NL}cate -s 0 src/canary", TR, S),
    (f"bash -c 'r{NL}m -rf src'", RF, S),
    (f"rm -rf s{NL}rc", RF, S),
    (f"nice r{NL}m -r src", RF, S),
    (f"g{NL}it reset --hard", GR, "fake:reset --hard"),
    (f"git res{NL}et --ha{NL}rd", GR, "fake:reset --hard"),
    (f"git cl{NL}ean -f{NL}d", GC, "fake:clean -fd"),
]

VARIABLES = [
    ("rm -rf $TMPDIR/home", RC, F),
    ('rm -rf "$TMPDIR/etc"', RC, F),
    ("rm -rf ${TMPDIR}/usr", RC, F),
    ("rm -rf $TMP/home", RC, F),
    ('rm -rf "$TEMP"/var', RC, F),
    ("rm -rf $TMPDIR/", RC, F),
    ('rm -rf "$TMPDIR"/*', RC, F),
    ("rm -rf $TMPDIR/src", RF, F),
    ("find $TMPDIR/ -delete", FC, F),
    ("TMPDIR=/; rm -rf $TMPDIR/etc", RC, F),
    ("TMPDIR=/usr; rm -rf $TMPDIR/lib", RC, F),
    ("TMPDIR=~; rm -rf $TMPDIR/*", RC, S),
    ("export TMPDIR=/home; rm -rf $TMPDIR", RC, F),
    ('d=~/; rm -r "$d"', RC, S),
    ('h=$HOME; rm -rf "$h"', RC, S),
    ("t=/tmp; t=/etc; rm -rf $t", RC, F),
    ("b=..; rm -rf /tmp/$b/home", RC, F),
    ("d=.; cd /; rm -rf $d/usr", RC, F),
    ("p=/; rm -rf ${p}etc", RC, F),
    ("x=/home; y=$x; rm -rf $y", RC, F),
    ('read d <<< /etc; rm -rf "$d"', RC, F),  # read from a here-string: d is /etc
    ('read d < <(echo /etc); rm -rf "$d"', RF, F),  # read from a command: unknown
    ('TMPDIR=$HOME; rm -rf "$TMPDIR"/*', RC, S),
    ("TMP=/var; rm -rf ${TMP}/lib", RC, F),
]

CD = [
    ("cd ~ && rm -r src", RF, S),
    ("cd ~; rm -rf .ssh", RC, S),
    ("cd && rm -rf Documents", RC, S),
    ("cd / && rm -rf etc", RC, F),
    ("cd /usr; rm -rf lib", RC, F),
    ("cd /tmp && rm -rf ../home", RC, F),
    ("cd /tmp/x; rm -rf ../../etc", RC, F),
    ("pushd / && rm -rf var", RC, F),
    ("cd ~ && rm -rf .*", RC, S),
    ("cd $HOME && rm -rf ./*", RC, S),
    ("cd ~/.ssh && rm -f *", AF, S),
    ("(cd / && rm -rf usr)", RC, F),
    ("cd /; find . -delete", FC, F),
    ("cd ~ && find . -name '*' -delete", FC, S),
    ("cd ~ && shred -u .ssh/canary", SH, S),
    ("cd src && rm -f *", AF, S),
    ("cd src; truncate -s 0 canary", TR, S),
    ("cd ~/Documents && rm -r ../.ssh", RC, S),
]

RM_R = [
    ("rm -r src", RF, S),
    ("rm -R src", RF, S),
    ("rm --recursive src", RF, S),
    ("rm -r -v src", RF, S),
    ("rm -dr src", RF, S),
    ("rm -r src lib", RF, S),
    ("rm -r ./src/", RF, S),
    ("rm -r ~", RC, S),
    ("rm -r /etc", RC, F),
    ("rm -R ~/.ssh", RC, S),
    ("nice rm -r src", RF, S),
    ("timeout 9 rm -r src", RF, S),
    ("rm --recur src", RF, S),
    ("rm -r -- src", RF, S),
]

FEEDS = [
    ("find . -name canary | xargs rm", FD, S),
    ("find src -type f | xargs rm -f", FD, S),
    ("find . -type f -print0 | xargs -0 rm", FD, S),
    ("find src | xargs -I{} rm {}", FD, S),
    ("find . -name '*canary*' | xargs -n1 rm", FD, S),
    ("find src -type f | xargs shred -u", FD, S),
    ("ls src/* | xargs rm", AF, S),
    ("cat files.txt | xargs rm", AF, S),
    ("xargs rm < files.txt", AF, S),
    ("xargs -a files.txt rm", AF, S),
    ("find src -type f -exec sh -c 'rm -- \"$0\"' {} \\;", FD, S),
    ("find src -exec bash -c 'for f; do rm \"$f\"; done' _ {} +", FD, S),
    ("find src -type f -exec sh -c 'shred -u \"$1\"' sh {} \\;", FD, S),
    ("find src -type f -exec env rm {} +", FD, S),
    ("find src -type f -exec nice rm {} \\;", FD, S),
    ("find src -type f -execdir sh -c 'rm \"$@\"' _ {} +", FD, S),
    ("find ~ -name canary -exec sh -c 'rm \"$1\"' _ {} \\;", FC, S),
    ("find / -name x -exec sh -c 'rm \"$1\"' _ {} \\;", FC, F),
    ("find . -type f -exec sh -c 'unlink \"$1\"' _ {} \\;", FD, S),
    ("find src -type f -exec truncate -s 0 {} +", TR, S),
]

RM_ALL = [
    ("rm -f *", AF, S),
    ("rm *", AF, S),
    ("rm -f ./*", AF, S),
    ("rm -f src/*", AF, S),
    ("rm -- *", AF, S),
    ("rm -f .* *", AF, S),
    ("rm -v src/*", AF, S),
    ("rm -f ~/.ssh/*", AF, S),
    ("rm -f *.*", AF, S),
    ("rm -f ?*", AF, S),
    ("rm src/?*", AF, S),
    ("cd src && rm *", AF, S),
]

SHRED = [
    ("shred -u src/canary", SH, S),
    ("shred src/canary", SH, S),
    ("shred -n 1 -z src/canary", SH, S),
    ("shred --remove src/canary", SH, S),
    ("shred -fuz src/canary", SH, S),
    ("shred -u -- src/canary", SH, S),
    ("shred -u ~/.ssh/canary", SH, S),
    ("shred -u canary.txt", SH, S),
    ("find src -type f -exec shred -u {} +", FD, S),
    ("shred -s 4 src/canary", SH, S),
    ("nice shred -u src/canary", SH, S),
]

TRUNCATE = [
    ("truncate -s 0 src/canary", TR, S),
    ("truncate -s0 src/canary", TR, S),
    ("truncate --size=0 src/canary", TR, S),
    ("truncate --size 0 src/canary", TR, S),
    ("truncate -s -3 src/canary", TR, S),
    ("truncate -s '<2' src/canary", TR, S),
    ("truncate -s /4 src/canary", TR, S),
    ("truncate -c -s 0 src/canary", TR, S),
    ("truncate -s 0 ~/.ssh/canary", TR, S),
    ("truncate -r /dev/null src/canary", TR, S),
    ("truncate -s 0K canary.txt", TR, S),
    ("truncate -s 0 src/*", TR, S),
]

CLASSES = {
    "brace": BRACES,
    "glob-word": GLOB_WORDS,
    "glob-target": GLOB_TARGETS,
    "ifs": IFS,
    "continuation": CONTINUATIONS,
    "variable": VARIABLES,
    "cd": CD,
    "rm-r": RM_R,
    "feed": FEEDS,
    "rm-all": RM_ALL,
    "shred": SHRED,
    "truncate": TRUNCATE,
}
STOP = [
    pytest.param(command, rule, proof, id=f"{name}-{i}")
    for name, table in CLASSES.items()
    for i, (command, rule, proof) in enumerate(table)
]

# (command, run it in the sandbox): must pass the hook; run ones leave every canary.
SAFE = [
    ("mkdir -p src/{a,b}", True),
    ("mkdir -p build/{x,y}/z", True),
    ("mkdir -p {lib,test}/{unit,e2e}", True),
    ("cp src/canary{,.bak}", True),
    ("cp files.txt{,.orig}", True),
    ("echo {1..3}", True),
    ("echo {a..e}", True),
    ("printf '%s\\n' {01..10}", True),
    ("echo file{1..5}.txt", True),
    ("mkdir -p build && touch build/{a,b}.o", True),
    ("touch {a..c}.md", True),
    ("diff src/canary{,}", True),
    ("ls *.py", True),
    ("ls src/*", True),
    ("cat src/*", True),
    ("wc -l src/*", True),
    ("grep -rn alive src/*", True),
    ("ls -d */", True),
    ("rm -rf ./build/*", True),
    ("rm -rf build/*", True),
    ("rm -f build/*.o", True),
    ("rm -rf node_modules", True),
    ("cd src && rm -rf node_modules", True),
    ("cd project && rm -rf node_modules", True),
    ("cd src && rm -rf dist build", True),
    ("rm -rf {build,dist}", True),
    ("rm -rf {build,dist,.venv}", True),
    ("rm -rf build/{a,b}", True),
    ("rm -rf ${TMPDIR:-/tmp}/{a,b}", True),
    ("d=$(mktemp -d); rm -rf $d/{a,b}", True),
    ("rm -rf /tmp/{a,b}", False),
    ("rm -r build", True),
    ("rm -r node_modules", True),
    ("rm -r ${TMPDIR:-/tmp}/x", True),
    ("rm -r /tmp/x", False),
    ("rmdir empty-dir", True),
    ("rm -f *.o", True),
    ("rm -f *.pyc", True),
    ("rm -f /tmp/run/*", False),
    ("find . -name '*.pyc' | xargs rm", True),
    ("find . -name '*.pyc' -print0 | xargs -0 rm -f", True),
    ("echo a.o b.o | xargs rm -f", True),
    ("printf 'x.o\\n' | xargs rm", True),
    ("find . -name '*.pyc' -exec sh -c 'rm \"$1\"' _ {} \\;", True),
    ("find src -name x | xargs grep -l alive", True),
    ('for f in *.txt; do echo "$f"; done', True),
    ('while IFS= read -r line; do echo "$line"; done < files.txt', True),
    ('IFS=, read -r a b <<< "x,y"; echo "$a"', True),
    ('IFS=: read -ra parts <<< "$PATH"; echo "${parts[0]}"', True),
    ("old=$IFS; IFS=,; echo a,b; IFS=$old", True),
    ("IFS=$'\\n'; for f in $(ls); do echo $f; done", True),
    ('echo "$IFS" | od -c', True),
    ("echo rm${IFS}-rf${IFS}src", True),
    ("ls /usr/b?n", True),
    ("ls /bin/r?", True),
    ("/usr/bin/l? -la", True),
    ("/bin/ec?o hi", True),
    ("/usr/bin/py*3 --version", True),
    (f"npm run build {NL}--if-present", True),
    (f"git log {NL}--oneline -1", True),
    (f"ls {NL}-la", True),
    (f"echo a{NL}b", True),
    (f"grep -rn {NL}alive src", True),
    ("shred -u ${TMPDIR:-/tmp}/key", True),
    ("shred --version", True),
    ("truncate -s 1M disk.img", True),
    ("truncate -s +1K log.txt", True),
    ("truncate -s 10G sparse.img", True),
    ("truncate -s 0 ${TMPDIR:-/tmp}/app.log", True),
    ("truncate -s 0 build/app.log", True),
    ("git add src/{a,b}.py", True),
    ("git diff -- src/{a,b}.py", True),
    ("tar czf out.tgz src/{a,b}", True),
    ("chmod +x scripts/{a,b}.sh", True),
    ("cd ~/project && rm -rf node_modules", True),
    ("cd ${TMPDIR:-/tmp} && ls", True),
    ('TMPDIR=/tmp/run; rm -rf "$TMPDIR/cache"', False),
    ("x=build; rm -rf $x/{a,b}", True),
]


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ, DCG_RESPONSE_MODE="paranoid", **extra)
    env.pop("TMPDIR", None)  # unset, as on most Linux machines: `$TMPDIR` is empty
    return env


def _verdict(agent: str, line: str, env: dict[str, str]) -> tuple[str, str]:
    body = hookpath.payload(agent, line, CWD)
    code, out, err = hookpath.run(hookpath.encode(body), env=env)
    return hookpath.verdict(code, out, err), out


@pytest.fixture
def no_tmpdir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TMPDIR", raising=False)


@pytest.mark.usefixtures("no_tmpdir")
@pytest.mark.parametrize(("command", "rule", "proof"), STOP)
def test_stopped_through_the_hook(command: str, rule: str, proof: str) -> None:
    ids = [m.rule_id for m in evaluate(command, list(all_ids()), cwd=CWD).matches]
    assert rule in ids, (command, ids)
    env = _env(DCG_HOOK_DETAILS="1")
    got, out = _verdict("claude", command, env)
    assert got == "deny", command
    assert ids[0] in out
    for agent in hookpath.AGENTS:
        assert _verdict(agent, command, env)[0] == "deny", (agent, command)
    for name, variant in hookpath.VARIANTS.items():
        assert _verdict("claude", variant(command), env)[0] == "deny", (name, command)


@pytest.mark.usefixtures("no_tmpdir")
@pytest.mark.parametrize(("command", "run"), SAFE, ids=[c for c, _ in SAFE])
def test_safe_passes_through_the_hook(command: str, run: bool) -> None:
    env = _env()
    for agent in hookpath.AGENTS:
        assert _verdict(agent, command, env)[0] == "none", (agent, command)
    for name, variant in hookpath.VARIANTS.items():
        assert _verdict("claude", variant(command), env)[0] == "none", (name, command)


def test_tables_are_large_enough() -> None:
    assert len(STOP) >= 150 and len(SAFE) >= 60
    assert len({c for c, _, _ in (p.values for p in STOP)}) == len(STOP)  # type: ignore[misc]


# ---- the oracle -------------------------------------------------------------------------

CANARIES = ("canary.txt", "src/canary", ".ssh/canary", "Documents/canary", ".config/canary")
BASH = shutil.which("bash")


def _box(tmp_path: Path) -> Path:
    box = tmp_path / "box"
    for rel in CANARIES:
        (box / rel).parent.mkdir(parents=True, exist_ok=True)
        (box / rel).write_text("alive\n")
    (box / "tmp").mkdir()
    (box / "files.txt").write_text("src/canary\n")
    return box


def _alive(box: Path) -> list[str]:
    out = []
    for rel in CANARIES:
        path = box / rel
        if path.is_file() and path.read_bytes() == b"alive\n":
            out.append(rel)
    return out


def _param(case: object) -> tuple[str, str, str]:
    values = getattr(case, "values")  # noqa: B009
    return values[0], values[1], values[2]


SANDBOXED = [p for p in STOP if _param(p)[2] == S]
FAKED = [p for p in STOP if _param(p)[2].startswith(F)]
WORDS = [p for p in STOP if _param(p)[2] == W]


@pytest.mark.skipif(BASH is None, reason="needs bash")
@pytest.mark.parametrize(("command", "rule", "proof"), SANDBOXED)
def test_sandbox_must_stop_cases_destroy_a_canary(
    tmp_path: Path, command: str, rule: str, proof: str
) -> None:
    box = _box(tmp_path)
    env = {"HOME": str(box), "TMPDIR": str(box / "tmp"), "PATH": os.environ["PATH"]}
    assert BASH is not None
    subprocess.run([BASH, "-c", command], cwd=box, env=env, capture_output=True, timeout=30)
    assert len(_alive(box)) < len(CANARIES), command


_FAKES = ("rm", "find", "shred", "truncate", "git", "unlink", "rmdir")
_REAL = ("xargs", "sh", "bash", "cat", "ls", "env", "nice")


def _fakebin(tmp_path: Path) -> tuple[Path, Path]:
    """A PATH with recording fakes for every deleting program, real tools for the rest."""
    fake, log = tmp_path / "fakebin", tmp_path / "calls.log"
    fake.mkdir()
    for name in _FAKES:
        script = fake / name
        script.write_text(
            f'#!{BASH}\nprintf "%s\\0" "$PWD" {name} "$@" >> {log}\nprintf "\\n" >> {log}\n'
        )
        script.chmod(0o755)
    for name in _REAL:
        real = shutil.which(name)
        if real is not None:
            (fake / name).symlink_to(real)
    return fake, log


@pytest.mark.skipif(BASH is None, reason="needs bash")
@pytest.mark.parametrize(("command", "rule", "proof"), FAKED)
def test_fake_must_stop_cases_reach_outside_the_sandbox(
    tmp_path: Path, command: str, rule: str, proof: str
) -> None:
    # Never a command word with a path: it would bypass the fakes.
    text = command
    for sep in ";&|()":
        text = text.replace(sep, "\n")
    heads = [seg.split()[0] for seg in text.splitlines() if seg.split()]
    assert not any(h.startswith(("/", "~", ".")) for h in heads), command
    assert "/bin/" not in command and "command " not in command
    box = _box(tmp_path)
    fake, log = _fakebin(tmp_path)
    env = {"HOME": str(box), "PATH": str(fake)}  # TMPDIR unset, as on most Linux machines
    assert BASH is not None
    subprocess.run([BASH, "-c", command], cwd=box, env=env, capture_output=True, timeout=30)
    assert len(_alive(box)) == len(CANARIES)
    calls = [line.split("\0")[:-1] for line in log.read_text().splitlines() if line]
    assert calls, command
    if proof.startswith("fake:"):
        assert any(proof[5:] in " ".join(call[2:]) for call in calls), (command, calls)
        return
    reached = [
        os.path.normpath(os.path.join(call[0], arg))
        for call in calls
        for arg in call[2:]
        if not arg.startswith("-")
    ]
    outside = [p for p in reached if not (p + "/").startswith(str(box) + "/")]
    assert outside, (command, calls)


@pytest.mark.skipif(BASH is None, reason="needs bash")
@pytest.mark.parametrize(("command", "rule", "proof"), WORDS)
def test_glob_command_words_name_the_destructive_program(
    command: str, rule: str, proof: str
) -> None:
    words = command.split()
    head = next(w for w in words if any(c in w for c in "*?["))
    head = head.strip("'")
    program = {RF: "rm", GR: "git", GC: "git", SH: "shred", TR: "truncate", FD: "find"}[rule]
    assert BASH is not None
    shown = subprocess.run(
        [BASH, "-c", f"printf '%s\\n' {head}"], capture_output=True, text=True, timeout=10
    ).stdout.split()
    if not any(os.path.basename(p) == program for p in shown) and not shutil.which(program):
        pytest.skip(f"{program} is not installed here")
    assert any(os.path.basename(p) == program for p in shown), (head, shown)


@pytest.mark.skipif(BASH is None, reason="needs bash")
@pytest.mark.parametrize("command", [c for c, run in SAFE if run])
def test_sandbox_must_pass_cases_are_harmless(tmp_path: Path, command: str) -> None:
    box = _box(tmp_path)
    env = {"HOME": str(box), "TMPDIR": str(box / "tmp"), "PATH": os.environ["PATH"]}
    assert BASH is not None
    subprocess.run([BASH, "-c", command], cwd=box, env=env, capture_output=True, timeout=30)
    assert _alive(box) == list(CANARIES), command


# ---- symlinks inside temp directories ----------------------------------------------------


def _hook_in(cwd: Path, command: str) -> str:
    payload = {
        "session_id": "expand",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": str(cwd),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
    }
    out = io.StringIO()
    env = _env(DCG_HOOK_DETAILS="1")
    hookpath.hook.main([], io.BytesIO(json.dumps(payload).encode()), out, io.StringIO(), env)
    return out.getvalue()


@pytest.mark.parametrize(
    ("target", "suffix", "rule"),
    [("home", "/*", RC), ("home", "/", RC), ("project", "/*", RF), ("project", "/src", RF)],
)
def test_a_symlink_in_a_temp_directory_is_judged_where_it_leads(
    isolated_home: Path, tmp_path: Path, target: str, suffix: str, rule: str
) -> None:
    project = isolated_home / "project"
    (project / "src").mkdir(parents=True)
    (project / "src" / "canary").write_text("alive\n")
    (isolated_home / "canary").write_text("alive\n")
    link = tmp_path / "scratch" / "link"  # pytest's tmp_path is under /tmp: a temp dir
    link.parent.mkdir()
    link.symlink_to(isolated_home if target == "home" else project)
    command = f"rm -rf {link}{suffix}"
    out = _hook_in(project, command)
    assert json.loads(out)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert rule in out
    # Real bash, confined: the link leads into this test's own directories.
    assert BASH is not None
    subprocess.run([BASH, "-c", command], capture_output=True, timeout=30)
    assert not (project / "src" / "canary").exists()


def test_a_plain_temp_directory_still_passes(tmp_path: Path) -> None:
    scratch = tmp_path / "scratch"
    (scratch / "build").mkdir(parents=True)
    assert _hook_in(tmp_path, f"rm -rf {scratch}/build/*") == ""
