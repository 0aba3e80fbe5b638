"""`exact` means one thing in every command's JSON (docs/json.md): a boolean, true when the
answer is proven exact. Where the answer is solved in fractions, its exact value stands beside
the float `value` as the string `value_exact` (an integer as its digits, else a fraction), null
when the answer is not exact."""

from __future__ import annotations

from fractions import Fraction

import pytest

# Each command whose answer can be exact, and whether it gives its value in fractions.
EXACT_ANSWERS = [
    (("solve", "kuhn", "--exact"), True),
    (("matrix", "1/2 -1/3; -1/6 1", "--exact"), True),
    (("matrix", "0 -1 1; 1 0 -1; -1 1 0"), True),
    (("analyze", "tictactoe", "XOX.O....", "--exact"), False),
    (("solve", "tictactoe", "XOX.O...."), False),
    (("solve", "tictactoe", "XOX.O....", "--all-moves"), False),
    (("tree", "[[3,12],[2,4]]"), False),
]


@pytest.mark.parametrize(("argv", "in_fractions"), EXACT_ANSWERS)
def test_exact_is_a_boolean_and_the_exact_value_a_string_beside_the_float(cli, argv, in_fractions):
    report = cli.json(*argv)
    assert report["exact"] is True
    if in_fractions:
        assert isinstance(report["value_exact"], str)
        assert float(Fraction(report["value_exact"])) == pytest.approx(report["value"])
    else:  # the value is an integer, exact itself
        assert "value_exact" not in report and isinstance(report["value"], int)


def test_the_exact_values_are_the_known_ones(cli):
    kuhn = cli.json("solve", "kuhn", "--exact")
    assert (kuhn["value_exact"], kuhn["value"]) == ("-1/18", pytest.approx(-1 / 18))
    assert kuhn["strategy_exact"]["Q bet"] == {"fold": "2/3", "call": "1/3"}
    matrix = cli.json("matrix", "1/2 -1/3; -1/6 1")
    assert matrix["value_exact"] == "2/9"
    assert matrix["row_strategy_exact"] == ["7/12", "5/12"]
    assert matrix["column_strategy_exact"] == ["2/3", "1/3"]
    rock = cli.json("matrix", "0 -1 1; 1 0 -1; -1 1 0")
    assert rock["value_exact"] == "0"  # an integer as its digits


def test_an_answer_in_floats_says_exact_false_and_gives_no_exact_value(cli):
    leduc = cli.json("solve", "leduc")
    assert leduc["exact"] is False
    assert leduc["value_exact"] is None and leduc["strategy_exact"] is None
    estimate = cli.json("analyze", "connect4", "4453", "--depth", "2")
    assert estimate["exact"] is False
    assert all(iteration["exact"] is False for iteration in estimate["depths"])


def test_the_page_gives_the_matrix_in_the_commands_words():
    from zerosum.web.matrix import solved_matrix

    answer = solved_matrix("1/2 -1/3; -1/6 1")
    assert answer["exact"] is True and answer["value_exact"] == "2/9"
    assert answer["row_strategy_exact"] == ["7/12", "5/12"]
