"""The compiled Connect Four solver against the Python kernel it mirrors: the same scores and the
same node counts (the same table entries, the same order of moves), on samples of every
published set and on random positions of several board sizes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import oracle_lines

from zerosum.games.connect4 import ConnectFour
from zerosum.limits import Limit
from zerosum.solve import compiled_connect4
from zerosum.solve.connect4 import ArrayTable, BoundTable, ConnectFourSolver

GAME = ConnectFour()
SLOTS = 200_003
"""Both kernels' tables get as many slots, so that they keep the same entries."""

SAMPLES = {"Test_L3_R1": 40, "Test_L2_R1": 30, "Test_L1_R1": 8, "Test_L2_R2": 6,
           "Test_L1_R2": 6}  # fmt: skip


def twins(game: ConnectFour = GAME, slots: int = SLOTS) -> tuple[ConnectFourSolver, ...]:
    return tuple(ConnectFourSolver(game, impl=impl, slots=slots) for impl in ("python", "compiled"))


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_the_two_kernels_give_the_published_score_in_the_same_nodes(name):
    python, compiled = twins()
    for moves, expected in oracle_lines(name, SAMPLES[name]):
        state = GAME.parse_state(moves)
        python.reset()
        compiled.reset()
        ours, theirs = compiled.solve(state), python.solve(state)
        assert (ours.score, ours.nodes) == (theirs.score, theirs.nodes) == (expected, ours.nodes)


def test_the_compiled_kernel_gives_the_hardest_sampled_set_its_published_scores():
    solver = ConnectFourSolver(GAME, 16)
    for moves, expected in oracle_lines("Test_L1_R3", 6):
        solver.reset()
        assert solver.solve(GAME.parse_state(moves)).score == expected


def random_position(game: ConnectFour, choices: list[int]):
    state = game.initial_state()
    for choice in choices:
        if game.is_terminal(state):
            break
        legal = game.legal_moves(state)
        child = game.result(state, legal[choice % len(legal)])
        if game.is_terminal(child):
            break
        state = child
    return state


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from([(7, 6), (5, 4), (6, 5), (4, 4), (8, 7)]),
    st.lists(st.integers(0, 7), min_size=6, max_size=30),
    st.booleans(),
)
def test_the_two_kernels_agree_on_random_positions_of_every_size(size, choices, weak):
    game = ConnectFour(*size)
    state = random_position(game, choices)
    if game.cells - state[2] > 26:  # the Python kernel would take minutes
        return
    python, compiled = twins(game, 5_003)
    ours = compiled.solve(state, weak=weak, best_move=True)
    theirs = python.solve(state, weak=weak, best_move=True)
    assert (ours.score, ours.best_move, ours.nodes) == (
        theirs.score,
        theirs.best_move,
        theirs.nodes,
    )


def test_a_search_paused_every_few_nodes_ends_as_one_that_never_paused(monkeypatch):
    moves, expected = oracle_lines("Test_L1_R1", 1)[0]
    state = GAME.parse_state(moves)
    whole = ConnectFourSolver(GAME, slots=SLOTS).solve(state)
    monkeypatch.setattr(compiled_connect4, "PAUSE_EVERY", 7)
    paused = ConnectFourSolver(GAME, slots=SLOTS).solve(state)
    assert (paused.score, paused.nodes) == (whole.score, whole.nodes) == (expected, whole.nodes)


def test_both_kernels_stop_at_the_same_node_limit():
    moves, _ = oracle_lines("Test_L2_R2", 1)[0]
    state = GAME.parse_state(moves)
    limit = Limit("the nodes of a test solve", 300, "a test")
    counts = []
    for solver in twins():
        with pytest.raises(ValueError, match="the nodes of a test solve"):
            solver.solve(state, limit=limit)
        counts.append(solver.counter[0])
    assert counts == [301, 301]


def test_a_new_generation_is_an_empty_table():
    moves, _ = oracle_lines("Test_L1_R1", 1)[0]
    state = GAME.parse_state(moves)
    fresh = ConnectFourSolver(GAME, slots=SLOTS).solve(state).nodes
    solver = ConnectFourSolver(GAME, slots=SLOTS)
    solver.solve(state)
    assert solver.solve(state).nodes < fresh  # the table remembers
    solver.reset()
    assert solver.solve(state).nodes == fresh  # a new generation forgets all of it


def test_a_table_word_keeps_enough_of_the_key_to_tell_a_buckets_keys_apart():
    assert ArrayTable(slots=11, key_bits=49).buckets == 11  # more than 2 ** (49 - 46)
    assert ArrayTable(slots=11, key_bits=64).buckets > 1 << 18  # an 8x7 board's keys
    table = ArrayTable(slots=100, key_bits=49)
    table.words[:] = 5
    table.clear()
    assert int(table.words.max()) == 0


def test_tables_are_sized_in_buckets_of_two_prime_slots():
    assert ArrayTable(slots=100, key_bits=49).slots == BoundTable(slots=100).slots == 2 * 53
    assert ArrayTable(1, key_bits=49).slots == 2 * 65_537  # 1 MB of 8-byte entries, rounded up
    with pytest.raises(ValueError, match="holds no entry"):
        ArrayTable(0.00001, key_bits=49)


def test_a_board_too_large_for_64_bits_is_solved_by_the_python_kernel():
    game = ConnectFour(9, 7)  # 9 columns of 8 bits
    assert ConnectFourSolver(game, 1).impl == "python"
    with pytest.raises(ValueError, match="does not fit in 64 bits"):
        ConnectFourSolver(game, 1, impl="compiled")
    with pytest.raises(ValueError, match="impl must be compiled or python"):
        ConnectFourSolver(GAME, 1, impl="fast")


@pytest.fixture(scope="module")
def five_by_four_table():
    from zerosum.solve.retrograde import solve

    game = ConnectFour(5, 4)
    return game, solve(game)  # every position of the board, by retrograde analysis (3 s)


def test_the_whole_of_a_small_board_is_solved_as_its_retrograde_table_says(five_by_four_table):
    game, table = five_by_four_table
    solver = ConnectFourSolver(game, 8)
    solver.reset()
    root = game.initial_state()
    scores = solver.move_scores(root)
    assert solver.solve(root).score == max(scores.values())
    for column, score in scores.items():  # each first move, from an empty table
        value, distance = table.lookup(game.result(root, column))
        assert score == -table_score(game, 1, value, distance)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=16))
def test_random_positions_of_a_small_board_score_as_their_table_says(five_by_four_table, choices):
    game, table = five_by_four_table
    state = random_position(game, choices)
    value, distance = table.lookup(state)
    solver = ConnectFourSolver(game, 1)
    assert solver.solve(state).score == table_score(game, state[2], value, distance)


def table_score(game: ConnectFour, moves: int, value: int, distance: int) -> int:
    """The test sets' score of a position of `moves` stones whose table entry is `value` for the
    player to move and `distance` plies to the end of best play."""
    if value == 0:
        return 0
    stones = (moves + distance + 1) // 2  # the winner's stones when the line is made
    return value * (game.cells // 2 + 1 - stones)
