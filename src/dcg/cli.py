"""The command line: argparse lives here and only here; subcommands are imported lazily."""

from __future__ import annotations

import argparse
import sys

from dcg import __version__
from dcg.errors import DcgError

# typing is not imported at run time: it costs more than the hook's whole budget.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

AGENTS = ("claude", "codex", "gemini", "copilot", "cursor", "windsurf", "opencode")


def _graduation_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--mode", choices=("paranoid", "strict", "standard", "lenient"))
    p.add_argument("--no-warnings", action="store_true", help="suppress warning output")
    p.add_argument("--session-threshold", type=int, metavar="N")
    p.add_argument("--history-threshold", type=int, metavar="N")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dcg",
        description="Destructive command guard: stops AI agents from running commands that destroy work.",
    )
    parser.add_argument("--version", action="version", version=f"dcg {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("hook", help="read an agent hook payload on stdin and answer it")
    p.add_argument("--agent", choices=AGENTS)
    _graduation_flags(p)

    p = sub.add_parser("test", help="would dcg stop this command? (exit 1 if so)")
    p.add_argument("cmd", metavar="COMMAND")
    p.add_argument("--json", action="store_true")
    p.add_argument("--with-packs", default="", metavar="IDS", help="comma-separated packs to enable")
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
    p.add_argument("--markdown", action="store_true", help="print the pack reference (docs/packs.md)")
    p = sub.add_parser("pack", help="show one pack's rules")
    p.add_argument("pack_id", metavar="PACK")
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

    return install(args.agents, all_agents=args.all_agents, project=args.project, dry_run=args.dry_run)


def _uninstall(args: argparse.Namespace) -> int:
    from dcg.commands.uninstall import uninstall

    return uninstall(
        args.agents, all_agents=args.all_agents, project=args.project, dry_run=args.dry_run
    )


def _doctor(args: argparse.Namespace) -> int:
    from dcg.commands.doctor import doctor

    return doctor(json_output=args.json, project=args.project)


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
