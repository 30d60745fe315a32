"""Shell scripts: which files are scripts, and how script text is cut into located lines."""

from __future__ import annotations

import pytest

from dcg.extract import extract, format_of
from dcg.extract.script import script_shell, split


@pytest.mark.parametrize(
    ("name", "head", "shell"),
    [
        pytest.param("deploy.sh", "", "bash", id="sh-extension"),
        pytest.param("x.bash", "", "bash", id="bash-extension"),
        pytest.param("x.ps1", "", "powershell", id="ps1-extension"),
        pytest.param("deploy", "#!/bin/sh\n", "bash", id="shebang-sh"),
        pytest.param("deploy", "#!/usr/bin/env bash\n", "bash", id="shebang-env"),
        pytest.param("deploy", "#!/usr/bin/env -S bash -e\n", "bash", id="shebang-env-S"),
        pytest.param("deploy", "#!/usr/bin/env pwsh\n", "powershell", id="shebang-pwsh"),
        pytest.param("deploy", "#!/usr/bin/env python3\n", None, id="python-is-not"),
        pytest.param("notes.txt", "rm -rf /\n", None, id="text-is-not"),
    ],
)
def test_script_shell(name: str, head: str, shell: str | None) -> None:
    assert script_shell(name, head) == shell


SPLIT = [
    pytest.param("echo hi\n", [(1, 1, "echo hi")], id="one-line"),
    pytest.param("# rm -rf /\n\n  \n", [], id="comments-and-blanks-dropped"),
    pytest.param("  git reset --hard\n", [(1, 3, "git reset --hard")], id="column-of-indent"),
    pytest.param(
        "rm -rf \\\n  /srv\necho ok",
        [(1, 1, "rm -rf \\\n  /srv"), (3, 1, "echo ok")],
        id="backslash-continuation",
    ),
    pytest.param(
        "x='a\nrm -rf / b'\nls", [(1, 1, "x='a\nrm -rf / b'"), (3, 1, "ls")], id="open-quote"
    ),
    pytest.param(
        "cat <<EOF > f\nrm -rf /\nEOF\nls",
        [(1, 1, "cat <<EOF > f\nrm -rf /\nEOF"), (4, 1, "ls")],
        id="heredoc-body-joins",
    ),
    pytest.param(
        "cat <<-'E'\n\trm x\n\tE\nls",
        [(1, 1, "cat <<-'E'\n\trm x\n\tE"), (4, 1, "ls")],
        id="heredoc-dash-quoted",
    ),
    pytest.param("echo '#' x # c\n", [(1, 1, "echo '#' x # c")], id="hash-in-quotes"),
    pytest.param("a <<< 'here'\nb", [(1, 1, "a <<< 'here'"), (2, 1, "b")], id="herestring"),
]


@pytest.mark.parametrize(("text", "expected"), SPLIT)
def test_split(text: str, expected: list[tuple[int, int, str]]) -> None:
    found = split(text, path="s.sh", source="shell")
    assert [(f.line, f.column, f.text) for f in found] == expected


def test_split_offsets() -> None:
    (found,) = split("rm -rf /", path="w.yml", source="github-actions", line=10, indent=6)
    assert (found.line, found.column) == (10, 7)


@pytest.mark.parametrize(
    ("path", "head", "fmt"),
    [
        pytest.param("package.json", "{", "package.json", id="package-json"),
        pytest.param("sub/Makefile", "", "makefile", id="makefile"),
        pytest.param("rules.mk", "", "makefile", id="mk"),
        pytest.param("justfile", "", "justfile", id="justfile"),
        pytest.param("Dockerfile", "", "dockerfile", id="dockerfile"),
        pytest.param("Dockerfile.dev", "", "dockerfile", id="dockerfile-suffix"),
        pytest.param(".github/workflows/ci.yml", "", "github-actions", id="workflow"),
        pytest.param("ci.yml", "", None, id="yaml-elsewhere"),
        pytest.param(".gitlab-ci.yml", "", "gitlab-ci", id="gitlab"),
        pytest.param("Taskfile.yml", "", "taskfile", id="taskfile"),
        pytest.param("docker-compose.yml", "", "docker-compose", id="compose"),
        pytest.param("compose.yaml", "", "docker-compose", id="compose-v2"),
        pytest.param("README.md", "", None, id="docs-off"),
        pytest.param("bin/run", "#!/bin/bash\n", "shell", id="shebang"),
    ],
)
def test_format_of(path: str, head: str, fmt: str | None) -> None:
    assert format_of(path, head) == fmt


def test_markdown_only_with_docs() -> None:
    assert format_of("README.md", "", include_docs=True) == "markdown"
    text = "```bash\nrm -rf /\n```\n"
    assert extract("README.md", text) == []
    assert [f.text for f in extract("README.md", text, include_docs=True)] == ["rm -rf /"]
