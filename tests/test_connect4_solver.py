"""The exact Connect Four solver against the published test sets and against the engine."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import oracle_lines

from zerosum.games.connect4 import ConnectFour
from zerosum.search.engine import Engine
from zerosum.solve.connect4 import ConnectFourSolver

GAME = ConnectFour()
SAMPLES = {"Test_L3_R1": (40, 51, 1.5), "Test_L2_R1": (30, 449, 1.5),
           "Test_L1_R1": (20, 3_296, 6)}  # fmt: skip
"""Lines taken from each set, the reference solver's mean nodes on the whole set, and the most
times that many the solver may search. The solver tests 0, then 1 (or -1), before halving the
interval as the reference does: two tests settle the most common scores (the empty board's 1),
and positions whose scores are far from 0, such as Test_L1_R1's (11, 18, ...), pay for it."""


@pytest.fixture(scope="module")
def solver():
    return ConnectFourSolver(GAME, table_mb=16)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_solver_gives_the_published_score_of_every_sampled_position(solver, name):
    count = SAMPLES[name][0]
    wrong = []
    for moves, expected in oracle_lines(name, count):
        solver.reset()
        score = solver.solve(GAME.parse_state(moves)).score
        if score != expected:
            wrong.append((moves, expected, score))
    assert wrong == []


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_solver_explores_at_most_a_few_times_the_reference_nodes(solver, name):
    count, reference, most = SAMPLES[name]
    nodes = 0
    for moves, _ in oracle_lines(name, count):
        solver.reset()
        nodes += solver.solve(GAME.parse_state(moves)).nodes
    assert nodes / count <= most * reference


def test_first_l3_position_is_a_loss_in_the_published_score_and_counts_its_nodes(solver):
    solver.reset()
    solution = solver.solve(GAME.parse_state("2252576253462244111563365343671351441"))
    assert solution.score == -1
    assert solution.nodes > 0


def test_weak_solve_gives_the_sign_of_the_score(solver):
    for moves, expected in oracle_lines("Test_L2_R1", 15):
        solver.reset()
        weak = solver.solve(GAME.parse_state(moves), weak=True).score
        assert weak == (expected > 0) - (expected < 0)


def test_best_move_reaches_the_score(solver):
    for moves, expected in oracle_lines("Test_L2_R1", 10):
        state = GAME.parse_state(moves)
        solution = solver.solve(state, best_move=True)
        child = GAME.result(state, solution.best_move)
        if child[3]:  # it wins at once
            assert expected == (GAME.cells + 1 - state[2]) // 2
        else:
            assert -solver.score(child) == expected


def test_immediate_win_scores_by_the_stones_left_and_searches_nothing(solver):
    state = GAME.parse_state("445566")  # X to move completes four in column 3 or 7
    solution = solver.solve(state, best_move=True)
    assert solution.score == (42 + 1 - 6) // 2 == 18
    assert solution.best_move in (2, 6)
    assert solution.nodes == 0


def test_finished_game_is_refused(solver):
    with pytest.raises(ValueError, match="already over"):
        solver.solve(GAME.parse_state("4455667"))


def test_other_line_lengths_are_refused():
    with pytest.raises(ValueError, match="four in a row"):
        ConnectFourSolver(ConnectFour(7, 6, 5))


def expected_score(game, state):
    """The test sets' score of `state`, from the engine's exact value and distance."""
    result = Engine(game).search(state)
    if result.value == 0:
        return 0
    stones = (state[2] + result.plies + 1) // 2  # the winner's stones when the game ends
    return int(result.value) * (game.cells // 2 + 1 - stones)


@settings(max_examples=12, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=8, max_size=14))
def test_solver_agrees_with_the_engine_on_a_small_board(choices):
    game = ConnectFour(5, 4, 4)
    state = game.initial_state()
    for choice in choices:
        legal = game.legal_moves(state)
        if game.is_terminal(state):
            break
        state = game.result(state, legal[choice % len(legal)])
    if game.is_terminal(state):
        return
    solver = ConnectFourSolver(game, table_mb=4)
    assert solver.solve(state).score == expected_score(game, state)
