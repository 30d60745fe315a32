"""PowerShell lines: which commands run, and destructive forms mapped to their POSIX argv."""

from __future__ import annotations

import base64
import time

import pytest

from dcg.shell import TooComplex, parse_powershell

# Lines whose destructive command must reach the core rules in POSIX form.
STOPPED = [
    pytest.param("Remove-Item -Recurse -Force C:\\src", ("rm", "-r", "-f", "C:\\src"), id="full"),
    pytest.param("remove-item -recurse -force C:\\src", ("rm", "-r", "-f", "C:\\src"), id="lower"),
    pytest.param("REMOVE-ITEM -RECURSE C:\\src", ("rm", "-r", "-f", "C:\\src"), id="upper"),
    pytest.param("rm -r -fo $HOME\\src", ("rm", "-r", "-f", "$HOME\\src"), id="rm-alias"),
    pytest.param("del -rec -fo ~\\src", ("rm", "-r", "-f", "~\\src"), id="del-alias"),
    pytest.param("erase -Recurse x", ("rm", "-r", "-f", "x"), id="erase-alias"),
    pytest.param("rd -Recurse x", ("rm", "-r", "-f", "x"), id="rd-alias"),
    pytest.param("rmdir -recur x", ("rm", "-r", "-f", "x"), id="rmdir-alias"),
    pytest.param("ri -r -fo x", ("rm", "-r", "-f", "x"), id="ri-alias"),
    pytest.param(
        "Remove-Item -Path $env:USERPROFILE -Recurse",
        ("rm", "-r", "-f", "$env:USERPROFILE"),
        id="path-parameter-env",
    ),
    pytest.param("Remove-Item -Path:C:\\ -Recurse", ("rm", "-r", "-f", "C:\\"), id="path-colon"),
    pytest.param(
        "Remove-Item -LiteralPath 'C:\\My Docs' -Recurse -Force",
        ("rm", "-r", "-f", "C:\\My Docs"),
        id="literal-path-quoted",
    ),
    pytest.param("Remove-Item -lp x -r", ("rm", "-r", "-f", "x"), id="lp-alias"),
    pytest.param("Remove-Item a,b -Recurse", ("rm", "-r", "-f", "a", "b"), id="array"),
    pytest.param(
        "Remove-Item 'a', \"b\" -Recurse", ("rm", "-r", "-f", "a", "b"), id="array-spaced"
    ),
    pytest.param("Remove-Item -Recurse:$true x", ("rm", "-r", "-f", "x"), id="switch-true"),
    pytest.param("Remove-Item -Force x", ("rm", "-f", "x"), id="force-only"),
    pytest.param(
        "Microsoft.PowerShell.Management\\Remove-Item -Recurse x",
        ("rm", "-r", "-f", "x"),
        id="module-qualified",
    ),
    pytest.param(
        "Get-ChildItem C:\\work -Recurse | Remove-Item -Force",
        ("rm", "-r", "-f", "C:\\work"),
        id="pipeline-from-gci",
    ),
    pytest.param("gci | ri -Recurse", ("rm", "-r", "-f", "."), id="pipeline-cwd"),
    pytest.param("rm -rf /", ("rm", "-rf", "/"), id="native-rm-flags"),
    pytest.param("git reset --hard", ("git", "reset", "--hard"), id="git"),
    pytest.param("GIT reset --hard", ("git", "reset", "--hard"), id="git-upper"),
    pytest.param("git.exe clean -fdx", ("git", "clean", "-fdx"), id="git-exe"),
    pytest.param(
        "& 'C:\\Program Files\\Git\\cmd\\git.exe' push --force",
        ("git", "push", "--force"),
        id="call-operator",
    ),
    pytest.param("cd repo; git reset --hard", ("git", "reset", "--hard"), id="after-semicolon"),
    pytest.param("cd repo\ngit reset --hard", ("git", "reset", "--hard"), id="after-newline"),
    pytest.param("git fetch && git reset --hard", ("git", "reset", "--hard"), id="after-and"),
    pytest.param("git pull || git reset --hard", ("git", "reset", "--hard"), id="after-or"),
    pytest.param("ls | % { git clean -fdx }", ("git", "clean", "-fdx"), id="script-block"),
    pytest.param("$out = $(git reset --hard)", ("git", "reset", "--hard"), id="subexpression"),
    pytest.param("$x = git reset --hard", ("git", "reset", "--hard"), id="assignment"),
    pytest.param('echo "now: $(git clean -fdx)"', ("git", "clean", "-fdx"), id="in-string"),
    pytest.param("if (Test-Path x) { rm -r -fo x }", ("rm", "-r", "-f", "x"), id="if-block"),
    pytest.param("git `\n  reset --hard", ("git", "reset", "--hard"), id="continuation"),
    pytest.param("git re`set --hard", ("git", "reset", "--hard"), id="backtick-escape"),
    pytest.param("git 'reset' \"--hard\"", ("git", "reset", "--hard"), id="quoted-args"),
    pytest.param('cmd /c "rd /s /q C:\\build"', ("rm", "-r", "-f", "C:\\build"), id="cmd-rd"),
    pytest.param("cmd /C del /s /q *.log", ("rm", "-r", "-f", "*.log"), id="cmd-del"),
    pytest.param('cmd /c "cd x && git reset --hard"', ("git", "reset", "--hard"), id="cmd-chain"),
    pytest.param(
        'powershell -NoProfile -Command "Remove-Item -Recurse -Force C:\\x"',
        ("rm", "-r", "-f", "C:\\x"),
        id="powershell-command",
    ),
    pytest.param("pwsh -c 'git reset --hard'", ("git", "reset", "--hard"), id="pwsh-c"),
    pytest.param(
        "pwsh -ExecutionPolicy Bypass -Command git reset --hard",
        ("git", "reset", "--hard"),
        id="pwsh-options",
    ),
    pytest.param(
        "pwsh -EncodedCommand " + base64.b64encode("git reset --hard".encode("utf-16-le")).decode(),
        ("git", "reset", "--hard"),
        id="pwsh-encoded",
    ),
    pytest.param('Invoke-Expression "git clean -fdx"', ("git", "clean", "-fdx"), id="iex"),
    pytest.param("iex 'rm -r -fo x'", ("rm", "-r", "-f", "x"), id="iex-alias"),
    pytest.param('bash -c "rm -rf ~"', ("rm", "-rf", "~"), id="bash-c"),
    pytest.param("wsl rm -rf /home/ana", ("rm", "-rf", "/home/ana"), id="wsl"),
    pytest.param(
        "Format-Volume -DriveLetter D", ("format-volume", "-DriveLetter", "D"), id="format-volume"
    ),
    pytest.param("Clear-Disk -Number 1", ("clear-disk", "-Number", "1"), id="clear-disk"),
    pytest.param(
        "Remove-Partition -DiskNumber 1", ("remove-partition", "-DiskNumber", "1"), id="partition"
    ),
    pytest.param("clc notes.txt", ("clear-content", "notes.txt"), id="clear-content-alias"),
]


@pytest.mark.parametrize(("line", "argv"), STOPPED)
def test_destructive_form_reaches_rules(line: str, argv: tuple[str, ...]) -> None:
    assert argv in [c.argv for c in parse_powershell(line)]


# Lines that must not produce a destructive argv.
PASSING = [
    pytest.param("Remove-Item x", ("rm", "x"), id="no-recurse"),
    pytest.param("Remove-Item -Recurse:$false x", ("rm", "x"), id="recurse-false"),
    pytest.param("rm -f x", None, id="ambiguous-f-is-not-force"),
    pytest.param("Remove-Item -Recurse x -WhatIf", None, id="whatif"),
    pytest.param("Write-Host 'rm -r -fo C:\\'", None, id="printed"),
    pytest.param('echo "git reset --hard"', None, id="echo"),
    pytest.param("# git reset --hard", None, id="comment"),
    pytest.param("<# Remove-Item -Recurse C:\\ #> Get-Date", None, id="block-comment"),
    pytest.param("git status; git log -1", None, id="safe-git"),
    pytest.param("Get-ChildItem -Recurse", None, id="list"),
    pytest.param("'git reset --hard'", None, id="string-literal"),
    pytest.param('cmd /c "rd C:\\empty"', None, id="cmd-rd-no-s"),
]


@pytest.mark.parametrize(("line", "expected"), PASSING)
def test_safe_forms_stay_safe(line: str, expected: tuple[str, ...] | None) -> None:
    argvs = [c.argv for c in parse_powershell(line)]
    for argv in argvs:
        assert not (argv[:1] == ("rm",) and "-r" in argv)
        assert argv[:3] != ("git", "reset", "--hard")
        assert argv[:2] != ("git", "clean")
    if expected is not None:
        assert expected in argvs


def test_printed_text_is_data_not_words() -> None:
    [command] = parse_powershell('Write-Output "rm -rf /"')
    assert command.words == ("write-output",)
    assert command.data == (("rm -rf /", "printed"),)


def test_provenance_records_the_wrapper() -> None:
    [command] = parse_powershell("cmd /c \"pwsh -c 'git reset --hard'\"")
    assert command.argv == ("git", "reset", "--hard")
    assert command.via == ("powershell", "cmd /c", "pwsh -Command")


def test_subexpression_provenance() -> None:
    [inner, outer] = parse_powershell("echo $(git reset --hard)")
    assert inner.via == ("powershell", "$(…)")
    assert outer.argv[0] == "echo"


def test_redirections_are_recorded() -> None:
    [command] = parse_powershell("Get-Content a > C:\\out.txt")
    assert command.redirects == ((">", "C:\\out.txt"),)


def test_dynamic_command_word() -> None:
    [command] = parse_powershell("& $tool reset --hard")
    assert command.dynamic is False
    assert command.argv == ("$tool", "reset", "--hard")
    [computed] = [c for c in parse_powershell("& (Get-Tool) --hard") if c.argv[-1] == "--hard"]
    assert computed.dynamic is True


def test_deep_nesting_is_too_complex() -> None:
    with pytest.raises(TooComplex):
        parse_powershell("$(" * 200 + "git reset --hard" + ")" * 200)


def test_deadline_is_enforced() -> None:
    with pytest.raises(TooComplex):
        parse_powershell("git status; " * 1000, deadline=time.thread_time() - 1)


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("'unterminated", id="open-single"),
        pytest.param('"unterminated $(', id="open-subexpression"),
        pytest.param("{ { {", id="open-blocks"),
        pytest.param(")))}}}", id="stray-closers"),
        pytest.param("`", id="lone-backtick"),
        pytest.param("<# never closed", id="open-comment"),
        pytest.param("", id="empty"),
    ],
)
def test_malformed_input_does_not_crash(line: str) -> None:
    assert isinstance(parse_powershell(line), list)
