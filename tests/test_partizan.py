"""Conway's canonical forms, order, sums and thermographs (zerosum.theory.partizan and kin).

Values from Winning Ways (Berlekamp, Conway and Guy, ch. 2-6) and Lessons in Play (Albert,
Nowakowski and Wolfe, ch. 4-6), and properties drawn by hypothesis: G + (-G) = 0, one
canonical form per value, and the order agreeing with who wins when the game is played out.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum.theory.cgt_expressions import parse_value
from zerosum.theory.partizan import DOWN, STAR, UP, ZERO, game, negative, nimber, number, sum_of
from zerosum.theory.thermograph import mean, temperature, thermograph


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("{0 | 2}", "1"),  # Winning Ways: the simplest number between the options
        ("{-1 | 1}", "0"),
        ("{1/2 |}", "1"),
        ("{0 | 1/4}", "1/8"),
        ("{0, * | 0, *}", "*2"),
        ("{0 | *}", "↑"),
        ("{0, * | 0}", "↑*"),
        ("^ + ^", "⇑"),
        ("^ + ^ + *", "⇑*"),
        ("{0 | ^}", "⇑*"),  # reversible: Right's ↑ is answered by Left's 0
        ("^ + ^ + ^", "3·↑"),
        ("* + *", "0"),
        ("*2 + *3", "*"),
        ("+-1 + +-1", "0"),
        ("{3 | 1} - 2", "±1"),
        ("{1 || 0 | -1}", "{1 | {0 | -1}}"),
        ("1/2 + 1/2 + *", "1*"),
    ],
)
def test_canonical_forms_of_known_values(text, canonical):
    assert str(parse_value(text)) == canonical


def test_the_order_of_infinitesimals():
    # Winning Ways ch. 3: ↑ is positive but below every positive number; ↑* is confused with 0
    assert UP > 0 and number(Fraction(1, 64)) > UP and DOWN < 0
    assert (UP + STAR).outcome == "N" and (UP + UP + STAR).outcome == "L"
    assert STAR.confused_with(ZERO) and STAR.relation(UP) == "||"
    assert nimber(2) < UP and (UP + nimber(3)).outcome == "L"  # ↑*n > 0 for n >= 2


def test_outcome_classes_of_the_four_kinds():
    assert [parse_value(t).outcome for t in ("1", "-1/2", "0", "+-1")] == ["L", "R", "P", "N"]


def test_a_number_that_is_not_dyadic_is_refused_with_its_reason():
    with pytest.raises(ValueError, match=r"^1/3 is not a dyadic rational"):
        parse_value("1/3")
    with pytest.raises(ValueError, match="needs a bar"):
        parse_value("{1, 2}")
    with pytest.raises(ValueError, match="cannot read the value at 'x'"):
        parse_value("1 + x")


@pytest.mark.parametrize(
    ("text", "mean_value", "temperature_value"),
    [
        ("3", 3, -1),
        ("3/8", Fraction(3, 8), Fraction(-1, 8)),
        ("*", 0, 0),
        ("^", 0, 0),
        ("+-1", 0, 1),
        ("{2 | -1}", Fraction(1, 2), Fraction(3, 2)),  # Lessons in Play: (a + b)/2, (a - b)/2
        ("{5 | {3 | 1}}", Fraction(7, 2), Fraction(3, 2)),
        ("{3 || 2 | 0}", 2, 1),
    ],
)
def test_means_and_temperatures(text, mean_value, temperature_value):
    value = parse_value(text)
    assert mean(value) == mean_value and temperature(value) == temperature_value


def test_the_thermograph_of_a_switch_has_two_straight_walls_to_its_mast():
    drawn = thermograph(parse_value("{2 | -1}"))
    assert drawn.left_wall.corners == ((-1, 3), (Fraction(3, 2), Fraction(1, 2)))
    assert drawn.right_wall.corners == ((-1, -2), (Fraction(3, 2), Fraction(1, 2)))


# -- properties over random forms --------------------------------------------------------------

Form = tuple[tuple, tuple]  # (left options, right options), each a tuple of forms


def forms(depth: int = 3) -> st.SearchStrategy:
    leaf = st.just(((), ()))
    return st.recursive(
        leaf,
        lambda inner: st.tuples(
            st.lists(inner, max_size=3).map(tuple), st.lists(inner, max_size=3).map(tuple)
        ),
        max_leaves=8,
    )


@cache
def value_of(form: Form):
    return game([value_of(o) for o in form[0]], [value_of(o) for o in form[1]])


@cache
def wins_moving_first(form: Form, left: bool) -> bool:
    """Whether the player (Left when `left`) moving first in `form` wins, played out."""
    options = form[0] if left else form[1]
    return any(not wins_moving_first(option, not left) for option in options)


def summed(a: Form, b: Form) -> Form:
    """The disjoint sum as a form, built move by move."""
    return (
        tuple(summed(x, b) for x in a[0]) + tuple(summed(a, y) for y in b[0]),
        tuple(summed(x, b) for x in a[1]) + tuple(summed(a, y) for y in b[1]),
    )


def played_outcome(form: Form) -> str:
    left, right = wins_moving_first(form, True), wins_moving_first(form, False)
    return {(True, True): "N", (True, False): "L", (False, True): "R", (False, False): "P"}[
        (left, right)
    ]


@settings(max_examples=150, deadline=None)
@given(forms())
def test_a_game_plus_its_negative_is_zero(form):
    value = value_of(form)
    assert value + (-value) is ZERO and negative(negative(value)) is value


@settings(max_examples=150, deadline=None)
@given(forms(), forms())
def test_the_outcome_of_a_sum_is_the_outcome_of_playing_it_out(a, b):
    assert value_of(a).outcome == played_outcome(a)
    assert (value_of(a) + value_of(b)).outcome == played_outcome(summed(a, b))


@settings(max_examples=150, deadline=None)
@given(forms(), forms())
def test_the_order_agrees_with_playing_the_difference(a, b):
    g, h = value_of(a), value_of(b)
    difference = played_outcome(summed(a, negated(b)))
    assert g.relation(h) == {"P": "=", "L": ">", "R": "<", "N": "||"}[difference]
    assert (g.relation(h) == "=") == (g is h)  # one canonical form per value


def negated(form: Form) -> Form:
    return (tuple(negated(o) for o in form[1]), tuple(negated(o) for o in form[0]))


@settings(max_examples=150, deadline=None)
@given(forms(), forms())
def test_the_text_reads_back_and_the_mean_adds(a, b):
    g, h = value_of(a), value_of(b)
    assert parse_value(str(g)) is g
    assert mean(g + h) == mean(g) + mean(h)
    assert temperature(g + h) <= max(temperature(g), temperature(h)) or (g + h).is_number


def test_a_sum_of_many_values_is_their_total():
    assert sum_of([UP, UP, DOWN, STAR, STAR]) is UP
