"""Minimax, negamax and alpha-beta on explicit trees: values, counts, and Knuth and Moore."""

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum.games.tree import Tree
from zerosum.search import Trace, alphabeta, by_priority, minimax, negamax

SEED_TREE = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]

trees = st.recursive(
    st.integers(-9, 9),
    lambda children: st.lists(children, min_size=1, max_size=4),
    max_leaves=40,
)


class EvaluatedTree(Tree):
    """A tree whose inner nodes are judged by the mean of the leaves below them."""

    def evaluate(self, path, player):
        below = [v for p, v in self.nodes.items() if p[: len(path)] == path and p in self.leaf_set]
        mean = sum(below) / len(below)
        return mean if player == 0 else -mean

    @property
    def leaf_set(self):
        return set(self.leaf_paths)


def uniform(branching, depth, values):
    """A uniform tree whose leaves take `values` left to right."""
    leaves = iter(values)

    def build(level):
        if level == depth:
            return next(leaves)
        return [build(level + 1) for _ in range(branching)]

    return build(0)


def best_first(node, maximizing=True):
    """The same tree with every node's children sorted best first for the player to move."""
    if not isinstance(node, list):
        return node
    children = [best_first(child, not maximizing) for child in node]
    return sorted(
        children,
        key=lambda child: (
            -value_of(child, not maximizing) if maximizing else value_of(child, not maximizing)
        ),
    )


def value_of(node, maximizing):
    if not isinstance(node, list):
        return node
    values = [value_of(child, not maximizing) for child in node]
    return max(values) if maximizing else min(values)


def test_seed_tree_has_value_3_with_the_first_move():
    tree = Tree(SEED_TREE)
    for search in (minimax, negamax, alphabeta):
        result = search(tree, ())
        assert (result.value, result.best_move) == (3, 0)


def test_alphabeta_examines_7_of_the_9_leaves_of_the_seed_tree():
    tree = Tree(SEED_TREE)
    trace = Trace()
    result = alphabeta(tree, (), trace=trace)
    examined = [event.state for event in trace.of_kind("leaf")]
    assert result.stats.terminals == 7
    assert examined == [(0, 0), (0, 1), (0, 2), (1, 0), (2, 0), (2, 1), (2, 2)]
    assert result.stats.cutoffs == 1
    assert minimax(tree, ()).stats.terminals == 9


def test_the_cut_in_the_second_branch_is_made_on_the_bound_3():
    trace = Trace()
    alphabeta(Tree(SEED_TREE), (), trace=trace)
    (cutoff,) = trace.of_kind("cutoff")
    assert (cutoff.state, cutoff.value, cutoff.alpha) == ((1,), 2, 3)


def test_equality_is_enough_to_cut():
    # After the first branch secures 3, a reply worth exactly 3 already settles the second.
    result = alphabeta(Tree([[3, 5], [3, 100]]), ())
    assert result.stats.terminals == 3
    assert result.value == 3


@settings(max_examples=300, deadline=None)
@given(trees)
def test_alphabeta_value_equals_minimax_and_never_reaches_more_leaves(nested):
    tree = Tree(nested)
    exact = minimax(tree, ())
    pruned = alphabeta(tree, ())
    assert pruned.value == exact.value
    assert pruned.stats.terminals <= exact.stats.terminals
    assert pruned.stats.nodes <= exact.stats.nodes


@settings(max_examples=200, deadline=None)
@given(trees)
def test_negamax_equals_minimax_node_for_node(nested):
    tree = Tree(nested)
    assert negamax(tree, ()) == minimax(tree, ())


@settings(max_examples=200, deadline=None)
@given(trees)
def test_the_principal_variation_reaches_a_leaf_worth_the_value(nested):
    tree = Tree(nested)
    result = alphabeta(tree, ())
    assert tree.is_terminal(result.pv)
    assert tree.utility(result.pv, 0) == result.value


@settings(max_examples=200, deadline=None)
@given(trees, st.lists(st.integers(0, 3), min_size=1, max_size=4, unique=True))
def test_the_move_order_changes_the_work_never_the_value(nested, order):
    tree = Tree(nested)
    assert alphabeta(tree, (), order=by_priority(order)).value == minimax(tree, ()).value


@pytest.mark.parametrize(
    ("branching", "depth"), [(2, 1), (2, 4), (2, 7), (3, 3), (3, 4), (4, 3), (5, 2)]
)
def test_best_first_order_reaches_exactly_the_knuth_moore_minimal_tree(branching, depth):
    values = [(i * 7919) % 23 - 11 for i in range(branching**depth)]
    tree = Tree(best_first(uniform(branching, depth, values)))
    expected = branching ** (depth // 2) + branching ** math.ceil(depth / 2) - 1
    assert alphabeta(tree, ()).stats.terminals == expected


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 4), st.integers(1, 4), st.data())
def test_knuth_moore_holds_for_any_leaf_values_even_with_ties(branching, depth, data):
    values = data.draw(
        st.lists(st.integers(-3, 3), min_size=branching**depth, max_size=branching**depth)
    )
    tree = Tree(best_first(uniform(branching, depth, values)))
    expected = branching ** (depth // 2) + branching ** math.ceil(depth / 2) - 1
    assert alphabeta(tree, ()).stats.terminals == expected


def test_depth_limited_search_evaluates_at_the_horizon():
    tree = EvaluatedTree(SEED_TREE)
    # One ply: each reply node is judged by the mean of its leaves: 23/3, 4, 7.
    result = minimax(tree, (), depth=1)
    assert result.best_move == 0
    assert result.value == pytest.approx(23 / 3)
    assert (result.stats.evaluations, result.stats.terminals) == (3, 0)
    assert minimax(tree, (), depth=0).value == pytest.approx(sum(itertools.chain(*SEED_TREE)) / 9)
    assert minimax(tree, (), depth=2).value == 3


@settings(max_examples=150, deadline=None)
@given(trees, st.integers(0, 4))
def test_depth_limited_alphabeta_equals_depth_limited_minimax(nested, depth):
    tree = EvaluatedTree(nested)
    assert alphabeta(tree, (), depth=depth).value == pytest.approx(
        minimax(tree, (), depth=depth).value
    )
    assert negamax(tree, (), depth=depth).value == pytest.approx(
        minimax(tree, (), depth=depth).value
    )


def test_depth_limit_without_an_evaluation_is_refused():
    with pytest.raises(ValueError, match="does not provide Evaluating"):
        alphabeta(Tree(SEED_TREE), (), depth=1)
    with pytest.raises(ValueError, match="at least 0"):
        alphabeta(EvaluatedTree(SEED_TREE), (), depth=-1)


def test_a_narrow_window_returns_a_bound_on_the_correct_side():
    tree = Tree(SEED_TREE)
    assert alphabeta(tree, (), alpha=5, beta=6).value <= 5  # fails low: the value 3 is below
    assert alphabeta(tree, (), alpha=0, beta=1).value >= 1  # fails high: the value is above


def test_distance_scores_refuse_fractional_utilities():
    with pytest.raises(ValueError, match="integer utilities"):
        alphabeta(Tree([[0.5, 1], [2, 3]]), (), distance=True)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[[3,12,8],[2,4,6],[14,5,2]", "malformed tree"),
        ("[[3, 1], []]", "empty list"),
        ('[[3, "a"], [1]]', "expected a number"),
        ("[[3, true]]", "expected a number"),
        ("[[3, NaN]]", "finite"),
        ("[3, Infinity]", "finite"),
    ],
)
def test_malformed_trees_are_refused_with_the_reason(text, reason):
    with pytest.raises(ValueError, match=reason):
        Tree.from_text(text)


def test_leaves_may_sit_at_any_depth():
    tree = Tree.from_text("[[1, [5, 0]], 2]")
    assert minimax(tree, ()).value == 2
    assert alphabeta(tree, ()).value == 2
