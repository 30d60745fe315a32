"""JavaScript/TypeScript code: child_process, fs and friends, through the shared scanner."""

# ruff: noqa: E501  (each code sample stays on one line so it reads as written)

from __future__ import annotations

import pytest

from dcg.embedded import analyze

HITS = [
    # --- process execution ---
    pytest.param(
        "require('child_process').execSync('git reset --hard')",
        [("javascript child_process.execSync", "git reset --hard")],
        id="require-chain",
    ),
    pytest.param(
        "const cp = require('child_process');\ncp.exec('rm -rf dist')",
        [("javascript child_process.exec", "rm -rf dist")],
        id="require-binding",
    ),
    pytest.param(
        "const {execSync} = require('child_process')\nexecSync('rm -rf x')",
        [("javascript child_process.execSync", "rm -rf x")],
        id="destructured",
    ),
    pytest.param(
        "const {execSync: run} = require('node:child_process'); run('git clean -fdx')",
        [("javascript child_process.execSync", "git clean -fdx")],
        id="destructured-rename",
    ),
    pytest.param(
        "import {execSync} from 'node:child_process';\nexecSync(`rm -rf ${'build'}`)",
        [("javascript child_process.execSync", "rm -rf build")],
        id="import-named",
    ),
    pytest.param(
        "import * as cp from 'child_process'\ncp.spawnSync('rm', ['-rf', 'x'])",
        [("javascript child_process.spawnSync", "rm -rf x")],
        id="import-namespace",
    ),
    pytest.param(
        "import cp from 'child_process'\ncp.spawn('git', ['push', '--force'], {stdio: 'inherit'})",
        [("javascript child_process.spawn", "git push --force")],
        id="spawn-options",
    ),
    pytest.param(
        "const {execFileSync} = require('child_process'); execFileSync('rm', ['-rf', '/'])",
        [("javascript child_process.execFileSync", "rm -rf /")],
        id="execFileSync",
    ),
    pytest.param(
        "const cp = require('child_process'); cp.spawn('rm -rf x', {shell: true})",
        [("javascript child_process.spawn", "rm -rf x")],
        id="spawn-shell-string",
    ),
    pytest.param(
        "const dir = 'src';\nconst cmd = 'rm -rf ' + dir;\nrequire('child_process').execSync(cmd)",
        [("javascript child_process.execSync", "rm -rf src")],
        id="variables",
    ),
    pytest.param(
        "const {execSync} = require('child_process'); execSync(`rm -rf ${process.env.HOME}`)",
        [("javascript child_process.execSync", "rm -rf ${HOME}")],
        id="template-env",
    ),
    pytest.param(
        "import {$} from 'zx'\nawait $`rm -rf ${dir}`",
        [("javascript zx.$", "rm -rf '<dynamic>'")],
        id="zx",
    ),
    pytest.param(
        "await Bun.$`git reset --hard`", [("javascript Bun.$", "git reset --hard")], id="bun-shell"
    ),
    pytest.param(
        "Bun.spawn(['rm', '-rf', 'x'])", [("javascript Bun.spawn", "rm -rf x")], id="Bun.spawn"
    ),
    pytest.param(
        "Bun.spawnSync({cmd: ['git', 'clean', '-fdx']})",
        [("javascript Bun.spawnSync", "git clean -fdx")],
        id="Bun.spawnSync-object",
    ),
    pytest.param(
        "await new Deno.Command('rm', {args: ['-rf', 'x']}).output()",
        [("javascript Deno.Command", "rm -rf x")],
        id="Deno.Command",
    ),
    pytest.param(
        "const shell = require('shelljs'); shell.exec('git reset --hard'); shell.rm('-rf', 'out')",
        [
            ("javascript shelljs.exec", "git reset --hard"),
            ("javascript shelljs.rm", "rm -rf -- 'out'"),
        ],
        id="shelljs",
    ),
    pytest.param(
        "eval(\"require('fs').rmSync('x', {recursive: true})\")",
        [("javascript fs.rmSync", "rm -rf -- 'x'")],
        id="eval-string",
    ),
    # --- deletion ---
    pytest.param(
        "const fs = require('fs'); fs.rmSync('dist', {recursive: true, force: true})",
        [("javascript fs.rmSync", "rm -rf -- 'dist'")],
        id="rmSync-recursive",
    ),
    pytest.param(
        "const fs = require('fs'); fs.rmSync('a.txt')",
        [("javascript fs.rmSync", "rm -f -- 'a.txt'")],
        id="rmSync-file",
    ),
    pytest.param(
        "fs.rmdirSync('d', {recursive: true})",
        [("javascript fs.rmdirSync", "rm -rf -- 'd'")],
        id="rmdirSync-recursive",
    ),
    pytest.param(
        "fs.rmdirSync('d')", [("javascript fs.rmdirSync", "rmdir -- 'd'")], id="rmdirSync"
    ),
    pytest.param(
        "fs.unlinkSync('a')\nfs.unlink('b', () => {})",
        [("javascript fs.unlinkSync", "rm -f -- 'a'"), ("javascript fs.unlink", "rm -f -- 'b'")],
        id="unlink",
    ),
    pytest.param(
        "await fs.promises.rm('x', {recursive: true})",
        [("javascript fs.promises.rm", "rm -rf -- 'x'")],
        id="promises.rm",
    ),
    pytest.param(
        "import {rm} from 'fs/promises'\nawait rm('x', {recursive: true})",
        [("javascript fs.promises.rm", "rm -rf -- 'x'")],
        id="fs/promises-import",
    ),
    pytest.param(
        "const fse = require('fs-extra'); fse.removeSync('out')",
        [("javascript fs-extra.removeSync", "rm -rf -- 'out'")],
        id="fs-extra",
    ),
    pytest.param(
        "const rimraf = require('rimraf'); rimraf.sync('node_modules')",
        [("javascript rimraf.sync", "rm -rf -- 'node_modules'")],
        id="rimraf.sync",
    ),
    pytest.param(
        "import {rimraf} from 'rimraf'\nawait rimraf('build')",
        [("javascript rimraf.rimraf", "rm -rf -- 'build'")],
        id="rimraf-named",
    ),
    pytest.param(
        "import {deleteAsync} from 'del'\nawait deleteAsync(['a', 'b'])",
        [("javascript del.deleteAsync", "rm -rf -- 'a' 'b'")],
        id="del",
    ),
    pytest.param(
        "await Deno.remove('x', {recursive: true})",
        [("javascript Deno.remove", "rm -rf -- 'x'")],
        id="Deno.remove",
    ),
    pytest.param(
        "const os = require('os'), path = require('path');\nfs.rmSync(path.join(os.homedir(), '.config'), {recursive: true})",
        [("javascript fs.rmSync", "rm -rf -- \"$HOME\"'/.config'")],
        id="homedir-join",
    ),
    pytest.param(
        "fs.rmSync(process.cwd(), {recursive: true})",
        [("javascript fs.rmSync", "rm -rf -- '.'")],
        id="cwd",
    ),
    pytest.param(
        "fs.rmSync(process.env['HOME'], {recursive: true})",
        [("javascript fs.rmSync", 'rm -rf -- "$HOME"')],
        id="env-subscript",
    ),
    pytest.param(
        "fs.rmSync(target, {recursive: true})",
        [("javascript fs.rmSync", "rm -rf -- '<dynamic>'")],
        id="dynamic",
    ),
    pytest.param(
        "const d = fs.mkdtempSync(path.join(os.tmpdir(), 'x-'));\nfs.rmSync(d, {recursive: true})",
        [("javascript fs.rmSync", "rm -rf -- '/tmp/x-''<dynamic>'")],
        id="mkdtemp",
    ),
    pytest.param(
        "const target: string = '/etc';\nfs.rmSync(target, {recursive: true});",
        [("javascript fs.rmSync", "rm -rf -- '/etc'")],
        id="typescript-annotation",
    ),
    pytest.param(
        "const re = /'/; fs.unlinkSync('a')",
        [("javascript fs.unlinkSync", "rm -f -- 'a'")],
        id="regex-with-quote",
    ),
]

QUIET = [
    pytest.param("console.log('git reset --hard')", id="console.log"),
    pytest.param("// fs.rmSync('/', {recursive: true})\nlet x = 1", id="line-comment"),
    pytest.param("/* execSync('rm -rf /') */", id="block-comment"),
    pytest.param("const s = 'rm -rf /'; const t = `git push --force`;", id="unexecuted"),
    pytest.param("fs.readFileSync('x'); fs.readFile('y', 'rm -rf /')", id="read-only"),
    pytest.param("const o = {exec: 'rm -rf /'}; o.exec", id="object-key"),
    pytest.param("re.exec('rm -rf /'); arr.splice(0)", id="regexp-exec"),
    pytest.param("const x = a / b / c; // execSync('rm')", id="division"),
]


@pytest.mark.parametrize(("code", "expected"), HITS)
def test_finds(code: str, expected: list[tuple[str, str]]) -> None:
    assert analyze("javascript", code) == expected


@pytest.mark.parametrize("code", QUIET)
def test_quiet(code: str) -> None:
    assert analyze("javascript", code) == []


def test_a_write_is_a_write_not_its_content() -> None:
    """The text written is data; the write itself is what the safety net keeps."""
    code = "fs.readFileSync('x'); fs.writeFileSync('y', 'rm -rf /')"
    assert analyze("javascript", code) == [("javascript fs.writeFileSync", ": > 'y'")]


def test_typescript_alias() -> None:
    assert analyze("typescript", "fs.unlinkSync('a')") == [
        ("javascript fs.unlinkSync", "rm -f -- 'a'")
    ]
