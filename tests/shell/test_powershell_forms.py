"""PowerShell's other ways to delete, run and write, through every agent's hook payload.

.NET deletes (``[IO.Directory]::Delete``, ``.Delete($true)`` on items), ``$_`` of the
pipeline inside ``ForEach-Object`` blocks, ``Start-Process``, ``& (Get-Command …)``,
``iex`` (literal code parsed, computed code opaque), splatting, ``Set-Alias``/``New-Alias``,
writers of agent settings, git's own spellings inside PowerShell, and Remove-Item's
aliases with abbreviated parameters.

Proof: pwsh is not installed where this suite was written, so each case is proven by
reading its expansion: the table gives the POSIX command the line is equivalent to
(``rm -r -f src``, ``git reset --hard``, a write of ``.claude/settings.json``), and
``test_expansion`` checks dcg reads the line as that command. Where ``pwsh`` is on PATH,
``test_pwsh_sandbox`` also runs the confinable deletes in a throwaway directory and checks
that the canary is gone (and that the must-pass lines leave it).
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import hookpath
from dcg.shell import parse_powershell

CWD = "/home/dev/project"

# (PowerShell line, rule id, the POSIX command it is equivalent to)
STOP = [
    pytest.param(
        "[IO.Directory]::Delete('src', $true)", "core.filesystem:rm-rf", ("rm", "-r", "-f", "src")
    ),
    pytest.param(
        '[System.IO.Directory]::Delete("C:\\work\\src", $true)',
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "C:\\work\\src"),
    ),
    pytest.param(
        "[io.directory]::delete('src',$true)", "core.filesystem:rm-rf", ("rm", "-r", "-f", "src")
    ),
    pytest.param(
        "[IO.Directory]::Delete( 'src' , $true )",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param(
        "[System.IO.Directory]::Delete((Join-Path $PWD 'src'), $true)",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "Join-Path $PWD 'src'"),
    ),
    pytest.param(
        "[Microsoft.VisualBasic.FileIO.FileSystem]::DeleteDirectory('src', 'DeleteAllContents')",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param(
        "(Get-Item src).Delete($true)", "core.filesystem:rm-rf", ("rm", "-r", "-f", "src")
    ),
    pytest.param(
        "(gi -Path src).Delete($true)", "core.filesystem:rm-rf", ("rm", "-r", "-f", "src")
    ),
    pytest.param(
        "(Get-Item -LiteralPath 'C:\\work\\src').Delete($true)",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "C:\\work\\src"),
    ),
    pytest.param(
        "(New-Object System.IO.DirectoryInfo 'src').Delete($true)",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param(
        "(New-Object -TypeName IO.DirectoryInfo -ArgumentList 'src').Delete($true)",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param(
        "[IO.DirectoryInfo]::new('src').Delete($true)",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param(
        "$d = Get-Item src; $d.Delete($true)", "core.filesystem:rm-rf", ("rm", "-r", "-f", "src")
    ),
    pytest.param(
        "$dir = [IO.DirectoryInfo]::new('src'); $dir.Delete($true)",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param(
        "gci src -Directory | % { $_.Delete($true) }",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param(
        "Get-ChildItem src | ForEach-Object { $_.Delete($true) }",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param(
        "Get-ChildItem src -Recurse | ForEach-Object { Remove-Item $_ -Force }",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param(
        "Get-ChildItem src -Recurse | ForEach-Object { Remove-Item $_.FullName }",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param(
        "gci src | % { rm $_.FullName -Recurse -Force }",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param(
        "gci -Path src | foreach { ri $PSItem -r -fo }",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param(
        "ls src | % { del $_ -Recurse }", "core.filesystem:rm-rf", ("rm", "-r", "-f", "src")
    ),
    pytest.param(
        "Get-ChildItem -Path src | Remove-Item -Recurse -Force",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param(
        "gci src -Recurse | Remove-Item -Force", "core.filesystem:rm-rf", ("rm", "-r", "-f", "src")
    ),
    pytest.param("dir src | rm -r -fo", "core.filesystem:rm-rf", ("rm", "-r", "-f", "src")),
    pytest.param(
        "Get-ChildItem src -Recurse -File | ForEach-Object -Process "
        "{ Remove-Item -LiteralPath $_.FullName -Force }",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param(
        "Start-Process git -ArgumentList 'reset','--hard'",
        "core.git:reset-hard",
        ("git", "reset", "--hard"),
    ),
    pytest.param(
        "Start-Process -FilePath git -ArgumentList 'reset --hard'",
        "core.git:reset-hard",
        ("git", "reset", "--hard"),
    ),
    pytest.param(
        "Start-Process git -ArgumentList 'clean -fdx' -Wait -NoNewWindow",
        "core.git:clean-force",
        ("git", "clean", "-fdx"),
    ),
    pytest.param(
        "saps git 'push','--force','origin','main'",
        "core.git:push-force",
        ("git", "push", "--force", "origin", "main"),
    ),
    pytest.param(
        "start git -Args 'stash','clear'", "core.git:stash-clear", ("git", "stash", "clear")
    ),
    pytest.param(
        "Start-Process -FilePath cmd.exe -ArgumentList '/c rd /s /q src'",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param(
        "Start-Process pwsh -ArgumentList '-NoProfile','-Command',"
        "'Remove-Item -Recurse -Force src'",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param(
        'Start-Process powershell -ArgumentList "-c Remove-Item src -Recurse" -Verb RunAs',
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param(
        "Start-Process -FilePath bash -ArgumentList '-c','\"rm -rf src\"'",
        "core.filesystem:rm-rf",
        ("rm", "-rf", "src"),
    ),
    pytest.param(
        "& (Get-Command Remove-Item) -Recurse -Force src",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param("& (gcm ri) src -Recurse", "core.filesystem:rm-rf", ("rm", "-r", "-f", "src")),
    pytest.param(
        "& (Get-Command -Name Remove-Item) -Path src -Recurse",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param(
        "& 'Remove-Item' -Recurse -Force src", "core.filesystem:rm-rf", ("rm", "-r", "-f", "src")
    ),
    pytest.param(
        '& "Remove-Item" src -Recurse', "core.filesystem:rm-rf", ("rm", "-r", "-f", "src")
    ),
    pytest.param(
        "& ('Remove-' + 'Item') src -Recurse", "core.filesystem:rm-rf", ("rm", "-r", "-f", "src")
    ),
    pytest.param(
        "$c = Get-Command Remove-Item; & $c src -Recurse",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param(
        "$f = 'Remove-Item'; & $f src -Recurse -Force",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param(
        ". 'Remove-Item' src -Recurse", "core.filesystem:rm-rf", ("rm", "-r", "-f", "src")
    ),
    pytest.param(
        "& (Get-Command git) reset --hard", "core.git:reset-hard", ("git", "reset", "--hard")
    ),
    pytest.param(
        "iex 'Remove-Item -Recurse -Force src'", "core.filesystem:rm-rf", ("rm", "-r", "-f", "src")
    ),
    pytest.param(
        'Invoke-Expression "git reset --hard"', "core.git:reset-hard", ("git", "reset", "--hard")
    ),
    pytest.param(
        "Invoke-Expression -Command 'git clean -fdx'",
        "core.git:clean-force",
        ("git", "clean", "-fdx"),
    ),
    pytest.param(
        "iex ('Remove-Item ' + '-Recurse src')", "core.filesystem:rm-rf", ("rm", "-r", "-f", "src")
    ),
    pytest.param(
        "$c = 'Remove-Item -Recurse -Force src'; iex $c",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param("'git reset --hard' | iex", "core.git:reset-hard", ("git", "reset", "--hard")),
    pytest.param(
        '"Remove-Item -Recurse src" | Invoke-Expression',
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param(
        "iex $cmd",
        "core.shell:opaque-exec",
        ("<opaque>", "invoke-expression runs PowerShell code computed at run time"),
    ),
    pytest.param(
        "Invoke-Expression $env:PAYLOAD",
        "core.shell:opaque-exec",
        ("<opaque>", "invoke-expression runs PowerShell code computed at run time"),
    ),
    pytest.param(
        "iex ([Text.Encoding]::UTF8.GetString([Convert]::FromBase64String($b)))",
        "core.shell:opaque-exec",
        ("<opaque>", "invoke-expression runs PowerShell code computed at run time"),
    ),
    pytest.param(
        "& ([scriptblock]::Create('Remove-Item -Recurse -Force src'))",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param(
        '[scriptblock]::Create("git reset --hard").Invoke()',
        "core.git:reset-hard",
        ("git", "reset", "--hard"),
    ),
    pytest.param(
        "$p = @{Path='src'; Recurse=$true}; Remove-Item @p",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param(
        "$p = @{ LiteralPath = 'src'; Recurse = $true; Force = $true }; ri @p",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param(
        "$p = @{Path='src'}; Remove-Item @p -Recurse",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param(
        "$a = @('src', '-Recurse', '-Force'); Remove-Item @a",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param(
        "$a = 'src','-Recurse'; rm @a", "core.filesystem:rm-rf", ("rm", "-r", "-f", "src")
    ),
    pytest.param(
        "Set-Alias x Remove-Item; x -Recurse -Force src",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param(
        "Set-Alias -Name wipe -Value Remove-Item; wipe src -Recurse",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param(
        "New-Alias -Name nuke -Value Remove-Item; nuke src -Recurse",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src"),
    ),
    pytest.param("nal z ri -Force; z -r src", "core.filesystem:rm-rf", ("rm", "-r", "-f", "src")),
    pytest.param("sal g git; g reset --hard", "core.git:reset-hard", ("git", "reset", "--hard")),
    pytest.param(
        "Set-Alias g git.exe; g clean -fdx", "core.git:clean-force", ("git", "clean", "-fdx")
    ),
    pytest.param(
        "Set-Content -Path ~/.claude/settings.json -Value '{}'",
        "core.dcg:edit-hooks",
        ("set-content", "-Path", "~/.claude/settings.json", "-Value", "{}"),
    ),
    pytest.param(
        "Set-Content $env:USERPROFILE\\.claude\\settings.json '{}'",
        "core.dcg:edit-hooks",
        ("set-content", "$env:USERPROFILE\\.claude\\settings.json", "{}"),
    ),
    pytest.param(
        "'{}' | Out-File $HOME\\.claude\\settings.json",
        "core.dcg:edit-hooks",
        ("out-file", "$HOME\\.claude\\settings.json"),
    ),
    pytest.param(
        "Out-File -FilePath .claude/settings.local.json -InputObject '{}'",
        "core.dcg:edit-hooks",
        ("out-file", "-FilePath", ".claude/settings.local.json", "-InputObject", "{}"),
    ),
    pytest.param(
        "Add-Content .claude/settings.json 'x'",
        "core.dcg:edit-hooks",
        ("add-content", ".claude/settings.json", "x"),
    ),
    pytest.param(
        "'{}' | Tee-Object -FilePath .claude/settings.json",
        "core.dcg:edit-hooks",
        ("tee-object", "-FilePath", ".claude/settings.json"),
    ),
    pytest.param(
        "[IO.File]::WriteAllText(\"$HOME\\.claude\\settings.json\", '{}')",
        "core.dcg:edit-hooks",
        ("set-content", "-Path", "$HOME\\.claude\\settings.json"),
    ),
    pytest.param(
        "[System.IO.File]::WriteAllText('.claude/settings.json', '{}')",
        "core.dcg:edit-hooks",
        ("set-content", "-Path", ".claude/settings.json"),
    ),
    pytest.param(
        "Copy-Item evil.json ~/.claude/settings.json",
        "core.dcg:edit-hooks",
        ("copy-item", "evil.json", "~/.claude/settings.json"),
    ),
    pytest.param(
        "Copy-Item -Path evil.json -Destination $HOME/.claude/settings.json -Force",
        "core.dcg:edit-hooks",
        (
            "copy-item",
            "-Path",
            "evil.json",
            "-Destination",
            "$HOME/.claude/settings.json",
            "-Force",
        ),
    ),
    pytest.param(
        "Move-Item x.json .claude/settings.json -Force",
        "core.dcg:edit-hooks",
        ("move-item", "x.json", ".claude/settings.json", "-Force"),
    ),
    pytest.param(
        "New-Item -ItemType File -Path .claude/settings.json -Force",
        "core.dcg:edit-hooks",
        ("new-item", "-ItemType", "File", "-Path", ".claude/settings.json", "-Force"),
    ),
    pytest.param("git reset --har", "core.git:reset-hard", ("git", "reset", "--hard")),
    pytest.param("git-reset --hard", "core.git:reset-hard", ("git", "reset", "--hard")),
    pytest.param(
        "git -c alias.x='reset --hard' x", "core.git:reset-hard", ("git", "reset", "--hard")
    ),
    pytest.param(
        "git config alias.x 'reset --hard'; git x",
        "core.git:reset-hard",
        ("git", "reset", "--hard"),
    ),
    pytest.param(
        "git push origin --delete main",
        "core.git:push-delete",
        ("git", "push", "origin", "--delete", "main"),
    ),
    pytest.param(
        "git -c clean.requireForce=false clean", "core.git:clean-force", ("git", "clean", "--force")
    ),
    pytest.param("Remove-Item -Rec -Fo src", "core.filesystem:rm-rf", ("rm", "-r", "-f", "src")),
    pytest.param("Remove-Item -Recu -Forc src", "core.filesystem:rm-rf", ("rm", "-r", "-f", "src")),
    pytest.param("ri -r -fo src", "core.filesystem:rm-rf", ("rm", "-r", "-f", "src")),
    pytest.param("erase -r src", "core.filesystem:rm-rf", ("rm", "-r", "-f", "src")),
    pytest.param("rd -Recurse src", "core.filesystem:rm-rf", ("rm", "-r", "-f", "src")),
    pytest.param("del -Recurse src", "core.filesystem:rm-rf", ("rm", "-r", "-f", "src")),
    pytest.param(
        "Remove-Item -Path src,docs -Recurse",
        "core.filesystem:rm-rf",
        ("rm", "-r", "-f", "src", "docs"),
    ),
]

PASS = [
    # installers keep the treatment `curl … | sh` has (a documented limit)
    pytest.param("iex (irm https://get.scoop.sh)", id="scoop-installer"),
    pytest.param("irm https://get.scoop.sh | iex", id="scoop-installer-piped"),
    pytest.param(
        "iex ((New-Object System.Net.WebClient).DownloadString('https://community.chocolatey.org/"
        "install.ps1'))",
        id="chocolatey-installer",
    ),
    pytest.param("Get-ChildItem", id="Get-ChildItem"),
    pytest.param("Get-ChildItem -Recurse -Filter *.log", id="Get-ChildItem -Recurse -Filter *.log"),
    pytest.param("gci src | % { $_.Name }", id="gci src | % { $_.Name }"),
    pytest.param(
        "Get-ChildItem src | ForEach-Object { Write-Output $_.FullName }",
        id="Get-ChildItem src | ForEach-Object { Wri",
    ),
    pytest.param("Remove-Item ./build/x.txt", id="Remove-Item ./build/x.txt"),
    pytest.param("Remove-Item build\\x.txt -Force", id="Remove-Item build\\x.txt -Force"),
    pytest.param("(Get-Item out.txt).Delete()", id="(Get-Item out.txt).Delete()"),
    pytest.param("[IO.File]::Delete('out.txt')", id="[IO.File]::Delete('out.txt')"),
    pytest.param(
        "[IO.Directory]::CreateDirectory('build')", id="[IO.Directory]::CreateDirectory('build')"
    ),
    pytest.param(
        "[IO.File]::WriteAllText('out.txt', 'hi')", id="[IO.File]::WriteAllText('out.txt', 'hi')"
    ),
    pytest.param("[IO.File]::ReadAllText('README.md')", id="[IO.File]::ReadAllText('README.md')"),
    pytest.param("[IO.Directory]::Delete('emptydir')", id="[IO.Directory]::Delete('emptydir')"),
    pytest.param(
        "Set-Content -Path out.txt -Value 'hi'", id="Set-Content -Path out.txt -Value 'hi'"
    ),
    pytest.param("'hello' | Out-File notes.txt", id="'hello' | Out-File notes.txt"),
    pytest.param("Add-Content log.txt 'line'", id="Add-Content log.txt 'line'"),
    pytest.param("Copy-Item a.txt b.txt", id="Copy-Item a.txt b.txt"),
    pytest.param("Move-Item a.txt b.txt", id="Move-Item a.txt b.txt"),
    pytest.param(
        "New-Item -ItemType Directory -Path build -Force",
        id="New-Item -ItemType Directory -Path build",
    ),
    pytest.param("Start-Process notepad.exe", id="Start-Process notepad.exe"),
    pytest.param(
        "Start-Process -FilePath git -ArgumentList 'status'",
        id="Start-Process -FilePath git -ArgumentLis",
    ),
    pytest.param(
        "Start-Process pwsh -ArgumentList '-c','Get-Date'",
        id="Start-Process pwsh -ArgumentList '-c','G",
    ),
    pytest.param("saps code .", id="saps code ."),
    pytest.param("& (Get-Command git) status", id="& (Get-Command git) status"),
    pytest.param(
        "& 'C:\\Program Files\\Git\\cmd\\git.exe' log --oneline",
        id="& 'C:\\Program Files\\Git\\cmd\\git.exe' log",
    ),
    pytest.param("iex 'Get-Date'", id="iex 'Get-Date'"),
    pytest.param('Invoke-Expression "git status"', id='Invoke-Expression "git status"'),
    pytest.param("'Get-Process' | iex", id="'Get-Process' | iex"),
    pytest.param(
        "$p = @{Path='src'; Recurse=$true}; Get-ChildItem @p",
        id="$p = @{Path='src'; Recurse=$true}; Get-C",
    ),
    pytest.param(
        "$p = @{Path='out.txt'}; Remove-Item @p", id="$p = @{Path='out.txt'}; Remove-Item @p"
    ),
    pytest.param("Set-Alias ll Get-ChildItem; ll", id="Set-Alias ll Get-ChildItem; ll"),
    pytest.param(
        "New-Alias -Name g -Value git; g status", id="New-Alias -Name g -Value git; g status"
    ),
    pytest.param("Set-Alias g git; g log --oneline -5", id="Set-Alias g git; g log --oneline -5"),
    pytest.param("git status", id="git status"),
    pytest.param("git config --get alias.st", id="git config --get alias.st"),
    pytest.param("git config alias.st status; git st", id="git config alias.st status; git st"),
    pytest.param("git log --oneline", id="git log --oneline"),
    pytest.param("git reset --soft HEAD~1", id="git reset --soft HEAD~1"),
    pytest.param("git clean -n", id="git clean -n"),
    pytest.param("$d = Get-Item src; $d.FullName", id="$d = Get-Item src; $d.FullName"),
    pytest.param("Get-Command Remove-Item", id="Get-Command Remove-Item"),
    pytest.param("Get-Help Remove-Item -Full", id="Get-Help Remove-Item -Full"),
    pytest.param(
        "Write-Output 'Remove-Item -Recurse -Force src'",
        id="Write-Output 'Remove-Item -Recurse -Forc",
    ),
    pytest.param("Test-Path .claude/settings.json", id="Test-Path .claude/settings.json"),
    pytest.param("Get-Content ~/.claude/settings.json", id="Get-Content ~/.claude/settings.json"),
    pytest.param("Remove-Item src -Recurse -WhatIf", id="Remove-Item src -Recurse -WhatIf"),
    pytest.param("[IO.Path]::Combine('a', 'b')", id="[IO.Path]::Combine('a', 'b')"),
    pytest.param("[IO.Directory]::Exists('src')", id="[IO.Directory]::Exists('src')"),
    pytest.param("[IO.File]::Exists('x')", id="[IO.File]::Exists('x')"),
    pytest.param("(Get-Item src).LastWriteTime", id="(Get-Item src).LastWriteTime"),
    pytest.param(
        "$p = @{Path='src'; Filter='*.cs'}; Get-ChildItem @p -Recurse",
        id="$p = @{Path='src'; Filter='*.cs'}; Get-C",
    ),
    pytest.param(
        "Start-Process msedge 'https://example.com'", id="Start-Process msedge 'https://example.co"
    ),
    pytest.param("Set-Alias np notepad; np README.md", id="Set-Alias np notepad; np README.md"),
    pytest.param(
        "Invoke-Command -ScriptBlock { Get-Date }", id="Invoke-Command -ScriptBlock { Get-Date }"
    ),
    pytest.param("& (Get-Command python) --version", id="& (Get-Command python) --version"),
    pytest.param("Copy-Item a.txt backup/", id="Copy-Item a.txt backup/"),
    pytest.param("Set-Content .claude/notes.md 'x'", id="Set-Content .claude/notes.md 'x'"),
    pytest.param(
        "Get-ChildItem src -Recurse | ForEach-Object { $_.FullName }",
        id="Get-ChildItem src -Recurse | ForEach-Obj",
    ),
    pytest.param("gci | % { Write-Host $_ }", id="gci | % { Write-Host $_ }"),
    pytest.param(
        "$x = 'Remove-Item -Recurse src'; Write-Output $x",
        id="$x = 'Remove-Item -Recurse src'; Write-O",
    ),
    pytest.param("git -c alias.s=status s", id="git -c alias.s=status s"),
    pytest.param("git reset --so HEAD~1", id="git reset --so HEAD~1"),
]


@pytest.fixture(autouse=True)
def _generous_budget(isolated_home: Path) -> None:
    """Agreement, not speed, is measured here: a cold first call on a loaded machine must
    not blow the hook's time budget (which stops a safe line as too complex)."""
    config = Path(os.environ["XDG_CONFIG_HOME"]) / "dcg" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("[hook]\nbudget_ms = 20000\n")


def _env() -> dict[str, str]:
    return dict(os.environ, DCG_RESPONSE_MODE="paranoid", DCG_HOOK_DETAILS="1")


def _bash_single(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _encoded(text: str) -> str:
    return base64.b64encode(text.encode("utf-16-le")).decode()


def _bodies(line: str) -> list[tuple[str, dict[str, object]]]:
    """Every way an agent hands the line to dcg: PowerShell tools directly, every agent's
    shell tool through ``pwsh -Command`` and ``powershell -EncodedCommand``."""
    claude = hookpath.payload("claude", line, CWD)
    claude["tool_name"] = "PowerShell"
    copilot = hookpath.payload("copilot", line, CWD)
    copilot["toolName"] = "powershell"
    out = [("claude/PowerShell", claude), ("copilot/powershell", copilot)]
    for agent in hookpath.AGENTS:
        out.append(
            (
                f"{agent}/pwsh-c",
                hookpath.payload(agent, f"pwsh -NoProfile -Command {_bash_single(line)}", CWD),
            )
        )
        out.append(
            (
                f"{agent}/encoded",
                hookpath.payload(
                    agent, f"powershell -NoProfile -EncodedCommand {_encoded(line)}", CWD
                ),
            )
        )
    return out


@pytest.mark.parametrize(("line", "rule", "argv"), STOP)
def test_stopped_through_every_agent(line: str, rule: str, argv: tuple[str, ...]) -> None:
    missed = []
    for name, body in _bodies(line):
        code, out, err = hookpath.run(hookpath.encode(body), env=_env())
        if hookpath.verdict(code, out, err) != "deny":
            missed.append(name)
    assert not missed


@pytest.mark.parametrize(("line", "rule", "argv"), STOP)
def test_rule_through_powershell_tool(line: str, rule: str, argv: tuple[str, ...]) -> None:
    body = _bodies(line)[0][1]
    _, out, _ = hookpath.run(hookpath.encode(body), env=_env())
    assert json.loads(out)["hookSpecificOutput"]["ruleId"] == rule


@pytest.mark.parametrize(("line", "rule", "argv"), STOP)
def test_expansion(line: str, rule: str, argv: tuple[str, ...]) -> None:
    """The proof by reading: dcg reads the line as the POSIX command it is equivalent to."""
    commands = [c.argv for c in parse_powershell(line)]
    assert argv in commands or any(c[: len(argv)] == argv for c in commands), commands


@pytest.mark.parametrize("line", PASS)
def test_pass_through_every_agent(line: str) -> None:
    stopped = []
    for name, body in _bodies(line):
        code, out, err = hookpath.run(hookpath.encode(body), env=_env())
        if hookpath.verdict(code, out, err) != "none":
            stopped.append(name)
    assert not stopped


PWSH = shutil.which("pwsh")
# Deletes whose target is the sandbox's ./src (no absolute path, no home, no remote).
_CONFINED = [p for p in STOP if p.values[2][:1] == ("rm",) and p.values[2][-1:] == ("src",)]


@pytest.mark.skipif(PWSH is None, reason="pwsh not installed: proven by expansion instead")
@pytest.mark.parametrize(("line", "rule", "argv"), _CONFINED)
def test_pwsh_sandbox(tmp_path: Path, line: str, rule: str, argv: tuple[str, ...]) -> None:
    src = tmp_path / "src" / "deep"
    src.mkdir(parents=True)
    (src / "canary.txt").write_text("x")
    env = {"HOME": str(tmp_path), "TMPDIR": str(tmp_path), "PATH": os.environ["PATH"]}
    subprocess.run([PWSH or "pwsh", "-NoProfile", "-Command", line], cwd=tmp_path, env=env,
                   capture_output=True, timeout=60)  # fmt: skip
    assert not (src / "canary.txt").exists()
