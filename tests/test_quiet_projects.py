"""Issue 24, hook side: real projects' everyday commands are silent, and what they hide is
still stopped. Every case goes through the hook with each agent's payload (tests/hookpath)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookpath import AGENTS
from sandbox import hook_verdict

DATA = Path(__file__).resolve().parent / "data" / "quiet"
MONOREPO = DATA / "monorepo"  # pnpm + npm workspaces, a Makefile reaching them
DANGER = DATA / "danger"  # the same, with `rm -rf src` and `git reset --hard` in packages


SILENT_MONOREPO = [
    "pnpm run build",
    "pnpm build",
    "npm run build",
    "npm run dev",
    "npm run dev:docs",
    "npm run lint",
    "npm run lint:fix",
    "pnpm test",
    "npm test",
    "npm run test:ui",
    "npm run typecheck",
    "pnpm run clean",
    "npm run ci",
    "npm run release",
    "make test",
    "make build",
    "make lint",
    "make dev",
    "make clean",
    "pnpm -r run build",
    "pnpm --filter web dev",
    "npm run lint --workspaces",
    "yarn workspaces foreach -A run typecheck",
    "cd apps/web && npm run build",
]


@pytest.mark.parametrize("command", SILENT_MONOREPO)
def test_monorepo_everyday_commands_are_silent(command: str) -> None:
    level, text = hook_verdict(command, MONOREPO)
    assert level == "none", text


@pytest.mark.parametrize("agent", AGENTS)
def test_monorepo_build_silent_for_every_agent(agent: str) -> None:
    for command in ("pnpm run build", "npm run lint", "make test"):
        assert hook_verdict(command, MONOREPO, agent=agent)[0] == "none", (agent, command)


# A package's script that deletes its sources or discards work, reached every way a
# workspace run reaches it: still stopped, naming the rule.
STOPPED_IN_PACKAGE = [
    ("pnpm run clean", "core.filesystem:rm-rf"),
    ("make clean", "core.filesystem:rm-rf"),
    ("pnpm -r run clean", "core.filesystem:rm-rf"),
    ("pnpm --recursive clean", "core.filesystem:rm-rf"),
    ("pnpm --filter @acme/ui clean", "core.filesystem:rm-rf"),
    ("pnpm --filter=@acme/* run clean", "core.filesystem:rm-rf"),
    ("pnpm -F ./packages/ui run clean", "core.filesystem:rm-rf"),
    ("npm run clean -w @acme/ui", "core.filesystem:rm-rf"),
    ("npm run clean --workspace=packages/ui", "core.filesystem:rm-rf"),
    ("npm run clean --workspaces", "core.filesystem:rm-rf"),
    ("npm -ws run clean", "core.filesystem:rm-rf"),
    ("yarn workspaces foreach -A run clean", "core.filesystem:rm-rf"),
    ("yarn workspaces foreach --all clean", "core.filesystem:rm-rf"),
    ("yarn workspace @acme/ui clean", "core.filesystem:rm-rf"),
    ("npm run build", "core.filesystem:rm-rf"),  # ui's prebuild runs its clean
    ("pnpm test", "core.git:reset-hard"),
    ("npm -w web test", "core.git:reset-hard"),
    ("pnpm --filter=web test", "core.git:reset-hard"),
    ("cd apps/web && npm test", "core.git:reset-hard"),
]


@pytest.mark.parametrize(("command", "rule"), STOPPED_IN_PACKAGE)
def test_destruction_inside_a_workspace_package_is_stopped(command: str, rule: str) -> None:
    level, text = hook_verdict(command, DANGER)
    assert level == "deny", text
    assert rule in text


def test_a_filter_naming_another_package_does_not_read_it() -> None:
    assert hook_verdict("pnpm --filter docs test", DANGER)[0] == "none"


# The project's directory name: a clone named dcg (or under a path with spaces, or a
# folder named like an agent's hooks) costs and decides exactly what any other does.
@pytest.mark.parametrize("name", ["dcg", "with space/dcg", "dcg-fork/src", "my hooks/dcg"])
@pytest.mark.parametrize("agent", ["claude", "codex", "cursor"])
def test_cwd_name_does_not_reach_the_engine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, agent: str
) -> None:
    from dcg import hook

    project = tmp_path / name
    project.mkdir(parents=True)
    calls: list[str] = []
    real = hook.evaluate_request
    monkeypatch.setattr(
        hook, "evaluate_request", lambda r, c: calls.append(r.command) or real(r, c)
    )
    # (Not pytest: its conftest.py and tests are read before it runs, dcg.shell.pytestrun.)
    for command in ("ls -la", "wc -l README.md", "cat README.md"):
        assert hook_verdict(command, project, agent=agent)[0] == "none"
    assert calls == []  # not parsed: the cwd's name is not a keyword of the command
    level, text = hook_verdict("git reset --hard", project, agent=agent)
    assert level == "deny" and "core.git:reset-hard" in text


def test_explain_in_a_folder_named_dcg(tmp_path: Path) -> None:
    from dcg.engine import evaluate
    from dcg.packs import CORE

    for name in ("dcg", "with space/dcg"):
        here = tmp_path / name
        here.mkdir(parents=True)
        assert evaluate("ls -la", CORE, cwd=str(here)).considered == ()


def test_dcg_own_config_dir_still_judges_a_keyword_free_write(isolated_home: Path) -> None:
    from dcg.engine import own_cwd

    config = isolated_home / ".config" / "dcg"
    config.mkdir(parents=True)
    assert own_cwd(str(config))
    assert own_cwd(str(config / "sub"))
    assert not own_cwd(str(isolated_home / "work" / "dcg"))


DEVICE_IN_VARIABLE = [
    ("mkfs -t ${FSTYPE} ${DMDEV}", "deny"),
    ("mkfs.ext4 $DEV", "deny"),
    ('sudo mkfs.xfs -f "${DEVICE}"', "deny"),
    ("mkfs.ext4 ${DEV} 1024", "deny"),
    ('wipefs -a "$DEV"', "deny"),
    ("dd if=/dev/zero of=$DISK bs=1M", "deny"),
    ("mkswap $(losetup -f)", "deny"),
    ("mkfs.ext4 disk.img", "none"),
    ("dd if=$IN of=out.img", "none"),
    ("wipefs $DEV", "none"),
]


@pytest.mark.parametrize(("command", "expected"), DEVICE_IN_VARIABLE)
def test_device_in_a_variable_is_stopped_in_paranoid_mode(
    tmp_path: Path, command: str, expected: str
) -> None:
    level, text = hook_verdict(command, tmp_path)
    assert level == expected, text
    if expected == "deny":
        assert "system.disk:device-variable" in text


# Make's own functions are make's: $(foreach)/$(eval)/$(call)/$(info) are evaluated as
# make does before the shell sees the recipe; $(shell CMD) is judged as the shell's $(CMD).
MAKE = DATA / "make"
MAKE_CASES = [
    ("make test", None),
    ("make", None),
    ("make clean", None),
    ("make -C . test", None),
    ("make --no-print-directory clean", None),
    ("make nuke", "core.filesystem:rm-rf"),
    ("make nuke2", "core.filesystem:rm-rf"),
    ("make nuke3", "core.filesystem:rm-rf"),
    ("make nuke4", "core.filesystem:rm-rf"),
    ("make nuke5", "core.filesystem:rm-rf"),
    ("make test nuke", "core.filesystem:rm-rf"),
]


@pytest.mark.parametrize(("command", "rule"), MAKE_CASES)
def test_make_functions_are_make(command: str, rule: str | None) -> None:
    level, text = hook_verdict(command, MAKE)
    if rule is None:
        assert level == "none", text
    else:
        assert level == "deny" and rule in text, text


# A bound reached while reading a project's scripts: what was read is judged, the rest is
# said (dcg explain), and the build is not stopped for it. The fixture's scripts are small;
# the token bound is lowered so that they pass it (a real one is some 4,000 lines).
BOUNDS = DATA / "bounds"
BOUND_SILENT = [
    "bash scripts/build.sh",
    "sh scripts/build.sh",
    "./scripts/build.sh",
    "source scripts/build.sh",
    "npm run build",
    "pnpm build",
    "yarn build",
    "make build",
    "make -j4 build",
    "npm run build && echo done",
]
BOUND_STOPPED = [
    ("bash scripts/early.sh", "core.filesystem:rm-rf"),  # before the bound: read, judged
    ("npm run early", "core.filesystem:rm-rf"),
    ("make early", "core.filesystem:rm-rf"),
    ("bash scripts/build.sh; rm -rf src", "core.filesystem:rm-rf"),  # the line's own text
    ("npm run build && git reset --hard", "core.git:reset-hard"),
    # A guarded command hidden in what the bound leaves unread stops the line.
    ("bash scripts/padded.sh", "core.dcg:too-complex"),
    ("source scripts/padded.sh", "core.dcg:too-complex"),
    ("cd scripts && sh padded.sh", "core.dcg:too-complex"),
]


def _roomy_budget(home: Path) -> None:
    """These tests are about structural bounds and what is read; running out of CPU time
    is a stop of its own (test_time_running_out_while_reading_a_script_stops_the_line),
    which a cold first call on a loaded CI machine must not turn these into."""
    config = home / ".config" / "dcg"
    config.mkdir(parents=True, exist_ok=True)
    (config / "config.toml").write_text("[hook]\nbudget_ms = 1000\n")


@pytest.fixture
def low_bound(monkeypatch: pytest.MonkeyPatch, isolated_home: Path) -> None:
    from dcg.shell import limits

    monkeypatch.setattr(limits, "MAX_TOKENS", 2000)
    _roomy_budget(isolated_home)


@pytest.mark.parametrize("command", BOUND_SILENT)
def test_a_bound_reached_in_a_project_script_is_no_block(low_bound: None, command: str) -> None:
    level, text = hook_verdict(command, BOUNDS)
    assert level == "none", text


@pytest.mark.parametrize(("command", "rule"), BOUND_STOPPED)
def test_what_was_read_before_the_bound_is_judged(low_bound: None, command: str, rule: str) -> None:
    level, text = hook_verdict(command, BOUNDS)
    assert level == "deny" and rule in text, text


def test_the_whole_script_is_judged_within_the_bound(isolated_home: Path) -> None:
    _roomy_budget(isolated_home)
    level, text = hook_verdict("npm run padded", BOUNDS)
    assert level == "deny" and "core.filesystem:rm-rf" in text, text


def test_the_lines_own_text_past_the_bound_is_still_stopped(low_bound: None) -> None:
    line = "rm -rf src; " + " ".join(["echo a b c d e f g h;"] * 300)
    level, text = hook_verdict(line, BOUNDS)
    assert level == "deny" and "core.dcg:too-complex" in text, text


def test_explain_says_what_was_not_read(low_bound: None) -> None:
    from dcg.engine import evaluate
    from dcg.packs import CORE

    evaluation = evaluate("npm run build", CORE, cwd=str(BOUNDS), read_files=True)
    assert not evaluation.matches
    assert evaluation.unread and "scripts/build.sh" in evaluation.unread[0]
    assert "2000 tokens" in evaluation.unread[0]


# nvm: a library of functions sourced into the shell, then its dispatcher called. Only
# the branch of `case $COMMAND` the call takes is judged, and of each `if`/`&&`/`||` on
# values the call sets, the branch bash takes (tests/data/quiet/nvm/nvm.sh is a
# hand-written extract in nvm.sh's shape; it runs under bash).
NVM_SILENT = [
    "source ~/.nvm/nvm.sh && nvm use 20",
    ". ~/.nvm/nvm.sh; nvm use --lts",
    'export NVM_DIR="$HOME/.nvm"; [ -s "$NVM_DIR/nvm.sh" ] && . "$NVM_DIR/nvm.sh"; nvm use 20',
    "source ~/.nvm/nvm.sh && nvm install 20 && nvm use 20",
    "source ~/.nvm/nvm.sh && nvm use 20 && npm ci",
    "source ~/.nvm/nvm.sh && nvm ls",
    "source ~/.nvm/nvm.sh && nvm current",
    "source ~/.nvm/nvm.sh && nvm alias default 20",
    "source ~/.nvm/nvm.sh --no-use && nvm use 18",
    "source ~/.nvm/nvm.sh && nvm which 20",
    "source ~/.nvm/nvm.sh",
    "source $HOME/.nvm/nvm.sh && nvm use 20 && pnpm run build",
]
NVM_STOPPED = [
    ("source ~/.nvm/nvm.sh && nvm uninstall 18", "core.filesystem:rm-rf"),
    ("source ~/.nvm/nvm.sh && nvm cache clear", "core.filesystem:rm-rf"),
    ('source ~/.nvm/nvm.sh && nvm "$X"', "core.filesystem:rm-rf"),  # any branch may run
    ("source ~/.nvm/nvm.sh && nvm $(cat cmd)", "core.filesystem:rm-rf"),
    ("source ~/.nvm/nvm.sh && nvm use 20 && nvm uninstall 18", "core.filesystem:rm-rf"),
    ("source ~/.nvm/nvm.sh && nvm use 20 && rm -rf apps", "core.filesystem:rm-rf"),
    # the branches `nvm use` never takes (dcg.shell.conds), taken when called directly
    ("source ~/.nvm/nvm.sh && nvm_purge_cache --purge", "core.filesystem:rm-rf"),
    ("source ~/.nvm/nvm.sh && nvm_fetch_installer", "core.shell:opaque-exec"),
    ("source ~/.nvm/nvm.sh && nvm_reset_npm", "core.dcg:self-approve"),
]


@pytest.fixture
def nvm_home(isolated_home: Path) -> Path:
    nvm = isolated_home / ".nvm"
    nvm.mkdir()
    _roomy_budget(isolated_home)
    (nvm / "nvm.sh").write_text((DATA / "nvm" / "nvm.sh").read_text())
    return nvm


@pytest.mark.parametrize("command", NVM_SILENT)
def test_nvm_sourced_then_used_is_silent(nvm_home: Path, command: str) -> None:
    level, text = hook_verdict(command, MONOREPO)
    assert level == "none", text


@pytest.mark.parametrize(("command", "rule"), NVM_STOPPED)
def test_nvm_branches_that_delete_are_still_stopped(
    nvm_home: Path, command: str, rule: str
) -> None:
    level, text = hook_verdict(command, MONOREPO)
    assert level == "deny" and rule in text, text


# A case on a function's own arguments, spelled other ways: the branch taken decides.
TASKS = DATA / "tasks"  # tasks.sh: run() switches on its first argument
CASES = [
    ("bash tasks.sh build", "none"),
    ("bash tasks.sh compile x", "none"),
    ("bash tasks.sh lint", "none"),
    ("bash tasks.sh clean", "deny"),
    ("bash tasks.sh cl*", "deny"),
    ('bash tasks.sh "$TASK"', "deny"),
    ("bash tasks.sh $(echo clean)", "deny"),
    ("bash tasks.sh build; bash tasks.sh clean", "deny"),
    ("bash tasks.sh", "none"),
]


@pytest.mark.parametrize(("command", "expected"), CASES)
def test_a_case_on_the_arguments_judges_the_branch_taken(command: str, expected: str) -> None:
    level, text = hook_verdict(command, TASKS)
    assert level == expected, text


# A Python script's functions run when something names them: an rmtree in a function the
# program never reaches is not judged; reached by a call, a callback, a table, a thread, a
# decorator, a method or reflection, it is (tests/data/quiet/py).
PY = DATA / "py"
PY_CASES = [
    ("python clean.py", "none"),  # nuke() defined, main() called
    ("python3 clean.py", "none"),
    ("python clean7.py", "none"),  # rmtree("build") at top level: build output
    ("python clean2.py", "deny"),  # main() calls nuke()
    ("python clean3.py", "deny"),  # atexit.register(nuke)
    ("python clean4.py build", "deny"),  # {"clean": nuke}[argv[1]]()
    ("python clean5.py nuke", "deny"),  # getattr(module, name)
    ("python clean6.py", "deny"),  # a method: judged
    ("python clean8.py", "deny"),  # decorated: a framework calls it
    ("python clean9.py", "deny"),  # Thread(target=nuke)
    ("python clean10.py", "deny"),  # a nested function returned and called
    ("python -c 'import shutil\ndef f(): shutil.rmtree(\"src\")\nprint(1)'", "none"),
    ("python -c 'import shutil\ndef f(): shutil.rmtree(\"src\")\nf()'", "deny"),
]


@pytest.mark.parametrize(("command", "expected"), PY_CASES)
def test_python_functions_are_judged_when_reached(command: str, expected: str) -> None:
    level, text = hook_verdict(command, PY)
    assert level == expected, text
    if expected == "deny":
        assert "core.filesystem:rm-rf" in text


def test_time_running_out_while_reading_a_script_stops_the_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Running out of time is not a structural bound: the line is stopped (decisions.md 6
    and 10.7), never waved through with the rest of the script unread."""
    import time

    from dcg import engine
    from dcg.packs import CORE
    from dcg.shell import TooComplex, limits

    monkeypatch.setattr(limits, "EARN_CAP", 0.0)  # the script earns no time here
    with pytest.raises(TooComplex):
        engine.evaluate(
            "npm run early && git reset --hard",
            CORE,
            cwd=str(BOUNDS),
            deadline=time.thread_time() + 0.0005,
            read_files=True,
        )


def test_a_script_padded_past_the_budget_is_judged_whole(isolated_home: Path) -> None:
    """An agent-written script padded to tens of KiB with its deletion at the end: the
    file earns the line time (10 ms per KiB), so the deletion is found, not timed out."""
    project = isolated_home / "proj"  # in HOME: never a temp directory
    (project / "src").mkdir(parents=True)
    (project / "job.sh").write_text("echo step\n" * 6000 + "rm -rf src\n")  # about 60 KiB
    for command in ("bash job.sh", "sh ./job.sh", "source job.sh"):
        level, text = hook_verdict(command, project)
        assert level == "deny", (command, text)
        assert "core.filesystem:rm-rf" in text or "core.dcg:too-complex" in text, text


def test_a_script_padded_past_the_token_bound_is_stopped(
    isolated_home: Path, low_bound: None
) -> None:
    """Past a structural bound the unread rest of a script is judged by its keywords: a
    deletion hidden behind padding is stopped, a long harmless tail is not."""
    project = isolated_home / "proj"
    (project / "src").mkdir(parents=True)
    (project / "job.sh").write_text("echo a b c d e f g h\n" * 600 + "rm -rf src\n")
    (project / "ok.sh").write_text("rm -rf build\n" + "echo a b c d e f g h\n" * 600)
    level, text = hook_verdict("bash job.sh", project)
    assert level == "deny" and "core.dcg:too-complex" in text, text
    level, text = hook_verdict("bash ok.sh", project)
    assert level == "none", text
