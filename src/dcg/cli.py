"""The command line: argparse lives here and only here; subcommands are imported lazily."""

from __future__ import annotations

import argparse
import sys

from dcg import __version__
from dcg.agents import AGENTS
from dcg.errors import DcgError

# typing is not imported at run time: it costs more than the hook's whole budget.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from dcg.config import Config


def _graduation_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--mode", choices=("paranoid", "strict", "standard", "lenient"))
    p.add_argument("--no-warnings", action="store_true", help="suppress warning output")
    p.add_argument("--session-threshold", type=int, metavar="N")
    p.add_argument("--history-threshold", type=int, metavar="N")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dcg",
        description="Destructive command guard: stops AI agents from running destructive commands.",
    )
    parser.add_argument("--version", action="version", version=f"dcg {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

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
    _graduation_flags(p)

    p = sub.add_parser("explain", help="show how dcg reads a command and why it decides")
    p.add_argument("cmd", metavar="COMMAND")
    p.add_argument("--json", action="store_true")
    p.add_argument("--with-packs", default="", metavar="IDS")
    p.add_argument("--cwd")
    p.add_argument("--shell", choices=("bash", "powershell"), default="bash")
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
    p.add_argument("code", nargs="?", help="the 4-character code; without it, pick from a list")
    p = sub.add_parser("allow-once", help="allow a hard-blocked command (from a terminal)")
    p.add_argument("code", nargs="?", help="the 4-character code; without it, pick from a list")
    p.add_argument("--single-use", action="store_true", help="allow one run only")

    p = sub.add_parser("allowlist", help="manage allowlisted rules and commands")
    a = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    add = a.add_parser("add", help="allow a rule, a whole pack (pack.id:*) or one command")
    add.add_argument("target", nargs="?", help="rule id (core.git:reset-hard) or pack.id:*")
    add.add_argument("--command", help="one exact simple command instead of a rule")
    scope = add.add_mutually_exclusive_group()
    scope.add_argument("--user", action="store_true", help="user allowlist (default)")
    scope.add_argument("--system", action="store_true", help="system allowlist (/etc/dcg)")
    add.add_argument("--reason", help="why (shown by list)")
    add.add_argument("--expires", help="lifetime such as 12h or 7d")
    rm = a.add_parser("remove", help="remove entries")
    rm.add_argument("target", nargs="?")
    rm.add_argument("--command")
    rm.add_argument("--system", action="store_true")
    ls = a.add_parser("list", help="show entries")
    ls.add_argument("--json", action="store_true")

    p = sub.add_parser("session", help="show or clear graduation sessions")
    p.add_argument("action", nargs="?", choices=["clear"])
    p.add_argument("--id", dest="session_id", help="only the session with this id (prefix)")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("history", help="show matched commands from the history")
    p.add_argument("rule_id", nargs="?", help="only this rule (or pack.id:* / pack prefix)")
    p.add_argument("--window", default="24h", help="how far back (e.g. 1h, 24h, 7d)")
    p.add_argument("--cwd", help="only commands run in this directory or below")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("stats", help="statistics from the history")
    p.add_argument("--graduation", action="store_true", help="break down by response level")
    p.add_argument("--window", default="30d", help="how far back (default: all kept history)")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("config", help="show or migrate configuration")
    p.add_argument("action", choices=["response", "migrate"])
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


def _config() -> Config:
    import os

    from dcg import config

    return config.load(os.getcwd())


def _confirm(args: argparse.Namespace) -> int:
    from dcg.commands import confirm

    return confirm.main(args.code, response=_config().response)


def _allow_once(args: argparse.Namespace) -> int:
    from dcg.commands import allow_once

    return allow_once.main(args.code, single_use=args.single_use, response=_config().response)


def _allowlist(args: argparse.Namespace) -> int:
    from dcg.commands import allowlist

    return allowlist.main(
        args.action,
        getattr(args, "target", None),
        command=getattr(args, "command", None),
        system=getattr(args, "system", False),
        reason=getattr(args, "reason", None),
        expires=getattr(args, "expires", None),
        json_out=getattr(args, "json", False),
        response=_config().response,
    )


def _session(args: argparse.Namespace) -> int:
    from dcg.commands import session

    return session.main(
        args.action, session_id=args.session_id, json_out=args.json, response=_config().response
    )


def _history(args: argparse.Namespace) -> int:
    from dcg.commands import history

    return history.main(args.rule_id, window=args.window, cwd=args.cwd, json_out=args.json)


def _stats(args: argparse.Namespace) -> int:
    from dcg.commands import stats

    return stats.main(graduation=args.graduation, window=args.window, json_out=args.json)


def _config_cmd(args: argparse.Namespace) -> int:
    from dcg.commands import config_cmd

    cfg = _config()
    for problem in cfg.problems:
        print(f"dcg: warning: {problem}", file=sys.stderr)
    return config_cmd.main(
        args.action, response=cfg.response, history=cfg.history, json_out=args.json
    )


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
    "stats": _stats,
    "config": _config_cmd,
    "install": _install,
    "uninstall": _uninstall,
    "doctor": _doctor,
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    if args.command == "hook":
        from dcg.hook import main as hook_main

        return hook_main(_hook_argv(args))
    target = COMMANDS.get(args.command)
    if target is None:  # pragma: no cover - argparse rejects unknown commands
        parser.error(f"unknown command {args.command}")
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


def _hook_argv(args: argparse.Namespace) -> list[str]:
    out: list[str] = []
    for name in ("agent", "mode", "session_threshold", "history_threshold"):
        value = getattr(args, name)
        if value is not None:
            out += [f"--{name.replace('_', '-')}", str(value)]
    if args.no_warnings:
        out.append("--no-warnings")
    return out
