"""`zerosum matrix`: the table, the values, the exact strategies, JSON, and one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from zerosum.theory.matrix import EXACT_LIMIT


def test_matrix_3_minus1_minus2_4_shows_minima_maxima_values_and_exact_strategies(cli):
    code, out, _ = cli("matrix", "3 -1; -2 4")
    assert code == 0
    lines = out.splitlines()
    assert lines[1].split() == ["C1", "C2", "|", "row", "min"]
    assert lines[2].split() == ["R1", "3", "-1", "|", "-1"]
    assert lines[3].split() == ["R2", "-2", "4", "|", "-2"]
    assert lines[4].split() == ["col", "max", "3", "4"]
    assert "lower value (maxmin): -1, row R1" in out
    assert "upper value (minmax): 3, column C1" in out
    assert "saddle points: none" in out
    assert "value: 1 (exact, for the row player)" in out
    assert "row strategy: R1 3/5, R2 2/5" in out
    assert "column strategy: C1 1/2, C2 1/2" in out
    assert "gains the row player 0 and the column player 0" in out


def test_matrix_json_of_rock_paper_scissors_has_exact_thirds(cli):
    data = cli.json("matrix", "0 -1 1; 1 0 -1; -1 1 0")
    assert list(data) == [
        "bimatrix",
        "lower_value",
        "upper_value",
        "saddle_points",
        "value",
        "row_strategy",
        "column_strategy",
        "exact",
        "value_exact",
        "row_strategy_exact",
        "column_strategy_exact",
    ]
    assert (data["lower_value"], data["upper_value"], data["saddle_points"]) == (-1, 1, [])
    assert data["value"] == 0.0
    assert data["row_strategy"] == pytest.approx([1 / 3] * 3)
    assert data["exact"] is True and data["value_exact"] == "0"
    assert data["row_strategy_exact"] == ["1/3", "1/3", "1/3"]
    assert data["column_strategy_exact"] == ["1/3", "1/3", "1/3"]


def test_matrix_json_lists_saddle_points_0_based(cli):
    data = cli.json("matrix", "4 5 7; 3 2 1; 8 6 9")
    assert data["saddle_points"] == [[2, 1]]
    assert (data["lower_value"], data["upper_value"], data["value"]) == (6, 6, 6.0)
    assert data["row_strategy_exact"] == ["0", "0", "1"]


def test_matrix_fraction_and_decimal_cells_give_value_2_9(cli):
    data = cli.json("matrix", "0.5 -1/3; -1/6 1")
    assert data["value_exact"] == "2/9"
    assert data["lower_value"] == "-1/6"
    assert data["value"] == pytest.approx(2 / 9)


def test_matrix_fraction_cells_give_exact_lower_and_upper_values_in_json_and_text(cli):
    data = cli.json("matrix", "1/2 -1/6; -1/3 1/4")
    assert (data["lower_value"], data["upper_value"]) == ("-1/6", "1/4")
    assert data["value_exact"] == "1/18"
    code, out, _ = cli("matrix", "1/2 -1/6; -1/3 1/4")
    assert code == 0
    assert "lower value (maxmin): -1/6, row R1\nupper value (minmax): 1/4, column C2\n" in out
    assert "value: 1/18 (exact, for the row player)" in out


def test_matrix_decimal_cells_are_read_exactly_so_their_values_are_fractions(cli):
    data = cli.json("matrix", "0.5 -0.1; -0.3 0.25")
    assert (data["lower_value"], data["upper_value"]) == ("-1/10", "1/4")
    assert data["exact"] is True and data["value_exact"] == "19/230"


def test_matrix_integer_cells_give_integer_values_even_beyond_floats_precision(cli):
    big = 12345678901234567891  # 2**63 < big: a float would round it to ...7168
    data = cli.json("matrix", f"{big} {big + 2}")
    assert (data["lower_value"], data["upper_value"], data["saddle_points"]) == (big, big, [[0, 0]])
    assert (str(data["lower_value"]), data["value_exact"]) == (str(big), str(big))


def test_matrix_float_entries_give_float_values_exact_false_and_no_exact_strings():
    from zerosum.show.matrix import describe, matrix_report
    from zerosum.theory.matrix import payoff_matrix, pure_values, solve

    # Python floats, not fractions: the command reads every cell exactly, only the API has them
    game = payoff_matrix([[0.5, -1 / 6], [-1 / 3, 0.25]])
    pure, solution = pure_values(game), solve(game)
    report = matrix_report(pure, solution)
    assert (report["lower_value"], report["upper_value"]) == (-1 / 6, 0.25)
    assert report["value"] == pytest.approx(1 / 18)
    assert report["exact"] is False and report["value_exact"] is None
    assert report["row_strategy_exact"] is None and report["column_strategy_exact"] is None
    text = describe(game, pure, solution)
    assert "lower value (maxmin): -0.1666666667, row R1" in text
    assert "upper value (minmax): 0.25, column C2" in text
    assert "(floating point, for the row player)" in text


def test_matrix_from_csv_file(tmp_path, cli):
    path = tmp_path / "payoff.csv"
    path.write_text("-2,3\n3,-4\n")
    data = cli.json("matrix", "--csv", str(path))
    assert (data["lower_value"], data["upper_value"], data["exact"]) == (-2, 3, True)
    assert data["value_exact"] == "1/12"
    assert data["row_strategy_exact"] == data["column_strategy_exact"] == ["7/12", "5/12"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["1 2; 3"], "ragged matrix: row 2 has 1 cell, row 1 has 2 cells"),
        (["  ;  "], "the payoff matrix is empty"),
        (["1 two; 3 4"], "cell 'two' at row 1, column 2 is not a number"),
        (["1 nan; 3 4"], "cell 'nan' at row 1, column 2 is not a finite number"),
        (["1 2; -inf 4"], "cell '-inf' at row 2, column 1 is not a finite number"),
        (["--csv", "/nonexistent/payoff.csv"], "cannot read '/nonexistent/payoff.csv'"),
        ([], "give the matrix either as text"),
        (["1 2", "--csv", "x.csv"], "give the matrix either as text"),
    ],
)
def test_matrix_bad_input_is_one_line_and_exit_2(argv, message, cli):
    code, out, err = cli("matrix", *argv)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert err.startswith("zerosum: error: ") and message in err


def test_matrix_csv_with_a_non_numeric_cell_is_one_line_and_exit_2(tmp_path, cli):
    path = tmp_path / "payoff.csv"
    path.write_text("row,col\n1,2\n")
    err = cli.error("matrix", "--csv", str(path))
    assert err == (
        "zerosum: error: cell 'row' at row 1, column 1 is not a number (a cell is an integer,"
        " a decimal or a fraction: 3, -0.25, 1e-9, -3/7)\n"
    )


def test_matrix_command_runs_as_a_module(cli):
    code, out, _ = cli.process("matrix", "1 -1; -1 1", "--json")
    assert code == 0
    assert json.loads(out)["row_strategy_exact"] == ["1/2", "1/2"]


def test_matrix_ragged_input_through_a_subprocess_exits_2_with_one_line(cli):
    code, _, err = cli.process("matrix", "1 2 3; 4 5")
    assert code == 2
    assert err == "zerosum: error: ragged matrix: row 2 has 2 cells, row 1 has 3 cells\n"


def test_matrix_larger_than_the_exact_limit_is_floats_unless_exact_is_asked(tmp_path, cli):
    size = EXACT_LIMIT + 1
    path = tmp_path / "big.csv"
    # The identity matrix: each player spreads evenly, value 1/size.
    path.write_text("\n".join(",".join(str(int(i == j)) for j in range(size)) for i in range(size)))
    floats = cli.json("matrix", "--csv", str(path))
    assert floats["exact"] is False and floats["value_exact"] is None
    assert floats["value"] == pytest.approx(1 / size)
    exact = cli.json("matrix", "--csv", str(path), "--exact")
    assert exact["value_exact"] == f"1/{size}"
    assert exact["row_strategy_exact"] == [f"1/{size}"] * size


def test_other_commands_do_not_wait_for_scipy_to_import():
    check = "import sys, zerosum.cli; print('scipy' in sys.modules)"
    completed = subprocess.run(
        [sys.executable, "-c", check], capture_output=True, text=True, check=True
    )
    assert completed.stdout.strip() == "False"


def test_matrix_of_pairs_answers_the_battle_of_the_sexes_with_every_equilibrium(cli):
    code, out, err = cli("matrix", "3,1 0,0; 0,0 1,3", "--all")
    assert (code, err) == (0, "")
    assert "pure equilibria: (R1, C1), (R2, C2)" in out
    assert "the game is nondegenerate: 3 equilibria, by vertex enumeration:" in out
    assert "3. row R1 3/4, R2 1/4; column C1 1/4, C2 3/4; payoffs 3/4 and 3/4" in out
    data = cli.json("matrix", "3,1 0,0; 0,0 1,3", "--all", "--lemke-howson")
    assert data["bimatrix"] is True and data["degenerate"] is False
    assert [e["row_strategy_exact"] for e in data["equilibria"]] == [
        ["1", "0"],
        ["0", "1"],
        ["3/4", "1/4"],
    ]
    assert [e["labels"] for e in data["equilibria"]] == [[0, 2], [1, 3], []]


def test_matrix_of_pairs_in_a_csv_file_is_read_in_quotes(cli, tmp_path):
    path = tmp_path / "bos.csv"
    path.write_text('"3,1","0,0"\n"0,0","1,3"\n')
    assert len(cli.json("matrix", "--csv", str(path), "--all")["equilibria"]) == 3


def test_a_zero_sum_game_in_pairs_gives_the_matrix_value(cli):
    pairs = cli.json("matrix", "1/2,-1/2 -1/3,1/3; -1/6,1/6 1,-1", "--all")
    matrix = cli.json("matrix", "1/2 -1/3; -1/6 1")
    assert pairs["zero_sum"] is True
    assert pairs["value_exact"] == matrix["value_exact"] == "2/9"
    assert [e["row_payoff_exact"] for e in pairs["equilibria"]] == ["2/9"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["3,1 0"], "cell '0' at row 1, column 2 is a number, where the first cell is a pair"),
        (["3 0,1"], "cell '0,1' at row 1, column 2 is a pair, where the first cell is a number"),
        (["1, 2; 3, 4"], "cell '1,' at row 1, column 1 is not a number or a pair"),
        (["--", "-1,2;3,-4"], "every row is one pair (-1,2)"),
        (["3 -1; -2 4", "--all"], "--all and --lemke-howson are for bimatrix games"),
    ],
)
def test_bad_pairs_are_one_line_and_exit_code_2(cli, argv, message):
    assert message in cli.error("matrix", *argv)
