"""Bimatrix games: their payoff pairs read from text and CSV (and refused, naming the cell, where
a pair and a number are mixed or a comma stands where no pair is), and their equilibria exact:
the textbook's examples, and properties of random games (every equilibrium found passes the
deviation check; support and vertex enumeration agree on nondegenerate games; Lemke–Howson's
result is among them; a zero-sum game gives the matrix solver's value)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zerosum.theory.bimatrix import (
    eliminate_dominated,
    gains,
    lemke_howson,
    pure_equilibria,
    support_enumeration,
    vertex_enumeration,
)
from zerosum.theory.matrix import eliminate_dominated as eliminate_zero_sum
from zerosum.theory.matrix import pure_values, solve
from zerosum.theory.payoffs import (
    Bimatrix,
    PayoffMatrix,
    bimatrix,
    parse_matrix,
    parse_payoffs,
    read_csv,
    read_payoffs,
)

BATTLE_OF_THE_SEXES = "3,1 0,0; 0,0 1,3"
PRISONERS_DILEMMA = "-1,-1 -3,0; 0,-3 -2,-2"  # R1, C1: stay silent; R2, C2: confess
CHICKEN = "0,0 -1,1; 1,-1 -10,-10"  # R1, C1: swerve; R2, C2: drive straight on


def found(equilibria):
    """The equilibria as (row strategy, column strategy, row payoff, column payoff)."""
    return [
        (e.row_strategy, e.column_strategy, e.row_payoff, e.column_payoff)
        for e in equilibria.equilibria
    ]


# -- reading -------------------------------------------------------------------------------------


def test_pairs_make_a_bimatrix_game_of_the_row_players_and_the_column_players_payoffs():
    game = parse_payoffs(BATTLE_OF_THE_SEXES)
    assert isinstance(game, Bimatrix)
    assert game.row_payoffs.rows == ((3, 0), (0, 1))
    assert game.column_payoffs.rows == ((1, 0), (0, 3))
    assert game.shape == (2, 2) and not game.zero_sum
    assert parse_payoffs("1/2,-1/2 0.25,-0.25\n-1,1 0,0").zero_sum


def test_numbers_alone_are_still_one_zero_sum_matrix():
    assert parse_payoffs("3 -1; -2 4") == PayoffMatrix(((3, -1), (-2, 4)))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("3,1 0", "cell '0' at row 1, column 2 is a number, where the first cell is a pair"),
        ("3 0,1", "cell '0,1' at row 1, column 2 is a pair, where the first cell is a number"),
        ("3,1 0,0; 0,0 1", "cell '1' at row 2, column 2 is a number"),
        ("3,1 , 0,0", "a comma at row 1, column 2 is not a number or a pair: cells are separated"),
        ("3,1, 0,0", "cell '3,1,' at row 1, column 1 is not a number or a pair"),
        ("1, 2; 3, 4", "cell '1,' at row 1, column 1 is not a number or a pair"),
        ("1,2,3 4,5,6", "cell '1,2,3' at row 1, column 1 is not a number or a pair"),
        ("3,x 0,0", "cell 'x' at row 1, column 1 is not a number"),
        ("3,1 0,0; 0,0", "ragged matrix: row 2 has 1 cell, row 1 has 2 cells"),
    ],
)
def test_a_mix_of_pairs_and_numbers_or_a_stray_comma_is_refused_naming_the_cell(text, message):
    with pytest.raises(ValueError, match=message):
        parse_payoffs(text)


@pytest.mark.parametrize("text", ["3,-1;-2,4", "1,2; 3,4", "3,1"])
def test_a_column_of_pairs_once_read_as_numbers_is_refused_saying_how_to_write_both(text):
    with pytest.raises(ValueError, match="every row is one pair") as refused:
        parse_payoffs(text)
    assert "A zero-sum matrix is written" in str(refused.value)


def test_the_zero_sum_readers_refuse_pairs_and_name_the_bimatrix_game():
    with pytest.raises(ValueError, match="a bimatrix game, not one zero-sum matrix"):
        parse_matrix(BATTLE_OF_THE_SEXES)


def test_csv_pairs_are_written_in_quotes(tmp_path):
    path = tmp_path / "game.csv"
    path.write_text('"3,1","0,0"\n"0,0", " 1 , 3 "\n')
    game = read_payoffs(path)
    assert isinstance(game, Bimatrix)
    assert game.row_payoffs.rows == ((3, 0), (0, 1))
    assert game.column_payoffs.rows == ((1, 0), (0, 3))
    one_column = tmp_path / "column.csv"
    one_column.write_text('"3,1"\n"0,2"\n')  # in CSV a column of pairs is not ambiguous
    assert read_payoffs(one_column).shape == (2, 1)
    with pytest.raises(ValueError, match="a bimatrix game"):
        read_csv(path)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('"3,1",0\n', "cell '0' at row 1, column 2 is a number, where the first cell is a pair"),
        ('3,"0,1"\n', "row 1, column 2 is a pair, where the first cell is a number"),
        ("3;1,0;0\n", "cell '3;1' at row 1, column 1 is not a number: in a CSV file a pair is"),
        ('"3,1,2","0,0"\n', "cell '\"3,1,2\"' at row 1, column 1 is not a number or a pair"),
        ('"3,1",,"0,0"\n', "row 1, column 2 is empty"),
    ],
)
def test_csv_mixes_and_malformed_pairs_are_refused_naming_the_cell(tmp_path, text, message):
    path = tmp_path / "game.csv"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        read_payoffs(path)


def test_a_long_csv_line_of_pairs_is_read_across_pieces(tmp_path, monkeypatch):
    from zerosum.theory import payoffs

    monkeypatch.setattr(payoffs, "_CHUNK", 7)  # every quoted pair cut somewhere
    path = tmp_path / "game.csv"
    path.write_text(",".join(f'"{k},-{k}"' for k in range(40)) + "\n" + ",".join(['"1,1"'] * 40))
    game = read_payoffs(path)
    assert isinstance(game, Bimatrix)
    assert game.row_payoffs.rows[0] == tuple(range(40))
    assert game.column_payoffs.rows[0] == tuple(-k for k in range(40))
    text = " ".join(f"{k},-{k}" for k in range(40)) + "; " + " ".join(["1,1"] * 40)
    assert payoffs.parse_payoffs(text) == game


# -- the textbook's examples ---------------------------------------------------------------------


def test_battle_of_the_sexes_has_two_pure_equilibria_and_one_mixed():
    game = parse_payoffs(BATTLE_OF_THE_SEXES)
    assert pure_equilibria(game) == ((0, 0), (1, 1))
    expected = [
        ((1, 0), (1, 0), 3, 1),
        ((0, 1), (0, 1), 1, 3),
        ((F(3, 4), F(1, 4)), (F(1, 4), F(3, 4)), F(3, 4), F(3, 4)),
    ]
    for method in (support_enumeration, vertex_enumeration):
        result = method(game)
        assert found(result) == expected and not result.degenerate
    assert [lemke_howson(game, label).row_strategy for label in range(4)] == [
        (1, 0),
        (0, 1),
        (1, 0),
        (0, 1),
    ]


def test_prisoners_dilemma_confessing_dominates_and_is_the_one_equilibrium():
    game = parse_payoffs(PRISONERS_DILEMMA)
    assert pure_equilibria(game) == ((1, 1),)
    reduction = eliminate_dominated(game)
    assert (reduction.rows, reduction.columns) == ((1,), (1,))
    assert [(s.player, s.strategy, s.dominated_by) for s in reduction.eliminations] == [
        ("row", 0, 1),
        ("column", 0, 1),
    ]
    assert found(vertex_enumeration(game)) == [((0, 1), (0, 1), -2, -2)]
    assert found(support_enumeration(game)) == [((0, 1), (0, 1), -2, -2)]


def test_chicken_has_two_pure_equilibria_and_a_mixed_one_where_each_swerves_nine_times_in_ten():
    game = parse_payoffs(CHICKEN)
    assert pure_equilibria(game) == ((0, 1), (1, 0))
    mixed = ((F(9, 10), F(1, 10)), (F(9, 10), F(1, 10)), F(-1, 10), F(-1, 10))
    assert found(vertex_enumeration(game)) == [
        ((1, 0), (0, 1), -1, 1),
        ((0, 1), (1, 0), 1, -1),
        mixed,
    ]


def test_a_degenerate_game_is_said_so_and_gives_its_extreme_equilibria():
    # C1 and C2 pay the column player alike against R1: against R1 both are best responses, and
    # R1 with any y up to C2 1/2 is an equilibrium: a segment, whose ends are found.
    game = bimatrix([[1, 1], [0, 2]], [[1, 1], [0, 2]])
    result = vertex_enumeration(game)
    assert result.degenerate
    half = (F(1, 2), F(1, 2))
    assert found(result) == [((1, 0), (1, 0), 1, 1), ((0, 1), (0, 1), 2, 2), ((1, 0), half, 1, 1)]
    assert support_enumeration(game).degenerate  # R1 has two best responses: a witness
    for label in range(4):  # the lexicographic rule ends on a degenerate game too
        reached = lemke_howson(game, label)
        assert (reached.row_strategy, reached.column_strategy) in [
            (e[0], e[1]) for e in found(result)
        ]


def test_every_cell_alike_is_degenerate_with_every_pure_pair_an_extreme_equilibrium():
    game = parse_payoffs("1,1 1,1; 1,1 1,1")
    assert isinstance(game, Bimatrix)
    result = vertex_enumeration(game)
    assert result.degenerate and len(result.equilibria) == 4


def test_bad_strategies_and_labels_are_refused_with_the_reason():
    game = parse_payoffs(BATTLE_OF_THE_SEXES)
    with pytest.raises(ValueError, match="the row strategy has 3 probabilities, the game 2"):
        gains(game, [1, 0, 0], [1, 0])
    with pytest.raises(ValueError, match="sum to 1/2, not 1"):
        gains(game, [1, 0], [F(1, 4), F(1, 4)])
    with pytest.raises(ValueError, match=r"a row \(0 to 1\) or a column \(2 to 3\), not 4"):
        lemke_howson(game, 4)
    with pytest.raises(ValueError, match="one game has one shape"):
        bimatrix([[1, 2]], [[1], [2]])


def test_the_enumerations_refuse_a_game_over_the_limit_unless_lifted():
    game = bimatrix([[0] * 12] * 12, [[0] * 12] * 12)
    with pytest.raises(ValueError, match="pairs of supports of a bimatrix game 2,704,156 is over"):
        support_enumeration(game)
    with pytest.raises(ValueError, match="--no-limit"):
        vertex_enumeration(game)


def test_float_entries_are_taken_at_their_exact_value():
    game = bimatrix([[0.5, 0.0], [0.0, 0.25]], [[0.25, 0.0], [0.0, 0.5]])
    mixed = vertex_enumeration(game).equilibria[-1]
    assert mixed.row_strategy == (F(2, 3), F(1, 3))
    assert mixed.column_strategy == (F(1, 3), F(2, 3))


# -- properties ----------------------------------------------------------------------------------


def games(low: int = -(10**6), high: int = 10**6, largest: int = 4):
    """Random bimatrix games of 1 to `largest` strategies a side (wide entries: rarely
    degenerate)."""

    def of(rows: int, columns: int):
        matrix = st.lists(
            st.lists(st.integers(low, high), min_size=columns, max_size=columns),
            min_size=rows,
            max_size=rows,
        )
        return st.tuples(matrix, matrix).map(lambda pair: bimatrix(*pair))

    return st.tuples(st.integers(1, largest), st.integers(1, largest)).flatmap(lambda s: of(*s))


SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(st.one_of(games(), games(-2, 2)))
def test_every_equilibrium_found_passes_the_deviation_check(game):
    results = [vertex_enumeration(game), support_enumeration(game)]
    results_equilibria = [e for result in results for e in result.equilibria]
    reached = [lemke_howson(game, label) for label in range(sum(game.shape))]
    for equilibrium in results_equilibria + reached:
        check = gains(game, equilibrium.row_strategy, equilibrium.column_strategy)
        assert (check.row_gain, check.column_gain) == (0, 0)
        assert (check.row_payoff, check.column_payoff) == (
            equilibrium.row_payoff,
            equilibrium.column_payoff,
        )
    assert results[0].equilibria  # every game has one
    for i, j in pure_equilibria(game):  # a pure equilibrium is an extreme one
        assert any(
            e.row_strategy[i] == 1 and e.column_strategy[j] == 1 for e in results[0].equilibria
        )


@SETTINGS
@given(games(largest=5))
def test_support_and_vertex_enumeration_agree_on_nondegenerate_games_and_lemke_howson_is_one(
    game,
):
    vertices = vertex_enumeration(game)
    if vertices.degenerate:
        return
    supports = support_enumeration(game)
    assert supports.equilibria == vertices.equilibria and not supports.degenerate
    assert len(vertices.equilibria) % 2 == 1  # a nondegenerate game has an odd number
    for label in range(sum(game.shape)):
        assert lemke_howson(game, label) in vertices.equilibria


@SETTINGS
@given(st.one_of(games(-20, 20), games(-2, 2)))
def test_a_zero_sum_bimatrix_game_gives_the_matrix_solvers_value_saddles_and_dominance(game):
    a = game.row_payoffs
    zero_sum = bimatrix(a, [[-x for x in row] for row in a.rows])
    value = solve(a).value
    for e in vertex_enumeration(zero_sum).equilibria + support_enumeration(zero_sum).equilibria:
        assert (e.row_payoff, e.column_payoff) == (value, -value)
    assert lemke_howson(zero_sum).row_payoff == value
    assert pure_equilibria(zero_sum) == pure_values(a).saddle_points
    ours, theirs = eliminate_dominated(zero_sum), eliminate_zero_sum(a)
    assert (ours.rows, ours.columns, ours.eliminations) == (
        theirs.rows,
        theirs.columns,
        theirs.eliminations,
    )
