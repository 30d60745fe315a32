"""Regenerable output and temp idioms pass; escapes from them are stopped (decisions.md 10.7)."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from dcg import hook

PROJECT = "/home/dev/project"


def _rule(command: str, cwd: str = PROJECT, **env: str) -> str | None:
    payload = {
        "session_id": "regen",
        "cwd": cwd,
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
    }
    out = io.StringIO()
    environ = dict(os.environ, **{"DCG_HOOK_DETAILS": "1", "DCG_RESPONSE_MODE": "paranoid", **env})
    hook.main([], io.BytesIO(json.dumps(payload).encode()), out, io.StringIO(), environ)
    if not out.getvalue():
        return None
    rule = json.loads(out.getvalue())["hookSpecificOutput"].get("ruleId")
    return str(rule)


@pytest.mark.parametrize(
    "command",
    [
        pytest.param("rm -rf node_modules", id="js"),
        pytest.param("rm -rf .next dist coverage .turbo", id="js-many"),
        pytest.param("rm -rf build/ dist/ *.egg-info .tox .pytest_cache", id="python"),
        pytest.param("rm -rf .venv __pycache__ .mypy_cache .ruff_cache", id="python-caches"),
        pytest.param("rm -rf target", id="rust-or-maven"),
        pytest.param("rm -rf .gradle build", id="gradle"),
        pytest.param("rm -rf obj", id="dotnet"),
        pytest.param("rm -rf vendor/bundle .bundle", id="ruby"),
        pytest.param("rm -rf _build deps", id="elixir"),
        pytest.param("rm -rf Pods DerivedData .build", id="ios"),
        pytest.param("rm -rf cmake-build-debug CMakeFiles", id="cmake"),
        pytest.param("rm -rf ~/.cache/pip ~/.cache/go-build", id="user-cache"),
        pytest.param("rm -rf ~/.gradle/caches/modules-2 ~/.m2/repository/org", id="jvm-caches"),
        pytest.param("rm -rf packages/*/node_modules", id="monorepo-glob"),
        pytest.param("cd packages/web && rm -rf node_modules .next", id="cd-first"),
        pytest.param("npx rimraf dist", id="rimraf"),
        pytest.param("find . -name '*.pyc' -delete", id="find-pyc"),
        pytest.param("find . -type d -name __pycache__ -delete", id="find-pycache"),
        pytest.param('d=$(mktemp -d); cp -r src "$d"; rm -rf "$d"', id="mktemp"),
        pytest.param("tmp=$(mktemp -d) && trap 'rm -rf \"$tmp\"' EXIT", id="trap"),
        pytest.param('f=$(mktemp); rm -rf "$f"', id="mktemp-file"),
        pytest.param('d=$(mktemp -d -t build.XXXX); rm -rf "$d"', id="mktemp-t"),
        pytest.param('rm -rf "${TMPDIR:-/tmp}/run-1"', id="tmpdir-default"),
        pytest.param('rm -rf "${TMPDIR:=/var/tmp}/x"', id="tmpdir-assign-default"),
    ],
)
def test_routine_cleanup_passes(command: str) -> None:
    assert _rule(command) is None


@pytest.mark.parametrize(
    ("command", "rule_id"),
    [
        pytest.param("rm -rf node_modules/../src", "core.filesystem:rm-rf", id="dotdot"),
        pytest.param("rm -rf build/../../other", "core.filesystem:rm-rf", id="dotdot-out"),
        pytest.param("rm -rf ../node_modules", "core.filesystem:rm-rf", id="outside-project"),
        pytest.param("rm -rf /build", "core.filesystem:rm-rf", id="root-build"),
        pytest.param("rm -rf ~/build", "core.filesystem:rm-rf", id="home-build"),
        pytest.param("rm -rf ~", "core.filesystem:rm-rf-critical", id="home"),
        # ~/.cache also holds dcg's own state, so the self-protection rule names it first.
        pytest.param("rm -rf ~/.cache", "core.dcg:write-state", id="whole-cache-root"),
        pytest.param("rm -rf node_modules src", "core.filesystem:rm-rf", id="one-is-source"),
        pytest.param("rm -rf build*", "core.filesystem:rm-rf", id="glob-name"),
        pytest.param(
            "find . -name '*.pyc' -o -name '*.py' -delete",
            "core.filesystem:find-delete",
            id="find-or",
        ),
        pytest.param("find . -name '*.py' -delete", "core.filesystem:find-delete", id="find-py"),
        pytest.param('d=$(mktemp -d -p .); rm -rf "$d"', "core.filesystem:rm-rf", id="mktemp-cwd"),
        pytest.param(
            'd=$(mktemp -d build.XX); rm -rf "$d/../src"',
            "core.filesystem:rm-rf",
            id="mktemp-template-escape",
        ),
        pytest.param(
            'TMPDIR=$(pwd); rm -rf "${TMPDIR:-/tmp}"',
            "core.filesystem:rm-rf",
            id="tmpdir-reassigned",
        ),
        pytest.param(
            'TMPDIR=$(pwd); rm -rf "$TMPDIR/"', "core.filesystem:rm-rf", id="tmpdir-var-reassigned"
        ),
        pytest.param('rm -rf "${TMPDIR:-.}/x"', "core.filesystem:rm-rf", id="tmpdir-cwd-default"),
        pytest.param('bash -c "rm -rf node_modules/../lib"', "core.filesystem:rm-rf", id="bash-c"),
        pytest.param("cd ~ && rm -rf build", "core.filesystem:rm-rf", id="cd-home"),
        pytest.param("cd / && rm -rf build", "core.filesystem:rm-rf", id="cd-root"),
        pytest.param('cd "$X" && rm -rf dist', "core.filesystem:rm-rf", id="cd-unknown"),
        pytest.param("cd /tmp/gone; rm -rf src", "core.filesystem:rm-rf", id="cd-may-fail"),
    ],
)
def test_escapes_are_stopped(command: str, rule_id: str) -> None:
    assert _rule(command) == rule_id


def test_home_as_project_is_no_project() -> None:
    assert _rule("rm -rf build", cwd=str(Path.home())) == "core.filesystem:rm-rf"


def test_symlink_in_temp_is_judged_by_its_target(tmp_path: Path) -> None:
    project = Path.home() / "work" / "app"
    (project / "src").mkdir(parents=True)
    link = tmp_path / "scratch-link"
    link.symlink_to(project / "src")
    assert _rule(f"rm -rf {link}/") == "core.filesystem:rm-rf"
    plain = tmp_path / "scratch"
    plain.mkdir()
    assert _rule(f"rm -rf {plain}/") is None


def test_build_output_symlinked_to_source_is_stopped() -> None:
    project = Path.home() / "work" / "app"
    (project / "src").mkdir(parents=True)
    (project / "node_modules").symlink_to(project / "src")
    assert _rule("rm -rf node_modules/", cwd=str(project)) == "core.filesystem:rm-rf"


@pytest.mark.parametrize("cache", ["/", "~"])
def test_a_cache_variable_naming_root_or_home_makes_nothing_a_cache(cache: str) -> None:
    value = str(Path.home()) if cache == "~" else cache
    assert _rule("rm -rf ~/src", XDG_CACHE_HOME=value) == "core.filesystem:rm-rf"


@pytest.mark.parametrize(
    ("command", "rule_id"),
    [
        pytest.param("cd .. && rm -rf node_modules", "core.filesystem:rm-rf", id="cd-up-to-home"),
        pytest.param("cd src && rm -rf ../..", "core.filesystem:rm-rf-critical", id="cd-dotdot"),
    ],
)
def test_cd_out_of_a_project_in_home_is_stopped(command: str, rule_id: str) -> None:
    project = Path.home() / "project"
    assert _rule(command, cwd=str(project)) == rule_id
