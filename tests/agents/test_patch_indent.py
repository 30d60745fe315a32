"""An ``apply_patch`` header with white space before it names its file all the same.

Codex's parser (and Copilot's and OpenCode's, which take its envelope) accepts
``" *** Delete File: …"`` and ``"\\t*** Add File: …"``: dcg read only headers at the very
start of a line, so such a patch unhooked dcg or wrote its state with no stop. Through the
hook, with each agent's real payload shape (tests/golden/payloads).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hookpath import GOLDEN, run, verdict

INDENTS = [" ", "\t", "  \t ", "\u00a0"]
# (header, protected path under HOME, rule)
TARGETS = [
    ("Delete File", ".codex/hooks.json", "core.dcg:edit-hooks"),
    ("Add File", ".config/dcg/allowlist.toml", "core.dcg:write-state"),
    ("Update File", ".claude/settings.json", "core.dcg:edit-hooks"),
]


def _patch(indent: str, head: str, path: str) -> str:
    return f"*** Begin Patch\n{indent}*** {head}: {path}\n+x\n*** End Patch\n"


def _golden(name: str) -> dict[str, object]:
    body = json.loads((GOLDEN / "payloads" / f"{name}.json").read_text())
    assert isinstance(body, dict)
    return body


def _payload(agent: str, patch: str, cwd: str) -> dict[str, object]:
    if agent == "codex":
        body = _golden("codex")
        body.update(cwd=cwd, tool_name="apply_patch", tool_input={"command": patch})
        return body
    if agent == "copilot":
        body = _golden("copilot-apply_patch")
        body.update(cwd=cwd, toolArgs=patch)
        return body
    body = _golden("opencode-apply_patch")
    body.update(cwd=cwd, args={"patchText": patch})
    return body


def _answer(body: dict[str, object]) -> tuple[str, str]:
    env = dict(os.environ, DCG_RESPONSE_MODE="paranoid", DCG_HOOK_DETAILS="1")
    code, out, err = run(json.dumps(body).encode(), env=env)
    return verdict(code, out, err), out + err


@pytest.mark.parametrize("agent", ["codex", "copilot", "opencode"])
@pytest.mark.parametrize("indent", INDENTS, ids=repr)
@pytest.mark.parametrize(("head", "rel", "rule"), TARGETS)
def test_indented_patch_header_is_judged(
    isolated_home: Path, agent: str, indent: str, head: str, rel: str, rule: str
) -> None:
    body = _payload(agent, _patch(indent, head, f"{isolated_home}/{rel}"), str(isolated_home))
    answer, text = _answer(body)
    assert answer == "deny", (agent, text)
    assert rule in text, (agent, text)


@pytest.mark.parametrize("agent", ["codex", "copilot", "opencode"])
def test_indented_patch_of_a_project_file_passes(isolated_home: Path, agent: str) -> None:
    body = _payload(agent, _patch("  ", "Update File", "src/app.py"), str(isolated_home))
    assert _answer(body)[0] == "none"
