"""Makefile recipes: targets, prefixes, variables, continuations; resolution for ``make``."""

from __future__ import annotations

import pytest

from dcg.extract.makefile import commands, recipes, resolve

MK = (
    "DIR := /\n"
    "OUT = build\n"
    "OUT += extra\n"
    ".PHONY: clean nuke\n"
    "\n"
    "all: clean\n"
    "\n"
    "clean:\n"
    "\t@rm -rf $(OUT)\n"
    "\t-echo done # not a comment to the shell\n"
    "\t# a recipe comment\n"
    "\n"
    "nuke deep: clean ; rm -x\n"
    "\t@ rm -rf ${DIR} \\\n"
    "\t  --no-preserve-root\n"
    "\tfor f in *; do echo $$f; done\n"
    "%.o: %.c\n"
    "\t+$(CC) -c $<\n"
)


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        pytest.param("all", [], id="no-recipe"),
        pytest.param(
            "clean",
            [(9, 3, "rm -rf build extra"), (10, 3, "echo done # not a comment to the shell")],
            id="prefixes-and-variables",
        ),
        pytest.param(
            "nuke",
            [
                (13, 20, "rm -x"),
                (14, 4, "rm -rf / \\\n  --no-preserve-root"),
                (16, 2, "for f in *; do echo $f; done"),
            ],
            id="inline-continuation-dollar",
        ),
        pytest.param("%.o", [(18, 3, "cc -c $<")], id="pattern-rule-builtin-var"),
    ],
)
def test_recipes(target: str, expected: list[tuple[int, int, str]]) -> None:
    assert [(f.line, f.column, f.text) for f in recipes(MK)[target]] == expected


def test_shared_recipe_and_commands_once() -> None:
    assert [f.text for f in recipes(MK)["deep"]] == [f.text for f in recipes(MK)["nuke"]]
    lines = [f.line for f in commands("Makefile", MK)]
    assert lines == sorted(set(lines)) == [9, 10, 13, 14, 16, 18]


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        pytest.param(
            "clean", ["rm -rf build extra", "echo done # not a comment to the shell"], id="x"
        ),
        pytest.param("", [], id="default-is-first-target"),
        pytest.param("missing", None, id="missing"),
    ],
)
def test_resolve(target: str, expected: list[str] | None) -> None:
    assert resolve(MK, target) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("x:\n\t$(RM) -r build\n", ["rm -f -r build"], id="builtin-rm"),
        pytest.param("x:\n\trm -rf $(HOME)\n", ["rm -rf ${HOME}"], id="environment-variable"),
        pytest.param("x:\n\trm -rf $(D)\nD = /srv\n", ["rm -rf /srv"], id="assigned-after-rule"),
        # make's $(shell CMD) runs CMD in a shell: it is the shell's $(CMD) (was kept as
        # written, which the shell read as a program named `shell`).
        pytest.param("x:\n\techo $(shell date)\n", ["echo $(date)"], id="shell-function"),
        pytest.param("x:\n\t$(foreach p,a b,echo $(p);)\n", ["echo a; echo b;"], id="foreach"),
        pytest.param("x:\n\t$(eval Y := 1)\n\t$(info hi)\n", ["", ""], id="eval-info-empty"),
        pytest.param("f = rm -rf $(1)/dist\nx:\n\t$(call f,web)\n", ["rm -rf web/dist"], id="call"),
        pytest.param(
            "S = a.c b.c\nx:\n\tcc $(patsubst %.c,%.o,$(S)) $(addprefix -I,inc)\n",
            ["cc a.o b.o -Iinc"],
            id="text-functions",
        ),
        pytest.param("x:\n\trm -rf $(dir src/main.c)\n", ["rm -rf src/"], id="dir"),
        pytest.param(
            "define T\n$(1):\n\trm -rf $(1)\nendef\nx:\n\techo\n", ["echo"], id="define-no-rule"
        ),
        pytest.param("x:\n\t$(unknownfn a,b)\n", ["$(unknownfn a,b)"], id="unknown-kept"),
        pytest.param("x:\n\techo $@ $$HOME\n", ["echo $@ $HOME"], id="automatic-and-dollar"),
    ],
)
def test_variables(text: str, expected: list[str]) -> None:
    assert resolve(text, "x") == expected
