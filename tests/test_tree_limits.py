"""Explicit trees at and past their stated limits: any depth of nesting is read without Python
recursion and refused past `MAX_DEPTH` with one line; more than `MAX_NODES` nodes is refused;
numbers no float holds are refused by name; no command raises RecursionError."""

from __future__ import annotations

import json

import pytest

import zerosum.games.tree as tree_module
from zerosum.games.tree import MAX_DEPTH, MAX_NODES, Tree
from zerosum.limits import Limit

DEPTH = MAX_DEPTH.most


def nested(levels: int) -> str:
    """A chain of lists `levels` deep with a leaf 1 at the bottom."""
    return "[" * levels + "1" + "]" * levels


def chance_chain(levels: int) -> str:
    """`levels` chance nodes, each with the next one and a leaf as outcomes."""
    text = "1"
    for level in range(levels):
        text = f'{{"chance": [[0.5, {text}], [0.5, {level % 3}]]}}'
    return text


def alternating(levels: int) -> str:
    """`levels` player nodes, two moves each, the deeper one first (every search goes down)."""
    text = "1"
    for level in range(levels):
        text = f"[{text}, {level % 5 - 2}]"
    return text


def test_the_depth_limit_is_two_hundred_levels_and_cannot_be_lifted():
    assert DEPTH == 200 and not MAX_DEPTH.liftable
    assert MAX_NODES.most == 1_000_000 and not MAX_NODES.liftable


def test_a_tree_exactly_as_deep_as_the_limit_is_read():
    tree = Tree.from_text(nested(DEPTH))
    assert tree.leaves() == [(0,) * DEPTH]


@pytest.mark.parametrize("levels", [DEPTH + 1, 100_000])
def test_a_tree_deeper_than_the_limit_is_refused_when_read(levels):
    with pytest.raises(ValueError, match=f"deeper than {DEPTH} levels.*at most {DEPTH}"):
        Tree.from_text(nested(levels))


def test_unclosed_brackets_a_hundred_thousand_deep_are_refused_for_depth():
    with pytest.raises(ValueError, match=f"deeper than {DEPTH} levels"):
        Tree.from_text("[" * 100_000)


@pytest.mark.parametrize("levels, read", [(DEPTH, True), (DEPTH + 1, False)])
def test_python_lists_are_indexed_without_recursion_up_to_the_limit(levels, read):
    root: list = [1]
    for _ in range(levels - 1):
        root = [root]
    if read:
        assert Tree(root).leaves() == [(0,) * levels]
    else:
        with pytest.raises(ValueError, match=f"deeper than {DEPTH} levels below node 0.0"):
            Tree(root)


def test_python_lists_nested_a_hundred_thousand_deep_are_refused():
    root: list = [1]
    for _ in range(100_000):
        root = [root]
    with pytest.raises(ValueError, match=f"at most {DEPTH}"):
        Tree(root)


def test_a_list_that_contains_itself_is_refused_at_the_depth_limit():
    root: list = [1]
    root.append(root)
    with pytest.raises(ValueError, match=f"at most {DEPTH}"):
        Tree(root)


def test_chance_nodes_count_as_levels_in_the_text_and_in_the_tree():
    assert len(Tree.from_text(chance_chain(DEPTH)).chances) == DEPTH
    with pytest.raises(ValueError, match=f"deeper than {DEPTH} levels"):
        Tree.from_text(chance_chain(DEPTH + 1))


def test_brackets_inside_a_string_are_not_levels():
    with pytest.raises(ValueError, match="node 1 is '\\[\\[\\[\\[") as error:
        Tree.from_text(json.dumps([1, "[" * 1000]))
    assert len(str(error.value)) < 200


@pytest.mark.parametrize(
    "argv",
    [
        ("tree", "{}"),
        ("tree", "{}", "--json"),
        ("tree", "{}", "--algorithm", "minimax"),
        ("tree", "{}", "--show", "text"),
        ("solve", "tree", "{}"),
        ("solve", "tree", "{}", "--json"),
        ("analyze", "tree", "{}"),
        ("analyze", "tree", "{}", "--json"),
        ("explain", "tree", "{}", "--depth", "300"),
        ("explain", "tree", "{}", "--json"),
    ],
)
def test_every_tree_command_answers_at_the_limit_and_refuses_past_it(cli, argv):
    for text in (nested(DEPTH), alternating(DEPTH)):
        code, out, err = cli(*(text if word == "{}" else word for word in argv))
        assert code == 0 and out and err == "", err
    for text in (nested(DEPTH + 1), alternating(DEPTH + 1), nested(100_000), "[" * 100_000):
        err = cli.error(*(text if word == "{}" else word for word in argv))
        assert f"at most {DEPTH}" in err and "Recursion" not in err


@pytest.mark.parametrize("argv", [("tree", "{}"), ("tree", "{}", "--json")])
def test_expectiminimax_searches_a_chain_of_chance_nodes_as_deep_as_the_limit(cli, argv):
    code, out, err = cli(*(chance_chain(DEPTH) if word == "{}" else word for word in argv))
    assert code == 0 and err == ""
    err = cli.error(*(chance_chain(DEPTH + 1) if word == "{}" else word for word in argv))
    assert f"at most {DEPTH}" in err


def test_a_tree_past_the_node_limit_is_refused_at_the_edge(monkeypatch):
    monkeypatch.setattr(tree_module, "MAX_NODES", Limit("a tree's number of nodes", 10, "cost"))
    assert len(Tree.from_text(json.dumps(list(range(9)))).nodes) == 10
    with pytest.raises(ValueError, match="more than 10 nodes: .* at most 10, because cost"):
        Tree.from_text(json.dumps(list(range(10))))


def test_the_command_names_the_node_limit(cli, monkeypatch):
    monkeypatch.setattr(tree_module, "MAX_NODES", Limit("a tree's number of nodes", 10, "cost"))
    assert "at most 10" in cli.error("tree", json.dumps(list(range(10))))


@pytest.mark.parametrize(
    "number, reason",
    [
        ("1e400", "'1e400' in the tree is too large"),
        ("-1e400", "'-1e400' in the tree is too large"),
        ("1e-400", "'1e-400' in the tree is too small"),
        ("9" * 5000, "(5,000 characters) in the tree is too large"),
        ("NaN", "node 0 is nan: leaf values must be finite"),
        ("Infinity", "node 0 is inf: leaf values must be finite"),
    ],
)
def test_numbers_no_float_holds_are_refused_by_name(cli, number, reason):
    err = cli.error("tree", f"[{number}, 2]")
    assert reason in err and len(err) < 400


def test_a_leaf_no_float_holds_is_refused_when_given_as_python_numbers():
    with pytest.raises(ValueError, match="node 0 is an integer of 400 digits: .* float's range"):
        Tree([10**399, 2])


def test_a_malformed_tree_is_quoted_short(cli):
    err = cli.error("tree", "[" + "1," * 100_000)
    assert "malformed tree '[1,1,1," in err and "(200,001 characters)" in err
    assert len(err) < 400


def test_a_move_typed_with_thousands_of_digits_is_refused_without_echoing_it():
    tree = Tree.from_text("[1, 2]")
    with pytest.raises(ValueError, match=r"\(5,000 characters\) is not a move here"):
        tree.parse_move((), "1" * 5000)
    assert tree.parse_move((), " 1 ") == 1


def test_a_chance_node_named_in_an_error_says_the_root_plainly():
    with pytest.raises(ValueError, match="^the root is a chance node"):
        Tree.from_text('{"chance": [[1, 1]]}').legal_moves(())
