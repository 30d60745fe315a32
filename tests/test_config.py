"""Configuration layers, their order, what a repository may set, and how problems are reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from dcg import config
from dcg.packs import CORE


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def user_config(text: str) -> Path:
    return _write(Path.home() / ".config" / "dcg" / "config.toml", text)


def test_defaults_without_any_file(tmp_path: Path) -> None:
    cfg = config.load(str(tmp_path), {})
    assert cfg.packs == list(CORE)
    assert cfg.response["mode"] == "standard"
    assert (cfg.response["session_threshold"], cfg.response["history_threshold"]) == (2, 5)
    assert cfg.response["history_window"] == 86400
    assert cfg.history["max_age"] == 30 * 86400 and cfg.history["max_entries"] == 10000
    assert cfg.problems == [] and cfg.sources == []


def test_layers_in_order(tmp_path: Path) -> None:
    import os

    system = _write(Path(os.environ["DCG_SYSTEM_CONFIG"]), '[response]\nmode = "lenient"\n')
    user_config('[response]\nmode = "strict"\nsession_threshold = 3\n')
    explicit = _write(tmp_path / "explicit.toml", "[response]\nsession_threshold = 4\n")
    env = {"DCG_CONFIG": str(explicit)}
    cfg = config.load(str(tmp_path), env)
    assert cfg.sources == [str(system), str(Path.home() / ".config/dcg/config.toml"), str(explicit)]
    assert (cfg.response["mode"], cfg.response["session_threshold"]) == ("strict", 4)
    env["DCG_RESPONSE_MODE"] = "paranoid"
    env["DCG_SESSION_THRESHOLD"] = "6"
    cfg = config.load(str(tmp_path), env)
    assert (cfg.response["mode"], cfg.response["session_threshold"]) == ("paranoid", 6)
    cfg = config.load(str(tmp_path), env, {"mode": "standard", "session_threshold": 9})
    assert (cfg.response["mode"], cfg.response["session_threshold"]) == ("standard", 9)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param("false", False, id="false"),
        pytest.param("0", False, id="zero"),
        pytest.param("true", True, id="true"),
    ],
)
def test_critical_always_hard_from_environment(value: str, expected: bool) -> None:
    cfg = config.load(None, {"DCG_CRITICAL_ALWAYS_HARD": value})
    assert cfg.response["critical_always_hard"] is expected


@pytest.mark.parametrize(
    ("selectors", "included", "excluded"),
    [
        pytest.param(
            "database", ["database.postgresql", "database.redis"], ["cloud.aws"], id="category"
        ),
        pytest.param(
            "cloud.aws,kubernetes", ["cloud.aws", "kubernetes.helm"], ["cloud.gcp"], id="mixed"
        ),
        pytest.param("all", ["strict.git", "payment.stripe"], [], id="all"),
    ],
)
def test_dcg_packs_enables_by_id_or_category(
    selectors: str, included: list[str], excluded: list[str]
) -> None:
    cfg = config.load(None, {"DCG_PACKS": selectors})
    assert set(CORE) <= set(cfg.packs)
    assert set(included) <= set(cfg.packs)
    assert not set(excluded) & set(cfg.packs)


def test_core_packs_cannot_be_disabled() -> None:
    user_config('[packs]\nenabled = ["database"]\ndisabled = ["core.git", "database.redis"]\n')
    cfg = config.load(None, {})
    assert "core.git" in cfg.packs and "database.redis" not in cfg.packs
    assert "database.mysql" in cfg.packs


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        pytest.param("[respones]\nmode = 'strict'\n", "did you mean 'response'", id="section-typo"),
        pytest.param("[response]\nmdoe = 'strict'\n", "did you mean 'mode'", id="key-typo"),
        pytest.param("[response]\nmode = 'relaxed'\n", "response.mode must be one of", id="choice"),
        pytest.param("[response]\nhistory_window = 'soon'\n", "invalid duration", id="duration"),
        pytest.param("[response]\nsession_threshold = 0\n", "positive integer", id="threshold"),
        pytest.param("[packs]\nenabled = ['databse']\n", "did you mean 'database'", id="pack-typo"),
        pytest.param("[response\n", "cannot read config", id="bad-toml"),
    ],
)
def test_problems_are_reported_with_a_suggestion(text: str, problem: str) -> None:
    user_config(text)
    cfg = config.load(None, {})
    assert any(problem in p for p in cfg.problems), cfg.problems
    # A bad value never replaces a good one, except where dcg cannot tell which mode was
    # meant: an unreadable file or mode is read the strictest way (decisions.md 10.5).
    strictest = problem in ("response.mode must be one of", "cannot read config")
    assert cfg.response["mode"] == ("paranoid" if strictest else "standard")


def test_repository_config_may_only_tighten(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _write(
        repo / ".dcg.toml",
        '[packs]\nenabled = ["containers"]\ndisabled = ["core.git"]\n'
        '[response]\nmode = "lenient"\n[history]\nmax_entries = 5\n',
    )
    cfg = config.load(str(repo / "src" / "deep"), {})
    assert "containers.docker" in cfg.packs and "core.git" in cfg.packs
    assert cfg.response["mode"] == "standard" and cfg.history["max_entries"] == 10000
    ignored = [p for p in cfg.problems if "a repository config may only enable packs" in p]
    assert {p.split("ignoring ")[1].split(":")[0] for p in ignored} == {
        "packs.disabled",
        "response.mode",
        "history.max_entries",
    }
    assert all(str(repo / ".dcg.toml") in p for p in ignored)


def test_confirm_requires_tty_only_from_user_or_system_config(tmp_path: Path) -> None:
    explicit = _write(tmp_path / "x.toml", "[response]\nconfirm_requires_tty = false\n")
    cfg = config.load(None, {"DCG_CONFIG": str(explicit)})
    assert cfg.response["confirm_requires_tty"] is True
    user_config("[response]\nconfirm_requires_tty = false\n")
    assert config.load(None, {}).response["confirm_requires_tty"] is False


def test_missing_explicit_config_is_reported(tmp_path: Path) -> None:
    cfg = config.load(None, {"DCG_CONFIG": str(tmp_path / "nope.toml")})
    assert any("does not exist" in p for p in cfg.problems)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("90s", 90), ("30m", 1800), ("24h", 86400), ("7d", 604800), ("2w", 1209600), ("60", 60)],
)
def test_durations(text: str, seconds: int) -> None:
    assert config.parse_duration(text) == seconds


def test_per_pack_modes() -> None:
    user_config(
        '[response.packs."database"]\nmode = "paranoid"\n'
        '[response.packs."core.git:push-force"]\nmode = "strict"\n'
    )
    cfg = config.load(None, {})
    assert cfg.response["packs"] == {"database": "paranoid", "core.git:push-force": "strict"}
