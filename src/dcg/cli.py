"""The command line: argparse lives here and only here; subcommands are imported lazily."""

from __future__ import annotations

import argparse
import sys

from dcg import __version__
from dcg.agents import AGENTS
from dcg.errors import DcgError
from dcg.response import MODES

# typing is not imported at run time: it costs more than the hook's whole budget.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    from dcg.config import Config


# The draft's global flags (section 4.3). They are accepted before any subcommand, under
# their own destinations so that no subcommand option can overwrite them (or be
# overwritten by them); a subcommand's own flag wins over the global one.
GLOBAL_FLAGS = ("mode", "no_warnings", "session_threshold", "history_threshold")


_SESSION_HELP = (
    "count as in this agent session (its own id, as in its payload); default: your shell"
)


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, not {text!r}")
    return int(text)


def _graduation_flags(p: argparse.ArgumentParser, prefix: str = "") -> None:
    p.add_argument("--mode", choices=MODES, dest=f"{prefix}mode", help="graduation mode")
    p.add_argument(
        "--no-warnings",
        "--quiet",
        action="store_true",
        dest=f"{prefix}no_warnings",
        help="suppress warning output",
    )
    p.add_argument(
        "--session-threshold", type=_positive, metavar="N", dest=f"{prefix}session_threshold"
    )
    p.add_argument(
        "--history-threshold", type=_positive, metavar="N", dest=f"{prefix}history_threshold"
    )


def _allowlist_scope(p: argparse.ArgumentParser) -> None:
    # Not dest="command": that name once belonged to the subcommand and swallowed it.
    p.add_argument(
        "--command", dest="exact_command", metavar="CMD", help="one exact simple command"
    )
    scope = p.add_mutually_exclusive_group()
    scope.add_argument("--user", action="store_true", help="user allowlist (default)")
    scope.add_argument("--system", action="store_true", help="system allowlist (/etc/dcg)")


class _Choices:
    """Choices argparse asks for only when it checks a value or prints them: the agents
    that have transcripts are known only from every agent's spec (each adapter imported)."""

    def __init__(self, get: Callable[[], tuple[str, ...]]) -> None:
        self._get = get

    def __contains__(self, value: object) -> bool:
        return value in self._get()

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())


def _transcript_agents() -> tuple[str, ...]:
    from dcg.commands import _transcripts

    return _transcripts.agents()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dcg",
        description="Destructive command guard: stops AI agents from running destructive commands.",
        epilog="--mode, --no-warnings/--quiet and the thresholds given before COMMAND apply to "
        "it (dcg --mode=paranoid test 'git reset --hard'); `dcg COMMAND --help` for the rest.",
    )
    parser.add_argument("--version", action="version", version=f"dcg {__version__}")
    _graduation_flags(parser, prefix="global_")
    sub = parser.add_subparsers(dest="subcommand", metavar="COMMAND")

    # Listed for `dcg --help` and the completions; main() hands `hook` its own arguments.
    p = sub.add_parser("hook", help="read an agent hook payload on stdin and answer it")
    p.add_argument("--agent", choices=AGENTS)
    _graduation_flags(p)

    p = sub.add_parser("test", help="would dcg stop this command? (exit 1 if so)")
    p.add_argument("cmd", metavar="COMMAND")
    p.add_argument("--json", action="store_true")
    p.add_argument(
        "--with-packs", default="", metavar="IDS", help="comma-separated packs to enable"
    )
    p.add_argument("--cwd", help="directory the command would run in (default: here)")
    p.add_argument("--shell", choices=("bash", "powershell"), default="bash")
    p.add_argument("--session", metavar="ID", help=_SESSION_HELP)
    _graduation_flags(p)

    p = sub.add_parser("explain", help="show how dcg reads a command and why it decides")
    p.add_argument("cmd", metavar="COMMAND")
    p.add_argument("--json", action="store_true")
    p.add_argument("--with-packs", default="", metavar="IDS")
    p.add_argument("--cwd")
    p.add_argument("--shell", choices=("bash", "powershell"), default="bash")
    p.add_argument("--session", metavar="ID", help=_SESSION_HELP)
    _graduation_flags(p)

    p = sub.add_parser("packs", help="list packs, or show one pack's rules")
    p.add_argument("pack_id", nargs="?", metavar="PACK")
    p.add_argument("--json", action="store_true")
    p.add_argument(
        "--markdown", action="store_true", help="print the pack reference (docs/packs.md)"
    )
    p = sub.add_parser("pack", help="show one pack's rules")
    p.add_argument("pack_id", metavar="PACK")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("confirm", help="approve a soft-blocked command (from a terminal)")
    p.add_argument(
        "code", nargs="?", help="the 4-character code you were shown; without it, list what waits"
    )
    p = sub.add_parser("allow-once", help="allow a hard-blocked command (from a terminal)")
    p.add_argument(
        "code", nargs="?", help="the 4-character code you were shown; without it, list what waits"
    )
    p.add_argument("--single-use", action="store_true", help="allow one run only")

    p = sub.add_parser("allowlist", help="manage allowlisted rules and commands")
    a = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    add = a.add_parser("add", help="allow a rule, a whole pack (pack.id:*) or one command")
    add.add_argument("target", nargs="?", help="rule id (core.git:reset-hard) or pack.id:*")
    _allowlist_scope(add)
    add.add_argument("--reason", help="why (shown by list)")
    add.add_argument("--expires", help="lifetime such as 12h or 7d")
    rm = a.add_parser("remove", help="remove entries")
    rm.add_argument("target", nargs="?", help="rule id or pack.id:* to remove")
    _allowlist_scope(rm)
    ls = a.add_parser("list", help="show entries")
    ls.add_argument("--json", action="store_true")

    p = sub.add_parser("session", help="show or clear graduation sessions")
    p.add_argument("action", nargs="?", choices=["clear"])
    p.add_argument(
        "--id",
        dest="session_id",
        metavar="ID",
        help="only this session: the agent's own session id, or dcg's id (a prefix will do)",
    )
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("history", help="show matched commands from the history")
    p.add_argument("rule_id", nargs="?", help="only this rule (or pack.id:* / pack prefix)")
    p.add_argument("--window", default="24h", help="how far back (e.g. 1h, 24h, 7d)")
    p.add_argument("--cwd", help="only commands run in this directory or below")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser(
        "undo", help="list the safety net's snapshots, or put one back (dcg undo --last)"
    )
    p.add_argument("id", nargs="?", metavar="ID", help="the snapshot to put back (or a prefix)")
    p.add_argument("--last", action="store_true", help="the newest snapshot of this project")
    p.add_argument("--dry-run", action="store_true", help="show what would change, do nothing")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("stats", help="statistics from the history")
    p.add_argument("--graduation", action="store_true", help="break down by response level")
    p.add_argument("--window", default="30d", help="how far back (default: all kept history)")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("config", help="show or migrate configuration")
    p.add_argument("action", nargs="?", choices=["response", "migrate"])
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("audit", help="export history records, or ship them to OpenTelemetry")
    a = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    ex = a.add_parser("export", help="print history records (read-only)")
    ex.add_argument("--since", metavar="WHEN", help="a duration (24h, 7d) or a date (2026-01-15)")
    ex.add_argument("--format", choices=("jsonl", "csv"), default="jsonl")
    sh = a.add_parser("ship", help="send records written since the last run over OTLP/HTTP")
    sh.add_argument("--batch-size", type=_positive, metavar="N", help="records per request")
    sh.add_argument("--retries", type=int, default=5, metavar="N", help="per batch (default 5)")
    sh.add_argument(
        "--backoff", type=float, default=2.0, metavar="S", help="first retry delay, doubling"
    )
    sh.add_argument("--timeout", type=float, metavar="S", help="per request (default 10)")

    p = sub.add_parser("scan", help="find destructive commands in scripts, CI and build files")
    p.add_argument("paths", nargs="*", metavar="PATH", help="files or directories (default: .)")
    diff = p.add_mutually_exclusive_group()
    diff.add_argument("--staged", action="store_true", help="only lines added in the index")
    diff.add_argument("--git-diff", metavar="REV", help="only lines added since REV")
    p.add_argument("--format", choices=("pretty", "json", "sarif", "markdown"), default="pretty")
    p.add_argument(
        "--fail-on",
        choices=("low", "medium", "high", "critical", "none"),
        default="low",
        help="exit 1 when a finding is at least this severe (default: low, any finding)",
    )
    p.add_argument("--include-docs", action="store_true", help="also fenced shell in Markdown")
    p = sub.add_parser("replay", help="what today's policy would have done with past sessions")
    p.add_argument("paths", nargs="*", metavar="PATH", help="transcript files or directories")
    p.add_argument(
        "--agent", choices=_Choices(_transcript_agents), help="only this agent's transcripts"
    )
    p.add_argument("--since", metavar="DATE", help="only commands from DATE (YYYY-MM-DD) on")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("install", help="register dcg with your coding agents")
    p.add_argument("--agent", action="append", choices=AGENTS, dest="agents", default=[])
    p.add_argument("--all", action="store_true", dest="all_agents", help="every supported agent")
    p.add_argument("--project", action="store_true", help="write the project's settings instead")
    p.add_argument("--dry-run", action="store_true", help="print the changes, write nothing")
    p = sub.add_parser("uninstall", help="remove dcg's hook from your coding agents")
    p.add_argument("--agent", action="append", choices=AGENTS, dest="agents", default=[])
    p.add_argument("--all", action="store_true", dest="all_agents")
    p.add_argument("--project", action="store_true")
    p.add_argument("--dry-run", action="store_true")
    p = sub.add_parser("doctor", help="check that the hooks are installed and effective")
    p.add_argument("--json", action="store_true", help="machine-readable findings")
    p.add_argument("--project", action="store_true", help="check the project's settings too")
    p = sub.add_parser("completions", help="print a shell completion script")
    p.add_argument("shell", choices=("bash", "zsh", "fish"))
    return parser


def _install(args: argparse.Namespace) -> int:
    from dcg.commands.install import install

    return install(
        args.agents, all_agents=args.all_agents, project=args.project, dry_run=args.dry_run
    )


def _uninstall(args: argparse.Namespace) -> int:
    from dcg.commands.uninstall import uninstall

    return uninstall(
        args.agents, all_agents=args.all_agents, project=args.project, dry_run=args.dry_run
    )


def _doctor(args: argparse.Namespace) -> int:
    from dcg.commands.doctor import doctor

    return doctor(json_output=args.json, project=args.project)


def _flags(args: argparse.Namespace) -> dict[str, object]:
    """The graduation flags given on this command line (global or the subcommand's own)."""
    out: dict[str, object] = {}
    for name in GLOBAL_FLAGS:
        value = getattr(args, name, None)
        if value is None or value is False:
            value = getattr(args, f"global_{name}", None)
        if value is not None and value is not False:
            out[name] = value
    return out


def _config(args: argparse.Namespace) -> Config:
    import os

    from dcg import config

    return config.load(os.getcwd(), flags=_flags(args))


def _confirm(args: argparse.Namespace) -> int:
    from dcg.commands import confirm

    return confirm.main(args.code, response=_config(args).response)


def _allow_once(args: argparse.Namespace) -> int:
    from dcg.commands import allow_once

    return allow_once.main(args.code, single_use=args.single_use, response=_config(args).response)


def _allowlist(args: argparse.Namespace) -> int:
    from dcg.commands import allowlist

    return allowlist.main(
        args.action,
        getattr(args, "target", None),
        command=getattr(args, "exact_command", None),
        system=getattr(args, "system", False),
        reason=getattr(args, "reason", None),
        expires=getattr(args, "expires", None),
        json_out=getattr(args, "json", False),
        response=_config(args).response,
    )


def _session(args: argparse.Namespace) -> int:
    from dcg.commands import session

    return session.main(
        args.action,
        session_id=args.session_id,
        json_out=args.json,
        response=_config(args).response,
    )


def _history(args: argparse.Namespace) -> int:
    from dcg.commands import history

    return history.main(args.rule_id, window=args.window, cwd=args.cwd, json_out=args.json)


def _stats(args: argparse.Namespace) -> int:
    from dcg.commands import stats

    return stats.main(graduation=args.graduation, window=args.window, json_out=args.json)


def _config_cmd(args: argparse.Namespace) -> int:
    from dcg.commands import config_cmd

    cfg = _config(args)
    for problem in cfg.problems:
        print(f"dcg: warning: {problem}", file=sys.stderr)
    return config_cmd.main(args.action, cfg=cfg, json_out=args.json)


def _completions(args: argparse.Namespace) -> int:
    from dcg.commands import completions

    print(completions.script(args.shell, completion_spec(build_parser())), end="")
    return 0


def completion_spec(parser: argparse.ArgumentParser) -> dict[str, list[str]]:
    """Words each subcommand accepts (``""``: the top level), for the completion scripts.

    A nested subcommand (``allowlist add``) is keyed ``"allowlist add"``.
    """
    spec: dict[str, list[str]] = {}

    def walk(key: str, p: argparse.ArgumentParser) -> None:
        words: list[str] = []
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, child in action.choices.items():
                    words.append(name)
                    walk(f"{key} {name}".strip(), child)
            elif action.option_strings:
                words += [o for o in action.option_strings if o.startswith("--")]
            elif action.choices:
                words += [str(c) for c in action.choices]
        spec[key] = words

    walk("", parser)
    return spec


def _module(target: str) -> Callable[[argparse.Namespace], int]:
    """A subcommand implemented as ``main(args)`` in a module, imported when run."""

    def run(args: argparse.Namespace) -> int:
        module = __import__(target, fromlist=["main"])
        result: int = module.main(args)
        return result

    return run


# Subcommand name → function taking the parsed namespace and returning the exit code.
COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "test": _module("dcg.commands.test"),
    "explain": _module("dcg.commands.explain"),
    "packs": _module("dcg.commands.packs"),
    "pack": _module("dcg.commands.packs"),
    "confirm": _confirm,
    "allow-once": _allow_once,
    "allowlist": _allowlist,
    "session": _session,
    "history": _history,
    "undo": _module("dcg.commands.undo"),
    "stats": _stats,
    "config": _config_cmd,
    "audit": _module("dcg.commands.audit"),
    "scan": _module("dcg.commands.scan"),
    "replay": _module("dcg.commands.replay"),
    "install": _install,
    "uninstall": _uninstall,
    "doctor": _doctor,
    "completions": _completions,
}


def main(argv: Sequence[str] | None = None) -> int:
    from dcg.globalflags import split_globals

    # The hook parses its own flags, once (dcg.hook.parse_flags): its parser is lenient
    # where argparse would stop (an unknown --mode is paranoid, not a usage error).
    leading, rest = split_globals(list(sys.argv[1:] if argv is None else argv))
    if rest[:1] == ["hook"]:
        from dcg.hook import main as hook_main

        return hook_main(leading + rest[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    # The subcommand's own graduation flags take the global ones as their defaults.
    for name in GLOBAL_FLAGS:
        if getattr(args, name, None) in (None, False) and hasattr(args, name):
            setattr(args, name, getattr(args, f"global_{name}"))
    if args.subcommand is None:
        parser.print_help()
        return 0
    target = COMMANDS.get(args.subcommand)
    if target is None:  # pragma: no cover - argparse rejects unknown commands
        parser.error(f"unknown command {args.subcommand}")
    try:
        return target(args)
    except DcgError as exc:
        print(f"dcg: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # Output piped into `head` and closed early: not an error worth a traceback.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
