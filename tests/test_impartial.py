"""Impartial games in general: mex, Grundy numbers, sums, the P/N construction, the adapter."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum.search import alphabeta
from zerosum.theory.impartial import (
    Grundy,
    MoveFunction,
    SumGame,
    count_plays,
    mex,
    nim_sum,
    pn_construction,
)
from zerosum.theory.octal import OctalGame, heaps
from zerosum.theory.subtraction import SubtractionGame

TAKE_ONE = MoveFunction(lambda n: [n - 1] if n else [])


def test_mex_is_the_least_missing_number():
    assert mex([]) == 0
    assert mex([0, 1, 3]) == 2
    assert mex({1, 2, 3}) == 0
    assert mex([0, 0, 1, 1, 2]) == 3


def test_grundy_of_a_100000_move_game_needs_no_recursion():
    grundy = Grundy(TAKE_ONE)
    assert grundy(100_000) == 0
    assert grundy(99_999) == 1
    assert len(grundy) == 100_001


def test_grundy_rejects_a_game_that_never_ends():
    loop = MoveFunction(lambda n: [(n + 1) % 3])
    with pytest.raises(ValueError, match="never ends"):
        Grundy(loop)(0)


def test_pn_construction_rejects_a_game_with_a_cycle():
    with pytest.raises(ValueError, match="cycle"):
        pn_construction(MoveFunction(lambda n: [(n + 1) % 3]), 0)


def test_take_1_2_3_grundy_numbers_are_n_mod_4():
    grundy = Grundy(SubtractionGame({1, 2, 3}))
    assert [grundy(n) for n in range(13)] == [0, 1, 2, 3] * 3 + [0]


def test_heap_of_6_beside_nim_heap_of_2_is_a_loss_for_the_player_to_move():
    grundy = Grundy(Mixed(SubtractionGame({1, 2, 3}), NimHeap()))
    assert grundy((0, 6)) == 2
    assert grundy.sum_value([(0, 6), (1, 2)]) == 0
    assert grundy.winning_move([(0, 6), (1, 2)]) is None


def test_winning_move_in_a_sum_comes_from_the_components_values():
    grundy = Grundy(SubtractionGame({1, 2, 3}))
    move = grundy.winning_move([5, 6, 7])  # values 1, 2, 3: XOR 0, P
    assert move is None
    move = grundy.winning_move([5, 6, 4])  # values 1, 2, 0: XOR 3
    assert (move.index, move.option) == (1, 5)  # 6 (value 2) -> 5 (value 1)


def test_count_plays_counts_every_sequence_of_moves():
    assert count_plays(TAKE_ONE, 5) == 1
    assert count_plays(SubtractionGame({1, 2}), 4) == 5  # Fibonacci: 1111 112 121 211 22
    assert count_plays(SubtractionGame({1, 2}), 10) == 89


def decimal_steps(target):
    """The textbook's decimal game as a subtraction game: tenths still to add before `target`."""
    construction = pn_construction(SubtractionGame({1, 2}), target)
    return [tuple(sorted(target - d for d in step)) for step in construction.steps], construction


def test_decimal_game_to_1_is_built_in_8_steps_with_p_1_07_04_01():
    steps, construction = decimal_steps(10)
    assert steps == [(10,), (8, 9), (7,), (5, 6), (4,), (2, 3), (1,), (0,)]
    assert sorted(10 - d for d in construction.p_positions) == [1, 4, 7, 10]
    assert construction.outcome(10) == "N"  # from 0 the first player wins
    p_set, n_set = construction.sets_after(3)
    assert sorted(p_set) == [0, 3] and sorted(n_set) == [1, 2, 4, 5]


def test_decimal_game_to_12_has_p_12_09_06_03_0_and_the_first_player_loses():
    _, construction = decimal_steps(12)
    assert sorted(12 - d for d in construction.p_positions) == [0, 3, 6, 9, 12]
    assert sorted(12 - d for d in construction.n_positions) == [1, 2, 4, 5, 7, 8, 10, 11]
    assert construction.outcome(12) == "P"


def test_subtraction_134_construction_finds_p_0_2_7_9_14():
    construction = pn_construction(SubtractionGame({1, 3, 4}), 14)
    assert [set(step) for step in construction.steps[:3]] == [{0}, {1, 3, 4}, {2}]
    assert sorted(construction.p_positions) == [0, 2, 7, 9, 14]


class NimHeap:
    def options(self, n):
        return range(n)

    def components(self, n):
        return (n,)


class Mixed:
    """A sum of different games: a position is (which game, its position in that game)."""

    def __init__(self, *games):
        self.games = games

    def options(self, position):
        which, inner = position
        return [(which, option) for option in self.games[which].options(inner)]

    def components(self, position):
        which, inner = position
        return tuple((which, part) for part in self.games[which].components(inner))


GAMES = Mixed(SubtractionGame({1, 2, 3}), NimHeap(), OctalGame("0.77"), SubtractionGame({1, 3, 4}))
GRUNDY = Grundy(GAMES)
component = st.one_of(
    st.tuples(st.just(0), st.integers(0, 5)),
    st.tuples(st.just(1), st.integers(0, 3)),
    st.tuples(st.just(2), st.integers(0, 4).map(lambda n: heaps(n))),
    st.tuples(st.just(3), st.integers(0, 6)),
)
small_sums = st.lists(component, min_size=1, max_size=3)


@settings(max_examples=60, deadline=None)
@given(small_sums)
def test_grundy_xor_agrees_with_alphabeta_on_small_sums(positions):
    game = SumGame(GAMES, positions)
    searched = alphabeta(game, game.initial_state())
    assert (searched.value > 0) == (GRUNDY.sum_value(positions) != 0)


@settings(max_examples=100, deadline=None)
@given(small_sums)
def test_winning_move_in_a_sum_leaves_grundy_value_0(positions):
    move = GRUNDY.winning_move(positions)
    if GRUNDY.sum_value(positions) == 0:
        assert move is None
    else:
        after = [*positions[: move.index], move.option, *positions[move.index + 1 :]]
        assert GRUNDY.sum_value(after) == 0


def test_sum_game_normal_and_misere_utilities_are_opposite():
    normal, misere = SumGame(NimHeap(), [0]), SumGame(NimHeap(), [0], misere=True)
    end = normal.initial_state()
    assert normal.is_terminal(end)
    assert normal.utility(end, 0) == -1 and normal.utility(end, 1) == 1
    assert misere.utility(end, 0) == 1 and misere.utility(end, 1) == -1


def test_nim_sum_of_nothing_is_0():
    assert nim_sum([]) == 0
    assert nim_sum([3, 5, 8]) == 14


@settings(max_examples=40, deadline=None)
@given(st.sets(st.integers(1, 6), min_size=1, max_size=3), st.integers(0, 40))
def test_pn_construction_agrees_with_grundy_numbers(moves, start):
    game = SubtractionGame(moves)
    construction = pn_construction(game, start)
    grundy = Grundy(game)
    reached = [*construction.p_positions, *construction.n_positions]
    assert start in reached
    assert all(construction.outcome(n) == ("P" if grundy(n) == 0 else "N") for n in reached)
