"""Fenced shell blocks in Markdown (``dcg scan --include-docs``): commands, not their output.

What a block holds is decided by its content as well as its tag. A block with a prompted
line (``$ cmd``, ``PS> cmd``, ``PS C:\\src> cmd``) is a transcript, whatever its tag
(``bash``, ``console``, none): the prompted lines (and their ``\\`` continuations) are the
commands and every other line is what they printed — a tool's output that says ``rm -rf
.cache`` ran nothing. A block tagged ``bash``/``sh``/``shell``/``zsh`` or
``powershell``/``pwsh`` without prompts is a script, read as the POSIX shell or
PowerShell reads it. Untagged blocks without prompts and blocks tagged ``text``,
``output``, ``log`` or another language are not commands.
"""

from __future__ import annotations

from dcg.extract.found import Found
from dcg.extract.script import split

_SCRIPT = {"bash": "bash", "sh": "bash", "shell": "bash", "zsh": "bash", "ksh": "bash"}
_SCRIPT.update({"powershell": "powershell", "pwsh": "powershell", "ps1": "powershell"})
_SESSION = {"console": "bash", "shell-session": "bash", "terminal": "bash"}
_SESSION.update({"shellsession": "bash", "": "bash", "ps1con": "powershell"})


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
        shell = _SCRIPT.get(lang) or _SESSION.get(lang)
        if shell is None:
            continue
        if any(_prompt(b) for b in body):
            out.extend(_session(path, body, start + 1, shell))
        elif lang in _SCRIPT:
            out.extend(_script(path, "\n".join(body), start + 1, shell))
    return out


def _prompt(line: str) -> int:
    """How many characters of ``line`` are a shell prompt (0: not a prompted line)."""
    stripped = line.lstrip()
    lead = len(line) - len(stripped)
    if stripped.startswith("$ "):
        return lead + 2
    if stripped.startswith("PS") and "> " in stripped[:80]:
        prompt = stripped[: stripped.index("> ")]
        where = prompt[3:] if prompt.startswith("PS ") else None
        # "PS> " or "PS <location>> ": the location is a path (C:\src, /home/me, ~).
        drive = where is not None and where[1:3] == ":\\"
        path = where is not None and (drive or " " not in where)
        if prompt == "PS" or (path and where and any(c in where for c in ":\\/~")):
            return lead + len(prompt) + 2
    return 0


def _script(path: str, text: str, line: int, shell: str) -> list[Found]:
    if shell == "powershell":
        from dcg.extract import powershell

        return powershell.commands(path, text, source="markdown", line=line)
    return split(text, path=path, source="markdown", line=line, shell=shell)


def _session(path: str, body: list[str], first: int, shell: str) -> list[Found]:
    out: list[Found] = []
    k = 0
    while k < len(body):
        cut = _prompt(body[k])
        if not cut:
            k += 1
            continue
        column = cut + 1
        parts = [body[k][cut:]]
        number = first + k
        while parts[-1].rstrip().endswith(("\\", "`")) and k + 1 < len(body):
            k += 1
            parts.append(body[k])
        k += 1
        for found in _script(path, "\n".join(parts), number, shell):
            out.append(Found(path, found.line, column, found.text, "markdown", "", shell))
    return out
