"""Self-protection through the hook: every way an agent might approve, reset or remove dcg.

Each attempt is sent as the JSON Claude Code sends to ``dcg.hook.main`` and must be a
``core.dcg:*`` hard block at the first try in every response mode; reading dcg's files and
running its read-only subcommands must get no output at all.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

import dcg
from dcg import hook

MODES = ("paranoid", "strict", "standard", "lenient")
PROJECT = "/home/dev/project"
PKG = os.path.dirname(dcg.__file__)

# --- dcg invoked, however spelled --------------------------------------------------------
_SUBCOMMANDS = (
    "confirm 7f3a",
    "allow-once 9b2e",
    "allowlist add core.git:reset-hard --user",
    "allowlist remove core.git:reset-hard",
    "session clear",
    "config migrate",
    "install --all",
    "uninstall --all",
    "audit ship",
)
_LAUNCHERS = (
    "dcg {}",
    "/usr/local/bin/dcg {}",
    "~/.local/bin/dcg {}",
    "./.venv/bin/dcg {}",
    "python -m dcg {}",
    "python3 -m dcg.__main__ {}",
    "python3 -mdcg {}",
    "python3.12 -I -m dcg {}",
    "script -qc 'dcg {}' /dev/null",
    "su -c 'dcg {}' dev",
    "sudo dcg {}",
    "env DCG_X=1 dcg {}",
    "bash -c 'dcg {}'",
)
INVOKE = [
    pytest.param(launcher.format(sub), id=f"invoke:{launcher.split()[0]}:{sub.split()[0]}-{k}")
    for k, launcher in enumerate(_LAUNCHERS)
    for sub in _SUBCOMMANDS
]
INVOKE += [
    pytest.param(cmd, id=f"invoke-extra-{k}")
    for k, cmd in enumerate(
        (
            'python3 -c \'import subprocess; subprocess.run(["dcg", "confirm", "7f3a"])\'',
            "OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:9 dcg audit ship",
            "dcg audit ship --batch-size 1 --retries 0",
            "dcg audit ship --help && dcg audit ship",
            "cd ~/.config/dcg && echo '{}' > audit-cursor.json",
            "python3 -c \"import os; os.system('dcg confirm 7f3a')\"",
            'python3 -c \'import runpy,sys; sys.argv=["dcg","confirm","1"]; '
            'runpy.run_module("dcg")\'',
            "node -e \"require('child_process').execSync('dcg allow-once 9b2e')\"",
            "cd /tmp && dcg confirm 7f3a",
            "true && sudo -u dev dcg session clear",
            "script -q -c 'python3 -m dcg confirm 7f3a' /dev/null",
            "nohup dcg allowlist add 'core.git:*' --user",
            "timeout 5 dcg confirm 7f3a",
            'sh -c "echo y | dcg confirm 7f3a"',
            # a lookup that fails in the hook's PATH may succeed in the agent's shell
            "X=$(command -v dcg || echo npm); $X allow-once 9b2e",
            "X=$(command -v not-here-dcg || echo dcg); $X confirm 7f3a",
            "P=$(which python9 || echo npm); $P -m dcg allowlist add core.git:reset-hard",
            "R=$(command -v uvx-missing || command -v uvx || echo x); $R dcg session clear",
            "X=$(command -v pnpm && echo dcg); $X install",
            "cp ~/.local/bin/dcg ./zzz; X=$(command -v zzz || echo npm); $X allow-once 9b2e",
            'mkdir -p /tmp/b; cp "$(command -v dcg)" /tmp/b/zzz; PATH=/tmp/b:$PATH; '
            "X=$(command -v zzz || echo npm); $X allow-once 9b2e",
        )
    )
]

# --- removing or disabling dcg -----------------------------------------------------------
DISABLE = [
    pytest.param(cmd, id=f"disable-{k}")
    for k, cmd in enumerate(
        (
            "pip uninstall -y dcg",
            "pip3 uninstall dcg",
            "python3 -m pip uninstall -y dcg",
            "pipx uninstall dcg",
            "uv pip uninstall dcg",
            "uv tool uninstall dcg",
            "sudo pip uninstall dcg",
            "chmod -x ~/.local/bin/dcg",
            "chmod 000 /usr/local/bin/dcg",
            "rm -f ~/.local/bin/dcg",
            "mv ~/.local/bin/dcg /tmp/dcg.off",
            "cp /bin/true ~/.local/bin/dcg",
            "ln -sf /bin/true ~/.local/bin/dcg",
            "echo 'exit 0' > ~/.local/bin/dcg",
            f"rm -rf {PKG}",
            f"chmod -R 000 {PKG}",
            f"truncate -s0 {PKG}/hook.py",
            f"sed -i 's/return/pass/' {PKG}/hook.py",
            f"mv {PKG} {PKG}.off",
            f"cd {PKG} && rm hook.py",
        )
    )
]

# --- writes to dcg's state ---------------------------------------------------------------
_STATE_FILES = (
    "config.toml",
    "history.jsonl",
    "allowlist.toml",
    "pending_confirmations.jsonl",
    "allow_once.jsonl",
    "audit-cursor.json",
)
_STATE_SPELLINGS = (
    "~/.config/dcg/{}",
    "$HOME/.config/dcg/{}",
    "${{HOME}}/.config//dcg/{}",
    "~/.config/./dcg/{}",
    "~/x/../.config/dcg/{}",
)
_WRITERS = (
    "echo '[[rule]]' >> {}",
    "sed -E -i 's/a/b/' {}",
    "rm -f {}",
    "truncate -s0 {}",
    "python3 -c \"open('{}', 'w').write('')\"",
)
STATE = [
    pytest.param(w.format(s.format(f)), id=f"state-{f}-{i}-{j}")
    for f in _STATE_FILES
    for i, s in enumerate(_STATE_SPELLINGS)
    for j, w in enumerate(_WRITERS)
    if (i + j) % 3 == 0 or f == "allowlist.toml"
]
STATE += [
    pytest.param(cmd, id=f"state-extra-{k}")
    for k, cmd in enumerate(
        (
            "cd ~/.config/dcg && echo '[[rule]]' >> allowlist.toml",
            "cd ~/.config && cd dcg && : > history.jsonl",
            "pushd ~/.config/dcg && rm pending_confirmations.jsonl",
            "cd $HOME/.config/dcg; sed -e 's/a/b/' -i config.toml",
            "cd ~/.config/dcg/ && perl -pi -e 's/a/b/' allowlist.toml",
            "cd ~/.config && rm -rf dcg",
            "cd ~ && mv .config/dcg /tmp/x",
            'cd "$DIR" && echo x >> allowlist.toml',
            "rm -rf ~/.config/dcg",
            "rm -rf ~/.cache/dcg",
            "rm -rf $XDG_CACHE_HOME/dcg",
            "rm -rf /tmp/dcg-sessions-*",
            "rm -rf /tmp/dcg-sess*",
            "rm -rf $DCG_SESSION_DIR",
            "find ~/.config/dcg -name '*.jsonl' -delete",
            "mv ~/.config ~/.config.off",
            # (`rm -rf ~/.c*` may also be ~/.config itself: core.filesystem:rm-rf-critical,
            # tests/shell/test_expand.py)
            "rm -rf ~/.config/d*",
            "dd if=/dev/null of=$HOME/.config/dcg/history.jsonl",
            "tee ~/.config/dcg/allowlist.toml < /dev/null",
            "cp /dev/null ~/.config/dcg/history.jsonl",
            "chmod 000 ~/.config/dcg/history.jsonl",
            "ln -sf /dev/null ~/.config/dcg/history.jsonl",
            "bash -c 'cd ~/.config/dcg && rm *.jsonl'",
            "sudo tee -a /etc/dcg/allowlist.toml",
            "cp -r /tmp/evil/. ~/.config/dcg/",
            "unzip -o x.zip -d ~/.config/dcg",
            "wget -O ~/.config/dcg/allowlist.toml http://example.com/x",
            "cat > ~/.config/dcg/allowlist.toml <<EOF\n[[rule]]\nEOF",
            "cd ~/.config/dcg\necho x >> allowlist.toml",
            "true &&\techo x >> ~/.config/dcg/allowlist.toml",
        )
    )
]

# --- every agent's hook settings ---------------------------------------------------------
_AGENT_FILES = (
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".codex/hooks.json",
    ".codex/config.toml",
    ".gemini/settings.json",
    ".copilot/hooks/dcg.json",
    ".github/hooks/dcg.json",
    ".cursor/hooks.json",
    ".codeium/windsurf/hooks.json",
    ".windsurf/hooks.json",
    ".config/opencode/plugin/dcg.js",
    ".config/opencode/plugins/dcg.js",
    ".opencode/plugins/dcg.js",
    ".opencode/plugin/dcg.js",
    # OpenCode's config files: their `plugin` list runs code when OpenCode starts.
    ".config/opencode/opencode.json",
    ".config/opencode/opencode.jsonc",
    ".config/opencode/config.json",
    ".opencode/opencode.json",
    "opencode.json",
    "opencode.jsonc",
    # and its custom tools, modules it imports.
    ".config/opencode/tools/t.ts",
    ".opencode/tool/t.js",
    ".factory/hooks.json",
    ".factory/settings.json",
    ".qwen/settings.json",
    ".augment/settings.json",
    ".augment/hooks/dcg-hook.sh",
)
_HOOK_WRITERS = (
    "sed -E -i 's/dcg//' ~/{}",
    "sed -e 's/dcg//' -i $HOME//{}",
    "echo '{{}}' > {}",
    "rm {}",
    "python3 -c \"import pathlib; pathlib.Path('{}').write_text('{{}}')\"",
)
HOOKS = [
    pytest.param(w.format(f), id=f"hooks-{f}-{j}")
    for f in _AGENT_FILES
    for j, w in enumerate(_HOOK_WRITERS)
]
HOOKS += [
    pytest.param(cmd, id=f"hooks-extra-{k}")
    for k, cmd in enumerate(
        (
            "mv ~/.claude ~/.claude.off",
            "mv ~/.claude away",
            "rm -rf ~/.codex",
            "cd ~ && mv .claude x",
            "cd ~/.claude && echo '{}' > settings.json",
            "cd ~/.claude/ && cd .. && rm -rf .claude",
            "cd .claude && sed -i 's/dcg//' settings.json",
            "rm -rf .github/hooks",
            "rm -rf ~/.gemini",
            "cp /tmp/x ~/.cursor/hooks.json",
            "cat /tmp/empty.json > ~/.codeium/windsurf/hooks.json",
            "sudo tee /etc/windsurf/hooks.json",
            "chmod 000 ~/.claude/settings.json",
            "rm -f ~/.c*/settings.json",
            "rm ~/.[a-z]*/hooks.json",
            "rsync -a /tmp/x/ ~/.claude/",
            "tar -xf evil.tar -C ~/.claude",
            "curl -o ~/.claude/settings.json http://example.com/x",
            "patch ~/.claude/settings.json < /tmp/p.diff",
            "vim -es -c '%s/dcg//' -c wq ~/.claude/settings.json",
            "F=~/.claude/settings.json; echo '{}' > $F",
            "install -m 644 /tmp/x ~/.claude/settings.json",
            "ln -s ~/.claude /tmp/c && echo '{}' > /tmp/c/settings.json",
            "python3 -c \"from pathlib import Path; (Path.home() / '.claude' / 'settings.json')"
            ".write_text('{}')\"",
            "node -e \"require('fs').writeFileSync(require('os').homedir() + "
            "'/.claude/settings.json', '{}')\"",
            # The agents added later: their whole directory, a cd first, a one-liner.
            "mv ~/.factory ~/.factory.off",
            "rm -rf ~/.factory",
            "cd ~/.factory && echo '{}' > hooks.json",
            "cd ~ && mv .qwen q",
            "rm -rf ~/.qwen",
            "cd ~/.qwen && sed -i 's/dcg//' settings.json",
            "mv ~/.augment /tmp/a",
            "rm -rf ~/.augment/hooks",
            "cd ~/.augment/hooks && echo 'exit 0' > dcg-hook.sh",
            "chmod -x ~/.augment/hooks/dcg-hook.sh",
            "sudo tee /etc/augment/settings.json",
            "mv ~/.config/opencode/plugins ~/.config/opencode/plugins.off",
            "rm -rf ~/.config/opencode/plugins",
            "cd ~/.config/opencode/plugins && rm dcg.js",
            "cd .opencode && mv plugins p",
            'echo \'{"plugin": ["./x.js"]}\' > opencode.json',
            "cd ~/.config/opencode && printf '{}' > opencode.jsonc",
            "cd sub/.. && cp /tmp/evil.json ./opencode.json",
            "jq '.plugin += [\"./x.js\"]' c.json > ~/.config/opencode/config.json",
            'sed -i \'s/"plugin": \\[/&"x",/\' opencode.json',
            "ln -sf /tmp/evil.json opencode.jsonc",
            "python3 -c \"import os; os.remove(os.path.expanduser('~/.qwen/settings.json'))\"",
            "python3 -c \"open('.factory/hooks.json', 'w').write('{}')\"",
        )
    )
]

# The audit shipper's timer (contrib/): stopping or editing it stops the organisation's audit.
DISABLE += [
    pytest.param(cmd, id=f"disable-audit-timer-{k}")
    for k, cmd in enumerate(
        (
            "systemctl --user stop dcg-audit-ship.timer",
            "systemctl --user disable --now dcg-audit-ship.timer",
            "systemctl --user mask dcg-audit-ship.service",
            "systemctl --user stop 'dcg-*'",
            "systemctl --user kill dcg-audit-ship.service",
            "bash -c 'systemctl --user stop dcg-audit-ship.timer'",
            "launchctl bootout gui/501/dev.dcg.audit-ship",
            "launchctl unload ~/Library/LaunchAgents/dev.dcg.audit-ship.plist",
        )
    )
]
STATE += [
    pytest.param(cmd, id=f"state-audit-timer-{k}")
    for k, cmd in enumerate(
        (
            "rm ~/.config/systemd/user/dcg-audit-ship.timer",
            "sed -i s/hourly/yearly/ ~/.config/systemd/user/dcg-audit-ship.timer",
            "cd ~/.config/systemd/user && echo > dcg-audit-ship.service",
            "rm ~/Library/LaunchAgents/dev.dcg.audit-ship.plist",
        )
    )
]
ATTEMPTS = INVOKE + DISABLE + STATE + HOOKS

READS = [
    pytest.param(cmd, id=f"read-{k}")
    for k, cmd in enumerate(
        (
            "cat ~/.claude/settings.json",
            "cat opencode.json",
            "jq .plugin ~/.config/opencode/opencode.json",
            "find . -name '*.json' -print",
            "grep -r plugin opencode.jsonc",
            "systemctl --user status dcg-audit-ship.timer",
            "systemctl --user list-timers",
            "less ~/.config/dcg/config.toml",
            "head -5 ~/.config/dcg/history.jsonl",
            "grep dcg ~/.claude/settings.json",
            "jq . ~/.codex/hooks.json",
            "jq . .cursor/hooks.json",
            "wc -l ~/.config/dcg/history.jsonl",
            "sed -n 1,5p ~/.claude/settings.json",
            "sed 's/a/b/' ~/.config/dcg/allowlist.toml",
            "cp ~/.config/dcg/config.toml /tmp/backup.toml",
            "diff ~/.claude/settings.json /tmp/settings.json",
            "ls -la ~/.config/dcg /tmp/dcg-sessions-0",
            "cd ~/.config/dcg && cat allowlist.toml",
            "cd ~/.claude && grep -n hooks settings.json",
            "python3 -c \"import json; print(json.load(open('/home/dev/.claude/settings.json')))\"",
            "dcg explain 'rm -rf x'",
            "dcg test 'git reset --hard'",
            "dcg history",
            "dcg history core.git:reset-hard --window 7d",
            "dcg session",
            "dcg session --json",
            "dcg doctor",
            "dcg packs",
            "dcg stats",
            "dcg allowlist list",
            "dcg config response",
            "dcg config",
            "dcg config --json",
            "dcg audit export",
            "dcg audit export --since 24h --format csv",
            "dcg audit --help",
            "python3 -m dcg explain 'git push'",
            "which dcg",
            # a package manager looked up with a fallback: known whichever is found
            "PM=$(command -v pnpm || echo npm); $PM install",
            "PM=$(command -v pnpm || command -v yarn || echo npm); $PM install --frozen-lockfile",
            "PM=$(command -v pnpm || echo npm); $PM config set registry https://r.example",
            "dcg --version",
            "pip show dcg",
            "pip install requests",
            "echo 'dcg confirm 7f3a'",
            "git commit -m 'docs: explain dcg allow-once'",
            "rm -f ./build/out.o",
            "mv notes.txt docs/notes.txt",
            "cp -r dist ~/",
            "tar -xzf a.tgz -C /tmp/x",
            "curl -o out.json http://example.com/x",
            "ln -s ../shared/config.toml config.toml",
            "python3 -c \"from pathlib import Path; print((Path.home() / '.claude' / "
            "'settings.json').read_text())\"",
        )
    )
]


def _payload(command: str, session: str, cwd: str = PROJECT) -> bytes:
    home = os.environ["HOME"]
    body = {
        "session_id": session,
        "transcript_path": f"{home}/.claude/projects/-home-dev-project/{session}.jsonl",
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "x"},
        "tool_use_id": "toolu_01",
    }
    return json.dumps(body).encode()


def run(payload: bytes, mode: str | None = None) -> tuple[int, str]:
    env = dict(os.environ, DCG_HOOK_DETAILS="1")
    if mode is not None:
        env["DCG_RESPONSE_MODE"] = mode
    out, err = io.StringIO(), io.StringIO()
    code = hook.main([], stdin=io.BytesIO(payload), stdout=out, stderr=err, environ=env)
    return code, out.getvalue()


def verdict(stdout: str) -> tuple[str, str, str]:
    """(permissionDecision, ruleId, responseLevel) of a Claude Code reply."""
    specific = json.loads(stdout)["hookSpecificOutput"]
    return specific["permissionDecision"], specific["ruleId"], specific["responseLevel"]


def test_every_location_dcg_installs_into_is_protected() -> None:
    """A new agent in dcg.commands._hooks.SPECS is protected, or this fails."""
    from dcg import selfguard
    from dcg.commands import _hooks

    home = os.environ["HOME"]
    # Your own files under HOME, a project's under the project (the same relative file for
    # most agents; Cline's own hook folder is under ~/Documents).
    targets: list[str] = []
    for agent, spec in _hooks.SPECS.items():
        for rel, base in ((spec.user_path, "~"), (spec.project_path, PROJECT)):
            if rel is None:
                continue
            targets += [f"{base}/{rel}"]
            targets += [f"{base}/{path}" for path, _ in _hooks.companions(agent, rel)]
    for legacy in _hooks.LEGACY.values():
        targets += [f"~/{legacy.user_path}", f"{PROJECT}/{legacy.project_path}"]
    missing = []
    for target in targets:
        command = f"echo '{{}}' > {target}"
        code, stdout = run(_payload(command, "s-specs"), "lenient")
        decision, rule_id, _ = verdict(stdout) if stdout else ("", "", "")
        if code != 0 or decision != "deny" or not rule_id.startswith("core.dcg:"):
            missing.append(target)
    assert missing == [], (missing, selfguard.AGENT_FILES, home)


def test_tables_are_large_enough() -> None:
    assert len(ATTEMPTS) >= 150
    assert len(READS) >= 30


@pytest.mark.parametrize("command", ATTEMPTS)
def test_attempt_is_a_hard_block_at_first_try_in_every_mode(command: str) -> None:
    for mode in MODES:
        code, stdout = run(_payload(command, f"s-{mode}"), mode)
        assert code == 0, (mode, stdout)
        decision, rule_id, level = verdict(stdout)
        assert (decision, level) == ("deny", "hard_block"), (mode, command)
        assert rule_id.startswith("core.dcg:"), (mode, command, rule_id)


@pytest.mark.parametrize("command", READS)
def test_reading_and_read_only_subcommands_stay_allowed(command: str) -> None:
    for mode in ("paranoid", "standard"):
        code, stdout = run(_payload(command, f"r-{mode}"), mode)
        assert (code, stdout) == (0, ""), (mode, command)


@pytest.mark.parametrize(
    ("command", "cwd"),
    [
        pytest.param("echo x >> allowlist.toml", "~/.config/dcg", id="payload-cwd-config"),
        pytest.param("rm history.jsonl", "$HOME/.config/dcg", id="payload-cwd-history"),
        pytest.param("sed -i 's/dcg//' settings.json", "~/.claude", id="payload-cwd-claude"),
        pytest.param("rm -f *", "~/.config/dcg", id="payload-cwd-glob"),
        pytest.param("rm -rf ../dcg", "~/.config/dcg/", id="payload-cwd-dotdot"),
    ],
)
def test_payload_cwd_is_taken_into_account(command: str, cwd: str) -> None:
    home = os.environ["HOME"]
    real = cwd.replace("~", home).replace("$HOME", home)
    _, stdout = run(_payload(command, "cwd", real), "lenient")
    decision, rule_id, level = verdict(stdout)
    assert (decision, level) == ("deny", "hard_block")
    assert rule_id.startswith("core.dcg:")


def test_custom_session_dir_is_protected(tmp_path: Path) -> None:
    session_dir = os.environ["DCG_SESSION_DIR"]
    for command in (
        f"rm -rf {session_dir}",
        f"cd {session_dir} && rm -f *",
        f"mv {session_dir} /x",
    ):
        _, stdout = run(_payload(command, "sess"), "lenient")
        assert verdict(stdout)[1] == "core.dcg:write-state", command
