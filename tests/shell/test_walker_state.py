"""The walker's typed facts are scoped like the variables they travel with."""

from __future__ import annotations

import pytest

from dcg.shell import flow
from dcg.shell.lexer import lex
from dcg.shell.limits import Budget
from dcg.shell.parser import Simple, split
from dcg.shell.state import Vars


def _seen(line: str) -> dict[str, bool]:
    """Walk ``line``; the command ``a`` gains a fact; each other command word records
    whether the fact holds when it runs."""
    env = Vars()
    seen: dict[str, bool] = {}

    def walk(simple: Simple) -> None:
        simple.fields = [str(w.plain()) for w in simple.words]  # what the walker sets
        word = simple.fields[0] if simple.fields else ""
        if word == "a":
            env.state.aliases = True
        elif word:
            seen[word] = env.state.aliases

    flow.run(split(lex(line, Budget(None, None), 0), 0), env, walk, {})
    return seen


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("a; b", {"b": True}),
        ("( a ); b", {"b": False}),
        ("a & b; c", {"b": False, "c": False}),
        ("x | a; c", {"x": False, "c": False}),
        ("if x; then a; fi; c", {"x": False, "c": True}),
        ("if false; then a; fi; c", {"false": False, "c": False}),
        ("x || a; c", {"x": False, "c": True}),
        ("case y in y) a;; esac; c", {"c": True}),
        ("f() { a; }; b; f; c", {"b": False, "f": False, "c": True}),  # after the call
    ],
)
def test_a_fact_follows_the_variable_scope(line: str, expected: dict[str, bool]) -> None:
    assert _seen(line) == expected


def test_a_copy_is_independent() -> None:
    env = Vars({"x": "1"})
    env.state.nocase = True
    env.state.in_function = "f"
    copy = env.copy()
    copy.state.nocase = False
    copy["x"] = "2"
    assert isinstance(copy, Vars)
    assert (env["x"], env.state.nocase, copy.state.in_function) == ("1", True, "f")


def _hashed(line: str, funcs: dict[str, object] | None = None) -> str | None:
    """Walk ``line``: ``a`` and ``b`` bind a name in a fact table; what ``c`` sees.
    Without ``funcs`` no call is judged (dcg.shell.cases): a call replays its body's
    effects as read where it was defined."""
    env = Vars()
    seen: list[str | None] = []

    def walk(simple: Simple) -> None:
        simple.fields = [str(w.plain()) for w in simple.words]
        word = simple.fields[0] if simple.fields else ""
        if word in ("a", "b"):
            env.state.hashes["x"] = word
        elif word == "c":
            seen.append(env.state.hashes.get("x", "missing"))

    flow.run(split(lex(line, Budget(None, None), 0), 0), env, walk, funcs)  # type: ignore[arg-type]
    return seen[0]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("a; c", "a"),
        ("( a ); c", "missing"),
        ("if x; then a; fi; c", "a"),
        ("a; if x; then b; fi; c", None),  # may or may not have run: unknown
        ("a; if false; then b; fi; c", "a"),
        ("f() { b; }; a; c", "a"),
        ("f() { b; }; a; f; c", "b"),
    ],
)
def test_a_fact_table_entry_is_scoped_like_a_variable(line: str, expected: str | None) -> None:
    assert _hashed(line) == expected


def test_a_judged_function_not_walked_for_this_call_leaves_its_effects_unknown() -> None:
    """Where a function is defined its ``$1`` is empty; a call the walker judges walks
    the body with the call's arguments. One not walked again (judged before) must not
    replay the definition's values: they are unknown (`f() { c=$1; }; f rm; f rm`)."""
    assert _hashed("f() { b; }; a; f; c", {}) is None
    assert _hashed("f() { b; }; a; c", {}) == "a"


def test_load_takes_every_slot_and_copies_every_table() -> None:
    """``WalkerState.load`` is written out slot by slot (speed): none may be forgotten."""
    from dcg.shell.state import TABLES, WalkerState

    source = WalkerState()
    for i, name in enumerate(WalkerState.__slots__):
        setattr(source, name, {"k": str(i)} if name in TABLES else ("v", i))
    target = WalkerState()
    target.load(source)
    for name in WalkerState.__slots__:
        assert getattr(target, name) == getattr(source, name), name
    for name in TABLES:
        assert getattr(target, name) is not getattr(source, name), name
