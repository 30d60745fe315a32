"""VS Code agent mode's ``run_task``: the command lines of a task in ``.vscode/tasks.json``.

``run_task`` names a task (``id``: its label, or ``TYPE: LABEL``) of the workspace's
tasks.json, which VS Code then runs with the tasks it depends on. dcg judges those command
lines as ``create_and_run_task``'s. With no tasks.json there is no task to run; a
tasks.json dcg cannot parse, or without the task named, is judged whole: every command
line in it (what VS Code may run is in there).
"""

from __future__ import annotations

from dcg import jsonfast
from dcg import oslite as os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

_MAX = 1 << 18  # a larger tasks.json is read only this far
_OS_KEYS = ("linux", "osx", "windows")


def task_lines(args: Mapping[str, object], cwd: str | None) -> tuple[str | None, str | None]:
    """(the command lines to judge, joined by newlines; the workspace folder they run in).
    No lines: the workspace has no tasks.json, so VS Code runs nothing."""
    folder = args.get("workspaceFolder")
    where = folder if isinstance(folder, str) and folder else cwd
    if not where:
        return None, None
    path = os.path.join(where, ".vscode", "tasks.json")
    try:
        with open(path, "rb") as f:
            data = f.read(_MAX).decode("utf-8", "replace")
    except FileNotFoundError:
        return None, where
    except OSError:
        # There, but unreadable: dcg cannot say what runs (a command that says so).
        return "$(unreadable .vscode/tasks.json)", where
    name = next((v for k in ("id", "label", "task", "taskId", "name")
                 if isinstance(v := args.get(k), str) and v), None)  # fmt: skip
    tasks = _tasks(data)
    if tasks is None:
        return _every_command(data, where) or None, where
    chosen = _closure(tasks, name) if name else []
    lines = [line for t in (chosen or tasks) for line in _lines(t)]
    return "\n".join(lines).replace("${workspaceFolder}", where) or None, where


def _tasks(text: str) -> list[dict[str, object]] | None:
    try:
        doc = jsonfast.loads(_strip_jsonc(text))
    except jsonfast.JSONError:
        return None
    if not isinstance(doc, dict) or not isinstance(doc.get("tasks"), list):
        return [] if isinstance(doc, dict) else None
    found = [t for t in doc["tasks"] if isinstance(t, dict)]
    # Top-level options (and per-OS ones) hold a command that runs tasks without their own.
    if isinstance(doc.get("command"), str):
        found.append({"command": doc["command"], "args": doc.get("args")})
    return found


def _closure(tasks: list[dict[str, object]], name: str) -> list[dict[str, object]]:
    """The task ``name`` and the tasks it depends on, transitively."""
    out: list[dict[str, object]] = []
    todo = [name]
    while todo:
        want = todo.pop()
        for t in tasks:
            if t not in out and want in _names(t):
                out.append(t)
                deps = t.get("dependsOn")
                todo += (
                    [deps]
                    if isinstance(deps, str)
                    else [d for d in (deps if isinstance(deps, list) else []) if isinstance(d, str)]
                )
    return out


def _names(task: dict[str, object]) -> set[str]:
    label, kind, script = task.get("label"), task.get("type"), task.get("script")
    names = {n for n in (label, script) if isinstance(n, str)}
    if isinstance(kind, str):
        names |= {f"{kind}: {n}" for n in list(names)}
    return names


def _lines(task: dict[str, object]) -> list[str]:
    found = []
    for part in (task, *(task.get(k) for k in _OS_KEYS)):
        if isinstance(part, dict):
            if isinstance(part.get("script"), str) and task.get("type") == "npm":
                found.append(f"npm run {part['script']}")
            line = _line(part)
            if line:
                found.append(line)
    return found


def _line(task: dict[str, object]) -> str | None:
    command = task.get("command")
    if isinstance(command, dict):  # {"value": …, "quoting": …}
        command = command.get("value")
    if isinstance(command, list):
        command = " ".join(c for c in command if isinstance(c, str))
    if not isinstance(command, str) or not command:
        return None
    args = task.get("args")
    words = []
    for a in args if isinstance(args, list) else []:
        value = a.get("value") if isinstance(a, dict) else a
        if isinstance(value, str):
            words.append(value)
    return " ".join([command, *words])


def _every_command(text: str, where: str) -> str:
    """Every ``"command": "…"`` string of a tasks.json dcg cannot parse."""
    import re

    found = []
    for m in re.finditer(r'"command"\s*:\s*("(?:[^"\\]|\\.)*")', text):
        try:
            value = jsonfast.loads(m.group(1))
        except jsonfast.JSONError:
            continue
        if isinstance(value, str):
            found.append(value.replace("${workspaceFolder}", where))
    return "\n".join(found)


def _strip_jsonc(text: str) -> str:
    """JSON with comments (``//``, ``/* */``) and trailing commas, as VS Code reads it."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif c in "]}":
            k = len(out) - 1
            while k >= 0 and out[k].isspace():
                k -= 1
            if k >= 0 and out[k] == ",":
                out[k] = ""
            out.append(c)
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)
