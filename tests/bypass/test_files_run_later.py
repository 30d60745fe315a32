"""Issue 32 class 3: a file written or edited earlier on the line, then run by a later part.

Build files (Makefile, package.json, justfile), scripts edited in place (``sed -i``,
``>>``, ``perl -pi``), modules an interpreter loads (``python3 -m``, ``import``,
``require``) and sed's ``e`` command: every case goes through ``dcg.hook.main`` with a
real Claude payload whose cwd is a throwaway git repository holding a Makefile, a
package.json and build.sh; each must-stop case the machine has the tools for is then run
in real bash in that repository (HOME and TMPDIR inside it) and must destroy its canary,
and each must-pass case must leave it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import sandbox
from sandbox import bash, claude_hook, quiet_npm

RM = "core.filesystem:rm-rf"
OPAQUE = "core.shell:opaque-exec"

STOP = [
    # make: the Makefile written, appended to or edited on the line
    ("printf 'x:\\n\\trm -rf src\\n' >> Makefile && make x", RM),
    ("echo -e 'x:\\n\\trm -rf src' >> Makefile; make x", RM),
    ("printf 'build:\\n\\trm -rf src\\n' > Makefile && make", RM),
    ("printf 'all:\\n\\trm -rf src\\n' > GNUmakefile; make", RM),
    ("printf 'x:\\n\\trm -rf src\\n' > mk && make -f mk x", RM),
    ("sed -i 's/echo build/rm -rf src/' Makefile && make build", RM),
    ("sed -i -e 's/echo build/rm -rf src/' Makefile; make", RM),
    ("sed -i '/build:/a\\\\trm -rf src' Makefile && make build", RM),
    ("cat >> Makefile <<'E'\nclean:\n\trm -rf src\nE\nmake clean", RM),
    ("printf 'x:\\n\\trm -rf src\\n' | tee -a Makefile >/dev/null; make x", RM),
    ("perl -pi -e 's/echo build/rm -rf src/' Makefile && make", OPAQUE),
    # npm: package.json written or edited, npm pkg set
    ("npm pkg set scripts.x='rm -rf src' && npm run x", RM),
    ("npm pkg set scripts.test='rm -rf src' && npm test", RM),
    ('printf \'{"scripts":{"build":"rm -rf src"}}\' > package.json && npm run build', RM),
    ('echo \'{"scripts":{"test":"rm -rf src"}}\' > package.json; npm test', RM),
    ("sed -i 's/echo hi/rm -rf src/' package.json && npm run build", RM),
    ("sed -i 's/echo hi/rm -rf src/' package.json; npm run-script build", RM),
    ("npm pkg set scripts.prebuild='rm -rf src'; npm run build", RM),
    # a script edited in place, then run
    ("sed -i 's/echo building/rm -rf src/' build.sh && ./build.sh", RM),
    ("sed -i 's/echo building/rm -rf src/' build.sh; sh build.sh", RM),
    ("sed -i 's/^echo .*/rm -rf src/' build.sh && bash build.sh", RM),
    ("sed -i -E 's/echo (b)uilding/rm -rf src/' build.sh && ./build.sh", RM),
    ("sed -i '$a rm -rf src' build.sh && ./build.sh", RM),
    ("sed -i '2i rm -rf src' build.sh; . ./build.sh", RM),
    ("sed -i 'y/eco/rmX/;s/rmhX building/rm -rf src/' build.sh && ./build.sh", RM),
    ("echo 'rm -rf src' >> build.sh && ./build.sh", RM),
    ("printf 'rm -rf src\\n' >> ./build.sh; bash ./build.sh", RM),
    ("perl -pi -e 's/echo building/rm -rf src/' build.sh && ./build.sh", OPAQUE),
    ("cp build.sh y.sh; sed -i 's/echo building/rm -rf src/' y.sh; bash y.sh", OPAQUE),
    # modules an interpreter loads
    ("echo 'import shutil; shutil.rmtree(\"src\")' > m.py && python3 -m m", RM),
    ("echo 'import shutil; shutil.rmtree(\"src\")' > m.py && python3 -c 'import m'", RM),
    ("echo 'import shutil; shutil.rmtree(\"src\")' > m.py; python3 -c 'from m import x'", RM),
    ("printf 'import shutil\\nshutil.rmtree(\"src\")\\n' > m.py && python3 -c 'import os, m'", RM),
    (
        'echo \'require("fs").rmSync("src",{recursive:true})\' > x.js && '
        "node -e \"require('./x')\"",
        RM,
    ),
    ('echo \'require("fs").rmSync("src",{recursive:true})\' > x.js && node -r ./x -e 1', RM),
    # sed's e command and s///e flag
    ("sed 's/.*/rm -rf src/e' build.sh", RM),
    ("sed '1e rm -rf src' build.sh", RM),
    ("sed -n '1{e rm -rf src\n}' build.sh", RM),
    ("echo x | sed 's/x/rm -rf src/e'", OPAQUE),
    ("sed -e '1!d' -e 's/^.*$/rm -rf src/e' build.sh", RM),
    ("sed e cmds.txt", OPAQUE),
    # crontab installing a file
    ("echo '* * * * * rm -rf src' > c.txt && crontab c.txt", OPAQUE),
    ("crontab c.txt", OPAQUE),
]
# Run in real bash as well, when the tools exist (crontab would touch the machine's table).
NOT_RUN = ("crontab", "sed e cmds")

SAFE = [
    "sed -i 's/echo building/echo built/' build.sh && ./build.sh",
    "echo 'echo hi' >> build.sh && ./build.sh",
    "printf 'test:\\n\\techo ok\\n' >> Makefile && make test",
    "sed -i 's/echo build/echo built/' Makefile && make build",
    "npm pkg set scripts.lint='echo lint' && npm run lint",
    "sed -i 's/echo hi/echo hello/' package.json && npm run build",
    "sed -n '/build/p' Makefile",
    "sed 's/foo/bar/2' build.sh",
    "sed -i 's/version = .*/version = 2/' notes.txt",
    "echo 'print(1)' > m.py && python3 -m m",
    "echo 'print(1)' > m.py && python3 -c 'import math, m'",
    "sed -e 's/e/E/g' build.sh",
]


def _repo(base: Path) -> tuple[Path, dict[str, str]]:
    # Inside the test's HOME: dcg exempts temp dirs, HOME it does not.
    files = {
        "Makefile": "build:\n\techo build\n",
        "package.json": '{"name": "x", "scripts": {"build": "echo hi"}}\n',
        "build.sh": "#!/bin/sh\necho building\n",
        "notes.txt": "version = 1\n",
        "cmds.txt": "rm -rf src\n",
    }
    box, env = sandbox.box(base, files, **quiet_npm(base))
    (box / "build.sh").chmod(0o755)
    return box, env


def _tools(command: str) -> bool:
    words = {w for w in command.replace(";", " ").replace("&&", " ").split()}
    return all(shutil.which(t) for t in ("make", "npm", "node", "perl") if t in words)


@pytest.mark.parametrize(("command", "rule_id"), STOP, ids=[c for c, _ in STOP])
def test_file_run_later_stopped(isolated_home: Path, command: str, rule_id: str) -> None:
    box, env = _repo(isolated_home)
    decision, details = claude_hook(command, box)
    assert decision == "deny", command
    assert rule_id in details, details
    if any(n in command for n in NOT_RUN) or not _tools(command):
        return
    bash(command, box, env)
    assert not (box / "src" / "canary").exists(), f"not destroyed in real bash: {command}"


@pytest.mark.parametrize("command", [c for c, _ in STOP][::5])
@pytest.mark.parametrize("variant", ["later-line", "after-tab", "bash-c", "after-comment"])
def test_file_run_later_stopped_however_placed(
    isolated_home: Path, command: str, variant: str
) -> None:
    box, _ = _repo(isolated_home)
    assert claude_hook(command, box, variant)[0] == "deny", command


@pytest.mark.parametrize("command", SAFE)
def test_file_run_later_everyday_passes(isolated_home: Path, command: str) -> None:
    box, env = _repo(isolated_home)
    assert claude_hook(command, box)[0] == "", command
    if not _tools(command):
        return
    bash(command, box, env)
    assert (box / "src" / "canary").read_text() == "alive\n", command
