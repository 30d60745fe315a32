"""Embedded code that writes, copies, moves, links or chmods a file: reported as the shell
command that does it, so dcg.writes judges the path the code builds (issue 30).

What the code writes *into* a file is data: it is never reported as a command.
"""

from __future__ import annotations

import pytest

from dcg.embedded import analyze

WRITES = [
    # Python: builtins, os, shutil, pathlib, runpy.
    # A literal written is reported with its text: a later run of the file reads it.
    pytest.param(
        "python", "open('y', 'w').write('rm -rf /')", ["printf %s 'rm -rf /' > 'y'"], id="py-open-w"
    ),
    pytest.param("python", "open('y', 'w').write(x)", [": > 'y'"], id="py-open-w-unknown"),
    pytest.param("python", "open('y', mode='a')", [": >> 'y'"], id="py-open-mode-kw"),
    pytest.param("python", "open('y', 'rb').read()", [], id="py-open-read"),
    pytest.param("python", "open('y').read()", [], id="py-open-default"),
    pytest.param("python", "import io\nio.open('y', 'r+')", [": > 'y'"], id="py-io-open"),
    pytest.param(
        "python",
        "import os\nopen(os.path.join(os.environ['HOME'], '.con' + 'fig', 'dcg', 'x'), 'a')",
        [": >> \"$HOME\"'/.config/dcg/x'"],
        id="py-joined-env",
    ),
    pytest.param(
        "python", "import shutil\nshutil.copytree('a', 'b')", ["cp -r -- 'a' 'b'"], id="py-copytree"
    ),
    pytest.param(
        "python", "import shutil\nshutil.move('a', dst='b')", ["mv -- 'a' 'b'"], id="py-move-kw"
    ),
    pytest.param("python", "import os\nos.replace('a', 'b')", ["mv -- 'a' 'b'"], id="py-replace"),
    pytest.param(
        "python", "import os\nos.symlink('/t', 'l')", ["ln -s -- '/t' 'l'"], id="py-symlink"
    ),
    pytest.param("python", "import os\nos.chmod('f', 0)", ["chmod -- 0 'f'"], id="py-chmod"),
    pytest.param(
        "python",
        "from pathlib import Path\n(Path.home() / '.claude' / 'settings.json').write_text('{}')",
        [": > \"$HOME\"'/.claude/settings.json'"],
        id="py-path-write-text",
    ),
    pytest.param(
        "python",
        "from pathlib import Path\nPath('l').symlink_to('/t')",
        ["ln -s -- '/t' 'l'"],
        id="py-symlink-to",
    ),
    pytest.param(
        "python",
        "from pathlib import Path\nPath('a').rename('b')",
        ["mv -- 'a' 'b'"],
        id="py-path-rename",
    ),
    pytest.param("python", "s = 'a b'\ns.replace('a', 'b')", [], id="py-str-replace"),
    pytest.param(
        "python",
        "import runpy\nrunpy.run_module(chr(100) + 'cg')",
        ["python3 -m dcg '<dynamic>'"],
        id="py-runpy-chr",
    ),
    # JavaScript.
    pytest.param(
        "javascript",
        "fs.readFileSync('x'); fs.writeFileSync('y', 'rm -rf /')",
        [": > 'y'"],
        id="js-write",
    ),
    pytest.param(
        "javascript",
        "require('fs').appendFileSync(process.env.HOME + '/.x', 'a')",
        [": >> \"$HOME\"'/.x'"],
        id="js-append-env",
    ),
    pytest.param(
        "javascript", "const fs = require('fs'); fs.openSync('y', 'w')", [": > 'y'"], id="js-open-w"
    ),
    pytest.param(
        "javascript", "const fs = require('fs'); fs.openSync('y', 'r')", [], id="js-open-r"
    ),
    pytest.param("javascript", "fs.copyFileSync('a', 'b')", ["cp -- 'a' 'b'"], id="js-copy"),
    pytest.param("javascript", "fs.symlinkSync('/t', 'l')", ["ln -s -- '/t' 'l'"], id="js-symlink"),
    # Perl.
    pytest.param(
        "perl",
        'open(F, ">>", "$ENV{HOME}/.con" . "fig/x")',
        [": >> \"$HOME\"'/.config/x'"],
        id="pl-open-3",
    ),
    pytest.param("perl", 'open F, ">out.txt"', [": > 'out.txt'"], id="pl-open-2"),
    pytest.param("perl", 'open(F, "<", "in.txt")', [], id="pl-open-read"),
    pytest.param("perl", 'rename("a", "b")', ["mv -- 'a' 'b'"], id="pl-rename"),
    pytest.param("perl", 'chmod(0644, "a", "b")', ["chmod -- 0 'a' 'b'"], id="pl-chmod"),
    # Ruby.
    pytest.param(
        "ruby", 'File.write(Dir.home + "/.x", "rm -rf /")', [": > \"$HOME\"'/.x'"], id="rb-write"
    ),
    pytest.param(
        "ruby", "FileUtils.cp_r('a', 'b')\nFile.read('x')", ["cp -r -- 'a' 'b'"], id="rb-cp-r"
    ),
    pytest.param("ruby", 'File.open("y", "w") { |f| f.puts 1 }', [": > 'y'"], id="rb-open-w"),
    pytest.param("ruby", 'File.open("y") { |f| f.read }', [], id="rb-open-read"),
    # PHP.
    pytest.param(
        "php", "file_get_contents('x'); copy('a', 'b');", ["cp -- 'a' 'b'"], id="php-copy"
    ),
    pytest.param(
        "php",
        "file_put_contents(getenv('HOME') . '/.x', '{}');",
        [": > \"$HOME\"'/.x'"],
        id="php-put",
    ),
    pytest.param("php", "fopen('y', 'r');", [], id="php-fopen-read"),
]


@pytest.mark.parametrize(("lang", "code", "lines"), WRITES)
def test_writes_are_reported_as_the_shell_command_that_writes(
    lang: str, code: str, lines: list[str]
) -> None:
    assert [line for _, line in analyze(lang, code)] == lines
