"""Compiled MCTS: the solver proves what alpha-beta finds, the budget is the iterations asked,
the tree grows past its first arrays, and the result reads as the Python MCTS's.

Compiling MCTS for a game costs a few seconds (once a process).
"""

from __future__ import annotations

import random

import pytest

from zerosum.compiled.mcts import INITIAL_NODES, MCTS
from zerosum.games.connect4 import ConnectFour
from zerosum.games.tictactoe import TicTacToe
from zerosum.search import alphabeta
from zerosum.search.mcts import MCTS as PythonMCTS

TICTACTOE = TicTacToe()
CONNECT_FOUR = ConnectFour()


def test_tictactoe_is_proven_a_draw_as_the_python_mcts_proves_it():
    compiled = MCTS(TICTACTOE, iterations=50_000, seed=1).search(TICTACTOE.initial_state())
    python = PythonMCTS(TICTACTOE, iterations=50_000, seed=1).search(TICTACTOE.initial_state())
    assert (compiled.value, compiled.proven) == (python.value, python.proven) == (0.0, True)
    assert compiled.iterations < 50_000  # the proven root ends the search


@pytest.mark.parametrize("seed", range(8))
def test_proven_values_of_random_tictactoe_positions_equal_alphabeta(seed):
    rng = random.Random(seed)
    state = TICTACTOE.initial_state()
    for _ in range(seed % 5 + 1):
        state = TICTACTOE.result(state, rng.choice(TICTACTOE.legal_moves(state)))
    if TICTACTOE.is_terminal(state):
        return
    result = MCTS(TICTACTOE, iterations=50_000, seed=seed).search(state)
    assert result.proven
    assert result.value == alphabeta(TICTACTOE, state).value
    best = TICTACTOE.result(state, result.best_move)
    assert -alphabeta(TICTACTOE, best).value == result.value  # the proven move keeps it


def test_an_immediate_connect_four_win_is_proven_and_played():
    state = CONNECT_FOUR.parse_state("121212")  # X has three in column 1
    result = MCTS(CONNECT_FOUR, iterations=5_000, seed=3).search(state)
    assert (result.best_move, result.value, result.proven) == (0, 1.0, True)


def test_the_budget_is_the_iterations_asked_and_the_tree_grows():
    result = MCTS(CONNECT_FOUR, iterations=40_000, seed=5).search(CONNECT_FOUR.initial_state())
    assert result.iterations == 40_000
    assert sum(move.visits for move in result.moves) == 40_000 - 1  # the root's own playout
    assert result.nodes > INITIAL_NODES
    assert sorted(move.move for move in result.moves) == list(range(7))


def test_a_time_budget_ends_the_search():
    result = MCTS(CONNECT_FOUR, time=0.2, seed=5).search(CONNECT_FOUR.initial_state())
    assert result.iterations > 0 and result.best_move in range(7)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({}, "MCTS needs a budget"),
        ({"iterations": 0}, "iterations must be at least 1"),
        ({"time": -1}, "time must be a positive number"),
        ({"iterations": 5, "c": -1}, "exploration constant"),
    ],
)
def test_bad_options_are_refused(options, message):
    with pytest.raises(ValueError, match=message):
        MCTS(CONNECT_FOUR, **options)


def test_a_finished_game_is_refused():
    with pytest.raises(ValueError, match="the game is over"):
        MCTS(TICTACTOE, iterations=5).search(TICTACTOE.parse_state("XXXOO...."))
