"""`zerosum cgt`: values, outcomes, means, temperatures, winning moves, the thermograph, and
bad input as one line with exit code 2."""

from xml.etree import ElementTree

import pytest


def test_an_expression_gives_its_canonical_form_outcome_mean_and_temperature(cli):
    report = cli.json("cgt", "{2 | -1} + ^*")
    assert (report["canonical"], report["outcome"]) == ("{2↑* | -1↑*}", "N")
    assert (report["mean_value"], report["temperature"], report["is_number"]) == (
        "1/2",
        "3/2",
        False,
    )


def test_compare_says_how_two_values_stand(cli):
    assert cli.json("cgt", "^", "--compare", "*")["relation"] == "||"
    assert cli.json("cgt", "^ + ^ + *", "--compare", "0")["relation"] == ">"
    assert cli.json("cgt", "{0 | 2}", "--compare", "1")["relation"] == "="


def test_a_domineering_sum_gives_each_part_and_the_winning_moves(cli):
    report = cli.json("cgt", "domineering", "2x2 + .#/..")
    assert [c["canonical"] for c in report["components"]] == ["±1", "*"]
    assert report["canonical"] == "{1* | -1*}" and report["outcome"] == "N"
    left = [m["move"] for m in report["winning_moves"] if m["player"] == "left"]
    assert left == ["v1,1", "v1,2"]  # into the square, leaving 1*: never the corner's domino


def test_a_hackenbush_position_without_a_winning_move_for_red(cli):
    code, out, _ = cli("cgt", "hackenbush", "brr bg")
    assert code == 0
    assert "value        5/4*" in out and "Red (Right) moving first: no move wins" in out


def test_the_thermograph_is_drawn_with_both_walls_and_the_mast(cli, tmp_path):
    picture = tmp_path / "t.svg"
    report = cli.json("cgt", "{2 | -1}", "--show", "svg", "-o", str(picture))
    assert report["output"] == str(picture)
    drawn = ElementTree.parse(picture).getroot()
    kinds = [e.get("class") for e in drawn.iter() if e.tag.endswith("polyline")]
    assert kinds == ["left", "right", "mast"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["1/3"], "1/3 is not a dyadic rational"),
        (["{1 | 2"], "ends too soon"),
        (["domineering", "2x3 + ../..."], "rows of equal length"),
        (["hackenbush", "0-1:q"], "U-V:C"),
        (["toads-frogs"], "say which position of toads-frogs"),
        (["{1|-1}", "-o", "x.svg"], "-o writes the picture"),
        (["nowhere.py:Game", "3"], "no file 'nowhere.py'"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(cli, argv, message):
    assert message in cli.error("cgt", *argv)


def test_a_limit_on_the_positions_valued_is_refused_then_lifted(cli, monkeypatch):
    from zerosum.limits import Limit
    from zerosum.theory import partizan_games

    monkeypatch.setattr(partizan_games, "POSITIONS", Limit(partizan_games.POSITIONS.what, 5))
    assert "is over the limit of 5" in cli.error("cgt", "domineering", "3x3")
    assert cli.json("cgt", "domineering", "3x3", "--no-limit")["canonical"] == "±1"
