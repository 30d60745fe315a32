"""``files.rewrite_appended``: a rewrite of an append-only file that holds its lock only at
the end (issue 27), so lines appended while it read are kept and no appender waits."""

from __future__ import annotations

import os
from pathlib import Path

from dcg.state import files


def _file(tmp_path: Path, text: bytes) -> str:
    path = tmp_path / "state" / "log.jsonl"
    path.parent.mkdir(mode=0o700)
    path.write_bytes(text)
    path.chmod(0o600)
    return str(path)


def test_lines_appended_while_it_reads_are_kept_after_its_result(tmp_path: Path) -> None:
    path = _file(tmp_path, b"a\nb\nc\n")

    def change(data: bytes) -> bytes:
        files.append_line(path, "d")  # no lock is held: an append goes through at once
        return data.replace(b"b\n", b"")

    assert files.rewrite_appended(path, change) == b"a\nc\n"
    assert Path(path).read_bytes() == b"a\nc\nd\n"
    assert not [n for n in os.listdir(os.path.dirname(path)) if ".tmp." in n]


def test_a_line_still_being_written_is_carried_over_not_changed(tmp_path: Path) -> None:
    path = _file(tmp_path, b"a\nb\nhal")

    def change(data: bytes) -> bytes:
        assert data == b"a\nb\n"  # complete lines only
        return b"b\n"

    files.rewrite_appended(path, change)
    assert Path(path).read_bytes() == b"b\nhal"


def test_a_file_replaced_meanwhile_is_left_alone(tmp_path: Path) -> None:
    path = _file(tmp_path, b"a\nb\n")

    def change(data: bytes) -> bytes:
        files.write_replace(path, b"other\n")  # another rewrite wins the race
        return b"a\n"

    assert files.rewrite_appended(path, change) is None
    assert Path(path).read_bytes() == b"other\n"
    assert not [n for n in os.listdir(os.path.dirname(path)) if ".tmp." in n]


def test_nothing_to_change_writes_nothing(tmp_path: Path) -> None:
    path = _file(tmp_path, b"a\n")
    inode = os.stat(path).st_ino
    assert files.rewrite_appended(path, lambda data: None) is None
    assert os.stat(path).st_ino == inode
    assert files.rewrite_appended(str(tmp_path / "state" / "missing"), lambda d: b"") is None
