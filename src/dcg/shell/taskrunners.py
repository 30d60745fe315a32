"""Task runners' files, read before they run: go-task, nox, invoke, tox and poe.

``task NAME`` runs the Taskfile's task (its ``deps`` and ``- task:`` calls first), ``nox
-s NAME`` a session of noxfile.py, ``invoke NAME`` a task of tasks.py, ``tox -e ENV`` an
environment's ``commands`` in tox.ini, ``poe NAME`` a task of pyproject.toml's
``[tool.poe.tasks]``. The file is found like the runner finds it (the cwd and the
directories above, or the option naming it), or taken as written earlier on the line;
each command is judged as if it were on the line, labelled with the file and line. Python
task files have their sessions' and tasks' ``run`` calls judged as commands and their
bodies judged as Python. A task the file does not name runs nothing dcg can see.
"""

from __future__ import annotations

from dcg.shell import runtext, scripts, taskextra

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dcg.shell.command import Command
    from dcg.shell.runtext import Ctx, Walker
    from dcg.shell.unwrap import Work

    # (command text, line in the file, label) of what the selected tasks run.
    Plan = list[tuple[str, int, str]]

_TASKFILES = ("Taskfile.yml", "taskfile.yml", "Taskfile.yaml", "taskfile.yaml",
              "Taskfile.dist.yml", "taskfile.dist.yml")  # fmt: skip
# runner -> (file names, options naming the file, options naming its directory)
RUNNERS: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    "task": (_TASKFILES, ("-t", "--taskfile"), ("-d", "--dir")),
    "go-task": (_TASKFILES, ("-t", "--taskfile"), ("-d", "--dir")),
    "nox": (("noxfile.py",), ("-f", "--noxfile"), ()),
    "invoke": (("tasks.py",), ("-c", "--collection"), ("-r", "--search-root")),
    "inv": (("tasks.py",), ("-c", "--collection"), ("-r", "--search-root")),
    "tox": (("tox.ini",), ("-c", "--conf"), ("--root",)),
    "poe": (("pyproject.toml", "poe_tasks.toml"), (), ("-C", "--directory", "--root")),
}
# Options that only list, describe or dry-run.
_QUERY = frozenset(("-l", "--list", "--list-all", "-a", "--summary", "-h", "--help", "--version",
                    "-n", "--dry", "--dry-run", "--complete", "--init", "--json", "-v",
                    "--listing", "--showconfig", "--help-ini", "--completion"))  # fmt: skip
# Options of each runner that take a value (besides the file and directory ones).
_VALUED = frozenset(("-s", "--session", "--sessions", "-e", "-k", "-p", "--python", "-t",
                     "--tags", "-x", "--output", "-o", "--color", "-c", "--concurrency",
                     "--interval", "-w", "--workdir", "--env", "--executor"))  # fmt: skip


def run(work: Work, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """Judge what the task runner ``work`` names will run."""
    runner = work.argv[0]
    names, file_opt, dir_opt = RUNNERS[runner]
    args = work.argv[1:]
    query = any(a in _QUERY for a in args)
    if query and runner not in ("nox", "invoke", "inv"):
        return
    chosen: str | None = None
    directory: str | None = None
    selected: list[str] = []
    cli_vars: list[str] = []
    k = 0
    while k < len(args):
        a, value = args[k], args[k + 1] if k + 1 < len(args) else ""
        k += 1
        if a == "--":
            break
        if "=" in a and a.startswith("--") and a.partition("=")[0] in (*file_opt, *dir_opt):
            a, value = a.partition("=")[0], a.partition("=")[2]  # --collection=mod
            k -= 1
        if a in file_opt or a in dir_opt:
            k += 1
            chosen, directory = (value, directory) if a in file_opt else (chosen, value)
        elif runner == "nox" and a in ("-s", "--session", "--sessions", "-e"):
            while k < len(args) and not args[k].startswith("-"):
                selected.append(args[k])
                k += 1
        elif runner == "tox" and a == "-e":
            selected.extend(value.split(","))
            k += 1
        elif a in _VALUED:
            k += 1
        elif "=" in a and not a.startswith("-") and runner in ("task", "go-task"):
            cli_vars.append(a)  # task NAME=VALUE: a variable of the Taskfile
        elif a.startswith("-") or "=" in a:
            continue
        elif runner not in ("nox", "tox"):
            selected.append(a)
            if runner == "poe":
                break  # the task's own arguments follow
    if runner in ("invoke", "inv") and chosen and not chosen.endswith(".py"):
        chosen += ".py"  # invoke -c NAME names a module
    if runner == "poe" and directory and directory.endswith(".toml"):
        chosen, directory = directory, None  # poe -C FILE: a config file, not a directory
    found = project_file(ctx, out, walker, (chosen,) if chosen else names, directory)
    if found is None:
        return
    text, shown, written = found
    if runner in ("invoke", "inv"):
        text = text + taskextra.imported(text, ctx, out, walker)
    if runner in ("nox", "invoke", "inv"):
        from dcg.shell import taskpython

        # The module's own top-level code runs on every call, a listing included.
        code = taskpython.program(text, [] if query else selected, runner, query)
        if code is not None:
            via = (*ctx.via, f"in {shown}", "python tasks")
            walker.embedded("python", code, ctx.child(via), out, written)
        if query:
            return
    if runner in ("task", "go-task"):
        plan = taskextra.taskfile(
            text, selected or ["default"], cli_vars, ctx, out, walker, _taskfile
        )
    else:
        plan = _plan(runner, text, shown, selected)
    for command, line, label in plan:
        runtext.project(
            command, shown, ctx, out, walker, line, label, runtext.run_dir(ctx, directory)
        )
    if runner == "poe":
        taskextra.poe_scripts(text, selected[:1], ctx, out, walker)


def project_file(
    ctx: Ctx, out: list[Command], walker: Walker, names: tuple[str, ...], directory: str | None
) -> tuple[str, str, bool] | None:
    """(text, shown, written on the line) of the runner's file, None when there is none."""
    hit = runtext.written_first(ctx, directory, names, out, walker)
    if hit is not None:
        return None if hit[0] is None else (hit[0], hit[1], True)
    files = ctx.files
    if files is None:
        return None
    found = runtext.find_up(ctx, runtext.here(ctx, directory), names)
    if found is None:
        return None
    if found[1] == scripts.TOO_BIG:
        walker.emit(f"{found[0]} is too large to read", ctx, out)
        return None
    if not files.wanted(found[1]):
        return None
    return found[1], scripts.display(found[0], files.cwd), False


def _plan(runner: str, text: str, shown: str, selected: list[str]) -> Plan:
    if runner in ("task", "go-task"):
        return _taskfile(text, selected or ["default"])
    if runner == "tox":
        return _tox(text, selected)
    if runner == "poe":
        return _poe(text, selected[:1])
    from dcg.shell import taskpython

    return taskpython.runs(text, selected, runner)


def _taskfile(text: str, selected: list[str]) -> Plan:
    """The commands of the selected tasks of a Taskfile, their deps and task calls first."""
    from dcg.extract import taskfile

    lines = text.splitlines()
    owner: dict[int, str] = {}
    refs: dict[str, list[str]] = {}
    level = -1
    current = ""
    in_tasks = False
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line) - len(line.lstrip())
        if indent == 0:
            in_tasks, level, current = stripped == "tasks:", -1, ""
            continue
        if in_tasks and (level < 0 or indent == level) and stripped.endswith(":"):
            level, current = indent, stripped[:-1].strip("'\"")
            refs.setdefault(current, [])
        elif in_tasks and current:
            owner[number] = current
            if stripped.startswith(("- task:", "task:")):
                refs[current].append(stripped.partition("task:")[2].strip().strip("'\""))
            elif stripped.startswith("deps:") and "[" in stripped:
                inner = stripped.partition("[")[2].rstrip("]")
                refs[current].extend(d.strip().strip("'\"") for d in inner.split(",") if d.strip())
            elif stripped.startswith("- ") and _under(lines, number, "deps:"):
                refs[current].append(stripped[2:].strip().strip("'\""))
    wanted: list[str] = []

    def add(name: str, depth: int = 0) -> None:
        if name in wanted or depth > 16:
            return
        for dep in refs.get(name, []):
            add(dep, depth + 1)
        wanted.append(name)

    for name in selected:
        add(name)
    known = [n for n in wanted if n in refs]
    plan: Plan = []
    for f in taskfile.commands("Taskfile", text):
        task = owner.get(f.line, "")
        if task in known or (not known and not refs):
            plan.append((f.text, f.line, f"task {task or f.label}"))
    return plan


def _under(lines: list[str], number: int, key: str) -> bool:
    """Whether the list item on line ``number`` belongs to a ``key`` block above it."""
    indent = len(lines[number - 1]) - len(lines[number - 1].lstrip())
    for k in range(number - 2, -1, -1):
        line = lines[k]
        if not line.strip():
            continue
        ind = len(line) - len(line.lstrip())
        if ind < indent or (ind == indent and not line.strip().startswith("- ")):
            return line.strip() == key
    return False


def _tox(text: str, selected: list[str]) -> Plan:
    """``commands_pre``, ``commands`` and ``commands_post`` of the selected environments
    (every ``testenv`` section when none is named)."""
    import configparser

    parser = configparser.RawConfigParser(strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return []  # tox cannot read it either
    sections = [s for s in parser.sections() if s == "testenv" or s.startswith("testenv:")]
    if selected and "ALL" not in selected:
        named = [f"testenv:{e}" for e in selected]
        sections = [s for s in named if s in sections] or (
            ["testenv"] if "testenv" in sections else []
        )
    plan: Plan = []
    for section in sections:
        for key in ("commands_pre", "commands", "commands_post"):
            value = parser.get(section, key, fallback=None)
            if value is None and section != "testenv" and parser.has_section("testenv"):
                value = parser.get("testenv", key, fallback=None)
            value = taskextra.tox_refs(parser, value or "")
            for line in value.replace("\\\n", " ").splitlines():
                if line.strip():
                    plan.append((line.strip().lstrip("-").strip(), _line_of(text, line), section))
    return plan


def _line_of(text: str, fragment: str) -> int:
    at = text.find(fragment.strip())
    return text.count("\n", 0, at) + 1 if at >= 0 else 1


def _quote(text: str) -> str:
    import shlex

    return shlex.quote(text)


def _poe(text: str, selected: list[str]) -> Plan:
    """A poe task (``cmd``, ``shell``, ``sequence``, ``ref``) from ``[tool.poe.tasks]``."""
    import tomllib

    try:
        doc = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError):
        return []
    poe = doc.get("tool", {}).get("poe", doc) if isinstance(doc.get("tool"), dict) else doc
    tasks = poe.get("tasks", {}) if isinstance(poe, dict) else {}
    if not isinstance(tasks, dict) or not selected:
        return []
    plan: Plan = []

    def add(task: object, label: str, depth: int = 0) -> None:
        if depth > 16:
            return
        if isinstance(task, str):
            plan.append((task, _line_of(text, task), f"poe task {label}"))
        elif isinstance(task, list):  # a sequence: its strings name other tasks
            for item in task:
                ref = item.split()[0] if isinstance(item, str) and item.strip() else ""
                if ref in tasks:
                    add(tasks[ref], ref, depth + 1)
                else:
                    add(item, label, depth + 1)
        elif isinstance(task, dict):
            for key in ("cmd", "shell", "sequence"):
                if key in task:
                    add(task[key], label, depth + 1)
            if "script" in task or "expr" in task:  # Python the task runs
                code = str(task.get("script") or task.get("expr"))
                plan.append((f"python3 -c {_quote(code)}", _line_of(text, code), label))
            if isinstance(task.get("ref"), str):
                ref = task["ref"].split()[0]
                add(tasks.get(ref), ref, depth + 1)

    add(tasks.get(selected[0]), selected[0])
    return plan
