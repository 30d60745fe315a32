"""package.json scripts: name -> command with its position; resolution for ``npm run``."""

from __future__ import annotations

import pytest

from dcg.extract.packagejson import commands, resolve, run_order, scripts

PKG = """{
  "name": "demo",
  "config": {"scripts": "not these"},
  "scripts": {
    "build": "tsc",
    "clean": "rm -rf dist",
    "prenuke": "echo going",
    "nuke": "rm -rf \\"$HOME\\"",
    "n": 3
  }
}
"""


@pytest.mark.parametrize(
    ("name", "line", "column", "command"),
    [
        pytest.param("build", 5, 15, "tsc", id="build"),
        pytest.param("clean", 6, 15, "rm -rf dist", id="clean"),
        pytest.param("nuke", 8, 14, 'rm -rf "$HOME"', id="escaped-quotes"),
    ],
)
def test_scripts(name: str, line: int, column: int, command: str) -> None:
    found = scripts(PKG)[name]
    assert (found.line, found.column, found.text, found.label) == (line, column, command, name)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        pytest.param("{}", [], id="empty"),
        pytest.param('{"scripts": []}', [], id="scripts-not-object"),
        pytest.param("not json", [], id="not-json"),
        pytest.param('{"scripts": {"a": "x",', [], id="truncated"),
        pytest.param('\ufeff{"scripts": {"a": "x"}}', ["a"], id="bom"),
        pytest.param(PKG, ["build", "clean", "prenuke", "nuke"], id="non-string-skipped"),
    ],
)
def test_scripts_shapes(text: str, names: list[str]) -> None:
    assert list(scripts(text)) == names
    assert [f.label for f in commands("package.json", text)] == names


def test_resolve() -> None:
    assert resolve(PKG, "nuke") == 'rm -rf "$HOME"'
    assert resolve(PKG, "missing") is None
    assert [f.label for f in run_order(PKG, "nuke")] == ["prenuke", "nuke"]
    assert run_order(PKG, "missing") == []


def test_resolution_stays_light() -> None:
    """The hook resolves `npm run` and `make` with these modules: no json, re or typing."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from dcg.extract import makefile, packagejson\n"
        "assert packagejson.resolve('{\"scripts\": {\"a\": \"rm -rf ~\"}}', 'a') == 'rm -rf ~'\n"
        "assert makefile.resolve('a:\\n\\t$(RM) -r x\\n', 'a') == ['rm -f -r x']\n"
        "heavy = {'json', 're', 'typing', 'dataclasses', 'argparse', 'subprocess', 'rich'}\n"
        "print(sorted(heavy & {m.split('.')[0] for m in sys.modules}))\n"
    )
    out = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True)
    assert (out.returncode, out.stdout.strip()) == (0, "[]"), out.stderr
