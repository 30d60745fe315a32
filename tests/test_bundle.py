"""The hook's module bundle: one file of bytecode that ``dcg/_fast.py`` imports from.

Each test works on a copy of the package in a temporary directory and runs the entry file
the way the registered hook command does (``python -I -S <copy>/dcg/_entry.py``): the hook
must answer the same with the bundle, without it, with a damaged one and with a module
edited after the bundle was written, and must take an edited module's code from its source.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import dcg
from dcg import bundle
from dcg._fast import FORMAT

PKG = Path(dcg.__file__).resolve().parent

# Imports the copy's hook the way the entry file does and reports, per dcg module, whether
# it came from the bundle.
PROBE = """
import sys
package = sys.argv[1]
sys.path.insert(0, package.rpartition("/")[0])
sys.path.insert(0, package)
import _fast
sys.path.pop(0)
print(_fast.install_bundle(package))
import dcg.hook, dcg.graduation, dcg.render, dcg.state.history
loaders = {n: type(m.__spec__.loader).__name__ for n, m in sys.modules.items()
           if n.startswith("dcg.") or n == "dcg"}
print(sorted(n for n, k in loaders.items() if k == "BundleFinder"))
print(sorted(n for n, k in loaders.items() if k != "BundleFinder"))
"""


@pytest.fixture
def package(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    shutil.copytree(PKG, root / "dcg", ignore=shutil.ignore_patterns("__pycache__"))
    return root / "dcg"


def _probe(package: Path) -> tuple[bool, list[str], list[str]]:
    run = subprocess.run(
        [sys.executable, "-I", "-S", "-c", PROBE, str(package)],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    installed, bundled, other = run.stdout.splitlines()
    return (
        installed == "True",
        json.loads(bundled.replace("'", '"')),
        json.loads(other.replace("'", '"')),
    )


def _payload(command: str) -> bytes:
    body = {"session_id": "bundle", "cwd": "/", "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": command}}  # fmt: skip
    return json.dumps(body).encode()


def _hook(package: Path, command: str, home: Path) -> str:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
           "XDG_CACHE_HOME": str(home / ".cache"), "XDG_CONFIG_HOME": str(home / ".config"),
           "DCG_SESSION_DIR": str(home / "sessions"), "DCG_RESPONSE_MODE": "paranoid"}  # fmt: skip
    run = subprocess.run(
        [sys.executable, "-I", "-S", str(package / "_entry.py")], input=_payload(command),
        capture_output=True, env=env, cwd="/", timeout=60, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    if not run.stdout:
        return "allow"
    return str(json.loads(run.stdout)["hookSpecificOutput"]["permissionDecision"])


def test_without_a_bundle_every_module_is_imported_from_its_file(package: Path) -> None:
    wanted = {*bundle.modules(str(package)), *bundle.extensions(str(package))}
    assert bundle.stale(str(package)) == sorted(wanted)
    installed, bundled, _ = _probe(package)
    assert not installed and bundled == []


def test_built_bundle_serves_every_hook_module(package: Path, tmp_path: Path) -> None:
    path = bundle.build(str(package))
    assert path == bundle_path_of(package) and bundle.stale(str(package)) == []
    installed, bundled, other = _probe(package)
    assert installed
    assert {"dcg", "dcg.hook", "dcg.engine", "dcg.graduation", "dcg.state.history"} <= set(bundled)
    assert other == [], "every module the hook imported came from the bundle"
    assert _hook(package, "git reset --hard", tmp_path / "h") == "deny"
    assert _hook(package, "ls -la", tmp_path / "h") == "allow"


def bundle_path_of(package: Path) -> str:
    return f"{package}/__pycache__/hook.{sys.implementation.cache_tag}.bundle"


def test_the_cli_is_not_bundled(package: Path) -> None:
    names = bundle.modules(str(package))
    assert "dcg.hook" in names and "dcg.shell.clients" in names
    assert not [n for n in names if n in ("dcg.cli", "dcg.__main__", "dcg._fast")]
    assert not [n for n in names if n.startswith("dcg.commands")]


def test_an_edited_module_is_imported_from_its_source(package: Path, tmp_path: Path) -> None:
    bundle.build(str(package))
    # Weaken a rule in the source after the bundle was written: the edit must take effect.
    git = package / "packs" / "core" / "git.py"
    text = git.read_text()
    assert '"reset-hard"' in text
    git.write_text(text.replace('"reset-hard"', '"reset-hard-edited"', 1))
    assert bundle.stale(str(package)) == ["dcg.packs.core.git"]
    _, bundled, other = _probe(package)
    assert "dcg.packs.core.git" not in bundled and "dcg.hook" in bundled
    env_home = tmp_path / "h"
    run = subprocess.run(
        [sys.executable, "-I", "-S", "-c",
         "import sys; sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[1] + '/dcg');"
         "import _fast; _fast.install_bundle(sys.argv[1] + '/dcg');"
         "from dcg.packs import load; print([r.name for r in load('core.git').rules][:40])",
         str(package.parent)],
        capture_output=True, text=True, timeout=60, check=True, env={"HOME": str(env_home)},
    )  # fmt: skip
    assert "reset-hard-edited" in run.stdout
    assert other == [] or other == ["dcg.packs.core.git"]


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda b: b[:40], id="truncated-index"),
        pytest.param(lambda b: b"garbage" * 10, id="garbage"),
        pytest.param(lambda b: b"", id="empty"),
        pytest.param(lambda b: b[:-5000], id="truncated-code"),
        pytest.param(lambda b: b[:200] + bytes(len(b) - 200), id="zeroed-code"),
        pytest.param(lambda b: b.replace(b"dcg-bundle-", b"dcg-bundle-x", 1), id="other-format"),
    ],
)
def test_a_damaged_bundle_never_changes_the_answer(
    package: Path, tmp_path: Path, damage: object
) -> None:
    path = Path(bundle.build(str(package)))
    assert callable(damage)
    path.write_bytes(damage(path.read_bytes()))
    home = tmp_path / "h"
    assert _hook(package, "git reset --hard", home) == "deny"
    assert _hook(package, "rm -rf ~/project", home) == "deny"
    assert _hook(package, "ls -la", home) == "allow"


def test_another_interpreters_bundle_is_not_used(package: Path) -> None:
    path = Path(bundle.build(str(package)))
    data = bytearray(path.read_bytes())
    data[len(FORMAT)] ^= 0xFF  # the bytecode magic number of another Python
    path.write_bytes(bytes(data))
    assert bundle.read_index(str(package)) is None
    installed, bundled, _ = _probe(package)
    assert not installed and bundled == []


def test_build_is_atomic_and_leaves_no_temporary_file(package: Path) -> None:
    path = Path(bundle.build(str(package)))
    first = path.read_bytes()
    bundle.build(str(package))
    assert path.read_bytes() == first, "the same sources give the same bundle"
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []


def test_a_failed_write_raises_and_keeps_the_old_bundle(package: Path) -> None:
    path = Path(bundle.build(str(package)))
    before = path.read_bytes()
    # The temporary file cannot be created (as root too, where permissions do not stop it).
    blocker = Path(f"{path}.{os.getpid()}.tmp")
    blocker.mkdir()
    (package / "model.py").write_text((package / "model.py").read_text() + "\n# edited\n")
    with pytest.raises(OSError):
        bundle.build(str(package))
    assert path.read_bytes() == before and blocker.is_dir()


def test_module_main_writes_the_bundle_of_the_imported_dcg(package: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-I", "-c", "import sys; sys.path.insert(0, sys.argv[1]);"
         "from dcg.bundle import main; sys.exit(main())", str(package.parent)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert run.returncode == 0 and run.stdout == f"wrote {bundle_path_of(package)}\n", run
    assert bundle.stale(str(package)) == []


def test_imports_are_loaded_directly_where_a_normal_import_would_see_the_same(
    package: Path, tmp_path: Path
) -> None:
    # A leading import of dcg.shell that needs a name dcg.shell's own first import binds:
    # loaded ahead of the package body it fails, and the normal import then succeeds.
    (package / "shell" / "_probe.py").write_text("from dcg.shell import Command\nOK = Command\n")
    init = package / "shell" / "__init__.py"
    text = init.read_text()
    anchor = "from dcg.shell.limits import TooComplex\n"
    assert anchor in text
    init.write_text(text.replace(anchor, anchor + "from dcg.shell import _probe\n", 1))
    bundle.build(str(package))
    index = bundle.read_index(str(package))
    assert index is not None
    deps, leading = index["dcg.shell"][6], index["dcg.shell"][7]
    assert deps[:leading] == ("dcg.shell.command", "dcg.shell.limits", "dcg.shell._probe")
    assert index["dcg.render"][6][:2] == ("dcg.state", "dcg.state.clock"), "packages first"
    probe = (
        "import sys; sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[1] + '/dcg');"
        "import _fast; _fast.install_bundle(sys.argv[1] + '/dcg');"
        "import dcg.shell, dcg.shell._probe as p;"
        "print(p.OK is dcg.shell.Command, type(p.__spec__.loader).__name__)"
    )
    run = subprocess.run(
        [sys.executable, "-I", "-S", "-c", probe, str(package.parent)],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    assert run.stdout.split() == ["True", "BundleFinder"]
    assert _hook(package, "git reset --hard", tmp_path / "h") == "deny"


# Runs the hook in-process the way the entry file does, then reports the directories the
# import system's path finder was asked to look in after the interpreter's own start.
PATH_PROBE = """
import io, sys
package = sys.argv[1]
sys.path.insert(0, package)
import _fast
sys.path[0] = package.rpartition("/")[0]
before = set(sys.path_importer_cache)
_fast.install_bundle(package)
from dcg.hook import main
out, sys.stdout = sys.stdout, io.StringIO()
main([])
answer, sys.stdout = sys.stdout.getvalue(), out
print(sorted(set(sys.path_importer_cache) - before - {package}))
print(" ".join(m for m in ("_json", "fcntl") if m in sys.modules))
print(answer)
"""


def test_a_bundled_stop_never_lists_a_directory(package: Path, tmp_path: Path) -> None:
    bundle.build(str(package))
    assert {"_json", "fcntl"} <= set(bundle.extensions(str(package)))
    home = tmp_path / "h"
    env = {"HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache"),
           "XDG_CONFIG_HOME": str(home / ".config"), "DCG_SESSION_DIR": str(home / "s"),
           "DCG_RESPONSE_MODE": "paranoid", "PATH": "/usr/bin:/bin"}  # fmt: skip
    for command in ("git reset --hard", "git reset --hard", "git status"):
        run = subprocess.run(
            [sys.executable, "-I", "-S", "-c", PATH_PROBE, str(package)], env=env, cwd="/",
            input=_payload(command).decode(), capture_output=True, text=True, timeout=60,
            check=True,
        )  # fmt: skip
        listed, extensions, answer = run.stdout.splitlines()[:3]
        if command == "git reset --hard":
            assert '"deny"' in answer and extensions == "_json fcntl"
    # The first call compiled the rules' expressions with ``re`` (and cached them); after
    # it, nothing the hook imports is looked for on sys.path.
    assert listed == "[]", run.stdout


def test_an_extension_module_that_changed_is_found_the_normal_way(package: Path) -> None:
    path = Path(bundle.build(str(package)))
    data = path.read_bytes()
    index = bundle.read_index(str(package))
    assert index is not None and index["_json"][4] == -1
    origin, mtime_ns = index["_json"][0], index["_json"][1]
    # The same index with _json's recorded time moved: as if the library had been replaced.

    index["_json"] = (origin, mtime_ns + 1, *index["_json"][2:])
    head = bundle.pack_index(index)
    start = len(FORMAT) + 4
    old = int.from_bytes(data[start : start + 4], "little")
    rest = data[start + 4 + old :]
    path.write_bytes(data[:start] + len(head).to_bytes(4, "little") + head + rest)
    probe = (
        "import sys; sys.path.insert(0, sys.argv[1]); import _fast;"
        "print(_fast.install_bundle(sys.argv[1]));"
        "f = sys.meta_path[0]; print(f.find_spec('_json') is None, f.find_spec('fcntl').origin);"
        "import _json; print(_json.__spec__.origin)"
    )
    run = subprocess.run(
        [sys.executable, "-I", "-S", "-c", probe, str(package)],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    installed, stale, fcntl_origin, json_origin = run.stdout.split()
    assert installed == "True" and stale == "True"
    assert fcntl_origin == index["fcntl"][0] and json_origin == origin


SOURCE = """\
'''doc'''
from __future__ import annotations
import a.b
from .c import d
X = 1
try:
    from e import f
except ImportError:
    pass
if TYPE_CHECKING:
    import g
def h():
    import i
"""


def test_top_level_imports_skip_type_checking_and_functions() -> None:
    import ast

    names, leading = bundle.top_level_imports(ast.parse(SOURCE), "p.q", False)
    assert names == ["a", "a.b", "p", "p.c", "p.c.d", "e", "e.f"]
    assert leading == 5


def test_a_module_interrupted_mid_body_is_not_left_half_imported(package: Path) -> None:
    # The hook's CPU alarm raises a BaseException wherever it is, an import included; the
    # too-complex reply then imports the same modules (graduation, approvals). A module
    # the bundle loaded ahead of its importer must not stay in sys.modules half-run.
    (package / "_halfway.py").write_text("A = 1\nraise KeyboardInterrupt\nB = 2\n")
    (package / "_user.py").write_text("from dcg import _halfway\nC = _halfway.B\n")
    bundle.build(str(package))
    index = bundle.read_index(str(package))
    assert index is not None and index["dcg._user"][6][: index["dcg._user"][7]] == ("dcg._halfway",)
    probe = (
        "import sys; sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[1] + '/dcg');"
        "import _fast; print(_fast.install_bundle(sys.argv[1] + '/dcg'))\n"
        "for _ in range(2):\n"
        "    try:\n"
        "        import dcg._user\n"
        "    except KeyboardInterrupt:\n"
        "        print('interrupted', 'dcg._halfway' in sys.modules, 'dcg._user' in sys.modules)\n"
    )
    run = subprocess.run(
        [sys.executable, "-I", "-S", "-c", probe, str(package.parent)],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    assert run.stdout.splitlines() == ["True", "interrupted False False", "interrupted False False"]
