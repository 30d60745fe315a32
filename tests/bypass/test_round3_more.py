"""Issue 32, round three, more: runners dcg did not read, escapes still open, compiled sources.

Python project runners: ``uv run x.py`` (and ``pdm``/``hatch``/``rye run x.py``) run the
file with Python; ``pdm run NAME``, ``hatch run [ENV:]NAME`` and ``rye run NAME`` run the
script their configuration names (dcg.shell.pyscripts, one table); ``python3 a.zip`` /
``app.pyz`` runs the archive's ``__main__.py`` (read from disk; made on the line, it is
code dcg cannot see). Escapes: git apply -R / patch -R of a patch named by a glob, find's
``{}`` or xargs (dcg.shell.patchsets); psql ``\\!``, mysql ``system``, less ``+!cmd``
(dcg.shell.escapes); editors other tools start (sudoedit, vipw, kubectl edit: toolruns);
``docker compose run``. Compiled sources written then run stay quiet when they only
compute (``int a[3]``, ``args[0]``). Every must-stop line goes through the hook for every
agent; those
whose tools this machine has then run in real bash in a throwaway git project and must
destroy its uncommitted work. The everyday neighbours pass and keep it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from hookpath import AGENTS, VARIANTS, payload, run, verdict

BASH = shutil.which("bash")
RM = "core.filesystem:rm-rf"
CLEAN = "core.git:clean-force"
OPAQUE = "core.shell:opaque-exec"
RMTREE = 'import shutil; shutil.rmtree("src")'
PY = f"echo '{RMTREE}' > x.py; "
ZIPMAIN = f"mkdir -p z && echo '{RMTREE}' > z/__main__.py && "

STOP = [
    # a .py file as the command of a project runner is run by Python
    (PY + "uv run x.py", RM),
    (PY + "uv run --with requests x.py", RM),
    (PY + "uv run -q --python 3.12 x.py --flag", RM),
    (PY + "uv run --no-project x.py", RM),
    (PY + "uv run --env-file .env ./x.py", RM),
    (PY + "pdm run x.py", RM),
    (PY + "hatch run x.py", RM),
    (PY + "uv run -- python x.py", RM),
    (f"echo '{RMTREE}' > x; uv run --script x", RM),
    (f"echo '{RMTREE}' > x; uv run -s x", RM),
    # scripts of the project's configuration, written on the line
    ("printf '[tool.pdm.scripts]\\nx = \"rm -rf src\"\\n' >> pyproject.toml; pdm run x", RM),
    (
        "printf '[tool.pdm.scripts]\\nx = {shell = \"rm -rf src\"}\\n' >> pyproject.toml;"
        " pdm run x",
        RM,
    ),
    (
        'printf \'[tool.pdm.scripts]\\nx = {cmd = ["rm", "-rf", "src"]}\\n\' >> pyproject.toml'
        "; pdm run x",
        RM,
    ),
    (
        'printf \'[tool.pdm.scripts]\\npre_x = "git clean -fdx"\\nx = "true"\\n\''
        " >> pyproject.toml; pdm run x",
        CLEAN,
    ),
    (
        'printf \'[tool.pdm.scripts]\\na = "rm -rf src"\\nx = {composite = ["a"]}\\n\''
        " >> pyproject.toml; pdm run x",
        RM,
    ),
    (
        "printf 'import shutil\\ndef m(): shutil.rmtree(\"src\")\\n' > t.py; printf '"
        '[tool.pdm.scripts]\\nx = {call = "t:m"}\\n\' >> pyproject.toml; pdm run x',
        RM,
    ),
    (
        "printf '[tool.hatch.envs.default.scripts]\\nx = \"rm -rf src\"\\n' >> pyproject.toml;"
        " hatch run x",
        RM,
    ),
    (
        'printf \'[tool.hatch.envs.lint.scripts]\\nx = ["echo", "rm -rf src"]\\n\''
        " >> pyproject.toml; hatch run lint:x",
        RM,
    ),
    ("printf '[envs.default.scripts]\\nx = \"rm -rf src\"\\n' > hatch.toml; hatch run x", RM),
    ("printf '[tool.rye.scripts]\\nx = \"rm -rf src\"\\n' >> pyproject.toml; rye run x", RM),
    (
        'printf \'[tool.rye.scripts]\\nx = { cmd = ["rm", "-rf", "src"] }\\n\''
        " >> pyproject.toml; rye run x",
        RM,
    ),
    (
        'printf \'[tool.rye.scripts]\\na = "rm -rf src"\\nx = { chain = ["a"] }\\n\''
        " >> pyproject.toml; rye run x",
        RM,
    ),
    # a zip app: its __main__.py
    (ZIPMAIN + "(cd z && zip -q ../a.zip __main__.py) && python3 a.zip", OPAQUE),
    (ZIPMAIN + "python3 -m zipapp z -o a.pyz && python3 a.pyz", OPAQUE),
    (ZIPMAIN + "python3 -m zipapp z -o app && python3 app", OPAQUE),
    (ZIPMAIN + "python3 -m zipapp z -o a.pyz && uv run python a.pyz", OPAQUE),
    (ZIPMAIN + "python3 z", RM),
]
PASS = [
    "uv run pytest -q",
    "uv run -s pytest",
    "uv run python -c 'print(1)'",
    "echo 'print(1)' > x.py; uv run x.py",
    "hatch run test",
    "pdm run lint",
    "rye run fmt",
    "printf '[tool.pdm.scripts]\\nx = \"echo hi\"\\n' >> pyproject.toml; pdm run x",
    "printf '[tool.rye.scripts]\\nx = \"rm -rf build\"\\n' >> pyproject.toml; rye run x",
    "printf '[tool.hatch.envs.default.scripts]\\nx = \"rm -rf dist\"\\n' >> pyproject.toml",
    "mkdir -p z && echo 'print(1)' > z/__main__.py && python3 -m zipapp z -o a.pyz && ls",
    "mkdir -p z && echo 'print(1)' > z/__main__.py && python3 z",
]
# The project's own configuration, on disk before the line.
PYPROJECT = """\
[project]
name = "x"
version = "0"

[tool.pdm.scripts]
wipe = "rm -rf src"
test = "pytest -q"
purge = {shell = "git clean -fdx"}

[tool.hatch.envs.default.scripts]
wipe = ["echo wiping", "rm -rf src"]
test = "pytest"

[tool.hatch.envs.docs.scripts]
wipe = "rm -rf src"

[tool.rye.scripts]
wipe = { chain = ["fmt", "nuke"] }
fmt = "echo fmt"
nuke = { cmd = ["rm", "-rf", "src"] }
test = "pytest"
"""
DISK_STOP = [
    ("pdm run wipe", RM),
    ("pdm run purge", CLEAN),
    ("pdm run -p . wipe", RM),
    ("hatch run wipe", RM),
    ("hatch run docs:wipe", RM),
    ("rye run wipe", RM),
    ("rye run nuke", RM),
    ("python3 app.pyz", RM),
    ("python3 app --help", RM),
    ("python3 ./app.pyz", RM),
]
DISK_PASS = ["pdm run test", "hatch run test", "rye run test", "rye run fmt", "python3 ok.pyz"]
# Tools whose absence skips the bash proof (the hook's verdict is still tested).
TOOLS = ("uv", "pdm", "hatch", "rye", "zip", "gcc", "javac", "java", "go", "docker", "psql",
         "mysql", "less", "crontab", "find", "git", "sh", "python3", "make")  # fmt: skip


def _box(base: Path) -> tuple[Path, dict[str, str]]:
    """A git project inside the test's HOME whose src holds uncommitted work."""
    box = base / "box"
    (box / "src").mkdir(parents=True)
    (box / "src" / "canary").write_text("alive\n")
    (box / "pyproject.toml").write_text('[project]\nname = "x"\nversion = "0"\n')
    (box / "tmp").mkdir()
    env = {"HOME": str(box), "TMPDIR": str(box / "tmp"), "PATH": os.environ["PATH"],
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t", "PAGER": "cat"}  # fmt: skip
    if BASH is not None:
        for git in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base"]):
            subprocess.run(["git", *git], cwd=box, env=env, check=True)
        (box / "src" / "canary").write_text("work\n")
    return box, env


def _lost(box: Path) -> bool:
    canary = box / "src" / "canary"
    return not canary.exists() or canary.read_text() != "work\n"


def _verdicts(command: str, box: Path) -> dict[str, tuple[str, str]]:
    env = dict(os.environ, DCG_RESPONSE_MODE="paranoid", DCG_HOOK_DETAILS="1")
    out: dict[str, tuple[str, str]] = {}
    for agent in AGENTS:
        code, stdout, stderr = run(json.dumps(payload(agent, command, str(box))).encode(), env=env)
        out[agent] = (verdict(code, stdout, stderr), stdout + stderr)
    return out


def _variants(command: str, box: Path, rule: str) -> None:
    env = dict(os.environ, DCG_RESPONSE_MODE="paranoid", DCG_HOOK_DETAILS="1")
    for name, variant in VARIANTS.items():
        body = json.dumps(payload("claude", variant(command), str(box))).encode()
        code, stdout, stderr = run(body, env=env)
        assert verdict(code, stdout, stderr) == "deny", (name, command, stdout + stderr)
        assert rule in stdout + stderr, (name, command, stdout + stderr)


def _runnable(command: str) -> bool:
    words = set(
        command.replace(";", " ").replace("&&", " ").replace("|", " ").replace("(", " ").split()
    )
    return all(shutil.which(t) for t in TOOLS if t in words)


def _bash(command: str, box: Path, env: dict[str, str]) -> None:
    assert BASH is not None
    subprocess.run([BASH, "-c", command], cwd=box, env=env, timeout=120, check=False,
                   capture_output=True, stdin=subprocess.DEVNULL)  # fmt: skip


def _judged(command: str, rule: str, box: Path, env: dict[str, str]) -> None:
    got = _verdicts(command, box)
    assert {v for v, _ in got.values()} == {"deny"}, (command, got)
    assert rule in got["claude"][1], (command, got["claude"][1])
    if BASH is None or not _runnable(command):
        return
    _bash(command, box, env)
    assert _lost(box), f"bash did not destroy the work: not a bypass: {command}"


@pytest.mark.parametrize(("command", "rule"), STOP, ids=[c for c, _ in STOP])
def test_runners_run_what_dcg_now_reads(isolated_home: Path, command: str, rule: str) -> None:
    box, env = _box(isolated_home)
    _judged(command, rule, box, env)


def test_runner_spellings_in_every_variant(isolated_home: Path) -> None:
    box, _ = _box(isolated_home)
    for command, rule in STOP[:2] + STOP[8:9] + STOP[-5:-4]:
        _variants(command, box, rule)


def _disk(box: Path) -> None:
    (box / "pyproject.toml").write_text(PYPROJECT)
    for name, code in (("bad", RMTREE), ("ok", "print(1)")):
        (box / "tmp" / name).mkdir()
        (box / "tmp" / name / "__main__.py").write_text(code + "\n")
    subprocess.run(["python3", "-m", "zipapp", "tmp/bad", "-o", "app.pyz"], cwd=box, check=True)
    subprocess.run(["python3", "-m", "zipapp", "tmp/ok", "-o", "ok.pyz"], cwd=box, check=True)
    shutil.copy(box / "app.pyz", box / "app")


@pytest.mark.parametrize(("command", "rule"), DISK_STOP, ids=[c for c, _ in DISK_STOP])
def test_configured_scripts_on_disk_are_judged(
    isolated_home: Path, command: str, rule: str
) -> None:
    box, env = _box(isolated_home)
    _disk(box)
    _judged(command, rule, box, env)


@pytest.mark.parametrize("command", DISK_PASS)
def test_configured_everyday_scripts_pass(isolated_home: Path, command: str) -> None:
    box, _ = _box(isolated_home)
    _disk(box)
    got = _verdicts(command, box)
    assert {v for v, _ in got.values()} <= {"none", "warn"}, (command, got)


@pytest.mark.parametrize("command", PASS)
def test_everyday_neighbours_pass(isolated_home: Path, command: str) -> None:
    box, env = _box(isolated_home)
    got = _verdicts(command, box)
    assert {v for v, _ in got.values()} <= {"none", "warn"}, (command, got)
    if BASH is None or not _runnable(command):
        return
    _bash(command, box, env)
    assert not _lost(box), command


PATCH = "core.git:apply-reverse"
ESCAPES = [
    # a patch of the work named by a pattern, reversed
    ("git diff > a.patch; git apply -R *.patch", PATCH),
    ("git diff > a.patch; git apply -R ./*.patch", PATCH),
    ("git diff > a.patch; find . -name '*.patch' -exec git apply -R {} +", PATCH),
    ("git diff > a.patch; find . -name '*.patch' -exec git apply -R {} \\;", PATCH),
    ("git diff > a.patch; find . -name '*.patch' | xargs git apply -R", PATCH),
    ("git diff > a.patch; find . -name '*.patch' -print0 | xargs -0 git apply -R", PATCH),
    ("git diff > a.patch; find . -type f -name 'a*' -exec git apply --reverse {} +", PATCH),
    ("git diff > a.patch; ls *.patch | xargs git apply -R", PATCH),
    ("git diff > a.patch; echo a.patch | xargs -n1 git apply -R", PATCH),
    ("git diff > a.patch; find . -name '*.patch' -exec patch -p1 -R -i {} \\;", PATCH),
    # database clients' shell escapes
    ("psql -c '\\! rm -rf src'", RM),
    ("psql -d db -c 'select 1' -c '\\! rm -rf src'", RM),
    ("psql --command='\\! rm -rf src'", RM),
    ("psql <<< '\\! rm -rf src'", RM),
    ("echo '\\! rm -rf src' | psql", RM),
    ("psql -c \"COPY t FROM PROGRAM 'rm -rf src'\"", RM),
    ("psql -c 'select 1 \\g |rm -rf src'", RM),
    ("mysql -e 'system rm -rf src'", RM),
    ("mysql -e 'select 1; \\! rm -rf src'", RM),
    ("mysql --execute='system rm -rf src'", RM),
    ("echo 'system rm -rf src' | mysql", RM),
    ("mysql --pager='rm -rf src' -e 'select 1'", RM),
    ("mariadb -e 'system rm -rf src'", RM),
    # editors and pagers other tools start
    ("SUDO_EDITOR='sh -c \"rm -rf src\"' sudoedit /etc/hosts", RM),
    ("SUDO_EDITOR='sh -c \"rm -rf src\"' sudo -e /etc/hosts", RM),
    ("EDITOR='sh -c \"rm -rf src\"' vipw", RM),
    ("KUBE_EDITOR='sh -c \"rm -rf src\"' kubectl edit cm x", RM),
    ("GH_EDITOR='rm -rf src;' gh pr create", RM),
    ("FCEDIT='sh -c \"rm -rf src\"' fc -1", RM),
    # a compose service (the project mounted by its compose file)
    ("docker compose run app rm -rf /w/src", RM),
    ("docker-compose run -v .:/w app rm -rf /w/src", RM),
    ("docker compose -f c.yml run --rm app sh -c 'rm -rf /w/src'", RM),
    ("podman-compose run app rm -rf src", RM),
]
# Not run in the sandbox (hook verdict only): they edit system files (sudoedit, vipw), need
# a cluster, a network account, an interactive history or a compose project and image.
NO_PROOF = ("sudoedit", "sudo -e", "vipw", "kubectl", "gh pr", "fc -1", "compose")
# less runs its +command only on a terminal: proven under script(1), Enter typed.
LESS = [
    "less +'!rm -rf src' f",
    "less '+!rm -rf src' f",
    "less ++'!rm -rf src' f",
    "LESS='+!rm -rf src' less f",
    "less -R '+!rm -rf src' f",
]
ESCAPES_PASS = [
    "psql -c 'select 1'",
    "psql -c '\\dt'",
    "mysql -e 'select * from t'",
    "less +G f",
    "less -R +F log.txt",
    "docker compose run app npm test",
    "docker compose run --rm web python manage.py migrate",
    "docker compose up -d",
    "docker-compose run app rm -rf /tmp/cache",
    "kubectl edit cm x",
    "sudoedit /etc/hosts",
    "git apply -R *.patch",
    "git diff > a.patch; find . -name '*.patch' -exec git apply --check {} +",
    "find . -name '*.txt' -exec git apply -R {} +",
]
# Ordinary compiled programs written then run (issue 32 review of a false alarm).
COMPILED_PASS = [
    "printf 'int main(){int a[3]={0};return a[0];}' > m.c && gcc m.c -o m && ./m",
    "printf '#include <stdio.h>\\nint main(int c,char**v){printf(\"%%s\\\\n\",v[0]);return 0;}'"
    " > m.c && cc m.c && ./a.out",
    "printf 'struct node{int v;};int main(){struct node n={1};int x=n.v*2;return x>1?0:1;}'"
    " > m.c && gcc -O2 m.c -o m && ./m",
    "printf 'public class M{public static void main(String[] args){System.out.println("
    'args.length>0?args[0]:"x");}}\' > M.java && javac M.java && java M',
    "printf 'public class M{public static void main(String[] a){int[] x=new int[3];"
    "System.out.println(x[0]);}}' > M.java && java M.java",
    "printf 'package main\\nimport \"fmt\"\\nfunc main(){a:=make([]int,2);fmt.Println(a[0])}\\n'"
    " > m.go && go run m.go",
    'printf \'package main\\nimport ("fmt";"os")\\nfunc main(){fmt.Println(os.Args[0])}\\n\''
    " > m.go && go build -o m m.go && ./m",
    "printf 'fn main(){let a=[1,2];println!(\"{}\",a[0]);}' > m.rs && rustc m.rs && ./m",
]
COMPILED_STOP = [
    "printf 'int main(){char c[]={114,109,32,45,114,102,32,115,114,99,0};return system(c);}'"
    " > x.c && gcc x.c && ./a.out",
    'printf \'#include <unistd.h>\\nint main(){execl("/bin/rm","rm","-rf","src",(char*)0);}\''
    " > x.c && gcc -w x.c -o x && ./x",
    "printf 'public class X{public static void main(String[] a)throws Exception{"
    'Runtime.getRuntime().exec(new String[]{"rm","-rf","src"}).waitFor();}}\' > X.java'
    " && java X.java",
]


@pytest.mark.parametrize(("command", "rule"), ESCAPES, ids=[c for c, _ in ESCAPES])
def test_escapes_are_judged(isolated_home: Path, command: str, rule: str) -> None:
    box, env = _box(isolated_home)
    if "a.patch" in command:
        (box / "src" / "canary").write_text("work\n")  # the uncommitted work git diff saves
    client = next((c for c in ("psql", "mysql", "mariadb") if c in command.split()), None)
    if BASH is not None and client is not None:
        # A client that reaches no server runs nothing: proven only with one to talk to.
        probe = [client, "-c" if client == "psql" else "-e", "select 1"]
        done = (
            subprocess.run(probe, cwd=box, env=env, capture_output=True, timeout=30, check=False)
            if shutil.which(client)
            else None
        )
        if done is None or done.returncode != 0:
            got = _verdicts(command, box)
            assert {v for v, _ in got.values()} == {"deny"}, (command, got)
            assert rule in got["claude"][1]
            return
    if any(n in command for n in NO_PROOF):
        got = _verdicts(command, box)
        assert {v for v, _ in got.values()} == {"deny"}, (command, got)
        assert rule in got["claude"][1]
        return
    _judged(command, rule, box, env)


def test_escape_spellings_in_every_variant(isolated_home: Path) -> None:
    box, _ = _box(isolated_home)
    for command, rule in (ESCAPES[2], ESCAPES[10], ESCAPES[17], ESCAPES[-4]):
        _variants(command, box, rule)


@pytest.mark.parametrize("command", LESS)
def test_less_commands_are_judged(isolated_home: Path, command: str) -> None:
    box, env = _box(isolated_home)
    (box / "f").write_text("text\n")
    got = _verdicts(command, box)
    assert {v for v, _ in got.values()} == {"deny"}, (command, got)
    assert RM in got["claude"][1]
    if BASH is None or not (shutil.which("less") and shutil.which("script")):
        return
    env = dict(env, DCG_LINE=command, TERM="xterm")
    proof = '(printf "\\n"; sleep 1; printf q) | script -qec "$DCG_LINE" /dev/null'
    subprocess.run([BASH, "-c", proof], cwd=box, env=env, timeout=30, check=False,
                   capture_output=True)  # fmt: skip
    assert _lost(box), f"less did not run it: not a bypass: {command}"


@pytest.mark.parametrize("command", ESCAPES_PASS + COMPILED_PASS)
def test_everyday_escapes_and_programs_pass(isolated_home: Path, command: str) -> None:
    box, env = _box(isolated_home)
    got = _verdicts(command, box)
    assert {v for v, _ in got.values()} <= {"none", "warn"}, (command, got)
    if command in COMPILED_PASS and BASH is not None and _runnable(command):
        _bash(command, box, env)
        assert not _lost(box), command


@pytest.mark.parametrize("command", COMPILED_STOP)
def test_compiled_programs_that_act_stay_opaque(isolated_home: Path, command: str) -> None:
    box, env = _box(isolated_home)
    _judged(command, OPAQUE, box, env)
