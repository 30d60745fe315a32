"""Python code: the ast analysis and its token fallback."""

# ruff: noqa: E501  (each code sample stays on one line so it reads as written)

from __future__ import annotations

import pytest

from dcg.embedded import analyze

HITS = [
    # --- process execution ---
    pytest.param(
        "import os; os.system('rm -rf /')", [("python os.system", "rm -rf /")], id="os.system"
    ),
    pytest.param(
        "import os\nos.popen('git reset --hard').read()",
        [("python os.popen", "git reset --hard")],
        id="os.popen",
    ),
    pytest.param(
        "import subprocess\nsubprocess.run('git clean -fdx', shell=True)",
        [("python subprocess.run", "git clean -fdx")],
        id="subprocess.run-string",
    ),
    pytest.param(
        "import subprocess\nsubprocess.run(['rm', '-rf', 'build dir'])",
        [("python subprocess.run", "rm -rf 'build dir'")],
        id="subprocess.run-list",
    ),
    pytest.param(
        "import subprocess\nsubprocess.call(args=['git', 'push', '--force'])",
        [("python subprocess.call", "git push --force")],
        id="subprocess.call-keyword",
    ),
    pytest.param(
        "import subprocess\nsubprocess.check_call(['git', 'stash', 'clear'])",
        [("python subprocess.check_call", "git stash clear")],
        id="subprocess.check_call",
    ),
    pytest.param(
        "import subprocess\nout = subprocess.check_output(['git', 'branch', '-D', 'x'])",
        [("python subprocess.check_output", "git branch -D x")],
        id="subprocess.check_output",
    ),
    pytest.param(
        "import subprocess\np = subprocess.Popen('rm -rf src', shell=True)",
        [("python subprocess.Popen", "rm -rf src")],
        id="subprocess.Popen",
    ),
    pytest.param(
        "import subprocess as sp\nsp.run(['rm', '-rf', 'x'])",
        [("python subprocess.run", "rm -rf x")],
        id="import-as",
    ),
    pytest.param(
        "from subprocess import run as r\nr('git reset --hard', shell=True)",
        [("python subprocess.run", "git reset --hard")],
        id="from-import-as",
    ),
    pytest.param(
        "from os import *\nsystem('rm -rf x')", [("python os.system", "rm -rf x")], id="star-import"
    ),
    pytest.param("os.system('rm -rf x')", [("python os.system", "rm -rf x")], id="no-import"),
    pytest.param(
        "import os\nos.execvp('rm', ['rm', '-rf', 'x'])",
        [("python os.execvp", "rm -rf x")],
        id="os.execvp",
    ),
    pytest.param(
        "import os\nos.execl('/bin/rm', 'rm', '-rf', 'x')",
        [("python os.execl", "/bin/rm -rf x")],
        id="os.execl",
    ),
    pytest.param(
        "import os\nos.execle('/bin/rm', 'rm', '-rf', 'x', {})",
        [("python os.execle", "/bin/rm -rf x")],
        id="os.execle",
    ),
    pytest.param(
        "import os\nos.spawnlp(os.P_WAIT, 'rm', 'rm', '-rf', 'x')",
        [("python os.spawnlp", "rm -rf x")],
        id="os.spawnlp",
    ),
    pytest.param(
        "import os\nos.spawnv(os.P_WAIT, '/bin/sh', ['sh', '-c', 'rm -rf x'])",
        [("python os.spawnv", "/bin/sh -c 'rm -rf x'")],
        id="os.spawnv",
    ),
    pytest.param(
        "import pty\npty.spawn(['git', 'reset', '--hard'])",
        [("python pty.spawn", "git reset --hard")],
        id="pty.spawn",
    ),
    pytest.param(
        "import commands\ncommands.getoutput('rm -rf x')",
        [("python commands.getoutput", "rm -rf x")],
        id="commands.getoutput",
    ),
    pytest.param(
        "import subprocess\nsubprocess.getoutput('rm -rf x')",
        [("python subprocess.getoutput", "rm -rf x")],
        id="subprocess.getoutput",
    ),
    pytest.param(
        "import asyncio\nasyncio.create_subprocess_exec('rm', '-rf', 'x')",
        [("python asyncio.create_subprocess_exec", "rm -rf x")],
        id="asyncio-exec",
    ),
    pytest.param(
        "import os\ncmd = 'git reset --hard'\nos.system(cmd)",
        [("python os.system", "git reset --hard")],
        id="variable",
    ),
    pytest.param(
        "import os\nd = 'src'\nos.system(f'rm -rf {d}')",
        [("python os.system", "rm -rf src")],
        id="f-string",
    ),
    pytest.param(
        "import os\nos.system('rm -rf %s' % 'src')",
        [("python os.system", "rm -rf src")],
        id="percent-format",
    ),
    pytest.param(
        "import os\nos.system('rm -rf {}'.format('src'))",
        [("python os.system", "rm -rf src")],
        id="str.format",
    ),
    pytest.param(
        "import os\nos.system(' '.join(['rm', '-rf', 'x']))",
        [("python os.system", "rm -rf x")],
        id="str.join",
    ),
    pytest.param(
        "import os, sys\nos.system('rm -rf ' + sys.argv[1])",
        [("python os.system", "rm -rf '<dynamic>'")],
        id="unknown-part",
    ),
    pytest.param(
        "import os\nos.system(os.environ['CMD'])",
        [("python os.system", "${CMD}")],
        id="env-command",
    ),
    pytest.param(
        "import subprocess\nsubprocess.run(['bash', '-c', 'rm -rf ~'])",
        [("python subprocess.run", "bash -c 'rm -rf ~'")],
        id="nested-shell",
    ),
    pytest.param(
        "s = __import__('os').system\ns('rm -rf x')",
        [("python os.system", "rm -rf x")],
        id="dunder-import",
    ),
    pytest.param(
        "import os\ngetattr(os, 'system')('rm -rf x')",
        [("python os.system", "rm -rf x")],
        id="getattr",
    ),
    pytest.param(
        "import os\nrun = os.system\nrun('rm -rf x')",
        [("python os.system", "rm -rf x")],
        id="assigned-alias",
    ),
    pytest.param(
        "exec(\"import shutil; shutil.rmtree('x')\")",
        [("python shutil.rmtree", "rm -rf -- 'x'")],
        id="exec-string",
    ),
    # --- deletion ---
    pytest.param(
        "import shutil\nshutil.rmtree('build')",
        [("python shutil.rmtree", "rm -rf -- 'build'")],
        id="shutil.rmtree",
    ),
    pytest.param(
        "from shutil import rmtree as r; r('x')",
        [("python shutil.rmtree", "rm -rf -- 'x'")],
        id="rmtree-alias",
    ),
    pytest.param(
        "import shutil\nshutil.rmtree(path='x', ignore_errors=True)",
        [("python shutil.rmtree", "rm -rf -- 'x'")],
        id="rmtree-keyword",
    ),
    pytest.param(
        "import os\nos.remove('a.txt')", [("python os.remove", "rm -f -- 'a.txt'")], id="os.remove"
    ),
    pytest.param(
        'import os\nos.unlink("it\'s")',
        [("python os.unlink", "rm -f -- 'it'\\''s'")],
        id="os.unlink-quote",
    ),
    pytest.param("import os\nos.rmdir('d')", [("python os.rmdir", "rmdir -- 'd'")], id="os.rmdir"),
    pytest.param(
        "import os\nos.removedirs('a/b')",
        [("python os.removedirs", "rmdir -p -- 'a/b'")],
        id="os.removedirs",
    ),
    pytest.param(
        "from pathlib import Path\nPath('a.txt').unlink()",
        [("python Path.unlink", "rm -f -- 'a.txt'")],
        id="Path.unlink",
    ),
    pytest.param(
        "from pathlib import Path\n(Path('a') / 'b').rmdir()",
        [("python Path.rmdir", "rmdir -- 'a/b'")],
        id="Path.rmdir-div",
    ),
    pytest.param(
        "from pathlib import Path\np = Path.home() / '.ssh'\np.unlink(missing_ok=True)",
        [("python Path.unlink", "rm -f -- \"$HOME\"'/.ssh'")],
        id="Path.home",
    ),
    pytest.param(
        "import shutil, os\nshutil.rmtree(os.path.expanduser('~'))",
        [("python shutil.rmtree", 'rm -rf -- "$HOME"')],
        id="expanduser",
    ),
    pytest.param(
        "import shutil, os\nshutil.rmtree(os.path.join(os.environ['HOME'], 'src'))",
        [("python shutil.rmtree", "rm -rf -- \"$HOME\"'/src'")],
        id="environ-join",
    ),
    pytest.param(
        "import shutil, os\nshutil.rmtree(os.getenv('HOME'))",
        [("python shutil.rmtree", 'rm -rf -- "$HOME"')],
        id="getenv",
    ),
    pytest.param(
        "import shutil, os\nshutil.rmtree(os.getcwd())",
        [("python shutil.rmtree", "rm -rf -- '.'")],
        id="getcwd",
    ),
    pytest.param(
        "import shutil, os\nshutil.rmtree(os.path.join('/', 'etc'))",
        [("python shutil.rmtree", "rm -rf -- '/etc'")],
        id="join-absolute",
    ),
    pytest.param(
        "import shutil\nd = '/var/lib'\nshutil.rmtree(d + '/x')",
        [("python shutil.rmtree", "rm -rf -- '/var/lib/x'")],
        id="variable-concat",
    ),
    pytest.param(
        # Called: a function nothing calls is not judged (issue 24).
        "import shutil\ndef f(d):\n    shutil.rmtree(d)\nf('build')",
        [("python shutil.rmtree", "rm -rf -- '<dynamic>'")],
        id="parameter-dynamic",
    ),
    pytest.param("import shutil\ndef f(d):\n    shutil.rmtree(d)", [], id="never-called"),
    pytest.param(
        "import shutil\ndef f(d):\n    shutil.rmtree(d)\ncallbacks = [f]",
        [("python shutil.rmtree", "rm -rf -- '<dynamic>'")],
        id="named-as-a-value",
    ),
    pytest.param(
        "import shutil, tempfile\nd = tempfile.mkdtemp()\nshutil.rmtree(d)",
        [("python shutil.rmtree", "rm -rf -- '/tmp/''<dynamic>'")],
        id="mkdtemp",
    ),
    pytest.param(
        "import os\nfor root, dirs, files in os.walk('/srv'):\n    for f in files:\n        os.remove(os.path.join(root, f))",
        [
            ("python recursive delete", "rm -rf -- '/srv'"),
            ("python os.remove", "rm -f -- '<dynamic>'"),
        ],
        id="os.walk",
    ),
    pytest.param(
        "import os, shutil\nos.system('make')\nshutil.rmtree('a')\nos.remove('b')",
        [
            ("python os.system", "make"),
            ("python shutil.rmtree", "rm -rf -- 'a'"),
            ("python os.remove", "rm -f -- 'b'"),
        ],
        id="source-order",
    ),
    # --- token fallback for code that does not parse ---
    pytest.param(
        "import os\nos.system('rm -rf /'",
        [("python os.system", "rm -rf /")],
        id="fallback-unclosed",
    ),
    pytest.param(
        "print 'x'\nimport subprocess as sp\nsp.call(['rm', '-rf', 'y'])",
        [("python subprocess.call", "rm -rf y")],
        id="fallback-python2",
    ),
    pytest.param(
        "print 'x'\nfrom shutil import rmtree\nrmtree('z')  # os.system('no')",
        [("python shutil.rmtree", "rm -rf -- 'z'")],
        id="fallback-from-import",
    ),
]

QUIET = [
    pytest.param("print('rm -rf /')", id="print"),
    pytest.param("# os.system('rm -rf /')\nx = 1", id="comment"),
    pytest.param('"""os.system(\'rm -rf /\')"""', id="docstring"),
    pytest.param("cmd = 'git reset --hard'\nprint(cmd)", id="unexecuted-variable"),
    pytest.param("import os\nos.listdir('/')", id="listdir"),
    pytest.param("import os\nos.path.exists('/etc')", id="path-exists"),
    pytest.param("import logging\nlogging.info('shutil.rmtree(\"/\")')", id="logged"),
    pytest.param("d = {}\nd.pop('x')\nl = []\nl.remove(3)", id="container-methods"),
    pytest.param("import sys\nsys.stdout.write('os.remove(x)')", id="written"),
    pytest.param("print 'rm -rf /'  # python 2", id="fallback-print"),
    pytest.param("", id="empty"),
]


@pytest.mark.parametrize(("code", "expected"), HITS)
def test_finds(code: str, expected: list[tuple[str, str]]) -> None:
    assert analyze("python", code) == expected


@pytest.mark.parametrize("code", QUIET)
def test_quiet(code: str) -> None:
    assert analyze("python", code) == []
