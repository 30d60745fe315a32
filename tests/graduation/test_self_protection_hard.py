"""Self-protection is a hard block at the first try whatever ``critical_always_hard`` says
(issue 29.2; decisions.md 10.3, 11.5), through the installed hook, in every mode, however the
setting is made."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hooklines import hook

from dcg import paths

MODES = ("paranoid", "strict", "standard", "lenient")
ATTEMPTS = (
    pytest.param("rm -rf ~/.config/dcg", id="remove-state"),
    pytest.param("echo {} > ~/.claude/settings.json", id="blank-hooks"),
    pytest.param("pip uninstall -y dcg", id="uninstall"),
    pytest.param("dcg session clear", id="session-clear"),
    pytest.param("dcg allowlist add core.git:reset-hard --user", id="allowlist-add"),
    pytest.param("truncate -s 0 ~/.config/dcg/history.jsonl", id="truncate-history"),
)
OFF = '[response]\ncritical_always_hard = false\nmode = "{mode}"\n'


def _write(path: str | Path, text: str) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(text)


def _env_setting(mode: str, tmp: Path) -> tuple[dict[str, str], tuple[str, ...], str]:
    env = dict(os.environ, DCG_CRITICAL_ALWAYS_HARD="false", DCG_RESPONSE_MODE=mode)
    return env, (), "/home/dev/project"


def _user_config(mode: str, tmp: Path) -> tuple[dict[str, str], tuple[str, ...], str]:
    _write(paths.user_config(), OFF.format(mode=mode))
    return dict(os.environ), (), "/home/dev/project"


def _explicit_config(mode: str, tmp: Path) -> tuple[dict[str, str], tuple[str, ...], str]:
    _write(tmp / "explicit.toml", OFF.format(mode=mode))
    return dict(os.environ, DCG_CONFIG=str(tmp / "explicit.toml")), (), "/home/dev/project"


def _system_config(mode: str, tmp: Path) -> tuple[dict[str, str], tuple[str, ...], str]:
    _write(os.environ["DCG_SYSTEM_CONFIG"], OFF.format(mode=mode))
    return dict(os.environ), (), "/home/dev/project"


def _repository(mode: str, tmp: Path) -> tuple[dict[str, str], tuple[str, ...], str]:
    # A repository may not set [response] at all; it is ignored with a warning.
    _write(tmp / "repo" / ".dcg.toml", OFF.format(mode=mode))
    _write(paths.user_config(), "[response]\ncritical_always_hard = false\n")
    return dict(os.environ), ("--mode", mode), str(tmp / "repo")


def _hook_flags(mode: str, tmp: Path) -> tuple[dict[str, str], tuple[str, ...], str]:
    env = dict(os.environ, DCG_CRITICAL_ALWAYS_HARD="false")
    return env, ("--mode", mode, "--session-threshold", "99"), "/home/dev/project"


def _pack_mode(mode: str, tmp: Path) -> tuple[dict[str, str], tuple[str, ...], str]:
    text = (
        "[response]\ncritical_always_hard = false\n"
        f'[response.packs."core.dcg"]\nmode = "{mode}"\n[response.packs."core"]\nmode = "{mode}"\n'
    )
    _write(paths.user_config(), text)
    return dict(os.environ), (), "/home/dev/project"


SETTINGS = {
    "env": _env_setting,
    "user-config": _user_config,
    "dcg-config": _explicit_config,
    "system-config": _system_config,
    "repository": _repository,
    "hook-flags": _hook_flags,
    "per-pack-mode": _pack_mode,
}


@pytest.mark.parametrize("attempt", ATTEMPTS)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("how", list(SETTINGS))
def test_self_protection_ignores_critical_always_hard(
    how: str, mode: str, attempt: str, tmp_path: Path
) -> None:
    env, args, cwd = SETTINGS[how](mode, tmp_path)
    for _ in range(2):  # the first try, and a repeat
        said, specific, person = hook(attempt, env=env, args=args, cwd=cwd)
        assert said == "deny", (how, mode, attempt, said)
        assert str(specific.get("ruleId", "")).startswith("core.dcg:")
        assert specific.get("responseLevel") == "hard_block"
    assert "Command blocked (self-protection)" in person


@pytest.mark.parametrize("mode", MODES)
def test_other_critical_rules_still_follow_the_setting(mode: str) -> None:
    """critical_always_hard = false still does what it says for the rest: no hard block
    but the mode's, and a drop that nothing can keep is a soft block, not a warning
    (decisions 11.2)."""
    env = dict(os.environ, DCG_CRITICAL_ALWAYS_HARD="false", DCG_RESPONSE_MODE=mode)
    _, specific, _ = hook("psql -c 'DROP DATABASE prod'", env=env)
    assert specific.get("responseLevel") == ("hard_block" if mode == "paranoid" else "soft_block")


def test_managed_policy_cannot_lower_it(tmp_path: Path) -> None:
    system = tmp_path / "etc-dcg"
    _write(system / "managed.toml", OFF.format(mode="lenient"))
    env = dict(os.environ, DCG_SYSTEM_DIR=str(system), DCG_CRITICAL_ALWAYS_HARD="false")
    said, specific, _ = hook("dcg session clear", env=env)
    assert (said, specific.get("responseLevel")) == ("deny", "hard_block")
