"""Matrix games: known answers from the textbook and the literature, properties on random games."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum.theory import rational
from zerosum.theory.matrix import (
    Elimination,
    closed_form,
    eliminate_dominated,
    exploitability,
    parse_matrix,
    payoff_matrix,
    pure_values,
    read_csv,
    solve,
)

MATCHING_PENNIES = [[1, -1], [-1, 1]]
ROCK_PAPER_SCISSORS = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
# Two-finger Morra; strategies (show, guess): (1,1), (1,2), (2,1), (2,2).
MORRA = [[0, 2, -3, 0], [-2, 0, 0, 3], [3, 0, 0, -4], [0, -3, 4, 0]]
# Ferguson's odd-or-even: each shows 1 or 2 fingers; an odd sum is paid to the row player, an
# even sum to the column player.
FERGUSON_ODD_OR_EVEN = [[-2, 3], [3, -4]]
# The textbook's unstable 3x3 shape: maxmin row R2 (3), minmax column C2 (7), R2 against C2 pays 6.
UNSTABLE = [[9, 7, 1], [3, 6, 4], [2, 5, 8]]
SADDLE = [[4, 5, 7], [3, 2, 1], [8, 6, 9]]


def test_matching_pennies_is_one_half_each_with_value_0():
    solution = solve(MATCHING_PENNIES)
    assert solution.exact
    assert solution.value == 0
    assert solution.row_strategy == (F(1, 2), F(1, 2))
    assert solution.column_strategy == (F(1, 2), F(1, 2))


def test_odds_and_evens_with_0_to_5_fingers_is_even_half_the_time_with_value_0():
    # The textbook's "pari o dispari": 0..5 fingers each, the row player wins 1 on an even sum.
    game = [[1 if (i + j) % 2 == 0 else -1 for j in range(6)] for i in range(6)]
    solution = solve(game)
    assert solution.value == 0
    assert sum(solution.row_strategy[0::2]) == F(1, 2)
    assert sum(solution.column_strategy[0::2]) == F(1, 2)
    assert exploitability(game, solution.row_strategy, solution.column_strategy).total == 0


def test_odds_and_evens_two_by_two_closed_form_is_one_half_with_value_0():
    form = closed_form(MATCHING_PENNIES)
    assert (form.p, form.q, form.value) == (F(1, 2), F(1, 2), 0)


def test_rock_paper_scissors_is_one_third_each_exactly():
    solution = solve(ROCK_PAPER_SCISSORS)
    assert solution.value == 0
    assert solution.row_strategy == (F(1, 3),) * 3
    assert solution.column_strategy == (F(1, 3),) * 3
    assert all(isinstance(p, F) for p in solution.row_strategy)


def test_saddle_point_game_is_solved_by_pure_strategies_r3_c2_value_6():
    pure = pure_values(SADDLE)
    assert (pure.lower_value, pure.upper_value, pure.value) == (6, 6, 6)
    assert pure.saddle_points == ((2, 1),)
    assert pure.row_minima == (4, 1, 6) and pure.column_maxima == (8, 6, 9)
    solution = solve(SADDLE)
    assert solution.value == 6
    assert solution.row_strategy == (0, 0, 1)
    assert solution.column_strategy == (0, 1, 0)


def test_textbook_unstable_game_has_lower_3_at_r2_upper_7_at_c2_and_value_between():
    pure = pure_values(UNSTABLE)
    assert (pure.lower_value, pure.maxmin_rows) == (3, (1,))
    assert (pure.upper_value, pure.minmax_columns) == (7, (1,))
    assert pure.saddle_points == () and pure.value is None
    solution = solve(UNSTABLE)
    assert 3 < solution.value < 7
    assert exploitability(UNSTABLE, solution.row_strategy, solution.column_strategy).total == 0


def test_every_saddle_point_is_listed_when_several_tie():
    pure = pure_values([[1, 1], [0, -1], [1, 1]])
    assert pure.saddle_points == ((0, 0), (0, 1), (2, 0), (2, 1))
    assert pure.maxmin_rows == (0, 2) and pure.minmax_columns == (0, 1)


def test_two_by_two_closed_form_of_3_minus1_minus2_4_is_p_3_5_q_1_2_value_1():
    form = closed_form([[3, -1], [-2, 4]])
    assert (form.p, form.q, form.value) == (F(3, 5), F(1, 2), 1)


def test_closed_form_refuses_a_game_with_a_saddle_point_and_other_shapes():
    with pytest.raises(ValueError, match="saddle point at row 0, column 0"):
        closed_form([[1, 2], [0, 3]])
    with pytest.raises(ValueError, match="2x2 games, this one is 2x3"):
        closed_form([[1, 2, 3], [0, 3, 1]])


def test_closed_form_on_floats_gives_floats():
    form = closed_form([[0.5, -1.5], [-1.0, 2.5]])
    assert isinstance(form.value, float)
    assert form.value == pytest.approx((0.5 * 2.5 - 1.5 * 1.0) / 5.5)


def test_ferguson_odd_or_even_has_value_1_12_and_both_play_1_with_7_12():
    solution = solve(FERGUSON_ODD_OR_EVEN)
    assert solution.value == F(1, 12)
    assert solution.row_strategy == (F(7, 12), F(5, 12))
    assert solution.column_strategy == (F(7, 12), F(5, 12))


def test_two_finger_morra_has_value_0_and_its_optimal_family_has_exploitability_0():
    solution = solve(MORRA)
    assert solution.value == 0
    assert exploitability(MORRA, solution.row_strategy, solution.column_strategy).total == 0
    # The optimal strategies are (0, p, 1 - p, 0) for 3/5 >= p >= 4/7; the game is symmetric.
    for p in (F(4, 7), F(7, 12), F(3, 5)):
        optimal = (0, p, 1 - p, 0)
        assert exploitability(MORRA, optimal, optimal).total == 0
    outside = (0, F(1, 2), F(1, 2), 0)
    assert exploitability(MORRA, outside, solution.column_strategy).column_gap == F(1, 2)


def test_non_zero_rational_value_with_fraction_entries_is_2_9():
    solution = solve(parse_matrix("1/2 -1/3; -1/6 1"))
    assert solution.value == F(2, 9)
    assert solution.row_strategy == (F(7, 12), F(5, 12))
    assert solution.column_strategy == (F(2, 3), F(1, 3))


def test_dominance_reduces_3x3_to_the_2x2_3_minus1_minus2_4_in_order():
    game = [[3, -1, 5], [-2, 4, 6], [-3, -2, 4]]
    reduction = eliminate_dominated(game)
    assert reduction.eliminations == (
        Elimination("row", 2, 0),
        Elimination("column", 2, 0),
    )
    assert (reduction.rows, reduction.columns) == ((0, 1), (0, 1))
    assert reduction.matrix == ((3, -1), (-2, 4))
    solution = solve(game)
    assert solution.value == 1
    assert solution.row_strategy == (F(3, 5), F(2, 5), 0)
    assert solution.column_strategy == (F(1, 2), F(1, 2), 0)


def test_strict_dominance_iterates_down_to_the_saddle_point():
    reduction = eliminate_dominated([[3, 5, 4], [2, 1, 6], [1, 0, 2]])
    assert [(e.player, e.strategy) for e in reduction.eliminations] == [
        ("row", 2),
        ("column", 2),
        ("row", 1),
        ("column", 1),
    ]
    assert reduction.matrix == ((3,),)


def test_weak_dominance_removes_a_row_equal_in_one_column_strict_does_not():
    game = [[1, 1], [1, 0]]
    assert eliminate_dominated(game).eliminations == ()
    weak = eliminate_dominated(game, weak=True)
    assert weak.eliminations == (Elimination("row", 1, 0),)
    assert weak.rows == (0,) and weak.columns == (0, 1)


def test_weak_dominance_keeps_equal_rows():
    reduction = eliminate_dominated([[1, 2], [1, 2]], weak=True)
    assert reduction.eliminations == (Elimination("column", 1, 0),)
    assert reduction.rows == (0, 1)


def test_exploitability_of_pure_rock_against_uniform_is_one_for_the_column_player():
    check = exploitability(ROCK_PAPER_SCISSORS, (1, 0, 0), (F(1, 3),) * 3)
    assert (check.payoff, check.row_gap, check.column_gap) == (0, 0, 1)


@pytest.mark.parametrize(
    ("row", "column", "message"),
    [
        ((1, 0), (F(1, 3),) * 3, "row strategy has 2 probabilities, the game 3"),
        ((F(1, 2), F(1, 2), 0), (2, -1, 0), "column strategy has a negative probability"),
        ((F(1, 2), F(1, 3), 0), (1, 0, 0), r"row strategy's probabilities sum to 5/6, not 1"),
        ((0.5, 0.5, float("nan")), (1, 0, 0), "not a finite number"),
    ],
)
def test_exploitability_rejects_strategies_that_are_not_distributions(row, column, message):
    with pytest.raises(ValueError, match=message):
        exploitability(ROCK_PAPER_SCISSORS, row, column)


def test_numpy_integer_array_is_exact_and_float_array_is_not():
    assert solve(np.array(MATCHING_PENNIES)).exact
    assert solve(np.array(MATCHING_PENNIES, dtype=float)).exact  # whole floats are integers
    floats = solve(np.array([[0.5, -1.0], [-1.0, 0.25]]))
    assert not floats.exact
    assert floats.value == pytest.approx((0.125 - 1) / 2.75)


def test_exact_true_on_float_entries_is_refused_and_exact_false_gives_floats():
    with pytest.raises(ValueError, match="integer or rational entries"):
        solve([[0.5, 1.0], [1.0, 0.0]], exact=True)
    solution = solve(ROCK_PAPER_SCISSORS, exact=False)
    assert not solution.exact and all(isinstance(p, float) for p in solution.row_strategy)
    assert solution.row_strategy == pytest.approx((1 / 3,) * 3)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "empty"),
        ([[]], "empty"),
        ([[1, 2], [3]], "ragged matrix: row 2 has 1 cell, row 1 has 2 cells"),
        ([[1, "x"]], "cell 'x' at row 1, column 2 is not a number"),
        ([[1, float("nan")]], "row 1, column 2 is not a finite number"),
        ([[float("inf")]], "not a finite number"),
        (np.array([[1.0, np.inf]]), "row 1, column 2 is not a finite number"),
        (np.array([1, 2]), "2 dimensions"),
        ("1 2; 3 4", "list of rows"),
        ([1, 2], "row 1 is not a list of numbers"),
        ([[1, None]], "is not a number"),
        ([[Decimal("NaN")]], "not a finite number"),
        ([["1e1000", 1]], "more than 1,000 digits, the limit of a cell"),
    ],
)
def test_malformed_matrices_are_refused_with_the_reason(data, message):
    with pytest.raises(ValueError, match=message):
        payoff_matrix(data)


@pytest.mark.parametrize(
    ("text", "rows"),
    [
        ("3 -1; -2 4", ((3, -1), (-2, 4))),
        ("0.5 -1/6\n2e1 7", ((F(1, 2), F(-1, 6)), (20, 7))),
        ("  1  2 ;", ((1, 2),)),
        ("1 2;\n3 4\n\n", ((1, 2), (3, 4))),
        ("\u22123/7 1e-400", ((F(-3, 7), F(1, 10**400)),)),
        ("1e999 +.5e-3", ((10**999, F(1, 2000)),)),
    ],
)
def test_text_matrices_are_read_exactly(text, rows):
    assert parse_matrix(text).rows == rows


def test_csv_file_is_read_exactly(tmp_path):
    path = tmp_path / "payoff.csv"
    path.write_text("3, -1\n-2, 1/2\n\n")
    assert read_csv(path).rows == ((3, -1), (-2, F(1, 2)))


def test_missing_csv_file_is_a_value_error_naming_it(tmp_path):
    with pytest.raises(ValueError, match="cannot read .*nothing.csv.*No such file"):
        read_csv(tmp_path / "nothing.csv")


def test_degenerate_game_is_solved_by_the_exact_simplex_too():
    value, x, y = rational._simplex(MORRA)
    assert value == 0
    assert rational.certified_value(MORRA, x, y) == 0


def test_game_spanning_12_orders_of_magnitude_is_solved_exactly_where_floats_miss_a_row():
    # HiGHS plays row 0 alone; the exact optimum gives row 1 a probability of about 1.4e-11.
    game = [
        [0, 5, 30, 3_000_000],
        [2_000_000_000_000, 1_000_000, -20_000_000_000, 500_000_000_000],
        [0, -300_000_000, 400_000, -4_000_000],
        [4_000, 1_000_000, -40_000, -5_000],
    ]
    solution = solve(game)
    assert solution.value == F(603995998800000, 20999698560001)
    assert solution.row_strategy[1] == F(43, 2999956937143)
    assert exploitability(game, solution.row_strategy, solution.column_strategy).total == 0


def test_exact_solution_without_a_floating_point_start_uses_the_simplex():
    value, x, y = rational.solve([[F(1, 2), F(-1, 3)], [F(-1, 6), 1]], None)
    assert (value, x, y) == (F(2, 9), (F(7, 12), F(5, 12)), (F(2, 3), F(1, 3)))


def test_certified_value_refuses_strategies_that_are_not_optimal():
    third = (F(1, 3),) * 3
    assert rational.certified_value(ROCK_PAPER_SCISSORS, third, third) == 0
    assert rational.certified_value(ROCK_PAPER_SCISSORS, (1, 0, 0), third) is None
    assert rational.certified_value(ROCK_PAPER_SCISSORS, (F(1, 2), F(1, 2), 0), third) is None


def matrices(low: int = -20, high: int = 20, largest: int = 6):
    """Random integer matrices of 1 to `largest` rows and columns with entries in [low, high]."""
    return st.integers(1, largest).flatmap(
        lambda rows: st.integers(1, largest).flatmap(
            lambda columns: st.lists(
                st.lists(st.integers(low, high), min_size=columns, max_size=columns),
                min_size=rows,
                max_size=rows,
            )
        )
    )


@settings(max_examples=150, deadline=None)
@given(matrices())
def test_random_games_exact_and_float_solutions_agree_and_are_optimal(game):
    exact = solve(game)
    floats = solve(game, exact=False)
    pure = pure_values(game)
    assert exact.exact and not floats.exact
    assert abs(floats.value - exact.value) < 1e-9
    assert pure.lower_value <= exact.value <= pure.upper_value
    if pure.saddle_points:
        assert exact.value == pure.value
    check = exploitability(game, exact.row_strategy, exact.column_strategy)
    assert (check.row_gap, check.column_gap, check.payoff) == (0, 0, exact.value)
    assert all(p >= 0 for p in exact.row_strategy + exact.column_strategy)
    assert exploitability(game, floats.row_strategy, floats.column_strategy).total < 1e-9


@settings(max_examples=60, deadline=None)
@given(st.one_of(matrices(), matrices(-1, 1, 8)))
def test_random_games_exact_simplex_finds_the_same_value(game):
    # Entries in {-1, 0, 1} make ties and degenerate pivots, where Bland's rule takes over.
    value, x, y = rational._simplex(game)
    assert value == solve(game).value
    assert rational.certified_value(game, x, y) == value


@settings(max_examples=60, deadline=None)
@given(matrices(), st.booleans())
def test_random_games_keep_their_value_after_eliminating_dominated_strategies(game, weak):
    reduction = eliminate_dominated(game, weak=weak)
    assert solve(reduction.matrix).value == solve(game).value
    assert len(reduction.rows) + len(reduction.eliminations) + len(reduction.columns) == len(
        game
    ) + len(game[0])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-20, 20), min_size=4, max_size=4))
def test_random_2x2_closed_form_matches_the_linear_program(entries):
    game = [entries[:2], entries[2:]]
    if pure_values(game).saddle_points:
        return
    form = closed_form(game)
    solution = solve(game)
    assert (form.p, form.q, form.value) == (
        solution.row_strategy[0],
        solution.column_strategy[0],
        solution.value,
    )


@settings(max_examples=100, deadline=None)
@given(
    st.integers(1, 6).flatmap(
        lambda unknowns: st.tuples(
            st.lists(
                st.lists(st.integers(-3, 3), min_size=unknowns, max_size=unknowns),
                min_size=1,
                max_size=7,
            ),
            st.lists(st.integers(-5, 5), min_size=unknowns, max_size=unknowns),
        )
    )
)
def test_bareiss_elimination_solves_every_consistent_system_even_when_singular(system):
    coefficients, known = system
    # Repeat a row and zero a column so that ranks fall short and pivots are skipped.
    coefficients = [*coefficients, coefficients[0]]
    coefficients = [[0, *row[1:]] for row in coefficients]
    right = [sum(a * x for a, x in zip(row, known, strict=True)) for row in coefficients]
    solution = rational.solve_linear_system(
        [[*row, b] for row, b in zip(coefficients, right, strict=True)]
    )
    assert solution is not None
    assert [sum(a * x for a, x in zip(row, solution, strict=True)) for row in coefficients] == right


def test_bareiss_elimination_reports_an_inconsistent_system():
    assert rational.solve_linear_system([[1, 1, 1], [2, 2, 3]]) is None


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 8).flatmap(
        lambda rows: st.integers(1, 8).flatmap(
            lambda columns: st.lists(
                st.lists(
                    st.floats(-1, 1, allow_nan=False).map(lambda f: f + 0.1234),
                    min_size=columns,
                    max_size=columns,
                ),
                min_size=rows,
                max_size=rows,
            )
        )
    )
)
def test_random_float_games_have_exploitability_below_1e_9_and_value_between_bounds(game):
    solution = solve(game)
    pure = pure_values(game)
    assert pure.lower_value - 1e-9 <= solution.value <= pure.upper_value + 1e-9
    check = exploitability(game, solution.row_strategy, solution.column_strategy)
    assert check.total < 1e-9
    assert abs(check.payoff - solution.value) < 1e-9
