"""Perl code: system/exec, backticks and qx, piped open, unlink/rmdir, File::Path."""

# ruff: noqa: E501  (each code sample stays on one line so it reads as written)

from __future__ import annotations

import pytest

from dcg.embedded import analyze

HITS = [
    # --- process execution ---
    pytest.param("system('git reset --hard');", [("perl system", "git reset --hard")], id="system"),
    pytest.param('system "rm -rf build";', [("perl system", "rm -rf build")], id="system-bare"),
    pytest.param(
        "system('rm', '-rf', 'x') == 0 or die;", [("perl system", "rm -rf x")], id="system-list"
    ),
    pytest.param(
        "my @cmd = ('rm', '-rf', 'x');\nsystem(@cmd);",
        [("perl system", "rm -rf x")],
        id="system-array",
    ),
    pytest.param("exec 'git', 'clean', '-fdx';", [("perl exec", "git clean -fdx")], id="exec-list"),
    pytest.param(
        "my $out = `git reset --hard`;", [("perl backticks", "git reset --hard")], id="backticks"
    ),
    pytest.param("my $out = qx{rm -rf x};", [("perl qx", "rm -rf x")], id="qx"),
    pytest.param(
        "my $d = 'src'; system(\"rm -rf $d\");", [("perl system", "rm -rf src")], id="interpolation"
    ),
    pytest.param(
        'system("rm -rf $ENV{HOME}/x");',
        [("perl system", "rm -rf ${HOME}/x")],
        id="interpolated-env",
    ),
    pytest.param(
        "system('rm -rf ' . $ARGV[0]);", [("perl system", "rm -rf '<dynamic>'")], id="dynamic-part"
    ),
    pytest.param(
        "open(my $fh, '-|', 'git push --force');",
        [("perl open", "git push --force")],
        id="open-3-arg",
    ),
    pytest.param(
        "open(my $fh, '-|', 'rm', '-rf', 'x');", [("perl open", "rm -rf x")], id="open-list"
    ),
    pytest.param("open(FH, 'rm -rf x |');", [("perl open", "rm -rf x")], id="open-2-arg"),
    pytest.param('open(FH, "| sh");', [("perl open", "sh")], id="open-pipe-to"),
    pytest.param(
        'system(<<"EOF");\nrm -rf build\nEOF\n', [("perl system", "rm -rf build\n")], id="heredoc"
    ),
    pytest.param("system(qq{rm -rf $0});", [("perl system", "rm -rf '<dynamic>'")], id="qq"),
    pytest.param("system(qw(rm -rf x));", [("perl system", "rm -rf x")], id="qw"),
    pytest.param("eval \"system('rm -rf x')\";", [("perl system", "rm -rf x")], id="eval-string"),
    pytest.param("my $o = readpipe('rm -rf x');", [("perl readpipe", "rm -rf x")], id="readpipe"),
    # --- deletion ---
    pytest.param("unlink 'a', 'b';", [("perl unlink", "rm -f -- 'a' 'b'")], id="unlink-list"),
    pytest.param(
        "unlink($file) or warn;", [("perl unlink", "rm -f -- '<dynamic>'")], id="unlink-dynamic"
    ),
    pytest.param("rmdir 'd';", [("perl rmdir", "rmdir -- 'd'")], id="rmdir"),
    pytest.param(
        "use File::Path qw(rmtree remove_tree);\nrmtree('src');\nremove_tree('out', {verbose => 1});",
        [("perl rmtree", "rm -rf -- 'src'"), ("perl remove_tree", "rm -rf -- 'out'")],
        id="File::Path",
    ),
    pytest.param(
        "File::Path::rmtree($ENV{HOME});",
        [("perl File.Path.rmtree", 'rm -rf -- "$HOME"')],
        id="qualified-env",
    ),
    pytest.param(
        'my $d = "$ENV{HOME}/x"; rmtree($d);',
        [("perl rmtree", "rm -rf -- \"$HOME\"'/x'")],
        id="variable-env",
    ),
    pytest.param(
        "rmtree(File::Spec->catdir(getcwd(), 'x'));",
        [("perl rmtree", "rm -rf -- './x'")],
        id="catdir-cwd",
    ),
    pytest.param(
        "remove_tree(tempdir());",
        [("perl remove_tree", "rm -rf -- '/tmp/''<dynamic>'")],
        id="tempdir",
    ),
]

QUIET = [
    pytest.param('print "rm -rf /\\n";', id="print"),
    pytest.param("# system('rm -rf /');\nmy $x = 1;", id="comment"),
    pytest.param("=pod\n\nsystem('rm -rf /');\n\n=cut\nmy $x = 1;", id="pod"),
    pytest.param("my $cmd = 'git reset --hard'; print $cmd;", id="unexecuted"),
    pytest.param("$s =~ s/system('x')//g; $t =~ m{`rm -rf /`};", id="regex"),
    pytest.param("my %h = (system => 1); delete $h{system};", id="hash-key"),
    pytest.param("my @l = split /,/, 'a,b'; my $n = 10 / 2;", id="split-division"),
]


@pytest.mark.parametrize(("code", "expected"), HITS)
def test_finds(code: str, expected: list[tuple[str, str]]) -> None:
    assert analyze("perl", code) == expected


@pytest.mark.parametrize("code", QUIET)
def test_quiet(code: str) -> None:
    assert analyze("perl", code) == []
