"""Expectiminimax: the expectation, Ballard's pruning, depth limits and the table."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum.games.tree import Tree
from zerosum.search.expectiminimax import expectiminimax

# The textbook's dice lesson: two equally likely rolls after each move.
DICE = [{"chance": [[0.5, 6], [0.5, 6]]}, {"chance": [[0.5, 10], [0.5, 1]]}]
SQUARED = [{"chance": [[0.5, 36], [0.5, 36]]}, {"chance": [[0.5, 100], [0.5, 1]]}]


@pytest.mark.parametrize(
    ("nested", "best_move", "value"),
    [(DICE, 0, 6), (SQUARED, 1, 50.5)],
    ids=["six-six over ten-one", "squared evaluation: ten-one"],
)
def test_dice_lesson_chooses_the_roll_with_the_best_expectation(nested, best_move, value):
    result = expectiminimax(Tree(nested), ())
    assert result.best_move == best_move
    assert result.value == value


def test_expectation_weights_by_probability_once():
    tree = Tree([{"chance": [[0.25, 8], [0.75, 4]]}])
    assert expectiminimax(tree, ()).value == 5


def test_chance_levels_do_not_change_whose_turn_it_is():
    # MAX, then a roll, then MIN chooses: MIN takes 1 after the first roll, 3 after the second.
    tree = Tree([{"chance": [[0.5, [1, 9]], [0.5, [3, 7]]]}])
    assert tree.to_move((0, 0)) == 1
    assert expectiminimax(tree, ()).value == 2


def test_chance_root_value_is_the_expectation_and_has_no_move():
    tree = Tree({"chance": [[0.5, [1, 4]], [0.5, [2, 0]]]})
    result = expectiminimax(tree, ())
    assert result.value == 3
    assert result.best_move is None


def test_star2_searches_fewer_nodes_than_star1_than_no_pruning_on_a_regular_tree():
    rng = random.Random(7)

    def node(level):
        if level == 0:
            return rng.randint(-10, 10)
        moves = [{"chance": [[1 / 3, node(level - 1)] for _ in range(3)]} for _ in range(3)]
        return moves

    tree = Tree(node(4))
    results = {p: expectiminimax(tree, (), pruning=p) for p in ("none", "star1", "star2")}
    values = {p: r.value for p, r in results.items()}
    assert values["star1"] == pytest.approx(values["none"], abs=1e-9)
    assert values["star2"] == pytest.approx(values["none"], abs=1e-9)
    nodes = {p: r.stats.nodes for p, r in results.items()}
    assert nodes["star2"] < nodes["star1"] < nodes["none"]


@st.composite
def chance_trees(draw, level=3):
    """Nested trees mixing player nodes, chance nodes and integer leaves."""
    if level == 0 or draw(st.integers(0, 4)) == 0:
        return draw(st.integers(-10, 10))
    width = draw(st.integers(1, 3))
    children = [draw(chance_trees(level=level - 1)) for _ in range(width)]
    if draw(st.booleans()):
        return children
    weights = [draw(st.integers(1, 4)) for _ in children]
    total = sum(weights)
    return {"chance": [[w / total, child] for w, child in zip(weights, children, strict=True)]}


@settings(max_examples=150, deadline=None)
@given(chance_trees(level=5))
def test_star_pruning_returns_the_unpruned_value_with_no_more_nodes(nested):
    tree = Tree(nested)
    full = expectiminimax(tree, (), pruning="none")
    for pruning in ("alphabeta", "star1", "star2"):
        pruned = expectiminimax(tree, (), pruning=pruning)
        assert pruned.value == pytest.approx(full.value, abs=1e-9)
    assert expectiminimax(tree, (), pruning="star1").stats.nodes <= full.stats.nodes


def test_star_pruning_needs_declared_bounds():
    class Unbounded(Tree):
        value_bounds = None

    with pytest.raises(ValueError, match=r"Bounded \(value_bounds\), needed for star1 pruning"):
        expectiminimax(Unbounded(DICE), (), pruning="star1")


def test_unknown_pruning_is_refused():
    with pytest.raises(ValueError, match="unknown pruning 'star3'"):
        expectiminimax(Tree(DICE), (), pruning="star3")
