"""PHP code: exec and friends, backticks, unlink/rmdir, recursive iterator deletions."""

# ruff: noqa: E501  (each code sample stays on one line so it reads as written)

from __future__ import annotations

import pytest

from dcg.embedded import analyze

HITS = [
    pytest.param("<?php exec('git reset --hard');", [("php exec", "git reset --hard")], id="exec"),
    pytest.param(
        "shell_exec('rm -rf build');", [("php shell_exec", "rm -rf build")], id="shell_exec"
    ),
    pytest.param("system('rm -rf x', $rc);", [("php system", "rm -rf x")], id="system"),
    pytest.param(
        "passthru('git clean -fdx');", [("php passthru", "git clean -fdx")], id="passthru"
    ),
    pytest.param("$p = popen('rm -rf x', 'r');", [("php popen", "rm -rf x")], id="popen"),
    pytest.param(
        "proc_open(['rm', '-rf', 'x'], $spec, $pipes);",
        [("php proc_open", "rm -rf x")],
        id="proc_open-array",
    ),
    pytest.param(
        "pcntl_exec('/bin/rm', ['-rf', 'x']);",
        [("php pcntl_exec", "/bin/rm -rf x")],
        id="pcntl_exec",
    ),
    pytest.param("$out = `rm -rf x`;", [("php backticks", "rm -rf x")], id="backticks"),
    pytest.param(
        "$d = 'src';\nexec(\"rm -rf $d\");", [("php exec", "rm -rf src")], id="interpolation"
    ),
    pytest.param(
        "$d = 'src';\nexec(\"rm -rf {$d}/x\");",
        [("php exec", "rm -rf src/x")],
        id="brace-interpolation",
    ),
    pytest.param(
        "exec('rm -rf ' . escapeshellarg(getenv('HOME')));",
        [("php exec", 'rm -rf "$HOME"')],
        id="escapeshellarg-env",
    ),
    pytest.param(
        "exec(<<<EOT\nrm -rf build\nEOT\n);", [("php exec", "rm -rf build\n")], id="heredoc"
    ),
    pytest.param("eval('exec(\"rm -rf x\");');", [("php exec", "rm -rf x")], id="eval-string"),
    pytest.param("unlink('a.txt');", [("php unlink", "rm -f -- 'a.txt'")], id="unlink"),
    pytest.param(
        "rmdir($_SERVER['HOME']);", [("php rmdir", 'rmdir -- "$HOME"')], id="rmdir-server-home"
    ),
    pytest.param(
        "$dir = '/var/www';\n"
        "$it = new RecursiveIteratorIterator(new RecursiveDirectoryIterator($dir), RecursiveIteratorIterator::CHILD_FIRST);\n"
        "foreach ($it as $f) { $f->isDir() ? rmdir($f) : unlink($f); }\n",
        [
            ("php recursive delete", "rm -rf -- '/var/www'"),
            ("php rmdir", "rmdir -- '<dynamic>'"),
            ("php unlink", "rm -f -- '<dynamic>'"),
        ],
        id="recursive-iterator",
    ),
]

QUIET = [
    pytest.param("<?php echo 'rm -rf /';", id="echo"),
    pytest.param("// exec('rm -rf /');\n# system('x');\n/* passthru('y'); */", id="comments"),
    pytest.param("$cmd = 'git reset --hard'; print($cmd);", id="unexecuted"),
    pytest.param("$x->exec('rm -rf /'); $pdo->exec('DELETE FROM t');", id="method-exec"),
    pytest.param("$s = <<<'EOT'\nrm -rf /\nEOT;\necho $s;", id="nowdoc-printed"),
]


@pytest.mark.parametrize(("code", "expected"), HITS)
def test_finds(code: str, expected: list[tuple[str, str]]) -> None:
    assert analyze("php", code) == expected


@pytest.mark.parametrize("code", QUIET)
def test_quiet(code: str) -> None:
    assert analyze("php", code) == []
