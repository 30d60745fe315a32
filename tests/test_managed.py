"""The managed policy (decisions.md 10.8): a floor no user, repository, variable or flag lowers."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

import hookpath
from dcg import config, paths

MANAGED = """\
[response]
mode = "paranoid"
session_threshold = 3

[packs]
enabled = ["database.postgresql"]

[allowlist]
user = false
"""
USER = """\
[response]
mode = "lenient"
session_threshold = 9

[packs]
disabled = ["database.postgresql"]
"""
USER_ALLOWLIST = """\
[[allow]]
rule = "core.git:reset-hard"
reason = "I know what I am doing"
"""


@pytest.fixture
def user_choices(isolated_home: Path) -> Path:
    directory = isolated_home / ".config" / "dcg"
    directory.mkdir(parents=True)
    (directory / "config.toml").write_text(USER)
    (directory / "allowlist.toml").write_text(USER_ALLOWLIST)
    return directory


def _managed(text: str) -> Path:
    path = Path(paths.managed_file())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def _hook(exe: str, command: str, *args: str, env: dict[str, str] | None = None) -> str:
    proc = subprocess.run(
        [exe, "hook", *args],
        input=json.dumps(hookpath.payload("claude", command)).encode(),
        capture_output=True,
        env=dict(os.environ, **(env or {})),
        timeout=60,
        check=False,
    )
    assert b"Traceback" not in proc.stderr
    return hookpath.verdict(proc.returncode, proc.stdout.decode(), proc.stderr.decode())


LOWERINGS = [
    pytest.param([], {}, id="user-config-and-allowlist"),
    pytest.param([], {"DCG_RESPONSE_MODE": "lenient"}, id="environment"),
    pytest.param(["--mode", "lenient"], {}, id="hook-flag"),
    pytest.param(["--mode", "lenient"], {"DCG_RESPONSE_MODE": "lenient"}, id="all-at-once"),
]


@pytest.mark.parametrize(("args", "env"), LOWERINGS)
def test_nothing_below_lowers_the_managed_floor(
    dcg_exe: str, user_choices: Path, args: list[str], env: dict[str, str]
) -> None:
    _managed(MANAGED)
    assert _hook(dcg_exe, "git reset --hard", *args, env=env) == "deny"
    # The managed pack stays on though the user disabled it.
    assert _hook(dcg_exe, "psql -c 'DROP DATABASE prod'", *args, env=env) == "deny"


@pytest.mark.parametrize(("args", "env"), LOWERINGS)
def test_without_a_managed_policy_the_users_choices_stand(
    dcg_exe: str, user_choices: Path, args: list[str], env: dict[str, str]
) -> None:
    assert _hook(dcg_exe, "git reset --hard", *args, env=env) == "none"  # allowlisted
    assert _hook(dcg_exe, "psql -c 'DROP DATABASE prod'", *args, env=env) == "none"


def test_system_allowlist_still_applies_when_user_entries_are_off(
    dcg_exe: str, user_choices: Path
) -> None:
    _managed(MANAGED)
    Path(paths.system_allowlist_file()).write_text(USER_ALLOWLIST)
    assert _hook(dcg_exe, "git reset --hard") == "none"


def test_a_repository_config_cannot_lower_it_either(
    dcg_exe: str, user_choices: Path, tmp_path: Path
) -> None:
    _managed(MANAGED)
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / ".dcg.toml").write_text('[response]\nmode = "lenient"\n')
    body = hookpath.payload("claude", "git reset --hard", str(repo))
    code, out, err = hookpath.run(hookpath.encode(body))
    assert hookpath.verdict(code, out, err) == "deny"


@pytest.mark.parametrize(
    ("managed", "key", "value"),
    [
        pytest.param('[response]\nmode = "strict"\n', "mode", "strict", id="mode-floor"),
        pytest.param("[response]\nsession_threshold = 3\n", "session_threshold", 3, id="ceiling"),
        pytest.param(
            '[response]\nhistory_window = "7d"\n', "history_window", 7 * 86400, id="window"
        ),
        pytest.param(
            "[response]\ncritical_always_hard = true\n", "critical_always_hard", True, id="bool"
        ),
        pytest.param(
            '[response]\nhigh_minimum_level = "soft_block"\n',
            "high_minimum_level",
            "soft_block",
            id="level-floor",
        ),
    ],
)
def test_each_bound(user_choices: Path, managed: str, key: str, value: object) -> None:
    (user_choices / "config.toml").write_text(
        '[response]\nmode = "lenient"\nsession_threshold = 9\nhistory_window = "1h"\n'
        'critical_always_hard = false\nhigh_minimum_level = "warning"\n'
    )
    _managed(managed)
    cfg = config.load(None, {})
    assert cfg.response[key] == value
    assert f"response.{key}" in cfg.fixed


def test_a_stricter_user_choice_stands(user_choices: Path) -> None:
    _managed("[response]\nsession_threshold = 3\nmode = 'standard'\n")
    (user_choices / "config.toml").write_text(
        "[response]\nsession_threshold = 1\nmode = 'paranoid'\n"
    )
    cfg = config.load(None, {})
    assert (cfg.response["session_threshold"], cfg.response["mode"]) == (1, "paranoid")


def test_per_pack_modes_are_floored_too(dcg_exe: str, user_choices: Path) -> None:
    (user_choices / "allowlist.toml").unlink()
    (user_choices / "config.toml").write_text('[response.packs."core.git"]\nmode = "lenient"\n')
    _managed('[response]\nmode = "paranoid"\n')
    assert _hook(dcg_exe, "git reset --hard") == "deny"


def test_a_managed_policy_that_does_not_parse_is_read_strictly(
    dcg_exe: str, user_choices: Path
) -> None:
    _managed("[response\nmode = 'lenient'\n")
    assert _hook(dcg_exe, "git reset --hard") == "deny"  # paranoid, user allowlist off
    proc = subprocess.run([dcg_exe, "doctor"], capture_output=True, text=True, check=False)
    assert proc.returncode == 1
    assert "managed policy does not parse" in proc.stdout


def test_without_a_policy_nothing_is_fixed(user_choices: Path) -> None:
    assert not os.path.exists(paths.managed_file())
    assert config.load(None, {}).fixed == {}
