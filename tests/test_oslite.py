"""``dcg.oslite``: the hook's ``os`` without ``os`` gives ``os``'s answers.

The path functions are compared with ``posixpath`` on generated paths (the edge cases
live in slashes, dots and tildes); the file tests and ``makedirs`` on a temporary tree;
the environment in a process that has not imported ``os``, with bytes that are not UTF-8.
"""

from __future__ import annotations

import os
import posixpath
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dcg import oslite
from dcg.oslite import path as lpath

PIECES = st.sampled_from(["", "/", "//", "///", ".", "..", "a", "b.c", "~", "~root", "é", " "])
PATHS = st.lists(PIECES, max_size=8).map("".join) | st.text(alphabet="/.a~", max_size=12)


@settings(max_examples=2000, deadline=None)
@given(PATHS, st.lists(PATHS, max_size=3))
def test_string_functions_match_posixpath(p: str, more: list[str]) -> None:
    assert lpath.join(p, *more) == posixpath.join(p, *more)
    assert lpath.split(p) == posixpath.split(p)
    assert lpath.dirname(p) == posixpath.dirname(p)
    assert lpath.basename(p) == posixpath.basename(p)
    assert lpath.isabs(p) == posixpath.isabs(p)
    assert lpath.normpath(p) == posixpath.normpath(p)
    assert lpath.abspath(p) == posixpath.abspath(p)
    assert lpath.expanduser(p) == posixpath.expanduser(p)
    if p:
        for start in (None, "/", *more):
            if start != "":
                assert lpath.relpath(p, start) == posixpath.relpath(p, start)


@settings(max_examples=2000, deadline=None)
@given(PATHS)
def test_pure_python_normpath_matches_posixpath(p: str) -> None:
    # Used where the interpreter has no C normpath.
    assert lpath.normpath_python(p) == posixpath.normpath(p)


def test_relpath_refuses_an_empty_path() -> None:
    with pytest.raises(ValueError):
        lpath.relpath("")


def test_expanduser_with_and_without_home(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/home/someone/")
    assert lpath.expanduser("~/x") == "/home/someone/x" == posixpath.expanduser("~/x")
    monkeypatch.delenv("HOME")
    assert lpath.expanduser("~") == posixpath.expanduser("~")
    assert lpath.expanduser("~no-such-user-dcg/x") == "~no-such-user-dcg/x"


def test_file_tests_and_makedirs(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    (tmp_path / "link").symlink_to(tmp_path / "missing")
    for name in ("f", "link", "missing", "", "f/sub"):
        p = str(tmp_path / name)
        assert lpath.exists(p) == posixpath.exists(p)
        assert lpath.lexists(p) == posixpath.lexists(p)
        assert lpath.isfile(p) == posixpath.isfile(p)
        assert lpath.isdir(p) == posixpath.isdir(p)
    assert not lpath.exists("bad\0path") and not lpath.isfile("bad\0path")
    deep = tmp_path / "a" / "b" / "c"
    oslite.makedirs(str(deep), 0o700)
    assert deep.is_dir() and (deep.stat().st_mode & 0o777) == 0o700 & ~_umask()
    oslite.makedirs(str(deep), exist_ok=True)
    with pytest.raises(FileExistsError):
        oslite.makedirs(str(deep))
    with pytest.raises(FileExistsError):
        oslite.makedirs(str(tmp_path / "f"), exist_ok=True)
    oslite.makedirs(str(tmp_path / "d" / "."), exist_ok=True)
    assert (tmp_path / "d").is_dir()


def test_realpath_matches_posixpath(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "d" / "e").mkdir(parents=True)
    (tmp_path / "f").write_text("x")
    links = {
        "abs": tmp_path / "d",
        "rel": Path("d/e"),
        "up": Path("../" + tmp_path.name + "/d"),
        "dangling": Path("nowhere/x"),
        "loop1": Path("loop2"),
        "loop2": Path("loop1"),
        "self": Path("self"),
        "chain": Path("rel"),
        "d/e/back": Path("../.."),
        "file": Path("f"),
    }
    for name, target in links.items():
        (tmp_path / name).symlink_to(target)
    monkeypatch.chdir(tmp_path)
    tails = ["", "/", "/x", "/..", "/../..", "/./e", "/e/back/f", "/e/back/chain/back"]
    names = [*links, "d", "f", "missing", ".", ".."]
    for name in names:
        for tail in tails:
            for p in (str(tmp_path / name) + tail, name + tail, f"//{tmp_path}/{name}{tail}"):
                assert lpath.realpath(p) == posixpath.realpath(p), p
    assert lpath.realpath("") == posixpath.realpath("")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_environ_is_os_environ_once_os_is_loaded() -> None:
    assert oslite.environ is os.environ


def test_environ_without_os_decodes_as_os_does(tmp_path: Path) -> None:
    probe = (
        "import sys; sys.path.insert(0, sys.argv[1]); from dcg import oslite;"
        "assert 'os' not in sys.modules, 'oslite imported os';"
        "env = oslite.environ; import os; odd = os.environ['DCG_ODD'];"
        "print(type(env).__name__, env == dict(os.environ), env['DCG_ODD'] == odd)"
    )
    odd = b"caf\xc3\xa9 \xff\xfe"  # UTF-8, then bytes that are not
    env = {b"PATH": b"/usr/bin:/bin", b"DCG_ODD": odd, b"HOME": str(tmp_path).encode()}
    run = subprocess.run(
        [sys.executable, "-I", "-S", "-c", probe, str(Path(oslite.__file__).parents[2])],
        env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["dict", "True", "True"]
