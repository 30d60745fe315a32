"""A malformed allowlist entry fails toward protection and is named (issue 26 point 2).

Each case is an ``allowlist.toml`` whose entry for ``git reset --hard`` is malformed or
has a wrongly typed field. Through the installed hook (paranoid mode, so the rule is a
hard block unless an entry excuses it) the command is stopped exactly as without the
entry, and the reply names the file and the entry once; ``dcg allowlist list`` shows
it as invalid, never active; ``dcg doctor`` names it and exits 1. The control (the same
entry written correctly) is let through.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

import hookpath
from dcg import paths
from dcg.commands import _hooks

COMMAND = "git reset --hard HEAD~1"
RULE = "core.git:reset-hard"

# name -> the [[allow]] entry (TOML), what the note must say about it
INVALID: dict[str, tuple[str, str]] = {
    "expires-datetime-past": (
        f'[[allow]]\nrule = "{RULE}"\nexpires_at = 1979-05-27T07:32:00Z\n',
        "expires_at is a TOML date-time, not a quoted string",
    ),
    "expires-datetime-future": (
        f'[[allow]]\nrule = "{RULE}"\nexpires_at = 2099-05-27T07:32:00Z\n',
        "expires_at is a TOML date-time",
    ),
    "expires-local-date": (
        f'[[allow]]\nrule = "{RULE}"\nexpires_at = 2099-01-01\n',
        "expires_at is a TOML date-time",
    ),
    "expires-offset-datetime": (
        f'[[allow]]\nrule = "{RULE}"\nexpires_at = 1979-05-27 07:32:00+02:00\n',
        "expires_at is a TOML date-time",
    ),
    "expires-words": (
        f'[[allow]]\nrule = "{RULE}"\nexpires_at = "next week"\n',
        "expires_at 'next week' is not a UTC time",
    ),
    "expires-spaced": (
        f'[[allow]]\nrule = "{RULE}"\nexpires_at = "1979-05-27 07:32:00"\n',
        "is not a UTC time",
    ),
    "expires-no-zone": (
        f'[[allow]]\nrule = "{RULE}"\nexpires_at = "1979-05-27T07:32:00"\n',
        "is not a UTC time",
    ),
    "expires-bad-month": (
        f'[[allow]]\nrule = "{RULE}"\nexpires_at = "1979-13-27T07:32:00Z"\n',
        "is not a UTC time",
    ),
    "expires-number": (
        f'[[allow]]\nrule = "{RULE}"\nexpires_at = 19790527\n',
        "expires_at is a number, not a quoted string",
    ),
    "expires-bool": (
        f'[[allow]]\nrule = "{RULE}"\nexpires_at = false\n',
        "expires_at is a boolean",
    ),
    "added-datetime": (
        f'[[allow]]\nrule = "{RULE}"\nadded_at = 2026-01-01T00:00:00Z\n',
        "added_at is a TOML date-time",
    ),
    "reason-number": (f'[[allow]]\nrule = "{RULE}"\nreason = 5\n', "reason is a number"),
    "rule-number": ("[[allow]]\nrule = 42\n", "rule is a number, not a quoted string"),
    "rule-array": (f'[[allow]]\nrule = ["{RULE}"]\n', "rule is an array"),
    "rule-no-pack": ('[[allow]]\nrule = "reset-hard"\n', "is not a rule id"),
    "rule-space": (f'[[allow]]\nrule = "{RULE} "\n', "is not a rule id"),
    "rule-upper": ('[[allow]]\nrule = "core.git:Reset-Hard"\n', "is not a rule id"),
    "rule-empty-name": ('[[allow]]\nrule = "core.git:"\n', "is not a rule id"),
    "rule-two-colons": (f'[[allow]]\nrule = "{RULE}:x"\n', "is not a rule id"),
    "missing-target": ('[[allow]]\nreason = "cleanup"\n', "names neither a rule nor a command"),
    "rule-and-command": (
        f'[[allow]]\nrule = "{RULE}"\ncommand = "ls"\n',
        "names both a rule and a command",
    ),
    "unknown-field-typo": (
        f'[[allow]]\nrule = "{RULE}"\nexpire_at = "1979-05-27T07:32:00Z"\n',
        "unknown field 'expire_at'",
    ),
    "unknown-subtable": (
        f'[[allow]]\nrule = "{RULE}"\n[allow.limits]\ncwd = "/tmp"\n',
        "unknown field 'limits'",
    ),
    "command-number": ("[[allow]]\ncommand = 7\n", "command is a number"),
    "command-empty": ('[[allow]]\ncommand = "  "\n', "command is empty"),
    "command-datetime": (
        f'[[allow]]\ncommand = "{COMMAND}"\nexpires_at = 1979-05-27T07:32:00Z\n',
        "expires_at is a TOML date-time",
    ),
    "allow-table": (f'[allow]\nrule = "{RULE}"\n', "allow is a table, not an array of tables"),
    "allow-string": (f'allow = "{RULE}"\n', "allow is a string, not an array of tables"),
    "allow-strings": (f'allow = ["{RULE}"]\n', "the entry is a string, not a table"),
    "top-level-typo": (f'[[alow]]\nrule = "{RULE}"\n', "unknown key 'alow'"),
}

VALID = {
    "rule": f'[[allow]]\nrule = "{RULE}"\n',
    "pack": '[[allow]]\nrule = "core.git:*"\n',
    "future-expiry": f'[[allow]]\nrule = "{RULE}"\nexpires_at = "2099-05-27T07:32:00Z"\n',
    "command": f'[[allow]]\ncommand = "{COMMAND}"\nreason = "ok"\n',
    "full": (
        f'[[allow]]\nrule = "{RULE}"\nreason = "r"\nadded_at = "2026-01-01T00:00:00Z"\n'
        'expires_at = "2099-01-01T00:00:00Z"\n'
    ),
}


@pytest.fixture(autouse=True)
def _paranoid(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DCG_RESPONSE_MODE", "paranoid")


def allowlist_file() -> Path:
    path = Path(paths.allowlist_file())
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def hook(exe: str, command: str = COMMAND, agent: str = "claude") -> tuple[str, str]:
    """The verdict and everything the reply says (stdout and stderr)."""
    body = hookpath.payload(agent, command, cwd="/home/dev/project")
    proc = subprocess.run(
        [exe, "hook"], input=hookpath.encode(body), capture_output=True, timeout=60
    )
    out, err = proc.stdout.decode(), proc.stderr.decode()
    assert "Traceback" not in err, err
    return hookpath.verdict(proc.returncode, out, err), out + err


def reason(stdout_and_err: str) -> str:
    """Claude's permissionDecisionReason (the stop reason the agent reads)."""
    doc = json.loads(stdout_and_err[: stdout_and_err.rindex("}") + 1])
    return str(doc["hookSpecificOutput"]["permissionDecisionReason"])


def listed(exe: str) -> list[dict[str, object]]:
    proc = subprocess.run(
        [exe, "allowlist", "list", "--json"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    rows: list[dict[str, object]] = json.loads(proc.stdout)["entries"]
    return rows


@pytest.mark.parametrize("name", sorted(VALID))
def test_the_valid_entry_lets_it_through(dcg_exe: str, name: str) -> None:
    assert hook(dcg_exe)[0] == "deny"  # the control: paranoid stops it without an entry
    allowlist_file().write_text(VALID[name])
    verdict, said = hook(dcg_exe)
    assert verdict == "none", said
    assert "invalid allowlist entry" not in said
    assert all(r["valid"] and r["active"] for r in listed(dcg_exe))


@pytest.mark.parametrize("name", sorted(INVALID))
def test_an_invalid_entry_is_ignored_and_named(dcg_exe: str, name: str) -> None:
    text, problem = INVALID[name]
    path = allowlist_file()
    path.write_text(text)
    verdict, said = hook(dcg_exe)
    assert verdict == "deny", said  # as if the entry were absent
    stop = reason(said)
    assert stop.count("dcg ignored an invalid allowlist entry") == 1, stop
    assert str(path) in stop and problem in stop, stop
    assert RULE in stop  # the rule it stopped, as ever
    rows = listed(dcg_exe)
    assert rows and not any(r["active"] for r in rows)
    bad = [r for r in rows if not r["valid"]]
    assert (
        len(bad) == 1 and problem in str(bad[0]["problem"]) and str(path) in str(bad[0]["problem"])
    )
    # Again, from the parsed allowlist's cache: still ignored, still named.
    verdict, said = hook(dcg_exe)
    assert verdict == "deny" and problem in reason(said)


@pytest.mark.parametrize("variant", sorted(hookpath.VARIANTS))
def test_the_issue_case_in_every_shape_of_line(dcg_exe: str, variant: str) -> None:
    monkey_text, problem = INVALID["expires-datetime-past"]
    allowlist_file().write_text(monkey_text)
    verdict, said = hook(dcg_exe, hookpath.VARIANTS[variant](COMMAND))
    assert verdict == "deny", said
    assert problem in reason(said)


@pytest.mark.parametrize("agent", ["codex", "gemini", "cursor"])
def test_other_agents_are_stopped_and_told(dcg_exe: str, agent: str) -> None:
    if agent not in hookpath.AGENTS:
        pytest.skip(f"no golden payload for {agent}")
    allowlist_file().write_text(INVALID["expires-datetime-past"][0])
    verdict, said = hook(dcg_exe, agent=agent)
    assert verdict == "deny", said
    assert "dcg ignored an invalid allowlist entry" in said


def test_valid_entries_beside_an_invalid_one_still_apply(dcg_exe: str) -> None:
    path = allowlist_file()
    path.write_text(
        INVALID["expires-datetime-past"][0] + '\n[[allow]]\nrule = "core.git:clean-force"\n'
    )
    verdict, said = hook(dcg_exe)
    assert verdict == "deny" and f"{path} entry 1" in reason(said)
    verdict, said = hook(dcg_exe, "git clean -fd")
    assert verdict == "none", said  # the valid entry 2; entry 1 is about another rule
    assert "invalid allowlist entry" not in said
    rows = listed(dcg_exe)
    assert [(r["rule"], r["valid"], r["active"]) for r in rows] == [
        ("core.git:clean-force", True, True),
        (RULE, False, False),
    ]
    table = subprocess.run(
        [dcg_exe, "allowlist", "list"],
        capture_output=True,
        text=True,
        env=dict(os.environ, NO_COLOR="1", COLUMNS="300"),
        timeout=60,
    ).stdout
    # (rich wraps cells to the width it finds: the words, not the phrases)
    assert "invalid," in table and "ignored" in table and "TOML" in table
    assert table.count("active") == 1


def test_an_unrelated_invalid_entry_is_not_in_every_reply(dcg_exe: str) -> None:
    """An invalid entry for another rule does not name itself on this one's stop."""
    allowlist_file().write_text(
        '[[allow]]\nrule = "core.git:clean-force"\nexpires_at = 1979-01-01\n'
    )
    verdict, said = hook(dcg_exe)
    assert verdict == "deny" and "invalid allowlist entry" not in said


def test_the_system_allowlist_is_checked_the_same_way(
    dcg_exe: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    system = Path(paths.system_allowlist_file())
    system.parent.mkdir(parents=True, exist_ok=True)
    system.write_text(INVALID["expires-datetime-past"][0])
    verdict, said = hook(dcg_exe)
    assert verdict == "deny" and str(system) in reason(said)
    assert [r["scope"] for r in listed(dcg_exe) if not r["valid"]] == ["system"]


def test_an_older_cache_of_the_parsed_allowlist_is_not_trusted(dcg_exe: str) -> None:
    """A cache an older dcg wrote (the expiry dropped as it read it) for the same file
    must be read again, not used."""
    path = allowlist_file()
    path.write_text(INVALID["expires-datetime-past"][0])
    st = path.stat()
    cache = Path(paths.session_dir()) / "allowlist-cache.json"
    cache.parent.mkdir(parents=True, exist_ok=True)
    old = {
        "schema_version": 1,
        "sources": [[str(path), st.st_ino, st.st_size, st.st_mtime_ns]],
        "entries": [{"rule": RULE, "source": str(path)}],
    }
    cache.write_text(json.dumps(old))
    verdict, said = hook(dcg_exe)
    # Trusted, the old cache would have let it through.
    assert verdict == "deny" and "expires_at is a TOML date-time" in reason(said)
    if cache.exists():  # (session pruning may have removed it since)
        assert json.loads(cache.read_text())["schema_version"] == 2


def _install_claude(home: Path, exe: str) -> None:
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    hook_cmd = {"type": "command", "command": f"{exe} hook"}
    body = {"hooks": {"PreToolUse": [{"matcher": _hooks.MATCHERS["claude"], "hooks": [hook_cmd]}]}}
    settings.write_text(json.dumps(body))


@pytest.mark.parametrize(
    "name", ["expires-datetime-past", "rule-number", "allow-table", "unknown-field-typo"]
)
def test_doctor_names_it_and_fails(dcg_exe: str, isolated_home: Path, name: str) -> None:
    _install_claude(isolated_home, dcg_exe)
    env = dict(os.environ, NO_COLOR="1")
    doctor = [dcg_exe, "doctor"]
    assert subprocess.run(doctor, capture_output=True, env=env, timeout=120).returncode == 0
    path = allowlist_file()
    text, problem = INVALID[name]
    path.write_text(text)
    proc = subprocess.run(doctor, capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 1, proc.stdout
    fails = [line for line in proc.stdout.splitlines() if line.startswith("FAIL")]
    assert len(fails) == 1 and "allowlist" in fails[0], proc.stdout
    assert str(path) in fails[0] and problem in fails[0]
    path.write_text(VALID["rule"])
    assert subprocess.run(doctor, capture_output=True, env=env, timeout=120).returncode == 0
