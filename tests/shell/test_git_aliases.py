"""Git aliases and safety settings from every place git reads them, through the hook.

Aliases come from the repository's ``.git/config``, the user's ``~/.gitconfig`` and
``$XDG_CONFIG_HOME/git/config``, the files those include (``include.path``, every
``includeIf``), ``git config`` earlier on the line, ``-c``, ``--config-env``,
``GIT_CONFIG_COUNT``/``GIT_CONFIG_KEY_n``/``GIT_CONFIG_VALUE_n`` and
``GIT_CONFIG_PARAMETERS``. Every must-stop case goes through ``dcg.hook.main`` with each
agent's real payload; every case (stop and pass) also runs in real bash in a throwaway
repository whose config holds the same aliases (HOME, XDG_CONFIG_HOME, TMPDIR and cwd in
the sandbox; the remote is a local bare repository), proving that each must-stop case
loses work and each must-pass case does not. ``proof`` says how: ``sandbox`` for all.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import hookpath
from dcg.shell import gitconfig

H, M = "high", "medium"

REPO_CONFIG = r"""
[alias]
	undo = reset --hard
	wipe = "!git clean -fdx"
	nuke = "!f() { git reset --hard \"$@\"; }; f"
	st = status
	lg = log --oneline
	chain = undo
	esc = "reset \
--hard"
	cmt = reset --hard ; a comment
	tabbed = "reset\t--hard"
	status = reset --hard
	log = clean -fdx
	[include]
	path = ../extra.gitconfig
"""
REPO_EXTRA = """[alias]
	gone = update-ref -d
	scrub = !git stash clear
"""
USER_CONFIG = """[alias]
	co = checkout
	discard = checkout -- .
	DropAll = stash clear
	zap = branch -D
	pf = push --force-with-lease
[include]
	path = ~/.config/git/extra
[includeIf "gitdir:**/repo/"]
	path = cond.gitconfig
"""
XDG_CONFIG = """[Alias]
	rh = reset --hard
	sw = switch --discard-changes
	wt = worktree list
"""
XDG_EXTRA = """[alias]
	rs = restore .
	fclean = clean -f
"""
COND_CONFIG = """[alias]
	killremote = push origin --delete feature
	sweep = clean -fd
"""

# (command, rule id, severity, what the sandbox shows lost)
STOP = [
    # the repository's own config, and what it includes
    pytest.param("git undo", "core.git:reset-hard", H, "modified", id="repo-alias"),
    pytest.param("git undo HEAD", "core.git:reset-hard", H, "modified", id="repo-alias-arg"),
    pytest.param("git UNDO", "core.git:reset-hard", H, "modified", id="repo-alias-case"),
    pytest.param("git wipe", "core.git:clean-force", H, "untracked", id="repo-shell-alias"),
    pytest.param("git nuke", "core.git:reset-hard", H, "modified", id="repo-shell-function"),
    pytest.param("git chain", "core.git:reset-hard", H, "modified", id="alias-of-alias"),
    pytest.param("git esc", "core.git:reset-hard", H, "modified", id="continued-value"),
    pytest.param("git cmt", "core.git:reset-hard", H, "modified", id="value-comment"),
    pytest.param("git tabbed", "core.git:reset-hard", H, "modified", id="escaped-tab"),
    pytest.param(
        "git gone refs/heads/feature",
        "core.git:update-ref-delete",
        H,
        "feature",
        id="included-alias",
    ),
    pytest.param("git scrub", "core.git:stash-clear", H, "stash", id="included-shell-alias"),
    pytest.param("git -C . undo", "core.git:reset-hard", H, "modified", id="alias-after-C"),
    pytest.param("cd . && git undo", "core.git:reset-hard", H, "modified", id="alias-after-cd"),
    pytest.param("git --no-pager undo", "core.git:reset-hard", H, "modified", id="after-flag"),
    pytest.param("sudo -n true; git undo", "core.git:reset-hard", H, "modified", id="later"),
    pytest.param("bash -c 'git undo'", "core.git:reset-hard", H, "modified", id="bash-c"),
    pytest.param("env git wipe", "core.git:clean-force", H, "untracked", id="env-wrapper"),
    # the user's config files and their includes
    pytest.param("git discard", "core.git:checkout-discard", H, "modified", id="user-alias"),
    pytest.param("git dropall", "core.git:stash-clear", H, "stash", id="user-alias-case"),
    pytest.param(
        "git zap feature", "core.git:branch-force-delete", M, "feature", id="user-alias-branch"
    ),
    pytest.param("git rh", "core.git:reset-hard", H, "modified", id="xdg-alias"),
    pytest.param("git sw main", "core.git:switch-discard", H, "modified", id="xdg-switch"),
    pytest.param("git rs", "core.git:restore-worktree", H, "modified", id="user-include"),
    pytest.param("git fclean", "core.git:clean-force", H, "untracked", id="user-include-2"),
    pytest.param("git killremote", "core.git:push-delete", H, "remote", id="include-if"),
    pytest.param("git sweep", "core.git:clean-force", H, "untracked", id="include-if-2"),
    # set on the same line
    pytest.param(
        "git config alias.oops 'reset --hard' && git oops",
        "core.git:reset-hard",
        H,
        "modified",
        id="config-then-run",
    ),
    pytest.param(
        "git config --local alias.oops 'clean -fdx'; git oops",
        "core.git:clean-force",
        H,
        "untracked",
        id="config-local",
    ),
    pytest.param(
        "git config --replace-all alias.oops 'stash clear'; git oops",
        "core.git:stash-clear",
        H,
        "stash",
        id="config-set",
    ),
    pytest.param(
        "git config alias.oops '!git reset --hard' && git oops",
        "core.git:reset-hard",
        H,
        "modified",
        id="config-shell-alias",
    ),
    pytest.param(
        "git config clean.requireForce false && git clean -d",
        "core.git:clean-force",
        H,
        "untracked",
        id="config-require-force",
    ),
    pytest.param(
        "git config alias.a undo && git a",
        "core.git:reset-hard",
        H,
        "modified",
        id="config-alias-of-file-alias",
    ),
    pytest.param(
        "git -c alias.oops='reset --hard' oops", "core.git:reset-hard", H, "modified", id="dash-c"
    ),
    pytest.param(
        "git -c Alias.Oops='reset --hard' oops",
        "core.git:reset-hard",
        H,
        "modified",
        id="dash-c-case",
    ),
    pytest.param(
        "git -c alias.a=b -c alias.b='stash clear' a",
        "core.git:stash-clear",
        H,
        "stash",
        id="dash-c-chain",
    ),
    pytest.param(
        "git -c alias.oops='-c clean.requireForce=false clean' oops",
        "core.git:clean-force",
        H,
        "untracked",
        id="alias-with-dash-c",
    ),
    pytest.param(
        "git -c alias.oops=\"!sh -c 'git stash clear'\" oops",
        "core.git:stash-clear",
        H,
        "stash",
        id="shell-alias-sh-c",
    ),
    pytest.param(
        "X='reset --hard' git --config-env=alias.oops=X oops",
        "core.git:reset-hard",
        H,
        "modified",
        id="config-env",
    ),
    pytest.param(
        "export X='clean -fd'; git --config-env alias.oops=X oops",
        "core.git:clean-force",
        H,
        "untracked",
        id="config-env-exported",
    ),
    pytest.param(
        "F=false git --config-env=clean.requireForce=F clean",
        "core.git:clean-force",
        H,
        "untracked",
        id="config-env-require-force",
    ),
    pytest.param(
        "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.oops GIT_CONFIG_VALUE_0='reset --hard' git oops",
        "core.git:reset-hard",
        H,
        "modified",
        id="config-count",
    ),
    pytest.param(
        "GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=x "
        "GIT_CONFIG_KEY_1=alias.oops GIT_CONFIG_VALUE_1='stash clear' git oops",
        "core.git:stash-clear",
        H,
        "stash",
        id="config-count-second",
    ),
    pytest.param(
        "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=clean.requireForce GIT_CONFIG_VALUE_0=0 git clean",
        "core.git:clean-force",
        H,
        "untracked",
        id="config-count-force",
    ),
    pytest.param(
        "export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.oops "
        "GIT_CONFIG_VALUE_0='reset --hard'; git oops",
        "core.git:reset-hard",
        H,
        "modified",
        id="config-count-exported",
    ),
    pytest.param(
        "env GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.oops "
        "GIT_CONFIG_VALUE_0='clean -fdx' git oops",
        "core.git:clean-force",
        H,
        "untracked",
        id="config-count-env",
    ),
    pytest.param(
        "GIT_CONFIG_PARAMETERS=\"'alias.oops'='reset --hard'\" git oops",
        "core.git:reset-hard",
        H,
        "modified",
        id="config-parameters",
    ),
    pytest.param(
        "GIT_CONFIG_PARAMETERS=\"'clean.requireforce'='false'\" git clean -x",
        "core.git:clean-force",
        H,
        "untracked",
        id="config-parameters-force",
    ),
    pytest.param(
        'git config alias.oops "$(echo reset --hard)" && git oops',
        "core.git:reset-hard",
        H,
        "modified",
        id="config-substitution",
    ),
]
STOP_CASES = [p.values for p in STOP]

# Harmless with the same config (proven in the sandbox too).
PASS = [
    pytest.param("git st", id="st"),
    pytest.param("git lg -3", id="lg"),
    pytest.param("git co main", id="co"),
    pytest.param("git pf origin main", id="pf-with-lease"),
    pytest.param("git wt", id="wt"),
    pytest.param("git status", id="builtin-shadowed-by-alias"),
    pytest.param("git log -1", id="builtin-log-shadowed"),
    pytest.param("git config --get alias.undo", id="config-get"),
    pytest.param("git config get alias.undo", id="config-get-new"),
    pytest.param("git config --get-regexp '^alias\\.'", id="config-get-regexp"),
    pytest.param("git config --list", id="config-list"),
    pytest.param("git config alias.s status && git s", id="harmless-alias-on-line"),
    pytest.param("git -c alias.s=status s", id="harmless-dash-c"),
    pytest.param("git -c alias.l='log --oneline' l -2", id="harmless-dash-c-log"),
    pytest.param("git config alias.x 'reset --hard'", id="define-only"),
    pytest.param("git -c alias.undo=status undo", id="command-line-wins"),
    pytest.param("git -c clean.requireForce=true clean", id="require-force-true"),
    pytest.param("git clean -n", id="clean-dry-run"),
    pytest.param("git clean -nd", id="clean-dry-run-glued"),
    pytest.param(
        "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.s GIT_CONFIG_VALUE_0=status git s",
        id="config-count-harmless",
    ),
    pytest.param("X=status git --config-env=alias.s=X s", id="config-env-harmless"),
    pytest.param("git unknowncmd", id="unknown-command"),
    pytest.param("git help undo", id="help-alias"),
    pytest.param("echo git undo", id="echoed"),
    pytest.param("git log --grep=undo -1", id="grep-word"),
    pytest.param("git commit --allow-empty -m 'git undo'", id="message"),
]

# Where the sandbox writes the config files (repo = the repository's worktree).
_FILES = {
    "repo/.git/config+": REPO_CONFIG,
    "repo/extra.gitconfig": REPO_EXTRA,
    "home/.gitconfig": USER_CONFIG,
    "home/.config/git/config": XDG_CONFIG,
    "home/.config/git/extra": XDG_EXTRA,
    "home/cond.gitconfig": COND_CONFIG,
}


def _write_config(base: Path) -> None:
    for name, text in _FILES.items():
        path = base / name.rstrip("+")
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a" if name.endswith("+") else "w") as f:
            f.write(text)


@pytest.fixture
def world(isolated_home: Path, tmp_path: Path) -> Path:
    """A repository and a home holding the config files; HOME is the isolated home."""
    base = tmp_path / "world"
    (base / "repo" / ".git").mkdir(parents=True)
    _write_config(base)
    for name in ("home/.gitconfig", "home/cond.gitconfig"):
        shutil.copy(base / name, isolated_home / Path(name).name)
    (isolated_home / ".config" / "git").mkdir(parents=True)
    for name in ("config", "extra"):
        shutil.copy(base / "home/.config/git" / name, isolated_home / ".config/git" / name)
    return base / "repo"


@pytest.fixture(autouse=True)
def _generous_budget(isolated_home: Path) -> None:
    """Agreement, not speed, is measured here: a cold first call on a loaded machine must
    not blow the hook's time budget (which stops a safe line as too complex)."""
    config = Path(os.environ["XDG_CONFIG_HOME"]) / "dcg" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("[hook]\nbudget_ms = 20000\n")


def _env() -> dict[str, str]:
    return dict(os.environ, DCG_RESPONSE_MODE="paranoid", DCG_HOOK_DETAILS="1")


@pytest.mark.parametrize("agent", hookpath.AGENTS)
def test_every_stop_case_is_stopped_for_every_agent(agent: str, world: Path) -> None:
    missed = []
    for command, _rule, _severity, _ in STOP_CASES:
        body = hookpath.payload(agent, command, cwd=str(world))
        code, out, err = hookpath.run(hookpath.encode(body), env=_env())
        if hookpath.verdict(code, out, err) != "deny":
            missed.append(command)
    assert not missed


@pytest.mark.parametrize(("command", "rule", "severity", "lost"), STOP)
def test_stop_case_rule_and_severity(command: str, rule: str, severity: str, lost: str,
                                     world: Path) -> None:  # fmt: skip
    import json

    body = hookpath.payload("claude", command, cwd=str(world))
    _code, out, _err = hookpath.run(hookpath.encode(body), env=_env())
    reply = json.loads(out)["hookSpecificOutput"]
    assert (reply["permissionDecision"], reply["ruleId"], reply["severity"]) == (
        "deny",
        rule,
        severity,
    )


@pytest.mark.parametrize("agent", hookpath.AGENTS)
def test_pass_cases_pass_for_every_agent(agent: str, world: Path) -> None:
    stopped = []
    for param in PASS:
        command = param.values[0]
        body = hookpath.payload(agent, command, cwd=str(world))
        code, out, err = hookpath.run(hookpath.encode(body), env=_env())
        if hookpath.verdict(code, out, err) != "none":
            stopped.append(command)
    assert not stopped


def test_config_files_are_read_once_per_line(world: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every git command reads the config files (a setting on disk may run a command:
    core.fsmonitor set in an earlier call); a line of many git commands reads each file
    once, so the cost stays that of one."""
    reads: list[str] = []
    real = gitconfig._read

    def spy(path: str) -> str | None:
        reads.append(path)
        return real(path)

    monkeypatch.setattr(gitconfig, "_read", spy)
    line = "git status; git log; git fetch && git clean -n; git diff | cat"
    hookpath.run(hookpath.encode(hookpath.payload("claude", line, str(world))), env=_env())
    assert reads, "the config files are read"
    assert len(reads) == len(set(reads)), sorted(reads)


def test_config_syntax() -> None:
    text = (
        '[core]\n\tpager = less\n[Alias]\n\tA = "x \\"y\\"" ; c\n\tb = one \\\n two\n'
        '[alias "Sub"]\n\tk = v\n[alias.legacy]\n\tk = w\n[x] flag\n# c\n; c\n'
        '\tbad line!\n[alias] t = "\\tq\\n" # c\n'
    )
    assert gitconfig.parse(text) == [
        ("core.pager", "less"),
        ("alias.a", 'x "y"'),
        ("alias.b", "one  two"),
        ("alias.Sub.k", "v"),
        ("alias.legacy.k", "w"),
        ("x.flag", "true"),
        ("alias.t", "\tq\n"),
    ]


def test_includes_are_bounded(tmp_path: Path) -> None:
    loop = tmp_path / "a.cfg"
    loop.write_text(f"[include]\n\tpath = {loop}\n[alias]\n\tx = status\n")
    assert gitconfig.load([str(loop)], str(tmp_path)) == [
        ("include.path", str(loop)),
        ("alias.x", "status"),
    ]
    chain = [tmp_path / f"c{k}.cfg" for k in range(40)]
    for k, path in enumerate(chain[:-1]):
        path.write_text(f"[include]\n\tpath = c{k + 1}.cfg\n")
    chain[-1].write_text("[alias]\n\tdeep = reset --hard\n")
    assert ("alias.deep", "reset --hard") not in gitconfig.load([str(chain[0])], str(tmp_path))


# --- sandbox: real git, real bash ------------------------------------------------------

GIT = shutil.which("git")
BASH = shutil.which("bash")

_SETUP = """
set -e
git init -q --bare remote.git
git init -q -b main repo && cd repo
git config user.email t@example.com && git config user.name t
echo a > tracked.txt && git add tracked.txt && git commit -qm A
git checkout -qb feature && echo f > f.txt && git add f.txt && git commit -qm F
git checkout -q main && echo b >> tracked.txt && git commit -qam B
git remote add origin ../remote.git && git push -q origin main feature
echo s > s.txt && git add s.txt && git stash -q
echo local-edit >> tracked.txt && echo new > untracked.txt
"""
_STATE = """
cd repo
grep -q local-edit tracked.txt 2>/dev/null && echo modified
test -e untracked.txt && echo untracked
git stash list | grep -q . && echo stash
git rev-parse -q --verify refs/heads/feature >/dev/null && echo feature
git --git-dir=../remote.git rev-parse -q --verify refs/heads/feature >/dev/null && echo remote
true
"""
ALL = {"modified", "untracked", "stash", "feature", "remote"}


def _sandbox(tmp_path: Path, command: str) -> set[str]:
    base = tmp_path / "sandbox"
    home = base / "home"
    home.mkdir(parents=True)
    env = {"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"), "TMPDIR": str(base),
           "PATH": os.environ["PATH"], "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C"}  # fmt: skip
    run = [BASH or "bash", "-c"]
    subprocess.run([*run, _SETUP], cwd=base, env=env, check=True, capture_output=True)
    _write_config(base)
    before = subprocess.run([*run, _STATE], cwd=base, env=env, capture_output=True, text=True)
    assert set(before.stdout.split()) == ALL
    subprocess.run([*run, command], cwd=base / "repo", env=env, capture_output=True, timeout=60)
    after = subprocess.run([*run, _STATE], cwd=base, env=env, capture_output=True, text=True)
    return ALL - set(after.stdout.split())


needs_git = pytest.mark.skipif(GIT is None or BASH is None, reason="git and bash needed")


@needs_git
@pytest.mark.parametrize(("command", "rule", "severity", "lost"), STOP)
def test_sandbox_stop_case_loses_work(
    tmp_path: Path, command: str, rule: str, severity: str, lost: str
) -> None:
    assert lost in _sandbox(tmp_path, command)


@needs_git
@pytest.mark.parametrize("command", PASS)
def test_sandbox_pass_case_is_harmless(tmp_path: Path, command: str) -> None:
    assert _sandbox(tmp_path, command) == set()


@needs_git
def test_linked_worktree_reads_the_main_repository_config(tmp_path: Path) -> None:
    """A worktree's ``.git`` file names its git dir, whose ``commondir`` holds the config."""
    main, linked = tmp_path / "main", tmp_path / "linked"
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1")
    for args in (["init", "-q", str(main)], ["-C", str(main), "commit", "-q", "--allow-empty",
                 "-m", "x"], ["-C", str(main), "config", "alias.undo", "reset --hard"],
                 ["-C", str(main), "worktree", "add", "-q", str(linked)]):  # fmt: skip
        subprocess.run([GIT or "git", "-c", "user.name=t", "-c", "user.email=t@e", *args],
                       env=env, check=True, capture_output=True)  # fmt: skip
    assert (linked / ".git").is_file()
    body = hookpath.payload("claude", "git undo", cwd=str(linked / "."))
    code, out, err = hookpath.run(hookpath.encode(body), env=_env())
    assert hookpath.verdict(code, out, err) == "deny"
    body = hookpath.payload("claude", "git undo", cwd=str(tmp_path))
    code, out, err = hookpath.run(hookpath.encode(body), env=_env())
    assert hookpath.verdict(code, out, err) == "none"
