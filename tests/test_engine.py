"""The engine: every enhancement keeps the value, budgets stop it, bad options are refused."""

from __future__ import annotations

import itertools
import zlib

import pytest
import trees
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum.games.connect4 import ConnectFour
from zerosum.games.tictactoe import TicTacToe
from zerosum.games.tree import Tree
from zerosum.search import alphabeta
from zerosum.search.engine import Engine

FLAGS = ("table", "iterative", "hash_move", "killers", "history", "captures", "null_window",
         "quiescence")  # fmt: skip
ORDERING = ("iterative", "hash_move", "killers", "history", "captures", "null_window")
FORWARD = (
    "null_move",
    "late_move_reductions",
    "futility",
    "check_extensions",
    "singular_extensions",
)


class ScoredTree(trees.ScoredTree):
    """A scored tree whose even moves are captures, so that MVV-LVA ordering runs too."""

    def capture(self, state, move):
        return (move + 1, 3 - move) if move % 2 == 0 else None


class TurnTree(ScoredTree):
    """A scored tree where a player sometimes moves twice in a row."""

    def to_move(self, state):
        return (sum(state) + len(state) // 2) % 2


class CheckingTree:
    """A scored tree with checks and passes, so that forward pruning and check extensions run:
    a state is (path, passes), each pass handing the turn to the other player."""

    def __init__(self, nested):
        self.tree = ScoredTree(nested)

    def initial_state(self):
        return (), 0

    def to_move(self, state):
        return (self.tree.to_move(state[0]) + state[1]) % 2

    def legal_moves(self, state):
        return self.tree.legal_moves(state[0])

    def result(self, state, move):
        return (*state[0], move), state[1]

    def is_terminal(self, state):
        return self.tree.is_terminal(state[0])

    def utility(self, state, player):
        return self.tree.utility(state[0], player)

    def evaluate(self, state, player):
        return self.tree.evaluate(state, player)

    def key(self, state):
        return state

    def noisy_moves(self, state):
        return self.tree.noisy_moves(state[0])

    def capture(self, state, move):
        return self.tree.capture(state[0], move)

    def in_check(self, state):
        return zlib.crc32(repr(state[0]).encode()) % 4 == 0

    def null_move(self, state):
        return None if self.in_check(state) else (state[0], state[1] + 1)


class MergedTree(Tree):
    """A tree whose key forgets most of the path: positions collide, and say so."""

    history_dependent = True

    def key(self, state):
        return len(state)


leaves = st.integers(-3, 3)
subtrees = st.recursive(leaves, lambda kids: st.lists(kids, min_size=1, max_size=3), max_leaves=40)
nested_trees = st.lists(subtrees, min_size=1, max_size=4)
flag_sets = st.fixed_dictionaries({flag: st.booleans() for flag in FLAGS + FORWARD})


def play(game, moves):
    """The position after choosing moves by index among the legal ones, stopping at the end."""
    state = game.initial_state()
    for choice in moves:
        if game.is_terminal(state):
            break
        legal = list(game.legal_moves(state))
        state = game.result(state, legal[choice % len(legal)])
    return state


def assert_same_exact_value(game, state, flags):
    expected = alphabeta(game, state, distance=True)
    result = Engine(game, **flags).search(state)
    assert (result.value, result.plies) == (expected.value, expected.plies)
    assert result.exact
    if not game.is_terminal(state):
        assert result.best_move in game.legal_moves(state)


@settings(max_examples=150, deadline=None)
@given(nested_trees, flag_sets)
def test_engine_value_on_random_trees_equals_alphabeta(nested, flags):
    tree = ScoredTree(nested)
    assert_same_exact_value(tree, tree.initial_state(), flags)


@settings(max_examples=150, deadline=None)
@given(nested_trees, flag_sets)
def test_engine_value_with_forward_pruning_and_check_extensions_equals_alphabeta(nested, flags):
    game = CheckingTree(nested)
    assert_same_exact_value(game, game.initial_state(), flags)


@settings(max_examples=100, deadline=None)
@given(nested_trees, flag_sets)
def test_engine_value_when_players_may_move_twice_equals_alphabeta(nested, flags):
    tree = TurnTree(nested)
    assert_same_exact_value(tree, tree.initial_state(), flags)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 8), max_size=6), flag_sets)
def test_engine_value_on_tictactoe_positions_equals_alphabeta(moves, flags):
    game = TicTacToe()
    assert_same_exact_value(game, play(game, moves), flags)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=2, max_size=10), flag_sets)
def test_engine_value_on_small_connect_four_equals_alphabeta(moves, flags):
    game = ConnectFour(4, 4, 3)
    assert_same_exact_value(game, play(game, moves), flags)


@pytest.mark.parametrize("switches", list(itertools.product((False, True), repeat=len(FLAGS))))
def test_every_combination_of_enhancements_solves_a_connect_four_position(switches):
    game = ConnectFour(4, 4, 3)
    assert_same_exact_value(game, game.parse_state("2312"), dict(zip(FLAGS, switches, strict=True)))


@settings(max_examples=100, deadline=None)
@given(nested_trees, st.integers(1, 4), st.fixed_dictionaries({f: st.booleans() for f in ORDERING}))
def test_ordering_and_null_window_never_change_a_fixed_depth_value(nested, depth, flags):
    for tree, quiescence in itertools.product((ScoredTree(nested), TurnTree(nested)), (0, 1)):
        plain = Engine(
            tree,
            table=False,
            iterative=False,
            hash_move=False,
            killers=False,
            history=False,
            captures=False,
            null_window=False,
            quiescence=bool(quiescence),
        )
        tuned = Engine(tree, table=False, quiescence=bool(quiescence), **flags)
        expected = plain.search(tree.initial_state(), depth=depth)
        result = tuned.search(tree.initial_state(), depth=depth)
        assert result.score == expected.score


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=4, max_size=14), st.integers(1, 4), st.booleans())
def test_connect_four_fixed_depth_value_is_the_same_with_any_ordering(moves, depth, pvs):
    game = ConnectFour()
    state = play(game, moves)
    if game.is_terminal(state):
        return
    plain = Engine(
        game,
        table=False,
        iterative=False,
        hash_move=False,
        killers=False,
        history=False,
        null_window=False,
    )
    tuned = Engine(game, table=False, null_window=pvs)
    assert tuned.search(state, depth=depth).score == plain.search(state, depth=depth).score


def test_history_dependent_game_is_solved_right_although_every_depth_shares_a_key():
    nested = [[3, [-2, 5]], [[4, -1], 0], [1, [[2, -3], 6]]]
    tree = MergedTree(nested)
    expected = alphabeta(tree, (), distance=True)
    result = Engine(tree).search(())
    assert (result.value, result.plies) == (expected.value, expected.plies)
    assert result.best_move in tree.legal_moves(())


def test_stored_move_of_another_position_is_never_played():
    class Colliding(TicTacToe):
        def key(self, state):
            return 0

    game = Colliding()
    engine = Engine(game)
    state = game.parse_state("XO.X.O...")
    for _ in range(3):
        result = engine.search(state)
        assert result.best_move in game.legal_moves(state)


def test_engine_takes_the_quickest_win_and_counts_its_plies():
    game = ConnectFour()
    state = game.parse_state("445566")  # X wins at once in column 3 or 7
    result = Engine(game).search(state, depth=6)
    assert result.best_move in (2, 6)
    assert (result.value, result.plies) == (1, 1)


def test_proven_loss_reports_the_longest_defence():
    game = TicTacToe()
    state = game.parse_state("XX.OO.X..")  # O to move must block at 2, then X wins with 5 or 8
    expected = alphabeta(game, state, distance=True)
    result = Engine(game).search(state)
    assert (result.value, result.plies) == (expected.value, expected.plies) == (1, 1)


def test_iterations_are_reported_in_order_to_the_callback_and_in_the_result():
    game = ConnectFour()
    seen = []
    result = Engine(game).search(game.initial_state(), depth=4, on_iteration=seen.append)
    assert [iteration.depth for iteration in seen] == [1, 2, 3, 4]
    assert result.iterations == tuple(seen)
    assert result.depth == 4
    assert result.best_move == seen[-1].best_move == seen[-1].pv[0]
    assert result.stats.nodes == sum(iteration.nodes for iteration in seen)


def test_iterations_generator_yields_each_depth():
    game = ConnectFour()
    depths = [it.depth for it in Engine(game).iterations(game.initial_state(), depth=3)]
    assert depths == [1, 2, 3]


def test_node_budget_returns_the_last_finished_iteration():
    game = ConnectFour()
    result = Engine(game).search(game.initial_state(), depth=12, nodes=3000)
    assert result.stopped == "nodes"
    assert 1 <= result.depth < 12
    assert result.iterations[-1].depth == result.depth
    assert result.best_move in game.legal_moves(game.initial_state())


def test_time_budget_returns_a_legal_move_of_a_finished_iteration():
    game = ConnectFour()
    result = Engine(game).search(game.initial_state(), time=0.2)
    assert result.stopped == "time"
    assert result.depth >= 1
    assert result.best_move == result.iterations[-1].best_move


def test_ctrl_c_in_a_later_iteration_returns_the_last_finished_one():
    class Impatient(ConnectFour):
        calls = 0

        def evaluate(self, state, player):
            self.calls += 1
            if self.calls > 2000:
                raise KeyboardInterrupt
            return super().evaluate(state, player)

    game = Impatient()
    result = Engine(game).search(game.initial_state(), depth=10)
    assert result.stopped == "interrupt"
    assert 1 <= result.depth < 10


def test_ctrl_c_in_the_first_iteration_is_passed_on():
    class Interrupted(ConnectFour):
        def evaluate(self, state, player):
            raise KeyboardInterrupt

    game = Interrupted()
    with pytest.raises(KeyboardInterrupt):
        Engine(game).search(game.initial_state(), depth=3)


def test_table_never_holds_more_entries_than_its_slots():
    game = ConnectFour(5, 4, 4)
    engine = Engine(game, table_mb=0.01)
    result = engine.search(game.initial_state(), depth=8)
    assert result.table.entries <= result.table.slots == 41
    assert result.table.probes >= result.table.hits >= result.table.cutoffs > 0


def test_engine_keeps_its_table_between_searches():
    game = TicTacToe()
    engine = Engine(game)
    first = engine.search(game.initial_state())
    second = engine.search(game.initial_state())
    assert second.value == first.value == 0
    assert second.stats.nodes < first.stats.nodes


def test_finished_position_has_its_utility_and_no_move():
    game = TicTacToe()
    result = Engine(game).search(game.parse_state("XXXOO...."))
    assert (result.value, result.best_move, result.exact) == (-1, None, True)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"time": 0}, "time must be more than 0"),
        ({"time": -1.5}, "time must be more than 0"),
        ({"depth": -1}, "depth must be at least 1"),
        ({"nodes": 0}, "node budget must be at least 1"),
    ],
)
def test_bad_budgets_are_refused(options, message):
    game = ConnectFour()
    with pytest.raises(ValueError, match=message):
        Engine(game).search(game.initial_state(), **options)


def test_table_larger_than_memory_is_refused():
    with pytest.raises(ValueError, match="does not fit in this machine's memory"):
        Engine(ConnectFour(), table_mb=1 << 40)


def test_negative_futility_margin_is_refused():
    with pytest.raises(ValueError, match="futility margin must be at least 0, got -1"):
        Engine(ConnectFour(), futility_margin=-1)


def test_table_of_zero_megabytes_is_refused():
    with pytest.raises(ValueError, match="more than 0 MB"):
        Engine(ConnectFour(), table_mb=0)


def test_depth_limit_needs_an_evaluation():
    with pytest.raises(ValueError, match="does not provide Evaluating"):
        Engine(TicTacToe()).search(TicTacToe().initial_state(), depth=2)
