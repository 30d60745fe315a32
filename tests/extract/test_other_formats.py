"""Dockerfile RUN, docker-compose command/entrypoint, justfiles and Markdown fences, located."""

from __future__ import annotations

import pytest

from dcg.extract import compose, dockerfile, justfile, markdown

DOCKERFILE = """\
FROM debian:12
# RUN rm -rf /
RUN apt-get update && \\
    # a comment Docker drops
    apt-get install -y curl && \\
    rm -rf /var/lib/apt/lists/*
RUN --mount=type=cache,target=/root/.cache pip install x
RUN ["sh", "-c", "rm -rf /tmp/x"]
RUN <<END
set -e
rm -rf /usr/share/doc
END
CMD ["rm", "-rf", "/"]
SHELL ["pwsh", "-Command"]
RUN Remove-Item -Recurse C:\\x
"""

COMPOSE = """\
services:
  web:
    image: x
    command: rm -rf /data
    entrypoint: ["sh", "-c", "git clean -fdx"]
  worker:
    command:
      - bash
      - -c
      - echo hi
"""

JUSTFILE = """\
set shell := ["bash", "-c"]
version := "1"

# Remove build output
clean:
    rm -rf dist
    @-echo cleaned

@deploy env: clean
    git push --force origin {{env}}

script:
    #!/usr/bin/env bash
    set -e
    rm -rf "$HOME/x"
"""

MARKDOWN = """\
# Title

```bash
$ rm -rf build
git status
```

```console
$ git reset --hard
HEAD is now at 1234
$ rm -rf \\
  /srv
```

```python
os.system("rm -rf /")
```

~~~sh
make clean
~~~
"""


@pytest.mark.parametrize(
    ("module", "text", "expected"),
    [
        pytest.param(
            dockerfile,
            DOCKERFILE,
            [
                (
                    3,
                    5,
                    "apt-get update && \\\n    apt-get install -y curl && \\\n"
                    "    rm -rf /var/lib/apt/lists/*",
                ),
                (7, 44, "pip install x"),
                (8, 5, "sh -c 'rm -rf /tmp/x'"),
                (10, 1, "set -e"),
                (11, 1, "rm -rf /usr/share/doc"),
                (15, 5, "Remove-Item -Recurse C:\\x"),
            ],
            id="dockerfile-run-forms",
        ),
        pytest.param(
            compose,
            COMPOSE,
            [
                (4, 14, "rm -rf /data"),
                (5, 17, "sh -c 'git clean -fdx'"),
                (8, 9, "bash -c 'echo hi'"),
            ],
            id="compose-string-and-exec-forms",
        ),
        pytest.param(
            justfile,
            JUSTFILE,
            [
                (6, 5, "rm -rf dist"),
                (7, 7, "echo cleaned"),
                (10, 5, "git push --force origin {{env}}"),
                (14, 5, "set -e"),
                (15, 5, 'rm -rf "$HOME/x"'),
            ],
            id="justfile-recipes",
        ),
        pytest.param(
            markdown,
            MARKDOWN,
            [
                (4, 3, "rm -rf build"),
                (9, 3, "git reset --hard"),
                (11, 3, "rm -rf \\\n  /srv"),
                (20, 1, "make clean"),
            ],
            id="markdown-fences",
        ),
    ],
)
def test_commands(module: object, text: str, expected: list[tuple[int, int, str]]) -> None:
    found = module.commands("f", text)  # type: ignore[attr-defined]
    assert [(f.line, f.column, f.text) for f in found] == expected


def test_dockerfile_shell_switch() -> None:
    found = dockerfile.commands("Dockerfile", DOCKERFILE)
    assert [f.shell for f in found][-1] == "powershell"
    assert {f.source for f in found} == {"dockerfile"}


@pytest.mark.parametrize(
    ("text", "label"),
    [
        pytest.param("RUN rm -rf /usr\n", "RUN", id="plain"),
        pytest.param("RUN --mount=type=cache,target=/c rm -rf /c\n", "RUN", id="cache-mount"),
        pytest.param(
            "RUN --mount=type=bind,rw,target=/src rm -rf /src\n", "RUN --mount=type=bind", id="bind"
        ),
    ],
)
def test_dockerfile_bind_mount_label(text: str, label: str) -> None:
    (found,) = dockerfile.commands("Dockerfile", text)
    assert found.label == label
