"""``dcg scan`` reads each file as what it is: PowerShell as PowerShell, documentation
output as output, a script's cleanup of what it created as no finding (issue 24)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from dcg.commands.scan import scan

# Judged as run from a project directory outside every temp directory, wherever the
# test's own files are.
CWD = "/srv/src/project"

PS_HELP = """\
<#
.SYNOPSIS
  Cleans the build.
.EXAMPLE
  Remove-Item -Recurse -Force $env:USERPROFILE
  rm -rf ~
#>
"""
PS_HERE = """\
$msg = @"
To reset everything: rm -rf ~/.config
git reset --hard
"@
Write-Host $msg
"""
PS_CONTINUED = "Remove-Item `\n  -Recurse -Force `\n  C:\\Users\\me\\Documents\n"


def make_repo(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(parents=True)
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def findings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]) -> list[str]:
    root = make_repo(tmp_path / "repo", files)
    monkeypatch.chdir(root)
    found, _, _, _ = scan([], include_docs=True, cwd=CWD)
    return [f"{f.path}:{f.line}:{f.rule_id}" for f in found]


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        # Comment-based help shows commands; it runs none of them.
        pytest.param({"build.ps1": PS_HELP}, [], id="ps1-block-comment"),
        pytest.param({"Acme.psm1": PS_HELP}, [], id="psm1-block-comment"),
        pytest.param({"tools/build": "#!/usr/bin/env pwsh\n" + PS_HELP}, [], id="pwsh-shebang"),
        pytest.param({"b.ps1": PS_HERE}, [], id="ps1-here-string"),
        # A statement carried on with backticks is one command, found where it starts.
        pytest.param({"b.ps1": PS_CONTINUED}, ["b.ps1:3:core.filesystem:rm-rf"], id="ps1-backtick"),
        pytest.param(
            {"Acme.psm1": "function Reset {\n  git reset --hard\n}\n"},
            ["Acme.psm1:2:core.git:reset-hard"],
            id="psm1-function-body",
        ),
        pytest.param(
            {
                ".github/workflows/ci.yml": (
                    "on: push\njobs:\n  t:\n    runs-on: windows-latest\n    steps:\n"
                    "      - shell: pwsh\n        run: |\n"
                    "          <# cleanup: Remove-Item -Recurse -Force $env:USERPROFILE #>\n"
                    "          $note = @'\n          rm -rf ~\n          '@\n"
                    "          Remove-Item `\n            -Recurse -Force C:\\agents\\work\n"
                    "      - shell: pwsh\n        run: git push --force origin main\n"
                )
            },
            [
                ".github/workflows/ci.yml:13:core.filesystem:rm-rf",
                ".github/workflows/ci.yml:15:core.git:push-force",
            ],
            id="actions-pwsh-step",
        ),
        pytest.param(
            {"tools/sync": "#!/usr/bin/env -S pwsh -NoProfile\ngit push --force origin main\n"},
            ["tools/sync:2:core.git:push-force"],
            id="pwsh-env-S-shebang",
        ),
        # The shebang is the content's word: it wins over the extension.
        pytest.param(
            {"ci/setup.sh": "#!/usr/bin/env pwsh\n" + PS_HELP}, [], id="pwsh-shebang-on-sh"
        ),
        pytest.param(
            {"ci/setup.ps1": "#!/bin/bash\nrm -rf ~/Documents\n"},
            ["ci/setup.ps1:2:core.filesystem:rm-rf-critical"],
            id="bash-shebang-on-ps1",
        ),
    ],
)
def test_powershell_files(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    files: dict[str, str],
    expected: list[str],
) -> None:
    assert findings(tmp_path, monkeypatch, files) == expected


FENCE = "```"


@pytest.mark.parametrize(
    ("doc", "expected"),
    [
        # A prompted block: lines without the prompt are what the commands printed.
        pytest.param(
            f"{FENCE}bash\n$ quill clean\nrm -rf ~/.cache/quill\nremoved 3 files\n{FENCE}\n",
            [],
            id="bash-transcript-output",
        ),
        pytest.param(
            f"{FENCE}\n$ quill clean --dry-run\nrm -rf ~/.cache/quill\n{FENCE}\n",
            [],
            id="untagged-transcript-output",
        ),
        pytest.param(
            f"{FENCE}\n$ git reset --hard origin/main\nHEAD is now at 1a2b3c\n{FENCE}\n",
            ["README.md:2:core.git:reset-hard"],
            id="untagged-transcript-command",
        ),
        pytest.param(
            f"{FENCE}powershell\nPS C:\\src> git push --force\nEverything up-to-date\n{FENCE}\n",
            ["README.md:2:core.git:push-force"],
            id="powershell-prompt",
        ),
        pytest.param(
            f"{FENCE}powershell\nPS C:\\Program Files\\acme> acme reset --dry-run\n"
            f"PS note > Remove-Item -Recurse -Force ~\n{FENCE}\n",
            [],
            id="powershell-prompt-with-spaces-and-output",
        ),
        pytest.param(
            f"{FENCE}text\nclear the cache with: rm -rf ~/.cache/quill\n{FENCE}\n",
            [],
            id="text-block",
        ),
        pytest.param(f"{FENCE}\nrm -rf ~/.cache/quill\n{FENCE}\n", [], id="untagged-no-prompt"),
        # Without prompts a shell block is a script: every line is a command.
        pytest.param(
            f"{FENCE}sh\npip uninstall quill\nrm -rf ~/Documents/quill\n{FENCE}\n",
            ["README.md:3:core.filesystem:rm-rf"],
            id="sh-script",
        ),
        pytest.param(
            f"{FENCE}console\n$ rm -rf \\\n    ~/Documents/quill\n{FENCE}\n",
            ["README.md:2:core.filesystem:rm-rf"],
            id="transcript-continuation",
        ),
    ],
)
def test_documentation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, doc: str, expected: list[str]
) -> None:
    assert findings(tmp_path, monkeypatch, {"README.md": doc}) == expected


def _script(*lines: str) -> dict[str, str]:
    return {"t.sh": "#!/bin/sh\nset -e\n" + "\n".join(lines) + "\n"}


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        # What the script made before deleting it.
        pytest.param(
            _script('fixture="$here/fixtures/out"', 'mkdir -p "$fixture"', 'rm -rf "$fixture"'),
            [],
            id="mkdir-var-with-literal",
        ),
        pytest.param(
            _script("mkdir -p build/e2e", "run-e2e build/e2e", "rm -rf build/e2e"),
            [],
            id="mkdir-relative",
        ),
        pytest.param(
            _script("mkdir work", "rm -rf ./work/ work/sub"), [], id="mkdir-inside-and-spelling"
        ),
        pytest.param(
            _script("git clone -q --depth 1 https://x.test/a.git vendor/a", "rm -rf vendor/a"),
            [],
            id="git-clone-dir",
        ),
        pytest.param(
            {
                "package.json": '{"scripts": {"e2e": "mkdir .e2e && node e2e.js .e2e '
                '&& rm -rf .e2e"}}\n'
            },
            [],
            id="same-line",
        ),
        pytest.param(
            _script("DATA=$(mktemp -d -t e2e.XXXX)", "cleanup() {", '  rm -rf "$DATA"', "}"),
            [],
            id="mktemp-assignment",
        ),
        pytest.param(
            {"ci.ps1": "New-Item -ItemType Directory out\nRemove-Item -Recurse -Force out\n"},
            [],
            id="powershell-nothing-to-find",
        ),
        pytest.param(
            {
                "t/Cache.Tests.ps1": (
                    "Describe 'cache' {\n    BeforeAll {\n"
                    "        $scratch = Join-Path ([IO.Path]::GetTempPath()) ([guid]::NewGuid())\n"
                    "        New-Item -ItemType Directory $scratch | Out-Null\n    }\n"
                    "    AfterAll {\n        Remove-Item -Recurse -Force $scratch\n    }\n}\n"
                )
            },
            [],
            id="pester-guid-scratch",
        ),
        pytest.param(
            {
                "b.ps1": "$work = Join-Path $PSScriptRoot 'fixtures/work'\n"
                "New-Item -Path $work -ItemType Directory -Force\n"
                "Remove-Item -Recurse -Force $work\n"
            },
            [],
            id="powershell-join-path-literal",
        ),
        # Not made by the script, or may have existed before: still findings.
        pytest.param(
            {
                "b.ps1": "$d = Join-Path $HOME '.acme'\nNew-Item -ItemType Directory -Force $d\n"
                "Remove-Item -Recurse -Force $d\n"
            },
            ["b.ps1:3:core.filesystem:rm-rf"],
            id="powershell-home",
        ),
        pytest.param(
            {
                "b.ps1": "$d = Join-Path $env:USERPROFILE 'x'\nNew-Item -ItemType Directory $d\n"
                "Remove-Item -Recurse -Force $d\n"
            },
            ["b.ps1:3:core.filesystem:rm-rf"],
            id="powershell-profile",
        ),
        pytest.param(
            {"b.ps1": "New-Item -ItemType Directory $d\nRemove-Item -Recurse -Force $d\n"},
            ["b.ps1:2:core.filesystem:rm-rf"],
            id="powershell-unknown",
        ),
        pytest.param(
            {
                "b.ps1": "$f = Join-Path $PSScriptRoot 'data'\nNew-Item -ItemType File $f\n"
                "Remove-Item -Recurse -Force $f\n"
            },
            ["b.ps1:3:core.filesystem:rm-rf"],
            id="powershell-new-file-is-no-directory",
        ),
        pytest.param(
            {
                "b.ps1": "$w = Join-Path $PSScriptRoot 'fixtures/work'\n"
                "Remove-Item -Recurse -Force $w\nNew-Item -ItemType Directory $w\n"
            },
            ["b.ps1:2:core.filesystem:rm-rf"],
            id="powershell-before",
        ),
        pytest.param(
            _script("rm -rf .e2e && mkdir .e2e"), ["t.sh:3:core.filesystem:rm-rf"], id="before"
        ),
        pytest.param(
            _script("mkdir -p ~/.config/q", "rm -rf ~/.config/q"),
            ["t.sh:4:core.filesystem:rm-rf"],
            id="home",
        ),
        pytest.param(
            _script('mkdir -p "$HOME/q"', 'rm -rf "$HOME/q"'),
            ["t.sh:4:core.filesystem:rm-rf"],
            id="home-var",
        ),
        pytest.param(
            _script('mkdir -p "$XDG_CONFIG_HOME/q"', 'rm -rf "$XDG_CONFIG_HOME/q"'),
            ["t.sh:4:core.filesystem:rm-rf"],
            id="config-var",
        ),
        pytest.param(
            _script("mkdir -p src/gen", "rm -rf src"),
            ["t.sh:4:core.filesystem:rm-rf"],
            id="mkdir-p-parent",
        ),
        pytest.param(
            _script("mkdir x", "rm -rf x/../.."), ["t.sh:4:core.filesystem:rm-rf"], id="dotdot"
        ),
        pytest.param(
            _script('mkdir -p "$DIR"', 'rm -rf "$DIR"'),
            ["t.sh:4:core.filesystem:rm-rf"],
            id="unknown-var",
        ),
        pytest.param(
            _script("mkdir out", "rm -rf out *"),
            ["t.sh:4:core.filesystem:rm-rf"],  # `*`: the cwd's content (the project's)
            id="and-more",
        ),
        pytest.param(
            _script("mkdir /usr/local/x", "rm -rf /usr/local/x"),
            ["t.sh:4:core.filesystem:rm-rf-critical"],
            id="absolute",
        ),
        pytest.param(
            _script("mkdir -p .", "rm -rf ."),
            ["t.sh:4:core.filesystem:rm-rf"],
            id="dot",
        ),
        pytest.param(
            _script("mkdir keep", "git clean -fdx keep"),
            ["t.sh:4:core.git:clean-force"],
            id="not-a-deletion-by-path",
        ),
    ],
)
def test_cleanup_of_what_the_script_made(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    files: dict[str, str],
    expected: list[str],
) -> None:
    assert findings(tmp_path, monkeypatch, files) == expected


def test_make_and_npm_run_in_their_own_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A package's scripts are judged from the package's directory, not the root."""
    from dcg.commands import _scan_judge

    seen: list[tuple[str, str | None]] = []
    real = _scan_judge.judged

    def spy(text: str, cfg: object, cwd: str | None, shell: str = "bash") -> object:
        seen.append((text, cwd))
        return real(text, cfg, cwd, shell)  # type: ignore[arg-type]

    monkeypatch.setattr(_scan_judge, "judged", spy)
    files = {
        "packages/a/package.json": '{"scripts": {"x": "echo a"}}\n',
        "sub/Makefile": "x:\n\techo m\n",
        "ci/run.sh": "echo s\n",
    }
    findings(tmp_path, monkeypatch, files)
    assert sorted(seen) == [
        ("echo a", f"{CWD}/packages/a"),
        ("echo m", f"{CWD}/sub"),
        ("echo s", CWD),
    ]
