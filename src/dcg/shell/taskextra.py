"""What task runners run besides their own file's tasks (red-team filesrun D).

go-task's ``includes:`` (``task ns:name`` runs a task of another Taskfile), ``dotenv:``
files, top-level ``env:``/``vars:`` and ``task NAME=VALUE`` variables (``$C`` and
``{{.C}}`` in a command); invoke's task modules a tasks.py imports (a ``Collection``);
tox's ``{[section]key}`` substitutions; poe's ``script`` tasks (``module:function``). Used
by :mod:`dcg.shell.taskrunners`; each file is taken as written on the line or read from
the project (:func:`dcg.shell.runtext.load`).
"""

from __future__ import annotations

from dcg.shell import runtext

TYPE_CHECKING = False
if TYPE_CHECKING:
    import configparser
    from collections.abc import Callable

    from dcg.shell.command import Command
    from dcg.shell.runtext import Ctx, Walker

    Plan = list[tuple[str, int, str]]

_TASKFILES = ("Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml")


def taskfile(
    text: str,
    selected: list[str],
    cli_vars: list[str],
    ctx: Ctx,
    out: list[Command],
    walker: Walker,
    plan_of: Callable[[str, list[str]], Plan],
) -> Plan:
    """The commands ``task SELECTED…`` runs, included Taskfiles' tasks too, each with the
    variables it sees: ``export`` of the environment before it, ``{{.NAME}}`` replaced."""
    includes = _includes(text)
    plan: Plan = []
    local: list[str] = []
    for name in selected:
        ns, sep, task = name.partition(":")
        if not (sep and ns in includes):
            local.append(name)
            continue
        for path in _taskfile_paths(includes[ns]):
            got = runtext.load(path, ctx, out, walker)
            if got is not None:
                inner = [(c, n, f"{label} ({path})") for c, n, label in plan_of(got[0], [task])]
                plan += _with_vars(inner, got[0], [], ctx, out, walker)
                break
    if local:
        plan += _with_vars(plan_of(text, local), text, cli_vars, ctx, out, walker)
    return plan


def _with_vars(
    plan: Plan, text: str, cli_vars: list[str], ctx: Ctx, out: list[Command], walker: Walker
) -> Plan:
    env: dict[str, str] = {}
    for path in _list(text, "dotenv"):
        got = runtext.load(path, ctx, out, walker)
        for line in (got[0] if got is not None else "").splitlines():
            key, eq, value = line.strip().removeprefix("export ").partition("=")
            if eq and key.strip().isidentifier():
                env[key.strip()] = value.strip().strip("\"'")
    env.update(_block(text, "env"))
    values = {**env, **_block(text, "vars")}
    for pair in cli_vars:
        key, _, value = pair.partition("=")
        values[key] = env[key] = value
    if not values:
        return plan
    import shlex

    prefix = "; ".join(f"export {k}={shlex.quote(v)}" for k, v in env.items() if k.isidentifier())
    out_plan: Plan = []
    for command, number, label in plan:
        for key, value in values.items():
            for spelling in ("{{." + key + "}}", "{{ ." + key + " }}"):
                command = command.replace(spelling, value)
        out_plan.append((f"{prefix}; {command}" if prefix else command, number, label))
    return out_plan


def _top_block(text: str, key: str) -> list[str]:
    """The indented lines of the top-level ``key:`` block (its own line's value first)."""
    lines: list[str] = []
    inside = False
    for line in text.splitlines():
        if line and not line[0].isspace() and not line.startswith("#"):
            inside = line.startswith(key + ":")
            if inside and line.partition(":")[2].strip():
                lines.append(line.partition(":")[2])
            continue
        if inside and line.strip():
            lines.append(line)
    return lines


def _list(text: str, key: str) -> list[str]:
    """A top-level flow (``[a, b]``) or block (``- a``) list of strings."""
    found: list[str] = []
    for line in _top_block(text, key):
        item = line.strip()
        if item.startswith("["):
            found += [w.strip().strip("\"'") for w in item.strip("[]").split(",") if w.strip()]
        elif item.startswith("- "):
            found.append(item[2:].strip().strip("\"'"))
    return found


def _block(text: str, key: str) -> dict[str, str]:
    """``NAME: value`` entries of a top-level mapping (values that are plain strings)."""
    found: dict[str, str] = {}
    for line in _top_block(text, key):
        name, sep, value = line.strip().partition(":")
        value = value.strip()
        if sep and name.isidentifier() and value and not value.startswith(("{", "|", ">")):
            found[name] = value.strip("\"'")
    return found


def _includes(text: str) -> dict[str, str]:
    """namespace -> Taskfile path of ``includes:`` (``ns: ./x.yml`` or ``taskfile: …``)."""
    found: dict[str, str] = {}
    first = -1
    pending = ""
    for line in _top_block(text, "includes"):
        indent = len(line) - len(line.lstrip())
        name, sep, value = line.strip().partition(":")
        value = value.strip().strip("\"'")
        if first < 0:
            first = indent
        if indent == first and sep:
            pending = name.strip("\"'")
            if value and not value.startswith("{"):
                found[pending] = value
            elif value.startswith("{") and "taskfile:" in value:
                found[pending] = value.partition("taskfile:")[2].strip(" }").split(",")[0]
        elif sep and name == "taskfile" and pending:
            found[pending] = value
    return found


def _taskfile_paths(path: str) -> list[str]:
    if path.endswith((".yml", ".yaml")):
        return [path]
    return [path.rstrip("/") + "/" + n for n in _TASKFILES]


def imported(text: str, ctx: Ctx, out: list[Command], walker: Walker) -> str:
    """The text of the project modules a tasks.py imports (their tasks join its own)."""
    from dcg.shell.linefiles import imports

    texts: list[str] = []
    for name in list(dict.fromkeys(imports(text)))[:16]:
        if name == "invoke":
            continue
        for path in (f"{name}.py", f"{name}/__init__.py"):
            got = runtext.load(path, ctx, out, walker)
            if got is not None:
                texts.append(got[0])
                break
    return "".join("\n" + t for t in texts)


def tox_refs(parser: configparser.RawConfigParser, value: str) -> str:
    """``value`` with tox's ``{[section]key}`` references replaced by what they name."""
    for _ in range(16):
        i = value.find("{[")
        j = value.find("]", i)
        k = value.find("}", j)
        if i < 0 or j < 0 or k < 0:
            break
        found = parser.get(value[i + 2 : j], value[j + 1 : k], fallback=None)
        if found is None:
            break
        value = value[:i] + found + value[k + 1 :]
    return value


def poe_scripts(
    text: str, selected: list[str], ctx: Ctx, out: list[Command], walker: Walker
) -> None:
    """A poe ``script`` task (``module:function``): the module, and that function called."""
    import tomllib

    try:
        doc = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError):
        return
    poe = doc.get("tool", {}).get("poe", doc) if isinstance(doc.get("tool"), dict) else doc
    tasks = poe.get("tasks", {}) if isinstance(poe, dict) else {}
    task = tasks.get(selected[0]) if isinstance(tasks, dict) and selected else None
    spec = task.get("script") if isinstance(task, dict) else None
    if isinstance(spec, str):
        module_call(spec, f"poe script {spec}", ctx, out, walker)


def module_call(spec: str, label: str, ctx: Ctx, out: list[Command], walker: Walker) -> None:
    """A task that calls ``module:function`` (poe ``script``, pdm and rye ``call``): the
    project module, and that function called."""
    if ":" not in spec:
        return
    module, _, call = spec.partition(":")
    module = module.strip()
    func = call.partition("(")[0].strip()
    base = module.replace(".", "/")
    for path in (f"{base}.py", f"{base}/__init__.py", f"src/{base}.py", f"src/{base}/__init__.py"):
        got = runtext.load(path, ctx, out, walker)
        if got is not None:
            code = got[0] + (f"\n{func}()\n" if func.isidentifier() else "")
            via = (*ctx.via, label, f"in {got[1]}", "python module")
            walker.embedded("python", code, ctx.child(via), out, got[2])
            return
