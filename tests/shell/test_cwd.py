"""The directory each simple command runs in after `cd`/`pushd` earlier on the line."""

from __future__ import annotations

import pytest

from dcg.shell import parse

UNKNOWN = "\x00?"


@pytest.mark.parametrize(
    ("line", "last_cwd"),
    [
        pytest.param("rm x", None, id="no-cd"),
        pytest.param("cd ~/.config/dcg && rm x", "~/.config/dcg", id="cd-and"),
        pytest.param("cd ~/.config; cd dcg; rm x", "~/.config/dcg", id="relative-chain"),
        pytest.param("cd /a && cd /b && rm x", "/b", id="absolute-resets"),
        pytest.param("pushd /tmp/x && rm y", "/tmp/x", id="pushd"),
        pytest.param("cd && rm x", "~", id="bare-cd-is-home"),
        pytest.param("cd $HOME/.claude && rm x", "$HOME/.claude", id="home-variable"),
        pytest.param('cd "$DIR" && rm x', UNKNOWN, id="dynamic"),
        pytest.param("cd - && rm x", UNKNOWN, id="cd-dash"),
        pytest.param("cd /a && popd && rm x", UNKNOWN, id="popd"),
        pytest.param("D=/etc; cd $D && rm x", "/etc", id="known-variable"),
        pytest.param("cd /a\nrm x", "/a", id="next-line"),
        pytest.param("bash -c 'cd /a && rm x'", "/a", id="inside-bash-c"),
    ],
)
def test_effective_cwd(line: str, last_cwd: str | None) -> None:
    commands = parse(line, deadline=None)
    assert commands[-1].argv[0] == "rm"
    assert commands[-1].cwd == last_cwd
