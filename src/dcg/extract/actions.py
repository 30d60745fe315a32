"""GitHub Actions workflows: the ``run:`` steps (``.github/workflows/*.yml``).

A step's ``shell: pwsh`` (or ``powershell``) makes its script PowerShell, cut into
statements by PowerShell's rules (:mod:`dcg.extract.powershell`); any other shell,
or none, is read as bash (GitHub's default on Linux and macOS runners).
"""

from __future__ import annotations

from dcg.extract import _yaml
from dcg.extract.found import Found


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _key_column(line: str) -> int:
    stripped = line.lstrip(" ")
    col = len(line) - len(stripped)
    while stripped.startswith("- "):
        stripped = stripped[2:].lstrip(" ")
        col = len(line) - len(stripped)
    return col


def step_shell(lines: list[str], key_line: int) -> str:
    """``powershell`` when the step holding the ``run:`` on ``key_line`` (1-based) says so."""
    col = _key_column(lines[key_line - 1])
    start = key_line - 1
    while start > 0 and not lines[start].lstrip().startswith("- "):
        above = lines[start - 1]
        if above.strip() and _indent(above) < col and not above.lstrip().startswith("- "):
            break
        start -= 1
    end = key_line
    while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) >= col):
        end += 1
    for line in lines[start:end]:
        if _key_column(line) != col:
            continue
        key, _, value = line.strip().lstrip("- ").partition(":")
        if key.strip() == "shell":
            name = value.split("#", 1)[0].strip().strip("'\"").split(" ")[0].lower()
            return "powershell" if name in ("pwsh", "powershell") else "bash"
    return "bash"


def commands(path: str, text: str) -> list[Found]:
    lines = text.split("\n")
    out: list[Found] = []
    for key, item in _yaml.find(text, ("run",)):
        shell = step_shell(lines, item.key_line) if "shell:" in text else "bash"
        pieces = _yaml.split_item(path, lines, key, item, "github-actions", shell)
        out.extend(
            Found(f.path, f.line, f.column, f.text, f.source, f.label, shell) for f in pieces
        )
    return out
