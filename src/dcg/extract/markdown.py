"""Fenced shell blocks in Markdown (``dcg scan --include-docs``).

A ``bash``/``sh``/``shell``/``zsh`` block is a script; a ``console``/``shell-session``
block holds a transcript, of which only the ``$ ``-prompted lines are commands. A
``$ `` prompt in a script block is dropped too (documentation often shows one).
"""

from __future__ import annotations

from dcg.extract.found import Found
from dcg.extract.script import split

_SCRIPT = {"bash": "bash", "sh": "bash", "shell": "bash", "zsh": "bash", "ksh": "bash"}
_SCRIPT.update({"powershell": "powershell", "pwsh": "powershell", "ps1": "powershell"})
_SESSION = ("console", "shell-session", "terminal", "shellsession")


def commands(path: str, text: str) -> list[Found]:
    out: list[Found] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        stripped = lines[i].lstrip()
        fence = stripped[:3]
        if fence not in ("```", "~~~"):
            i += 1
            continue
        marker = stripped[: len(stripped) - len(stripped.lstrip(fence[0]))]
        info = stripped[len(marker) :].strip().lstrip("{.").split()[:1]
        lang = info[0].rstrip("}").lower() if info else ""
        start = i + 1
        i += 1
        while i < len(lines) and not lines[i].lstrip().startswith(marker):
            i += 1
        body = lines[start:i]
        i += 1
        if lang in _SESSION:
            out.extend(_session(path, body, start + 1))
        elif lang in _SCRIPT:
            body = [b[2:] if b.startswith("$ ") else b for b in body]
            out.extend(
                split(
                    "\n".join(body),
                    path=path,
                    source="markdown",
                    line=start + 1,
                    shell=_SCRIPT[lang],
                )
            )
    return out


def _session(path: str, body: list[str], first: int) -> list[Found]:
    out: list[Found] = []
    k = 0
    while k < len(body):
        line = body[k].lstrip()
        if not line.startswith("$ "):
            k += 1
            continue
        column = len(body[k]) - len(line) + 3
        parts = [line[2:]]
        number = first + k
        while parts[-1].endswith("\\") and k + 1 < len(body):
            k += 1
            parts.append(body[k])
        k += 1
        for found in split("\n".join(parts), path=path, source="markdown", line=number):
            out.append(Found(path, found.line, column, found.text, "markdown"))
    return out
