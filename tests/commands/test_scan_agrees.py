"""``dcg scan`` and the hook give one verdict: a finding is what the hook stops in paranoid mode.

Every command of the table goes through the hook as each agent sends it
(tests/hookpath.py, ``--mode paranoid``) and is written down in every format the scan
reads (a shell script, a package.json script, a Makefile recipe, a GitHub workflow
step); the rule the hook stops it with, or none, must be exactly the scan's finding.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from hookpath import encode, payload, run, verdict

# (command, the rule the hook stops it with in paranoid mode or None, packs enabled).
CASES = [
    # Opt-in rules of a pack on by default are left out by the hook: by the scan too.
    pytest.param("docker system prune -f", None, (), id="docker-prune-opt-in"),
    pytest.param("docker system prune -af", None, (), id="docker-prune-all-opt-in"),
    pytest.param(
        "docker system prune -f",
        "containers.docker:prune",
        ("containers.docker",),
        id="docker-prune-enabled",
    ),
    pytest.param(
        "docker volume prune -f",
        "containers.docker:volume-prune",
        ("containers.docker",),
        id="docker-volume-prune-enabled",
    ),
    # A vite-like monorepo's scripts.
    pytest.param("rimraf dist && run-s build-bundle build-types", None, (), id="vite-build"),
    pytest.param("pnpm -r --filter='./packages/*' run build", None, (), id="vite-filter"),
    pytest.param("pnpm -r --parallel --filter='./packages/*' run dev", None, (), id="vite-dev"),
    pytest.param(
        "tsc -p scripts --noEmit && pnpm -r --parallel run typecheck", None, (), id="vite-tsc"
    ),
    pytest.param("npx only-allow pnpm", None, (), id="vite-preinstall"),
    pytest.param("prettier --write --cache .", None, (), id="vite-format"),
    pytest.param("rimraf temp", "core.filesystem:rimraf", (), id="rimraf-not-regenerable"),
    pytest.param("rm -rf node_modules dist", None, (), id="rm-regenerable"),
    pytest.param("rm -rf /tmp/build-cache", None, (), id="rm-temp"),
    pytest.param("git push --force origin main", "core.git:push-force", (), id="push-force"),
    pytest.param("git push --force-with-lease", None, (), id="push-lease"),
    pytest.param("git reset --hard HEAD~1", "core.git:reset-hard", (), id="reset-hard"),
    pytest.param("git clean -fdx", "core.git:clean-force", (), id="clean-force"),
    pytest.param("git clean -n", None, (), id="clean-dry"),
    pytest.param("rm -rf ~", "core.filesystem:rm-rf-critical", (), id="rm-home"),
    pytest.param(
        "sudo rm -rf /usr/local/lib", "core.filesystem:rm-rf-critical", (), id="rm-system"
    ),
    pytest.param("echo 'git reset --hard'", None, (), id="echo-is-data"),
    pytest.param("find . -name '*.pyc' -delete", None, (), id="find-pyc"),
    pytest.param("git stash clear", "core.git:stash-clear", (), id="stash-clear"),
    pytest.param("git branch -D feature", "core.git:branch-force-delete", (), id="branch-D"),
]


def _formats(command: str) -> dict[str, str]:
    make = command.replace("$", "$$")
    step = json.dumps(command)
    return {
        "run.sh": f"#!/bin/sh\n{command}\n",
        "package.json": json.dumps({"name": "x", "scripts": {"s": command}}),
        "Makefile": f"s:\n\t{make}\n",
        ".github/workflows/ci.yml": f"jobs:\n  a:\n    steps:\n      - run: {step}\n",
    }


def _repo(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(parents=True)
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


RULE_ID = re.compile(r"\b([a-z]+\.[a-z0-9_.]+:[a-z0-9-]+)")


@pytest.mark.parametrize(("command", "rule", "packs"), CASES)
@pytest.mark.parametrize("fmt", ["run.sh", "package.json", "Makefile", ".github/workflows/ci.yml"])
def test_scan_finding_is_the_hooks_paranoid_stop(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    command: str,
    rule: str | None,
    packs: tuple[str, ...],
    fmt: str,
) -> None:
    from dcg.commands.scan import scan

    files = {fmt: _formats(command)[fmt]}
    if packs:
        files[".dcg.toml"] = f"[packs]\nenabled = {json.dumps(list(packs))}\n"
    # In the (fake) home: a project under the temp directory is the temp exemption's.
    root = _repo(Path.home() / "p", files)
    monkeypatch.chdir(root)
    findings = scan([])[0]
    code, out, err = run(
        encode(payload("claude", command, str(root))), ["--agent", "claude", "--mode", "paranoid"]
    )
    stopped = verdict(code, out, err) == "deny"
    hook_rule = RULE_ID.search(out).group(1) if stopped and RULE_ID.search(out) else None
    assert hook_rule == rule
    assert [f.rule_id for f in findings] == ([rule] if rule else [])


# PowerShell: a .ps1 script, a .psm1 module, a pwsh-shebang tool and a `shell: pwsh`
# workflow step against the hook's PowerShell tool.
PS_CASES = [
    pytest.param("Remove-Item -Recurse -Force C:\\Users\\me\\Documents", True, id="remove-docs"),
    pytest.param("Remove-Item -Recurse -Force $env:TEMP\\build", False, id="remove-temp"),
    pytest.param("Get-ChildItem -Recurse | Select-Object Name", False, id="list"),
    pytest.param("git push --force origin main", True, id="push-force"),
    pytest.param("git push --force-with-lease", False, id="push-lease"),
    pytest.param("Write-Host 'git reset --hard'", False, id="string-is-data"),
    pytest.param("ri -r -fo $HOME", True, id="alias-home"),
]


def _ps_formats(command: str) -> dict[str, str]:
    step = json.dumps(command)
    return {
        "build.ps1": f"{command}\n",
        "Acme.psm1": f"function Invoke-It {{\n    {command}\n}}\n",
        "tools/run": f"#!/usr/bin/env pwsh\n{command}\n",
        ".github/workflows/ci.yml": (
            f"jobs:\n  a:\n    steps:\n      - shell: pwsh\n        run: {step}\n"
        ),
    }


@pytest.mark.parametrize(("command", "stops"), PS_CASES)
@pytest.mark.parametrize("fmt", ["build.ps1", "Acme.psm1", "tools/run", ".github/workflows/ci.yml"])
def test_scan_agrees_with_the_hook_on_powershell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str, stops: bool, fmt: str
) -> None:
    from dcg.commands.scan import scan

    root = _repo(Path.home() / "p", {fmt: _ps_formats(command)[fmt]})
    monkeypatch.chdir(root)
    findings = scan([])[0]
    request = payload("claude", command, str(root))
    request["tool_name"] = "PowerShell"
    code, out, err = run(encode(request), ["--agent", "claude", "--mode", "paranoid"])
    stopped = verdict(code, out, err) == "deny"
    assert stopped == stops
    hook_rule = RULE_ID.search(out).group(1) if stopped and RULE_ID.search(out) else None
    assert [f.rule_id for f in findings] == ([hook_rule] if hook_rule else [])
