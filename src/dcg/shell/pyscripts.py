"""Scripts of the Python project runners (``pdm run``, ``hatch run``, ``rye run``), read first.

``RUNNER run NAME`` runs the script NAME of the project's configuration when it names one
(``[tool.pdm.scripts]``, ``[tool.hatch.envs.ENV.scripts]`` or hatch.toml's
``[envs.ENV.scripts]``, ``[tool.rye.scripts]``), before any program of that name. One
table says where each runner keeps its scripts; the scripts' forms (a command string, an
argv list, ``shell``, a list or ``composite``/``chain`` of other scripts, a ``call`` of a
Python function) are read alike, each command judged as if it were on the line and
labelled with the file. The file is taken as written earlier on the line or found like the
runner finds it (:func:`dcg.shell.taskrunners.project_file`).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.shell.command import Command
    from dcg.shell.runtext import Ctx, Walker
    from dcg.shell.unwrap import Work

# `RUNNER run` -> where its scripts are: (file names, keys to the scripts table), in the
# order the runner looks; "{env}" is hatch's environment (`hatch run ENV:NAME`).
TABLE: dict[str, tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]] = {
    "pdm run": ((("pyproject.toml",), ("tool", "pdm", "scripts")),),
    "hatch run": (
        (("hatch.toml",), ("envs", "{env}", "scripts")),
        (("pyproject.toml",), ("tool", "hatch", "envs", "{env}", "scripts")),
    ),
    "rye run": ((("pyproject.toml",), ("tool", "rye", "scripts")),),
}
# Runners that run ``pre_NAME`` before and ``post_NAME`` after the script NAME.
_PRE_POST = frozenset(("pdm run",))
# Keys of a script table holding commands, and those holding other scripts' names.
_COMMANDS = ("cmd", "shell")
_LISTS = ("composite", "chain", "sequence")


def run(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """Judge the configured script ``work``'s command word names, if the runner has one."""
    from dcg.shell import runtext, taskextra, taskrunners

    runner = work.via[-1]
    name = work.argv[0]
    env = "default"
    if runner == "hatch run" and ":" in name:
        env, _, name = name.partition(":")
    for names, keys in TABLE[runner]:
        found = taskrunners.project_file(ctx, out, walker, names, None)
        if found is None:
            continue
        text, shown, _ = found
        table = _table(text, tuple(k.replace("{env}", env) for k in keys))
        if name not in table:
            continue
        plan: list[str] = []
        calls: list[str] = []
        order = [f"pre_{name}", name, f"post_{name}"] if runner in _PRE_POST else [name]
        for script in order:
            _expand(table, script, plan, calls, 0)
        label = f"{runner} {name}"
        for command in plan:
            line = text.count("\n", 0, max(text.find(command), 0)) + 1
            runtext.project(command, shown, ctx, out, walker, line, label)
        for spec in calls:
            taskextra.module_call(spec, label, ctx, out, walker)
        return


def _table(text: str, keys: tuple[str, ...]) -> dict[str, object]:
    import tomllib

    try:
        node: object = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError):
        return {}
    for key in keys:
        node = node.get(key) if isinstance(node, dict) else None
    return node if isinstance(node, dict) else {}


def _expand(
    table: dict[str, object], name: str, plan: list[str], calls: list[str], depth: int
) -> None:
    """The commands and Python calls script ``name`` runs, the scripts it names first."""
    if depth > 16:
        return
    task = table.get(name)
    if isinstance(task, str):
        _item(table, task, name, plan, calls, depth)
    elif isinstance(task, list):
        for item in task:
            if isinstance(item, str):
                _item(table, item, name, plan, calls, depth)
    elif isinstance(task, dict):
        for key in _COMMANDS:
            value = task.get(key)
            if isinstance(value, str):
                plan.append(value)
            elif isinstance(value, list):
                import shlex

                plan.append(shlex.join(str(v) for v in value))
        for key in _LISTS:
            value = task.get(key)
            for item in value if isinstance(value, list) else ():
                if isinstance(item, str):
                    _item(table, item, name, plan, calls, depth)
        if isinstance(task.get("call"), str):
            calls.append(str(task["call"]))


def _item(
    table: dict[str, object], item: str, name: str, plan: list[str], calls: list[str], depth: int
) -> None:
    """A command, or (its first word naming another script) that script."""
    first = item.split(maxsplit=1)[0] if item.strip() else ""
    if first in table and first != name:
        _expand(table, first, plan, calls, depth + 1)
    else:
        plan.append(item)
