"""Every subcommand and documented flag, run as the installed ``dcg`` (a pty where a person is)."""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from dcgrun import PROJECT, Dcg, decision

from dcg import cli, paths
from dcg.agents import AGENTS
from dcg.commands import _hooks

DETAILS = {"DCG_HOOK_DETAILS": "1"}
COLOUR = re.compile(r"\x1b\[[\d;]*(?:3[0-7]|9[0-7]|38)[;m]")


def _subparsers(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser]]:
    out = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                out.append((name, child))
                out += [(f"{name} {n}", c) for n, c in _subparsers(child)]
    return out


def test_no_subcommand_option_collides_with_the_top_level_parser() -> None:
    parser = cli.build_parser()
    top = {a.dest for a in parser._actions if a.dest != "help"}
    for name, sub in _subparsers(parser):
        for action in sub._actions:
            assert action.dest not in top, f"`dcg {name}` option {action.option_strings} "
            f"writes {action.dest!r}, a top-level destination"


def test_every_subcommand_has_a_handler() -> None:
    names = {n for n, _ in _subparsers(cli.build_parser()) if " " not in n}
    assert names - {"hook"} == set(cli.COMMANDS)


# --- allowlist: the acceptance test -------------------------------------------------------


@pytest.mark.parametrize(
    ("add", "remove", "command"),
    [
        pytest.param(
            ("core.git:reset-hard", "--user"),
            ("core.git:reset-hard", "--user"),
            "git reset --hard",
            id="rule",
        ),
        pytest.param(("core.git:*",), ("core.git:*", "--user"), "git reset --hard", id="pack"),
        pytest.param(
            ("--command", "rm -rf src/old", "--user"),
            ("--command", "rm  -rf src/old"),
            "rm -rf src/old",
            id="command",
        ),
        pytest.param(
            ("--user", "--command", "git clean -fdx", "--reason", "ci"),
            ("--command", "git clean -fdx", "--user"),
            "git clean -fdx",
            id="command-flags-first",
        ),
    ],
)
def test_allowlist_add_lets_the_hook_pass_and_remove_brings_the_block_back(
    run: Dcg, add: tuple[str, ...], remove: tuple[str, ...], command: str
) -> None:
    paranoid = ("--mode", "paranoid")
    assert decision(run.hook(command, args=paranoid, env=DETAILS)) == "hard_block"
    added = run("allowlist", "add", *add, tty=True)
    assert added.code == 0, added
    assert "Allowlisted" in added.out
    assert Path(paths.allowlist_file()).is_file()
    assert decision(run.hook(command, args=paranoid, env=DETAILS)) == "pass"
    listed = json.loads(run("allowlist", "list", "--json").out)
    assert len(listed["entries"]) == 1
    removed = run("allowlist", "remove", *remove)
    assert removed.code == 0, removed
    assert "Removed 1 entry" in removed.out
    assert json.loads(run("allowlist", "list", "--json").out)["entries"] == []
    assert decision(run.hook(command, args=paranoid, env=DETAILS)) == "hard_block"


def test_allowlisted_command_is_only_that_command(run: Dcg) -> None:
    assert run("allowlist", "add", "--command", "rm -rf lib", tty=True).code == 0
    assert decision(run.hook("rm -rf lib", env=DETAILS)) == "pass"
    assert decision(run.hook("rm -rf src", env=DETAILS)) == "warning"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(("add", "core.git:reset-hard"), "must be run by a person", id="no-tty"),
        pytest.param(("add", "core.git:nope"), "has no rule 'nope'", id="unknown-rule"),
        pytest.param(("add", "nope.pack:*"), "unknown pack", id="unknown-pack"),
        pytest.param(("add",), "give either a rule id", id="nothing"),
        pytest.param(("remove", "core.git:reset-hard"), "no allowlist entry", id="remove-missing"),
    ],
)
def test_allowlist_errors(run: Dcg, args: tuple[str, ...], message: str) -> None:
    result = run("allowlist", *args, tty=args != ("add", "core.git:reset-hard"))
    assert result.code == 2, result
    assert message in result.err and result.err.count("\n") == 1


def test_allowlist_add_expires_and_reason_are_listed(run: Dcg) -> None:
    args = ("allowlist", "add", "core.git:push-force", "--reason", "release", "--expires", "7d")
    assert run(*args, tty=True).code == 0
    (entry,) = json.loads(run("allowlist", "list", "--json").out)["entries"]
    assert entry["reason"] == "release" and entry["expires_at"] and entry["active"]
    table = run("allowlist", "list").out
    assert "core.git:push-force" in table and "release" in table


def test_system_allowlist(run: Dcg) -> None:
    added = run("allowlist", "add", "core.git:reset-hard", "--system", tty=True)
    assert added.code == 0, added
    assert Path(paths.system_allowlist_file()).is_file()
    assert json.loads(run("allowlist", "list", "--json").out)["entries"][0]["scope"] == "system"
    assert run("allowlist", "remove", "core.git:reset-hard", "--system").code == 0


# --- global flags ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "level"),
    [
        pytest.param(("--mode=paranoid", "test"), "hard_block", id="global-mode-equals"),
        pytest.param(("--mode", "paranoid", "test"), "hard_block", id="global-mode"),
        pytest.param(("test", "--mode", "strict"), "warning", id="own-mode"),
        pytest.param(("--mode=paranoid", "test", "--mode", "strict"), "warning", id="own-wins"),
        pytest.param(
            ("--session-threshold=1", "--mode=strict", "test"), "soft_block", id="threshold"
        ),
    ],
)
def test_global_flags_before_the_subcommand(run: Dcg, args: tuple[str, ...], level: str) -> None:
    result = run(*args, "--json", "git reset --hard")
    assert result.code == 1, result
    assert json.loads(result.out)["responseLevel"] == level


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(("--mode=paranoid",), id="bare-dcg"),
        pytest.param(("--mode=paranoid", "hook"), id="before-hook"),
        pytest.param(("hook", "--mode=paranoid"), id="hook-flag"),
    ],
)
def test_global_mode_reaches_the_hook(run: Dcg, args: tuple[str, ...]) -> None:
    payload = json.dumps(
        {"session_id": "g", "cwd": str(run.cwd), "tool_name": "Bash"}
        | {"tool_input": {"command": "git reset --hard"}}
    )
    result = run(*args, stdin=payload, env=DETAILS)
    assert json.loads(result.out)["hookSpecificOutput"]["responseLevel"] == "hard_block"


@pytest.mark.parametrize("flag", ["--no-warnings", "--quiet"])
def test_no_warnings_and_quiet_silence_the_hook_warning(run: Dcg, flag: str) -> None:
    loud = run.hook("git reset --hard", session="loud", env=DETAILS)
    assert "systemMessage" in json.loads(loud.out)
    for args in ((flag, "hook"), ("hook", flag)):
        payload = {
            "session_id": f"quiet{args[0]}",
            "cwd": str(run.cwd),
            "tool_name": "Bash",
            "tool_input": {"command": "git reset --hard"},
        }
        quiet = run(*args, stdin=json.dumps(payload), env=DETAILS)
        out = json.loads(quiet.out)
        assert out["hookSpecificOutput"]["responseLevel"] == "warning"
        assert "systemMessage" not in out and quiet.err == ""


def test_global_flags_reach_config_response(run: Dcg) -> None:
    doc = json.loads(
        run("--mode=lenient", "--history-threshold=9", "config", "response", "--json").out
    )
    assert doc["response"]["mode"] == "lenient" and doc["response"]["history_threshold"] == 9
    sources = {row["key"]: row["source"] for row in doc["settings"]}
    assert (
        sources["response.mode"] == "--mode" and sources["response.session_threshold"] == "default"
    )


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(("--mode=sometimes", "test", "ls"), id="bad-mode"),
        pytest.param(("--session-threshold=0", "test", "ls"), id="bad-threshold"),
        pytest.param(("--frobnicate", "test", "ls"), id="unknown-flag"),
    ],
)
def test_bad_global_flags_are_usage_errors(run: Dcg, args: tuple[str, ...]) -> None:
    result = run(*args)
    assert result.code == 2 and "usage: dcg" in result.err


# --- hook help, completions ------------------------------------------------------------------


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_hook_help_prints_help_without_reading_stdin(run: Dcg, flag: str) -> None:
    # stdin is a terminal that never ends: reading it would hang until the timeout.
    result = run("hook", flag, tty=True)
    assert result.code == 0
    assert result.out.startswith("usage: dcg hook") and "--agent NAME" in result.out


def test_bash_completions_complete_subcommands_and_options(run: Dcg) -> None:
    script = run("completions", "bash").out
    probe = (
        script
        + 'for line in "dcg allow" "dcg allowlist add --c" "dcg --mode x conf" "dcg hook --ag"\n'
        "do\n"
        '  read -ra COMP_WORDS <<< "$line"; COMP_CWORD=$((${#COMP_WORDS[@]}-1)); _dcg\n'
        '  echo "${COMPREPLY[*]}"\n'
        "done\n"
    )
    out = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["allow-once allowlist", "--command", "confirm config", "--agent"]


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_other_shell_completions(run: Dcg, shell: str) -> None:
    result = run("completions", shell)
    assert result.code == 0
    assert "allowlist" in result.out and "with-packs" in result.out
    binary = shutil.which(shell)
    if binary:  # check the syntax where the shell is installed
        check = ["zsh", "-n"] if shell == "zsh" else ["fish", "--no-execute"]
        subprocess.run([*check, "-c", result.out], check=True)


# --- install / uninstall ---------------------------------------------------------------------

AGENT_FILES = {
    "claude": ".claude/settings.json",
    "codex": ".codex/hooks.json",
    "gemini": ".gemini/settings.json",
    "copilot": ".copilot/hooks/dcg.json",
    "cursor": ".cursor/hooks.json",
    "windsurf": ".codeium/windsurf/hooks.json",
    "opencode": ".config/opencode/plugins/dcg.js",
    "factory": ".factory/hooks.json",
    "qwen": ".qwen/settings.json",
    "auggie": ".augment/settings.json",
    "goose": ".agents/plugins/dcg/hooks/hooks.json",
    "crush": ".config/crush/crush.json",
    "cline": "Documents/Cline/Hooks/PreToolUse",
    "kiro": ".kiro/hooks/dcg.json",
    "devin": ".config/devin/config.json",
    "grok": ".grok/hooks/dcg.json",
    "kimi": ".kimi-code/config.toml",
    "letta": ".letta/settings.json",
    "openhands": ".openhands/hooks.json",
    "amp": ".config/amp/settings.json",
}
# Agents that run dcg's script (Auggie: a .sh file; Amp: a program without arguments).
SCRIPTS = {"auggie": ".augment/hooks/dcg-hook.sh", "amp": ".config/amp/dcg-hook.sh"}


def test_install_all_with_one_commented_file_installs_the_others(run: Dcg) -> None:
    assert set(AGENT_FILES) == set(AGENTS)
    home = Path.home()
    gemini = home / AGENT_FILES["gemini"]
    gemini.parent.mkdir(parents=True)
    text = '{\n  // my theme\n  "theme": "GitHub"\n}\n'
    gemini.write_text(text)
    result = run("install", "--all")
    assert result.code == 1, result
    assert "gemini: NOT installed" in result.out and "add this to" in result.out
    # What install registers: this venv's Python on the package's small source entry.
    entry = _hooks.entry_file()
    assert entry.endswith("/dcg/_entry.py") and os.path.isfile(entry), entry
    fast = _hooks.fast_command("gemini", os.path.abspath(sys.executable), entry)
    assert '"BeforeTool"' in result.out and fast in result.out
    assert f"{len(AGENTS) - 1} of {len(AGENTS)} agents installed; not gemini" in result.out
    assert gemini.read_text() == text
    for agent, rel in AGENT_FILES.items():
        if agent != "gemini":
            # Auggie and Amp run dcg's script, which names the entry.
            hook = home / SCRIPTS.get(agent, rel)
            assert entry in hook.read_text(), agent
    # The hook the agents now run is this dcg, and it works.
    paranoid = run.hook("git reset --hard", args=("--mode", "paranoid"), env=DETAILS)
    assert decision(paranoid) == "hard_block"


def test_install_dry_run_prints_diffs_and_writes_nothing(run: Dcg) -> None:
    claude = Path.home() / AGENT_FILES["claude"]
    claude.parent.mkdir(parents=True)
    claude.write_text('{\n  "model": "opus"\n}\n')
    result = run("install", "--agent", "claude", "--agent", "cursor", "--dry-run")
    assert result.code == 0, result
    assert f"--- {claude}" in result.out and '+  "hooks": {' in result.out
    assert "--- /dev/null" in result.out and '"beforeShellExecution"' in result.out
    assert claude.read_text() == '{\n  "model": "opus"\n}\n'
    assert not (Path.home() / AGENT_FILES["cursor"]).exists()


def test_uninstall_after_install_leaves_the_home_as_it_was(run: Dcg) -> None:
    home = Path.home()
    before = sorted(home.rglob("*"))
    assert run("install", "--all").code == 0
    result = run("uninstall", "--all")
    assert result.code == 0, result
    assert sorted(home.rglob("*")) == before


def test_project_install_is_portable(run: Dcg) -> None:
    result = run("install", "--project", "--agent", "claude")
    assert result.code == 0, result
    assert "as found on PATH" in result.out
    data = json.loads((run.cwd / ".claude" / "settings.json").read_text())
    assert data["hooks"]["PreToolUse"][0]["hooks"][0]["command"] == "dcg hook"
    assert run("uninstall", "--project", "--agent", "claude").code == 0
    assert not (run.cwd / ".claude").exists()


# --- test / explain ---------------------------------------------------------------------------


def _user_config(text: str) -> Path:
    path = Path(paths.user_config())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.mark.parametrize("subcommand", ["test", "explain"])
def test_unknown_pack_in_config_warns_and_keeps_working(run: Dcg, subcommand: str) -> None:
    _user_config('[packs]\nenabled = ["databse", "kubernetes"]\n')
    result = run(subcommand, "--json", "kubectl delete namespace prod")
    assert result.code == (1 if subcommand == "test" else 0), result
    assert "dcg: warning: unknown pack 'databse' (did you mean 'database'?)" in result.err
    assert json.loads(result.out)["matches"][0]["ruleId"].startswith("kubernetes.")
    hook = run.hook("kubectl delete namespace prod", env=DETAILS)
    assert decision(hook) == "hard_block"  # critical


def test_unknown_pack_on_the_command_line_is_an_error(run: Dcg) -> None:
    result = run("test", "--with-packs", "databse", "ls")
    assert result.code == 2 and "unknown pack 'databse'" in result.err


def test_explain_counts_and_window_as_recorded(run: Dcg) -> None:
    for _ in range(2):
        run.hook("git reset --hard", session="explain")
    # History is counted per project (history_scope = "project"): the hook's payload cwd.
    data = json.loads(run("explain", "--json", "--cwd", PROJECT, "git reset --hard").out)[
        "graduation"
    ]
    # explain runs in its own (shell) session: the two agent uses are history only.
    assert (data["sessionCount"], data["historyCount"]) == (0, 2)
    assert data["historyWindow"] == "24h"
    text = run("explain", "--cwd", PROJECT, "git reset --hard").out
    assert "None" not in text
    assert "  History count:     2\n" in text and "  History window:    24h\n" in text
    assert "Recommendation" not in text


def test_explain_recommendation_counts_this_sessions_uses(run: Dcg) -> None:
    # A person's own shell session: `dcg hook` from the same parent shell as explain.
    script = (
        f"for i in 1 2 3; do {run.exe} hook < payload.json > /dev/null; done; "
        f"{run.exe} explain 'git reset --hard'"
    )
    payload = {"cwd": "/work/x", "tool_name": "Bash", "tool_input": {"command": "git reset --hard"}}
    (run.cwd / "payload.json").write_text(json.dumps(payload))
    out = subprocess.run(
        ["sh", "-c", script], cwd=run.cwd, capture_output=True, text=True, check=True
    ).stdout
    assert "  Session count:     3\n" in out
    assert "This command has been used 3 times this session." in out


@pytest.mark.parametrize(
    ("args", "label"),
    [
        pytest.param(("test", "git reset --hard"), "DESTRUCTIVE", id="test"),
        pytest.param(("explain", "git reset --hard"), "Pattern:", id="explain"),
    ],
)
def test_colour_on_a_terminal_only(run: Dcg, args: tuple[str, ...], label: str) -> None:
    coloured = run.terminal(*args)
    assert COLOUR.search(coloured.out) and label in coloured.out
    assert not COLOUR.search(run.terminal(*args, env={"NO_COLOR": "1"}).out)
    piped = run(*args)
    assert "\x1b[" not in piped.out and label in piped.out


def test_long_values_wrap_under_themselves_on_a_terminal(run: Dcg) -> None:
    out = run.terminal("test", "git reset --hard", env={"COLUMNS": "60", "NO_COLOR": "1"}).out
    out = re.sub(r"\x1b\[[\d;]*m", "", out)
    lines = [line for line in out.splitlines() if line.strip()]
    assert all(len(line.rstrip()) <= 60 for line in lines), out
    reason = lines.index(next(line for line in lines if line.lstrip().startswith("reason")))
    assert lines[reason + 1].startswith(" " * 13) and not lines[reason + 1][13].isspace()


# --- session, history, stats, config ----------------------------------------------------------


def test_session_by_the_agents_own_id(run: Dcg) -> None:
    run.hook("git reset --hard", session="claude-abc-123")
    run.hook("git push --force", session="other-session")
    listed = json.loads(run("session", "--json").out)["sessions"]
    assert len(listed) == 2
    mine = json.loads(run("session", "--id", "claude-abc-123", "--json").out)["sessions"]
    assert [d["occurrences"] for d in mine] == [{"core.git:reset-hard": 1}]
    prefix = str(mine[0]["session_id"])[:8]
    assert json.loads(run("session", "--id", prefix, "--json").out)["sessions"] == mine
    table = run("session", "--id", "claude-abc-123").out
    assert "core.git:reset-hard" in table and "core.git:push-force" not in table
    missing = run("session", "--id", "nope")
    assert missing.code == 2 and "no live session with id nope" in missing.err
    assert run("session", "clear", "--id", "claude-abc-123").code == 2  # needs a terminal
    cleared = run("session", "clear", "--id", "claude-abc-123", tty=True)
    assert cleared.code == 0 and "Cleared 1 session" in cleared.out, cleared
    left = json.loads(run("session", "--json").out)["sessions"]
    assert [d["occurrences"] for d in left] == [{"core.git:push-force": 1}]
    assert run("session", "clear", tty=True).out.startswith("Cleared 1 session")


MODES_CONFIG = """
[response.packs."core.git"]
mode = "paranoid"
[response.rules."core.git:push-force"]
mode = "lenient"
"""


def test_per_pack_mode_reaches_the_hook(run: Dcg) -> None:
    _user_config(MODES_CONFIG)
    # core.git is paranoid: the very first reset is a hard block.
    assert decision(run.hook("git reset --hard", env=DETAILS)) == "hard_block"
    # The longer rule selector wins over its pack: push --force is lenient. What a forced
    # push destroys cannot be kept (decisions.md 11.2), so the safety net stops it from
    # the first time; without the safety net, the lenient curve shows.
    push = [decision(run.hook("git push --force", env=DETAILS)) for _ in range(2)]
    assert push == ["soft_block", "soft_block"]
    _user_config(MODES_CONFIG + "[safety_net]\nenabled = false\n")
    push = [decision(run.hook("git push --force", env=DETAILS)) for _ in range(2)]
    assert push == ["warning", "soft_block"]  # occurrences 3 and 4 of the session
    # Other packs keep the global mode: rm -rf still graduates from a warning.
    rm = [decision(run.hook("rm -rf src", env=DETAILS)) for _ in range(3)]
    assert rm == ["warning", "warning", "soft_block"]


def test_config_response_shows_modes_with_their_source(run: Dcg) -> None:
    path = _user_config(MODES_CONFIG)
    result = run("config", "response", "--json")
    assert result.code == 0 and "Traceback" not in result.err, result
    rows = {r["key"]: r for r in json.loads(result.out)["settings"]}
    assert rows['response.packs."core.git".mode'] == {
        "key": 'response.packs."core.git".mode',
        "value": '"paranoid"',
        "source": str(path),
        "layer": "user config",
        "fixed": None,
    }
    assert rows['response.rules."core.git:push-force".mode']["value"] == '"lenient"'
    table = run("config", "response").out
    assert 'response.packs."core.git".mode' in table and "paranoid" in table
    assert "hook.fail_open" in table and "response.fail_open" not in table


def test_bad_mode_selector_is_reported_not_a_crash(run: Dcg) -> None:
    _user_config('[response.packs."databse"]\nmode = "paranoid"\n[response.packs.x]\nmode = 3\n')
    result = run("config", "response")
    assert result.code == 0 and "Traceback" not in result.err
    assert "did you mean 'database'" in result.err and "needs mode = one of" in result.err


def test_history_keeps_readable_redacted_commands(run: Dcg) -> None:
    secret = "mysql --password=hunter2 -e 'DROP DATABASE prod'"
    run.hook("git reset --hard HEAD~3", env=DETAILS)
    run.hook("git push https://me:tok3n@github.com/o/r.git --force", env=DETAILS)
    run.hook(f"{secret}; rm -rf src", env=DETAILS)
    records = json.loads(run("history", "--json").out)["records"]
    commands = [r["command"] for r in records]
    # The last line matches two rules: each is judged and recorded on its own.
    assert commands == [
        "git reset --hard HEAD~3",
        "git push https://me:***@github.com/o/r.git --force",
        "mysql --password=*** -e 'DROP DATABASE prod'; rm -rf src",
        "mysql --password=*** -e 'DROP DATABASE prod'; rm -rf src",
    ]
    raw = Path(paths.history_file()).read_text()
    assert "hunter2" not in raw and "tok3n" not in raw
    table = run("history").out
    assert "git reset --hard HEAD~3" in table and "4 occurrences" in table
    assert "hunter2" not in table
    one = json.loads(run("history", "core.git:push-force", "--json").out)
    assert [r["rule_id"] for r in one["records"]] == ["core.git:push-force"]


def test_history_without_commands(run: Dcg) -> None:
    _user_config("[history]\nrecord_commands = false\n")
    run.hook("git reset --hard", env=DETAILS)
    [record] = json.loads(run("history", "--json").out)["records"]
    assert "command" not in record and record["command_hash"]
    assert "(not recorded)" in run("history").out


def test_quiet_after_threshold_shows_only_the_first_warning(run: Dcg) -> None:
    _user_config('[response]\nmode = "lenient"\nquiet_after_threshold = true\n')
    outs = [json.loads(run.hook("git reset --hard", env=DETAILS).out) for _ in range(3)]
    assert ["systemMessage" in o for o in outs] == [True, False, False]
    assert all(o["hookSpecificOutput"]["additionalContext"] for o in outs)


def test_config_migrate_needs_a_terminal(run: Dcg) -> None:
    refused = run("config", "migrate")
    assert refused.code == 2 and "must be run by a person in a terminal" in refused.err
    assert not Path(paths.user_config()).exists()
    done = run("config", "migrate", tty=True)
    assert done.code == 0 and "[response]" in Path(paths.user_config()).read_text()


def test_stats(run: Dcg) -> None:
    for _ in range(3):
        run.hook("git reset --hard", env=DETAILS)
    doc = json.loads(run("stats", "--graduation", "--json").out)
    [row] = doc["rules"]
    assert (row["rule_id"], row["warning"], row["soft_block"]) == ("core.git:reset-hard", 2, 1)
    assert "core.git:reset-hard" in run("stats", "--window", "1h").out


def test_packs_and_doctor(run: Dcg) -> None:
    assert "core.git" in run("packs").out
    assert "reset-hard" in run("pack", "core.git").out
    assert run("packs", "--markdown").out.startswith("#")
    doctor = run("doctor", "--json")
    assert doctor.code == 1  # no agent installed here
    assert "no supported agent" in doctor.out


def _code(reply: dict[str, Any]) -> str:
    assert "Code:" not in reply["hookSpecificOutput"]["permissionDecisionReason"]
    found = re.search(r"^Code: (\S+)$", reply["systemMessage"], re.M)
    assert found, reply
    return found.group(1)


def test_confirm_and_allow_once_through_the_binary(run: Dcg) -> None:
    outs = [json.loads(run.hook("git reset --hard", env=DETAILS).out) for _ in range(3)]
    # The code is only in the person's channel (systemMessage), never in the model's reason.
    code = _code(outs[2])
    assert run("confirm", code).code == 2  # not a terminal
    confirmed = run("confirm", code, tty=True)
    assert confirmed.code == 0 and "Confirmed" in confirmed.out, confirmed
    assert decision(run.hook("git reset --hard", env=DETAILS)) == "pass"
    hard = json.loads(run.hook("git reset --hard", args=("--mode", "paranoid"), env=DETAILS).out)
    once = _code(hard)
    allowed = run("allow-once", once, "--single-use", tty=True)
    assert allowed.code == 0, allowed
    assert (
        decision(run.hook("git reset --hard", args=("--mode", "paranoid"), env=DETAILS)) == "pass"
    )
    again = run.hook("git reset --hard", args=("--mode", "paranoid"), env=DETAILS)
    assert decision(again) == "hard_block"


@pytest.mark.parametrize(
    ("args", "code", "expected"),
    [
        pytest.param(("--version",), 0, "dcg ", id="version"),
        pytest.param((), 0, "usage: dcg", id="no-subcommand-at-a-terminal"),
        pytest.param(("test", "--cwd", "/tmp", "rm -rf junk"), 0, "ALLOWED", id="test-cwd"),
        pytest.param(
            ("test", "--shell", "powershell", "Remove-Item -Recurse -Force C:\\src"),
            1,
            "DESTRUCTIVE",
            id="test-shell",
        ),
        pytest.param(("test", "--no-warnings", "git reset --hard"), 1, "WARNING", id="test-quiet"),
        pytest.param(
            ("explain", "--with-packs", "kubernetes", "kubectl delete ns x"),
            0,
            "kubernetes.kubectl",
            id="explain-with-packs",
        ),
        pytest.param(("explain", "--cwd", "/tmp", "rm -rf junk"), 0, "Decision:", id="explain-cwd"),
        pytest.param(
            ("explain", "--mode", "paranoid", "git reset --hard"),
            0,
            "HARD_BLOCK",
            id="explain-mode",
        ),
        pytest.param(
            ("history", "--window", "1h", "--cwd", "/nowhere"),
            0,
            "0 occurrences",
            id="history-flags",
        ),
        pytest.param(("history", "--window", "soon"), 2, "", id="history-bad-window"),
        pytest.param(
            ("uninstall", "--all", "--dry-run"), 0, "not installed", id="uninstall-dry-run"
        ),
        pytest.param(("doctor", "--project"), 1, "no supported agent", id="doctor-project"),
        pytest.param(("allowlist", "list"), 0, "The allowlist is empty.", id="allowlist-empty"),
        pytest.param(("session",), 0, "No live sessions", id="session-empty"),
        pytest.param(("completions", "tcsh"), 2, "", id="completions-unknown-shell"),
    ],
)
def test_flags_table(run: Dcg, args: tuple[str, ...], code: int, expected: str) -> None:
    result = run(*args, tty=not args)
    assert result.code == code, result
    assert expected in result.out + (result.err if code == 2 and not args else "")
    assert "Traceback" not in result.err


def test_hook_agent_flag(run: Dcg) -> None:
    payload = {
        "session_id": "codex-1",
        "cwd": "/work/x",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "git reset --hard"},
    }
    out = run("hook", "--agent", "codex", "--mode", "paranoid", stdin=json.dumps(payload))
    assert (
        out.code == 0 and json.loads(out.out)["hookSpecificOutput"]["permissionDecision"] == "deny"
    )


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["--mode=paranoid", "hook"], id="global-then-hook"),
        pytest.param(["--no-warnings"], id="bare-with-global"),
        pytest.param(["hook", "--help"], id="hook-help"),
    ],
)
def test_global_flags_keep_the_hook_argparse_free(argv: list[str]) -> None:
    probe = (
        "import io, sys\n"
        "sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode()))\n"
        "from dcg.__main__ import main\n"
        "out = io.StringIO(); real = sys.stdout; sys.stdout = out\n"
        f"code = main({argv!r})\n"
        "sys.stdout = real\n"
        "print(code, 'argparse' in sys.modules)\n"
    )
    payload = json.dumps({"session_id": "s", "tool_name": "Bash", "tool_input": {"command": "ls"}})
    proc = subprocess.run(
        [sys.executable, "-c", probe, payload], capture_output=True, text=True, check=True
    )
    assert proc.stdout.split() == ["0", "False"]
