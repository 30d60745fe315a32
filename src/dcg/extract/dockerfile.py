"""Dockerfile ``RUN`` instructions (shell form, exec form and heredocs), located in the file.

What a ``RUN`` deletes is the image's own file system, not the host's: ``dcg scan`` judges
these with the ``dockerfile`` source (see :mod:`dcg.commands.scan` for what that excuses).
``SHELL ["pwsh", …]`` switches the later instructions to PowerShell.
"""

from __future__ import annotations

import json
import shlex

from dcg.extract.found import Found
from dcg.extract.script import split


def _instructions(text: str) -> list[tuple[int, int, str, str]]:
    """``(line, column of the arguments, INSTRUCTION, arguments)``, continuations joined."""
    escape = "\\"
    lines = text.split("\n")
    out: list[tuple[int, int, str, str]] = []
    i = 0
    for line in lines[:5]:
        low = line.replace(" ", "").lower()
        if low.startswith("#escape="):
            escape = low[len("#escape=") :][:1] or "\\"
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        if not stripped or stripped.startswith("#"):
            i += 1
            continue
        start = i
        word, _, rest = stripped.partition(" ")
        column = len(line) - len(stripped) + len(word) + 2 + len(rest) - len(rest.lstrip())
        parts = [rest.lstrip()]
        while parts[-1].rstrip().endswith(escape) and i + 1 < len(lines):
            if escape != "\\":
                parts[-1] = parts[-1].rstrip()[:-1]
            i += 1
            while i < len(lines) and lines[i].lstrip().startswith("#"):
                i += 1  # Docker drops comment lines inside a continuation
            if i < len(lines):
                parts.append(lines[i])
        i += 1
        # With the default escape the backslash-newlines stay: the shell reads them the same
        # way, and the script splitter keeps the instruction one command line.
        args = "\n".join(parts) if escape == "\\" else " ".join(p.strip() for p in parts)
        if word.upper() == "RUN" and "<<" in parts[0]:
            body: list[str] = []
            while i < len(lines):
                body.append(lines[i])
                i += 1
                if lines[i - 1].strip() == parts[0].split("<<", 1)[1].split()[0].strip("-'\""):
                    break
            out.append((start + 2, 1, "HEREDOC", "\n".join(body[:-1])))
            continue
        out.append((start + 1, column, word.upper(), args))
    return out


def _strip_flags(args: str) -> tuple[str, int]:
    skipped = 0
    while args.startswith("--"):
        flag, _, rest = args.partition(" ")
        skipped += len(flag) + 1 + len(rest) - len(rest.lstrip())
        args = rest.lstrip()
    return args, skipped


def commands(path: str, text: str) -> list[Found]:
    out: list[Found] = []
    shell = "bash"
    for line, column, word, args in _instructions(text):
        if word == "SHELL":
            try:
                argv = json.loads(args)
            except ValueError:
                continue
            name = str(argv[0]).rsplit("/", 1)[-1].lower() if argv else ""
            shell = "powershell" if name.startswith(("pwsh", "powershell")) else "bash"
            continue
        if word == "HEREDOC":
            out.extend(
                split(args, path=path, source="dockerfile", label="RUN", line=line, shell=shell)
            )
            continue
        if word != "RUN":
            continue
        # A bind mount lets the step reach the host's build context: labelled apart.
        command, skipped = _strip_flags(args)
        label = "RUN --mount=type=bind" if "type=bind" in args[:skipped] else "RUN"
        args = command
        column += skipped
        if args.startswith("["):
            try:
                argv = json.loads(args)
            except ValueError:
                argv = None
            if isinstance(argv, list):
                out.append(
                    Found(path, line, column, shlex.join(map(str, argv)), "dockerfile", label)
                )
                continue
        for found in split(
            args, path=path, source="dockerfile", label="RUN", line=line, shell=shell
        ):
            col = column if found.line == line else found.column
            out.append(Found(path, found.line, col, found.text, "dockerfile", label, shell))
    return out
