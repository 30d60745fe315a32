"""Differential test: simple commands and argument boundaries agree with tree-sitter-bash.

The generator sticks to constructs where both sides must agree word for word:
plain, single-quoted, double-quoted and backslash-escaped words (and concatenations of
them), ``;`` ``&&`` ``||`` ``|`` ``&`` and newlines, subshells, brace groups and ``$( … )``
as a whole argument. Excluded, and why:

- wrappers, shells, interpreters, find/xargs/ssh and data commands (echo, grep, git …):
  dcg deliberately rewrites their argv (unwrapping, payloads), tree-sitter does not;
- variables, globs, braces, ``~`` and ``=``: expansions tree-sitter keeps as nodes;
- reserved words, comments, heredocs, redirections: different node shapes, tested by
  table in test_parse.py;
- an escape directly after a quote: tree-sitter-bash splits the word there;
- ordering across nesting: dcg lists a substitution's commands before the command that
  contains them (they run first), tree-sitter in pre-order; multisets are compared.
"""

from __future__ import annotations

from collections import Counter

import pytest
import tree_sitter
import tree_sitter_bash
from hypothesis import given, settings
from hypothesis import strategies as st

from dcg.shell import parse

NAMES = ["ls", "cat", "make", "npm", "cargo", "tar", "cp", "mv", "mkdir", "touch", "wc", "sort"]
SAFE = "abcxyz019_.,:/+-@%"

plain = st.text(alphabet=SAFE, min_size=1, max_size=6).filter(lambda w: not w.startswith("-"))
option = st.text(alphabet="abcxyz", min_size=1, max_size=3).map(lambda w: "-" + w)
single = st.text(alphabet=SAFE + " *$;|&()", max_size=6).map(lambda w: f"'{w}'")
double = st.text(alphabet=SAFE + " *;|&()'", max_size=6).map(lambda w: f'"{w}"')
escaped = st.sampled_from(list("abc ;|&()'\"*$")).map(lambda c: "\\" + c)
piece = st.one_of(plain, single, double)
# An escape right after a quote ('a'\b) is split in two by tree-sitter-bash, unlike
# bash; escapes are therefore generated between plain text only.
with_escape = st.tuples(plain, escaped, plain).map("".join)
word = st.one_of(plain, option, with_escape, st.lists(piece, min_size=2, max_size=3).map("".join))


@st.composite
def simple(draw: st.DrawFn, depth: int = 0) -> str:
    parts = [draw(st.sampled_from(NAMES))]
    parts += draw(st.lists(word, max_size=4))
    if depth < 2 and draw(st.booleans()):
        # "$( (" keeps the space: "$((" would open an arithmetic expansion.
        parts.append("$( " + draw(command_list(depth + 1)) + " )")
    return " ".join(parts)


@st.composite
def command_list(draw: st.DrawFn, depth: int = 0) -> str:
    items = draw(st.lists(simple(depth), min_size=1, max_size=3))
    out = items[0]
    for item in items[1:]:
        out += draw(st.sampled_from([" ; ", " && ", " || ", " | ", " & ", "\n"])) + item
    if depth < 2 and draw(st.integers(0, 3)) == 0:
        out = draw(st.sampled_from(["( {} )", "{{ {} ; }}"])).format(out)
    return out


PARSER = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))


def _unescape(text: str) -> str:
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            i += 1
        out.append(text[i])
        i += 1
    return "".join(out)


def _text(node: tree_sitter.Node) -> str:
    raw = (node.text or b"").decode()
    kind = node.type
    if kind == "command_substitution":
        return "$(…)"
    if kind == "raw_string":
        return raw[1:-1]
    if kind == "string":
        # Children cover only the non-plain pieces; rebuild from the raw text instead.
        body, out = raw[1:-1], []
        i = 0
        while i < len(body):
            if body[i] == "\\" and i + 1 < len(body) and body[i + 1] in '$`"\\':
                i += 1
            out.append(body[i])
            i += 1
        return "".join(out)
    if kind == "concatenation":
        return "".join(_text(c) for c in node.children)
    return _unescape(raw)


def treesitter_commands(line: str) -> list[tuple[str, ...]]:
    tree = PARSER.parse(line.encode())
    assert not tree.root_node.has_error, line
    found: list[tuple[str, ...]] = []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "command":
            found.append(tuple(_text(c) for c in node.named_children))
        stack.extend(reversed(node.children))
    return found


@settings(max_examples=400, deadline=None)
@given(command_list())
def test_agrees_with_treesitter(line: str) -> None:
    ours = [c.argv for c in parse(line)]
    assert Counter(ours) == Counter(treesitter_commands(line)), line


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("ls 'a b' \"c d\" e\\ f", id="quoting"),
        pytest.param("cat a$(ls 'x y')b | sort && ( make -j4 ; npm ci )", id="mixed"),
        pytest.param("{ tar -x ; } || cp a\\;b c", id="group-and-escape"),
    ],
)
def test_examples_agree_with_treesitter(line: str) -> None:
    assert Counter(c.argv for c in parse(line)) == Counter(treesitter_commands(line))
