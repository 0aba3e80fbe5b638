"""Chance nodes in explicit trees: validation, turns, and `zerosum tree` running expectiminimax."""

import pytest

from zerosum.games.tree import Tree
from zerosum.search import alphabeta

DICE = '[{"chance": [[0.5, 6], [0.5, 6]]}, {"chance": [[0.5, 10], [0.5, 1]]}]'
SQUARED = '[{"chance": [[0.5, 36], [0.5, 36]]}, {"chance": [[0.5, 100], [0.5, 1]]}]'


@pytest.mark.parametrize(
    "text, reason",
    [
        ('[{"chance": [[0.5, 1], [0.6, 2]]}]', "the probabilities sum to 1.1, not 1"),
        ('[{"chance": [[0, 1], [1, 2]]}]', "outcome 0 has probability 0"),
        ('[{"chance": [[-0.5, 1], [1.5, 2]]}]', "outcome 0 has probability -0.5"),
        ('[{"chance": [[0.5, 1], [0.5]]}]', "outcome 1 is [0.5], expected [p, subtree]"),
        ('[{"chance": []}]', "a chance node is"),
        ('[{"dice": [[1, 2]]}]', "a chance node is"),
        ('[{"chance": [["1", 2]]}]', "outcome 0 has probability '1'"),
    ],
)
def test_malformed_chance_node_is_refused_with_its_reason(text, reason):
    with pytest.raises(ValueError, match="node 0") as error:
        Tree.from_text(text)
    assert reason in str(error.value)


def test_probabilities_within_1e_9_of_one_are_accepted():
    tree = Tree.from_text('[{"chance": [[0.1, 1], [0.2, 2], [0.7, 3]]}]')
    assert [p for _, p in tree.chance_outcomes((0,))] == [0.1, 0.2, 0.7]


def test_chance_node_has_no_moves_so_exact_search_refuses_it():
    with pytest.raises(ValueError, match="node 0 is a chance node"):
        alphabeta(Tree.from_text(DICE), ())


@pytest.mark.parametrize(
    ("tree", "value", "best_move"),
    [(DICE, 6, "0"), (SQUARED, 50.5, "1")],
    ids=["six-six", "squared payoffs: ten-one"],
)
def test_tree_command_chooses_the_roll_with_the_best_expectation(cli, tree, value, best_move):
    report = cli.json("tree", tree)
    assert report["algorithm"] == "expectiminimax"
    assert report["value"] == value
    assert report["best_move"] == best_move


def test_tree_command_reports_leaves_star_pruning_skipped(cli):
    # After move 0 is worth 5, the first roll of move 1 (0 with bounds 0..10) caps it at 5.
    tree = '[{"chance": [[0.5, 5], [0.5, 5]]}, {"chance": [[0.5, 0], [0.5, 10]]}]'
    report = cli.json("tree", tree)
    assert report["value"] == 5
    assert report["pruned"] == [[1, 1]]


def test_tree_command_bad_probabilities_is_one_line_and_exit_2(cli):
    err = cli.error("tree", '[{"chance": [[0.5, 6], [0.6, 6]]}]')
    assert err == "zerosum: error: node 0: the probabilities sum to 1.1, not 1\n"


def test_pictures_of_chance_trees_are_drawn_by_expectiminimax_averaging_every_outcome(cli):
    report = cli.json("tree", DICE, "--show", "text", "-o", "/dev/null")
    assert report["algorithm"] == "expectiminimax" and report["value"] == 6
    assert len(report["examined"]) == 4  # no Star2 pruning in a picture
