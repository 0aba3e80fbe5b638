"""Monte Carlo tree search: UCT, the solver, PUCT, chance nodes, budgets, reuse, a fixed seed."""

import importlib

import pytest

from zerosum.games.connect4 import ConnectFour
from zerosum.games.pig import ROLL, Pig
from zerosum.games.tictactoe import TicTacToe
from zerosum.games.tree import Tree
from zerosum.search import alphabeta
from zerosum.search.mcts import MCTS, mcts
from zerosum.solve.pig import solve_pig

TTT = TicTacToe()
C4 = ConnectFour()


@pytest.mark.parametrize(
    ("game", "position", "iterations", "seed", "winning_move"),
    [
        (TTT, "XX.OO....", 200, 1, 2),  # X completes the top row on square 2
        (C4, "414141", 2000, 3, 3),  # three stones in column 4 (index 3): a fourth wins
    ],
    ids=["tictactoe", "connect4"],
)
def test_uct_takes_the_win_in_one(game, position, iterations, seed, winning_move):
    state = game.parse_state(position)
    assert game.to_move(state) == 0
    result = mcts(game, state, iterations=iterations, seed=seed)
    assert result.best_move == winning_move
    assert result.proven and result.value == 1


def test_uct_blocks_the_only_defence_at_connect4():
    # Player 1 to move must block column 4 (index 3) or lose at once.
    state = C4.parse_state("41414")
    result = mcts(C4, state, iterations=3000, seed=5)
    assert result.best_move == 3


@pytest.mark.parametrize(
    "position", ["X...O....", "XO.......", "XO..X....", ".X..O....", "X...O...X", "X.O.X..O."]
)
def test_solver_proves_the_exact_tictactoe_value(position):
    state = TTT.parse_state(position)
    result = mcts(TTT, state, iterations=30_000, seed=2)
    assert result.proven
    assert result.value == alphabeta(TTT, state).value
    assert result.iterations < 30_000  # a proven root stops the search


def test_solver_proves_a_lost_position_and_its_moves():
    state = TTT.parse_state("XO..X....")  # O to move, X threatens two lines after any reply
    result = mcts(TTT, state, iterations=5_000, seed=2)
    assert result.proven and result.value == -1
    assert all(move.proven == -1 for move in result.moves)


def test_without_the_solver_nothing_is_proven_and_the_budget_is_spent():
    result = mcts(TTT, TTT.parse_state("XX.OO...."), iterations=300, seed=1, solver=False)
    assert not result.proven
    assert result.iterations == 300
    assert result.best_move == 2


def test_same_seed_same_choice_and_statistics():
    state = C4.parse_state("44")
    first = mcts(C4, state, iterations=500, seed=42)
    second = mcts(C4, state, iterations=500, seed=42)
    assert first.best_move == second.best_move
    assert first.moves == second.moves


def test_root_statistics_sum_to_the_visits_below_the_root():
    result = mcts(TTT, TTT.initial_state(), iterations=1_000, seed=4, solver=False)
    assert sum(move.visits for move in result.moves) == 999  # the first iteration scores the root
    assert sorted(move.move for move in result.moves) == list(range(9))
    assert all(move.prior == pytest.approx(1 / 9) for move in result.moves)
    assert [m.visits for m in result.moves] == sorted(
        (m.visits for m in result.moves), reverse=True
    )


def test_subtree_is_reused_after_two_moves():
    player = MCTS(TTT, iterations=2_000, seed=7, solver=False)
    state = TTT.initial_state()
    first = player.search(state)
    move = first.best_move
    reply = next(m for m in TTT.legal_moves(TTT.result(state, move)))
    later = player.search(TTT.result(TTT.result(state, move), reply))
    assert sum(m.visits for m in later.moves) > 2_000  # statistics carried over


def test_time_budget_runs_at_least_one_iteration():
    result = mcts(C4, C4.initial_state(), time=0.01, seed=1)
    assert result.iterations >= 1
    assert result.best_move in C4.legal_moves(C4.initial_state())


def test_puct_follows_the_prior_and_reports_it():
    def evaluator(state):
        moves = TTT.legal_moves(state)
        return {move: (0.9 if move == 8 else 0.1 / (len(moves) - 1)) for move in moves}, 0.0

    result = mcts(TTT, TTT.initial_state(), iterations=200, evaluator=evaluator, seed=1)
    top = result.moves[0]
    assert top.move == 8 and top.prior == pytest.approx(0.9)
    assert result.best_move == 8


@pytest.mark.parametrize("with_evaluator", [True, False])
def test_one_iteration_reports_every_move_unvisited(with_evaluator):
    def evaluator(state):
        return {move: (0.6 if move == 4 else 0.05) for move in TTT.legal_moves(state)}, 0.0

    options = {"evaluator": evaluator} if with_evaluator else {}
    result = mcts(TTT, TTT.initial_state(), iterations=1, seed=1, **options)
    assert result.iterations == 1 and len(result.moves) == 9
    assert all(move.visits == 0 for move in result.moves)
    if with_evaluator:  # nothing visited: the prior chooses
        assert result.best_move == 4


def test_puct_with_a_uniform_evaluator_still_proves_a_win_in_one():
    def evaluator(state):
        return {}, 0.0  # no opinion: uniform priors, an even value

    result = mcts(TTT, TTT.parse_state("XX.OO...."), iterations=500, evaluator=evaluator, seed=1)
    assert result.best_move == 2 and result.proven


def test_chance_tree_is_solved_through_its_chance_nodes():
    tree = Tree([{"chance": [[0.5, 6], [0.5, 6]]}, {"chance": [[0.5, 10], [0.5, 1]]}])
    result = mcts(tree, (), iterations=100, seed=1)
    assert result.proven and result.value == 6 and result.best_move == 0


@pytest.mark.parametrize("position", ["0 45 20 0", "10 40 20 0"])
def test_uct_on_pig_rolls_where_the_solution_says_rolling_is_far_better(position):
    # Target 50: rolling beats holding by about 0.19 and 0.23 in win probability here.
    game = Pig(50)
    state = game.parse_state(position)
    assert solve_pig(50).best_move(state) == ROLL
    assert mcts(game, state, iterations=2_000, seed=1).best_move == ROLL


class CountedPig(Pig):
    """Pig counting the moves (and rolls) played in it."""

    played = 0

    def result(self, state, move):
        CountedPig.played += 1
        return super().result(state, move)


def test_a_playout_past_its_most_moves_ends_as_a_draw(monkeypatch):
    # Pig to a billion points played at random would take hundreds of millions of moves.
    module = importlib.import_module("zerosum.search.mcts")  # the package names its function so
    monkeypatch.setattr(module, "PLAYOUT_MOVES", 40)
    game = CountedPig(10**9)
    result = mcts(game, game.initial_state(), iterations=30, seed=1)
    assert result.iterations == 30 and result.value == 0.0
    assert all(stats.value == 0.0 for stats in result.moves)
    # each iteration: at most a few moves down the tree, then at most 40 played out
    assert CountedPig.played <= 30 * (40 + 30)


@pytest.mark.parametrize(
    "options, reason",
    [
        ({}, "needs a budget"),
        ({"iterations": 0}, "iterations must be at least 1"),
        ({"time": -1}, "time must be a positive number"),
        ({"iterations": 5, "c": -1}, "c must be at least 0"),
    ],
)
def test_bad_budgets_are_refused(options, reason):
    with pytest.raises(ValueError, match=reason):
        MCTS(TTT, **options)


def test_finished_game_is_refused():
    with pytest.raises(ValueError, match="the game is over"):
        mcts(TTT, TTT.parse_state("XXXOO...."), iterations=10)
