"""Ruby code: Kernel#system and friends, backticks, %x, Open3, FileUtils, Pathname."""

from __future__ import annotations

import pytest

from dcg.embedded import analyze

HITS = [
    # --- process execution ---
    pytest.param(
        "system('git reset --hard')", [("ruby system", "git reset --hard")], id="system-parens"
    ),
    pytest.param("system 'rm -rf build'", [("ruby system", "rm -rf build")], id="system-bare"),
    pytest.param("system('rm', '-rf', 'x y')", [("ruby system", "rm -rf 'x y'")], id="system-argv"),
    pytest.param(
        "system({'A' => '1'}, 'rm -rf x')", [("ruby system", "rm -rf x")], id="system-env-hash"
    ),
    pytest.param('exec "git clean -fdx"', [("ruby exec", "git clean -fdx")], id="exec"),
    pytest.param("pid = spawn('rm -rf x')", [("ruby spawn", "rm -rf x")], id="spawn"),
    pytest.param(
        "Process.spawn('rm', '-rf', 'x')", [("ruby Process.spawn", "rm -rf x")], id="Process.spawn"
    ),
    pytest.param(
        "out = `git reset --hard`", [("ruby backticks", "git reset --hard")], id="backticks"
    ),
    pytest.param("out = %x(rm -rf tmp/cache)", [("ruby %x", "rm -rf tmp/cache")], id="percent-x"),
    pytest.param(
        "d = 'src'\nsystem(\"rm -rf #{d}\")", [("ruby system", "rm -rf src")], id="interpolation"
    ),
    pytest.param(
        "system(\"rm -rf #{ENV['HOME']}\")",
        [("ruby system", "rm -rf ${HOME}")],
        id="interpolated-env",
    ),
    pytest.param(
        "IO.popen(['rm', '-rf', 'x']).read", [("ruby IO.popen", "rm -rf x")], id="IO.popen"
    ),
    pytest.param(
        "require 'open3'\nOpen3.capture2('git push --force')",
        [("ruby Open3.capture2", "git push --force")],
        id="Open3.capture2",
    ),
    pytest.param(
        "Open3.popen3('rm', '-rf', 'x') { |i, o, e, t| }",
        [("ruby Open3.popen3", "rm -rf x")],
        id="Open3.popen3",
    ),
    pytest.param("open('|rm -rf x') { |f| f.read }", [("ruby open", "rm -rf x")], id="open-pipe"),
    pytest.param(
        "system(<<~EOS)\n  git reset --hard\nEOS\n",
        [("ruby system", "  git reset --hard\n")],
        id="heredoc",
    ),
    pytest.param(
        "out = <<~`CMD`\n  rm -rf x\nCMD\n",
        [("ruby backticks heredoc", "  rm -rf x\n")],
        id="command-heredoc",
    ),
    pytest.param("system %q(rm -rf x)", [("ruby system", "rm -rf x")], id="percent-q"),
    pytest.param("system(*%w[rm -rf x])", [("ruby system", "rm -rf x")], id="percent-w-splat"),
    pytest.param("eval(\"system('rm -rf x')\")", [("ruby system", "rm -rf x")], id="eval-string"),
    # --- deletion ---
    pytest.param(
        "require 'fileutils'\nFileUtils.rm_rf('src')",
        [("ruby FileUtils.rm_rf", "rm -rf -- 'src'")],
        id="rm_rf",
    ),
    pytest.param(
        "FileUtils.rm_rf 'src'", [("ruby FileUtils.rm_rf", "rm -rf -- 'src'")], id="rm_rf-bare"
    ),
    pytest.param(
        "FileUtils::rm_rf(%w[a b])",
        [("ruby FileUtils.rm_rf", "rm -rf -- 'a' 'b'")],
        id="rm_rf-list",
    ),
    pytest.param(
        "FileUtils.rm_r('d', force: true)", [("ruby FileUtils.rm_r", "rm -rf -- 'd'")], id="rm_r"
    ),
    pytest.param(
        "FileUtils.remove_dir('d')\nFileUtils.rmtree('e')",
        [
            ("ruby FileUtils.remove_dir", "rm -rf -- 'd'"),
            ("ruby FileUtils.rmtree", "rm -rf -- 'e'"),
        ],
        id="remove_dir-rmtree",
    ),
    pytest.param(
        "FileUtils.rm_f('a')\nFileUtils.rm('b')",
        [("ruby FileUtils.rm_f", "rm -f -- 'a'"), ("ruby FileUtils.rm", "rm -f -- 'b'")],
        id="rm_f-rm",
    ),
    pytest.param(
        "FileUtils.rmdir('d')", [("ruby FileUtils.rmdir", "rmdir -- 'd'")], id="FileUtils.rmdir"
    ),
    pytest.param(
        "include FileUtils\nrm_rf Dir.home",
        [("ruby FileUtils.rm_rf", 'rm -rf -- "$HOME"')],
        id="include-FileUtils",
    ),
    pytest.param(
        "File.delete('a.txt')\nFile.unlink('b')",
        [("ruby File.delete", "rm -f -- 'a.txt'"), ("ruby File.unlink", "rm -f -- 'b'")],
        id="File.delete",
    ),
    pytest.param("Dir.rmdir('d')", [("ruby Dir.rmdir", "rmdir -- 'd'")], id="Dir.rmdir"),
    pytest.param(
        "Pathname.new(ENV['HOME']).rmtree",
        [("ruby Pathname.rmtree", 'rm -rf -- "$HOME"')],
        id="Pathname.rmtree",
    ),
    pytest.param(
        "FileUtils.rm_rf(File.join(Dir.home, 'src'))",
        [("ruby FileUtils.rm_rf", "rm -rf -- \"$HOME\"'/src'")],
        id="File.join-home",
    ),
    pytest.param(
        "FileUtils.rm_rf(File.expand_path('~/x'))",
        [("ruby FileUtils.rm_rf", "rm -rf -- \"$HOME\"'/x'")],
        id="expand_path",
    ),
    pytest.param(
        "FileUtils.rm_rf(Dir.pwd)", [("ruby FileUtils.rm_rf", "rm -rf -- '.'")], id="Dir.pwd"
    ),
    pytest.param(
        "Dir.glob('*').each { |f| FileUtils.rm_rf(f) }",
        [("ruby FileUtils.rm_rf", "rm -rf -- '<dynamic>'")],
        id="dynamic",
    ),
    pytest.param(
        "Find.find('/data') { |f| File.delete(f) }",
        [
            ("ruby recursive delete", "rm -rf -- '/data'"),
            ("ruby File.delete", "rm -f -- '<dynamic>'"),
        ],
        id="Find.find",
    ),
]

QUIET = [
    pytest.param("puts 'rm -rf /'", id="puts"),
    pytest.param("# system('rm -rf /')\nx = 1", id="comment"),
    pytest.param("=begin\nsystem('rm -rf /')\n=end\n", id="begin-end"),
    pytest.param("cmd = 'git reset --hard'\nputs cmd", id="unexecuted"),
    pytest.param("h = {system: 'rm -rf /'}\nh.delete(:system)", id="hash-delete"),
    pytest.param("FileUtils::DryRun.rm_rf('/')", id="dry-run"),
    pytest.param("x = a % 3\ny = b / 2 / 4 # `rm`", id="operators"),
    pytest.param("s = 'x' << 'rm -rf /'", id="append-not-heredoc"),
]


@pytest.mark.parametrize(("code", "expected"), HITS)
def test_finds(code: str, expected: list[tuple[str, str]]) -> None:
    assert analyze("ruby", code) == expected


@pytest.mark.parametrize("code", QUIET)
def test_quiet(code: str) -> None:
    assert analyze("ruby", code) == []
