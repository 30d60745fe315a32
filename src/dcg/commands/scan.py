"""``dcg scan``: the destructive commands that scripts, CI and build files will run.

Every command found by :mod:`dcg.extract` is judged by the hook's engine with the
configured packs, so data stays data and what the hook lets pass makes no finding.

A Dockerfile ``RUN`` is judged for what it is: a build step inside an image, whose file
system is thrown away and rebuilt; deleting the image's own files (``rm -rf
/var/lib/apt/lists/*``, even ``rm -rf /usr``) is not the host's loss, so the
``core.filesystem`` rules are not applied to it. Everything that reaches outside the
image still is (git, databases, clouds, clusters), and so is a ``RUN`` with a bind mount
(``--mount=type=bind``), whose deletions reach the build context on the host.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from typing import TYPE_CHECKING

from dcg.commands._scan_finding import Finding
from dcg.errors import DcgError

if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable, Sequence

    from dcg.commands._scan_files import Source
    from dcg.config import Config
    from dcg.extract import Found
    from dcg.model import Match

SEVERITIES = ("low", "medium", "high", "critical")
RANK = {name: i for i, name in enumerate(SEVERITIES, start=1)}
PROGRESS_MIN_FILES = 200
MAX_ASSIGNMENTS = 32
# Formats whose commands run in the directory of the file that holds them.
OWN_DIR = frozenset({"makefile", "package.json", "justfile", "taskfile"})


def judge(text: str, packs: Sequence[str], cwd: str | None, shell: str = "bash") -> list[Match]:
    """The hook's matches for one command line (a line too complex to parse is too-complex)."""
    from dcg.engine import candidate_packs, evaluate, scan_text
    from dcg.service import synthetic
    from dcg.shell import TooComplex

    try:
        evaluation = evaluate(
            text, list(packs), cwd=cwd, shell=shell, deadline=time.thread_time() + 2.0
        )
    except TooComplex as exc:
        if not candidate_packs(scan_text(text), packs):
            return []
        return [synthetic("too-complex", text, str(exc))]
    # One finding per simple command, the match the hook would answer with: `rm -rf ~` is a
    # home-directory deletion, not also a second finding for dcg's state inside it.
    seen: set[int] = set()
    first = []
    for match in evaluation.matches:
        if id(match.command) not in seen:
            seen.add(id(match.command))
            first.append(match)
    return first


def _locate(found: Found, match: Match) -> tuple[int, int]:
    """The file line and column of ``match`` within a (possibly multi-line) command."""
    lines = found.text.split("\n")
    if len(lines) == 1:
        return found.line, found.column
    words = [w for w in match.command.argv if w]
    best, best_score = 0, -1
    for i, line in enumerate(lines):
        score = sum(1 for w in words if w in line)
        if score > best_score:
            best, best_score = i, score
    if best == 0:
        return found.line, found.column
    line = lines[best]
    return found.line + best, len(line) - len(line.lstrip()) + 1


def _one_word(value: str) -> bool:
    """``value`` is one shell word with no command substitution in it."""
    if not value or "$(" in value or "`" in value or "\n" in value:
        return False
    quote = ""
    for c in value:
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c in " \t;|&<>()":
            return False
    return not quote


def is_assignment(text: str) -> bool:
    """``NAME=word`` (or ``export NAME=word``) with no command substitution in it."""
    line = text.strip()
    for keyword in ("export ", "readonly ", "declare ", "local "):
        if line.startswith(keyword):
            line = line[len(keyword) :].lstrip()
    name, eq, value = line.partition("=")
    if not eq or not name.replace("_", "a").isalnum() or name[0].isdigit():
        return False
    return value == "" or _one_word(value)


class ScriptState:
    """What earlier lines of a script set for the later ones: plain assignments and ``cd``.

    A script runs top to bottom in one shell, so ``DIR=~`` then ``rm -rf "$DIR"``, or
    ``cd /`` then ``rm -rf *``, are judged together, as the hook judges ``cd / && rm -rf *``.
    Lines that run commands are never replayed (only assignments of plain words and ``cd``).
    """

    def __init__(self) -> None:
        self.lines: dict[str, str] = {}
        self.cds = 0

    def context(self) -> list[str]:
        return list(self.lines.values())

    def note(self, text: str, clean: bool = True, shell: str = "bash") -> None:
        """Remember ``text`` for later lines when it sets something they depend on.

        ``clean``: the hook stopped nothing on the line. Only then are an assignment of a
        command's output (``work=$(mktemp -d)``: the hook knows a temp directory) and a
        single ``mkdir`` or ``git clone`` (the paths a script made, see
        :mod:`dcg.commands._scan_scratch`) replayed; judging them runs nothing.
        """
        from dcg.commands._scan_scratch import ps_replayed

        line = text.strip()
        if shell == "powershell":
            if not (clean and ps_replayed(line)):
                return
            self.cds += 1
            name = line.split("=", 1)[0].strip()
            key = f"ps:{name}" if line.startswith("$") else f"mk:{self.cds}"
        elif is_assignment(line):
            key = line.split("=", 1)[0].split()[-1]
        elif line.startswith("cd ") and _one_word(line[3:].strip()):
            target = line[3:].strip().strip("'\"")
            if target.startswith(("/", "~", "$HOME", "${HOME}")):
                for old in [k for k in self.lines if k.startswith("cd:")]:
                    del self.lines[old]
            self.cds += 1
            key = f"cd:{self.cds}"
        elif clean and _computed(line):
            key = line.split("=", 1)[0].split()[-1]
        elif clean and _makes(line):
            self.cds += 1
            key = f"mk:{self.cds}"
        else:
            return
        self.lines.pop(key, None)
        self.lines[key] = line
        if len(self.lines) > MAX_ASSIGNMENTS:
            del self.lines[next(iter(self.lines))]


def _value(line: str) -> tuple[str, str]:
    """``(name, value)`` of a plain assignment line, the value's quotes removed."""
    for keyword in ("export ", "readonly ", "declare ", "local "):
        if line.startswith(keyword):
            line = line[len(keyword) :].lstrip()
    name, _, value = line.partition("=")
    return name, value.replace('"', "").replace("'", "")


def _computed(line: str) -> bool:
    """``NAME=$(…)`` or ``NAME=`…``` (``local``/``export`` allowed): one assignment."""
    for keyword in ("export ", "readonly ", "declare ", "local "):
        if line.startswith(keyword):
            line = line[len(keyword) :].lstrip()
    name, eq, value = line.partition("=")
    if not eq or not name or not name.replace("_", "a").isalnum() or name[0].isdigit():
        return False
    value = value.strip('"')
    return "\n" not in value and (
        (value.startswith("$(") and value.endswith(")"))
        or (value.startswith("`") and value.endswith("`"))
    )


def _makes(line: str) -> bool:
    """One ``mkdir`` or ``git clone`` and nothing else on the line."""
    if any(c in line for c in ";&|<>`\n") or "$(" in line:
        return False
    words = line.split()
    return words[0] == "mkdir" or (words[0] == "git" and "clone" in words[1:3])


def findings_in(
    found: Found, cfg: Config, cwd: str | None, context: Sequence[str] = ()
) -> list[Finding]:
    """The findings for one command; ``context``: what earlier script lines set (ScriptState)."""
    from dcg.commands._scan_judge import in_image, judged
    from dcg.commands._scan_scratch import is_scratch, ps_values

    out: list[Finding] = []
    text = "; ".join([*context, found.text]) if context else found.text
    image = found.source == "dockerfile" and found.label == "RUN"
    matches, commands = judged(text, cfg, cwd, found.shell)
    if found.shell == "powershell":
        values = ps_values(context)
    else:
        values = dict(_value(line) for line in context if is_assignment(line))
    for match in matches:
        if (image and in_image(match)) or is_scratch(match, commands, values):
            continue
        line, column = _locate(found, match)
        rule = match.rule
        out.append(
            Finding(
                found.path,
                line,
                column,
                match.rule_id,
                match.severity,
                found.text,
                match.command.text,
                rule.reason,
                rule.explanation,
                rule.alternative,
                found.source,
                found.label,
                "",
            )
        )
    return out


def fingerprinted(findings: Iterable[Finding]) -> list[Finding]:
    """Give each finding a fingerprint that survives lines moving: rule, file, command, nth."""
    seen: dict[tuple[str, str, str], int] = {}
    out: list[Finding] = []
    for f in findings:
        key = (f.rule_id, f.path, " ".join(f.command.split()))
        n = seen.get(key, 0)
        seen[key] = n + 1
        digest = hashlib.sha256("\0".join([*key, str(n)]).encode()).hexdigest()[:32]
        out.append(f._replace(fingerprint=digest))
    return out


def scan(
    paths: list[str],
    *,
    staged: bool = False,
    git_diff: str | None = None,
    include_docs: bool = False,
    progress: bool = False,
    cwd: str | None = None,
) -> tuple[list[Finding], int, int, str | None]:
    """``(findings, files scanned, commands judged, repository root)``.

    Commands are judged as run from ``cwd`` (default: the repository root, else the
    current directory); a Makefile's, package.json's, justfile's or Taskfile's from the
    directory that holds it, where make, npm, just and task run them.
    """
    from dcg import config
    from dcg.commands import _scan_files as files
    from dcg.extract import extract, format_of

    start = os.path.abspath(paths[0]) if paths else os.getcwd()
    root = files.git_root(start)
    added: dict[str, set[int]] | None = None
    if staged or git_diff is not None:
        if root is None:
            raise DcgError("--staged and --git-diff need a git repository")
        sources, added = files.changed(root, None if staged else git_diff, paths)
    else:
        sources = list(files.listed(paths, root))
    # The hook's configuration in paranoid mode: a finding is what the hook would stop.
    cfg = config.load(root or os.getcwd(), os.environ, {"mode": "paranoid"})
    for problem in cfg.problems:
        print(f"dcg: warning: {problem}", file=sys.stderr)
    base = cwd if cwd is not None else root or os.getcwd()
    findings: list[Finding] = []
    n_files = n_commands = 0
    for source in _progress(sources, progress and len(sources) >= PROGRESS_MIN_FILES):
        fmt = format_of(source.rel, source.head(root), include_docs=include_docs)
        if fmt is None:
            continue
        here = base
        if fmt in OWN_DIR and "/" in source.rel:
            here = os.path.join(base, source.rel.rsplit("/", 1)[0])
        text = source.read(root)
        if text is None:
            continue
        n_files += 1
        state = ScriptState()
        for found in extract(source.rel, text, include_docs=include_docs):
            n_commands += 1
            context = state.context() if found.source == "shell" else []
            got = findings_in(found, cfg, here, context)
            if found.source == "shell":
                state.note(found.text, clean=not got, shell=found.shell)
            for finding in got:
                lines = set(range(found.line, found.line + found.text.count("\n") + 1))
                if added is None or lines & added.get(source.rel, set()):
                    findings.append(finding)
    findings.sort(key=lambda f: (f.path, f.line, f.column, -RANK[f.severity]))
    return fingerprinted(findings), n_files, n_commands, root


def _progress(items: list[Source], show: bool) -> Iterable[Source]:
    if not show:
        yield from items
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("scanning", total=len(items))
        for item in items:
            yield item
            bar.advance(task)


def failing(findings: Iterable[Finding], fail_on: str) -> bool:
    if fail_on == "none":
        return False
    return any(RANK[f.severity] >= RANK[fail_on] for f in findings)


def main(args: argparse.Namespace) -> int:
    from dcg.commands import _scan_report as report

    if args.staged and args.git_diff:
        raise DcgError("--staged and --git-diff cannot be combined")
    findings, n_files, n_commands, root = scan(
        list(args.paths),
        staged=args.staged,
        git_diff=args.git_diff,
        include_docs=args.include_docs,
        progress=sys.stderr.isatty(),
    )
    text = report.render(args.format, findings, n_files, n_commands, root)
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 1 if failing(findings, args.fail_on) else 0
