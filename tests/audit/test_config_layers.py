"""`dcg config` names the layer of every value and marks what the managed policy fixed."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from dcg import paths


@pytest.fixture
def layers(isolated_home: Path, tmp_path: Path) -> Path:
    """One value from each layer; returns the repository to run `dcg config` in."""
    user = Path(paths.user_config())
    user.parent.mkdir(parents=True)
    user.write_text(
        '[response]\nmode = "lenient"\nsession_threshold = 9\n[history]\nmax_entries = 500\n'
        '[audit]\nendpoint = "http://127.0.0.1:9"\n'
    )
    system = Path(paths.system_config())
    system.parent.mkdir(parents=True)
    system.write_text(
        '[hook]\nbudget_ms = 300\n[audit]\nendpoint = "https://otel.example:4318"\n'
        'headers = { Authorization = "Bearer s3cret-token" }\n'
    )
    explicit = tmp_path / "explicit.toml"
    explicit.write_text('[response]\nhigh_minimum_level = "soft_block"\n')
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / ".dcg.toml").write_text('[packs]\nenabled = ["strict.git"]\n')
    return repo


def _config(repo: Path, *args: str, managed: str | None = None) -> dict[str, dict[str, object]]:
    env = dict(
        os.environ,
        DCG_SYSTEM_DIR=str(Path(paths.system_config()).parent),
        DCG_CONFIG=str(repo.parent / "explicit.toml"),
        DCG_HISTORY_THRESHOLD="4",
    )
    if managed is not None:
        (Path(paths.system_config()).parent / "managed.toml").write_text(managed)
    proc = subprocess.run(
        ["dcg", *args, "config", "--json"], cwd=repo, env=env, capture_output=True, text=True
    )
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    return {str(r["key"]): r for r in json.loads(proc.stdout)["settings"]}


def test_each_value_names_its_layer(
    dcg_exe: str, layers: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", f"{Path(dcg_exe).parent}{os.pathsep}{os.environ['PATH']}")
    rows = _config(layers, "--mode", "strict")
    got = {k: (r["layer"], r["fixed"]) for k, r in rows.items()}
    assert got["response.mode"] == ("flag", None)
    assert got["response.session_threshold"] == ("user config", None)
    assert got["response.history_threshold"] == ("environment", None)
    assert got["response.high_minimum_level"] == ("DCG_CONFIG file", None)
    assert got["response.history_window"] == ("default", None)
    assert got["history.max_entries"] == ("user config", None)
    assert got["hook.budget_ms"] == ("system config", None)
    assert got["audit.endpoint"] == ("system config", None)  # the user's is ignored
    assert rows["audit.endpoint"]["value"] == '"https://otel.example:4318"'
    assert rows["audit.headers"]["value"] == '["Authorization"]'  # never the credential
    assert got["packs.enabled"] == ("repository", None)
    assert "strict.git" in str(rows["packs.enabled"]["value"])
    assert not any(r["fixed"] for r in rows.values())


def test_what_the_managed_policy_fixed_is_marked(
    dcg_exe: str, layers: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", f"{Path(dcg_exe).parent}{os.pathsep}{os.environ['PATH']}")
    managed = (
        '[response]\nmode = "paranoid"\nsession_threshold = 3\nhistory_threshold = 8\n'
        '[packs]\nenabled = ["database.postgresql"]\n[allowlist]\nuser = false\n'
    )
    rows = _config(layers, "--mode", "lenient", managed=managed)
    got = {k: (r["layer"], r["fixed"], r["value"]) for k, r in rows.items()}
    assert got["response.mode"] == ("managed policy", "at least paranoid", '"paranoid"')
    assert got["response.session_threshold"] == ("managed policy", "at most 3", "3")
    # A ceiling the user's choice is already under: the value stays the user's, and is marked.
    assert got["response.history_threshold"] == ("environment", "at most 8", "4")
    assert got["allowlist.user"][:2] == (
        "managed policy",
        "false (user allowlist entries are ignored)",
    )
    assert rows["packs.enabled"]["fixed"] == "database.postgresql"
    assert got["history.max_entries"] == ("user config", None, "500")
    # The human table shows the same.
    env = dict(os.environ, DCG_SYSTEM_DIR=str(Path(paths.system_config()).parent))
    table = subprocess.run(
        ["dcg", "config"], cwd=layers, env=env, capture_output=True, text=True, check=True
    ).stdout
    assert "fixed: at least paranoid" in table and "managed policy" in table
