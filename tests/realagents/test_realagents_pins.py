"""The agent versions the README says were run for real are the ones the tests install."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
README = HERE.parents[1] / "README.md"

# npm package -> the name the README's "Proven with the real agent" part gives it.
AGENTS = {
    "@anthropic-ai/claude-code": "Claude Code",
    "@openai/codex": "Codex",
    "@google/gemini-cli": "Gemini CLI",
    "@qwen-code/qwen-code": "Qwen Code",
    "opencode-ai": "OpenCode",
}


def _pins() -> dict[str, str]:
    pins: dict[str, str] = json.loads((HERE / "package.json").read_text())["dependencies"]
    return pins


def _proven() -> str:
    text = README.read_text()
    start = text.index("### Proven with the real agent")
    return text[start : text.index("\n### ", start + 1)]


def test_every_pinned_package_is_an_agent_the_readme_names() -> None:
    assert set(_pins()) == set(AGENTS)


@pytest.mark.parametrize("package", sorted(AGENTS))
def test_pin_is_exact_locked_and_in_the_readme(package: str) -> None:
    version = _pins()[package]
    assert re.fullmatch(r"\d+\.\d+\.\d+", version), f"{package} {version}: pin one version"
    lock = json.loads((HERE / "package-lock.json").read_text())
    assert lock["packages"][f"node_modules/{package}"]["version"] == version
    assert f"**{AGENTS[package]} {version}**" in _proven()
