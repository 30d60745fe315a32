"""The README's examples are real: output blocks are regenerated here and compared.

An output block in README.md is preceded by ``<!-- output: NAME -->``; ``EXAMPLES`` says
how to produce it. When the product's output changes, the test fails; after checking the
change is intended, ``DCG_UPDATE_README=1 pytest tests/test_readme.py`` rewrites the
blocks. The configuration block, the agents' snippets and the commands table are checked
against the code the same way.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from dcg import cli, config
from dcg.commands import _hooks
from dcg.decision import decide

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BLOCK = re.compile(r"<!-- output: (?P<name>[\w-]+) -->\n```(?P<lang>\w*)\n(?P<body>.*?)```", re.S)
# The sample approval code the README shows; real ones are random.
SAMPLE_CODE = "9b2e"


def _exe() -> str:
    exe = Path(sys.executable).parent / "dcg"
    return str(exe) if exe.exists() else "dcg"


def _dcg(*args: str, stdin: str = "", env: dict[str, str] | None = None) -> tuple[int, str]:
    proc = subprocess.run(
        [_exe(), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, **(env or {})},
    )
    return proc.returncode, proc.stdout


def dcg_test_reset_hard() -> str:
    code, out = _dcg("test", "git reset --hard")
    assert code == 1, "the README says `dcg test 'git reset --hard'` exits 1"
    return out


def claude_hard_block() -> str:
    """The fifth `git reset --hard` of a Claude Code session (standard mode)."""
    payload = json.dumps(
        {
            "session_id": "readme",
            "cwd": "/home/me/project",
            "hook_event_name": "PreToolUse",
            "permission_mode": "default",
            "tool_name": "Bash",
            "tool_input": {"command": "git reset --hard"},
        }
    )
    out = ""
    for _ in range(5):
        code, out = _dcg("hook", stdin=payload, env={"DCG_HOOK_DETAILS": "1"})
        assert code == 0
    doc = json.loads(out)
    hso = doc["hookSpecificOutput"]
    assert hso["permissionDecision"] == "deny"
    text = json.dumps(doc, indent=2, ensure_ascii=False)
    real = hso.get("allowOnceCode") or re.search(r"(?:allow-once |Code: )(\w{4})", text).group(1)  # type: ignore[union-attr]
    return text.replace(real, SAMPLE_CODE) + "\n"


def graduation_curves() -> str:
    """Levels of occurrences 1-6 in a fresh session, a human confirming each soft block."""
    short = {"warning": "WARN", "soft_block": "SOFT", "hard_block": "HARD"}
    lines = ["occurrence in a session:  " + "     ".join(["1", "2", "3", "4", "5", "6+"])]
    for mode in ("paranoid", "strict", "standard", "lenient"):
        acknowledged = False
        cells = []
        for n in range(1, 7):
            level, _ = decide(mode, n, n, 2, 5, "high", acknowledged=acknowledged)
            acknowledged = acknowledged or level == "soft_block"
            cells.append(short[level])
        label = f"{mode}{' (default)' if mode == 'standard' else ''}:"
        tail = " …" if mode == "lenient" else ""
        lines.append(f"{label:<26}" + "  ".join(cells) + tail)
    return "\n".join(lines) + "\n"


EXAMPLES: dict[str, Callable[[], str]] = {
    "dcg-test-reset-hard": dcg_test_reset_hard,
    "claude-hard-block": claude_hard_block,
    "graduation-curves": graduation_curves,
}


def _blocks() -> dict[str, str]:
    return {m["name"]: m["body"] for m in BLOCK.finditer(README.read_text(encoding="utf-8"))}


def test_every_output_block_has_a_generator() -> None:
    assert set(_blocks()) == set(EXAMPLES)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_readme_example_is_the_real_output(name: str) -> None:
    real = EXAMPLES[name]()
    if os.environ.get("DCG_UPDATE_README") == "1":
        text = README.read_text(encoding="utf-8")

        def swap(m: re.Match[str]) -> str:
            if m["name"] != name:
                return m[0]
            return f"<!-- output: {name} -->\n```{m['lang']}\n{real}```"

        README.write_text(BLOCK.sub(swap, text), encoding="utf-8")
    assert _blocks()[name] == real, (
        f"README.md's {name!r} example is not what dcg prints; if the change is intended, "
        "run DCG_UPDATE_README=1 pytest tests/test_readme.py"
    )


def _fenced(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_configuration_block_is_the_defaults() -> None:
    """Every key of the README's full configuration block, in its section, as defaulted."""
    full = [b for b in _fenced("toml") if "[response]" in b and "[hook]" in b]
    assert len(full) == 1
    doc = tomllib.loads(full[0])
    for section, defaults in config.SECTIONS.items():
        documented = dict(doc[section])
        documented.pop("packs", None)  # the per-pack mode example
        assert documented == defaults, f"README [{section}] differs from config.py"
    assert doc["response"]["packs"] == {"database": {"mode": "paranoid"}}


def _agent_sections() -> dict[str, str]:
    text = README.read_text(encoding="utf-8")
    titles = {
        "claude": "### Claude Code",
        "codex": "### OpenAI Codex CLI",
        "gemini": "### Gemini CLI",
        "copilot": "### GitHub Copilot CLI",
        "cursor": "### Cursor",
        "windsurf": "### Windsurf (Cascade)",
    }
    out = {}
    for agent, title in titles.items():
        body = text.split(title, 1)[1].split("\n### ", 1)[0]
        out[agent] = re.search(r"```json\n(.*?)```", body, re.S).group(1)  # type: ignore[union-attr]
    return out


@pytest.mark.parametrize("agent", sorted(_agent_sections()))
def test_agent_snippet_is_what_install_writes(agent: str) -> None:
    shown = json.loads(_agent_sections()[agent])
    assert shown == json.loads(_hooks.snippet(agent, _hooks.hook_command(agent, "dcg")))


def test_opencode_plugin_paths_are_what_install_writes() -> None:
    text = README.read_text(encoding="utf-8")
    spec = _hooks.SPECS["opencode"]
    assert f"`~/{spec.user_path}`" in text and f"`{spec.project_path}`" in text


def _commands_table() -> list[str]:
    """Every `dcg …` code span in the first column of the README's commands table."""
    text = README.read_text(encoding="utf-8").split("## Commands", 1)[1].split("\n## ", 1)[0]
    usages = []
    for line in text.splitlines():
        if line.startswith("| `dcg"):
            first = re.split(r"(?<!\\)\|", line)[1]
            usages += re.findall(r"`(dcg [^`]*)`", first)
    return usages


def _words(spec: dict[str, list[str]], usage: str) -> tuple[str, list[str], list[str]]:
    """The subcommand path a usage names, its flags, and its literal words (like ``clear``)."""
    # shlex turns ``a\\|b`` into one word ``a|b``: alternatives of one place in the usage.
    words = shlex.split(usage.replace("…", " "))[1:]
    path = ""
    flags: list[str] = []
    literals: list[str] = []
    after_flag = False
    for raw in words:
        alternatives = raw.strip("[]").split("|")
        if alternatives[0].startswith("-"):
            for w in alternatives:
                flags += re.findall(r"--[\w-]+", w)
            after_flag = True
            continue
        for w in alternatives:
            key = f"{path} {w}".strip()
            if key in spec:
                path = key
            elif re.fullmatch(r"[a-z][a-z-]*", w) and not after_flag:
                literals.append(w)
        after_flag = False
    return path, flags, literals


@pytest.mark.parametrize("usage", _commands_table())
def test_commands_table_names_real_commands_and_flags(usage: str) -> None:
    spec = cli.completion_spec(cli.build_parser())
    path, flags, literals = _words(spec, usage)
    assert path, f"README names a command dcg does not have: {usage}"
    known = set(spec[path]) | set(spec[""])
    assert set(flags) <= known, f"{usage}: {sorted(set(flags) - known)} not accepted"
    assert set(literals) <= known, f"{usage}: {sorted(set(literals) - known)} not accepted"
