"""`zerosum matrix` at the edges: any rational a user can type, read and solved exactly; empty
separators refused; the limits on cells, digits, files and the exact solver, each just under
(answered) and just over (refused with the limit named)."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum.theory.matrix import closed_form, eliminate_dominated, solve
from zerosum.theory.payoffs import (
    CELL_DIGITS,
    FILE_BYTES,
    MATRIX_CELLS,
    cell_value,
    parse_matrix,
    read_csv,
)
from zerosum.theory.rational import EXACT_SECONDS, exact_seconds

TINY = F(1, 10**400)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1e-400", TINY),
        ("1e400", 10**400),
        ("1/" + "7" * 500, F(1, int("7" * 500))),
        ("0.1", F(1, 10)),
        ("-3/7", F(-3, 7)),
        ("\u22123/7", F(-3, 7)),  # the minus sign of typeset text
        ("+.5e-3", F(1, 2000)),
        ("2.50E+2", 250),
        ("0e999999999", 0),
        ("0" * 999 + "1", 1),
    ],
)
def test_a_cell_is_read_exactly_however_large_or_small(text, value):
    assert cell_value(text) == value


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("1_000", "is not a number (a cell is an integer, a decimal or a fraction"),
        ("\u0663", "is not a number"),  # an Arabic-Indic digit: cells are ASCII
        ("0x10", "is not a number"),
        ("1.5/2", "is not a number"),
        ("inf", "is not a finite number"),
        ("-NaN", "is not a finite number"),
        ("1/0", "divides by zero"),
        ("1e1000", "has more than 1,000 digits, the limit of a cell"),
        ("1e-1000", "has more than 1,000 digits"),
        ("1e99999999999999999999", "has more than 1,000 digits"),
        ("1" * 1001, "has more than 1,000 digits"),
        ("1/" + "1" * 1001, "has more than 1,000 digits"),
        ("7" * 5000, "has more than 1,000 digits"),
    ],
)
def test_a_cell_that_is_not_a_number_within_the_limit_is_refused_with_the_reason(text, reason):
    with pytest.raises(ValueError, match="cell .* at row 1, column 1") as refused:
        cell_value(text)
    assert reason in str(refused.value)
    assert "4300" not in str(refused.value) and len(str(refused.value)) < 300


def test_a_cell_of_1000_digits_written_out_passes_and_1001_is_refused():
    assert CELL_DIGITS.most == 1000
    assert cell_value("1e999") == 10**999 and cell_value("1e-999") == F(1, 10**999)
    assert cell_value("9" * 1000) == 10**1000 - 1
    with pytest.raises(ValueError, match="more than 1,000 digits"):
        cell_value("1e-1000")  # a denominator of 1,001 digits


def test_games_with_cells_beyond_floats_are_solved_exactly_as_the_closed_form_says():
    for text in ("1e-400 1; 1 0", "1e400 1; 2 3", f"1/{'7' * 500} 1; 1 0", "1e-400 -1; -1 1e-400"):
        game = parse_matrix(text)
        solution = solve(game)
        assert solution.exact
        form = closed_form(game)  # none has a saddle point
        assert (solution.value, solution.row_strategy[0]) == (form.value, form.p)
    assert solve(parse_matrix("1e-400 1; 1 0")).value == F(1, 2 - TINY)


def test_matrix_command_answers_tiny_and_huge_cells_exactly(cli):
    code, out, err = cli("matrix", "1e-400 1; 1 0")
    assert (code, err) == (0, "")
    value = F(1, 2 - TINY)
    assert f"value: {value.numerator}/{value.denominator} (exact, for the row player)" in out
    data = cli.json("matrix", "1e400 -1; -1 1e400")
    assert data["value"] is None  # beyond a float: null, and the exact text beside it
    assert F(data["value_exact"]) == F(10**400 - 1, 2)
    assert data["upper_value"] == 10**400


def test_a_solution_of_more_than_4300_digits_is_printed_whole(cli):
    draw = random.Random(15)
    rows = [" ".join(str(draw.randrange(10**999, 10**1000)) for _ in range(8)) for _ in range(8)]
    code, out, err = cli("matrix", "; ".join(rows))
    assert (code, err) == (0, "")
    value = next(line for line in out.splitlines() if line.startswith("value: "))
    assert len(value) > 4300 and "(exact, for the row player)" in value


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1,,2 3; 3 4", "cell '1,,2' at row 1, column 1 is not a number or a pair"),
        ("1 2,; 3 4", "cell '2,' at row 1, column 2 is not a number or a pair"),
        (",1 2; 3 4", "cell ',1' at row 1, column 1 is not a number or a pair"),
        ("1 2; 3 , 4", "a comma at row 2, column 2 is not a number or a pair"),
        ("1 2;;3 4", "row 2 is empty: two ';' with no cell between them"),
        ("; 1 2", "row 1 is empty"),
        ("1 2; 3 4;;", "row 3 is empty"),
    ],
)
def test_an_empty_cell_or_row_or_a_stray_comma_is_refused_never_skipped(text, message, cli):
    assert message in cli.error("matrix", "--", text)


def test_rows_may_end_with_a_semicolon_and_blank_lines_are_skipped():
    assert parse_matrix("1 2;\n3 4;\n\n").rows == ((1, 2), (3, 4))


def test_an_empty_cell_in_a_csv_file_is_refused(tmp_path, cli):
    for text, message in [("1,,2\n3,4,5\n", "row 1, column 2"), ('1,2\n3,""\n', "row 2, column 2")]:
        path = tmp_path / "payoff.csv"
        path.write_text(text)
        assert f"{message} is empty" in cli.error("matrix", "--csv", str(path))
    path.write_text('"3", -1\r\n\r\n-2 , "4"\r\n')  # quotes, spaces and blank lines are fine
    assert read_csv(path).rows == ((3, -1), (-2, 4))


def _cells(count: int, width: int = 1000) -> str:
    """A matrix text of `count` cells, `width` a row."""
    full, rest = divmod(count, width)
    rows = [" ".join(["1"] * width)] * full + ([" ".join(["1"] * rest)] if rest else [])
    return "\n".join(rows)


def test_a_million_cells_are_read_and_one_more_is_refused_before_it_is_kept():
    assert MATRIX_CELLS.most == 1_000_000
    assert parse_matrix(_cells(1_000_000)).shape == (1000, 1000)
    with pytest.raises(ValueError, match="more than 1,000,000 cells, the limit") as refused:
        parse_matrix(_cells(1_000_001))
    assert "--no-limit" in str(refused.value)
    assert parse_matrix(_cells(1_000_001, 1), no_limit=True).shape == (1_000_001, 1)


def test_a_csv_file_of_ten_million_cells_is_refused_in_one_line(tmp_path, cli):
    path = tmp_path / "huge.csv"
    path.write_text((",".join(["1"] * 10_000) + "\n") * 1000)
    err = cli.error("matrix", "--csv", str(path))
    assert "more than 1,000,000 cells" in err and "--no-limit" in err


def test_a_csv_file_of_64_mb_is_read_and_one_byte_more_is_refused(tmp_path):
    assert FILE_BYTES.most == 64 * 2**20
    path = tmp_path / "padded.csv"
    path.write_bytes(b"1, 2\n3, 4" + b" " * (FILE_BYTES.most - 9))
    assert read_csv(path).rows == ((1, 2), (3, 4))
    with path.open("ab") as file:
        file.write(b" ")
    with pytest.raises(
        ValueError, match="a matrix file's bytes .* is over the limit of 67,108,864"
    ):
        read_csv(path)


def test_a_cell_that_never_ends_is_refused_without_reading_on(tmp_path, cli):
    path = tmp_path / "one.csv"
    path.write_text("1" * 10_000_000)
    assert "has more than 1,000 digits" in cli.error("matrix", "--csv", str(path))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "is empty"),
        (bytes(range(256)), "is not a text file (it holds a NUL byte)"),
        ("1,2\n3,\xe9\n".encode("latin-1"), "is not a UTF-8 text file"),
        (b"\n\n  \n", "the payoff matrix is empty"),
    ],
)
def test_empty_binary_and_foreign_files_are_one_line_each(content, message, tmp_path, cli):
    path = tmp_path / "payoff.csv"
    path.write_bytes(content)
    assert message in cli.error("matrix", "--csv", str(path))


def test_a_directory_as_the_csv_file_is_one_line(tmp_path, cli):
    assert "Is a directory" in cli.error("matrix", "--csv", str(tmp_path))


def test_exact_solving_is_limited_by_its_estimated_time_named_in_the_message(cli):
    assert EXACT_SECONDS.most == 300
    assert exact_seconds(940, 1) <= 300 < exact_seconds(941, 1)
    row = " ".join(str(k % 5) for k in range(940))
    assert cli.json("matrix", row, "--exact")["value_exact"] == "0"
    err = cli.error("matrix", row + " 4", "--exact")
    assert "the exact solver's time (estimated, in seconds) 301 is over the limit of 300" in err
    assert "1 x 941 strategies, numbers of 1 digit" in err and "--no-limit" in err
    assert cli.json("matrix", row + " 4", "--exact", "--no-limit")["value_exact"] == "0"


def test_cells_beyond_floats_past_the_exact_limit_are_refused_with_both_reasons(cli):
    row = " ".join(["1e400"] + ["1"] * 300)
    err = cli.error("matrix", row)
    assert "an entry is too large for floating point, and the exact solver's time" in err


def _eliminated_step_by_step(matrix: list[list[int]], weak: bool) -> tuple:
    """Iterated elimination as the textbook states it, every pair compared again at each step:
    the oracle of the library's, which compares a strategy again only when it must."""
    rows, columns = list(range(len(matrix))), list(range(len(matrix[0])))
    steps = []

    def beats(theirs: list[int], mine: list[int]) -> bool:
        if weak:
            return all(t >= m for t, m in zip(theirs, mine, strict=True)) and theirs != mine
        return all(t > m for t, m in zip(theirs, mine, strict=True))

    while True:
        lines = {
            "row": {i: [matrix[i][j] for j in columns] for i in rows},
            "column": {j: [-matrix[i][j] for i in rows] for j in columns},
        }
        found = next(
            (
                (player, strategy, other)
                for player in ("row", "column")
                if len(lines[player]) > 1
                for strategy, mine in lines[player].items()
                for other, theirs in lines[player].items()
                if other != strategy and beats(theirs, mine)
            ),
            None,
        )
        if found is None:
            return tuple(rows), tuple(columns), tuple(steps)
        steps.append(found)
        (rows if found[0] == "row" else columns).remove(found[1])


@settings(max_examples=300, deadline=None)
@given(
    st.integers(1, 6).flatmap(
        lambda rows: st.lists(
            st.lists(st.integers(-3, 3), min_size=rows, max_size=rows), min_size=1, max_size=6
        )
    ),
    st.booleans(),
)
def test_iterated_elimination_removes_what_the_textbooks_step_by_step_elimination_does(
    matrix, weak
):
    reduction = eliminate_dominated(matrix, weak=weak)
    steps = tuple((e.player, e.strategy, e.dominated_by) for e in reduction.eliminations)
    assert (reduction.rows, reduction.columns, steps) == _eliminated_step_by_step(matrix, weak)


def test_iterated_elimination_is_bounded_by_its_comparisons_and_refused_in_one_line(
    monkeypatch,
):
    import zerosum.theory.matrix as theory

    row = [[i % 7 for i in range(300)]]  # 257 of its columns go, one a step
    assert len(eliminate_dominated(row).eliminations) == 257
    monkeypatch.setattr(
        theory, "DOMINANCE_COMPARISONS", replace(theory.DOMINANCE_COMPARISONS, most=10_000)
    )
    with pytest.raises(ValueError) as refused:
        eliminate_dominated(row)
    message = str(refused.value)
    assert message.startswith("the comparisons of iterated elimination of dominated strategies")
    assert "is over the limit of 10,000" in message and "\n" not in message
    assert message.endswith("; pass --no-limit to try anyway")
    assert len(eliminate_dominated(row, lifted=True).eliminations) == 257
