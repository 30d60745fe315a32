"""``dcg doctor``: check that dcg really protects each agent, with a one-line fix per finding."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import stat
import subprocess
import sys
from typing import TYPE_CHECKING, NamedTuple

from dcg import paths
from dcg.agents import _spec
from dcg.commands import _doctor_platform, _hooks, _owned
from dcg.errors import DcgError
from dcg.state import allowlist
from dcg.state.history import parse_line as history_line

if TYPE_CHECKING:
    from typing import TextIO

SELF_TEST_COMMAND = "git reset --hard HEAD"


class Finding(NamedTuple):
    """One check: ``ok`` False with ``fatal`` True means protection is not effective."""

    scope: str
    check: str
    ok: bool
    fatal: bool
    detail: str
    fix: str


def _fill(value: object, command: str, cwd: str) -> object:
    if isinstance(value, dict):
        return {k: _fill(v, command, cwd) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, command, cwd) for v in value]
    if value == "{command}":
        return command
    if value == "{cwd}":
        return cwd
    if isinstance(value, str) and "{command}" in value:
        # A JSON document inside a string (Copilot's toolArgs): escaped as JSON.
        return value.replace("{command}", json.dumps(command)[1:-1])
    return value


def _payload(agent: str, command: str, cwd: str) -> str:
    """The payload ``agent`` sends for ``command``, from its spec's doctor probe."""
    return json.dumps(_fill(dict(_hooks.SPECS[agent].probe.payload), command, cwd))


def stopped(agent: str, stdout: str, exit_code: int) -> bool:
    """Whether ``agent`` would refuse to run the command, given the hook's reply."""
    probe = _hooks.SPECS[agent].probe
    if exit_code in probe.exit_codes:
        return True
    if exit_code != 0 or not probe.path:
        return False
    try:
        value: object = json.loads(stdout) if stdout.strip() else {}
    except ValueError:
        return False
    for key in probe.path:
        value = value.get(key) if isinstance(value, dict) else None
    return value in probe.values


def self_test(agent: str, command: str, cwd: str) -> tuple[bool, str]:
    """Run the registered ``command`` on a destructive payload, as the agent would."""
    from dcg.commands._doctor_speed import TestEnv

    with TestEnv() as env:
        env |= _hooks.SPECS[agent].probe.env
        try:
            run = subprocess.run(
                command,
                shell=True,
                input=_payload(agent, SELF_TEST_COMMAND, cwd),
                capture_output=True,
                text=True,
                timeout=20,
                env=env,
                cwd=cwd,
            )
        except subprocess.TimeoutExpired:
            return False, "the hook timed out (the agent lets the command run)"
    if stopped(agent, run.stdout, run.returncode):
        return True, f"`{SELF_TEST_COMMAND}` is stopped"
    detail = (run.stderr.strip().splitlines() or [run.stdout.strip() or "no output"])[-1]
    return False, f"`{SELF_TEST_COMMAND}` was not stopped (exit {run.returncode}: {detail[:120]})"


def check_speed(
    agent: str, command: str, cwd: str, *, project: bool, cache: dict[str, list[Finding]]
) -> list[Finding]:
    """Launcher, bytecode and timing of the registered ``command`` (timed once per command)."""
    from dcg import bundle
    from dcg.commands import _bytecode
    from dcg.commands import _doctor_speed as speed

    parsed = _hooks.parse_command(command)
    if parsed is None:
        return []
    key = f"{parsed.program}\0{parsed.entry}"
    fix = f"dcg install --agent {agent}"
    if key not in cache:
        package = _hooks.package_of(parsed.entry) if parsed.entry else os.path.dirname(_own_file())
        script = None if parsed.entry else _read_head(_executable(command))
        editable = speed.is_editable(package)
        found = [speed.launcher_verdict(parsed, script, project=project, editable=editable,
                                        fix=fix)]  # fmt: skip
        missing = len(_bytecode.stale(package))
        dont_write = bool(os.environ.get("PYTHONDONTWRITEBYTECODE"))
        writable = _bytecode.can_write(package)
        entry = parsed.entry is not None
        python = speed.interpreter_of(parsed)
        found.append(
            speed.bytecode_verdict(
                package,
                missing,
                writable,
                dont_write=dont_write,
                entry=entry,
                python=python,
                unbundled=len(bundle.stale(package)),
            )
        )
        with speed.TestEnv() as env:
            argv = shlex.split(command)
            # In "/" and without dcg's name (a keyword) as the session: a project's path may
            # name a keyword too, and a stop inside a repository asks git what is at risk.
            no_keyword = _payload(agent, "ls -la", "/").replace("dcg-doctor", "timing").encode()
            stop = _payload(agent, SELF_TEST_COMMAND, "/").replace("dcg-doctor", "timing").encode()
            measured = speed.measure(argv, speed.interpreter_of(parsed), no_keyword, stop, env)
        slow_fix = fix if parsed.entry is None else "run dcg doctor again when the machine is idle"
        found.append(speed.speed_verdict(measured, slow_fix))
        cache[key] = [Finding(agent, v.check, v.ok, False, v.detail, v.fix) for v in found]
    return [f._replace(scope=agent) for f in cache[key]]


def _own_file() -> str:
    import dcg

    return os.path.abspath(dcg.__file__)


def _read_head(path: str | None) -> str | None:
    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            return f.read(4096).decode("utf-8", "replace")
    except OSError:
        return None


def _executable(command: str) -> str | None:
    """The program ``command`` runs, when it exists and is executable."""
    try:
        program = shlex.split(command)[0]
    except (ValueError, IndexError):
        return None
    found = program if os.path.isabs(program) else shutil.which(program)
    if found and os.path.isfile(found) and os.access(found, os.X_OK):
        return found
    return None


def check_agent(
    agent: str,
    path: str,
    cwd: str,
    *,
    project: bool = False,
    speed_cache: dict[str, list[Finding]] | None = None,
) -> list[Finding]:
    """Every check of one agent's hook; ``speed_cache`` (shared by the agents of one run)
    turns on the timing checks."""
    scope = agent
    fix_install = f"dcg install --agent {agent}"
    try:
        text = _read(path)
        layout = _hooks.SPECS[agent].layout
        if text is None:
            command, covered = None, False
        elif _hooks.owned(agent):
            command = _hooks.owned_command(agent, text)
            covered = command is not None and _hooks.owned_covers(agent, text)
        elif isinstance(layout, _spec.TomlTables):
            found = _owned.toml_registered(layout, text, path)
            command = found[0][1] if found else None
            covered = any(_hooks.covers(agent, matcher) for matcher, _ in found)
        else:
            settings = _hooks.read_json(path)
            data = settings.data if settings else {}
            found = _hooks.registered(agent, data)
            command = found[0][1] if found else None
            covered = _hooks.covered(agent, data)
    except DcgError as exc:
        return [Finding(scope, "settings", False, True, str(exc), f"fix {path}")]
    if command is None:
        return [Finding(scope, "registered", False, True, f"no dcg hook in {path}", fix_install)]
    out = [Finding(scope, "registered", True, False, path, "")]
    grouped = isinstance(
        _hooks.SPECS[agent].layout, _spec.Grouped | _spec.TomlTables | _spec.Rules | _spec.OwnedText
    )
    tools = "/".join(_hooks.SPECS[agent].tools()) if grouped else "shell"
    if covered:
        out.append(Finding(scope, "matcher", True, False, f"covers {tools}", ""))
    else:
        detail = f"the hook's matcher does not cover {tools}"
        out.append(Finding(scope, "matcher", False, True, detail, fix_install))
    if _executable(command) is None:
        detail = f"{shlex.split(command)[0]} does not exist or is not executable"
        return [*out, Finding(scope, "executable", False, True, detail, fix_install)]
    out.append(Finding(scope, "executable", True, False, shlex.split(command)[0], ""))
    parsed = _hooks.parse_command(command)
    if parsed is not None and parsed.entry is not None:
        if not os.path.isfile(parsed.entry):
            detail = f"the entry file {parsed.entry} does not exist (dcg moved or removed?)"
            return [*out, Finding(scope, "entry file", False, True, detail, fix_install)]
        out.append(entry_finding(scope, parsed.entry, fix_install, parsed.program))
    out += check_hook_options(scope, command, fix_install)
    if speed_cache is not None:
        out += check_speed(agent, command, cwd, project=project, cache=speed_cache)
    if isinstance(_hooks.SPECS[agent].layout, _spec.OwnedScript):
        # The agent runs the script file itself (Cline): test that, as it will run it.
        if not os.access(path, os.X_OK):
            detail = f"{path} is not executable: the agent cannot run it"
            return [*out, Finding(scope, "executable", False, True, detail, fix_install)]
        command = shlex.quote(path)
    ok, detail = self_test(agent, command, cwd)
    fix = "" if ok else "run `dcg test 'git reset --hard'` and check `dcg config response`"
    out.append(Finding(scope, "self-test", ok, not ok, detail, fix))
    out.append(failure_mode(agent))
    check = _hooks.SPECS[agent].check
    if check is not None:
        name, ok, fatal, detail = check(text, path)
        out.append(
            Finding(agent, name, ok, fatal, detail, "" if ok else f"dcg install --agent {agent}")
        )
    return out


def failure_mode(agent: str) -> Finding:
    """What a hook error (a crash, a missing interpreter, a time-out) does to a command in
    this agent: a warning where the command then runs (the agent offers dcg no way to
    make it block), ok where the registered entry makes it block."""
    spec = _hooks.SPECS[agent]
    closed = spec.fails == _spec.FAILS_CLOSED
    detail = spec.fail_text
    if closed and spec.closed_since is not None:
        binary, since = spec.closed_since
        found = _agent_version(binary)
        if found is not None and _older(found, since):
            closed = False
            detail = f"{spec.title} {found} is older than {since}: {detail}"
    if closed:
        return Finding(agent, "on failure", True, False, detail, "")
    fix = "keep dcg healthy (dcg doctor); the agent offers no fail-closed setting"
    if spec.closed_since is not None:
        fix = f"upgrade {spec.title} to {spec.closed_since[1]} or later"
    how = "partly fails open" if spec.fails == _spec.FAILS_MIXED else "fails open"
    return Finding(agent, "on failure", False, False, f"{how}: {detail}", fix)


def _agent_version(binary: str) -> str | None:
    import re

    exe = shutil.which(binary)
    if exe is None:
        return None
    try:
        run = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    found = re.search(r"\d+\.\d+\.\d+", run.stdout or "")
    return found.group(0) if found else None


def _older(found: str, since: str) -> bool:
    return tuple(map(int, found.split("."))) < tuple(map(int, since.split(".")))


def entry_finding(scope: str, entry: str, fix: str, python: str | None = None) -> Finding:
    """The registered entry file: ``_entry.py``, or what an older install registered in its
    place (which ``dcg install`` replaces): ``_fast.py``, compiled by Python on every call,
    or its compiled copy, which the registered interpreter ``python`` refuses once it is
    another version than the one that wrote it (the hook cannot run)."""
    if not _hooks.old_entry(entry):
        return Finding(scope, "entry file", True, False, entry, "")
    if entry.endswith(".pyc") and python is not None and _same_program(python, sys.executable):
        import importlib.util

        with open(entry, "rb") as f:
            magic = f.read(4)
        if magic != importlib.util.MAGIC_NUMBER:
            detail = f"{entry} was compiled for another version of {python}, which refuses it"
            return Finding(scope, "entry file", False, True, detail, fix)
    detail = (
        f"{entry}: an older install's entry file (Python compiles it on every call, or "
        f"refuses its compiled form after an interpreter upgrade); {_hooks.ENTRY_NAME} replaces it"
    )
    return Finding(scope, "entry file", False, False, detail, fix)


def _same_program(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def check_hook_options(scope: str, command: str, fix: str) -> list[Finding]:
    """Options of the registered ``dcg hook`` command that the hook cannot use.

    The hook keeps protecting with such options (decisions.md 10.5), but not as the
    person meant: an unknown ``--agent`` falls back to detection, an unknown ``--mode``
    to paranoid. Each is a failure with the one-line fix.
    """
    from dcg.hook import parse_flags

    parsed = _hooks.parse_command(command)
    if parsed is None:
        return []
    notices: list[str] = []
    parse_flags(parsed.args, notices)
    return [Finding(scope, "hook options", False, True, n, fix) for n in notices]


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        return None


def check_config(cwd: str) -> list[Finding]:
    """Config problems; a file that does not parse, or a mode dcg cannot read, is fatal:
    the hook then protects in paranoid mode until it is fixed (decisions.md 10.5)."""
    from dcg.config import load

    try:
        cfg = load(cwd)
    except Exception as exc:  # a broken config is a finding, not a crash
        detail = f"{type(exc).__name__}: {exc}"
        return [Finding("config", "valid", False, True, detail, f"edit {paths.user_config()}")]
    out: list[Finding] = []
    for broken in cfg.broken:
        path = broken.split(": ", 1)[0]
        fix = f"fix the TOML syntax in {path} (dcg is in paranoid mode until then)"
        out.append(Finding("config", "parses", False, True, broken, fix))
    for problem in cfg.problems:
        if problem in cfg.broken:
            continue
        strict = problem.endswith("using paranoid")
        path = problem.split(": ", 1)[0]
        fix = f"edit {path if os.path.isfile(path) else paths.user_config()}"
        out.append(Finding("config", "valid", False, strict, problem, fix))
    for bad in allowlist.problems():  # ignored by the hook: not the protection meant
        out.append(Finding("allowlist", "valid", False, True, bad, "fix or remove that entry"))
    return out or [Finding("config", "valid", True, False, "no problems", "")]


def check_state() -> list[Finding]:
    out: list[Finding] = []
    for directory in (paths.config_dir(), paths.session_dir()):
        if not os.path.isdir(directory):
            continue
        out.append(_private(directory, 0o700))
        for name in sorted(os.listdir(directory)):
            full = os.path.join(directory, name)
            if os.path.isfile(full) and not os.path.islink(full):
                out.append(_private(full, 0o600))
    history = paths.history_file()
    if os.path.exists(history):
        try:
            with open(history, encoding="utf-8", errors="replace") as f:
                lines = [line for line in f if line.strip()]
        except OSError as exc:
            fix = f"chmod 600 {history}"
            out.append(Finding("state", "history", False, False, f"unreadable: {exc}", fix))
        else:
            # As every reader reads them: a torn fragment is skipped, a glued record read.
            bad = sum(1 for line in lines if history_line(line.encode()) is None)
            detail = f"{len(lines)} records" + (f", {bad} unreadable (skipped)" if bad else "")
            out.append(Finding("state", "history", True, False, detail, ""))
    return [f for f in out if not f.ok] or [
        Finding("state", "private", True, False, "state files are private", "")
    ] + [f for f in out if f.check == "history"]


def _private(path: str, mode: int) -> Finding:
    actual = stat.S_IMODE(os.stat(path).st_mode)
    if actual & 0o077:
        detail = f"{path} is readable by others ({actual:o})"
        return Finding("state", "private", False, False, detail, f"chmod {mode:o} {path}")
    return Finding("state", "private", True, False, path, "")


def doctor(
    *,
    json_output: bool = False,
    project: bool = False,
    cwd: str | None = None,
    stdout: TextIO | None = None,
) -> int:
    out = stdout or sys.stdout
    home = os.path.expanduser("~")
    cwd = cwd or os.getcwd()
    findings: list[Finding] = []
    checked = 0
    speed_cache: dict[str, list[Finding]] = {}
    for agent in _hooks.AGENTS:
        scopes = [False, True] if project else [False]
        for in_project in scopes:
            try:
                path = _hooks.settings_path(agent, home=home, cwd=cwd, project=in_project)
            except DcgError:
                continue  # the agent reads no hooks there (Kimi Code: no project file)
            if not (os.path.exists(path) or (not in_project and _hooks.is_present(agent, home))):
                continue
            checked += 1
            findings += check_agent(agent, path, cwd, project=in_project, speed_cache=speed_cache)
    if not checked:
        fix = "install an agent, then `dcg install`"
        findings.append(Finding("agents", "found", False, True, "no supported agent found", fix))
    if scope := _doctor_platform.problem():  # POSIX only (README, Set-up)
        findings.append(Finding("platform", "posix", False, True, *scope))
    findings += check_config(cwd)
    findings += check_state()
    _report(findings, json_output, out)
    return 1 if any(f.fatal and not f.ok for f in findings) else 0


def _report(findings: list[Finding], json_output: bool, out: TextIO) -> None:
    if json_output:
        out.write(json.dumps([f._asdict() for f in findings], indent=2) + "\n")
        return
    plain = os.environ.get("NO_COLOR") is not None or not out.isatty()
    if plain:
        for f in findings:
            mark = "ok  " if f.ok else ("FAIL" if f.fatal else "warn")
            line = f"{mark} {f.scope}: {f.check}: {f.detail}"
            out.write(line + (f"\n     fix: {f.fix}\n" if f.fix and not f.ok else "\n"))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table("", "scope", "check", "detail", "fix")
    for f in findings:
        mark = "[green]ok[/]" if f.ok else ("[red]FAIL[/]" if f.fatal else "[yellow]warn[/]")
        table.add_row(mark, f.scope, f.check, f.detail, f.fix)
    Console(file=out).print(table)
