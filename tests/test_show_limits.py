"""Pictures of large and deep searches: drawn in time linear in their nodes (a flat tree of
tens of thousands of leaves, a chain as deep as a tree may be), bounded by `MAX_DRAWN`, with
the options that ask for them checked in words."""

from __future__ import annotations

import json

import pytest

from zerosum.games.tree import MAX_DEPTH, Tree
from zerosum.search import alphabeta
from zerosum.search.trace import Trace
from zerosum.show.html import html
from zerosum.show.searched import MAX_DRAWN, from_trace
from zerosum.show.svg import svg
from zerosum.show.text import text
from zerosum.show.traced import traced_search

FLAT = 20_000
"""Leaves of the flat tree drawn: five times the 4,000 that once took over a minute (cubic)."""


@pytest.fixture(scope="module")
def flat():
    tree = Tree.from_text(json.dumps([leaf % 97 for leaf in range(FLAT)]))
    return traced_search(tree, (), max_nodes=len(tree.nodes))


def test_a_flat_tree_of_twenty_thousand_leaves_is_rebuilt_whole(flat):
    assert len(flat.nodes) == FLAT + 1
    assert flat.root.children == tuple(range(1, FLAT + 1))
    assert flat.result.value == 96


@pytest.mark.parametrize("draw", [text, svg, html])
def test_a_flat_tree_of_twenty_thousand_leaves_is_drawn_every_leaf_once(flat, draw):
    picture = draw(flat)
    if draw is text:
        assert picture.count("\n") == FLAT + 2  # the summary, the root, the leaves
        assert picture.count("├── ") == FLAT - 1 and picture.count("└── ") == 1
    else:
        assert picture.count('class="node leaf ') == FLAT


def chain(levels: int) -> Tree:
    root: list = [1, 2]
    for level in range(levels - 1):
        root = [root, level % 3]
    return Tree(root)


@pytest.mark.parametrize("draw", [text, svg, html])
def test_a_search_as_deep_as_a_tree_may_be_is_drawn_without_recursion(draw):
    tree = chain(MAX_DEPTH.most)
    searched = traced_search(tree, (), max_nodes=len(tree.nodes))
    assert max(node.ply for node in searched.nodes) == MAX_DEPTH.most
    assert draw(searched)


def test_a_deep_pruned_branch_is_added_without_recursion():
    deep: list = [5]
    for _ in range(MAX_DEPTH.most - 3):
        deep = [deep]
    tree = Tree([[9], [-9, deep]])  # the cut-off at 1.0 prunes the deep branch 1.1
    searched = traced_search(tree, (), max_nodes=len(tree.nodes))
    pruned = [node for node in searched.nodes if node.status == "pruned"]
    assert len(pruned) == MAX_DEPTH.most - 1
    assert max(node.ply for node in pruned) == MAX_DEPTH.most


@pytest.mark.parametrize("most", [0, -1, MAX_DRAWN.most + 1])
def test_a_picture_bounded_outside_one_node_to_the_limit_is_refused(most):
    tree = Tree([[3, 12, 8], [2, 4, 6]])
    trace = Trace()
    result = alphabeta(tree, (), trace=trace)
    with pytest.raises(ValueError, match="picture"):
        from_trace(tree, (), trace, result, algorithm="alphabeta", max_nodes=most)


def test_the_picture_limit_is_a_million_nodes_which_the_whole_tictactoe_tree_fits():
    assert MAX_DRAWN.most == 1_000_000 > 549_946


def test_tree_output_without_a_picture_to_write_is_refused(cli, tmp_path):
    target = tmp_path / "picture.svg"
    err = cli.error("tree", "[[3,12,8],[2,4,6]]", "-o", str(target))
    assert "-o writes the picture: say which with --show" in err
    assert not target.exists()


def test_tree_without_a_picture_lists_the_same_leaves_as_the_picture(cli, tmp_path):
    textbook = "[[3,12,8],[2,4,6],[14,5,2]]"
    picture = str(tmp_path / "search.svg")
    for algorithm in ("alphabeta", "minimax", "negamax"):
        listed = cli.json("tree", textbook, "--algorithm", algorithm)
        drawn = cli.json("tree", textbook, "--algorithm", algorithm, "--show", "svg", "-o", picture)
        for field in ("examined", "pruned", "nodes", "cutoffs", "value"):
            assert listed[field] == drawn[field]


def test_tree_says_there_is_no_best_move_at_a_leaf_or_a_chance_root(cli):
    _, out, _ = cli("tree", "5")
    assert "best move: none, the game is over at the root (a leaf)" in out
    assert "None" not in out and "the root            5  examined" in out
    _, out, _ = cli("tree", '{"chance": [[0.5, 1], [0.5, 2]]}')
    assert "best move: none, nobody moves at the root (a chance node)" in out
    assert "principal variation" not in out


def test_one_cut_off_is_said_in_the_singular(cli):
    _, out, _ = cli("tree", "[[3,12,8],[2,4,6],[14,5,2]]", "--show", "text")
    assert "1 cut-off;" in out and "1 cut-offs" not in out


def test_explain_json_with_a_file_and_no_show_writes_the_text_picture(cli, tmp_path):
    target = tmp_path / "search.txt"
    report = cli.json("explain", "tictactoe", "X.O.X.O..", "-o", str(target))
    assert report["output"] == str(target)
    assert target.read_text().startswith("value ")


def test_explain_json_alone_prints_only_json(cli):
    report = cli.json("explain", "connect4", "4453")
    assert "output" not in report and report["nodes_drawn"] > 0


def test_explain_refuses_a_game_with_chance_nodes_in_words(cli):
    for argv in (("tree", '[{"chance": [[0.5, 1], [0.5, 2]]}, 3]'), ("pig",)):
        err = cli.error("explain", *argv)
        assert "has chance nodes: explain draws exact searches and the engine's" in err


def test_an_engine_search_too_large_to_draw_is_stopped_and_refused(cli, monkeypatch):
    monkeypatch.setattr("zerosum.show.traced.TRACE_LIMIT", 500)
    err = cli.error("explain", "connect4", "--depth", "60")
    assert "the search to depth 60 makes more than 500 events to draw (stopped at depth" in err


def test_explain_help_names_the_picture_and_depth_limits(cli):
    _, out, _ = cli("explain", "--help")
    assert "1 to 1,000,000" in out and "1 to 100" in out
    _, out, _ = cli("tree", "--help")
    assert "200 levels" in out and "1,000,000 nodes" in out
