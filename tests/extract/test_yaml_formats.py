"""GitHub Actions, GitLab CI and Taskfiles: commands in ``run:``/``script:``/``cmds:``, located."""

from __future__ import annotations

import pytest

from dcg.extract import actions, gitlab, taskfile

WORKFLOW = """\
name: ci
on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: echo hello # comment
      - name: clean
        run: |
          echo "rm -rf /"
          # rm -rf /
          rm -rf "$HOME" \\
            --verbose
        shell: bash
      - run: >-
          git push
          --force
      - run: 'git reset --hard'
      - name: "run: not a key"
        env:
          RUN: rm -rf /
"""

GITLAB = """\
stages: [test]
test:
  before_script:
    - npm ci
  script:
  - |
    make
    rm -rf ~
  - "git clean -fdx"
  after_script: echo bye
deploy:
  script: ['kubectl apply -f k8s', "helm upgrade x"]
"""

TASKFILE = """\
version: '3'
tasks:
  clean:
    cmds:
      - rm -rf dist
      - task: build
      - cmd: rm -rf /
        ignore_error: true
      - echo done
  one:
    cmd: git stash clear
"""


@pytest.mark.parametrize(
    ("module", "text", "expected"),
    [
        pytest.param(
            actions,
            WORKFLOW,
            [
                (8, 14, "echo hello"),
                (11, 11, 'echo "rm -rf /"'),
                (13, 11, 'rm -rf "$HOME" \\\n  --verbose'),
                (17, 11, "git push --force"),
                (19, 15, "git reset --hard"),
            ],
            id="actions-run-blocks",
        ),
        pytest.param(
            gitlab,
            GITLAB,
            [
                (4, 7, "npm ci"),
                (7, 5, "make"),
                (8, 5, "rm -rf ~"),
                (9, 6, "git clean -fdx"),
                (10, 17, "echo bye"),
                (12, 11, "kubectl apply -f k8s"),
                (12, 11, "helm upgrade x"),
            ],
            id="gitlab-scripts",
        ),
        pytest.param(
            taskfile,
            TASKFILE,
            [
                (5, 9, "rm -rf dist"),
                (7, 14, "rm -rf /"),
                (9, 9, "echo done"),
                (11, 10, "git stash clear"),
            ],
            id="taskfile-cmds",
        ),
    ],
)
def test_commands(module: object, text: str, expected: list[tuple[int, int, str]]) -> None:
    found = module.commands("f.yml", text)  # type: ignore[attr-defined]
    assert [(f.line, f.column, f.text) for f in found] == expected


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("", id="empty"),
        pytest.param("run:\n", id="key-without-value"),
        pytest.param("steps:\n  - run: |\n", id="block-without-body"),
        pytest.param("a: [unclosed\n", id="broken-flow"),
        pytest.param("run: [\n", id="broken-flow-run"),
    ],
)
def test_malformed_is_quiet(text: str) -> None:
    for module in (actions, gitlab, taskfile):
        module.commands("f.yml", text)  # never raises


PWSH = """\
jobs:
  win:
    runs-on: windows-latest
    steps:
      - name: clean
        shell: pwsh
        run: Remove-Item -Recurse -Force build
      - run: |
          rm -rf build
        shell: bash
      - run: git status
  other:
    steps:
      - shell: powershell
        run: Get-ChildItem
"""


def test_actions_step_shell() -> None:
    found = actions.commands("w.yml", PWSH)
    assert [(f.line, f.text, f.shell) for f in found] == [
        (7, "Remove-Item -Recurse -Force build", "powershell"),
        (9, "rm -rf build", "bash"),
        (11, "git status", "bash"),
        (15, "Get-ChildItem", "powershell"),
    ]
