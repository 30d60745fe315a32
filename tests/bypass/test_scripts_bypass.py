"""Issue 12 §4 and the rest of §3: scripts read before they run, and code dcg cannot see.

Every case runs in a sandbox: the test's HOME (a fresh tmp directory, which is also the
hook's HOME) holds ``src/canary`` and is a git repository with uncommitted work in it;
the hook gets that directory as the payload's cwd, through every agent's payload. Script
files are created there before the hook is asked, so dcg reads them from disk. Must-stop
cases are then run in real bash in the same directory (HOME, TMPDIR and cwd inside it)
to prove they destroy the canary; ``proof`` says how each one was proven:

- ``run``: the command itself ran in the sandbox and the canary was destroyed;
- ``resolved``: the tool is not installed here (just, yarn, pnpm, ruby, zsh), so the lines
  it would run — read from the same file by ``dcg.extract`` — ran in the sandbox instead.

Must-pass cases run through the hook (no opinion) and in the sandbox (canary intact).
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from hookpath import AGENTS, payload, run, verdict

# Destructive script bodies (shell), each destroying the canary when run in the sandbox.
BODIES = {
    "rm-src": "rm -rf src",
    "rm-home": 'rm -rf "$HOME"',
    "reset": "git reset --hard -q",
    "find": "find src -delete",
}
SH = "#!/bin/sh\n"
ENV_BASH = "#!/usr/bin/env bash\n"

# (id, files {path: text with {D}}, executable paths, command line, proof)
RUNNERS: list[tuple[str, dict[str, str], tuple[str, ...], str, str]] = [
    ("sh-file", {"x.sh": "echo step\n{D}\n"}, (), "sh x.sh", "run"),
    ("bash-file", {"x.sh": "set -e\n{D}\n"}, (), "bash x.sh", "run"),
    ("bash-opts", {"x.sh": "{D}\n"}, (), "bash -e -u x.sh", "run"),
    ("dash-file", {"deploy": "{D}\n"}, (), "dash ./deploy", "run"),
    ("shebang-sh", {"x.sh": SH + "{D}\n"}, ("x.sh",), "./x.sh", "run"),
    ("shebang-env", {"tool.sh": ENV_BASH + "{D}\n"}, ("tool.sh",), "./tool.sh --now", "run"),
    ("no-shebang", {"clean": "{D}\n"}, ("clean",), "./clean", "run"),
    ("subdir-path", {"tools/x.sh": SH + "{D}\n"}, ("tools/x.sh",), "tools/x.sh", "run"),
    ("abs-dir", {"bin/go.sh": SH + "{D}\n"}, ("bin/go.sh",), "./bin/go.sh", "run"),
    ("source", {"x.sh": "{D}\n"}, (), "source x.sh", "run"),
    ("dot", {"env.sh": "{D}\n"}, (), ". ./env.sh", "run"),
    ("stdin-redirect", {"x.sh": "{D}\n"}, (), "bash < x.sh", "run"),
    ("sh-s", {"x.sh": "{D}\n"}, (), "sh -s < x.sh", "run"),
    ("cat-pipe", {"x.sh": "{D}\n"}, (), "cat x.sh | sh", "run"),
    ("cat-pipe-bash-s", {"x.sh": "{D}\n"}, (), "cat x.sh | bash -s", "run"),
    ("timeout", {"x.sh": SH + "{D}\n"}, ("x.sh",), "timeout 20 ./x.sh", "run"),
    ("env-wrapper", {"x.sh": "{D}\n"}, (), "env CI=1 bash x.sh", "run"),
    ("nice-nohup", {"x.sh": "{D}\n"}, (), "nice -n 5 sh x.sh", "run"),
    ("cd-then-run", {"sub/x.sh": SH + "cd ..\n{D}\n"}, ("sub/x.sh",), "cd sub && ./x.sh", "run"),
    ("after-safe", {"x.sh": "{D}\n"}, (), "git status -s && sh x.sh", "run"),
    ("function-called", {"x.sh": "wipe() {\n  {D}\n}\necho go\nwipe\n"}, (), "bash x.sh", "run"),
    ("function-kw", {"x.sh": "function wipe {\n  {D}\n}\nwipe now\n"}, (), "bash x.sh", "run"),
    (
        "trap-exit",
        {"x.sh": "cleanup() {\n  {D}\n}\ntrap cleanup EXIT\necho work\n"},
        (),
        "bash x.sh",
        "run",
    ),
    ("lib-then-call", {"lib.sh": "wipe() { {D}; }\n"}, (), ". ./lib.sh && wipe", "run"),
    # A function calling itself with its own arguments after changing a variable its
    # first pass tested: the second pass is another call (dcg.shell.cases.judged).
    (
        "recursion-flag",
        {
            "lib.sh": 'D=n\nf() {\n  if [ "$D" = y ]; then\n    {D}\n    return\n  fi\n'
            '  D=y\n  f "$@"\n}\n'
        },
        (),
        ". ./lib.sh; f z",
        "run",
    ),
    (
        "recursion-shifted",
        {"lib.sh": 'f() {\n  case "$1" in\n    go) {D} ;;\n    *) shift; f "$@" ;;\n  esac\n}\n'},
        (),
        ". ./lib.sh && f x go",
        "run",
    ),
    ("nested-script", {"a.sh": "sh b.sh\n", "b.sh": "{D}\n"}, (), "sh a.sh", "run"),
    ("if-block", {"x.sh": "if true; then\n  {D}\nfi\n"}, (), "sh x.sh", "run"),
    ("loop", {"x.sh": "for i in 1; do\n  {D}\ndone\n"}, (), "bash x.sh", "run"),
    ("variables", {"x.sh": "T=src\necho $T\n{D}\n"}, (), "bash x.sh", "run"),
    ("npm-test", {"package.json": '{"scripts": {"test": "{J}"}}'}, (), "npm test", "run"),
    ("npm-run", {"package.json": '{"scripts": {"clean": "{J}"}}'}, (), "npm run clean", "run"),
    (
        "npm-run-script",
        {"package.json": '{"scripts": {"x": "{J}"}}'},
        (),
        "npm run-script x",
        "run",
    ),
    ("npm-start", {"package.json": '{"scripts": {"start": "{J}"}}'}, (), "npm start", "run"),
    (
        "npm-pre",
        {"package.json": '{"scripts": {"pretest": "{J}", "test": "echo t"}}'},
        (),
        "npm test",
        "run",
    ),
    ("npm-t", {"package.json": '{"scripts": {"test": "{J}"}}'}, (), "npm t", "run"),
    (
        "npm-nested",
        {"package.json": '{"scripts": {"a": "npm run b", "b": "{J}"}}'},
        (),
        "npm run a",
        "run",
    ),
    (
        "yarn-name",
        {"package.json": '{"scripts": {"wipe": "{J}"}}'},
        (),
        "yarn wipe",
        "resolved",
    ),
    (
        "yarn-run",
        {"package.json": '{"scripts": {"wipe": "{J}"}}'},
        (),
        "yarn run wipe",
        "resolved",
    ),
    (
        "pnpm-run",
        {"package.json": '{"scripts": {"wipe": "{J}"}}'},
        (),
        "pnpm run wipe",
        "resolved",
    ),
    (
        "pnpm-test",
        {"package.json": '{"scripts": {"test": "{J}"}}'},
        (),
        "pnpm test",
        "resolved",
    ),
    ("make-target", {"Makefile": "clean:\n\t{D}\n"}, (), "make clean", "run"),
    ("make-default", {"Makefile": "all:\n\t{D}\n"}, (), "make", "run"),
    ("make-dep", {"Makefile": "build: clean\n\techo b\nclean:\n\t{D}\n"}, (), "make build", "run"),
    ("make-C", {"sub/Makefile": "x:\n\tcd .. && {D}\n"}, (), "make -C sub x", "run"),
    ("make-C-deep", {"a/b/Makefile": "x:\n\tcd ../.. && {D}\n"}, (), "make -C a/b x", "run"),
    ("make-C-twice", {"a/b/Makefile": "x:\n\tcd ../.. && {D}\n"}, (), "make -C a -C b x", "run"),
    (
        "npm-prefix-cd",
        {"pk/package.json": '{"scripts": {"x": "cd .. && {J}"}}'},
        (),
        "npm --prefix pk run x",
        "run",
    ),
    ("make-f", {"build.mk": "go:\n\t{D}\n"}, (), "make -f build.mk go", "run"),
    ("make-recursive", {"Makefile": "a:\n\t$(MAKE) b\nb:\n\t{D}\n"}, (), "make a", "run"),
    ("just-recipe", {"justfile": "wipe:\n    {D}\n"}, (), "just wipe", "resolved"),
    ("just-default", {"justfile": "default:\n    {D}\n"}, (), "just", "resolved"),
]
# Scripts written earlier on the same line (no file exists before the command runs).
WRITTEN: list[tuple[str, str, str]] = [
    ("printf-sh", "printf '%s\\n' '{D}' > y.sh && sh y.sh", "run"),
    ("echo-bash", "echo '{D}' > y.sh; bash y.sh", "run"),
    ("tee", "echo '{D}' | tee y.sh >/dev/null; bash y.sh", "run"),
    ("heredoc-exec", "cat > y.sh <<'EOF'\n{D}\nEOF\nchmod +x y.sh && ./y.sh", "run"),
    ("heredoc-source", "cat <<'EOF' > y.sh\n{D}\nEOF\n. ./y.sh", "run"),
    ("stdin", "echo '{D}' > y.sh && bash < y.sh", "run"),
    ("append", "echo 'echo start' > y.sh; echo '{D}' >> y.sh; sh y.sh", "run"),
    ("copy", "echo '{D}' > a.sh; cp a.sh y.sh; sh y.sh", "run"),
    ("cat-pipe", "echo '{D}' > y.sh; cat y.sh | sh", "run"),
]
# Interpreter script files: (id, file, text, command, proof).
PROGRAMS = [
    ("python-file", "x.py", "import shutil\nshutil.rmtree('src')\n", "python3 x.py", "run"),
    (
        "python-shebang",
        "tool",
        "#!/usr/bin/env python3\nimport os\nos.system('rm -rf src')\n",
        "./tool",
        "run",
    ),
    (
        "python-opts",
        "x.py",
        "import subprocess\nsubprocess.run(['rm', '-rf', 'src'])\n",
        "python3 -u x.py",
        "run",
    ),
    (
        "node-file",
        "x.js",
        "require('fs').rmSync('src', {recursive: true, force: true})\n",
        "node x.js",
        "run",
    ),
    (
        "node-exec",
        "x.js",
        "require('child_process').execSync('rm -rf src')\n",
        "node x.js",
        "run",
    ),
    ("perl-file", "x.pl", "system('rm -rf src');\n", "perl x.pl", "run"),
    (
        "perl-shebang",
        "x.pl",
        "#!/usr/bin/perl\nuse File::Path qw(remove_tree);\nremove_tree('src');\n",
        "./x.pl",
        "run",
    ),
]


def _cases() -> list[object]:
    out: list[object] = []
    for rid, files, exe, command, proof in RUNNERS:
        for bid, body in BODIES.items():
            out.append(pytest.param(files, exe, command, proof, body, id=f"{rid}-{bid}"))
    for wid, command, proof in WRITTEN:
        for bid, body in BODIES.items():
            out.append(pytest.param({}, (), command, proof, body, id=f"written-{wid}-{bid}"))
    for pid, name, text, command, proof in PROGRAMS:
        out.append(pytest.param({name: text}, (name,), command, proof, "", id=pid))
    return out


STOP = _cases()


def sandbox(home: Path) -> dict[str, str]:
    """The test's HOME as a sandbox: a git repository with uncommitted work in src/canary."""
    (home / "src").mkdir()
    (home / "src" / "canary").write_text("alive\n")
    (home / "tmp").mkdir()
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-C", str(home)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "src/canary"], check=True)
    subprocess.run([*git, "commit", "-qm", "c"], check=True)
    (home / "src" / "canary").write_text("alive\nuncommitted work\n")
    return {
        "HOME": str(home),
        "TMPDIR": str(home / "tmp"),
        "PATH": os.environ["PATH"],
        "GIT_CEILING_DIRECTORIES": str(home.parent),
    }


def _write(home: Path, files: dict[str, str], exe: tuple[str, ...], body: str) -> None:
    for name, text in files.items():
        path = home / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if name.endswith(("Makefile", ".mk")):
            body = body.replace("$", "$$")  # make's own expansion comes first
        path.write_text(text.replace("{D}", body).replace("{J}", body.replace('"', '\\"')))
    for name in exe:
        (home / name).chmod(0o755)


def _line(command: str, body: str) -> str:
    return command.replace("{D}", body.replace("'", "'\\''") if "'" in body else body)


def hook_verdicts(command: str, cwd: Path) -> dict[str, str]:
    """Every agent's verdict for ``command`` with ``cwd`` as the payload's cwd."""
    env = dict(os.environ, DCG_RESPONSE_MODE="paranoid")
    found = {}
    for agent in AGENTS:
        body = payload(agent, command, str(cwd))
        found[agent] = verdict(*run(json.dumps(body).encode(), env=env))
    return found


def rule_id(command: str, cwd: Path) -> str:
    env = dict(os.environ, DCG_RESPONSE_MODE="paranoid", DCG_HOOK_DETAILS="1")
    _, out, _ = run(json.dumps(payload("claude", command, str(cwd))).encode(), env=env)
    spec = json.loads(out).get("hookSpecificOutput", {}) if out.strip() else {}
    return f"{spec.get('ruleId', '')} {spec.get('permissionDecisionReason', '')}"


def destroyed(home: Path) -> bool:
    canary = home / "src" / "canary"
    return not canary.exists() or canary.read_text() != "alive\nuncommitted work\n"


def run_in_sandbox(command: str, home: Path, env: dict[str, str]) -> None:
    subprocess.run(
        ["bash", "-c", command], cwd=home, env=env, capture_output=True, timeout=60, check=False
    )


def resolved_lines(command: str, home: Path) -> str:
    """What `just`/`yarn`/`pnpm` would run, read from the sandbox's file by dcg.extract."""
    from dcg.extract import justfile, packagejson

    words = command.split()
    if words[0] == "just":
        plan = justfile.plan((home / "justfile").read_text(), words[1] if len(words) > 1 else "")
        assert plan
        return "\n".join(f.text for f in plan)
    name = words[-1]
    found = packagejson.run_order((home / "package.json").read_text(), name)
    assert found
    return "\n".join(f.text for f in found)


@pytest.mark.skipif(shutil.which("bash") is None or shutil.which("git") is None, reason="bash")
@pytest.mark.parametrize(("files", "exe", "command", "proof", "body"), STOP)
def test_script_cases_stopped_and_real(
    isolated_home: Path,
    files: dict[str, str],
    exe: tuple[str, ...],
    command: str,
    proof: str,
    body: str,
) -> None:
    home = isolated_home
    env = sandbox(home)
    _write(home, files, exe, body)
    line = _line(command, body)
    verdicts = hook_verdicts(line, home)
    assert set(verdicts.values()) == {"deny"}, (line, verdicts)
    details = rule_id(line, home)
    assert "core." in details
    if files and "(written" not in details and "opaque" not in details:
        assert "[in " in details, details  # the reason names the file and line
    if proof == "resolved":
        run_in_sandbox(resolved_lines(command, home), home, env)
    else:
        run_in_sandbox(line, home, env)
    assert destroyed(home), line


def test_reason_names_file_and_line(isolated_home: Path) -> None:
    sandbox(isolated_home)
    (isolated_home / "x.sh").write_text("echo one\necho two\nrm -rf src\n")
    details = rule_id("sh x.sh", isolated_home)
    assert "core.filesystem:rm-rf" in details
    assert "[in ./x.sh line 3" in details
    (isolated_home / "Makefile").write_text("all:\n\techo a\nclean:\n\trm -rf src\n")
    assert "[in ./Makefile line 4 (target clean)" in rule_id("make clean", isolated_home)
    (isolated_home / "package.json").write_text('{\n  "scripts": {\n    "t": "rm -rf src"\n  }\n}')
    assert "[in ./package.json line 3 (script t)" in rule_id("npm run t", isolated_home)


# Code that cannot be seen, and tool shell escapes: (command, extra env, proof).
# ``run`` cases use only targets inside the sandbox (src, $HOME).
PY_HEX = b"import os; os.system('rm -rf src')".hex()
PERL_HEX = b'system("rm -rf src")'.hex()
JS_B64 = base64.b64encode(b'require("fs").rmSync("src", {recursive: true})').decode()
OPAQUE: list[tuple[str, dict[str, str], str]] = [
    # arithmetic evaluation of a value holding a[$(…)]
    ("x='a[$(rm -rf src)]'; (( x ))", {}, "run"),
    ("x='a[$(rm -rf src)]'; let x", {}, "run"),
    ("x='a[$(rm -rf src)]'; [[ $x -gt 0 ]]", {}, "run"),
    ("x='a[$(rm -rf src)]'; [[ $x -eq 1 ]] || echo no", {}, "run"),
    ("x='a[$(rm -rf src)]'; declare -i y=\"$x\"", {}, "run"),
    ("x='a[$(rm -rf src)]'; echo $(( x + 1 ))", {}, "run"),
    ("x='a[$(rm -rf src)]'; y=x; (( y ))", {}, "run"),
    ("let 'a[$(rm -rf src)]'", {}, "run"),
    ("declare -i n='a[$(rm -rf src)]'", {}, "run"),
    ("declare -i n; n='a[$(rm -rf src)]'", {}, "run"),
    ("echo 'a[$(rm -rf src)]' > v; read -r v < v; (( v ))", {}, "run"),
    ("echo 'a[$(rm -rf src)]' > v; v=$(cat v); [[ $v -gt 0 ]]", {}, "run"),
    ("v=$(echo YVskKHJtIC1yZiBzcmMpXQ== | base64 -d); (( v > 0 ))", {}, "run"),
    ("echo 'a[$(rm -rf src)]' > v; read x < v; let 'y = x + 1'", {}, "run"),
    # a command word split from a value dcg cannot know
    ("echo 'rm,-rf,src' > c; IFS=,; read -r c < c; $c", {}, "run"),
    ("echo 'rm -rf src' > c; c=$(cat c); $c", {}, "run"),
    ("IFS=,; $CMD", {"CMD": "rm,-rf,src"}, "run"),
    ('echo "$P" | sh', {"P": "rm -rf src"}, "run"),
    ('sh -c "$P"', {"P": "rm -rf src"}, "run"),
    ('eval "$P"', {"P": "rm -rf src"}, "run"),
    ('bash <<< "$P"', {"P": "rm -rf src"}, "run"),
    ("printf '%s\\n' \"$P\" | bash", {"P": "rm -rf src"}, "run"),
    ('bash -c "${P}"', {"P": "rm -rf src"}, "run"),
    # awk
    ('awk \'BEGIN { print "rm -rf src" | "sh" }\'', {}, "run"),
    ("echo 'rm -rf src' > c; awk '{ print $0 | \"sh\" }' c", {}, "run"),
    ("echo 'rm -rf src' > c; awk '{ system($0) }' c", {}, "run"),
    ("awk -v c=rm 'BEGIN { system(c \" -rf src\") }'", {}, "run"),
    ("awk 'BEGIN { \"rm -rf src\" | getline x }'", {}, "run"),
    ('awk \'BEGIN { print "x" | "rm -rf src" }\'', {}, "run"),
    # vim / ex
    ("vim -es -c '!rm -rf src' -c q", {}, "run"),
    ("vim -es -c 'silent !rm -rf src' -c qa!", {}, "run"),
    ("vim -es +'!rm -rf src' +q", {}, "run"),
    ("vim -es -c 'call system(\"rm -rf src\")' -c q", {}, "run"),
    ("vim -es -c 'r !rm -rf src' -c q!", {}, "run"),
    ("vim -es <<< '!rm -rf src'", {}, "run"),
    ("echo '!rm -rf src' | ex -s", {}, "run"),
    ("vi -es -c ':!rm -rf src' -c q", {}, "run"),
    ("vim -es -c 'exe \"!\" . $P' -c q", {"P": "rm -rf src"}, "run"),
    # gdb
    ("gdb -batch -ex '!rm -rf src'", {}, "run"),
    ("gdb -batch -ex 'shell rm -rf src'", {}, "run"),
    ("gdb -nx -batch --eval-command='shell rm -rf src'", {}, "run"),
    # sqlite3
    ("sqlite3 x.db '.shell rm -rf src'", {}, "run"),
    ("sqlite3 x.db '.system rm -rf src'", {}, "run"),
    ("sqlite3 -cmd '.shell rm -rf src' x.db .quit", {}, "run"),
    ("sqlite3 x.db <<< '.shell rm -rf src'", {}, "run"),
    ("echo '.system rm -rf src' | sqlite3 x.db", {}, "run"),
    ("sqlite3 x.db \".once '|rm -rf src'\" 'select 1;'", {}, "run"),
    # Tcl
    ("echo 'exec rm -rf src' | tclsh", {}, "run"),
    ("tclsh <<< 'exec rm -rf src'", {}, "run"),
    ("tclsh <<< 'puts [exec rm -rf src]'", {}, "run"),
    ("tclsh <<< 'set c rm; exec $c -rf src'", {}, "run"),
    ("tclsh <<< 'exec {*}[split \"rm -rf src\"]'", {}, "run"),
    ("tclsh <<< 'eval [list exec rm -rf src]'", {}, "run"),
    # make reading its makefile from stdin
    ("make -f - <<< $'all:\\n\\trm -rf src'", {}, "run"),
    ("printf 'all:\\n\\trm -rf src\\n' | make -f -", {}, "run"),
    ("make -f /dev/stdin <<< $'all:\\n\\trm -rf src'", {}, "run"),
    ("printf 'all:\\n\\trm -rf src\\n' > mk; cat mk | make -f -", {}, "run"),
    ("make --eval=$'x:\\n\\trm -rf src' x", {}, "run"),
    # interpreters executing decoded bytes or computed names
    (f"python3 -c \"exec(bytes.fromhex('{PY_HEX}'))\"", {}, "run"),
    (
        "python3 -c \"import base64; exec(base64.b64decode('"
        + __import__("base64").b64encode(b"import os; os.system('rm -rf src')").decode()
        + "'))\"",
        {},
        "run",
    ),
    (f"python3 -c \"import binascii; exec(binascii.unhexlify('{PY_HEX}'))\"", {}, "run"),
    (f"python3 -c \"import codecs; exec(codecs.decode('{PY_HEX}', 'hex'))\"", {}, "run"),
    ("python3 -c \"import os; getattr(os, 'metsys'[::-1])('rm -rf src')\"", {}, "run"),
    ("python3 -c \"import os; vars(os)['sys'+'tem']('rm -rf src')\"", {}, "run"),
    ("python3 -c \"import os; os.__dict__['sys'+'tem']('rm -rf src')\"", {}, "run"),
    (
        "python3 -c \"import os; exec(os.environ['P'])\"",
        {"P": "import shutil; shutil.rmtree('src')"},
        "run",
    ),
    (f'perl -e \'eval pack("H*", "{PERL_HEX}")\'', {}, "run"),
    (f'perl -e \'my $c = pack("H*", "{PERL_HEX}"); eval $c\'', {}, "run"),
    (
        "perl -MMIME::Base64 -e 'eval decode_base64(\""
        + __import__("base64").b64encode(b'system("rm -rf src")').decode()
        + "\")'",
        {},
        "run",
    ),
    ("perl -e 'eval $ENV{P}'", {"P": 'system("rm -rf src")'}, "run"),
    (f'node -e \'eval(Buffer.from("{JS_B64}", "base64").toString())\'', {}, "run"),
    (
        "node -e 'eval(process.env.P)'",
        {"P": "require('fs').rmSync('src',{recursive:true})"},
        "run",
    ),
]


@pytest.mark.skipif(shutil.which("bash") is None or shutil.which("git") is None, reason="bash")
@pytest.mark.parametrize(("command", "extra", "proof"), OPAQUE, ids=[c[0][:60] for c in OPAQUE])
def test_unseen_code_stopped_and_real(
    isolated_home: Path, command: str, extra: dict[str, str], proof: str
) -> None:
    home = isolated_home
    env = sandbox(home)
    verdicts = hook_verdicts(command, home)
    assert set(verdicts.values()) == {"deny"}, (command, verdicts)
    assert "core." in rule_id(command, home)
    tool = command.split()[0].split("=")[0]
    needs = ("vim", "vi", "gdb", "sqlite3", "tclsh", "perl", "node", "make", "python3")
    if tool in needs and shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed")
    run_in_sandbox(command, home, {**env, **extra})
    assert destroyed(home), command


# Must pass: harmless scripts, package scripts, recipes, and the usual sourced setup.
HARMLESS_BODIES = {
    "echo": "echo hello",
    "comment": "# rm -rf ~ would be bad\necho ok",
    "echo-danger": 'echo "rm -rf ~ and git reset --hard are dangerous"',
    "uncalled-function": 'nuke() {\n  rm -rf "$HOME"\n}\necho "defined, never called"',
    "build": "mkdir -p out && touch out/app && ls out",
}
SAFE_RUNNERS = [
    ("sh-file", {"x.sh": "{D}\n"}, (), "sh x.sh"),
    ("bash-file", {"x.sh": "{D}\n"}, (), "bash x.sh"),
    ("shebang", {"run.sh": SH + "{D}\n"}, ("run.sh",), "./run.sh"),
    ("source", {"x.sh": "{D}\n"}, (), "source x.sh"),
    ("dot", {"env.sh": "{D}\n"}, (), ". ./env.sh"),
    ("stdin", {"x.sh": "{D}\n"}, (), "bash < x.sh"),
    ("cat-pipe", {"x.sh": "{D}\n"}, (), "cat x.sh | sh"),
    ("make", {"Makefile": "build:\n\t{D}\n"}, (), "make build"),
    ("npm-test", {"package.json": '{"scripts": {"test": "{J}"}}'}, (), "npm test"),
    ("written", {}, (), "printf '%s\\n' '{D}' > y.sh && sh y.sh"),
    ("heredoc", {}, (), "cat > y.sh <<'EOF'\n{D}\nEOF\nbash y.sh"),
]
SAFE_LINES = [
    "sh missing.sh",
    "./not-there.sh",
    "make -n clean",
    "make --dry-run",
    "npm run",
    "npm install lodash",
    "just --list",
    "python3 -m pytest -q",
    "python3 -c 'print(1)'",
    "node --version",
    "vim -es -c 'set number' -c q notes.txt",
    "vim -es -c 'normal dd' -c q notes.txt",
    "sqlite3 x.db 'select 1'",
    "tclsh <<< 'puts hello'",
    "awk '/a|b/ {print $1}' notes.txt",
    "awk -F: '{print $1 | \"sort\"}' notes.txt",
    "for i in 1 2 3; do (( i % 2 )) && echo $i; done",
    "n=$(wc -l < notes.txt); (( n > 10 )) && echo big",
    "(( count++ ))",
    "let i=i+1",
    "[[ $# -gt 0 ]] && echo args",
    "x=5; (( x > 3 )) && echo yes",
    "PY=$(which python3); $PY -V",
    'eval "$(ssh-agent -s)"',
    "python3 -c \"print(eval('1+2'))\"",
    "curl -fsSL -o install.sh https://example.com/install.sh && sh install.sh",
]


def _safe_cases() -> list[object]:
    out: list[object] = []
    for rid, files, exe, command in SAFE_RUNNERS:
        for bid, body in HARMLESS_BODIES.items():
            if bid == "uncalled-function" and rid in ("written",):
                continue
            out.append(pytest.param(files, exe, command, body, id=f"{rid}-{bid}"))
    for k, line in enumerate(SAFE_LINES):
        out.append(pytest.param({}, (), line, "", id=f"line-{k}"))
    return out


SAFE = _safe_cases()


@pytest.mark.skipif(shutil.which("bash") is None or shutil.which("git") is None, reason="bash")
@pytest.mark.parametrize(("files", "exe", "command", "body"), SAFE)
def test_harmless_scripts_pass_and_are_harmless(
    isolated_home: Path, files: dict[str, str], exe: tuple[str, ...], command: str, body: str
) -> None:
    home = isolated_home
    env = sandbox(home)
    (home / "notes.txt").write_text("a\nb\n")
    _write(home, files, exe, body)
    line = _line(command, body) if "{D}" in command else command
    verdicts = hook_verdicts(line, home)
    assert set(verdicts.values()) == {"none"}, (line, verdicts)
    if line.startswith("curl"):
        return  # needs the network; the point is the hook's answer
    run_in_sandbox(line, home, env)
    assert not destroyed(home), line


def test_sourced_setup_scripts_pass(isolated_home: Path) -> None:
    """`source .venv/bin/activate` and `. ~/.nvm/nvm.sh`: libraries of functions pass."""
    home = isolated_home
    sandbox(home)
    activate = Path(sys.prefix) / "bin" / "activate"
    (home / ".venv" / "bin").mkdir(parents=True)
    shutil.copy(activate, home / ".venv" / "bin" / "activate")
    (home / ".nvm").mkdir()
    (home / ".nvm" / "nvm.sh").write_text(
        'NVM_DIR="${NVM_DIR:-$HOME/.nvm}"\n'
        "nvm_clear_cache() {\n"
        '  command rm -rf "${NVM_DIR}/.cache"\n'
        "}\n"
        "nvm_uninstall() {\n"
        '  if [ -n "$1" ]; then\n'
        '    command rm -rf "$NVM_DIR/versions/node/$1"\n'
        "  fi\n"
        "}\n"
        "nvm() { :; }\n"
    )
    (home / ".bashrc").write_text(
        "alias ll='ls -la'\nalias nuke='rm -rf ~'\nexport PATH=$HOME/bin:$PATH\n"
        "__conda_setup=\"$('/opt/conda/bin/conda' 'shell.bash' 'hook' 2> /dev/null)\"\n"
        'if [ $? -eq 0 ]; then\n    eval "$__conda_setup"\nfi\nunset __conda_setup\n'
        'eval "$(dircolors -b)"\n[ -f ~/.bash_aliases ] && . ~/.bash_aliases\n'
    )
    for line in (
        "source ~/.bashrc",
        ". ~/.bashrc && cd src",
        "source .venv/bin/activate",
        ". .venv/bin/activate && python -V",
        ". ~/.nvm/nvm.sh",
        'source "$HOME/.nvm/nvm.sh" && nvm use 20',
        "source ~/.nvm/nvm.sh; node --version",
    ):
        assert set(hook_verdicts(line, home).values()) == {"none"}, line


def test_oversized_script_is_opaque(isolated_home: Path) -> None:
    sandbox(isolated_home)
    (isolated_home / "big.sh").write_text("echo padding\n" * 30000)
    assert "core.shell:opaque-exec" in rule_id("sh big.sh", isolated_home)
    assert "larger than 256 KiB" in rule_id("sh big.sh", isolated_home)


def test_no_file_is_read_for_commands_that_run_none(
    isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading is paid only by a command that runs a script file."""
    from dcg.shell import scripts

    sandbox(isolated_home)
    (isolated_home / "x.sh").write_text("rm -rf src\n")
    calls: list[str] = []
    real = scripts._read
    monkeypatch.setattr(scripts, "_read", lambda p: calls.append(p) or real(p))
    for line in ("git status", "rm -f notes.txt", "ls x.sh", "cat x.sh", "echo sh x.sh"):
        hook_verdicts(line, isolated_home)
    assert calls == []
    hook_verdicts("sh x.sh", isolated_home)
    assert calls and calls[0].endswith("/x.sh")


# Programs read from disk compute code of their own (setup.py's exec of version.py, a
# calculator's eval): that is not an agent hiding a command, so it passes; only a file
# written on the same line is judged like a `-c` one-liner (OPAQUE above).
PROGRAM_FILES = [
    pytest.param(
        {"setup.py": 'exec(open("version.py").read())\nprint(__version__)\n',
         "version.py": '__version__ = "1.0"\n'},
        "python3 setup.py",
        id="setup-py-exec",
    ),
    pytest.param(
        {"calc.py": "import sys\nprint(eval(sys.argv[1]))\n"}, "python3 calc.py 1+2", id="eval"
    ),
    pytest.param(
        {"gen.py": 'code = "print(" + "1" + ")"\nexec(compile(code, "gen", "exec"))\n'},
        "python3 gen.py && echo $?",
        id="exec-compile",
    ),
    pytest.param(
        {"tool.sh": '#!/bin/sh\nexec python3 -c "print(eval(\'2*3\'))"\n'},
        "sh tool.sh",
        id="shell-wrapper-of-python",
    ),
]  # fmt: skip


@pytest.mark.skipif(shutil.which("bash") is None or shutil.which("git") is None, reason="bash")
@pytest.mark.parametrize(("files", "command"), PROGRAM_FILES)
def test_programs_on_disk_computing_their_own_code_pass(
    isolated_home: Path, files: dict[str, str], command: str
) -> None:
    home = isolated_home
    env = sandbox(home)
    _write(home, files, (), "")
    verdicts = hook_verdicts(command, home)
    assert set(verdicts.values()) == {"none"}, (command, verdicts)
    run_in_sandbox(command, home, env)
    assert not destroyed(home), command


def test_installed_programs_are_not_read(isolated_home: Path) -> None:
    """A tool in a system directory is a program, not a script of the line: its own source
    (pygettext3's eval, a wrapper's exec) is never read, with or without a glob."""
    for line in ("/usr/bin/py*3 --version; echo $HOME", "python3 /usr/bin/pydoc3 -k x | head"):
        assert set(hook_verdicts(line, isolated_home).values()) == {"none"}, line
