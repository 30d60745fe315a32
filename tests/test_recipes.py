"""docs/architecture.md matches the code: its paths and layers, and its four "how to add" recipes.

Each recipe names one or two places (a registry) where a new pack, wrapper, agent or
embedded language is added; these tests hold that those registries are the single
places: everything registered is found and works through the hook, and nothing that
should be registered is missing.
"""

from __future__ import annotations

import ast
import io
import json
import os
import re
from pathlib import Path

import pytest

from dcg import agents, cli, hook
from dcg.commands import _hooks
from dcg.embedded import LANGS, _runner
from dcg.engine import evaluate
from dcg.packs import CORE, REGISTRY, load
from dcg.packs._defaults import default_packs
from dcg.shell import parse
from dcg.shell.payloads import handler
from dcg.shell.wrappers import WRAPPERS

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "dcg"
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
GOLDEN = ROOT / "tests" / "golden" / "payloads"


def _claude(command: str) -> bytes:
    return json.dumps(
        {
            "session_id": "recipes",
            "cwd": "/home/dev/project",
            "hook_event_name": "PreToolUse",
            "permission_mode": "default",
            "tool_name": "Bash",
            "tool_input": {"command": command},
        }
    ).encode()


def _hook(stdin: bytes, **env: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    environ = dict(os.environ, DCG_RESPONSE_MODE="paranoid", DCG_HOOK_DETAILS="1", **env)
    code = hook.main([], io.BytesIO(stdin), out, err, environ)
    return code, out.getvalue(), err.getvalue()


def _denied(command: str, **env: str) -> str:
    """The rule id the hook (Claude Code protocol) denies ``command`` with."""
    code, out, _ = _hook(_claude(command), **env)
    assert code == 0 and out, f"the hook let {command!r} through"
    decision = json.loads(out)["hookSpecificOutput"]
    assert decision["permissionDecision"] == "deny"
    rule_id: str = decision["ruleId"]
    return rule_id


# ----- the page itself -----


def test_every_path_the_page_names_exists() -> None:
    names = set(re.findall(r"[\w/]+\.(?:py|md)\b", DOC)) - {"architecture.md"}
    assert names, "the page names no module"
    missing = []
    for name in sorted(names):
        if name.startswith(("tests/", "bench/", "docs/")):
            found = (ROOT / name).exists()
        elif "/" in name:
            found = (PACKAGE / name).exists()
        else:  # a module named inside its package's row
            found = any(PACKAGE.rglob(name))
        if not found:
            missing.append(name)
    assert not missing, f"docs/architecture.md names modules that do not exist: {missing}"


def _layers() -> list[list[str]]:
    paragraph = DOC[DOC.index("Imports go down these layers:") :].split("\n\n")[0]
    chain = paragraph.split(":", 1)[1].split(". ")[0]
    layers = []
    for layer in chain.split("→"):
        names = re.findall(r"`([\w/.]+)`", layer)
        layers.append(["dcg." + n.removesuffix(".py").replace("/", ".") for n in names])
    return layers


def _imports(path: Path, module: str) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("dcg"):
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("dcg"))
    return found - {module}


def test_imports_go_down_the_layers_the_page_draws() -> None:
    layers = _layers()
    assert len(layers) >= 8 and all(layers), layers

    def layer(module: str) -> int | None:
        best: tuple[int, int] | None = None
        for i, names in enumerate(layers):
            for name in names:
                if (module == name or module.startswith(name + ".")) and (
                    best is None or len(name) > best[1]
                ):
                    best = (i, len(name))
        return None if best is None else best[0]

    # The two upward edges the page names, neither a circle.
    allowed = {("dcg.model", "dcg.shell.command"), ("dcg.checks", "dcg.engine")}
    upward = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        here = layer(module)
        for target in _imports(path, module):
            there = layer(target)
            up = here is not None and there is not None and there < here
            if up and not any(module.startswith(a) and target.startswith(b) for a, b in allowed):
                upward.append(f"{module} -> {target}")
    assert not upward, f"imports against the layers of docs/architecture.md: {sorted(upward)}"


# ----- a pack: its module plus one line in packs/__init__.py -----


def _pack_modules() -> set[str]:
    found = set()
    for path in (PACKAGE / "packs").glob("*/*.py"):
        if not path.name.startswith("_"):
            found.add(f"{path.parent.name}.{path.stem}")
    return found


def test_every_pack_module_is_registered_and_every_registered_pack_loads() -> None:
    registered = {pack_id for pack_id, _ in REGISTRY}
    assert _pack_modules() == registered
    for pack_id in registered:
        assert load(pack_id).id == pack_id


@pytest.mark.parametrize("pack_id", [pack_id for pack_id, _ in REGISTRY])
def test_a_registered_pack_stops_its_first_example_through_the_hook(pack_id: str) -> None:
    pack = load(pack_id)
    example = next(e for rule in pack.rules for e in rule.blocks)
    rule_id = _denied(example, DCG_PACKS=pack_id)
    # Another pack may name the same command first (a GitHub Actions example is also a
    # `gh` deletion); it must then be one that is on anyway: core or a default pack.
    on_anyway = set(CORE) | set(default_packs(tuple(pid for pid, _ in REGISTRY)))
    assert rule_id.split(":")[0] in {pack_id} | on_anyway


# ----- a wrapper: one row in shell/wrappers.py TABLE (WRAPPERS) -----

WRAPPED = {
    "sudo": "sudo git reset --hard",
    "doas": "doas -u root git reset --hard",
    "env": "env FOO=1 git reset --hard",
    "command": "command git reset --hard",
    "builtin": "builtin git reset --hard",
    "exec": "exec git reset --hard",
    "nice": "nice -n 5 git reset --hard",
    "ionice": "ionice -c 3 git reset --hard",
    "timeout": "timeout 10 git reset --hard",
    "nohup": "nohup git reset --hard",
    "time": "time -p git reset --hard",
    "stdbuf": "stdbuf -oL git reset --hard",
    "setsid": "setsid git reset --hard",
    "xargs": "xargs -0 git reset --hard",
    "flock": "flock /tmp/lock git reset --hard",
    "script": "script -q -c 'git reset --hard' /dev/null",
    "busybox": "busybox git reset --hard",
    "chroot": "chroot /srv/root git reset --hard",
    "unbuffer": "unbuffer git reset --hard",
    "caffeinate": "caffeinate -i git reset --hard",
}


def test_every_wrapper_has_an_example_here() -> None:
    # Every example above is a row of the table; every row has a must-stop case in
    # tests/bypass/test_shell_bypass.py (WRAPPED), checked there through the hook.
    assert set(WRAPPED) <= set(WRAPPERS)


@pytest.mark.parametrize(("name", "line"), [pytest.param(n, w, id=n) for n, w in WRAPPED.items()])
def test_a_wrapper_in_the_table_is_unwrapped(name: str, line: str) -> None:
    wrapped = [c for c in parse(line) if c.argv == ("git", "reset", "--hard")]
    assert wrapped and any(v.split()[0] == name for v in wrapped[0].via), parse(line)
    assert _denied(line) == "core.git:reset-hard"


# ----- an agent: its module alone (AGENTS and detect() derive from it) -----


@pytest.mark.parametrize("name", agents.AGENTS)
def test_an_agent_in_the_registry_is_detected_and_answered(name: str) -> None:
    module = agents.adapter(name)
    # OUTPUT_FIELDS may be empty: Windsurf reads only the exit code and stderr.
    assert name == module.NAME and isinstance(module.OUTPUT_FIELDS, dict)
    assert all(callable(getattr(module, f)) for f in ("read", "render", "render_error"))
    raw = (GOLDEN / f"{name}.json").read_bytes()
    assert agents.detect(json.loads(raw)) == name
    code, out, err = _hook(raw)
    assert "core.git:reset-hard" in out + err, (code, out, err)


def test_the_cli_and_the_installer_use_the_one_agent_list() -> None:
    assert cli.AGENTS is agents.AGENTS and _hooks.AGENTS is agents.AGENTS
    assert set(_hooks.SPECS) == set(agents.AGENTS)
    modules = {p.stem for p in (PACKAGE / "agents").glob("*.py") if not p.stem.startswith("_")}
    assert modules == set(agents.AGENTS)
    # One golden payload per agent; a dialect of one (Copilot in VS Code) adds its own,
    # named "<agent>-<dialect>".
    payloads = {p.stem for p in GOLDEN.glob("*.json")}
    assert {name.split("-")[0] for name in payloads} == set(agents.AGENTS) <= payloads


@pytest.mark.parametrize("name", agents.AGENTS)
def test_every_agent_is_named_by_hook_help_and_protected(name: str) -> None:
    assert name in " ".join(hook.help_text().replace(",", " ").split())
    spec = agents.spec(name)
    relative, fixed = agents.protected_files()
    home_only = [p[2:] for p in fixed if p.startswith("~/")]
    for rel, places in ((spec.user_path, (*relative, *home_only)), (spec.project_path, relative)):
        if rel is not None:
            assert any(rel == p or (p.endswith("/") and rel.startswith(p)) for p in places)


# ----- an embedded language: its module plus LANGS, and a payloads.py handler -----

CODE = {
    "python": "python3 -c \"import shutil, os; shutil.rmtree(os.path.expanduser('~'))\"",
    "javascript": "node -e \"require('fs').rmSync(require('os').homedir(), {recursive: true})\"",
    "ruby": "ruby -e 'require \"fileutils\"; FileUtils.rm_rf(Dir.home)'",
    "perl": "perl -e 'use File::Path; remove_tree($ENV{HOME})'",
    "php": "php -r 'system(\"rm -rf ~\");'",
}


def test_every_language_module_is_registered_and_has_an_example_here() -> None:
    modules = {p.stem for p in (PACKAGE / "embedded").glob("*.py") if p.stem != "__init__"}
    # The language modules are those with an analyze(code, sink, depth) of their own.
    with_analyze = {
        m for m in modules if "\ndef analyze(" in (PACKAGE / "embedded" / f"{m}.py").read_text()
    }
    assert with_analyze == set(LANGS) == set(CODE)
    assert all(_runner(lang) is not None for lang in LANGS)


@pytest.mark.parametrize(("lang", "line"), [pytest.param(k, v, id=k) for k, v in CODE.items()])
def test_code_for_a_registered_language_is_analysed(lang: str, line: str) -> None:
    assert handler(line.split()[0]) is not None
    # Removing the home directory also removes dcg's own state (core.dcg:write-state).
    matches = {m.rule_id: m for m in evaluate(line, list(CORE)).matches}
    match = matches["core.filesystem:rm-rf-critical"]
    assert match.command.via[0].split()[0] == lang
    assert set(matches) <= {"core.filesystem:rm-rf-critical", "core.dcg:write-state"}
    assert _denied(line) == "core.filesystem:rm-rf-critical"


def _defined_names() -> set[str]:
    names: set[str] = set()
    # The package, and the test helper modules the recipe for must-stop tables names.
    helpers = [ROOT / "tests" / "hookpath.py", ROOT / "tests" / "sandbox.py"]
    for path in [*PACKAGE.rglob("*.py"), *helpers]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Assign):
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
    return names


def test_every_symbol_the_recipes_name_exists() -> None:
    """A recipe's registries, functions and classes are defined in src/dcg or the test
    helpers (a name that moved or was renamed makes the recipe lie)."""
    recipes = DOC[DOC.index("## Recipes") :]
    defined = _defined_names()
    wanted = set()
    for token in re.findall(r"`([^`]+)`", recipes):
        name = token.split("(")[0].strip()
        if re.fullmatch(r"[A-Za-z_]\w*", name) and not token.endswith("="):
            wanted.add(name)
    assert wanted >= {"WRAPPERS", "TABLE", "REGISTRY", "LANGS", "KEEP_KINDS", "COMMANDS"}
    missing = sorted(wanted - defined)
    assert not missing, f"docs/architecture.md's recipes name what does not exist: {missing}"
