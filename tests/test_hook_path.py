"""Every table of the suite through the hook: what the engine stops, the hook stops too.

The engine-level tests prove what each case should get; these prove that the path agents
use gets the same answer: each agent's real payload, the command on a later line, after
a tab, after CRLF, after a comment, in a heredoc or ``bash -c``, JSON with and without
``ensure_ascii``. A case the engine stops and the hook lets through fails the build.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hookpath
from dcg import hook
from dcg.packs import all_ids, load

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
SHARED_CORPUS = ROOT.parent / "shared" / "corpus"


def _module(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"_hookpath_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _param_commands(path: Path) -> list[str]:
    """The command lines of a test module's module-level ``pytest.param`` tables."""
    module = _module(path)
    found: list[str] = []
    for value in vars(module).values():
        if not isinstance(value, list):
            continue
        for item in value:
            values = getattr(item, "values", None)
            if isinstance(values, tuple) and values and isinstance(values[0], str):
                found.append(values[0])
    return found


Case = tuple[str, str]  # (command, shell)


def _rule_examples() -> list[Case]:
    return [
        (example, "bash")
        for pack_id in all_ids()
        for rule in load(pack_id).rules
        for example in (*rule.blocks, *rule.allows)
    ]


def _shared_corpus() -> list[Case]:
    if not SHARED_CORPUS.exists():
        return []
    corpus = _module(TESTS / "packs" / "test_corpus.py")
    return [
        (command, "bash")
        for name in ("pack_destructive.yaml", "pack_safe.yaml")
        for commands in corpus._load(name).values()
        for command in commands
    ]


def _trial_sets() -> list[Case]:
    trial = _module(ROOT / "bench" / "trial.py")
    return [
        (case.command, case.shell)
        for path in sorted((ROOT / "bench" / "trial").glob("*.tsv"))
        for case in trial.read_corpus(path)
    ]


def _shell_tables() -> list[Case]:
    paths = sorted((TESTS / "shell").glob("test_*.py"))
    skip = {"test_parse_properties.py", "test_parse_vs_treesitter.py"}
    return [
        (command, "bash")
        for path in paths
        if path.name not in skip and "powershell" not in path.name
        for command in _param_commands(path)
    ]


def _powershell_tables() -> list[Case]:
    return [
        (command, "powershell")
        for path in sorted(TESTS.rglob("test_powershell*.py"))
        for command in _param_commands(path)
    ]


SOURCES = {
    "rule-examples": _rule_examples,
    "shared-corpus": _shared_corpus,
    "trial-sets": _trial_sets,
    "shell-tables": _shell_tables,
    "powershell-tables": _powershell_tables,
}
_cache: dict[str, list[Case]] = {}


def cases(source: str) -> list[Case]:
    if source not in _cache:
        _cache[source] = list(dict.fromkeys(SOURCES[source]()))
    return _cache[source]


def all_cases() -> list[Case]:
    return [case for source in SOURCES for case in cases(source)]


def _powershell_payload(agent: str, command: str, cwd: str) -> dict[str, object]:
    body = hookpath.payload("claude", command, cwd)
    body["tool_name"] = "PowerShell"
    return body


def _body(agent: str, command: str, shell: str, cwd: str) -> dict[str, object]:
    if shell == "powershell":
        return _powershell_payload(agent, command, cwd)
    return hookpath.payload(agent, command, cwd)


def _variants(shell: str) -> dict[str, object]:
    if shell == "powershell":
        return {"plain": hookpath.VARIANTS["plain"]}
    return dict(hookpath.VARIANTS)


@pytest.fixture
def project(isolated_home: Path) -> str:
    path = isolated_home / "src" / "app"
    path.mkdir(parents=True)
    return str(path)


def test_every_source_has_cases() -> None:
    for source in SOURCES:
        if source == "shared-corpus" and not SHARED_CORPUS.exists():
            continue
        assert len(cases(source)) > 20, source


@pytest.mark.parametrize("source", list(SOURCES))
def test_prefilter_passes_every_command_the_engine_stops(source: str, project: str) -> None:
    """Point 1 of the hook-integrity issue, exhaustively: every case, variant, agent, encoding."""
    misses: list[str] = []
    for command, shell in cases(source):
        for name, variant in _variants(shell).items():
            line = variant(command)  # type: ignore[operator]
            if not hookpath.engine(line, project, shell).matches:
                continue
            for agent in hookpath.AGENTS if shell == "bash" else ("claude",):
                body = _body(agent, line, shell, project)
                for ensure_ascii in (True, False):
                    text = hookpath.encode(body, ensure_ascii).decode("utf-8", "surrogateescape")
                    if not hook.needs_engine(text):
                        misses.append(f"{agent}/{name}/ascii={ensure_ascii}: {line!r}")
    assert not misses, f"{len(misses)} payloads skipped by the prefilter:\n" + "\n".join(
        misses[:40]
    )


_JUNK = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",)) | st.sampled_from("\n\t\r\\\"'"),
    max_size=12,
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    case=st.sampled_from(sorted({c for c in all_cases() if c[1] == "bash"})),
    agent=st.sampled_from(hookpath.AGENTS),
    variant=st.sampled_from(sorted(hookpath.VARIANTS)),
    before=_JUNK,
    ensure_ascii=st.booleans(),
)
def test_prefilter_is_sound_on_generated_payloads(
    case: Case, agent: str, variant: str, before: str, ensure_ascii: bool
) -> None:
    """Point 1 as a property: arbitrary text before a case never hides it from the prefilter."""
    line = hookpath.VARIANTS[variant](before + "\n" + case[0])
    if not hookpath.engine(line, "/home/dev/project").matches:
        return
    text = hookpath.encode(hookpath.payload(agent, line, "/home/dev/project"), ensure_ascii)
    assert hook.needs_engine(text.decode("utf-8", "surrogateescape")), (agent, line)


def _hook_disagreements(
    items: list[tuple[int, Case]], project: str, env: dict[str, str]
) -> Iterator[str]:
    agents = hookpath.AGENTS
    names = sorted(hookpath.VARIANTS)
    for i, (command, shell) in items:
        # Every case in Claude Code's plain payload, and once more in another agent's
        # payload and another variant, rotating so that every pair is covered.
        runs = [("claude", "plain")]
        if shell == "bash":
            runs.append((agents[i % len(agents)], names[i % len(names)]))
        for agent, name in runs:
            line = hookpath.VARIANTS[name](command)
            evaluation = hookpath.engine(line, project, shell)
            body = _body(agent, line, shell, project)
            code, out, err = hookpath.run(hookpath.encode(body, i % 2 == 0), env=env)
            got = hookpath.verdict(code, out, err)
            want = "deny" if evaluation.matches else "none"
            if got != want:
                yield f"{agent}/{name}: engine {want}, hook {got}: {line!r}"
            elif want == "deny" and agent == "claude":
                top = evaluation.matches[0].rule_id
                if top not in out + err:
                    yield f"{agent}/{name}: hook reply does not name {top}: {line!r}"


@pytest.mark.parametrize("source", list(SOURCES))
def test_hook_answers_as_the_engine_decides(source: str, project: str) -> None:
    """Point 2: every table through ``dcg hook`` with real JSON, in paranoid mode."""
    env = hookpath.packs_env("paranoid")
    items = list(enumerate(cases(source)))
    problems = list(_hook_disagreements(items, project, env))
    assert not problems, f"{len(problems)} disagreements:\n" + "\n".join(problems[:40])


def _subprocess_verdict(exe: str, body: dict[str, object], env: dict[str, str]) -> str:
    proc = subprocess.run(
        [exe, "hook"],
        input=json.dumps(body).encode(),
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert b"Traceback" not in proc.stderr, proc.stderr.decode()
    return hookpath.verdict(proc.returncode, proc.stdout.decode(), proc.stderr.decode())


@pytest.mark.skipif(not SHARED_CORPUS.exists(), reason="shared corpus not present")
def test_installed_hook_over_the_shared_corpus(dcg_exe: str, project: str) -> None:
    """The installed ``dcg hook`` as a subprocess, the way agents run it, over the corpus."""
    env = hookpath.packs_env("paranoid")
    corpus = cases("shared-corpus")
    bodies = [hookpath.payload("claude", command, project) for command, _ in corpus]
    with ThreadPoolExecutor(max_workers=min(4, (os.cpu_count() or 1) * 2)) as pool:
        verdicts = list(pool.map(lambda b: _subprocess_verdict(dcg_exe, b, env), bodies))
    problems = []
    for (command, _), got in zip(corpus, verdicts, strict=True):
        want = "deny" if hookpath.engine(command, project).matches else "none"
        if got != want:
            problems.append(f"engine {want}, installed hook {got}: {command!r}")
    assert not problems, "\n".join(problems)


# --- the hook as a process, fuzzed (point 8) ---------------------------------------------

_SHELLISH = st.text(
    alphabet=st.sampled_from(list("abcdfghikmorstx -/'\"\\$`(){}|&;<>*~\n\t\r=."))
    | st.characters(),
    max_size=60,
)
_WORDS = st.sampled_from(
    ["git reset --hard", "rm -rf ~", "dcg confirm 1a2b", "bash -c", "python3 -c", "<<EOF", "$("]
)
_COMMANDS = st.lists(_SHELLISH | _WORDS, max_size=6).map(" ".join)
_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=10,
)


@st.composite
def _payloads(draw: st.DrawFn) -> bytes:
    agent = draw(st.sampled_from(hookpath.AGENTS))
    body = hookpath.payload(agent, draw(_COMMANDS))
    for _ in range(draw(st.integers(0, 2))):
        key = draw(st.sampled_from([*body, "tool_input", "cwd", "extra"]))
        body[key] = draw(_JSON_VALUES)
    data = hookpath.encode(body, draw(st.booleans()))
    cut = draw(st.integers(0, 3))
    if cut == 1:  # truncated
        data = data[: draw(st.integers(0, len(data)))]
    elif cut == 2:  # garbage bytes inside
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.binary(max_size=8)) + data[at:]
    return data


def _check_reply(code: int, out: str, err: str) -> None:
    assert code in (0, 2), code
    assert "Traceback" not in out + err
    if out.strip():
        assert isinstance(json.loads(out), dict)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=_payloads(), args=st.sampled_from([[], ["--agent", "claude"], ["--agent", "nope"]]))
def test_fuzzed_payloads_get_a_well_formed_answer(data: bytes, args: list[str]) -> None:
    import time

    start = time.monotonic()
    _check_reply(*hookpath.run(data, args))
    assert time.monotonic() - start < 5


def test_fuzzed_payloads_through_the_installed_hook(dcg_exe: str) -> None:
    """A bounded sample of the generated payloads, run as agents run dcg: a fresh process."""
    samples: list[bytes] = []

    @settings(max_examples=40, deadline=None, database=None)
    @given(data=_payloads())
    def collect(data: bytes) -> None:
        samples.append(data)

    collect()

    def one(data: bytes) -> tuple[int, str, str]:
        proc = subprocess.run(
            [dcg_exe, "hook"], input=data, capture_output=True, timeout=30, check=False
        )
        return proc.returncode, proc.stdout.decode(), proc.stderr.decode(errors="replace")

    with ThreadPoolExecutor(max_workers=4) as pool:
        for reply in pool.map(one, samples):
            _check_reply(*reply)
