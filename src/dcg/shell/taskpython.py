"""Python task files (noxfile.py, tasks.py): what the selected sessions and tasks run.

A session's ``session.run("rm", "-rf", "dist")`` runs a program with those arguments and a
task's ``c.run("make clean")`` runs shell text; both are returned as command lines (an
argument computed at run time stands as ``$DCG_UNKNOWN``, which the rules treat as an
unknown value). The selected functions are judged as Python too, called
from the file (``shutil.rmtree``, ``subprocess``). Sessions run when none is named (nox's default);
invoke runs the named tasks, their ``pre``/``post`` tasks, or its default task.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import ast

    Plan = list[tuple[str, int, str]]

# Methods of a nox session / an invoke context that run a command.
_RUNS = frozenset(("run", "run_always", "run_install", "sudo", "local", "run_command"))


def _tasks(text: str, runner: str) -> dict[str, tuple[ast.FunctionDef, list[str], bool]]:
    """name -> (function, pre/post task names, default) for the file's tasks or sessions."""
    import ast

    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return {}
    out: dict[str, tuple[ast.FunctionDef, list[str], bool]] = {}
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        for dec in node.decorator_list:
            call = dec if isinstance(dec, ast.Call) else None
            func = call.func if call is not None else dec
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name not in ("session", "task"):
                continue
            names = [node.name, node.name.replace("_", "-")]
            others: list[str] = []
            default = False
            for kw in call.keywords if call is not None else []:
                if kw.arg == "name" and isinstance(kw.value, ast.Constant):
                    names.append(str(kw.value.value))
                elif kw.arg in ("aliases",) and isinstance(kw.value, (ast.List, ast.Tuple)):
                    names += [str(e.value) for e in kw.value.elts if isinstance(e, ast.Constant)]
                elif kw.arg in ("pre", "post") and isinstance(kw.value, (ast.List, ast.Tuple)):
                    others += [e.id for e in kw.value.elts if isinstance(e, ast.Name)]
                elif kw.arg == "default" and isinstance(kw.value, ast.Constant):
                    default = bool(kw.value.value)
            if call is not None:  # @task(clean): positional pre-tasks
                others += [a.id for a in call.args if isinstance(a, ast.Name)]
            if runner == "nox":  # session.notify("other") queues another session
                others += [
                    str(c.args[0].value)
                    for c in ast.walk(node)
                    if isinstance(c, ast.Call)
                    and isinstance(c.func, ast.Attribute)
                    and c.func.attr == "notify"
                    and c.args
                    and isinstance(c.args[0], ast.Constant)
                ]
            for n in names:
                out[n] = (node, others, default)
    return out


def _selected(text: str, selected: list[str], runner: str) -> list[ast.FunctionDef]:
    tasks = _tasks(text, runner)
    if not selected:
        if runner == "nox":
            names = list(tasks)
        else:
            names = [n for n, (_, _, default) in tasks.items() if default]
    else:
        names = list(selected)
    chosen: list[ast.FunctionDef] = []

    def add(name: str, depth: int = 0) -> None:
        if name not in tasks or depth > 16:
            return
        node, others, _ = tasks[name]
        if node in chosen:
            return
        for other in others:
            add(other, depth + 1)
        chosen.append(node)

    for name in names:
        add(name)
    return chosen


def runs(text: str, selected: list[str], runner: str) -> Plan:
    """The command lines the selected sessions or tasks run."""
    import ast
    import shlex

    plan: Plan = []
    for fn in _selected(text, selected, runner):
        for node in ast.walk(fn):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            if node.func.attr not in _RUNS or not node.args:
                continue
            words = [
                str(a.value) if isinstance(a, ast.Constant) else "$DCG_UNKNOWN" for a in node.args
            ]
            if runner == "nox" or len(words) > 1:
                line = " ".join(w if w == "$DCG_UNKNOWN" else shlex.quote(w) for w in words)
            else:
                line = words[0]
            plan.append((line, node.lineno, f"{runner} {fn.name}"))
    return plan


def program(text: str, selected: list[str], runner: str, module_only: bool = False) -> str | None:
    """The file's top-level statements that define no function (imports, constants, code
    that runs on import), the selected sessions or tasks and a call of each (none with
    ``module_only``: a listing imports the file, runs no task), for the Python analyser;
    None for nothing."""
    import ast

    chosen = [] if module_only else _selected(text, selected, runner)
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    wanted = {fn.lineno for fn in chosen}
    parts: list[str] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.lineno not in wanted:
                continue
            node.decorator_list = []  # a decorator does not run the task
        parts.append(ast.unparse(node))
    if not parts:
        return None
    return "\n".join(parts) + "".join(f"\n{fn.name}(None)" for fn in chosen) + "\n"
