"""Octal games (Kayles, Dawson's Kayles) and Grundy's game, checked against brute force."""

from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum.search import alphabeta
from zerosum.theory.heaps import append_value, find_period
from zerosum.theory.impartial import Grundy, SumGame
from zerosum.theory.octal import (
    GrundysGame,
    OctalGame,
    heaps,
    least_missing,
    pair_xors,
    parse_code,
)

KAYLES = OctalGame("0.77")
DAWSON = OctalGame("0.07")


def brute_force(game, count):
    """Grundy numbers by the general memoised mex over positions (tuples of heaps)."""
    grundy = Grundy(game)
    return [grundy(heaps(n)) for n in range(count)]


def test_kayles_starts_0_1_2_3_1_4_3_2_1_4_2_6():
    assert KAYLES.sequence(11).values == (0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6)


@pytest.mark.parametrize(
    ("game", "count"),
    [(KAYLES, 301), (OctalGame("0.4"), 60)],
    ids=["kayles to heap 300", "0.4 (splits only) to heap 59"],
)
def test_values_agree_with_brute_force(game, count):
    assert game.values(count).tolist() == brute_force(OctalGame(game.code), count)


def test_kayles_has_period_12_after_its_last_exception_at_70():
    result = KAYLES.sequence(300)
    assert (result.preperiod, result.period) == (71, 12)
    values = brute_force(OctalGame("0.77"), 301)
    assert values[70] != values[82]  # the last exception
    assert all(values[n] == values[n + 12] for n in range(71, 301 - 12))
    assert result.checked >= 2 * 71 + 2 * 12 + 2  # what the Guy-Smith test needs


def test_kayles_first_player_always_wins_a_nonempty_row():
    assert KAYLES.sequence(300).p_positions == (0,)


def test_dawsons_kayles_values_agree_with_brute_force_and_have_period_34():
    result = DAWSON.sequence(300)
    values = brute_force(OctalGame("0.07"), 301)
    assert list(result.values) == values
    assert result.values[:12] == (0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3)
    assert result.period == 34
    assert values[result.preperiod - 1] != values[result.preperiod - 1 + 34]
    assert all(values[n] == values[n + 34] for n in range(result.preperiod, 301 - 34))


def test_octal_333_is_the_subtraction_game_take_1_2_3():
    result = OctalGame("0.333").sequence(40)
    assert result.values == tuple(n % 4 for n in range(41))
    assert (result.preperiod, result.period) == (0, 4)


def test_grundys_game_agrees_with_brute_force_and_claims_no_period():
    result = GrundysGame().sequence(150)
    assert list(result.values) == brute_force(GrundysGame(), 151)
    assert result.values[:14] == (0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3)
    assert result.period is None and result.preperiod is None


codes = st.lists(st.integers(0, 7), min_size=1, max_size=3).map(
    lambda digits: "0." + "".join(map(str, digits))
)


@settings(max_examples=25, deadline=None)
@given(codes)
def test_octal_values_and_proved_periods_agree_with_brute_force(code):
    result = OctalGame(code).sequence(120, search=512)
    values = brute_force(OctalGame(code), 200)
    assert list(result.values) == values[:121]
    if result.period is not None:
        assert all(
            values[n] == values[n + result.period]
            for n in range(result.preperiod, 200 - result.period)
        )


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.integers(1, 5), min_size=1, max_size=2), st.sampled_from(["0.77", "0.07", "0.137"])
)
def test_octal_sums_agree_with_alphabeta(sizes, code):
    game = OctalGame(code)
    searched = alphabeta(SumGame(game, [heaps(*sizes)]), (tuple((s,) for s in sizes), 0))
    assert (searched.value > 0) == (Grundy(game)(heaps(*sizes)) != 0)


def test_values_past_one_byte_widen_the_array_and_keep_working():
    values = append_value(array("B", [0, 7]), 300)
    assert values.typecode == "H" and values.tolist() == [0, 7, 300]
    values = append_value(values, 700)
    pairs = pair_xors(values, 4, 2)  # g(1)^g(3), g(2)^g(2)
    assert array("H", pairs).tolist() == [7 ^ 700, 0]
    assert least_missing(pairs, "H", {1}) == 2
    assert find_period(array("H", [900, 300, 301] * 40), lambda pre, p: 2 * pre + 2 * p) == (0, 3)


@pytest.mark.parametrize("code", ["0.8", "1.7", "077", "0.", "", "0.7a", "kayles"])
def test_malformed_octal_codes_are_refused(code):
    with pytest.raises(ValueError, match="bad octal code"):
        parse_code(code)


def test_octal_codes_may_omit_the_leading_zero_and_trailing_zeros():
    assert parse_code(".77") == (7, 7)
    assert parse_code("0.0700") == (0, 7)
