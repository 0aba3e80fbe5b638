"""Subtraction games: Grundy sequences, proved periods, the textbook's numbers."""

from itertools import combinations_with_replacement
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum.search import alphabeta
from zerosum.theory.impartial import Grundy, MoveFunction, SumGame, mex
from zerosum.theory.subtraction import SubtractionGame

TAKE_123 = SubtractionGame({1, 2, 3})


def brute_force(moves, count):
    """Grundy numbers straight from the definition, for comparison."""
    values = []
    for n in range(count):
        values.append(mex(values[n - s] for s in moves if s <= n))
    return values


def test_take_1_2_3_is_n_mod_4_with_a_proved_period_4():
    result = TAKE_123.sequence(12)
    assert result.values == (0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0)
    assert (result.preperiod, result.period) == (0, 4)


def test_take_1_to_q_is_n_mod_q_plus_1():
    for q in range(1, 8):
        result = SubtractionGame(range(1, q + 1)).sequence(40)
        assert result.values == tuple(n % (q + 1) for n in range(41))
        assert (result.preperiod, result.period) == (0, q + 1)


def test_subtraction_134_has_period_7_with_p_iff_n_mod_7_in_0_2():
    result = SubtractionGame({1, 3, 4}).sequence(100)
    assert (result.preperiod, result.period) == (0, 7)
    assert result.values[:14] == (0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2)
    assert result.p_positions == tuple(n for n in range(101) if n % 7 in (0, 2))


def test_100_tokens_of_subtraction_134_are_lost_for_the_first_player():
    result = SubtractionGame({1, 3, 4}).sequence(100)
    assert 100 % 7 == 2
    assert result.values[100] == 0


def test_a_proved_period_gives_values_far_beyond_the_computed_ones():
    result = SubtractionGame({1, 3, 4}).sequence(30)
    assert result.value(10**12) == result.values[10**12 % 7]


def test_period_fills_values_that_agree_with_direct_computation():
    game = SubtractionGame({2, 5, 7})
    filled = game.sequence(5000, search=256)
    assert filled.checked < 5000
    assert filled.values == tuple(brute_force((2, 5, 7), 5001))


@settings(max_examples=40, deadline=None)
@given(st.sets(st.integers(1, 9), min_size=1, max_size=4))
def test_proved_period_holds_on_values_computed_from_the_definition(moves):
    result = SubtractionGame(moves).sequence(10)
    assert result.period is not None
    values = brute_force(sorted(moves), 3000)
    assert all(
        values[n] == values[n + result.period]
        for n in range(result.preperiod, 3000 - result.period)
    )
    assert result.preperiod == 0 or (
        values[result.preperiod - 1] != values[result.preperiod - 1 + result.period]
    )


def test_the_169_pairs_of_a_take_123_heap_beside_a_nim_heap_agree_with_alphabeta():
    game = MoveFunction(
        lambda p: [(p[0], m) for m in (TAKE_123.options(p[1]) if p[0] == "take" else range(p[1]))]
    )
    grundy = Grundy(game)
    adapter = SumGame(game, [])

    def winning_first(state, moves):  # the order changes alpha-beta's work, never its value
        return sorted(moves, key=lambda m: grundy.sum_value(adapter.result(state, m)[0]) != 0)

    agree = 0
    for n in range(13):
        for m in range(13):
            pair = SumGame(game, [("take", n), ("nim", m)])
            searched = alphabeta(pair, pair.initial_state(), order=winning_first)
            agree += (searched.value > 0) == ((TAKE_123.values(13)[n] ^ m) != 0)
    assert agree == 169


def test_ten_take_123_heaps_up_to_12_need_13_grundy_numbers():
    assert 13**10 == 137_858_491_849
    assert sum(1 for _ in combinations_with_replacement(range(13), 10)) == 646_646 == comb(22, 10)
    grundy = Grundy(TAKE_123)
    for heaps in [(12,) * 10, (1, 2, 3, 4, 5, 6, 7, 8, 9, 10), (0, 11) * 5]:
        grundy.sum_value(heaps)
    assert len(grundy) == 13


def test_values_to_a_large_heap_agree_with_the_forward_loop():
    game = SubtractionGame({3, 4, 9})
    assert game.sequence(20_000).values == tuple(game.values(20_001))


@pytest.mark.parametrize(
    ("moves", "reason"),
    [([], "empty"), ([0, 2], "positive numbers, got 0"), ([-1, 3], "positive numbers, got -1")],
)
def test_bad_subtraction_sets_are_refused(moves, reason):
    with pytest.raises(ValueError, match=reason):
        SubtractionGame(moves)
